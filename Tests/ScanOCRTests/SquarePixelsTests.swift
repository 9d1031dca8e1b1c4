import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A fax page (200 × 100 dpi) is recognised on square pixels and its boxes
/// are mapped back to the original.
@Suite("Non-square resolution")
struct SquarePixelsTests {
  /// A sample page as a fax would store it: 2/3 of its resolution across,
  /// 1/3 down (`clean.png`, 300 dpi, becomes 200 × 100 dpi), and its truth
  /// mapped the same way.
  static func faxPage(_ source: String, dpi: Int) throws -> (path: String, truth: Page) {
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("fax.png").path
    let sx = 2.0 / 3
    let sy = 1.0 / 3
    try ImageWriter.writeScaledPNG(
      Fixtures.scans.appendingPathComponent(source).path, to: path, scaleX: sx, scaleY: sy,
      xres: dpi * 2 / 3, yres: dpi / 3)
    return (path, try faxTruth(source))
  }

  /// The truth of a sample page, its boxes and size scaled as
  /// ``faxPage(_:dpi:)`` scales the page.
  static func faxTruth(_ source: String) throws -> Page {
    let sx = 2.0 / 3
    let sy = 1.0 / 3
    let truth = try Fixtures.truth(source)
    func scaled(_ r: PixelRect) -> PixelRect {
      PixelRect(
        minX: Int((Double(r.minX) * sx).rounded()), minY: Int((Double(r.minY) * sy).rounded()),
        maxX: Int((Double(r.maxX) * sx).rounded()), maxY: Int((Double(r.maxY) * sy).rounded()))
    }
    let blocks = truth.blocks.map { block in
      Block(
        bbox: scaled(block.bbox),
        paragraphs: block.paragraphs.map { paragraph in
          Paragraph(
            bbox: scaled(paragraph.bbox),
            lines: paragraph.lines.map { line in
              TextLine(
                bbox: scaled(line.bbox),
                words: line.words.map { Word(text: $0.text, bbox: scaled($0.bbox)) })
            })
        })
    }
    return Page(
      width: Int((Double(truth.width) * sx).rounded()),
      height: Int((Double(truth.height) * sy).rounded()), blocks: blocks)
  }

