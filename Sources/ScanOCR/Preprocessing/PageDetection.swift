import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// Finds the page in a photo: the paper as one bright region standing
/// free of the image's edges on a darker background.
///
/// The measurement runs on the image reduced to about 500 pixels on its
/// longer side (a few milliseconds): Otsu's threshold splits paper from
/// background, the largest bright region (4-connected) with its holes
/// (the print) filled is the page, and its corners are its extreme points
/// along the two diagonals. A page is found only when every part of the
/// rule holds; a flat scan (paper to the edges, or a dark band along one
/// or two edges) has no page standing free and is left alone.
enum PageDetection {
  /// The longer side of the measuring image.
  static let measureSide = 500
  /// The page may touch an edge of the image along at most this share of
  /// it: its four corners must all be in the photo. Flat scans touch all
  /// four edges, scans with a dark border or a book's edge at least two
  /// (`kant-0017`, `bengel-abriss`: one edge ≥ 88 %, two more ≥ 96 % with
  /// the print); the real phone photos show part of the page cut off by
  /// the frame (`boston-cooking-a`: 45 % and 64 %; `linguistics-thesis-a`:
  /// 95 % and 53 %): such pages are left to ``PageEdges``, which finds a
  /// page by its four sides.
  static let maximumEdgeShare = 0.02
  /// What lies round the page must be at least this share of the image.
  static let minimumBackgroundShare = 0.1
  /// The page must be at least this share of the image.
  static let minimumPageShare = PageOutline.minimumPageShare
  /// Paper (with its print) and background must differ by this much in
  /// mean brightness.
  static let minimumContrast = 40.0
  /// The region must fill its corners' quadrilateral to within this share
  /// (a page, not a blob).
  static let minimumFill = 0.95

  /// Finds the page of an image, or `nil` when neither the rule above
  /// finds one standing free nor ``PageEdges`` finds its four sides. A
  /// black-and-white image (1 bit) is a scan or a fax, never a photo, and
  /// has no gray levels to tell paper from a table: it is not measured (on `typewriter`, a 4000 × 2864 bilevel
  /// scan, the measurement was 2.6 % of a reading).
  ///
  /// - Parameter gray: `image`'s gray copy (``Preprocessor/gray(_:)``), when
  ///   already made.
  static func find(_ image: LeptonicaImage, gray: LeptonicaImage? = nil) -> PageOutline? {
    guard let pixels = measuringPixels(image, gray: gray),
      var outline = find(in: pixels) ?? PageEdges.find(in: pixels)
    else { return nil }
    let fx = Double(image.width) / Double(pixels.width)
    let fy = Double(image.height) / Double(pixels.height)
    outline.corners = outline.corners.map { Point(x: $0.x * fx, y: $0.y * fy) }
    outline.polygon = outline.polygon?.map { Point(x: $0.x * fx, y: $0.y * fy) }
    outline.fold = outline.fold?.map { Point(x: $0.x * fx, y: $0.y * fy) }
    return outline
  }

  /// The gray image the page is measured on: `image` reduced to
  /// ``measureSide`` pixels on its longer side; `nil` for a black-and-white
  /// image or one under 100 pixels.
  static func measuringPixels(_ image: LeptonicaImage, gray: LeptonicaImage? = nil)
    -> GrayPixels?
  {
    guard scantext_pixGetDepth(image.pix) > 1, let gray = gray ?? Preprocessor.gray(image) else {
      return nil
    }
    let longer = max(gray.width, gray.height)
    guard longer >= 100 else { return nil }
    let small: LeptonicaImage
    if longer > measureSide {
      let factor = Float(measureSide) / Float(longer)
      guard let scaled = scantext_pixScaleAreaMap(gray.pix, factor, factor) else { return nil }
      small = LeptonicaImage(taking: scaled)
    } else {
      small = gray
    }
    return GrayPixels(small)
  }

