import Foundation
import ScanModel

/// One text line of a reading, as the perspective measurement sees it, in
/// the photo's pixels: the centres of its words, left to right, where its
/// first word starts and its last word ends (the middles of their outer
/// sides), and its words' median height.
package struct TextLineSample: Equatable, Sendable {
  package var centres: [Point]
  package var start: Point
  package var end: Point
  package var height: Double

  package init(centres: [Point], start: Point, end: Point, height: Double) {
    self.centres = centres
    self.start = start
    self.end = end
    self.height = height
  }
}

/// The perspective of a photographed page measured from its text, for a
/// page whose edges are not (all) in view (issue 29, "perspective from the
/// text").
///
/// The physics: a flat page is a plane, and a camera maps a plane to the
/// photo by a homography, which takes straight lines to straight lines and
/// every family of parallel lines to lines through one vanishing point.
/// The text lines are such a family: each stays straight, and a line
/// through the vanishing point (vx, vy) crossing the column's middle
/// x₀ at height c has the slope (c − vy) / (x₀ − vx), *linear in c* (the
/// slopes change steadily down the page; constant when the page is only
/// turned). The column's left and right margins are two lines of the
/// other family (they converge toward the vertical vanishing point, or
/// run parallel). The four lines (the first and last text lines as the
/// slope fit has them, the two margins) bound a quadrilateral that was a
/// rectangle on the page; straightening it straightens the page.
///
/// A curled page bends its lines (they are not straight: ``straightness``),
/// a table or a ragged column gives no margin (``leftShare``,
/// ``rightShare``): then nothing is clear and ``isClear`` is false.
package struct TextPerspective: Equatable, Sendable {
  /// The lines measured (three words or more, spanning at least two fifths
  /// of the widest line).
  package var lines: Int
  /// The median over those lines of the RMS distance of their word centres
  /// from the straight line through them, in word heights.
  package var straightness: Double
  /// The RMS distance of the lines' slopes from their fit linear in the
  /// lines' heights (radians).
  package var slopeResidual: Double
  /// The change of slope from the first line to the last (radians): 0 for
  /// a page only turned.
  package var slopeChange: Double
  /// The share of the lines whose start lies on the left margin's line,
  /// and whose end lies on the right margin's (within half a word height).
  package var leftShare: Double
  package var rightShare: Double
  /// The text block's corners (the first and last lines crossed with the
  /// margins), clockwise from the top-left.
  package var corners: [Point]

  /// At least this many lines are needed to measure a slope family and a
  /// margin's slope (develop photos 1044 and 1079, 8–9 lines, gave text
  /// blocks 3–14° off their pages' perspective).
  package static let minimumLines = 10
  /// Word centres lie within this many word heights (RMS, median line) of
  /// a straight line on a flat page (ascenders and descenders move them by
  /// about a sixth of a height).
  package static let maximumStraightness = 0.2
  /// A margin is a line only if this share of the lines starts (ends) on
  /// it: most lines of a column do (a paragraph's first line is indented,
  /// its last line ends early). A ragged right margin is no line: on the
  /// develop photos (seeds 1000–1079) the lines of left-aligned text end
  /// on their best line in 29–56 % of the lines, and the quadrilateral
  /// drawn from it was 3–8° off the page's true perspective (`photo-1003`
  /// 7.7° measured against 2.4°, `photo-1046` 11.9° against 3.7°);
  /// justified text ends on it in 72–100 %, and its text block's corners
  /// were within 2.8° of the page's (`photo-1011` 3.4° against 4.2°,
  /// `photo-1028` 1.8° against 2.5°, `photo-1075` 4.6° against 5.2°).
  package static let minimumMarginShare = 0.7
  /// Slopes off their linear fit by more than this (RMS, radians: 0.3°)
  /// are not one family of straight lines seen through one camera: flat
  /// develop photos measure 0.0019–0.0061, with the largest on ragged
  /// text; curled pages up to 0.028 (a curl is not a perspective).
  package static let maximumSlopeResidual = 0.005

  /// The largest difference (degrees) between a corner of the text block
  /// and a right angle.
  package var cornerAngleDeviation: Double {
    PageOutline(corners: corners, paper: 0, background: 0).cornerAngleDeviation
  }

  /// Whether both line families are clear: enough straight lines whose
  /// slopes follow one linear fit, and two margins that most lines start
  /// and end on.
  package var isClear: Bool {
    lines >= Self.minimumLines && straightness <= Self.maximumStraightness
      && slopeResidual <= Self.maximumSlopeResidual && leftShare >= Self.minimumMarginShare
      && rightShare >= Self.minimumMarginShare
  }

  /// Measures the text's perspective; `nil` when fewer than
  /// ``minimumLines`` lines can be measured or the margins cannot be
  /// fitted.
  /// - Complexity: O(*n*²) in the lines (the margins' search over pairs),
  ///   plus O(*w*) in the words.
  package static func measure(_ samples: [TextLineSample]) -> TextPerspective? {
    let candidates = samples.filter { $0.centres.count >= 3 && $0.height > 0 }
    let spans = candidates.map { s in
      (s.centres.map(\.x).max() ?? 0) - (s.centres.map(\.x).min() ?? 0)
    }
    guard let widest = spans.max(), widest > 0 else { return nil }
    let used = zip(candidates, spans).filter { $0.1 >= 0.4 * widest }.map(\.0)
    guard used.count >= minimumLines else { return nil }
    let allX = used.flatMap { $0.centres.map(\.x) }.sorted()
    let x0 = allX[allX.count / 2]
    // Each line: y = c + s·(x − x0), least squares through its centres.
    var fits: [(c: Double, s: Double, weight: Double)] = []
    var residuals: [Double] = []
    for line in used {
      guard let fit = fitLine(line.centres.map { ($0.x - x0, $0.y) }) else { continue }
      fits.append((fit.intercept, fit.slope, Double(line.centres.count)))
      residuals.append(fit.rms / line.height)
    }
    guard fits.count >= minimumLines else { return nil }
    let straightness = residuals.sorted()[residuals.count / 2]
    // The slopes, linear in the lines' heights (weighted by their words):
    // one pass, then again without lines more than three RMS off (a line
    // Tesseract joined across a gap, a caption).
    var family = fits
    var slopeFit = fitLine(family.map { ($0.c, $0.s) }, weights: family.map(\.weight))
    if let first = slopeFit, first.rms > 0 {
      family = family.filter { abs($0.s - (first.intercept + first.slope * $0.c)) <= 3 * first.rms }
      if family.count >= minimumLines {
        slopeFit = fitLine(family.map { ($0.c, $0.s) }, weights: family.map(\.weight))
      }
    }
    guard let slopes = slopeFit else { return nil }
    let cs = family.map(\.c)
    guard let top = cs.min(), let bottom = cs.max(), bottom > top else { return nil }
    let heights = used.map(\.height).sorted()
    let h = heights[heights.count / 2]
    // The margins: x = a + b·y through the lines' starts and ends.
    guard let left = margin(used.map(\.start), tolerance: h / 2),
      let right = margin(used.map(\.end), tolerance: h / 2)
    else { return nil }
    func line(at c: Double) -> (c: Double, s: Double) { (c, slopes.intercept + slopes.slope * c) }
    // Where y = c + s·(x − x0) crosses x = a + b·y.
    func cross(_ l: (c: Double, s: Double), _ m: (a: Double, b: Double)) -> Point? {
      let denominator = 1 - l.s * m.b
      guard abs(denominator) > 1e-9 else { return nil }
      let y = (l.c + l.s * (m.a - x0)) / denominator
      return Point(x: m.a + m.b * y, y: y)
    }
    let first = line(at: top)
    let last = line(at: bottom)
    guard let tl = cross(first, left.line), let tr = cross(first, right.line),
      let br = cross(last, right.line), let bl = cross(last, left.line)
    else { return nil }
    return TextPerspective(
      lines: fits.count, straightness: straightness, slopeResidual: slopes.rms,
      slopeChange: slopes.slope * (bottom - top), leftShare: left.share, rightShare: right.share,
      corners: [tl, tr, br, bl])
  }

  /// The quadrilateral of the photo to straighten: the text block's
  /// rectangle on the page grown until it holds the whole photo (the
  /// running head, the page number and the margins come along), but by no
  /// more than the block's own width and height on each side (near the
  /// vanishing line a photo's corner would map to infinity); `nil` when the
  /// text block is degenerate or a corner of the photo lies beyond the
  /// vanishing line. Grown only to the words read, it lost the lines the
  /// page read as it is had missed (develop `photo-1075`: CER 0.184, where
  /// the whole photo gave 0.004); the photo's own edge that then crosses
  /// the straightened page is the engine's to clean up.
  package func straighteningQuad(width: Int, height: Int) -> [Point]? {
    let c = corners
    let w = max(distance(c[0], c[1]), distance(c[3], c[2]))
    let h = max(distance(c[0], c[3]), distance(c[1], c[2]))
    guard w >= 16, h >= 16 else { return nil }
    let rectangle = [
      Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h),
    ]
    guard let toPhoto = ImageTransform.projective(from: rectangle, to: c),
      let toPage = ImageTransform.projective(from: c, to: rectangle)
    else { return nil }
    var minX = 0.0
    var minY = 0.0
    var maxX = w
    var maxY = h
    let frame = [
      Point(x: 0, y: 0), Point(x: Double(width), y: 0),
      Point(x: Double(width), y: Double(height)), Point(x: 0, y: Double(height)),
    ]
    for p in frame {
      // A point beyond the vanishing line maps with a negative weight.
      guard toPage.g * p.x + toPage.h * p.y + 1 > 0 else { return nil }
      let q = toPage.apply(p)
      minX = min(minX, q.x)
      minY = min(minY, q.y)
      maxX = max(maxX, q.x)
      maxY = max(maxY, q.y)
    }
    minX = max(minX, -w)
    minY = max(minY, -h)
    maxX = min(maxX, 2 * w)
    maxY = min(maxY, 2 * h)
    let grown = [
      Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY),
      Point(x: minX, y: maxY),
    ]
    let quad = grown.map(toPhoto.apply)
    return quad.allSatisfy { $0.x.isFinite && $0.y.isFinite } ? quad : nil
  }

  /// A least-squares line v = intercept + slope·u through points (u, v),
  /// with the RMS of its residuals; `nil` for fewer than two distinct u.
  static func fitLine(_ points: [(Double, Double)], weights: [Double]? = nil)
    -> (intercept: Double, slope: Double, rms: Double)?
  {
    guard points.count >= 2 else { return nil }
    let ws = weights ?? Array(repeating: 1, count: points.count)
    let total = ws.reduce(0, +)
    guard total > 0 else { return nil }
    var mu = 0.0
    var mv = 0.0
    for (p, w) in zip(points, ws) {
      mu += w * p.0
      mv += w * p.1
    }
    mu /= total
    mv /= total
    var suu = 0.0
    var suv = 0.0
    for (p, w) in zip(points, ws) {
      suu += w * (p.0 - mu) * (p.0 - mu)
      suv += w * (p.0 - mu) * (p.1 - mv)
    }
    guard suu > 1e-12 else { return nil }
    let slope = suv / suu
    let intercept = mv - slope * mu
    var squares = 0.0
    for (p, w) in zip(points, ws) {
      let r = p.1 - (intercept + slope * p.0)
      squares += w * r * r
    }
    return (intercept, slope, (squares / total).squareRoot())
  }

  /// The margin through the most of `points` (x = a + b·y): every pair of
  /// points at least a third of their height range apart proposes a line,
  /// the one with the most points within `tolerance` wins (the smaller sum
  /// of distances on a tie), refitted through them by least squares; with
  /// the share of the points on it. A paragraph's indented first line, a
  /// short last line, a heading do not move it.
  static func margin(_ points: [Point], tolerance: Double)
    -> (line: (a: Double, b: Double), share: Double)?
  {
    let ys = points.map(\.y)
    guard let low = ys.min(), let high = ys.max(), high > low else { return nil }
    var best: (count: Int, spread: Double, a: Double, b: Double)?
    for i in points.indices {
      for j in points.indices where j > i && abs(points[j].y - points[i].y) >= (high - low) / 3 {
        let b = (points[j].x - points[i].x) / (points[j].y - points[i].y)
        let a = points[i].x - b * points[i].y
        var count = 0
        var spread = 0.0
        for p in points {
          let r = abs(p.x - (a + b * p.y))
          if r <= tolerance {
            count += 1
            spread += r
          }
        }
        if let current = best,
          count < current.count || (count == current.count && spread >= current.spread)
        {
          continue
        }
        best = (count, spread, a, b)
      }
    }
    guard let best else { return nil }
    let inliers = points.filter { abs($0.x - (best.a + best.b * $0.y)) <= tolerance }
    guard let fit = fitLine(inliers.map { ($0.y, $0.x) }) else { return nil }
    let share = Double(inliers.count) / Double(points.count)
    return ((fit.intercept, fit.slope), share)
  }
}

