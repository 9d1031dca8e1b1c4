extension Page {
  /// The text of a line, for VoiceOver
  /// (`UIAccessibilityReadingContent.accessibilityContent(forLineNumber:)`),
  /// or `nil` for a line number out of range.
  /// - Complexity: O(1).
  public func content(forLineNumber number: Int) -> String? {
    line(number: number)?.text
  }

  /// The frame of a line: the axis-aligned bounds of its full band, in image
  /// pixels (`accessibilityFrame(forLineNumber:)`), or `nil` out of range.
  /// - Complexity: O(1).
  public func frame(forLineNumber number: Int) -> Rect? {
    quad(forLineNumber: number)?.boundingRect
  }

  /// The corners of a line's full outline, or `nil` out of range: its box
  /// on a level line; on a skewed or rotated line, the rectangle along the
  /// line that holds its words.
  /// - Complexity: O(1).
  public func quad(forLineNumber number: Int) -> Quad? {
    guard layout.lines.indices.contains(number) else { return nil }
    return layout.lines[number].outline
  }

  /// The text of the whole page (`accessibilityPageContent()`).
  public var pageContent: String { text }

  /// The reading-order line number of the line whose range holds `position`
  /// (ends included), or `nil` in the newlines between lines.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func lineNumber(containing position: TextPosition) -> Int? {
    layout.lineNumber(containing: position.offset)
  }
}
