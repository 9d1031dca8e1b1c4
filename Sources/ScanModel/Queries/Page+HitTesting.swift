extension Page {
  /// The text position nearest to `point` (`UITextInput.closestPosition(to:)`):
  /// on the nearest line (the smallest distance to a line's selection band;
  /// ties to the line whose centre is nearer across, then the earlier
  /// line), the caret stop (a glyph or grapheme boundary) nearest along the
  /// line. Past a line's end it is the line's end position; below both the
  /// last line and the nearest line, the end of the text. On a page without lines, the start
  /// position. Positions never fall inside a grapheme cluster.
  ///
  /// - Parameter point: A point in image pixels.
  /// - Complexity: O(log *n*) in the lines of the page, plus O(log *w*) in
  ///   the caret stops of the chosen line.
  public func closestPosition(to point: Point) -> TextPosition {
    guard let n = layout.nearestLine(to: point) else { return startPosition }
    // Below the last line and below the nearest one (past their bands,
    // across the text) is the end of the text, as a tap below the text of
    // a text view.
    let last = layout.lines[layout.lines.count - 1].frame
    let nearest = layout.lines[n].frame
    if last.local(point).v > last.bandBottom, nearest.local(point).v > nearest.bandBottom {
      return endPosition
    }
    return closestPosition(to: point, onLine: n)
  }

  /// The position nearest to `point` among the positions of `range`
  /// (`UITextInput.closestPosition(to:within:)`), or `nil` when the range
  /// is outside the page text.
  ///
  /// - Complexity: O(log *n*) when the nearest position falls inside the
  ///   range, else O(*k* log *w*) in the lines the range touches.
  public func closestPosition(to point: Point, within range: TextRange) -> TextPosition? {
    guard contains(range) else { return nil }
    let best = closestPosition(to: point)
    if range.contains(best) || best == range.upperBound { return best }
    var candidate: (position: TextPosition, distance: Double)?
    func consider(_ offset: Int) {
      let p = TextPosition(offset: offset)
      guard let caret = caretRect(for: p) else { return }
      let d = caret.bounds.distance(to: point)
      if candidate == nil || d < candidate?.distance ?? 0 { candidate = (p, d) }
    }
    consider(range.lowerBound.offset)
    consider(range.upperBound.offset)
    var n = layout.caretLineNumber(for: range.lowerBound.offset) ?? 0
    while n < layout.lines.count, layout.lines[n].range.lowerBound <= range.upperBound.offset {
      let p = closestPosition(to: point, onLine: n).offset
      consider(min(max(p, range.lowerBound.offset), range.upperBound.offset))
      n += 1
    }
    return candidate?.position ?? range.lowerBound
  }

  /// The range of the character under or nearest to `point`
  /// (`UITextInput.characterRange(at:)`): on the nearest line, the glyph (or
  /// the space between two words) whose span along the line holds the
  /// point. `nil` on a page without lines.
  ///
  /// - Complexity: O(log *n*) in the lines plus O(log *w*) in the caret
  ///   stops of the chosen line.
  public func characterRange(at point: Point) -> TextRange? {
    guard let n = layout.nearestLine(to: point) else { return nil }
    let stops = layout.lines[n].stops
    guard stops.count > 1 else { return nil }
    let u = layout.lines[n].frame.local(point).u
    var i = layout.nearestStop(line: n, u: u) ?? stops.lowerBound
    // Choose the span [stop i, stop i+1) that holds u.
    if i > stops.lowerBound, layout.stopU[i] > u { i -= 1 }
    if i >= stops.upperBound - 1 { i = stops.upperBound - 2 }
    var start = layout.stopOffset(i)
    var end = layout.stopOffset(i + 1)
    if start == end {
      // Zero-length span: degenerate glyph; take the next character (whole
      // grapheme cluster), or the previous one at the line's end.
      let line = layout.lines[n].range
      if start < line.upperBound,
        let next = position(from: TextPosition(offset: start), offsetByCharacters: 1)
      {
        end = min(next.offset, line.upperBound)
      } else if let previous = position(from: TextPosition(offset: end), offsetByCharacters: -1) {
        start = max(previous.offset, line.lowerBound)
      }
    }
    return TextRange(offsets: start..<end)
  }

  /// The OCR word at `point`: the word of the line under the point whose
  /// span along the line holds it, as the OCR engine delimits it, with its
  /// punctuation (`fox.`). `nil` when the point is off every line's band or
  /// in the gap between two words. For the tokenizer's `.word` unit under
  /// the point (`fox`, a hyphenated word whole), the word a double tap
  /// selects, use ``wordRange(at:)``; where that is not `nil` it overlaps
  /// this word's range.
  ///
  /// - Parameter point: A point in image pixels.
  /// - Returns: The OCR word, or `nil`.
  /// - Complexity: O(log *n*) in the lines plus O(*w*) in the words of one line.
  public func word(at point: Point) -> Word? {
    guard let n = lineNumber(at: point) else { return nil }
    let u = layout.lines[n].frame.local(point).u
    for w in layout.lines[n].words {
      let entry = layout.words[w]
      let u0 = layout.caretU(line: n, offset: entry.range.lowerBound)
      let u1 = layout.caretU(line: n, offset: entry.range.upperBound)
      if u >= min(u0, u1), u <= max(u0, u1) { return word(at: entry) }
    }
    return nil
  }

  /// The reading-order number of the line whose band holds `point`, or `nil`
  /// off every line (`UIAccessibilityReadingContent.accessibilityLineNumber(for:)`).
  /// - Complexity: O(log *n*) in the lines of the page.
  public func lineNumber(at point: Point) -> Int? {
    guard let n = layout.nearestLine(to: point),
      layout.lines[n].frame.distance(to: point) == 0
    else { return nil }
    return n
  }

  /// The reading-order number of the line nearest to `point`, or `nil` on a
  /// page without lines.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func nearestLineNumber(to point: Point) -> Int? {
    layout.nearestLine(to: point)
  }

  private func closestPosition(to point: Point, onLine n: Int) -> TextPosition {
    let u = layout.lines[n].frame.local(point).u
    guard let stop = layout.nearestStop(line: n, u: u) else {
      return TextPosition(offset: layout.lines[n].range.lowerBound)
    }
    return TextPosition(offset: layout.stopOffset(stop))
  }
}
