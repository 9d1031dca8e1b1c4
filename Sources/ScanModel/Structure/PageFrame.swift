/// Where a photographed page lies in its photo, for the layout rules: its
/// box (a crop) or its corners (a page seen at an angle). Boxes of the
/// photo are carried into the page's own frame, a rectangle with the page's
/// top-left corner at the origin, so that "the top of the page" and "the
/// same height" mean what they mean on paper: in a photo taken at an angle
/// the running heads of a spread's two pages stand at different heights.
public struct PageFrame: Sendable, Equatable {
  /// The page's box in the photo.
  public var box: PixelRect
  /// The page's corners in the photo (clockwise from the top-left), when
  /// its perspective was corrected.
  public var corners: Quad?

  /// - Parameters:
  ///   - box: The page's box in the photo (``Page/crop``).
  ///   - corners: The page's corners (``Page/perspective``), if any.
  public init(box: PixelRect, corners: Quad? = nil) {
    self.box = box
    self.corners = corners
  }

  /// The page's width and height in its own frame: the box's, or for
  /// corners the longer of each pair of opposite edges.
  var size: (width: Int, height: Int) {
    guard let q = corners else { return (box.width, box.height) }
    let width = max((q.topRight - q.topLeft).length, (q.bottomRight - q.bottomLeft).length)
    let height = max((q.bottomLeft - q.topLeft).length, (q.bottomRight - q.topRight).length)
    return (max(1, Int(width.rounded())), max(1, Int(height.rounded())))
  }

  /// The map from photo points to page points: a translation for a box,
  /// the projective map taking the corners to the page's rectangle for
  /// corners (`nil` when the corners are degenerate).
  func pointMap() -> ((Point) -> Point)? {
    guard let q = corners else {
      let x = Double(box.minX)
      let y = Double(box.minY)
      return { Point(x: $0.x - x, y: $0.y - y) }
    }
    let (w, h) = size
    guard
      let m = Self.homography(
        from: [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft],
        to: [
          Point(x: 0, y: 0), Point(x: Double(w), y: 0), Point(x: Double(w), y: Double(h)),
          Point(x: 0, y: Double(h)),
        ])
    else { return nil }
    return { p in
      let d = m[6] * p.x + m[7] * p.y + 1
      guard abs(d) > 1e-12 else { return p }
      return Point(
        x: (m[0] * p.x + m[1] * p.y + m[2]) / d, y: (m[3] * p.x + m[4] * p.y + m[5]) / d)
    }
  }

  /// The projective map (a, b, c, d, e, f, g, h; the last entry 1) taking
  /// four points to four others, by Gaussian elimination on its eight
  /// linear equations; `nil` when they are degenerate.
  static func homography(from: [Point], to: [Point]) -> [Double]? {
    guard from.count == 4, to.count == 4 else { return nil }
    var rows: [[Double]] = []
    for (p, q) in zip(from, to) {
      rows.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
      rows.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
    }
    for col in 0..<8 {
      guard
        let pivot = (col..<8).max(by: { abs(rows[$0][col]) < abs(rows[$1][col]) }),
        abs(rows[pivot][col]) > 1e-12
      else { return nil }
      rows.swapAt(col, pivot)
      for r in 0..<8 where r != col {
        let factor = rows[r][col] / rows[col][col]
        guard factor != 0 else { continue }
        for c in col..<9 { rows[r][c] -= factor * rows[col][c] }
      }
    }
    return (0..<8).map { rows[$0][8] / rows[$0][$0] }
  }
}
