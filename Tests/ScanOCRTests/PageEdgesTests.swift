import CScanOCR
import Foundation
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@_spi(Fuzzing) @testable import ScanOCR

/// Pages found by their straight sides (``PageEdges``) where the paper does
/// not stand free: a corner outside the photo's frame, a side lying against
/// a facing page; and what must not pass for a side.
@Suite("Photographed pages: sides, corners outside the frame, seams")
struct PageEdgesTests {
  /// Whether `p` lies inside a convex quadrilateral (corners clockwise in
  /// image coordinates), with `margin` pixels to spare.
  static func contains(_ corners: [Point], _ p: Point, margin: Double = 0) -> Bool {
    (0..<4).allSatisfy { i in
      let a = corners[i]
      let b = corners[(i + 1) % 4]
      let length = distance(a, b)
      let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
      return cross / length >= -margin
    }
  }

  /// The generated page whose bottom-right corner lies outside the photo:
  /// its paper touches the frame, so the region rule finds nothing, and the
  /// four sides put the corners within 4 pixels of the truth (measured:
  /// 0–3 px after the sub-pixel fit; 18 px before it).
  @Test func aPageRunningOutOfTheFrameIsFoundAtItsFourCorners() throws {
    let name = "photo-corner.jpg"
    let image = try PhotoPageTests.decode(Fixtures.scans.appendingPathComponent(name).path)
    let truth = try PhotoPageTests.trueCorners(name)
    #expect(truth[2].y > Double(image.height), "the truth's corner is inside the frame")
    let outline = try #require(PageDetection.find(image))
    for (found, true_) in zip(outline.corners, truth) {
      #expect(distance(found, true_) <= 4, "corner \(found) against \(true_)")
    }
    // What lies inside the sides: the frame cuts the quadrilateral.
    let polygon = try #require(outline.polygon)
    #expect(polygon.count == 5)
    #expect(polygon.allSatisfy { $0.y <= Double(image.height) + 1e-6 })
  }

  /// Straightened from corners one of which is outside the photo, and every
  /// box back on the photo. Measured: CER 0, word recall 1, mean IoU 0.984
  /// (0.942 before boxes were fitted to their ink; read as it is, deskewed:
  /// recall 0.992, IoU 0.926); verify clean.
  @Test func aPageRunningOutOfTheFrameIsStraightened() throws {
    let name = "photo-corner.jpg"
    let page = try RecognizedScans.page(name)
    #expect(page.preprocessing == ["perspective"])
    let corners = try #require(page.perspective).corners
    for (a, b) in zip(corners, try PhotoPageTests.trueCorners(name)) {
      #expect(distance(a, b) <= 4, "corner \(a), truly \(b)")
    }
    // The crop is what the frame holds of the page.
    #expect(try #require(page.crop).maxY == page.height)
    let evaluation = page.evaluate(against: try Fixtures.truth(name))
    #expect(evaluation.cer <= 0.005, "CER \(evaluation.cer)")
    #expect(evaluation.wordRecall >= 0.99, "word recall \(evaluation.wordRecall)")
    #expect(evaluation.meanIoU >= 0.93, "mean IoU \(evaluation.meanIoU)")
    let report = page.verify()
    #expect(report.passed, "\(report.violations.prefix(3))")
  }

  /// The real thesis photo: table above and to the right, the page's bottom
  /// corner outside the frame, its left side lying against the previous
  /// page (a seam). Found with four sides. Read as it is, a line of
  /// garbage was read off the seam ("Pe errr terereretract…", at
  /// confidence 0–34; now dropped as slivers of noise); straightened, it is
  /// not, but fewer words are read with confidence ≥ 60 on the page (67
  /// against 69),
  /// so the no-harm rule for photographs
  /// (`OCREngine.notWorseThanUnstraightened`) keeps the reading as it is.
  @Test(
    "The real thesis photo is found by its sides, the left one a seam against the facing page",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func theThesisPhotoIsFoundAgainstItsFacingPage() throws {
    let name = "ocrd/linguistics-thesis-a.jpg"
    let image = try PhotoPageTests.decode(RealScans.path(name))
    let outline = try #require(PageDetection.find(image))
    // The seam is at x ≈ 310–320 (measured on the photo), the table's edge
    // at the top-right corner at y ≈ 300.
    #expect((290...340).contains(outline.corners[0].x), "\(outline.corners[0])")
    #expect((290...340).contains(outline.corners[3].x), "\(outline.corners[3])")
    #expect((250...350).contains(outline.corners[1].y), "\(outline.corners[1])")
    #expect(outline.corners[3].y > Double(image.height), "\(outline.corners[3])")
    let page = try #require(try RealScans.pages(name).first)
    #expect(!page.preprocessing.contains("perspective"), "\(page.preprocessing)")
    let plain = try #require(
      try RealScans.pages(
        name, preprocessing: Preprocessing.default.subtracting([.crop, .perspective])
      )
      .first)
    // The streak of the seam itself was read as garbage words ("Pe",
    // "errr", "terereretract…", "sore", "eos" at confidence 0–34, x 296–345)
    // until slivers of noise were dropped (`SliverNoise`): the reading as
    // it is now holds no word off the page.
    let plainOutside = plain.words.filter { !Self.contains(outline.corners, $0.bbox.center) }
    #expect(plainOutside.isEmpty, "\(plainOutside.map(\.text))")
    // The reading kept is the one without the page's outline.
    #expect(page.text == plain.text)
    #expect(page.verify().passed)
  }

