import Foundation
import ScanModel

/// Maps points of the image Tesseract recognised (after perspective
/// correction, rotation, deskew and scaling) back to the original image: a
/// projective map `x = (a·x' + b·y' + c) / w`, `y = (d·x' + e·y' + f) / w`
/// with `w = g·x' + h·y' + 1` (Leptonica's `projectiveXformPt` form); affine
/// when `g` and `h` are 0, as every step but perspective correction makes.
package struct ImageTransform: Equatable, Sendable {
  package var a = 1.0, b = 0.0, c = 0.0
  package var d = 0.0, e = 1.0, f = 0.0
  package var g = 0.0, h = 0.0

  package init(
    a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 0, e: Double = 1, f: Double = 0,
    g: Double = 0, h: Double = 0
  ) {
    (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h) = (a, b, c, d, e, f, g, h)
  }

  package static let identity = ImageTransform()

  package var isIdentity: Bool { self == .identity }

  /// Whether upright boxes stay upright with the same corner order (no
  /// rotation, no flip, no perspective): then boxes map to boxes and need
  /// no quad.
  package var keepsBoxesUpright: Bool { b == 0 && d == 0 && g == 0 && h == 0 && a > 0 && e > 0 }

  package func apply(_ p: Point) -> Point {
    let w = g * p.x + h * p.y + 1
    let x = a * p.x + b * p.y + c
    let y = d * p.x + e * p.y + f
    guard w != 1 else { return Point(x: x, y: y) }
    return Point(x: x / w, y: y / w)
  }

  /// `self` after `inner`: first `inner`, then `self` (the product of the
  /// two 3×3 matrices, scaled so that its last entry is 1).
  package func composed(after inner: ImageTransform) -> ImageTransform {
    let m = [[a, b, c], [d, e, f], [g, h, 1]]
    let n = [[inner.a, inner.b, inner.c], [inner.d, inner.e, inner.f], [inner.g, inner.h, 1]]
    var p = [[Double]](repeating: [0, 0, 0], count: 3)
    for i in 0..<3 {
      for j in 0..<3 {
        p[i][j] = m[i][0] * n[0][j] + m[i][1] * n[1][j] + m[i][2] * n[2][j]
      }
    }
    // The last entry is 1 for affine maps and for the perspective maps of
    // a page in front of the camera; keep the matrix as it is otherwise.
    let s = p[2][2] != 0 ? 1 / p[2][2] : 1
    return ImageTransform(
      a: p[0][0] * s, b: p[0][1] * s, c: p[0][2] * s, d: p[1][0] * s, e: p[1][1] * s,
      f: p[1][2] * s, g: p[2][0] * s, h: p[2][1] * s)
  }

  /// A translation: from a crop whose top-left corner is at (`x`, `y`) in
  /// the original back to the original.
  package static func undoCrop(x: Int, y: Int) -> ImageTransform {
    ImageTransform(a: 1, b: 0, c: Double(x), d: 0, e: 1, f: Double(y))
  }

  /// From an image turned clockwise by `quarterTurns` × 90° (of the
  /// original's size `width` × `height`) back to the original.
  package static func undoQuarterTurns(_ quarterTurns: Int, width: Int, height: Int)
    -> ImageTransform
  {
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
  package static func undoRotation(degrees: Double, width: Int, height: Int) -> ImageTransform {
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
  package static func undoScale(_ factor: Double) -> ImageTransform {
    undoScale(x: factor, y: factor)
  }

  /// From an image scaled by `x` horizontally and `y` vertically back to
  /// the original.
  package static func undoScale(x: Double, y: Double) -> ImageTransform {
    ImageTransform(a: 1 / x, b: 0, c: 0, d: 0, e: 1 / y, f: 0)
  }

  /// The original-image corners of a box of the recognised image, in
  /// reading order (the box's top-left first).
  package func quad(_ r: PixelRect) -> Quad {
    Quad(
      topLeft: apply(Point(x: Double(r.minX), y: Double(r.minY))),
      topRight: apply(Point(x: Double(r.maxX), y: Double(r.minY))),
      bottomRight: apply(Point(x: Double(r.maxX), y: Double(r.maxY))),
      bottomLeft: apply(Point(x: Double(r.minX), y: Double(r.maxY))))
  }
}

/// The map from a straightened spread to the photo when its two pages were
/// straightened each from its own quadrilateral (a book folded at its
/// spine): points left of ``split`` go back through ``left``, the others
/// through ``right``.
package struct SheetMap: Equatable, Sendable {
  /// Where the left page ends in the straightened sheet (pixels).
  package var split: Double
  package var left: ImageTransform
  package var right: ImageTransform

  package init(split: Double, left: ImageTransform, right: ImageTransform) {
    (self.split, self.left, self.right) = (split, left, right)
  }

  package func apply(_ p: Point) -> Point { (p.x < split ? left : right).apply(p) }
}

/// The one map from the image Tesseract recognised back to the original:
/// the back-maps of the steps that moved pixels (turn, square pixels,
/// rotation, crop, perspective, dewarp, the two pages of a spread,
/// upscale), composed in the order the steps ran.
///
/// A point of the recognised image goes through the last step's map
/// first and the first step's last. Consecutive projective maps are kept
/// as one ``ImageTransform`` (their product); a dewarp's disparity or a
/// spread's ``SheetMap`` sits between them, as it cannot be multiplied in.
package struct PointMap: Equatable, Sendable {
  /// One step's back-map.
  package enum Piece: Equatable, Sendable {
    /// Crop, perspective, turn, rotation, scaling: one projective map.
    case projective(ImageTransform)
    /// The dewarp step: each point moves up or down by the disparity.
    case dewarp(Disparity)
    /// A folded spread straightened page by page.
    case sheet(SheetMap)
  }

  /// The pieces, the first step's (nearest the original) first.
  package private(set) var pieces: [Piece] = []

  /// The map of an image that no step moved.
  package static let identity = PointMap()

  package init() {}

  /// One step's back-map.
  package init(_ piece: Piece) { pieces = [piece] }

  /// The map that goes through `inner` (a later step's back-map) first,
  /// then through `self`. A projective piece next to a projective piece
  /// becomes their product (``ImageTransform/composed(after:)``), taken in
  /// the same order as the steps ran.
  package func composed(after inner: PointMap) -> PointMap {
    var result = self
    for piece in inner.pieces {
      if case .projective(let next) = piece, case .projective(let last)? = result.pieces.last {
        result.pieces[result.pieces.count - 1] = .projective(last.composed(after: next))
      } else {
        result.pieces.append(piece)
      }
    }
    return result
  }

  /// `self` after one more step's back-map.
  package func composed(after inner: Piece) -> PointMap { composed(after: PointMap(inner)) }

  /// A point of the recognised image in the original.
  /// - Complexity: O(1) per piece (a disparity reads four samples).
  package func apply(_ p: Point) -> Point {
    var q = p
    for piece in pieces.reversed() {
      switch piece {
      case .projective(let t): q = t.apply(q)
      case .dewarp(let d): q = d.source(of: q)
      case .sheet(let s): q = s.apply(q)
      }
    }
    return q
  }

  /// The one projective map this is, when it is one (no dewarp, no
  /// spread): then a box maps corner by corner. ``ImageTransform/identity``
  /// for the identity map.
  package var projective: ImageTransform? {
    switch pieces.count {
    case 0: return .identity
    case 1: if case .projective(let t) = pieces[0] { return t } else { return nil }
    default: return nil
    }
  }

  /// Whether the map is the identity: boxes come back as Tesseract gave them.
  package var isIdentity: Bool { projective?.isIdentity == true }

  /// Whether a dewarp step bends straight lines of the recognised image.
  package var bends: Bool {
    pieces.contains { if case .dewarp = $0 { true } else { false } }
  }

  /// Whether a spread was straightened page by page.
  package var splitsSpread: Bool {
    pieces.contains { if case .sheet = $0 { true } else { false } }
  }

  /// Whether any projective piece is a true perspective map (not affine).
  package var hasPerspective: Bool {
    pieces.contains { if case .projective(let t) = $0 { t.g != 0 || t.h != 0 } else { false } }
  }
}
