/// The writing direction of a line of text.
public enum WritingDirection: String, Sendable {
  case leftToRight
  case rightToLeft
}

/// One rectangle of a selection, one per line the selection touches
/// (`UITextSelectionRect`).
public struct SelectionRect: Hashable, Sendable {
  /// The axis-aligned bounds of ``quad``, in image pixels.
  public var rect: Rect
  /// The selected band of the line: from the start caret to the end caret
  /// along the line, across the line's full height, following its baseline.
  public var quad: Quad
  /// The reading-order number of the line.
  public var lineNumber: Int
  /// The part of the selection on this line.
  public var range: TextRange
  /// Whether this rect holds the start of the selection (the first rect).
  public var containsStart: Bool
  /// Whether this rect holds the end of the selection (the last rect).
  public var containsEnd: Bool
  /// Whether the line runs vertically in the image (a page turned by 90°).
  public var isVertical: Bool
  /// The line's writing direction (left to right: the OCR languages supported).
  public var writingDirection: WritingDirection
}

/// A caret: a zero-width band across a line at a position.
public struct CaretRect: Hashable, Sendable {
  /// The axis-aligned bounds of ``quad``.
  public var rect: Rect
  /// The caret's corners (its left and right edges coincide).
  public var quad: Quad
  /// The reading-order number of the line the caret stands on.
  public var lineNumber: Int
}

extension Page {
  /// The selection rectangles of `range`, one for each line whose text the
  /// range covers at least one character of, in reading order
  /// (`UITextInput.selectionRects(for:)`).
  ///
  /// Each rect runs from the caret at the selection's start (or the line's
  /// start) to the caret at its end (or the line's end), across the line's
  /// full height; a selection of a whole line covers all its words and the
  /// gaps between them. Where the boxes of two lines overlap, each line's
  /// band stops at the middle of the overlap, so rects never overlap. A
  /// range that starts in the line break after a line (at its end) has a
  /// zero-width first rect at that line's end, where its start caret
  /// stands, so the start handle sits with the caret; a range of line
  /// breaks only has that one rect. An empty range has no rects.
  ///
  /// - Precondition: `range` lies within the page text (``contains(_:)-7m0ha``).
  /// - Complexity: O(log *n* + *k*) in the lines of the page and the lines
  ///   the range touches.
  public func selectionRects(for range: TextRange) -> [SelectionRect] {
    precondition(contains(range), "TextRange \(range) is out of bounds for this page")
    let s = range.lowerBound.offset
    let e = range.upperBound.offset
    guard s < e, !layout.lines.isEmpty else { return [] }
    var n = layout.caretLineNumber(for: s) ?? 0
    var rects: [SelectionRect] = []
    let startLine = n
    while n < layout.lines.count, layout.lines[n].range.lowerBound < e {
      let line = layout.lines[n]
      let from = max(s, line.range.lowerBound)
      let to = min(e, line.range.upperBound)
      if from >= to, n == startLine {
        // The selection starts in the line break after this line: a
        // zero-width rect at the line's end, where the start caret is.
        let u = layout.caretU(line: n, offset: line.range.upperBound)
        let quad = line.frame.quad(from: u, to: u)
        rects.append(
          SelectionRect(
            rect: quad.boundingRect, quad: quad, lineNumber: n,
            range: .init(offsets: line.range.upperBound..<line.range.upperBound),
            containsStart: true, containsEnd: false, isVertical: line.frame.isVertical,
            writingDirection: .leftToRight))
      } else if from < to {
        let quad = line.frame.quad(
          from: layout.caretU(line: n, offset: from), to: layout.caretU(line: n, offset: to))
        rects.append(
          SelectionRect(
            rect: quad.boundingRect, quad: quad, lineNumber: n,
            range: .init(offsets: from..<to), containsStart: rects.isEmpty, containsEnd: false,
            isVertical: line.frame.isVertical, writingDirection: .leftToRight))
      }
      n += 1
    }
    if !rects.isEmpty { rects[rects.count - 1].containsEnd = true }
    return rects
  }

  /// The caret at `position`: a zero-width band across the line it stands on
  /// (`UITextInput.caretRect(for:)`). A position in the newlines after a line
  /// stands at that line's end. `nil` on a page without lines.
  ///
  /// - Precondition: `position` lies within the page text.
  /// - Complexity: O(log *n*) in the lines and caret stops of the page.
  public func caretRect(for position: TextPosition) -> CaretRect? {
    precondition(contains(position), "TextPosition \(position) is out of bounds for this page")
    guard let n = layout.caretLineNumber(for: position.offset) else { return nil }
    let frame = layout.lines[n].frame
    let u = layout.caretU(line: n, offset: position.offset)
    let quad = frame.quad(from: u, to: u)
    return CaretRect(rect: quad.boundingRect, quad: quad, lineNumber: n)
  }

  /// The rectangle of the first line of `range` (`UITextInput.firstRect(for:)`);
  /// for an empty range, the caret's rectangle. `nil` when nothing is there.
  ///
  /// - Precondition: `range` lies within the page text.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func firstRect(for range: TextRange) -> Rect? {
    precondition(contains(range), "TextRange \(range) is out of bounds for this page")
    if range.isEmpty { return caretRect(for: range.lowerBound)?.rect }
    // Only the first touched line matters: cut the range at its end.
    let s = range.lowerBound.offset
    guard let n = layout.caretLineNumber(for: s) else { return nil }
    var k = n
    while k < layout.lines.count {
      let r = layout.lines[k].range
      if r.lowerBound >= range.upperBound.offset { return nil }
      if max(s, r.lowerBound) < min(range.upperBound.offset, r.upperBound) {
        let cut = TextRange(
          offsets: max(s, r.lowerBound)..<min(range.upperBound.offset, r.upperBound))
        return selectionRects(for: cut).first?.rect
      }
      k += 1
    }
    return nil
  }
}
