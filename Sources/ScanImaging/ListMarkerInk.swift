import ScanModel

/// A list item's marker that OCR did not read as text: the bullet, box or
/// arrow printed to the left of the item's first line.
///
/// Lists are set as a marker, a tab, then the item's text: the marker is
/// one small glyph (a dot, a square, a check box, a triangle) standing
/// alone in the space before the line, about as tall as the line's
/// letters or less, level with them. OCR often drops it (a check box's
/// outline, a pale or coloured bullet) or reads it as a letter. This
/// looks for exactly that in the image: in the strip left of the line,
/// from two and a half line heights out to a sixth of one before it, the
/// ink (pixels darker than the midpoint of the ink and paper of the
/// line's first letters) must form one compact run, at most 1.6 line
/// heights wide and, with the ink above and below it in its columns, at
/// most 1.6 line heights tall (a box drawn as tall as capitals and
/// descenders beside a line of small letters such as "No"; a drop cap
/// spans two lines or more), with blank paper between it and the line
/// and none of it touching the strip's outer end (a word of a column to
/// the left runs on past it).
package enum ListMarkerInk {
  /// The box of a marker's ink left of `line`, or `nil` when the strip
  /// there is blank, holds more than one glyph's ink, or ink that runs out
  /// of it.
  /// - Parameters:
  ///   - line: The box of the line's text (its first word onwards).
  ///   - view: The page image's gray values.
  /// - Complexity: O(*h*²) in the line's height *h*.
  package static func marker(leftOf line: PixelRect, in view: GrayView) -> PixelRect? {
    let height = line.maxY - line.minY
    guard height >= 6, line.minX > 0 else { return nil }
    let y0 = max(0, line.minY)
    let y1 = min(view.height, line.maxY)
    let x1 = min(view.width, line.minX - max(1, height / 6))
    let x0 = max(0, line.minX - height * 5 / 2)
    guard x1 - x0 >= height / 2, y1 > y0 else { return nil }
    // The ink and paper of the line's start (its first letters) set the
    // threshold.
    let start = PixelRect(
      minX: line.minX, minY: line.minY, maxX: min(line.maxX, line.minX + 3 * height),
      maxY: line.maxY)
    guard let levels = view.inkLevels(in: start) else { return nil }
    // Ink darker than halfway to the text's, or a mark lighter than the
    // paper by 24 gray levels (a white box on tinted paper; white paper
    // leaves no room for one, and its grain stays within that of its
    // lightest values).
    let dark = (levels.ink + levels.paper) / 2
    let light = levels.paper + 24
    func isInk(_ x: Int, _ y: Int) -> Bool {
      let v = view.value(x, y)
      return v < dark || v > light
    }
    // Ink per column of the strip, and the rows it reaches.
    var columns = [Int](repeating: 0, count: x1 - x0)
    var top = Int.max
    var bottom = Int.min
    for y in y0..<y1 {
      for x in x0..<x1 where isInk(x, y) {
        columns[x - x0] += 1
        top = min(top, y)
        bottom = max(bottom, y)
      }
    }
    guard let first = columns.firstIndex(where: { $0 > 0 }),
      let last = columns.lastIndex(where: { $0 > 0 })
    else { return nil }
    let ink = columns.reduce(0, +)
    let width = last - first + 1
    // One run of ink (a gap of a quarter line height would be two glyphs),
    // away from the strip's outer end, compact, not a speck.
    var gap = 0
    for count in columns[first...last] {
      gap = count == 0 ? gap + 1 : 0
      if gap > height / 4 { return nil }
    }
    // The glyph's whole height: rows next to it with ink in its columns
    // belong to it (a drop cap or a rule down the margin is taller than
    // a line; a box of the next item is parted from it by a blank row).
    func inked(_ y: Int) -> Bool {
      (x0 + first...x0 + last).contains { isInk($0, y) }
    }
    while top > max(0, y0 - 2 * height), inked(top - 1) { top -= 1 }
    while bottom < min(view.height - 1, y1 + 2 * height), inked(bottom + 1) { bottom += 1 }
    let inkHeight = bottom - top + 1
    guard first > 0, width <= height * 8 / 5, inkHeight <= height * 8 / 5,
      width >= max(2, height / 8), inkHeight >= max(2, height / 8),
      ink >= max(4, height * height / 40)
    else { return nil }
    return PixelRect(minX: x0 + first, minY: top, maxX: x0 + last + 1, maxY: bottom + 1)
  }
}
