/// The heading levels ScanText's outputs write (the accessible HTML's
/// `h1`–`h6`, the tagged PDF's `H1`–`H6`, Markdown's `#`–`######`): a
/// page's measured level, but never more than one below the heading before
/// it, so that the outline a screen reader lists skips no level (WCAG
/// 1.3.1; PDF/UA's Matterhorn checkpoint 14-003).
enum HeadingLevels {
  /// The level to write a heading at.
  /// - Parameters:
  ///   - level: The model's level (``ScanModel/Paragraph/headingLevel``;
  ///     1 when `nil`).
  ///   - previous: The level written for the heading before it in the
  ///     document (0 before the first).
  /// - Returns: A level from 1 to 6.
  static func written(_ level: Int?, after previous: Int) -> Int {
    min(max(1, level ?? 1), previous + 1, 6)
  }
}
