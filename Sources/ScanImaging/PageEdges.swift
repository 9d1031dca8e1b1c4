import Foundation
import ScanModel

/// Finds a page's sides as straight edges where the whole page does not
/// stand free: a page that runs out of the photo's frame, or a scan with a
/// dark border or a book's edge along some of its sides.
///
/// Each side of the image is searched for one straight edge that is brighter
/// on its inner side than on its outer side along most of its length: the
/// page's paper against the table, the scanner's lid or the book's edge. The
/// rule is made so that print cannot pass for an edge:
///
/// - Across an edge the brightest value of a band 1–7 pixels inside must be
///   at least ``minimumStepRatio`` times the brightest value of the band
///   outside (on the 500-pixel measuring image: about 1.5 % of the page).
///   Ink is thinner than the band, so the brightest value beyond a letter,
///   a rule or a text line's x-height is paper again and gives no step; a
///   table, a dark border or a book's edge is wider and does. A ratio, not a
///   difference, so that it holds in the shadow of a photo as in its light
///   (`linguistics-thesis-a`: paper 66 against a table of 52 in the dark
///   corner, 128 against 69 in the light).
/// - The edge lies in the outer half of the image, within
///   ±``maximumSlope`` (14°) of the image's side, and is found by a Hough
///   vote of its step pixels.
/// - It must hold on at least ``minimumSupport`` of its length between the
///   neighbouring sides found (or the frame), and that length must be at
///   least ``minimumLength`` of the image's side; and what lies beyond it up
///   to the frame must be background, not paper
///   (``isBackgroundBeyond(_:view:step:length:rows:)``).
/// - When three sides are found, the fourth may be a seam against another
///   sheet (``seamPixels(_:length:rows:)``) with nothing printed beyond it.
///
/// Each side is then fitted to a fraction of a pixel
/// (``refined(_:view:length:rows:count:)``). A page is found only with
/// all four sides; its corners, where they cross, may lie outside the
/// photo, and it is straightened from them.
package enum PageEdges {
  /// The brightness ratio across an edge (inner band against outer band).
  package static let minimumStepRatio = 1.12
  /// The band each side of an edge whose brightest value is compared.
  package static let band = 1...7
  /// The largest slope (tangent) of a side against the image's side.
  package static let maximumSlope = 0.25
  /// The slope step of the search.
  package static let slopeStep = 0.01
  /// The share of a side's length that must show the step.
  package static let minimumSupport = 0.6
  /// The share of a side's rows where what lies beyond it must be darker
  /// than the paper (``isBackgroundBeyond(_:view:step:length:rows:)``).
  package static let minimumBackgroundRows = 0.8
  /// The share of a seam's length that must show it.
  package static let minimumSeamSupport = 0.85
  /// Beyond a seam, a row whose darkest pixel is this many times darker
  /// than its brightest holds ink.
  package static let inkRatio = 1.3
  /// The share of rows beyond a seam that may hold ink (or dirt).
  package static let maximumInkRows = 0.05
  /// The shortest length a side is judged on, as a share of the image's side.
  package static let minimumLength = 0.25

  /// One side of the page: in the side's own view of the image, where `u`
  /// runs inward from the image's side and `v` along it (both continuous,
  /// pixel centres at half-integers), the edge is `u = offset + slope · (v − length / 2)`.
  package struct Side: Equatable {
    /// 0 left, 1 top, 2 right, 3 bottom.
    package var side: Int
    package var offset: Double
    package var slope: Double

    /// Where the edge crosses row `v` of a view with `rows` rows (at the
    /// row's centre).
    package func u(row v: Int, rows: Int) -> Double {
      offset + slope * (Double(v) + 0.5 - Double(rows) / 2)
    }
  }

  /// The page of a small gray image, in its own pixels, or `nil` unless all
  /// four sides are found and what they leave of the image is at least
  /// ``PageDetection/minimumPageShare`` of it.
  package static func find(in image: GrayPixels) -> PageOutline? {
    let w = image.width
    let h = image.height
    guard w >= 32, h >= 32 else { return nil }
    let table = (0..<256).map { Float(log(Double($0) + 8)) }
    let logs = image.values.map { table[Int($0)] }
    var candidates: [Side] = []
    var steps: [[Bool]] = []
    var views: [[Float]] = []
    for side in 0..<4 {
      let (view, u, v) = Self.view(logs, width: w, height: h, side: side)
      let step = Self.stepPixels(view, length: u, rows: v)
      steps.append(step)
      views.append(view)
      // A side needs step pixels on `minimumSupport` of at least
      // `minimumLength` of the rows: below that no line through them holds.
      let enough = Int32((minimumSupport * minimumLength * Double(v)).rounded(.up))
      if let line = Self.strongestLine(step, length: u, rows: v), line.votes >= enough,
        Self.isBackgroundBeyond(
          Side(side: side, offset: line.offset, slope: line.slope), view: view, step: step,
          length: u, rows: v)
      {
        candidates.append(Side(side: side, offset: line.offset, slope: line.slope))
      } else if side - candidates.count >= 1 {
        // Two sides without an edge: three, one of them perhaps a seam,
        // cannot be found (on a flat scan the search ends here).
        return nil
      }
    }
    // Drop the weakest side until every side left holds along its length
    // between the others.
    var found = candidates
    var held: [[Int]] = []
    while !found.isEmpty {
      let scores = found.map { side in
        support(side, steps[side.side], others: found.filter { $0 != side }, width: w, height: h)
      }
      held = scores.map(\.rows)
      guard let worst = scores.indices.min(by: { scores[$0].share < scores[$1].share }),
        scores[worst].share < minimumSupport
      else { break }
      found.remove(at: worst)
    }
    // A page lying against another (the facing page of a book, a sheet
    // beneath) shows no step on that side but a seam: a thin shadow with
    // paper on both sides. It is looked for only on the one side missing
    // when the other three are found, and must hold on
    // ``minimumSeamSupport`` of its length with no ink beyond it, so that
    // a printed rule or a text margin cannot pass for it.
    if found.count == 3,
      let missing = (0..<4).first(where: { s in !found.contains { $0.side == s } })
    {
      let length = missing % 2 == 0 ? w : h
      let rows = missing % 2 == 0 ? h : w
      let seams = seamPixels(views[missing], length: length, rows: rows)
      if let line = strongestLine(seams, length: length, rows: rows) {
        let seam = Side(side: missing, offset: line.offset, slope: line.slope)
        let score = support(seam, seams, others: found, width: w, height: h)
        if score.share >= minimumSeamSupport,
          isBlankBeyond(seam, view: views[missing], length: length, rows: rows)
        {
          found.append(seam)
          held.append(score.rows)
        }
      }
    }
    // A page is found only with its four sides. Cropping to fewer would
    // leave the page in perspective, and on the real pages where fewer
    // are found it cost words at confidence >= 60: `kant-0017` (three
    // sides: a book's edge and dark bands) 78 -> 76, `linguistics-thesis-a`
    // (table above and to the right) 69 -> 51.
    guard found.count == 4 else { return nil }
    found = found.indices.map { i in
      let side = found[i]
      return refined(
        side, view: views[side.side], length: side.side % 2 == 0 ? w : h, rows: held[i],
        count: side.side % 2 == 0 ? h : w)
    }
    let polygon = clip(width: w, height: h, by: found)
    let imageArea = Double(w * h)
    guard polygon.count >= 3,
      PageOutline.area(polygon) >= PageOutline.minimumPageShare * imageArea
    else { return nil }
    let bySide = Dictionary(found.map { ($0.side, $0) }, uniquingKeysWith: { first, _ in first })
    guard let left = bySide[0], let top = bySide[1], let right = bySide[2],
      let bottom = bySide[3],
      let topLeft = intersection(left, top, width: w, height: h),
      let topRight = intersection(top, right, width: w, height: h),
      let bottomRight = intersection(right, bottom, width: w, height: h),
      let bottomLeft = intersection(bottom, left, width: w, height: h)
    else { return nil }
    let corners = [topLeft, topRight, bottomRight, bottomLeft]
    // Mean brightness inside and outside what the sides leave.
    var inside = (sum: 0.0, count: 0)
    var outside = (sum: 0.0, count: 0)
    for y in 0..<h {
      for x in 0..<w {
        let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
        let value = Double(image.values[y * w + x])
        if found.allSatisfy({ distanceInside(p, $0, width: w, height: h) >= 0 }) {
          inside = (inside.sum + value, inside.count + 1)
        } else {
          outside = (outside.sum + value, outside.count + 1)
        }
      }
    }
    return PageOutline(
      corners: corners, paper: inside.sum / Double(max(1, inside.count)),
      background: outside.sum / Double(max(1, outside.count)), polygon: polygon)
  }

  /// The image turned so that `side` is on the left: `view[v * length + u]`,
  /// `u` running inward from the side.
  package static func view(_ values: [Float], width w: Int, height h: Int, side: Int) -> (
    [Float], length: Int, rows: Int
  ) {
    let length = side % 2 == 0 ? w : h
    let rows = side % 2 == 0 ? h : w
    var view = [Float](repeating: 0, count: w * h)
    for v in 0..<rows {
      for u in 0..<length {
        let (x, y): (Int, Int)
        switch side {
        case 0: (x, y) = (u, v)
        case 1: (x, y) = (v, u)
        case 2: (x, y) = (w - 1 - u, v)
        default: (x, y) = (v, h - 1 - u)
        }
        view[v * length + u] = values[y * w + x]
      }
    }
    return (view, length, rows)
  }

  /// The pixels of the view's outer half where the brightest value of the
  /// band inside is ``minimumStepRatio`` times the brightest of the band
  /// outside, and at least twice the ratio measured one band further in:
  /// a step, not a slope of light (the generated `uneven-light` page darkens
  /// by 3 % a pixel toward its edge, a ratio of 1.27 over a band, the same
  /// one band further in).
  package static func stepPixels(_ view: [Float], length: Int, rows: Int) -> [Bool] {
    let threshold = Float(log(minimumStepRatio))
    var step = [Bool](repeating: false, count: view.count)
    let half = length / 2
    let reach = band.upperBound
    guard half + 2 * reach < length else { return step }
    var ratios = [Float](repeating: 0, count: length)
    // Next to the frame the outer band is what the image holds of it (at
    // least 2 pixels).
    let first = 2
    for v in 0..<rows {
      let row = v * length
      for u in first..<(half + reach) {
        var inner = -Float.infinity
        var outer = -Float.infinity
        for d in band {
          inner = max(inner, view[row + u + d])
          if d <= u { outer = max(outer, view[row + u - d]) }
        }
        ratios[u] = inner - outer
      }
      for u in first..<half where ratios[u] >= threshold && ratios[u + reach] <= ratios[u] / 2 {
        step[row + u] = true
      }
    }
    return step
  }

  /// The pixels of the view's outer half at the middle of a thin dark line
  /// with paper on both sides: the darkest of the 3 pixels round it at
  /// least ``minimumStepRatio`` darker than the brightest of the bands
  /// 2–7 pixels to either side.
  package static func seamPixels(_ view: [Float], length: Int, rows: Int) -> [Bool] {
    let threshold = Float(log(minimumStepRatio))
    var seam = [Bool](repeating: false, count: view.count)
    let half = length / 2
    let reach = band.upperBound
    guard half + reach < length else { return seam }
    for v in 0..<rows {
      let row = v * length
      for u in reach..<half {
        let valley = min(view[row + u - 1], view[row + u], view[row + u + 1])
        var inner = -Float.infinity
        var outer = -Float.infinity
        for d in 2...reach {
          inner = max(inner, view[row + u + d])
          outer = max(outer, view[row + u - d])
        }
        seam[row + u] = inner - valley >= threshold && outer - valley >= threshold
      }
    }
    return seam
  }

  /// Whether what lies beyond a side, from the frame to 3 pixels short of
  /// it, is background: on ``minimumBackgroundRows`` of the rows where the
  /// side shows its step, nothing there is within half the step ratio of
  /// the paper's brightness inside it. A table, a dark border or a book's
  /// edge reaches the frame; a thick printed frame or a dark bar on a scan
  /// has paper (the margin) beyond it and is not a side.
  package static func isBackgroundBeyond(
    _ side: Side, view: [Float], step: [Bool], length: Int, rows: Int
  ) -> Bool {
    let margin = Float(log(minimumStepRatio) / 2)
    var counted = 0
    var dark = 0
    for v in 0..<rows {
      let u = Int(side.u(row: v, rows: rows).rounded(.down))
      guard u >= 0, u + band.upperBound < length else { continue }
      let row = v * length
      guard (max(0, u - 1)...(u + 1)).contains(where: { step[row + $0] }) else { continue }
      counted += 1
      var paper = -Float.infinity
      for d in band { paper = max(paper, view[row + u + d]) }
      var beyond = -Float.infinity
      for x in 0..<max(0, u - 3) { beyond = max(beyond, view[row + x]) }
      if beyond + margin <= paper { dark += 1 }
    }
    return counted > 0 && Double(dark) >= minimumBackgroundRows * Double(counted)
  }

  /// Whether the image beyond a side (between it and the frame, 3 pixels
  /// clear of it) is blank: on at most ``maximumInkRows`` of its rows the
  /// darkest pixel is ``inkRatio`` times darker than the brightest.
  package static func isBlankBeyond(_ side: Side, view: [Float], length: Int, rows: Int) -> Bool {
    let ratio = Float(log(inkRatio))
    var counted = 0
    var inked = 0
    for v in 0..<rows {
      let u = Int(side.u(row: v, rows: rows).rounded(.down))
      let end = min(length, u - 3)
      guard end > 1 else { continue }
      let row = v * length
      var low = Float.infinity
      var high = -Float.infinity
      for x in 0..<end {
        low = min(low, view[row + x])
        high = max(high, view[row + x])
      }
      counted += 1
      if high - low >= ratio { inked += 1 }
    }
    return Double(inked) <= maximumInkRows * Double(max(1, counted))
  }

  /// The line with the most step pixels within a pixel of it (Hough vote
  /// over offset and slope), in the view's continuous coordinates.
  package static func strongestLine(_ step: [Bool], length: Int, rows: Int) -> (
    offset: Double, slope: Double, votes: Int32
  )? {
    let slopeCount = Int((2 * maximumSlope / slopeStep).rounded()) + 1
    let slopes = (0..<slopeCount).map { -maximumSlope + Double($0) * slopeStep }
    let middle = Double(rows) / 2
    // A side seen only near one end of the image (a corner outside the
    // frame) crosses the middle row outside the image: offsets reach that
    // far below 0.
    let pad = Int((maximumSlope * middle).rounded(.up)) + 1
    let span = length + pad
    var votes = [Int32](repeating: 0, count: slopeCount * span)
    for v in 0..<rows {
      let row = v * length
      let shifts = slopes.map { Int(($0 * (Double(v) + 0.5 - middle)).rounded()) }
      for u in 0..<length where step[row + u] {
        for s in 0..<slopeCount {
          let offset = u - shifts[s] + pad
          if offset >= 0 && offset < span { votes[s * span + offset] += 1 }
        }
      }
    }
    var best: (votes: Int32, slope: Int, offset: Int) = (0, 0, 0)
    for s in 0..<slopeCount {
      let base = s * span
      for offset in 0..<span {
        var sum = votes[base + offset]
        if offset > 0 { sum += votes[base + offset - 1] }
        if offset + 1 < span { sum += votes[base + offset + 1] }
        if sum > best.votes { best = (sum, s, offset) }
      }
    }
    guard best.votes > 0 else { return nil }
    return (Double(best.offset - pad) + 0.5, slopes[best.slope], best.votes)
  }

  /// The share of `side`'s length, between the other sides and within the
  /// image, that has a step pixel within a pixel of it (0 when that length
  /// is shorter than ``minimumLength``), and the rows where it has.
  package static func support(
    _ side: Side, _ step: [Bool], others: [Side], width w: Int, height h: Int
  ) -> (share: Double, rows: [Int]) {
    let length = side.side % 2 == 0 ? w : h
    let rows = side.side % 2 == 0 ? h : w
    var total = 0
    var held: [Int] = []
    for v in 0..<rows {
      let vc = Double(v) + 0.5
      let uc = side.u(row: v, rows: rows)
      let u = Int(uc.rounded(.down))
      guard u >= 0, u < length else { continue }
      let p = imagePoint(u: uc, v: vc, side: side.side, width: w, height: h)
      guard others.allSatisfy({ distanceInside(p, $0, width: w, height: h) >= -1 }) else {
        continue
      }
      total += 1
      let row = v * length
      if (max(0, u - 1)...min(length - 1, u + 1)).contains(where: { step[row + $0] }) {
        held.append(v)
      }
    }
    guard Double(total) >= minimumLength * Double(rows) else { return (0, held) }
    return (Double(held.count) / Double(total), held)
  }

  /// The side fitted to its edge to a fraction of a pixel: on each row
  /// where it holds, the steepest rise of brightness within 3 pixels of
  /// the side (placed between pixels by a parabola through the rises
  /// round it), then a least-squares line through those points, fitted
  /// again without the points more than 1.5 pixels off it.
  package static func refined(_ side: Side, view: [Float], length: Int, rows: [Int], count: Int)
    -> Side
  {
    var points: [(u: Double, v: Double)] = []
    let middle = Double(count) / 2
    for v in rows {
      let vc = Double(v) + 0.5
      let centre = Int(side.u(row: v, rows: count).rounded(.down))
      let row = v * length
      func rise(_ u: Int) -> Float { view[row + u + 1] - view[row + u - 1] }
      var best: (rise: Float, u: Int) = (0, -1)
      let low = max(1, centre - 3)
      let high = min(length - 2, centre + 3)
      guard low <= high else { continue }
      for u in low...high {
        let r = rise(u)
        if r > best.rise { best = (r, u) }
      }
      guard best.u >= 0 else { continue }
      var shift = 0.0
      if best.u >= 2, best.u <= length - 3 {
        let a = Double(rise(best.u - 1))
        let b = Double(best.rise)
        let c = Double(rise(best.u + 1))
        let curvature = a - 2 * b + c
        if curvature < 0 { shift = max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) }
      }
      points.append((Double(best.u) + 0.5 + shift, vc - middle))
    }
    func fit(_ points: [(u: Double, v: Double)]) -> Side? {
      let n = Double(points.count)
      guard n >= 10 else { return nil }
      let mu = points.reduce(0) { $0 + $1.u } / n
      let mv = points.reduce(0) { $0 + $1.v } / n
      var svv = 0.0
      var suv = 0.0
      for p in points {
        svv += (p.v - mv) * (p.v - mv)
        suv += (p.u - mu) * (p.v - mv)
      }
      guard svv > 0 else { return nil }
      let slope = suv / svv
      guard abs(slope) <= maximumSlope + slopeStep else { return nil }
      return Side(side: side.side, offset: mu - slope * mv, slope: slope)
    }
    guard let first = fit(points) else { return side }
    let kept = points.filter { abs($0.u - (first.offset + first.slope * $0.v)) <= 1.5 }
    return fit(kept) ?? first
  }

  /// A point of a side's view in image coordinates.
  package static func imagePoint(u: Double, v: Double, side: Int, width w: Int, height h: Int)
    -> Point
  {
    switch side {
    case 0: return Point(x: u, y: v)
    case 1: return Point(x: v, y: u)
    case 2: return Point(x: Double(w) - u, y: v)
    default: return Point(x: v, y: Double(h) - u)
    }
  }

  /// How far (in the side's `u`) an image point lies inside the side:
  /// negative beyond it.
  package static func distanceInside(_ p: Point, _ side: Side, width w: Int, height h: Int)
    -> Double
  {
    let (u, v): (Double, Double)
    switch side.side {
    case 0: (u, v) = (p.x, p.y)
    case 1: (u, v) = (p.y, p.x)
    case 2: (u, v) = (Double(w) - p.x, p.y)
    default: (u, v) = (Double(h) - p.y, p.x)
    }
    let rows = Double(side.side % 2 == 0 ? h : w)
    return u - (side.offset + side.slope * (v - rows / 2))
  }

  /// Where two sides' lines cross, in image coordinates.
  package static func intersection(_ a: Side, _ b: Side, width w: Int, height h: Int) -> Point? {
    func line(_ s: Side) -> (Point, Point) {
      let rows = Double(s.side % 2 == 0 ? h : w)
      let p = imagePoint(u: s.offset, v: rows / 2, side: s.side, width: w, height: h)
      let q = imagePoint(
        u: s.offset + s.slope * rows / 2, v: rows, side: s.side, width: w, height: h)
      return (p, q)
    }
    let (p1, q1) = line(a)
    let (p2, q2) = line(b)
    let d1 = Point(x: q1.x - p1.x, y: q1.y - p1.y)
    let d2 = Point(x: q2.x - p2.x, y: q2.y - p2.y)
    let denominator = d1.x * d2.y - d1.y * d2.x
    guard abs(denominator) > 1e-9 else { return nil }
    let t = ((p2.x - p1.x) * d2.y - (p2.y - p1.y) * d2.x) / denominator
    return Point(x: p1.x + t * d1.x, y: p1.y + t * d1.y)
  }

  /// The image's rectangle clipped to the inner side of each side
  /// (Sutherland–Hodgman), clockwise from the top-left.
  package static func clip(width w: Int, height h: Int, by sides: [Side]) -> [Point] {
    var polygon = [
      Point(x: 0, y: 0), Point(x: Double(w), y: 0), Point(x: Double(w), y: Double(h)),
      Point(x: 0, y: Double(h)),
    ]
    for side in sides {
      var next: [Point] = []
      for i in polygon.indices {
        let p = polygon[i]
        let q = polygon[(i + 1) % polygon.count]
        let fp = distanceInside(p, side, width: w, height: h)
        let fq = distanceInside(q, side, width: w, height: h)
        if fp >= 0 { next.append(p) }
        if (fp >= 0) != (fq >= 0) {
          let t = fp / (fp - fq)
          next.append(Point(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
        }
      }
      polygon = next
      if polygon.isEmpty { break }
    }
    return polygon
  }
}

extension PageEdges {
  /// What the side search measures on each side of a small gray image (for
  /// the measurements behind the rule, `PhotoMeasurementTests`): the
  /// strongest line's offset, slope and votes (as a share of the side's
  /// rows), and whether what lies beyond it is background.
  package static func diagnose(in image: GrayPixels) -> [[String: Double]] {
    let w = image.width
    let h = image.height
    guard w >= 32, h >= 32 else { return [] }
    let table = (0..<256).map { Float(log(Double($0) + 8)) }
    let logs = image.values.map { table[Int($0)] }
    var out: [[String: Double]] = []
    for side in 0..<4 {
      let (view, u, v) = Self.view(logs, width: w, height: h, side: side)
      let step = Self.stepPixels(view, length: u, rows: v)
      guard let line = Self.strongestLine(step, length: u, rows: v) else {
        out.append(["side": Double(side)])
        continue
      }
      let found = Side(side: side, offset: line.offset, slope: line.slope)
      out.append([
        "side": Double(side), "offset": line.offset / Double(u), "slope": line.slope,
        "votes": Double(line.votes) / Double(v),
        "background": isBackgroundBeyond(found, view: view, step: step, length: u, rows: v)
          ? 1 : 0,
      ])
    }
    return out
  }
}
