import Foundation

/// An affine transform of image pixels, with the fields and meaning of
/// `CGAffineTransform`: a point `(x, y)` maps to
/// `(a·x + c·y + tx, b·x + d·y + ty)`.
///
/// The transforms of ``SelectionRect/transform`` and ``CaretRect/transform``
/// (and ``Page/caretTransform(for:)``) are pure rotations (`tx` and `ty` are
/// zero) that apply *about the centre* of their rectangle, as a view's
/// `transform` applies about its centre in UIKit: give a view the
/// rectangle's size and centre and this transform, and it covers the quad.
/// ``Rect/applying(_:)`` does that arithmetic.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
  /// The x-axis scale and rotation term.
  public var a: Double
  /// The y component of the image of the x-axis.
  public var b: Double
  /// The x component of the image of the y-axis.
  public var c: Double
  /// The y-axis scale and rotation term.
  public var d: Double
  /// The horizontal translation.
  public var tx: Double
  /// The vertical translation.
  public var ty: Double

  /// Creates a transform from its six fields.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The transform that changes nothing.
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A rotation by `angle` radians, clockwise on the image (whose `y` axis
  /// points down), as `CGAffineTransform(rotationAngle:)`. Terms within
  /// 10⁻¹² of 0 or ±1 are snapped, so quarter turns are exact.
  /// - Parameter angle: The angle in radians; positive turns clockwise on
  ///   the image.
  public init(rotationAngle angle: Double) {
    func snap(_ x: Double) -> Double {
      for k in [-1.0, 0, 1] where abs(x - k) < 1e-12 { return k }
      return x
    }
    let cosine = snap(cos(angle))
    let sine = snap(sin(angle))
    self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// The rotation angle in radians (`atan2(b, a)`), for a rotation.
  public var rotationAngle: Double { atan2(b, a) }

  /// Whether this is the identity transform.
  public var isIdentity: Bool { self == .identity }

  /// The image of a point under the transform (about the image origin).
  /// - Parameter p: A point.
  /// - Returns: `(a·x + c·y + tx, b·x + d·y + ty)`.
  /// - Complexity: O(1).
  public func apply(to p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }

  public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension Rect {
  /// The quad this rectangle covers when `transform` applies about its
  /// centre (UIKit's convention for a view's transform): each corner `p`
  /// maps to `centre + transform(p − centre)`. The corners keep their
  /// names: `topLeft` is the image of the rectangle's top-left corner.
  /// - Parameter transform: A transform applied about the rectangle's centre.
  /// - Returns: The corners of the transformed rectangle.
  /// - Complexity: O(1).
  public func applying(_ transform: AffineTransform) -> Quad {
    let c = center
    func map(_ x: Double, _ y: Double) -> Point {
      c + transform.apply(to: Point(x: x, y: y) - c)
    }
    return Quad(
      topLeft: map(minX, minY), topRight: map(maxX, minY), bottomRight: map(maxX, maxY),
      bottomLeft: map(minX, maxY))
  }
}

extension AffineTransform {
  /// The transform that undoes this one; `nil` when it has no inverse.
  /// - Complexity: O(1).
  package var inverted: AffineTransform? {
    let det = a * d - b * c
    guard det != 0, det.isFinite else { return nil }
    return AffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }
}
