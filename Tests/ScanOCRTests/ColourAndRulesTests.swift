import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The colour and rule steps on the pages made for them, against the same
/// reading without the step (`--no-colour`, `--no-rules`), scored with the
/// library's evaluation as the regression tests score every page; and the
/// pages they must leave alone. That they harm no real page is
/// ``RealScanNoHarmTests``' job (the default includes both steps).
@Suite("Colour and rules preprocessing")
struct ColourAndRulesTests {
  static func read(_ image: String, without step: Preprocessing) throws -> (Page, PageEvaluation) {
    let engine = try OCREngine(
      options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting(step)))
    let path = Fixtures.scans.appendingPathComponent(image).path
    let page = try #require(try engine.recognize(contentsOf: path).first)
    return (page, page.evaluate(against: try Fixtures.truth(image)))
  }

  static func read(_ image: String) throws -> (Page, PageEvaluation) {
    let page = try RecognizedScans.page(image)
    return (page, page.evaluate(against: try Fixtures.truth(image)))
  }

  @Test func stampsFadeAndTheTextUnderThemIsRead() throws {
    let (page, with) = try Self.read("color-stamp.png")
    let (plain, without) = try Self.read("color-stamp.png", without: [.colour])
    #expect(page.preprocessing == ["colour: saturated colour suppressed"])
    #expect(plain.preprocessing.isEmpty)
    // Measured: word recall 0.667 → 0.977, CER 0.331 → 0.001.
    #expect(with.wordRecall >= without.wordRecall + 0.2, "\(with.wordRecall) \(without.wordRecall)")
    #expect(with.cer < without.cer - 0.2, "\(with.cer) \(without.cer)")
  }

  /// Coloured print is text, not a stamp: `clean.png` with its first six
  /// lines printed in red (ink (220, 20, 20)) and the rest in black. Fading
  /// every saturated pixel made the red lines pale gray and lost them
  /// (measured: word recall 0.640, CER 0.354); only marks over black print
  /// fade, so nothing does here (recall 1, CER 0).
  @Test func colouredPrintStandingAloneIsRead() throws {
    try OCRLibraries.load()
    let gray = try GrayPixels.read(Fixtures.scans.appendingPathComponent("clean.png").path)
    let truth = try Fixtures.truth("clean.png")
    let red = truth.lines.prefix(6).map(\.bbox)
    let pix = try #require(scantext_pixCreate(Int32(gray.width), Int32(gray.height), 32))
    let image = LeptonicaImage(taking: pix)
    let data = try #require(scantext_pixGetData(pix))
    let words = Int(scantext_pixGetWpl(pix))
    for y in 0..<gray.height {
      for x in 0..<gray.width {
        let v = UInt32(gray[x, y])
        let ink = 255 - v
        let inRed = red.contains {
          $0.minX <= x && x < $0.maxX && $0.minY - 6 <= y && y < $0.maxY + 6
        }
        let (r, g, b) =
          inRed ? (255 - ink * 35 / 255, 255 - ink * 235 / 255, 255 - ink * 235 / 255) : (v, v, v)
        data[y * words + x] = r << 24 | g << 16 | b << 8
      }
    }
    scantext_pixSetResolution(pix, 300, 300)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scantext-red-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("red-lines.png").path
    #expect(scantext_pixWrite(path, image.pix, Int32(IFF_PNG)) == 0)
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    #expect(!page.preprocessing.contains { $0.hasPrefix("colour") }, "\(page.preprocessing)")
    let evaluation = page.evaluate(against: truth)
    #expect(evaluation.wordRecall >= 0.99, "word recall \(evaluation.wordRecall)")
    #expect(evaluation.cer <= 0.005, "CER \(evaluation.cer)")
  }

  @Test func colouredPaperIsReadInItsBestChannel() throws {
    let (page, with) = try Self.read("color-paper.jpg")
    let (_, without) = try Self.read("color-paper.jpg", without: [.colour])
    #expect(page.preprocessing == ["colour: red channel"])
    // Measured: word recall 0.927 → 0.992, CER 0.064 → 0. Since the
    // contrast stretch measures the ink from the darkest thousandth of the
    // page, the page read in luminance is no longer stretched and reads
    // CER 0 too (it was 0.047 stretched), word recall 0.984: the red
    // channel still reads more words on their boxes, and no worse text.
    #expect(with.wordRecall > without.wordRecall, "\(with.wordRecall) \(without.wordRecall)")
    #expect(with.cer <= without.cer, "\(with.cer) \(without.cer)")
  }

  @Test func rulesAreRemovedAndBoxesStayInPlace() throws {
    let (page, with) = try Self.read("ruled-table.png")
    let (plain, without) = try Self.read("ruled-table.png", without: [.rules])
    #expect(page.preprocessing == ["rules"])
    #expect(plain.preprocessing.isEmpty)
    // The record keeps what decided the removal: the rules' crossings
    // (the grid of 4 × 5 rules and more), and the time it took.
    let record = try #require(page.steps.first)
    #expect((record.measurement ?? 0) >= Double(Preprocessor.minimumRuleCrossings), "\(record)")
    #expect((record.seconds ?? 0) > 0)
    // The page keeps the original's geometry: nothing moved.
    #expect(page.width == plain.width && page.height == plain.height)
    #expect(page.orientation == 0 && page.skew == 0)
    // Measured: mean IoU 0.917 → 1 (Tesseract's boxes took in the rules
    // next to the words). With the rules Tesseract reads the table row by
    // row, like the truth; the cleaned page it would read column by column,
    // so its cells are read one by one, row by row (reading-order CER 0).
    #expect(with.meanIoU > without.meanIoU + 0.05, "\(with.meanIoU) \(without.meanIoU)")
    #expect(with.wordRecall >= without.wordRecall)
    #expect(with.cer <= without.cer)
    #expect(with.readingOrderCER == 0)
  }

  @Test("Rules are removed around each rule with exactly the pixels of a closing of the whole page")
  func ruleRemovalIsExact() throws {
    try Self.checkRuleRemovalIsExact(Fixtures.scans.appendingPathComponent("ruled-table.png").path)
  }

  /// A real ruled table in black and white: camelot's `row_span_1.pdf`
  /// (a government report's table, ruled round every cell) rendered at
  /// 300 dpi in one bit per pixel (`pdftoppm -mono`), as a fax or a
  /// black-and-white scan gives it. The path of the `.pbm` in `folder`.
  static func ruledRealPage(in folder: URL) throws -> String {
    let stem = folder.appendingPathComponent("row_span_1").path
    let (status, output) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftoppm),
      [
        "-r", "300", "-mono", "-singlefile",
        RealTableTests.camelot.appendingPathComponent("row_span_1.pdf").path, stem,
      ])
    try #require(status == 0, "\(output)")
    return stem + ".pbm"
  }

  @Test(
    "The same on a real ruled page",
    .enabled(if: RealTableTests.camelotPresent, Comment(rawValue: RealTableTests.camelotAbsent)))
  func ruleRemovalIsExactOnARealPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.checkRuleRemovalIsExact(try Self.ruledRealPage(in: folder))
  }

  /// A magazine page's photo (`8071_093.3B.tif`: a dark picture beside
  /// the text, in black and white) is an area of ink: the thin runs of ink
  /// in it have ink on both sides and are no rules, so the page has no
  /// grid to remove (before, 20 crossings in the picture made one).
  @Test(.enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func aPhotosDarkAreasHoldNoRules() throws {
    let path = try #require(RealScans.folder).appendingPathComponent(
      "tesseract-test/8071_093.3B.tif"
    ).path
    let image = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let ink = try #require(Preprocessor.gray(image).flatMap(Preprocessor.binarize))
    let measured = Preprocessor.measureRules(binary: ink, resolution: image.resolution)
    #expect(measured?.formGrid != true, "\(measured?.crossings ?? 0) crossings")
  }

  @Test(
    "A black-and-white page cleaned of its rules goes to Tesseract black and white",
    .enabled(if: RealTableTests.camelotPresent, Comment(rawValue: RealTableTests.camelotAbsent)))
  func blackAndWhitePageStaysBlackAndWhite() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.ruledRealPage(in: folder)
    let original = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    #expect(scantext_pixGetDepth(original.pix) == 1)
    let prepared = Preprocessor(steps: .default).prepare(original, dpi: nil)
    #expect(prepared.recorded == ["rules"])
    #expect(scantext_pixGetDepth(prepared.image.pix) == 1)
    #expect(prepared.image.width == original.width && prepared.image.height == original.height)
  }

  /// A black-and-white page's cleaning is kept through its reading for a
  /// second preparation (a turn found late, the small-text measure); an
  /// 8-bit copy of a 300 dpi page is 8.4 MB, the largest block of a dense
  /// page's reading (`8071_093.3B.tif`: 94.8 → 83.3 MB peak, debug build).
  @Test("A black-and-white page's cleaning waits 1 bit deep and prepares the same page again")
  func blackAndWhiteCleaningWaitsOneBitDeep() throws {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let page = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let original = try #require(Preprocessor.gray(page).flatMap(Preprocessor.binarize))
    #expect(scantext_pixGetDepth(original.pix) == 1)
    let preprocessor = Preprocessor(steps: .default)
    let prepared = preprocessor.prepare(original, dpi: 300)
    let cleaned = try #require(prepared.cleaned)
    #expect(cleaned.isCompact)
    #expect(scantext_pixGetDepth(cleaned.image.pix) == 1)
    let gray = try #require(cleaned.expanded())
    #expect(scantext_pixGetDepth(gray.image.pix) == 8 && !gray.isCompact)
    // Turned, from the kept cleaning and from scratch: the same pixels.
    let again = preprocessor.prepare(original, dpi: 300, quarterTurns: 1, cleaned: cleaned)
    let fresh = preprocessor.prepare(original, dpi: 300, quarterTurns: 1)
    var same: Int32 = 0
    #expect(scantext_pixEqual(again.image.pix, fresh.image.pix, &same) == 0 && same == 1)
    #expect(again.recorded == fresh.recorded)
    // A gray page's cleaning stays 8 bits deep.
    let grayPrepared = preprocessor.prepare(page, dpi: 300)
    #expect(grayPrepared.cleaned.map { scantext_pixGetDepth($0.image.pix) } == 8)
  }

  /// A page no step changed waits for a second preparation as its
  /// original, with no gray copy of its own (a colour scan's is 3 MB at
  /// 2083 × 1457, `kant-0017.tif`), and prepares the same page again.
  @Test(
    "A page no step changed waits as its original and prepares the same page again",
    arguments: [8, 32])
  func unchangedCleaningWaitsAsTheOriginal(depth: Int32) throws {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let page = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let gray = try #require(Preprocessor.gray(page))
    let original =
      depth == 8
      ? gray : try #require(scantext_pixConvertTo32(gray.pix).map(LeptonicaImage.init(taking:)))
    #expect(scantext_pixGetDepth(original.pix) == depth)
    func same(_ a: LeptonicaImage?, _ b: LeptonicaImage?) -> Bool {
      guard let a, let b else { return false }
      var same: Int32 = 0
      return scantext_pixEqual(a.pix, b.pix, &same) == 0 && same == 1
    }
    let preprocessor = Preprocessor(steps: .default)
    let prepared = preprocessor.prepare(original, dpi: 300)
    #expect(prepared.applied.isEmpty)
    let cleaned = try #require(prepared.cleaned)
    #expect(cleaned.image === original && cleaned.isCompact)
    // Its gray page (a copy of its own) and its ink are the gray copy's.
    let expanded = try #require(cleaned.expanded())
    #expect(expanded.image !== original && !expanded.isCompact)
    #expect(same(expanded.image, gray))
    #expect(
      same(
        cleaned.ink(below: 200),
        scantext_pixConvertTo1(gray.pix, 200).map(LeptonicaImage.init(taking:))))
    // Turned, from the kept cleaning and from scratch: the same pixels.
    let again = preprocessor.prepare(original, dpi: 300, quarterTurns: 1, cleaned: cleaned)
    let fresh = preprocessor.prepare(original, dpi: 300, quarterTurns: 1)
    #expect(same(again.image, fresh.image))
    #expect(again.recorded == fresh.recorded)
  }

  @Test(
    "Two-level means every pixel black or white, to the last pixel of a line", arguments: [4, 7])
  func twoLevelImages(width: Int) throws {
    // Leptonica is loaded on first use: this test calls it first when
    // run alone (it crashed so, with `--filter twoLevel`).
    try OCRLibraries.load()
    let pix = try #require(scantext_pixCreate(Int32(width), 3, 8))
    let image = LeptonicaImage(taking: pix)
    #expect(Preprocessor.isTwoLevel(image), "all black")
    for x in 0..<width { #expect(scantext_pixSetPixel(pix, Int32(x), 1, 255) == 0) }
    #expect(Preprocessor.isTwoLevel(image), "black and white")
    #expect(scantext_pixSetPixel(pix, Int32(width - 1), 2, 128) == 0)
    #expect(!Preprocessor.isTwoLevel(image), "a gray last pixel")
    #expect(scantext_pixSetPixel(pix, Int32(width - 1), 2, 0) == 0)
    #expect(scantext_pixSetPixel(pix, 1, 0, 1) == 0)
    #expect(!Preprocessor.isTwoLevel(image), "a nearly black pixel")
  }

  /// Every sample page and every real scan, as paths.
  static let everyImage: [String] =
    Fixtures.scanImages.map { Fixtures.scans.appendingPathComponent($0).path }
    + (RealScans.folder.map { folder in
      RealScans.images.map { folder.appendingPathComponent($0).path }
    } ?? [])

  @Test(
    "The halved page never misses a long run the page's own opening finds",
    arguments: everyImage)
  func halvedRunCheckIsSafe(_ path: String) throws {
    let image = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let ink = try #require(Preprocessor.gray(image).flatMap(Preprocessor.binarize))
    let halved = LeptonicaImage(
      taking: try #require(scantext_pixReduceRankBinary2(ink.pix, 1, nil)))
    let length = Int32(Preprocessor.ruleLength(ink, resolution: image.resolution))
    for horizontal in [true, false] {
      let opened = LeptonicaImage(
        taking: try #require(
          scantext_pixOpenCompBrick(
            nil, ink.pix, horizontal ? length : 1, horizontal ? 1 : length)))
      var count: Int32 = 0
      #expect(scantext_pixCountPixels(opened.pix, &count, nil) == 0)
      if !Preprocessor.mayHoldRuns(halved, length: length, horizontal: horizontal) {
        #expect(count == 0, "\(path): horizontal \(horizontal)")
      }
    }
  }

  @Test(
    "The halved page's crossings never turn away a grid the page's own search finds",
    arguments: everyImage)
  func halvedGridCheckIsSafe(_ path: String) throws {
    let image = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let ink = try #require(Preprocessor.gray(image).flatMap(Preprocessor.binarize))
    let halved = try #require(Preprocessor.halved(ink))
    let length = Int32(Preprocessor.ruleLength(ink, resolution: image.resolution))
    let full = Preprocessor.rules(binary: ink, resolution: image.resolution).flatMap {
      Preprocessor.ruleCrossings(horizontal: $0.horizontal, vertical: $0.vertical)
    }
    let half = Preprocessor.halvedCrossings(halved, length: length, resolution: image.resolution)
    if let full, full >= Preprocessor.minimumRuleCrossings {
      #expect(
        Preprocessor.mayHoldGrid(halved, length: length, resolution: image.resolution),
        "\(path): \(full) crossings, \(half.map(String.init) ?? "none") halved")
    }
  }

  /// Reversed print is no grid: a report's cover (`redp5110_sampled` page
  /// 18 of ../shared/docling, rasterised at 300 dpi) with a red panel of
  /// white text. The strips of panel between its lines are long thin runs
  /// of ink, but with ink on both sides: they were removed as a table's
  /// rules, and the
  /// panel read "IBM Redbooks ane:developad", its heading "BUILDING
  /// TECHNICAL" lost; plain Tesseract reads both.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aCoversReversedPanelIsReadAsTesseractReadsIt() throws {
    let page = try RealDocumentRolesTests.page("redp5110_sampled", 18)
    #expect(!page.preprocessing.contains("rules"), "\(page.preprocessing)")
    #expect(page.text.contains("IBM Redbooks are developed"), "\(page.text)")
    #expect(page.text.contains("BUILDING TECHNICAL"), "\(page.text)")
  }

  static func checkRuleRemovalIsExact(_ path: String) throws {
    let image = URL(fileURLWithPath: path).lastPathComponent
    let original = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let gray = try #require(Preprocessor.gray(original))
    let ink = try #require(Preprocessor.binarize(gray))
    let resolution = original.resolution
    let measured = try #require(
      Preprocessor.measureRules(binary: ink, resolution: resolution), "\(image) has rules")
    #expect(measured.formGrid, "\(image): \(measured.crossings) crossings")
    let cleaned = try #require(Preprocessor.removeRules(gray, measured, resolution: resolution))
    // The reference: the same two passes, each closing the whole page.
    let found = try #require(Preprocessor.rules(binary: ink, resolution: resolution))
    let reference = LeptonicaImage(taking: try #require(scantext_pixCopy(nil, gray.pix)))
    let across = Int32(2 * max(3, (resolution ?? 300) / 40) + 5) | 1
    for (mask, w, h) in [(found.horizontal, Int32(1), across), (found.vertical, across, Int32(1))] {
      let near = LeptonicaImage(taking: try #require(scantext_pixDilateBrick(nil, mask.pix, 3, 3)))
      let paper = LeptonicaImage(taking: try #require(scantext_pixCloseGray(reference.pix, w, h)))
      #expect(scantext_pixCombineMasked(reference.pix, paper.pix, near.pix) == 0)
    }
    var same: Int32 = 0
    #expect(scantext_pixEqual(cleaned.image.pix, reference.pix, &same) == 0)
    #expect(same == 1, "\(image): the cleaned page differs from the page-wide closing")
    // And something was removed.
    #expect(scantext_pixEqual(cleaned.image.pix, gray.pix, &same) == 0)
    #expect(same == 0)
  }

  @Test(
    "Gray and black-and-white pages are never read as colour, and pages without rules keep them",
    arguments: Fixtures.scanImages)
  func otherPagesAreLeftAlone(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    if !image.hasPrefix("color-") {
      #expect(!page.preprocessing.contains { $0.hasPrefix("colour") }, "\(page.preprocessing)")
      let original = try #require(
        try ImageReader.decodePages(
          ImageReader.readBytes(Fixtures.scans.appendingPathComponent(image).path),
          path: image, maxPixels: .max
        ).first)
      #expect(Preprocessor.measureColour(original) == nil)
    }
    if image != "ruled-table.png" {
      #expect(!page.preprocessing.contains("rules"), "\(page.preprocessing)")
    }
  }

  @Test func theDecisionIsRecordedInTheJSONAndReadBack() throws {
    let page = try RecognizedScans.page("color-paper.jpg")
    let json = DocumentJSON.value(
      of: Document(pages: [page]), generator: Generator(name: "t", version: "0"))
    let exported = try #require(json["pages"]?.arrayValue?.first)
    #expect(exported["preprocessing"] == .array([.string("colour: red channel")]))
    let decoded = try DocumentJSON.decode(json)
    #expect(decoded.pages.first?.preprocessing == ["colour: red channel"])
    #expect(decoded.pages.first == page)
  }
}
