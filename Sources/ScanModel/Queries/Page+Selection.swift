import Foundation

/// The base writing direction of a paragraph (`NSWritingDirection`, with
/// `natural` resolved from the text: see
/// ``Page/baseWritingDirection(for:in:)``).
public enum WritingDirection: String, Sendable {
  case leftToRight
  case rightToLeft
}

/// One rectangle of a selection, one per line the selection touches
/// (`UITextSelectionRect`).
///
/// As in UIKit, ``rect`` is the rectangle *before* ``transform``: on a
/// skewed or rotated line it is the upright box of the selected band (as
/// long as the band along the line, as high as the line), centred on the
/// band, and ``transform`` turns it about its centre onto the band
/// (``quad``). On an upright line the transform is the identity and
/// ``rect``, ``bounds`` and ``quad`` describe the same box.
public struct SelectionRect: Hashable, Sendable {
  /// The selected band before ``transform``: upright, centred on the band,
  /// its width the band's length along the line and its height the line's
  /// (`UITextSelectionRect.rect`).
  public var rect: Rect
  /// The rotation, about the centre of ``rect``, that lays ``rect`` on the
  /// line (`UITextSelectionRect.transform`): by the angle of the line's
  /// baseline, within ±90° (a right-to-left or upside-down line's rect is
  /// not turned over), so `rect.applying(transform)` covers ``quad``.
  public var transform: AffineTransform
  /// The axis-aligned bounds of ``quad``, in image pixels.
  public var bounds: Rect
  /// The selected band of the line: from the start caret to the end caret
  /// along the line, across the line's full height, following its baseline.
  /// Its corners are named in the line's reading frame: on a right-to-left
  /// line `topLeft` is the band's right end.
  public var quad: Quad
  /// On a curved line (``TextLine/polygon``), the selected band following
  /// the curve: a point on its top edge at the start caret, at each of the
  /// line's cross-sections in between and at the end caret, then the same
  /// back along the bottom edge (``quad`` has the same four ends). `nil`
  /// on a straight line, whose band ``quad`` is.
  public var polygon: [Point]?
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
  /// The base writing direction of the line's paragraph
  /// (``Page/baseWritingDirection(for:in:)``).
  public var writingDirection: WritingDirection
}

/// A caret at a position (`UITextInput.caretRect(for:)` and
/// `caretTransform(for:)`).
///
/// ``quad`` is the caret's line: zero-width, across the line's full height
/// at the caret stop. ``rect`` is the caret as drawn: upright, centred on
/// that line, as high as the line and ``width`` wide; ``transform`` turns it
/// about its centre onto the line's slope, as for ``SelectionRect``.
public struct CaretRect: Hashable, Sendable {
  /// The visible caret before ``transform``: upright, centred on ``quad``,
  /// ``width`` wide and as high as the line.
  public var rect: Rect
  /// The rotation about the centre of ``rect`` that lays the caret along
  /// the line's slope (`UITextInput.caretTransform(for:)`).
  public var transform: AffineTransform
  /// The caret's width: a tenth of the line's height, at least 2 px (UIKit
  /// draws a 2-point caret on 17-point text, whose line is about 20 points
  /// high).
  public var width: Double
  /// The axis-aligned bounds of ``quad`` (zero-width on an upright line).
  public var bounds: Rect
  /// The caret's line: corners across the line at the caret stop (its left
  /// and right edges coincide).
  public var quad: Quad
  /// The reading-order number of the line the caret stands on.
  public var lineNumber: Int
}

extension LineFrame {
  /// The band between `u0` and `u1` as UIKit places a view: an upright
  /// rectangle centred on the band, at least `minimumWidth` wide, and the
  /// rotation about its centre (within ±90°) that lays it along the line.
  func placement(from u0: Double, to u1: Double, minimumWidth: Double = 0) -> (
    rect: Rect, transform: AffineTransform
  ) {
    let along = tangent(at: (u0 + u1) / 2)
    var angle = atan2(along.y, along.x)
    if angle > Double.pi / 2 { angle -= Double.pi }
    if angle <= -Double.pi / 2 { angle += Double.pi }
    let width = max(abs(u1 - u0), minimumWidth)
    let height = bandBottom - bandTop
    let c = point(u: (u0 + u1) / 2, v: (bandTop + bandBottom) / 2)
    return (
      Rect(
        minX: c.x - width / 2, minY: c.y - height / 2, maxX: c.x + width / 2,
        maxY: c.y + height / 2),
      AffineTransform(rotationAngle: angle)
    )
  }

