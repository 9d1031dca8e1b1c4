import Foundation
import ScanModel

/// The page of a photo, found as paper against a darker background (a
/// table), in the original image's pixels.
package struct PageOutline: Equatable {
  /// A page must be at least this share of the image (both ways of
  /// finding one, by its region and by its sides, hold to it).
  package static let minimumPageShare = 0.2

  /// The area of a simple polygon (shoelace formula).
  package static func area(_ points: [Point]) -> Double {
    var twice = 0.0
    for i in points.indices {
      let p = points[i]
      let q = points[(i + 1) % points.count]
      twice += p.x * q.y - q.x * p.y
    }
    return abs(twice) / 2
  }

  /// The page's corners, clockwise from the top-left: top-left, top-right,
  /// bottom-right, bottom-left.
  package var corners: [Point]
  /// The mean brightness of the page (paper and print) and of what lies
  /// round it, on the measuring image.
  package var paper: Double
  package var background: Double
  /// The part of the image inside the page's sides, clockwise, when the
  /// page was found by its edges (``PageEdges``) and may run out of the
  /// frame: its corners may then lie outside the image.
  package var polygon: [Point]? = nil
  /// A spread folded at its spine: the fold's ends on the sheet's top and
  /// bottom edges, the two pages being the quadrilaterals either side.
  package var fold: [Point]? = nil

  package init(
    corners: [Point], paper: Double, background: Double, polygon: [Point]? = nil,
    fold: [Point]? = nil
  ) {
    self.corners = corners
    self.paper = paper
    self.background = background
    self.polygon = polygon
    self.fold = fold
  }

  /// The two pages' quadrilaterals, left first, corners clockwise from the
  /// top-left, when the sheet is folded at its spine. A spread whose
  /// gutter's shadow parts its pages is straightened as one sheet: each
  /// page from its own extreme corners read `photo-gutter` a little worse
  /// (word recall 0.996 → 0.993, mean IoU 0.935 → 0.924), its pages being
  /// in one plane.
  package var pageQuads: [[Point]]? {
    guard let fold else { return nil }
    let c = corners
    return [[c[0], fold[0], fold[1], c[3]], [fold[0], c[1], c[2], fold[1]]]
  }

  /// The largest difference (degrees) between a corner's angle and a right
  /// angle: 0 for a page seen square on, growing with perspective.
  package var cornerAngleDeviation: Double {
    var worst = 0.0
    for i in 0..<4 {
      let p = corners[i]
      let u = corners[(i + 1) % 4]
      let v = corners[(i + 3) % 4]
      let ux = u.x - p.x
      let uy = u.y - p.y
      let vx = v.x - p.x
      let vy = v.y - p.y
      let lengths = distance(p, u) * distance(p, v)
      guard lengths > 0 else { return 90 }
      let cosine = max(-1, min(1, (ux * vx + uy * vy) / lengths))
      worst = max(worst, abs(acos(cosine) * 180 / Double.pi - 90))
    }
    return worst
  }

  /// The axis-aligned box round the corners, in whole pixels inside a
  /// `width` × `height` image.
  package func boundingBox(width: Int, height: Int) -> PixelRect {
    let points = polygon ?? corners
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    let minX = max(0, Int((xs.min() ?? 0).rounded(.down)))
    let minY = max(0, Int((ys.min() ?? 0).rounded(.down)))
    return PixelRect(
      minX: minX, minY: minY,
      maxX: max(minX + 1, min(width, Int((xs.max() ?? 0).rounded(.up)))),
      maxY: max(minY + 1, min(height, Int((ys.max() ?? 0).rounded(.up)))))
  }
}

/// The pixels of a region furthest along each diagonal (first found on
/// ties): top-left, top-right, bottom-right, bottom-left.
package struct ExtremePixels {
  private var indices = [Int](repeating: -1, count: 4)
  private var reach = [Int](repeating: Int.min, count: 4)

  package init() {}

  /// Takes pixel `i` of an image `width` pixels wide into account.
  package mutating func add(_ i: Int, width w: Int) {
    let x = i % w
    let y = i / w
    let values = (-(x + y), x - y, x + y, y - x)
    if values.0 > reach[0] { (reach[0], indices[0]) = (values.0, i) }
    if values.1 > reach[1] { (reach[1], indices[1]) = (values.1, i) }
    if values.2 > reach[2] { (reach[2], indices[2]) = (values.2, i) }
    if values.3 > reach[3] { (reach[3], indices[3]) = (values.3, i) }
  }

  /// The outer corner of each extreme pixel, clockwise from the top-left;
  /// `nil` before any pixel.
  package func corners(width w: Int) -> [Point]? {
    guard indices.allSatisfy({ $0 >= 0 }) else { return nil }
    let offsets = [(0, 0), (1, 0), (1, 1), (0, 1)]
    return (0..<4).map { k in
      Point(x: Double(indices[k] % w + offsets[k].0), y: Double(indices[k] / w + offsets[k].1))
    }
  }
}

/// The distance between two points, in pixels.
package func distance(_ a: Point, _ b: Point) -> Double {
  ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}
