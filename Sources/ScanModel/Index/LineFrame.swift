/// A line's own coordinate frame: `u` runs along the text in its reading
/// direction from the line's reading-frame top-left corner (the top-right
/// one on right-to-left text), `v` runs across it toward the descenders. Both axes are
/// unit vectors in image pixels, so distances are in pixels.
struct LineFrame: Sendable {
  var origin: Point
  var axisU: Point
  var axisV: Point
  /// The line's extent along `u`.
  var length: Double
  /// The selection band across the line, `v` in `bandTop...bandBottom`:
  /// the line's full height, trimmed where it would overlap a neighbour.
  var bandTop: Double
  var bandBottom: Double

  init(_ quad: Quad) {
    origin = quad.topLeft
    let along = quad.topRight - quad.topLeft
    let len = along.length
    axisU = len > 0 ? along * (1 / len) : Point(x: 1, y: 0)
    // Across the line toward the quad's bottom edge: a quarter turn
    // clockwise from `u` on left-to-right text, counter-clockwise on the
    // mirrored quad of right-to-left text.
    let across = Point(x: -axisU.y, y: axisU.x)
    axisV = (quad.bottomLeft - quad.topLeft).dot(across) < 0 ? across * -1 : across
    length = len
    bandTop = 0
    bandBottom = max(0, (quad.bottomLeft - quad.topLeft).dot(axisV))
  }

  func local(_ p: Point) -> (u: Double, v: Double) {
    let d = p - origin
    return (d.dot(axisU), d.dot(axisV))
  }

  func point(u: Double, v: Double) -> Point {
    origin + axisU * u + axisV * v
  }

  /// The `u` extent of a set of points.
  func extentU(_ points: [Point]) -> ClosedRange<Double> {
    let us = points.map { local($0).u }
    return (us.min() ?? 0)...(us.max() ?? 0)
  }

  func extentV(_ points: [Point]) -> ClosedRange<Double> {
    let vs = points.map { local($0).v }
    return (vs.min() ?? 0)...(vs.max() ?? 0)
  }

  /// The band between two `u` values, as a quad in image pixels.
  func quad(from u0: Double, to u1: Double) -> Quad {
    Quad(
      topLeft: point(u: u0, v: bandTop), topRight: point(u: u1, v: bandTop),
      bottomRight: point(u: u1, v: bandBottom), bottomLeft: point(u: u0, v: bandBottom))
  }

  /// Distance from `p` to the line's band (zero inside).
  func distance(to p: Point) -> Double {
    let (u, v) = local(p)
    let du = max(0, -u, u - length)
    let dv = max(0, bandTop - v, v - bandBottom)
    return (du * du + dv * dv).squareRoot()
  }

  /// Whether the text runs mostly vertically in the image.
  var isVertical: Bool { abs(axisU.y) > abs(axisU.x) }
}
