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
  ///
  /// This is the line's accessibility path. ``frame(forLineNumber:)`` is
  /// upright, so on a skewed page it also covers parts of the lines above
  /// and below; VoiceOver draws its cursor around `accessibilityPath` when
  /// an element has one. Build the path from the four corners, in image
  /// pixels, converted to your view's coordinates:
  ///
  /// ```swift
  /// if let quad = page.quad(forLineNumber: n) {
  ///   let path = UIBezierPath()
  ///   path.move(to: view.point(quad.topLeft))
  ///   path.addLine(to: view.point(quad.topRight))
  ///   path.addLine(to: view.point(quad.bottomRight))
  ///   path.addLine(to: view.point(quad.bottomLeft))
  ///   path.close()
  ///   element.accessibilityPath = UIAccessibility.convertToScreenCoordinates(path, in: view)
  /// }
  /// ```
  ///
  /// ``Heading/quads`` gives the same outlines for each line of a heading.
  /// - Parameter number: A reading-order line number.
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