  /// The page of a small gray image, in its own pixels (corners on pixel
  /// edges: the outer corner of each extreme pixel).
  static func find(in image: GrayPixels) -> PageOutline? {
    let w = image.width
    let h = image.height
    let count = w * h
    guard count > 0 else { return nil }
    let threshold = otsuThreshold(image.values)
    // The largest bright region.
    var label = [Int32](repeating: 0, count: count)
    var best: (size: Int, label: Int32) = (0, 0)
    var second: (size: Int, label: Int32) = (0, 0)
    var next: Int32 = 0
    var stack: [Int] = []
    for start in 0..<count where label[start] == 0 && Int(image.values[start]) >= threshold {
      next += 1
      label[start] = next
      stack.append(start)
      var size = 0
      while let i = stack.popLast() {
        size += 1
        forEachNeighbour(of: i, width: w, count: count) { j in
          if label[j] == 0 && Int(image.values[j]) >= threshold {
            label[j] = next
            stack.append(j)
          }
        }
      }
      if size > best.size {
        second = best
        best = (size, next)
      } else if size > second.size {
        second = (size, next)
      }
    }
    guard best.size > 0 else { return nil }
    // The two pages of a spread whose gutter's shadow parts them are two
    // regions side by side: both are the sheet (one alone would cut the
    // other page's text away).
    let spread =
      Double(second.size) >= minimumSpreadShare * Double(best.size)
      && areSideBySide(best.label, second.label, in: label, width: w)
    let pages: Set<Int32> = spread ? [best.label, second.label] : [best.label]
    // The background: everything else that the image's border reaches.
    var outside = [Bool](repeating: false, count: count)
    func seed(_ i: Int) {
      if !pages.contains(label[i]) && !outside[i] {
        outside[i] = true
        stack.append(i)
      }
    }
    for x in 0..<w {
      seed(x)
      seed((h - 1) * w + x)
    }
    for y in 0..<h {
      seed(y * w)
      seed(y * w + w - 1)
    }
    while let i = stack.popLast() {
      forEachNeighbour(of: i, width: w, count: count) { j in
        if !pages.contains(label[j]) && !outside[j] {
          outside[j] = true
          stack.append(j)
        }
      }
    }
    // The page must stand free of the image's edges.
    func edgeShare(_ indices: some Sequence<Int>, _ n: Int) -> Double {
      Double(indices.reduce(0) { $0 + (outside[$1] ? 0 : 1) }) / Double(max(1, n))
    }
    let edges = [
      edgeShare(0..<w, w), edgeShare(((h - 1) * w)..<(h * w), w),
      edgeShare(stride(from: 0, to: count, by: w), h),
      edgeShare(stride(from: w - 1, to: count, by: w), h),
    ]
    guard edges.allSatisfy({ $0 <= maximumEdgeShare }) else { return nil }
    var pageSum = 0.0
    var pageCount = 0
    var backgroundSum = 0.0
    var extremes = ExtremePixels()
    for i in 0..<count {
      let v = Double(image.values[i])
      if outside[i] {
        backgroundSum += v
        continue
      }
      pageSum += v
      pageCount += 1
      extremes.add(i, width: w)
    }
    let backgroundCount = count - pageCount
    let pageShare = Double(pageCount) / Double(count)
    guard pageShare >= minimumPageShare, 1 - pageShare >= minimumBackgroundShare else {
      return nil
    }
    let paper = pageSum / Double(max(1, pageCount))
    let background = backgroundSum / Double(max(1, backgroundCount))
    guard paper - background >= minimumContrast else { return nil }
    guard let corners = extremes.corners(width: w) else { return nil }
    if spread {
      // Each page fills its own quadrilateral; the sheet is their hull.
      for page in pages {
        guard
          let fill = Self.fill(of: page, pages: pages, label: label, outside: outside, width: w),
          fill >= minimumFill, fill <= 2 - minimumFill
        else { return nil }
      }
    } else {
      let area = PageOutline.area(corners)
      guard area > 0, Double(pageCount) >= minimumFill * area else { return nil }
      if Double(pageCount) > (2 - minimumFill) * area {
        // More paper than the corners hold: a spread folded at its spine,
        // its top and bottom edges bending out at the fold.
        guard
          let fold = Self.fold(
            of: corners, outside: outside, width: w, height: h, pageCount: pageCount)
        else { return nil }
        return PageOutline(
          corners: corners, paper: paper, background: background,
          polygon: [corners[0], fold[0], corners[1], corners[2], fold[1], corners[3]],
          fold: fold)
      }
    }
    return PageOutline(corners: corners, paper: paper, background: background)
  }

