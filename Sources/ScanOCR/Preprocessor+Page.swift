import CScanOCR
import Foundation
import ScanModel

/// What the page steps (crop, perspective) did to a photo: the image the
/// other steps work on, and how its points map back to the photo.
struct PageStep {
  /// The page cut out of the photo (and straightened, with perspective),
  /// at the photo's depth.
  var image: LeptonicaImage
  /// From `image` back to the photo.
  var transform: ImageTransform
  /// `"crop"`, or `"perspective"`.
  var applied: [String]
  /// The part of the photo kept, in its pixels.
  var crop: PixelRect
  /// The page's corners in the photo, when perspective was corrected.
  var perspective: Quad?
}

extension Preprocessor {
  /// Corners further than this (degrees) from a right angle are a page in
  /// perspective, corrected from its corners; a page seen square on is
  /// only cropped (and deskewed, if turned, by the deskew step). The
  /// generated photos' true corners are 6.99° (`photo-perspective`) and
  /// 0.05° (`photo-flat`, a turned rectangle) from square; their corners
  /// are found to within 3 pixels (tested).
  static let minimumPerspective = 1.5

  /// Crops a photo to its page, and corrects the page's perspective from
  /// its four corners, when ``PageDetection`` finds a page standing free on
  /// a darker background; `nil` when it finds none (every flat scan) or
  /// neither step is on.
  ///
  /// - Parameter gray: `original`'s gray copy (``gray(_:)``), when already made.
  func straightenPage(_ original: LeptonicaImage, gray: LeptonicaImage? = nil) -> PageStep? {
    guard steps.contains(.crop) || steps.contains(.perspective),
      let outline = PageDetection.find(original, gray: gray)
    else { return nil }
    let box = outline.boundingBox(width: original.width, height: original.height)
    guard let clipped = Self.clip(original, box) else { return nil }
    let undoCrop = ImageTransform.undoCrop(x: box.minX, y: box.minY)
    // Rounded to the export's precision, so a decoded export equals the model.
    let c = outline.corners.map {
      Point(x: ($0.x * 100).rounded() / 100, y: ($0.y * 100).rounded() / 100)
    }
    let quad = Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    guard steps.contains(.perspective), outline.cornerAngleDeviation >= Self.minimumPerspective
    else {
      guard steps.contains(.crop) else { return nil }
      return PageStep(
        image: clipped, transform: undoCrop, applied: ["crop"], crop: box, perspective: nil)
    }
    // The straightened page as large as its longer edges, within the crop
    // (Leptonica's projective maps keep the image's size).
    var width = max(distance(c[0], c[1]), distance(c[3], c[2]))
    var height = max(distance(c[0], c[3]), distance(c[1], c[2]))
    let fit = min(1, Double(clipped.width) / width, Double(clipped.height) / height)
    width = (width * fit).rounded(.down)
    height = (height * fit).rounded(.down)
    guard width >= 16, height >= 16 else { return nil }
    let local = c.map { Point(x: $0.x - Double(box.minX), y: $0.y - Double(box.minY)) }
    let target = [
      Point(x: 0, y: 0), Point(x: width, y: 0), Point(x: width, y: height), Point(x: 0, y: height),
    ]
    guard let coefficients = Self.projectiveCoefficients(from: target, to: local),
      let straight = Self.projective(clipped, coefficients),
      let page = Self.clip(
        straight, PixelRect(minX: 0, minY: 0, maxX: Int(width), maxY: Int(height)))
    else { return nil }
    return PageStep(
      image: page, transform: undoCrop.composed(after: coefficients), applied: ["perspective"],
      crop: box, perspective: quad)
  }

  /// A copy of part of an image, with its resolution.
  static func clip(_ image: LeptonicaImage, _ r: PixelRect) -> LeptonicaImage? {
    guard
      let box = scantext_boxCreate(
        Int32(r.minX), Int32(r.minY), Int32(r.maxX - r.minX), Int32(r.maxY - r.minY))
    else { return nil }
    var owned: UnsafeMutablePointer<Box>? = box
    defer { scantext_boxDestroy(&owned) }
    guard let clipped = scantext_pixClipRectangle(image.pix, box, nil) else { return nil }
    scantext_pixCopyResolution(clipped, image.pix)
    return LeptonicaImage(taking: clipped)
  }

  /// Leptonica's projective map taking the points `from` to `to`
  /// (`getProjectiveXformCoeffs`), as a transform.
  static func projectiveCoefficients(from: [Point], to: [Point]) -> ImageTransform? {
    guard from.count == 4, to.count == 4 else { return nil }
    var sourceOwner = scantext_ptaCreate(4)
    var destinationOwner = scantext_ptaCreate(4)
    defer {
      scantext_ptaDestroy(&sourceOwner)
      scantext_ptaDestroy(&destinationOwner)
    }
    guard let source = sourceOwner, let destination = destinationOwner else { return nil }
    for (p, q) in zip(from, to) {
      guard scantext_ptaAddPt(source, Float(p.x), Float(p.y)) == 0,
        scantext_ptaAddPt(destination, Float(q.x), Float(q.y)) == 0
      else { return nil }
    }
    var vc: UnsafeMutablePointer<Float>?
    guard scantext_getProjectiveXformCoeffs(source, destination, &vc) == 0, let vc else {
      return nil
    }
    defer { scantext_lept_free(vc) }
    let t = ImageTransform(
      a: Double(vc[0]), b: Double(vc[1]), c: Double(vc[2]), d: Double(vc[3]), e: Double(vc[4]),
      f: Double(vc[5]), g: Double(vc[6]), h: Double(vc[7]))
    return [t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h].allSatisfy(\.isFinite) ? t : nil
  }

  /// The image resampled through a projective map from output to input
  /// pixels (`pixProjective`, white brought in), of the same size.
  static func projective(_ image: LeptonicaImage, _ t: ImageTransform) -> LeptonicaImage? {
    var vc: [Float] = [t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h].map { Float($0) }
    guard let out = scantext_pixProjective(image.pix, &vc, Int32(L_BRING_IN_WHITE)) else {
      return nil
    }
    scantext_pixCopyResolution(out, image.pix)
    return LeptonicaImage(taking: out)
  }
}

extension TableGrid {
  /// The grid moved by (`x`, `y`) pixels.
  func offsetBy(x: Int, y: Int) -> TableGrid {
    func move(_ r: PixelRect) -> PixelRect {
      PixelRect(minX: r.minX + x, minY: r.minY + y, maxX: r.maxX + x, maxY: r.maxY + y)
    }
    return TableGrid(
      horizontalRules: horizontalRules.map(move), verticalRules: verticalRules.map(move))
  }
}