  /// Word recall counts a word only with the right text and a box that
  /// overlaps the truth's (IoU ≥ 0.5) in the fax's own pixels.
  static func readings(_ source: String, dpi: Int) throws -> (
    plain: PageEvaluation, square: PageEvaluation, page: Page
  ) {
    let (path, truth) = try faxPage(source, dpi: dpi)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let plain = try #require(
      try OCREngine(options: RecognitionOptions(preprocessing: .none)).recognize(
        contentsOf: path
      ).first)
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(page.width == truth.width && page.height == truth.height)
    for word in page.words {
      #expect(word.bbox.maxX <= page.width && word.bbox.maxY <= page.height)
    }
    return (plain.evaluate(against: truth), page.evaluate(against: truth), page)
  }

  @Test func faxAt200By100DPIIsReadWithBoxesInTheOriginal() throws {
    // Measured: 136 of 136 words either way at this size, so the test
    // checks that rescaling keeps every word and maps every box back.
    let (plain, square, _) = try Self.readings("clean.png", dpi: 300)
    #expect(square.wordRecall >= 0.95, "square pixels: \(square.metrics)")
    #expect(square.cer <= plain.cer, "square \(square.cer), as stored \(plain.cer)")
    #expect(square.wordRecall >= plain.wordRecall)
  }

  @Test func faxAt100By50DPIIsReadOnlyOnSquarePixels() throws {
    // `dpi-150.png` stored at 100 × 50 dpi: plain Tesseract reads no word
    // of it; on square pixels (100 dpi) it reads most.
    let (plain, square, _) = try Self.readings("dpi-150.png", dpi: 150)
    #expect(plain.wordRecall < 0.1, "as stored: \(plain.metrics)")
    #expect(square.wordRecall >= 0.75, "square pixels: \(square.metrics)")
    #expect(square.cer < plain.cer)
  }

  /// Small print sent by fax (`small-print.png`, 8 pt at 300 dpi, stored
  /// at 200 × 100 dpi one bit deep) reads no worse than plain Tesseract.
  /// Its stems are one or two pixels thick across, the stairs' 3×3
  /// median erased them, and it read worse than Tesseract (CER 0.0551
  /// against 0.0363 on the page made with Pillow); its rows are now
  /// repeated without the median.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func smallPrintFaxReadsNoWorseThanTesseract() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("fax-small-print.png").path
    // A fax machine's page: each pixel the mean of the area it covers,
    // thresholded to one bit.
    try GeneratedImages.run(
      """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1]).convert("L")
      w, h = im.size
      fax = im.resize((round(w * 2 / 3), round(h / 3)), Image.BOX)
      fax = fax.point(lambda v: 255 if v > 150 else 0).convert("1")
      fax.save(sys.argv[2], dpi=(200, 100))
      """, [Fixtures.scans.appendingPathComponent("small-print.png").path, path])
    let truth = try Self.faxTruth("small-print.png")
    let plain = try #require(
      try OCREngine(options: RecognitionOptions(preprocessing: .none)).recognize(
        contentsOf: path
      ).first)
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(page.preprocessing.first == "square pixels")
    #expect(page.width == truth.width && page.height == truth.height)
    let (t, s) = (plain.evaluate(against: truth), page.evaluate(against: truth))
    #expect(s.cer <= t.cer + 0.005, "CER \(s.cer) against Tesseract's \(t.cer)")
    #expect(s.wordRecall >= t.wordRecall - 0.01, "recall \(s.wordRecall) against \(t.wordRecall)")
  }

  /// The commonest ink run across a page is the thickness its upright
  /// strokes are drawn with: the stairs' median runs only when it is at
  /// least three pixels (a stroke two pixels thick loses the rows where
  /// its edge wavers by one).
  @Test func theMedianWaitsForStrokesThreePixelsThick() throws {
    try OCRLibraries.load()
    func page(stem: Int) throws -> LeptonicaImage {
      let pix = try #require(scantext_pixCreate(40, 10, 8))
      let page = LeptonicaImage(taking: pix)
      scantext_pixSetAllArbitrary(page.pix, 255)
      for x in stride(from: 4, to: 36, by: 8) {
        for y in 1..<9 {
          // Every third row the stem is one pixel thinner.
          for dx in 0..<(y % 3 == 0 ? stem - 1 : stem) {
            scantext_pixSetPixel(page.pix, Int32(x + dx), Int32(y), 0)
          }
        }
      }
      return page
    }
    func ink(_ image: LeptonicaImage) -> Int {
      var count = 0
      for y in 0..<image.height {
        for x in 0..<image.width {
          var value: UInt32 = 0
          _ = scantext_pixGetPixel(image.pix, Int32(x), Int32(y), &value)
          if value < 128 { count += 1 }
        }
      }
      return count
    }
    let thin = try page(stem: 2)
    #expect(SquarePixelsStep.commonestInkRun(thin, across: true) == 2)
    let thinSquare = try #require(SquarePixelsStep.resample(thin, sx: 1, sy: 2))
    #expect(ink(thinSquare) == 2 * ink(thin), "repeated, not rounded off")
    let thick = try page(stem: 3)
    #expect(SquarePixelsStep.commonestInkRun(thick, across: true) == 3)
    let thickSquare = try #require(SquarePixelsStep.resample(thick, sx: 1, sy: 2))
    #expect(ink(thickSquare) < 2 * ink(thick), "rounded off")
  }

  /// The despeckle step's 3×3 window is square in pixels: it acts only
  /// where the pixels are square (on a fax, once the square-pixel step has
  /// made them so), and that step runs before it.
  @Test func despeckleActsOnlyOnSquarePixels() throws {
    try OCRLibraries.load()
    let pix = try #require(scantext_pixCreate(40, 20, 8))
    let fax = LeptonicaImage(taking: pix)
    scantext_pixSetResolution(fax.pix, 200, 100)
    let context = StepContext(Preprocessor(steps: .default), original: fax, dpi: nil)
    let specks = Preprocessor.Specks(components: 2000, specks: 1500)
    #expect(specks.callForDespeckling)
    var page = WorkingPage(fax, resolution: 100)
    #expect(DespeckleStep().decide(specks, page, context) == nil, "200 × 100 dpi pixels")
    page.records.append(StepRecord(.squarePixels))
    #expect(DespeckleStep().decide(specks, page, context) != nil, "made square")

    let squarePix = try #require(scantext_pixCreate(40, 20, 8))
    let scan = LeptonicaImage(taking: squarePix)
    scantext_pixSetResolution(scan.pix, 300, 300)
    let squareContext = StepContext(Preprocessor(steps: .default), original: scan, dpi: nil)
    #expect(
      DespeckleStep().decide(specks, WorkingPage(scan, resolution: 300), squareContext) != nil)

    let order = Preprocessor.pipeline.flatMap(\.descriptors).map(\.name)
    let square = try #require(order.firstIndex(of: .squarePixels))
    let despeckle = try #require(order.firstIndex(of: .despeckle))
    let rules = try #require(order.firstIndex(of: .rules))
    #expect(square < despeckle && square < rules)
  }

  /// A black-and-white page is made square by repeating its rows: it stays
  /// black and white, a stroke one row tall becomes two rows, no gray row
  /// (which Tesseract's threshold took for ink) is added at its edges, and
  /// the rounding-off of the stairs keeps the stroke. A gray page is
  /// interpolated.
  @Test func blackAndWhitePageIsResampledByRepeatingRows() throws {
    try OCRLibraries.load()
    let pix = try #require(scantext_pixCreate(6, 4, 8))
    let page = LeptonicaImage(taking: pix)
    scantext_pixSetAllArbitrary(page.pix, 255)
    for x in 0..<6 { scantext_pixSetPixel(page.pix, Int32(x), 1, 0) }
    let square = try #require(SquarePixelsStep.resample(page, sx: 1, sy: 2))
    #expect(square.width == 6 && square.height == 8)
    #expect(Preprocessor.isTwoLevel(square))
    var column: [UInt32] = []
    for y in 0..<8 {
      var value: UInt32 = 0
      _ = scantext_pixGetPixel(square.pix, 3, Int32(y), &value)
      column.append(value)
    }
    #expect(column == [255, 255, 0, 0, 255, 255, 255, 255])
    // Across: a stroke two rows thick (one at the higher resolution would
    // be thinner than the median keeps).
    for x in 0..<6 { scantext_pixSetPixel(page.pix, Int32(x), 2, 0) }
    let wide = try #require(SquarePixelsStep.resample(page, sx: 2, sy: 1))
    var row: [UInt32] = []
    for x in 2..<10 {
      var value: UInt32 = 0
      _ = scantext_pixGetPixel(wide.pix, Int32(x), 1, &value)
      row.append(value)
    }
    #expect(wide.width == 12 && wide.height == 4 && row == Array(repeating: 0, count: 8))
    // A lone pixel, repeated to two, is a speck the rounding-off removes
    // (on a page whose strokes are thick enough for it: three pixels).
    scantext_pixSetAllArbitrary(page.pix, 255)
    scantext_pixSetPixel(page.pix, 3, 2, 0)
    for x in 0..<3 {
      scantext_pixSetPixel(page.pix, Int32(x), 0, 0)
      scantext_pixSetPixel(page.pix, Int32(x), 1, 0)
    }
    let speck = try #require(SquarePixelsStep.resample(page, sx: 1, sy: 2))
    var values: [UInt32] = [0, 0]
    _ = scantext_pixGetPixel(speck.pix, 3, 4, &values[0])
    _ = scantext_pixGetPixel(speck.pix, 3, 5, &values[1])
    #expect(values == [255, 255])

    scantext_pixSetPixel(page.pix, 0, 0, 128)
    let gray = try #require(SquarePixelsStep.resample(page, sx: 1, sy: 2))
    #expect(gray.height == 8 && !Preprocessor.isTwoLevel(gray))
  }

  /// A generated fax (`Tools/generate/families/misc.py`, checking seed 9008: 200 ×
  /// 100 dpi, one bit, line speckle, 10–12 pt type) reads no worse than
  /// plain Tesseract. Before the despeckle step waited for square pixels,
  /// its 3×3 median ran on the page as stored, a window 3 × 6 pixels tall
  /// in paper terms, and erased horizontal strokes: CER 0.0660 against
  /// Tesseract's 0.0144, word recall 0.7807 against 0.9568.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func speckledFaxReadsNoWorseThanTesseract() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    let (status, output) = try ExternalCheckers.run(
      python, [generator, "misc", "--seeds", "9008", "--out", folder.path])
    try #require(status == 0, "make-family failed: \(output)")
    let stem = folder.appendingPathComponent("misc-9008").path
    let truth = try #require(
      try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
        .pages.first)
    let plain = try #require(
      try OCREngine(options: RecognitionOptions(preprocessing: .none)).recognize(
        contentsOf: stem + ".png"
      ).first)
    let page = try #require(try OCREngine().recognize(contentsOf: stem + ".png").first)
    #expect(page.preprocessing.first == "square pixels")
    #expect(page.width == truth.width && page.height == truth.height)
    let (t, s) = (plain.evaluate(against: truth), page.evaluate(against: truth))
    #expect(s.cer <= t.cer + 0.005, "CER \(s.cer) against Tesseract's \(t.cer)")
    #expect(s.wordRecall >= t.wordRecall - 0.01, "recall \(s.wordRecall) against \(t.wordRecall)")
  }

  @Test func squarePixelsTransformMapsBack() {
    let t = ImageTransform.undoScale(x: 1, y: 2)
    let p = t.apply(Point(x: 10, y: 40))
    #expect(p.x == 10 && p.y == 20)
  }
}