  /// How far (a share of the image's height, at least 2 pixels) the fold
  /// of a spread must bend its top or bottom edge out of the line between
  /// its corners.
  static let minimumFoldBend = 0.01

  /// The fold of a spread whose paper bends out of its corners'
  /// quadrilateral: on the top edge and on the bottom edge, where the
  /// straight edge of the left page (fitted between a tenth and two fifths
  /// of the way along) meets that of the right page (three fifths to nine
  /// tenths), when that point lies in the middle two fifths and out of the
  /// line between the corners by ``minimumFoldBend`` (where only one edge
  /// bends out, the fold meets the other as far along); `nil` unless one
  /// does and the hexagon of the corners and the fold holds the paper to
  /// within ``minimumFill``. Sheets lying on their side (top edge steeper
  /// than 1 in 2) are not measured.
  static func fold(
    of c: [Point], outside: [Bool], width w: Int, height h: Int, pageCount: Int
  ) -> [Point]? {
    let span = c[1].x - c[0].x
    guard span > 20, abs(c[1].y - c[0].y) < span / 2, abs(c[2].y - c[3].y) < span / 2 else {
      return nil
    }
    // The paper's first and last row in each column (pixel edges).
    // (-1 where a column has none.)
    var first = [Int](repeating: -1, count: w)
    var last = [Int](repeating: -1, count: w)
    for i in outside.indices where !outside[i] {
      let x = i % w
      let y = i / w
      if first[x] < 0 { first[x] = y }
      last[x] = y + 1
    }
    /// The least-squares line y = a + b x through the edge's columns
    /// between two shares of the way along.
    func line(_ edge: [Int], _ from: Double, _ to: Double) -> (a: Double, b: Double)? {
      var points: [(Double, Double)] = []
      for x in Int(c[0].x + from * span)..<Int(c[0].x + to * span) where x >= 0 && x < w {
        if edge[x] >= 0 { points.append((Double(x) + 0.5, Double(edge[x]))) }
      }
      let n = Double(points.count)
      guard n >= 5 else { return nil }
      let mx = points.reduce(0) { $0 + $1.0 } / n
      let my = points.reduce(0) { $0 + $1.1 } / n
      let sxx = points.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
      let sxy = points.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
      guard sxx > 0 else { return nil }
      return (my - sxy / sxx * mx, sxy / sxx)
    }
    /// Where the two pages' edges meet, if out of the corners' line a→b
    /// (`outward` 1 above it, -1 below) by at least `bend`.
    func meet(_ edge: [Int], _ a: Point, _ b: Point, outward: Double) -> Point? {
      guard let l = line(edge, 0.1, 0.4), let r = line(edge, 0.6, 0.9), abs(l.b - r.b) > 1e-6
      else { return nil }
      let x = (r.a - l.a) / (l.b - r.b)
      let y = l.a + l.b * x
      let along = (x - a.x) / (b.x - a.x)
      let onLine = a.y + (b.y - a.y) * along
      guard (0.3...0.7).contains(along),
        outward * (onLine - y) >= max(2, minimumFoldBend * Double(h))
      else { return nil }
      return Point(x: x, y: y)
    }
    let high = meet(first, c[0], c[1], outward: 1)
    let low = meet(last, c[3], c[2], outward: -1)
    func on(_ a: Point, _ b: Point, _ x: Double) -> Point {
      Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
    }
    let fold: [Point]
    switch (high, low) {
    case (let high?, let low?): fold = [high, low]
    case (let high?, nil):
      fold = [high, on(c[3], c[2], c[3].x + (high.x - c[0].x) / span * (c[2].x - c[3].x))]
    case (nil, let low?):
      fold = [on(c[0], c[1], c[0].x + (low.x - c[3].x) / (c[2].x - c[3].x) * span), low]
    case (nil, nil): return nil
    }
    let hexagon = PageOutline.area([c[0], fold[0], c[1], c[2], fold[1], c[3]])
    guard hexagon > 0, Double(pageCount) >= minimumFill * hexagon,
      Double(pageCount) <= (2 - minimumFill) * hexagon
    else { return nil }
    return fold
  }

