import ScanModel

/// How thick the strokes of the ink in a box are: what tells bold type
/// from regular when OCR reports no fonts.
///
/// The ink is the box's pixels darker than the midpoint of its darkest
/// and lightest values (the 2nd and 98th percentiles, so a speck or a
/// bright pixel does not move it). A stroke of width *w* and length *L*
/// has area *wL* and an outline of about 2*L*, so twice the ink's area
/// over the length of its outline (the pixel edges between ink and paper,
/// across and down) is the mean stroke width, whatever the letters. Bold
/// faces draw their stems 1.4–1.9 times as thick as the regular face of
/// the same size (Liberation, DejaVu, Times, Helvetica), which this sees
/// across blur and resolution because a word is compared with the running
/// text of the same page, not with a fixed width.
package enum StrokeWidth {
  /// The mean stroke width, in pixels, of the ink in `box`; `nil` when the
  /// box is empty, outside the image, or holds no contrast (less than 40
  /// gray levels between ink and paper).
  /// - Complexity: O(*p*) in the box's pixels.
  package static func of(_ box: PixelRect, in view: GrayView) -> Double? {
    let x0 = max(0, box.minX)
    let y0 = max(0, box.minY)
    let x1 = min(view.width, box.maxX)
    let y1 = min(view.height, box.maxY)
    guard x1 > x0, y1 > y0 else { return nil }
    guard let threshold = view.inkMidpoint(in: box) else { return nil }
    var area = 0
    var outline = 0
    var above = [Bool](repeating: false, count: x1 - x0)
    for y in y0..<y1 {
      var left = false
      for x in x0..<x1 {
        let ink = view.value(x, y) < threshold
        if ink { area += 1 }
        if ink != left { outline += 1 }
        if ink != above[x - x0] { outline += 1 }
        left = ink
        above[x - x0] = ink
      }
      if left { outline += 1 }
    }
    for ink in above where ink { outline += 1 }
    guard area > 0, outline > 0 else { return nil }
    return 2 * Double(area) / Double(outline)
  }
}
