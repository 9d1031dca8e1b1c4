import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

@Suite("Dewarping curled text lines")
struct DewarpTests {
  @Test("A point of the dewarped page maps back up by the disparity, read as Leptonica spreads it")
  func disparityMapsPointsBack() {
    // Samples 8 px apart: v = 0, 8 on the first row, 4, 12 on the second,
    // that is v = x + y / 2, which bilinear reading and the linear
    // extension beyond the samples (Leptonica's slope border) keep.
    let field = Disparity(step: 8, columns: 2, rows: 2, values: [0, 8, 4, 12])
    #expect(field.source(of: Point(x: 0, y: 0)) == Point(x: 0, y: 0))
    #expect(field.source(of: Point(x: 8, y: 0)) == Point(x: 8, y: -8))
    #expect(field.shift(at: Point(x: 4, y: 4)) == 6)
    #expect(field.source(of: Point(x: 4, y: 20)) == Point(x: 4, y: 6))
    #expect(field.shift(at: Point(x: 100, y: 100)) == 150)
    #expect(field.shift(at: Point(x: -5, y: -5)) == -7.5)
    // One sample: the same shift everywhere.
    #expect(
      Disparity(step: 30, columns: 1, rows: 1, values: [3]).shift(at: Point(x: 70, y: 9)) == 3)
  }

  @Test(
    "No flat sample page is dewarped",
    arguments: Fixtures.scanImages.filter { $0 != DewarpTests.curledPhoto })
  func flatPagesAreLeftAlone(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    #expect(!page.preprocessing.contains("dewarp"), "\(image): \(page.preprocessing)")
  }

  static let curledPhoto = "photo-curl.jpg"

  /// The generated book page curling toward its spine (each line rises by
  /// up to 180 page pixels): found, straightened, dewarped, and every word
  /// mapped back onto the photo. Measured: dewarped, CER 0, word recall
  /// 0.993, mean IoU 0.983 (0.923 before boxes were fitted to their ink;
  /// 0.862 while a word's box was its quad's: the truth's own quads score
  /// 0.874 against its ink boxes); read without
  /// dewarping, CER 0.13, word recall 0.78.
  @Test func aCurledPhotoIsDewarpedAndMappedBack() throws {
    let page = try RecognizedScans.page(Self.curledPhoto)
    #expect(page.preprocessing == ["perspective", "dewarp"])
    let truth = try Fixtures.truth(Self.curledPhoto)
    let dewarped = page.evaluate(against: truth)
    #expect(dewarped.cer <= 0.005, "CER \(dewarped.cer)")
    #expect(dewarped.wordRecall >= 0.98, "word recall \(dewarped.wordRecall)")
    #expect(dewarped.meanIoU >= 0.9, "mean IoU \(dewarped.meanIoU)")
    #expect(page.verify().passed, "\(page.verify().violations.prefix(3))")
    #expect((0..<page.lineCount).allSatisfy { page.line(number: $0)?.polygon != nil })
    var steps = Preprocessing.default
    steps.remove(.dewarp)
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: steps))
    let curled = try #require(
      try engine.recognize(
        contentsOf: Fixtures.scans.appendingPathComponent(Self.curledPhoto).path
      ).first)
    let asItIs = curled.evaluate(against: truth)
    #expect(asItIs.wordRecall + 0.1 < dewarped.wordRecall, "\(asItIs.wordRecall)")
  }

  @Test(
    "Real flat scans are never dewarped; the curled cookbook photo is, and reads better",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func realPages() throws {
    for image in RealScans.images where image != "ocrd/boston-cooking-a.jpg" {
      for page in try RealScans.pages(image) {
        #expect(!page.preprocessing.contains("dewarp"), "\(image): \(page.preprocessing)")
      }
    }
    let image = "ocrd/boston-cooking-a.jpg"
    let dewarped = try #require(try RealScans.pages(image).first)
    var steps = Preprocessing.default
    steps.remove(.dewarp)
    let curled = try #require(try RealScans.pages(image, preprocessing: steps).first)
    // Read upright from its EXIF orientation tag: no turn to find. (The
    // second look's records name lines read again, not steps on the image.)
    #expect(dewarped.steps.filter { $0.step != .secondLook }.map(\.recorded) == ["dewarp"])
    #expect(!curled.preprocessing.contains("dewarp"))
    func confident(_ page: Page) -> Int {
      page.words.filter { ($0.confidence ?? 0) >= 80 }.count
    }
    // 296 words at confidence >= 80 without dewarping, 332 with.
    #expect(confident(dewarped) >= confident(curled) + 25, "\(confident(dewarped))")
    // Every box is in the photo's pixels and the selection geometry holds.
    #expect(dewarped.verify().violations.isEmpty)
    // The same words sit where they sat without dewarping: the mapping
    // back through the disparity lands on the photo's text (words read
    // once in each reading; lines are 69 px apart there). Measured: 81 of
    // 99 within 30 px, median 13 px; with the disparity's sign turned, 68
    // and 20.5 px.
    func once(_ page: Page) -> [String: PixelRect] {
      let counts = Dictionary(page.words.map { ($0.text, 1) }, uniquingKeysWith: +)
      return Dictionary(
        page.words.filter { $0.text.count >= 4 && counts[$0.text] == 1 }.map { ($0.text, $0.bbox) },
        uniquingKeysWith: { a, _ in a })
    }
    let before = once(curled)
    var matched = 0
    var near = 0
    for (text, box) in once(dewarped) {
      guard let old = before[text] else { continue }
      matched += 1
      let a = box.rect
      let b = old.rect
      let dx = abs((a.minX + a.maxX) - (b.minX + b.maxX)) / 2
      let dy = abs((a.minY + a.maxY) - (b.minY + b.maxY)) / 2
      if max(dx, dy) < 30 { near += 1 }
    }
    #expect(matched >= 80)
    #expect(Double(near) >= 0.75 * Double(matched), "\(near) of \(matched)")
  }

  @Test(
    "The cookbook's curled lines carry polygons that follow them, and no word collapses",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func curledLinesFollowTheirCurve() throws {
    let page = try #require(try RealScans.pages("ocrd/boston-cooking-a.jpg").first)
    #expect(page.preprocessing.contains("dewarp"))
    var heights: [Double] = []
    for n in 0..<page.lineCount {
      let line = try #require(page.line(number: n))
      let polygon = try #require(line.polygon, "line \(n) has no polygon")
      #expect(TextLine.isLinePolygon(polygon), "line \(n)")
      // Words read with confidence (the low ones are noise at the
      // photo's edge, some a pixel high).
      for word in line.words where (word.confidence ?? 0) >= 60 {
        let q = word.corners
        heights.append(
          (distance(q.bottomLeft, q.topLeft) + distance(q.bottomRight, q.topRight)) / 2)
      }
    }
    // Mapped through the lines' chords and cut apart where those overlap,
    // the first lines' words were 0.5 px across (a sliver at the cut).
    heights.sort()
    let median = heights[heights.count / 2]
    #expect(median > 30, "\(median)")
    #expect((heights.first ?? 0) > median / 4, "\(heights.prefix(5))")
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations.prefix(3))")

    // ALTO, PAGE XML and hOCR carry the polygons and read them back; the
    // XML formats validate against their schemas.
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let generator = Generator(name: "scantext", version: "test")
    let document = Document(pages: [page])
    var files: [DocumentFormat: URL] = [:]
    for (format, name) in [
      (DocumentFormat.alto, "boston.alto.xml"), (.page, "boston.page.xml"), (.hocr, "boston.hocr"),
    ] {
      let text = try format.encode(document, generator: generator)
      let url = folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      files[format] = url
      let back = try #require(try format.decode(Data(text.utf8)).pages.first)
      #expect(back.lineCount == page.lineCount)
      #expect(
        (0..<back.lineCount).allSatisfy { back.line(number: $0)?.polygon != nil }, "\(format)")
    }
    if ExternalCheckers.xmllint != nil, ExternalCheckers.schemas != nil,
      let alto = files[.alto], let pageXML = files[.page]
    {
      #expect(try ExternalCheckers.validate([alto], schema: "alto-4-4.xsd") == "")
      #expect(try ExternalCheckers.validate([pageXML], schema: "page-2019-07-15.xsd") == "")
    } else {
      print(ExternalCheckers.schemaAbsentMessage)
    }
  }

  @Test(
    "Restated at full resolution, the halved page's model dewarps the page exactly as Leptonica applies it",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func restatedModelDewarpsTheSame() throws {
    let path = RealScans.path("ocrd/boston-cooking-a.jpg")
    let original = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    var steps = Preprocessing.default
    steps.remove(.dewarp)
    // Read upright (its EXIF orientation tag applied).
    let upright = Preprocessor(steps: steps).prepare(original, dpi: nil)
    let gray = try #require(Preprocessor.gray(upright.image))
    let ink = try #require(Preprocessor.binarize(gray))
    let restated = try #require(Preprocessor.dewarp(gray, binary: ink))
    // Leptonica's own application of the model as built on the page halved.
    let measured = try #require(Preprocessor.measureCurl(binary: ink))
    let dewa = try #require(measured.models.pointer)
    var out: UnsafeMutablePointer<PIX>?
    #expect(scantext_dewarpaApplyDisparity(dewa, 0, gray.pix, 255, 0, 0, &out, nil) == 0)
    let leptonica = LeptonicaImage(taking: try #require(out))
    var same: Int32 = 0
    #expect(scantext_pixEqual(restated.image.pix, leptonica.pix, &same) == 0)
    #expect(same == 1)
  }

  /// The page model holds horizontal samples too, but only the vertical
  /// disparity is applied: spread to the page's full resolution, the
  /// horizontal field would sit beside the vertical one at the step's peak
  /// (4 bytes a pixel: 11 MB more on the curled photo).
  @Test("The dewarp step spreads to full resolution only the vertical disparity it applies")
  func onlyTheAppliedFieldIsSpread() throws {
    let path = Fixtures.scans.appendingPathComponent(Self.curledPhoto).path
    let original = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    var steps = Preprocessing.default
    steps.remove(.dewarp)
    let upright = Preprocessor(steps: steps).prepare(original, dpi: nil)
    let gray = try #require(Preprocessor.gray(upright.image))
    let ink = try #require(Preprocessor.binarize(gray))
    let measured = try #require(Preprocessor.measureCurl(binary: ink))
    let model = try #require(measured.models.pointer?.pointee.dewarp?[0])
    // The photo's model has a horizontal field to leave out.
    #expect(model.pointee.samphdispar != nil)
    _ = try #require(Preprocessor.restateAtFullResolution(model))
    #expect(scantext_dewarpPopulateFullRes(model, gray.pix, 0, 0) == 0)
    #expect(model.pointee.fullvdispar != nil)
    #expect(model.pointee.fullhdispar == nil)
  }
}
