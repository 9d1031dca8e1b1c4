import ScanModel

/// Number formatting shared by the writers, at the precision of
/// ``ScanConventions``.
enum FormatNumbers {
  /// Whole numbers are written within ±10^15: beyond, a `Double` is no
  /// exact integer and `Int(_:)` would trap. Nothing ScanText reads or
  /// makes comes near (coordinates are refused beyond
  /// ``ScanConventions/coordinateLimit``), but a page
  /// built through the public initialisers may carry any number.
  static let wholeLimit = 1e15

  /// `x` rounded to a whole number, clamped to ±``wholeLimit``; 0 for NaN.
  static func whole(_ x: Double) -> Int {
    if x.isNaN { return 0 }
    return Int(min(max(x.rounded(), -wholeLimit), wholeLimit))
  }

  /// A confidence as a whole percentage, clamped to 0...100 (hOCR's
  /// `x_wconf`, the accessible HTML's description).
  static func percent(_ c: Double) -> Int { whole(min(100, max(0, c))) }

  /// A confidence (0–100) as a fraction of 1, clamped to 0...1, at the
  /// export precision of the percentage (ALTO's `WC` and `GC`, PAGE's
  /// `conf`): `96.25` → `0.9625`.
  static func unitConfidence(_ c: Double) -> String {
    decimal(min(100, max(0, c)) / 100, digits: ScanConventions.exportFractionDigits + 2)
  }

  /// An integer or a decimal with at most `digits` fraction digits (by
  /// default ``ScanConventions/exportFractionDigits``), no trailing zeros:
  /// `12`, `0.5`, `96.25`.
  static func decimal(_ x: Double, digits: Int = ScanConventions.exportFractionDigits) -> String {
    guard x.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (x * scale).rounded()
    if scaled == 0 { return "0" }
    guard abs(scaled) < wholeLimit else { return String(whole(x)) }
    let negative = scaled < 0
    let magnitude = Int(abs(scaled))
    let whole = magnitude / Int(scale)
    var fraction = magnitude % Int(scale)
    var out = (negative ? "-" : "") + String(whole)
    guard fraction != 0 else { return out }
    var fractionDigits = digits
    while fraction % 10 == 0 {
      fraction /= 10
      fractionDigits -= 1
    }
    let s = String(fraction)
    out += "." + String(repeating: "0", count: fractionDigits - s.count) + s
    return out
  }

  /// A point list `x,y x,y …` of whole pixels, clamped at 0 (PAGE's `PointsType`).
  static func points(_ points: [Point]) -> String {
    points.map { "\(max(0, whole($0.x))),\(max(0, whole($0.y)))" }
      .joined(separator: " ")
  }

  /// The corners of `quad` in whole pixels for the formats that write whole
  /// numbers (hOCR's `poly`, PAGE's `Coords`), or the corners of `box` when
  /// there is no quad or the rounded quad has no area: a sliver under a
  /// pixel high (a speck's word squeezed between two curled lines) rounds
  /// to a line of points, which a reader takes for an element without area.
  /// The box is whole already and never empty for an element that has
  /// area.
  ///
  /// - Complexity: O(1).
  static func wholeCorners(_ quad: Quad?, box: PixelRect) -> [Point] {
    guard let quad else { return corners(box) }
    let rounded = quad.corners.map { Point(x: Double(whole($0.x)), y: Double(whole($0.y))) }
    var twiceArea = 0.0
    for i in rounded.indices {
      let a = rounded[i]
      let b = rounded[(i + 1) % rounded.count]
      twiceArea += a.x * b.y - b.x * a.y
    }
    return twiceArea == 0 ? corners(box) : quad.corners
  }

  /// The four corners of a box, clockwise from the top left.
  static func corners(_ r: PixelRect) -> [Point] {
    let q = Quad(r.rect)
    return q.corners
  }
}