  @Test(arguments: [8, 32])
  func whiteningOutsideAPolygonKeepsWhatIsInside(depth: Int) throws {
    try OCRLibraries.load()
    let pix = try #require(scantext_pixCreate(20, 10, Int32(depth)))
    let image = LeptonicaImage(taking: pix)
    let gray: UInt32 = depth == 8 ? 100 : 0x6464_6400
    _ = scantext_pixSetAllArbitrary(image.pix, gray)
    // A triangle: (0, 0), (20, 0), (0, 10).
    let polygon = [Point(x: 0, y: 0), Point(x: 20, y: 0), Point(x: 0, y: 10)]
    #expect(Preprocessor.whitenOutside(image, polygon: polygon))
    let white = image
    let whiteValue: UInt32 = depth == 8 ? 0xff : 0xffff_ff00
    for y in 0..<10 {
      for x in 0..<20 {
        var value: UInt32 = 0
        _ = scantext_pixGetPixel(white.pix, Int32(x), Int32(y), &value)
        let inside = Double(x) + 0.5 <= 20 - 2 * (Double(y) + 0.5)
        // The alpha byte of an RGB pixel is not looked at.
        let colour = depth == 32 ? value & 0xffff_ff00 : value
        #expect(colour == (inside ? gray : whiteValue), "(\(x), \(y))")
      }
    }
    #expect(scantext_pixGetDepth(white.pix) == Int32(depth))
  }
}

extension PageEdgesTests {
  /// The page is straightened by ScanText's own loop, which must give
  /// Leptonica's pixels (`pixProjective` on the gray page, then cut to the
  /// straightened page's size), on pages found standing free and on one
  /// whose corner is outside the photo (white brought in there), but for
  /// pixels read from the source's last row, where Leptonica 1.82 reads
  /// row 0 (`linearInterpolatePixelGray`).
  @Test(arguments: ["photo-perspective.jpg", "photo-corner.jpg", "photo-curl.jpg"])
  func theStraightenedPageHasLeptonicasPixels(_ name: String) throws {
    let image = try PhotoPageTests.decode(Fixtures.scans.appendingPathComponent(name).path)
    let step = try #require(Preprocessor(steps: .default).straightenPage(image))
    let straighten = try #require(step.straighten)
    #expect(straighten.pages.count == 1)
    let map = try #require(straighten.pages.first).map
    let gray = try #require(step.image.flatMap(Preprocessor.gray))
    let ours = try #require(step.straightened(gray))
    let warped = try #require(Preprocessor.projective(gray, map))
    let theirs = try #require(
      Preprocessor.clip(
        warped,
        PixelRect(minX: 0, minY: 0, maxX: straighten.width, maxY: straighten.height)))
    #expect(ours.width == theirs.width && ours.height == theirs.height)
    #expect(ours.resolution == image.resolution)
    let a = try #require(GrayPixels(ours))
    let b = try #require(GrayPixels(theirs))
    var differing = 0
    for y in 0..<a.height {
      for x in 0..<a.width where a.values[y * a.width + x] != b.values[y * a.width + x] {
        differing += 1
        let source = map.apply(Point(x: Double(x), y: Double(y)))
        #expect(source.y >= Double(gray.height - 1) - 0.01, "(\(x), \(y)) reads \(source)")
      }
    }
    // Only the page running out of the frame reads the last row.
    #expect((differing > 0) == (name == "photo-corner.jpg"), "\(differing) pixels differ")
  }
}

extension PageEdgesTests {
  @Test func grayPixelsMakeALeptonicaImageAndBack() throws {
    let pixels = GrayPixels(
      width: 37, height: 5, values: (0..<185).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let image = try #require(LeptonicaImage(gray: pixels))
    let back = try #require(GrayPixels(image))
    #expect(back.width == 37 && back.height == 5 && back.values == pixels.values)
  }

  /// The fuzzers' entry (`Tools/check/Fuzz/Sources/FuzzPage`) on its seeds: a
  /// page standing free on a table is found and straightened or cropped,
  /// a white image has no page, and bytes of noise do not trap.
  @Test func theFuzzersPageEntryFindsASeedsPage() {
    func image(_ w: Int, _ h: Int, _ page: (Int, Int) -> Bool) -> [UInt8] {
      [UInt8(w - 32), UInt8(h - 32)]
        + (0..<(w * h)).map { page($0 % w, $0 / w) ? 230 : 60 }
    }
    let page = image(120, 120) { x, y in (15..<105).contains(x) && (15..<105).contains(y) }
    #expect(OCREngine.findPageForFuzzing(page) > 0)
    #expect(OCREngine.findPageForFuzzing(image(40, 40) { _, _ in true }) == 0)
    var generator = SystemRandomNumberGenerator()
    let noise = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    _ = OCREngine.findPageForFuzzing(noise)
  }
}
