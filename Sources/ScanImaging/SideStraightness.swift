import Foundation
import ScanModel

/// How straight a page's sides are in a photo: a flat sheet is a plane,
/// and a plane's edges are straight lines in any photograph of it; a page
/// curling toward its spine bends the two edges that cross the curl.
///
/// Each side between two corners is sampled at 31 points from 10 % to
/// 90 % of its length. At each, the paper's edge is the steepest rise of
/// brightness from outside to inside along the side's normal within
/// ``reach`` pixels (placed between pixels by a parabola through the
/// rises round it); points whose search runs out of the image (a side out
/// of view) or that show no rise of ``minimumRise`` are left out. A
/// parabola fitted to the edge's offsets gives the side's bow: how far its
/// middle lies off the straight line between its ends, in pixels.
package enum SideStraightness {
  /// How far across a side its edge is looked for, in pixels of the
  /// measuring image (500 pixels on its longer side: a curl of 220 page
  /// pixels bows an edge by about 10 of them).
  package static let reach = 12
  /// The smallest rise of brightness (gray levels over two pixels) taken
  /// for an edge.
  package static let minimumRise = 8.0
  /// A side is measured only with at least this many of its 31 points.
  package static let minimumPoints = 12

  /// The bow of each side of `corners` (clockwise from the top-left, in
  /// `image`'s pixels), in pixels, or `nil` for a side with too few points
  /// in view.
  package static func bows(_ corners: [Point], in image: GrayPixels) -> [Double?] {
    guard corners.count == 4 else { return [] }
    return (0..<4).map { i in bow(from: corners[i], to: corners[(i + 1) % 4], in: image) }
  }

  /// The bow of the side from `a` to `b` (the page on its right, in image
  /// coordinates with y down).
  package static func bow(from a: Point, to b: Point, in image: GrayPixels) -> Double? {
    let length = distance(a, b)
    guard length >= 20 else { return nil }
    let d = Point(x: (b.x - a.x) / length, y: (b.y - a.y) / length)
    // Inward: the side's direction turned by a quarter clockwise (y down).
    let n = Point(x: -d.y, y: d.x)
    var points: [(s: Double, offset: Double)] = []
    for k in 0...30 {
      let s = 0.1 + 0.8 * Double(k) / 30
      let p = Point(x: a.x + s * (b.x - a.x), y: a.y + s * (b.y - a.y))
      var profile: [Double] = []
      for t in -(reach + 1)...(reach + 1) {
        guard let v = sample(image, Point(x: p.x + Double(t) * n.x, y: p.y + Double(t) * n.y))
        else { break }
        profile.append(v)
      }
      guard profile.count == 2 * reach + 3 else { continue }
      // rise[j] at offset j - reach: profile[j + 2] - profile[j].
      let rises = (0...(2 * reach)).map { profile[$0 + 2] - profile[$0] }
      guard let best = rises.indices.max(by: { rises[$0] < rises[$1] }),
        rises[best] >= minimumRise
      else { continue }
      var shift = 0.0
      if best > 0, best < rises.count - 1 {
        let l = rises[best - 1]
        let c = rises[best]
        let r = rises[best + 1]
        let curvature = l - 2 * c + r
        if curvature < 0 { shift = max(-0.5, min(0.5, 0.5 * (l - r) / curvature)) }
      }
      points.append((s, Double(best - reach) + shift))
    }
    guard points.count >= minimumPoints else { return nil }
    guard let c = quadraticTerm(points) else { return nil }
    // y = a + b s + c s² over s in [0, 1]: the middle lies c / 4 off the
    // chord (the side's length is 1 in s).
    return abs(c) / 4
  }

  /// The quadratic coefficient of the least-squares parabola through the
  /// points, fitted again without those more than 2 pixels off it.
  static func quadraticTerm(_ points: [(s: Double, offset: Double)]) -> Double? {
    func fit(_ p: [(s: Double, offset: Double)]) -> (Double, Double, Double)? {
      guard p.count >= minimumPoints else { return nil }
      // Normal equations for 1, s, s².
      var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
      for q in p {
        let basis = [1, q.s, q.s * q.s]
        for i in 0..<3 {
          for j in 0..<3 { m[i][j] += basis[i] * basis[j] }
          m[i][3] += basis[i] * q.offset
        }
      }
      for col in 0..<3 {
        guard let pivot = (col..<3).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }),
          abs(m[pivot][col]) > 1e-12
        else { return nil }
        m.swapAt(col, pivot)
        for row in 0..<3 where row != col {
          let f = m[row][col] / m[col][col]
          for k in col..<4 { m[row][k] -= f * m[col][k] }
        }
      }
      return (m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2])
    }
    guard let first = fit(points) else { return nil }
    let kept = points.filter {
      abs($0.offset - (first.0 + first.1 * $0.s + first.2 * $0.s * $0.s)) <= 2
    }
    return (fit(kept) ?? first).2
  }

  /// The bilinear value at a point (pixel centres at half-integers), or
  /// `nil` outside the image.
  static func sample(_ image: GrayPixels, _ p: Point) -> Double? {
    let x = p.x - 0.5
    let y = p.y - 0.5
    guard x >= 0, y >= 0, x <= Double(image.width - 1), y <= Double(image.height - 1) else {
      return nil
    }
    let x0 = min(Int(x), image.width - 2)
    let y0 = min(Int(y), image.height - 2)
    let fx = x - Double(x0)
    let fy = y - Double(y0)
    let v00 = Double(image[x0, y0])
    let v10 = Double(image[x0 + 1, y0])
    let v01 = Double(image[x0, y0 + 1])
    let v11 = Double(image[x0 + 1, y0 + 1])
    return (v00 * (1 - fx) + v10 * fx) * (1 - fy) + (v01 * (1 - fx) + v11 * fx) * fy
  }
}
