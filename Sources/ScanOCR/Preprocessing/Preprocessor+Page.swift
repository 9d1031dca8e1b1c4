import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// What the page steps (crop, perspective) did to a photo: the image the
/// other steps work on, and how its points map back to the photo.
struct PageStep {
  /// The page cut out of the photo, at the photo's depth; with
  /// perspective, still to be straightened by ``straighten``. `nil` once
  /// the cleaning that reads it is over (``Preprocessor/clean(_:dpi:)``):
  /// what the later steps and preparations read of the page cut out is
  /// where it lies.
  var image: LeptonicaImage?
  /// From `image` back to the photo.
  var transform: ImageTransform
  /// The part of the photo kept, in its pixels.
  var crop: PixelRect
  /// The page's corners in the photo, when perspective was corrected.
  var perspective: Quad?
  /// With perspective: each page's map from the straightened image to
  /// ``image`` and the columns it fills (one page, or the two of a folded
  /// spread side by side), and the straightened image's size. The page is
  /// straightened once it is gray (``straightened(_:)``), by
  /// ``Preprocessor/projectiveGray(_:pieces:width:height:)``: on
  /// `linguistics-thesis-a` (16 megapixels) the whole reading took 1.30
  /// times plain Tesseract's with the colour photo warped by Leptonica,
  /// 1.13 with its gray copy warped by Leptonica, about 1.0 now.
  var straighten: (pages: [(map: ImageTransform, columns: Range<Int>)], width: Int, height: Int)? =
    nil

  /// From ``image`` (straightened, with perspective) back to the photo:
  /// ``transform``, after the page-by-page ``sheet`` of a folded spread.
  var map: PointMap {
    sheet.map { PointMap(.sheet($0)).composed(after: .projective(transform)) }
      ?? PointMap(.projective(transform))
  }

  /// From the straightened sheet of a folded spread back to the photo,
  /// page by page (``transform`` is then the identity); `nil` otherwise.
  var sheet: SheetMap? {
    guard let pages = straighten?.pages, pages.count == 2 else { return nil }
    let undoCrop = ImageTransform.undoCrop(x: crop.minX, y: crop.minY)
    return SheetMap(
      split: Double(pages[1].columns.lowerBound), left: undoCrop.composed(after: pages[0].map),
      right: undoCrop.composed(after: pages[1].map))
  }