  /// The width of a caret on this line: a tenth of its height, at least 2 px.
  var caretWidth: Double { max(2, (bandBottom - bandTop) / 10) }

  /// The selection rect of the band between two caret positions.
  func selectionRect(
    from u0: Double, to u1: Double, lineNumber: Int, range: TextRange,
    direction: WritingDirection
  ) -> SelectionRect {
    let quad = quad(from: u0, to: u1)
    let (rect, transform) = placement(from: u0, to: u1)
    let polygon = isCurved ? polygon(from: u0, to: u1) : nil
    return SelectionRect(
      rect: rect, transform: transform,
      bounds: polygon.map { Rect(bounding: $0) } ?? quad.boundingRect, quad: quad,
      polygon: polygon, lineNumber: lineNumber, range: range, containsStart: false,
      containsEnd: false,
      isVertical: isVertical, writingDirection: direction)
  }
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
  /// - Precondition: `range` lies within the page text (`contains(_:)` of a range).
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
        var rect = line.frame.selectionRect(
          from: u, to: u, lineNumber: n,
          range: .init(offsets: line.range.upperBound..<line.range.upperBound),
          direction: line.direction)
        rect.containsStart = true
        rects.append(rect)
      } else if from < to {
        var rect = line.frame.selectionRect(
          from: layout.caretU(line: n, offset: from), to: layout.caretU(line: n, offset: to),
          lineNumber: n, range: .init(offsets: from..<to), direction: line.direction)
        rect.containsStart = rects.isEmpty
        rects.append(rect)
      }
      n += 1
    }
    if !rects.isEmpty { rects[rects.count - 1].containsEnd = true }
    return rects
  }

  /// The caret at `position` (`UITextInput.caretRect(for:)`): a band across
  /// the line it stands on, at the caret stop. A position in the newlines
  /// after a line stands at that line's end. `nil` on a page without lines.
  ///
  /// The result carries the zero-width caret line (``CaretRect/quad``), the
  /// visible caret before rotation (``CaretRect/rect``, ``CaretRect/width``
  /// wide) and its rotation onto the line (``CaretRect/transform``).
  ///
  /// - Parameter position: A position in the page text.
  /// - Returns: The caret, or `nil` when the page has no lines.
  /// - Precondition: `position` lies within the page text.
  /// - Complexity: O(log *n*) in the lines and caret stops of the page.
  public func caretRect(for position: TextPosition) -> CaretRect? {
    precondition(contains(position), "TextPosition \(position) is out of bounds for this page")
    guard let n = layout.caretLineNumber(for: position.offset) else { return nil }
    let frame = layout.lines[n].frame
    let u = layout.caretU(line: n, offset: position.offset)
    let quad = frame.quad(from: u, to: u)
    let width = frame.caretWidth
    let (rect, transform) = frame.placement(from: u, to: u, minimumWidth: width)
    return CaretRect(
      rect: rect, transform: transform, width: width, bounds: quad.boundingRect, quad: quad,
      lineNumber: n)
  }

  /// The rotation that lays the caret at `position` along its line
  /// (`UITextInput.caretTransform(for:)`), about the centre of the caret's
  /// ``CaretRect/rect``: the identity on an upright line, the baseline's
  /// angle (within ±90°) on a skewed or rotated one, and the identity on a
  /// page without lines.
  ///
  /// - Parameter position: A position in the page text.
  /// - Returns: A rotation (`tx` and `ty` are zero).
  /// - Precondition: `position` lies within the page text.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func caretTransform(for position: TextPosition) -> AffineTransform {
    caretRect(for: position)?.transform ?? .identity
  }

  /// The rectangle of the first line of `range` (`UITextInput.firstRect(for:)`):
  /// the axis-aligned bounds of its first selection rect
  /// (``SelectionRect/bounds``); for an empty range, the bounds of the
  /// zero-width caret (``CaretRect/bounds``). `nil` when nothing is there.
  ///
  /// - Precondition: `range` lies within the page text.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func firstRect(for range: TextRange) -> Rect? {
    precondition(contains(range), "TextRange \(range) is out of bounds for this page")
    if range.isEmpty { return caretRect(for: range.lowerBound)?.bounds }
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
        return selectionRects(for: cut).first?.bounds
      }
      k += 1
    }
    return nil
  }
}