extension ImageTransform {
  /// The projective map taking the four points `from` to the four points
  /// `to` (solved in double precision by Gaussian elimination); `nil` when
  /// three of them are in a line.
  package static func projective(from: [Point], to: [Point]) -> ImageTransform? {
    guard from.count == 4, to.count == 4 else { return nil }
    // x' = (a·x + b·y + c) / (g·x + h·y + 1), y' likewise with d, e, f.
    var m = [[Double]]()
    for (p, q) in zip(from, to) {
      m.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
      m.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
    }
    for column in 0..<8 {
      var pivot = column
      for row in column..<8 where abs(m[row][column]) > abs(m[pivot][column]) { pivot = row }
      guard abs(m[pivot][column]) > 1e-12 else { return nil }
      m.swapAt(column, pivot)
      for row in 0..<8 where row != column {
        let factor = m[row][column] / m[column][column]
        guard factor != 0 else { continue }
        for k in column..<9 { m[row][k] -= factor * m[column][k] }
      }
    }
    let v = (0..<8).map { m[$0][8] / m[$0][$0] }
    guard v.allSatisfy(\.isFinite) else { return nil }
    return ImageTransform(a: v[0], b: v[1], c: v[2], d: v[3], e: v[4], f: v[5], g: v[6], h: v[7])
  }
}
