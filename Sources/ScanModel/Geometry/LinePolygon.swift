extension TextLine {
  /// Whether `points` have the shape of a curved line's outline
  /// (``polygon``): `2k` points, `k ≥ 2`, whose first `k` run along the
  /// line's top edge and whose last `k` run back along its bottom edge, each
  /// bottom point on the descender side of the top point it faces. The
  /// line's direction is its chord, from the middle of the first
  /// cross-section to the middle of the last.
  ///
  /// An importer keeps a polygon of this shape as the line's ``polygon``;
  /// another outline (an arbitrary hull) gives only the line's box.
  ///
  /// - Parameter points: The outline, in image pixels.
  /// - Complexity: O(*n*) in the points.
  public static func isLinePolygon(_ points: [Point]) -> Bool {
    guard points.count >= 4, points.count % 2 == 0,
      points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), let (u, v) = chordAxes(of: points)
    else { return false }
    let k = points.count / 2
    // Half a pixel of slack: exported outlines are rounded to whole pixels.
    let slack = 0.5
    for i in 0..<k {
      let top = points[i]
      let bottom = points[2 * k - 1 - i]
      guard top.dot(v) <= bottom.dot(v) + slack else { return false }
      if i > 0 {
        guard top.dot(u) >= points[i - 1].dot(u) - slack,
          bottom.dot(u) >= points[2 * k - i].dot(u) - slack
        else { return false }
      }
    }
    return true
  }

  /// The rectangle along a curved line's chord that holds its polygon and
  /// `others` (its words' corners), corners named as the polygon runs:
  /// the top-left corner at the start of its top edge. This is the
  /// ``quad`` of a line with a ``polygon``. `nil` when the polygon has no
  /// length.
  ///
  /// - Parameters:
  ///   - polygon: The line's outline (``isLinePolygon(_:)``).
  ///   - others: More points the rectangle must hold.
  /// - Complexity: O(*n*) in the points.
  public static func chordRectangle(of polygon: [Point], holding others: [Point] = []) -> Quad? {
    guard let (u, v) = chordAxes(of: polygon) else { return nil }
    var u0 = Double.infinity
    var u1 = -Double.infinity
    var v0 = Double.infinity
    var v1 = -Double.infinity
    for p in polygon + others {
      u0 = min(u0, p.dot(u))
      u1 = max(u1, p.dot(u))
      v0 = min(v0, p.dot(v))
      v1 = max(v1, p.dot(v))
    }
    return Quad(
      topLeft: u * u0 + v * v0, topRight: u * u1 + v * v0, bottomRight: u * u1 + v * v1,
      bottomLeft: u * u0 + v * v1)
  }

  /// The unit vector along a polygon's chord (from the middle of its first
  /// cross-section to the middle of its last) and the one across it,
  /// toward its bottom edge on screen (a quarter turn clockwise).
  private static func chordAxes(of polygon: [Point]) -> (u: Point, v: Point)? {
    guard let (start, end) = chord(of: polygon) else { return nil }
    let d = end - start
    let length = d.length
    guard length > 0, length.isFinite else { return nil }
    let u = d * (1 / length)
    return (u, Point(x: -u.y, y: u.x))
  }

  /// A band outline's chord (`2k` points, top edge then bottom edge back):
  /// from the middle of its first cross-section to the middle of its last.
  static func chord(of polygon: [Point]) -> (start: Point, end: Point)? {
    let k = polygon.count / 2
    guard k >= 2 else { return nil }
    return ((polygon[0] + polygon[2 * k - 1]) * 0.5, (polygon[k - 1] + polygon[k]) * 0.5)
  }
}
