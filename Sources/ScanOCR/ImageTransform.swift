import Foundation
import ScanModel

/// Maps points of the image Tesseract recognised (after rotation, deskew
/// and scaling) back to the original image: an affine map
/// `x = a·x' + b·y' + c`, `y = d·x' + e·y' + f`.
struct ImageTransform: Equatable, Sendable {
  var a = 1.0, b = 0.0, c = 0.0
  var d = 0.0, e = 1.0, f = 0.0

  static let identity = ImageTransform()

  var isIdentity: Bool { self == .identity }

  /// Whether upright boxes stay upright with the same corner order (no
  /// rotation, no flip): then boxes map to boxes and need no quad.
  var keepsBoxesUpright: Bool { b == 0 && d == 0 && a > 0 && e > 0 }

  func apply(_ p: Point) -> Point {
    Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
  }

  /// `self` after `inner`: first `inner`, then `self`.
  func composed(after inner: ImageTransform) -> ImageTransform {
    ImageTransform(
      a: a * inner.a + b * inner.d, b: a * inner.b + b * inner.e, c: a * inner.c + b * inner.f + c,
      d: d * inner.a + e * inner.d, e: d * inner.b + e * inner.e, f: d * inner.c + e * inner.f + f)
  }

  /// From an image turned clockwise by `quarterTurns` × 90° (of the
  /// original's size `width` × `height`) back to the original.
  static func undoQuarterTurns(_ quarterTurns: Int, width: Int, height: Int) -> ImageTransform {
    let w = Double(width)
    let h = Double(height)
    switch ((quarterTurns % 4) + 4) % 4 {
    // Turned clockwise: x' = h - y, y' = x, so x = y', y = h - x'.
    case 1: return ImageTransform(a: 0, b: 1, c: 0, d: -1, e: 0, f: h)
    case 2: return ImageTransform(a: -1, b: 0, c: w, d: 0, e: -1, f: h)
    // Turned counter-clockwise: x' = y, y' = w - x, so x = w - y', y = x'.
    case 3: return ImageTransform(a: 0, b: -1, c: w, d: 1, e: 0, f: 0)
    default: return .identity
    }
  }

  /// From an image rotated clockwise by `degrees` about the centre of a
  /// `width` × `height` canvas (same size) back to the unrotated one.
  static func undoRotation(degrees: Double, width: Int, height: Int) -> ImageTransform {
    let t = -degrees * Double.pi / 180
    let cx = Double(width) / 2
    let cy = Double(height) / 2
    let cosT = cos(t)
    let sinT = sin(t)
    return ImageTransform(
      a: cosT, b: -sinT, c: cx - cosT * cx + sinT * cy,
      d: sinT, e: cosT, f: cy - sinT * cx - cosT * cy)
  }

  /// From an image scaled by `factor` back to the original.
  static func undoScale(_ factor: Double) -> ImageTransform {
    undoScale(x: factor, y: factor)
  }

  /// From an image scaled by `x` horizontally and `y` vertically back to
  /// the original.
  static func undoScale(x: Double, y: Double) -> ImageTransform {
    ImageTransform(a: 1 / x, b: 0, c: 0, d: 0, e: 1 / y, f: 0)
  }

  /// The original-image corners of a box of the recognised image, in
  /// reading order (the box's top-left first).
  func quad(_ r: PixelRect) -> Quad {
    Quad(
      topLeft: apply(Point(x: Double(r.minX), y: Double(r.minY))),
      topRight: apply(Point(x: Double(r.maxX), y: Double(r.minY))),
      bottomRight: apply(Point(x: Double(r.maxX), y: Double(r.maxY))),
      bottomLeft: apply(Point(x: Double(r.minX), y: Double(r.maxY))))
  }
}