  /// The second page of a spread must be at least this share of the first.
  static let minimumSpreadShare = 0.5

  /// Whether two regions lie side by side (or one above the other): their
  /// boxes overlap across at least half the smaller one's extent and are
  /// at most a tenth of the image apart along the other direction.
  static func areSideBySide(_ a: Int32, _ b: Int32, in label: [Int32], width w: Int) -> Bool {
    guard a != 0, b != 0, a != b else { return false }
    let h = label.count / max(1, w)
    var boxes = [
      a: (minX: w, minY: h, maxX: -1, maxY: -1), b: (minX: w, minY: h, maxX: -1, maxY: -1),
    ]
    for i in label.indices where label[i] == a || label[i] == b {
      let x = i % w
      let y = i / w
      if var box = boxes[label[i]] {
        box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
        boxes[label[i]] = box
      }
    }
    guard let p = boxes[a], let q = boxes[b] else { return false }
    func overlap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Double {
      Double(max(0, min(a1, b1) - max(a0, b0) + 1))
        / Double(max(1, min(a1 - a0, b1 - b0) + 1))
    }
    // The empty rows or columns between two extents.
    func gap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int {
      max(0, max(a0, b0) - min(a1, b1) - 1)
    }
    let across =
      overlap(p.minY, p.maxY, q.minY, q.maxY) >= 0.5
      && Double(gap(p.minX, p.maxX, q.minX, q.maxX)) <= 0.1 * Double(w)
    let stacked =
      overlap(p.minX, p.maxX, q.minX, q.maxX) >= 0.5
      && Double(gap(p.minY, p.maxY, q.minY, q.maxY)) <= 0.1 * Double(h)
    return across || stacked
  }

  /// How much of its corners' quadrilateral a page region fills: its pixels
  /// and the holes (print, the paper inside letters) it encloses, each
  /// given to the page of `pages` met first to its left on its row.
  static func fill(
    of page: Int32, pages: Set<Int32>, label: [Int32], outside: [Bool], width w: Int
  ) -> Double? {
    var extremes = ExtremePixels()
    var pixels = 0
    var owner: Int32 = 0
    for i in label.indices {
      if i % w == 0 { owner = 0 }
      if outside[i] {
        owner = 0
        continue
      }
      if pages.contains(label[i]) { owner = label[i] }
      guard owner == page else { continue }
      pixels += 1
      extremes.add(i, width: w)
    }
    guard let corners = extremes.corners(width: w) else { return nil }
    let area = PageOutline.area(corners)
    return area > 0 ? Double(pixels) / area : nil
  }

  /// Calls `body` with the 4-connected neighbours of pixel `i` that lie
  /// in the image.
  @inline(__always)
  static func forEachNeighbour(
    of i: Int, width w: Int, count: Int, _ body: (Int) -> Void
  ) {
    let x = i % w
    if i >= w { body(i - w) }
    if i + w < count { body(i + w) }
    if x > 0 { body(i - 1) }
    if x < w - 1 { body(i + 1) }
  }

  /// Otsu's threshold of 8-bit values: values at or above it are the
  /// brighter class.
  static func otsuThreshold(_ values: [UInt8]) -> Int {
    var histogram = [Double](repeating: 0, count: 256)
    for v in values { histogram[Int(v)] += 1 }
    let total = Double(values.count)
    let sumAll = (0..<256).reduce(0.0) { $0 + Double($1) * histogram[$1] }
    var weight = 0.0
    var sum = 0.0
    var best = (score: -1.0, threshold: 128)
    for t in 0..<255 {
      weight += histogram[t]
      sum += Double(t) * histogram[t]
      let other = total - weight
      guard weight > 0, other > 0 else { continue }
      let mean0 = sum / weight
      let mean1 = (sumAll - sum) / other
      let score = weight * other * (mean0 - mean1) * (mean0 - mean1)
      if score > best.score { best = (score, t + 1) }
    }
    return best.threshold
  }

}
