import Foundation

/// A point in image pixels, top-left origin; `x` grows to the right and `y`
/// grows downward. Fractional values address positions between pixel edges.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// Horizontal position, growing to the right.
  public var x: Double
  /// Vertical position, growing downward.
  public var y: Double

  /// Creates a point from its coordinates.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public var description: String { "(\(x), \(y))" }

  static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
  func dot(_ b: Point) -> Double { x * b.x + y * b.y }
  var length: Double { (x * x + y * y).squareRoot() }
}

/// An axis-aligned rectangle with fractional coordinates, in image pixels
/// (top-left origin). Used for derived geometry such as carets and selection
/// rectangles, which may fall between pixel edges.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The left edge.
  public var minX: Double
  /// The top edge.
  public var minY: Double
  /// The right edge.
  public var maxX: Double
  /// The bottom edge.
  public var maxY: Double

  /// Creates a rectangle from its edges.
  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The axis-aligned bounds of `points` (a zero rect when there are none).
  ///
  /// - Complexity: O(*n*) in the points.
  public init(bounding points: [Point]) {
    var r = Rect(
      minX: .infinity, minY: .infinity, maxX: -Double.infinity, maxY: -Double.infinity)
    for p in points {
      r.minX = min(r.minX, p.x)
      r.minY = min(r.minY, p.y)
      r.maxX = max(r.maxX, p.x)
      r.maxY = max(r.maxY, p.y)
    }
    self = points.isEmpty ? Rect(minX: 0, minY: 0, maxX: 0, maxY: 0) : r
  }

  /// The width (zero for an inverted rectangle).
  public var width: Double { Swift.max(0, maxX - minX) }
  /// The height (zero for an inverted rectangle).
  public var height: Double { Swift.max(0, maxY - minY) }
  /// The area.
  public var area: Double { width * height }
  /// The centre point.
  public var center: Point { Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

  /// Whether `p` lies inside (edges included).
  public func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
  }

  /// The area shared with `other` (zero when disjoint).
  public func overlapArea(with other: Rect) -> Double {
    let w = Swift.min(maxX, other.maxX) - Swift.max(minX, other.minX)
    let h = Swift.min(maxY, other.maxY) - Swift.max(minY, other.minY)
    return w > 0 && h > 0 ? w * h : 0
  }

  /// Distance from `p` to the rectangle (zero inside).
  public func distance(to p: Point) -> Double {
    let dx = Swift.max(minX - p.x, 0, p.x - maxX)
    let dy = Swift.max(minY - p.y, 0, p.y - maxY)
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The rectangle with its edges rounded outward to whole pixels.
  public var enclosingPixelRect: PixelRect {
    PixelRect(
      minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)),
      maxX: Int(maxX.rounded(.up)), maxY: Int(maxY.rounded(.up)))
  }

  public var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }
}

/// Four corners of a text element in image pixels, named in the text's
/// reading frame: `topLeft` → `topRight` runs along the baseline direction
/// and `topLeft` → `bottomLeft` runs from the ascender side to the descender
/// side. On an upright page the quad is the element's box; on a skewed or
/// rotated page it follows the text.
public struct Quad: Hashable, Sendable {
  /// The start of the top edge (ascender side) in reading order.
  public var topLeft: Point
  /// The end of the top edge.
  public var topRight: Point
  /// The end of the bottom edge (descender side).
  public var bottomRight: Point
  /// The start of the bottom edge.
  public var bottomLeft: Point

  /// Creates a quad from its corners in reading order.
  public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  /// The quad of an upright box.
  public init(_ r: Rect) {
    self.init(
      topLeft: Point(x: r.minX, y: r.minY), topRight: Point(x: r.maxX, y: r.minY),
      bottomRight: Point(x: r.maxX, y: r.maxY), bottomLeft: Point(x: r.minX, y: r.maxY))
  }

  /// The same outline read the other way along its top edge (`topLeft`
  /// and `topRight` swapped, and the bottom corners): the reading frame
  /// of right-to-left text over the box's upright corners.
  var mirrored: Quad {
    Quad(topLeft: topRight, topRight: topLeft, bottomRight: bottomLeft, bottomLeft: bottomRight)
  }

  /// The corners in order: top-left, top-right, bottom-right, bottom-left.
  public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

  /// The axis-aligned bounds of the four corners.
  public var boundingRect: Rect {
    let xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x]
    let ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y]
    return Rect(
      minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0)
  }
}

/// A line's baseline: the line through `start` and `end`, in image pixels.
public struct Baseline: Hashable, Sendable {
  /// The baseline's start, on the left of upright text.
  public var start: Point
  /// The baseline's end.
  public var end: Point

  /// Creates a baseline through two points.
  public init(start: Point, end: Point) {
    self.start = start
    self.end = end
  }

  /// The baseline's angle to the x-axis in degrees (positive: descending to
  /// the right, since y grows downward).
  public var angle: Double {
    let d = end - start
    guard d.length > 0 else { return 0 }
    return atan2Degrees(d.y, d.x)
  }
}

func atan2Degrees(_ y: Double, _ x: Double) -> Double {
  atan2(y, x) * 180 / Double.pi
}
