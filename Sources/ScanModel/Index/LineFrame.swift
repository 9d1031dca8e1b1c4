/// A line's own coordinate frame: `u` runs along the text in its reading
/// direction from the line's reading-frame top-left corner (the top-right
/// one on right-to-left text), `v` runs across it toward the descenders. Both axes are
/// unit vectors in image pixels, so distances are in pixels.
///
/// On a curved line (``TextLine/polygon``) `v` follows the curve: the
/// polygon's top edge is `v = 0` and its bottom edge `v = height` at every
/// `u`, with `v` spread evenly between them (so across the line it is in
/// pixels scaled by the line's local height over its mean height). Bands
/// of constant `v` then follow the curve, and everything built on
/// ``local(_:)`` and ``point(u:v:)`` (selection bands, carets, hit tests,
/// trimming) follows it too.
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
  /// A curved line's edges in its chord's frame: the top edge passes
  /// `(topU[i], topV[i])`, the bottom edge `(bottomU[i], bottomV[i])`,
  /// linear in between and level beyond the ends. Empty on a straight line.
  private(set) var topU: [Double] = []
  private(set) var topV: [Double] = []
  private(set) var bottomU: [Double] = []
  private(set) var bottomV: [Double] = []
  /// A curved line's mean height: its band's `v` extent.
  private var height = 0.0
  /// Where the curve's cross-sections stand along `u`: the top and bottom
  /// edges' points, sorted, each once.
  private var stations: [Double] = []

  /// Whether the line follows a curve.
  var isCurved: Bool { !topU.isEmpty }

  /// The frame of a line with corners `quad` and, on a curved line, its
  /// ``TextLine/polygon`` (`2k` points, top edge then bottom edge back):
  /// `u` runs along the quad's top edge, and the polygon's two edges,
  /// read as functions of `u`, bound the band. A polygon of another shape
  /// is ignored.
  init(_ quad: Quad, polygon: [Point]?) {
    self.init(quad)
    guard let polygon, polygon.count >= 4, polygon.count % 2 == 0,
      polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
    else { return }
    let k = polygon.count / 2
    let top = polygon[0..<k].map { local($0) }.sorted { $0.u < $1.u }
    let bottom = polygon[k...].map { local($0) }.sorted { $0.u < $1.u }
    topU = top.map(\.u)
    topV = top.map(\.v)
    bottomU = bottom.map(\.u)
    bottomV = bottom.map(\.v)
    let heights = (topU + bottomU).map { edge(bottomU, bottomV, at: $0) - edge(topU, topV, at: $0) }
    height = max(1, heights.reduce(0, +) / Double(heights.count))
    stations = Array(Set(topU + bottomU)).sorted()
    bandTop = 0
    bandBottom = height
  }

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
    let u = d.dot(axisU)
    let v = d.dot(axisV)
    guard isCurved else { return (u, v) }
    let (t, b) = edges(at: u)
    return (u, b - t > 0.5 ? (v - t) / (b - t) * height : v - t)
  }

  func point(u: Double, v: Double) -> Point {
    guard isCurved else { return origin + axisU * u + axisV * v }
    let (t, b) = edges(at: u)
    let across = b - t > 0.5 ? t + v / height * (b - t) : t + v
    return origin + axisU * u + axisV * across
  }

  /// A curved line's top and bottom edges at `u`, across its chord.
  /// - Complexity: O(log *k*) in the polygon's points.
  private func edges(at u: Double) -> (top: Double, bottom: Double) {
    (edge(topU, topV, at: u), edge(bottomU, bottomV, at: u))
  }

  /// The piecewise-linear function through `(us[i], vs[i])` at `u`, level
  /// beyond the ends.
  private func edge(_ us: [Double], _ vs: [Double], at u: Double) -> Double {
    guard let last = us.indices.last else { return 0 }
    if u <= us[0] { return vs[0] }
    if u >= us[last] { return vs[last] }
    var lo = 0
    var hi = last
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if us[mid] <= u { lo = mid } else { hi = mid }
    }
    let span = us[hi] - us[lo]
    let t = span > 0 ? (u - us[lo]) / span : 0
    return vs[lo] + (vs[hi] - vs[lo]) * t
  }

  /// The middle of a curved line at `u`, across its chord.
  private func centre(at u: Double) -> Double {
    let (t, b) = edges(at: u)
    return (t + b) / 2
  }

  /// The direction along the line at `u`: the chord's on a straight line,
  /// the curve's tangent on a curved one.
  func tangent(at u: Double) -> Point {
    guard isCurved else { return axisU }
    let h = 1.0
    let slope = (centre(at: u + h) - centre(at: u - h)) / (2 * h)
    let d = axisU + axisV * slope
    return d * (1 / d.length)
  }

  /// The `u` extent of a set of points.
  /// The `u` values a quad's corners span. A quad, not an array of its
  /// corners: two arrays a glyph were most of building its caret stops.
  func extentU(_ quad: Quad) -> ClosedRange<Double> { extent(of: quad) { local($0).u } }

  /// The `v` values a quad's corners span.
  func extentV(_ quad: Quad) -> ClosedRange<Double> { extent(of: quad) { local($0).v } }

  private func extent(of quad: Quad, _ value: (Point) -> Double) -> ClosedRange<Double> {
    let a = value(quad.topLeft)
    let b = value(quad.topRight)
    let c = value(quad.bottomRight)
    let d = value(quad.bottomLeft)
    return min(min(a, b), min(c, d))...max(max(a, b), max(c, d))
  }

  /// The band between two `u` values, as a quad in image pixels (on a
  /// curved line, its corners on the curve: see ``polygon(from:to:)``).
  func quad(from u0: Double, to u1: Double) -> Quad {
    Quad(
      topLeft: point(u: u0, v: bandTop), topRight: point(u: u1, v: bandTop),
      bottomRight: point(u: u1, v: bandBottom), bottomLeft: point(u: u0, v: bandBottom))
  }

  /// The band between two `u` values following the line: its four
  /// corners on a straight line; on a curved one, a point on each edge at
  /// every station of the curve in between too (top edge in reading
  /// order, then the bottom edge back, as ``TextLine/polygon``).
  /// - Complexity: O(*k*) in the curve's stations.
  func polygon(from u0: Double, to u1: Double) -> [Point] {
    let inner = stations.filter { $0 > min(u0, u1) && $0 < max(u0, u1) }
    let us = [u0] + (u0 <= u1 ? inner : inner.reversed()) + [u1]
    return us.map { point(u: $0, v: bandTop) } + us.reversed().map { point(u: $0, v: bandBottom) }
  }

  /// A curved line's own outline between two values of `u`: its
  /// polygon's points (top edge in reading order, then the bottom edge
  /// back) clipped to that extent, in image pixels. Unlike
  /// ``polygon(from:to:)``, whose edges run on level past their ends, it
  /// holds no point the polygon does not: a polygon whose top and bottom
  /// edges end at different `u` (a line tilted against its chord, or cut
  /// at an angle) does not reach past its own corners. A straight line's
  /// is its band's.
  /// - Complexity: O(*k*) in the polygon's points.
  func outline(from u0: Double, to u1: Double) -> [Point] {
    guard isCurved else { return polygon(from: u0, to: u1) }
    let ring =
      zip(topU, topV).map { (u: $0, v: $1) }
      + zip(bottomU, bottomV).reversed().map { (u: $0, v: $1) }
    return PageLayout.clipped(ring, from: min(u0, u1), to: max(u0, u1)).map {
      origin + axisU * $0.u + axisV * $0.v
    }
  }

  /// The whole band's outline: ``polygon(from:to:)`` over the line.
  var outlinePoints: [Point] { polygon(from: 0, to: length) }

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
