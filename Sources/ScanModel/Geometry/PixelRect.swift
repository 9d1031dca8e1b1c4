/// An axis-aligned rectangle in image pixels: top-left origin, `maxX` and
/// `maxY` exclusive, as Tesseract reports boxes ("integer coordinates are at
/// the cracks between the pixels").
///
/// A box `[x0, y0, x1, y1]` in the JSON export is
/// `PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)`.
///
/// Edges are stored in 32 bits (a page has millions of boxes); values
/// beyond ±2³¹ are clamped.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
  private var x0: Int32
  private var y0: Int32
  private var x1: Int32
  private var y1: Int32

  /// The left edge (inclusive).
  public var minX: Int {
    get { Int(x0) }
    set { x0 = Int32(clamping: newValue) }
  }
  /// The top edge (inclusive).
  public var minY: Int {
    get { Int(y0) }
    set { y0 = Int32(clamping: newValue) }
  }
  /// The right edge (exclusive).
  public var maxX: Int {
    get { Int(x1) }
    set { x1 = Int32(clamping: newValue) }
  }
  /// The bottom edge (exclusive).
  public var maxY: Int {
    get { Int(y1) }
    set { y1 = Int32(clamping: newValue) }
  }

  /// Creates a rectangle from its edges. `maxX`/`maxY` are exclusive.
  public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
    x0 = Int32(clamping: minX)
    y0 = Int32(clamping: minY)
    x1 = Int32(clamping: maxX)
    y1 = Int32(clamping: maxY)
  }

  /// The width in pixels (zero for an inverted rectangle).
  public var width: Int { Swift.max(0, maxX - minX) }
  /// The height in pixels (zero for an inverted rectangle).
  public var height: Int { Swift.max(0, maxY - minY) }
  /// The number of pixels covered.
  public var area: Int { width * height }
  /// Whether the rectangle covers no pixel.
  public var isEmpty: Bool { maxX <= minX || maxY <= minY }
  /// The centre point.
  public var center: Point {
    Point(x: Double(minX + maxX) / 2, y: Double(minY + maxY) / 2)
  }
  /// The same rectangle with `Double` coordinates.
  public var rect: Rect {
    Rect(minX: Double(minX), minY: Double(minY), maxX: Double(maxX), maxY: Double(maxY))
  }

  /// The smallest rectangle containing both.
  public func union(_ other: PixelRect) -> PixelRect {
    if isEmpty { return other }
    if other.isEmpty { return self }
    return PixelRect(
      minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
      maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
  }

  /// The overlap of both, or `nil` when they share no pixel.
  public func intersection(_ other: PixelRect) -> PixelRect? {
    let r = PixelRect(
      minX: Swift.max(minX, other.minX), minY: Swift.max(minY, other.minY),
      maxX: Swift.min(maxX, other.maxX), maxY: Swift.min(maxY, other.maxY))
    return r.isEmpty ? nil : r
  }

  /// Intersection over union, in 0...1.
  public func intersectionOverUnion(_ other: PixelRect) -> Double {
    let inter = intersection(other)?.area ?? 0
    let union = area + other.area - inter
    return union > 0 ? Double(inter) / Double(union) : 0
  }

  /// Whether `other` lies inside this rectangle grown by `tolerance` pixels.
  public func contains(_ other: PixelRect, tolerance: Int = 0) -> Bool {
    other.minX >= minX - tolerance && other.minY >= minY - tolerance
      && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
  }

  /// The smallest rectangle containing every rectangle, or `nil` for none.
  public static func union<S: Sequence>(_ rects: S) -> PixelRect? where S.Element == PixelRect {
    var result: PixelRect?
    for r in rects { result = result.map { $0.union(r) } ?? r }
    return result
  }

  public var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }
}