  /// `gray` (the gray copy of ``image``) straightened, or `gray` itself when
  /// the page has no perspective; `nil` when it cannot be made.
  func straightened(_ gray: LeptonicaImage) -> LeptonicaImage? {
    guard let straighten else { return gray }
    return Preprocessor.projectiveGray(
      gray, pieces: straighten.pages, width: straighten.width, height: straighten.height)
  }
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
    var context = StepContext(self, original: original, dpi: nil)
    context.photoGray = gray
    var page = WorkingPage(original, resolution: original.resolution)
    page.run(PageFrameStep(), context)
    return page.frame
  }

  /// The page, or the two pages of a spread folded at its spine, each
  /// straightened from its own quadrilateral (`pages`, left first, corners
  /// clockwise from the top-left) into a rectangle as wide as its longer
  /// horizontal edge, side by side and as tall as the tallest edge, within
  /// the crop. One homography for a folded spread would leave each page
  /// turned against the other (the generated `photo-fold`: word recall
  /// 0.80, CER 0.16 read that way; 0.81 and 0.14 read as it is).
  func straighten(
    _ clipped: LeptonicaImage, pages: [[Point]], box: PixelRect, quad: Quad
  ) -> PageStep? {
    guard pages.count == 1 || pages.count == 2, pages.allSatisfy({ $0.count == 4 }) else {
      return nil
    }
    let quads = pages.map { $0.map(ScanConventions.rounded) }
    var widths = quads.map { q in max(distance(q[0], q[1]), distance(q[3], q[2])) }
    var height =
      quads.flatMap { q in [distance(q[0], q[3]), distance(q[1], q[2])] }.max() ?? 0
    let fit = min(
      1, Double(clipped.width) / widths.reduce(0, +), Double(clipped.height) / max(1, height))
    widths = widths.map { ($0 * fit).rounded(.down) }
    height = (height * fit).rounded(.down)
    guard widths.allSatisfy({ $0 >= 16 }), height >= 16 else { return nil }
    func local(_ p: Point) -> Point { Point(x: p.x - Double(box.minX), y: p.y - Double(box.minY)) }
    var maps: [(map: ImageTransform, columns: Range<Int>)] = []
    var x = 0.0
    for (q, width) in zip(quads, widths) {
      let target = [
        Point(x: x, y: 0), Point(x: x + width, y: 0), Point(x: x + width, y: height),
        Point(x: x, y: height),
      ]
      guard let map = Self.projectiveCoefficients(from: target, to: q.map(local)) else {
        return nil
      }
      maps.append((map, Int(x)..<Int(x + width)))
      x += width
    }
    // The colour step measures the page before it is straightened: in a
    // colour photo what lies round the page in the crop (a coloured
    // table) is made white first, as straightening would.
    if scantext_pixGetDepth(clipped.pix) == 32 {
      let outline =
        quads.count == 2
        ? [quads[0][0], quads[0][1], quads[1][1], quads[1][2], quads[0][2], quads[0][3]]
        : quads[0]
      Self.whitenOutside(clipped, polygon: outline.map(local))
    }
    let undoCrop = ImageTransform.undoCrop(x: box.minX, y: box.minY)
    return PageStep(
      image: clipped,
      transform: maps.count == 1 ? undoCrop.composed(after: maps[0].map) : .identity,
      crop: box,
      perspective: quad, straighten: (maps, Int(x), Int(height)))
  }

  /// Makes every pixel of `image` whose centre lies outside a convex
  /// polygon white, in place (the caller owns the image: a fresh crop);
  /// `false`, and nothing changed, for an image with a colour map or of a
  /// depth without a plain white value.
  @discardableResult
  static func whitenOutside(_ image: LeptonicaImage, polygon: [Point]) -> Bool {
    let white: UInt32
    switch scantext_pixGetDepth(image.pix) {
    case 8: white = 0xff
    case 16: white = 0xffff
    case 32: white = 0xffff_ff00
    default: return false
    }
    guard scantext_pixGetColormap(image.pix) == nil, polygon.count >= 3 else { return false }
    let w = image.width
    func whiten(_ x0: Int, _ x1: Int, _ y: Int) {
      guard x1 > x0, let box = scantext_boxCreate(Int32(x0), Int32(y), Int32(x1 - x0), 1) else {
        return
      }
      var owned: UnsafeMutablePointer<Box>? = box
      defer { scantext_boxDestroy(&owned) }
      _ = scantext_pixSetInRectArbitrary(image.pix, box, white)
    }
    for y in 0..<image.height {
      // The polygon's span on the row's centre line.
      let yc = Double(y) + 0.5
      var low = Double.infinity
      var high = -Double.infinity
      for i in polygon.indices {
        let p = polygon[i]
        let q = polygon[(i + 1) % polygon.count]
        guard (p.y <= yc) != (q.y <= yc) else { continue }
        let x = p.x + (yc - p.y) / (q.y - p.y) * (q.x - p.x)
        low = min(low, x)
        high = max(high, x)
      }
      guard low <= high else {
        whiten(0, w, y)
        continue
      }
      // Pixels whose centre x + 0.5 lies in [low, high] are kept.
      let first = max(0, min(w, Int((low - 0.5).rounded(.up))))
      let last = max(0, min(w, Int((high - 0.5).rounded(.down)) + 1))
      whiten(0, first, y)
      whiten(max(first, last), w, y)
    }
    return true
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

  /// An 8-bit gray image resampled through projective maps from output to
  /// input pixels into a `width` × `height` image, one map per range of
  /// output columns (`pieces`: the two pages of a folded spread; columns no
  /// range holds are white): Leptonica's
  /// `pixProjectiveGray` (white brought in, the same single-precision
  /// arithmetic and 1/16-pixel bilinear weights, so the same pixels but
  /// those read from the source's last row: tested), without its call per
  /// pixel and without making the output the input's size first. On the
  /// 16-megapixel thesis photo Leptonica's took 13 % of the whole reading (`perf`: `linearInterpolatePixelGray`,
  /// `projectiveXformPt`); `nil` for another depth or a colour map.
  static func projectiveGray(
    _ image: LeptonicaImage, pieces: [(map: ImageTransform, columns: Range<Int>)], width: Int,
    height: Int
  ) -> LeptonicaImage? {
    guard scantext_pixGetDepth(image.pix) == 8, scantext_pixGetColormap(image.pix) == nil,
      width > 0, height > 0,
      let source = scantext_pixGetData(image.pix),
      let created = scantext_pixCreate(Int32(width), Int32(height), 8)
    else { return nil }
    let output = LeptonicaImage(taking: created)
    scantext_pixCopyResolution(output.pix, image.pix)
    if pieces.reduce(0, { $0 + $1.columns.clamped(to: 0..<width).count }) < width {
      _ = scantext_pixSetAllArbitrary(output.pix, 255)
    }
    guard let target = scantext_pixGetData(output.pix) else { return nil }
    let w = image.width
    let h = image.height
    let sourceWords = Int(scantext_pixGetWpl(image.pix))
    let targetWords = Int(scantext_pixGetWpl(output.pix))
    let maps = pieces.map { piece in
      let t = piece.map
      return ([t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h].map { Float($0) }, piece.columns)
    }
    let fw = Float(w)
    let fh = Float(h)
    // Leptonica packs 8-bit pixels big-endian within each 32-bit word.
    let bytes = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
    @inline(__always) func byte(_ row: Int, _ x: Int) -> Int {
      Int(bytes[row * 4 * sourceWords + (x ^ 3)])
    }
    let out = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
    for i in 0..<height {
      let fi = Float(i)
      let line = i * 4 * targetWords
      for (vc, columns) in maps {
        for j in columns.clamped(to: 0..<width) {
          let fj = Float(j)
          // projectiveXformPt: the sum in single precision, 1 added and
          // divided in double, the factor rounded back to single.
          let denominator = Double(vc[6] * fj + vc[7] * fi) + 1
          let factor = Float(1 / denominator)
          let x = factor * (vc[0] * fj + vc[1] * fi + vc[2])
          let y = factor * (vc[3] * fj + vc[4] * fi + vc[5])
          var value = 255
          // linearInterpolatePixelGray: a NaN fails every comparison.
          if x >= 0 && y >= 0 && x < fw && y < fh {
            let xpm = Int(16 * Double(x))
            let ypm = Int(16 * Double(y))
            let xp = xpm >> 4
            let xp2 = xp + 1 < w ? xp + 1 : xp
            let yp = ypm >> 4
            // Leptonica 1.82 reads row 0 for the row below the last (it
            // zeroes the row stride before using it for the row's own
            // offset); the last row is read here.
            let yp2 = yp + 1 >= h ? yp : yp + 1
            let xf = xpm & 0x0f
            let yf = ypm & 0x0f
            let v00 = (16 - xf) * (16 - yf) * byte(yp, xp)
            let v10 = xf * (16 - yf) * byte(yp, xp2)
            let v01 = (16 - xf) * yf * byte(yp2, xp)
            let v11 = xf * yf * byte(yp2, xp2)
            value = (v00 + v01 + v10 + v11) / 256
          }
          out[line + (j ^ 3)] = UInt8(truncatingIfNeeded: value)
        }
      }
    }
    return output
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
  /// The grid through an axis-aligned map (a crop, a scale): each rule's
  /// box is the box round its mapped corners, rounded outward.
  func mapped(_ t: ImageTransform) -> TableGrid {
    func move(_ r: PixelRect) -> PixelRect {
      let a = t.apply(Point(x: Double(r.minX), y: Double(r.minY)))
      let b = t.apply(Point(x: Double(r.maxX), y: Double(r.maxY)))
      return PixelRect(
        minX: Int(min(a.x, b.x).rounded(.down)), minY: Int(min(a.y, b.y).rounded(.down)),
        maxX: Int(max(a.x, b.x).rounded(.up)), maxY: Int(max(a.y, b.y).rounded(.up)))
    }
    return TableGrid(
      horizontalRules: horizontalRules.map(move), verticalRules: verticalRules.map(move))
  }
}
