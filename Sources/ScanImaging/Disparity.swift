import ScanModel

/// The vertical disparity of a dewarped page: how far each point of the
/// dewarped image was moved down from the page it came from. Leptonica's
/// `pixApplyVertDisparity` fills the dewarped pixel (x, y) from the page's
/// (x, y − v(x, y)); ``source(of:)`` makes the same step for a point.
///
/// The field is the model's samples, ``step`` pixels apart, read as
/// Leptonica makes its full-resolution field from them
/// (`dewarpPopulateFullRes`): bilinear between samples
/// (`fpixScaleByInteger`), extended linearly beyond the last ones
/// (`fpixAddSlopeBorder`). Making the full field again just to read it
/// cost as much as applying it (a fifth of the cookbook's reading, most of
/// it in Leptonica's pixel-by-pixel border).
package struct Disparity: Sendable, Equatable {
  /// The spacing of the samples, in pixels of the dewarped image.
  package let step: Int
  /// Samples per row and rows.
  package let columns: Int
  package let rows: Int
  /// v at (column × step, row × step), row by row.
  package let values: [Float]

  package init(step: Int, columns: Int, rows: Int, values: [Float]) {
    (self.step, self.columns, self.rows, self.values) = (step, columns, rows, values)
  }

  /// The point of the page before dewarping that `p` (a point of the
  /// dewarped image) came from.
  package func source(of p: Point) -> Point {
    Point(x: p.x, y: p.y - shift(at: p))
  }

  /// v at `p`: bilinear in the cell of samples round it, the edge cells
  /// extended linearly beyond the last samples.
  package func shift(at p: Point) -> Double {
    guard columns > 0, rows > 0, values.count == columns * rows, step > 0 else { return 0 }
    func cell(_ f: Double, _ count: Int) -> (Int, Int, Double) {
      guard count > 1 else { return (0, 0, 0) }
      let i = min(max(0, Int(f.rounded(.down))), count - 2)
      return (i, i + 1, f - Double(i))
    }
    let (x0, x1, tx) = cell(p.x / Double(step), columns)
    let (y0, y1, ty) = cell(p.y / Double(step), rows)
    func v(_ x: Int, _ y: Int) -> Double { Double(values[y * columns + x]) }
    let top = v(x0, y0) * (1 - tx) + v(x1, y0) * tx
    let bottom = v(x0, y1) * (1 - tx) + v(x1, y1) * tx
    return top * (1 - ty) + bottom * ty
  }
}
