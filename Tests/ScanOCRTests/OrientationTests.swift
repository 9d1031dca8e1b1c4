import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A page is turned only on evidence that the turned reading is better.
@Suite("Orientation decisions")
struct OrientationTests {
  static func cleanImage() throws -> LeptonicaImage {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let data = try ImageReader.readBytes(path)
    return try #require(try ImageReader.decodePages(data, path: path, maxPixels: .max).first)
  }

  @Test(
    "An upright page stays upright when orientation detection wrongly proposes a turn",
    arguments: [1, 2, 3])
  func wrongProposalIsRejected(_ turns: Int) throws {
    // Tesseract's OSD said 180° with confidence 2.77 for an upright
    // business form, and the page read turned had no word right.
    let engine = try OCREngine()
    let image = try Self.cleanImage()
    let upright = try engine.recognize(image, index: 0, path: "clean.png", proposedTurns: 0)
    let proposed = try engine.recognize(image, index: 0, path: "clean.png", proposedTurns: turns)
    #expect(proposed.orientation == 0)
    // The rejected turn leaves no record: the page was not turned.
    #expect(!proposed.steps.contains { $0.step == .orientation }, "\(proposed.steps)")
    #expect(proposed.text == upright.text)
    #expect(proposed.words.map(\.bbox) == upright.words.map(\.bbox))
  }

  @Test func upsideDownReadingIsNotClearlyBetter() {
    // Figures of the kind measured: an upside-down reading has many words
    // at low confidence.
    let upright = ReadingQuality(words: 198, confidentWords: 71, meanConfidence: 58)
    let turned = ReadingQuality(words: 230, confidentWords: 20, meanConfidence: 35)
    #expect(
      !OrientationPolicy.turnedIsClearlyBetter(
        turned, than: upright, uprightSignals: ResultReader.Signals()))
    #expect(
      OrientationPolicy.turnedIsClearlyBetter(
        upright, than: turned, uprightSignals: ResultReader.Signals()))
  }

  @Test func slightlyMoreConfidentWordsAreNotEnough() {
    let upright = ReadingQuality(words: 100, confidentWords: 80, meanConfidence: 80)
    let turned = ReadingQuality(words: 100, confidentWords: 85, meanConfidence: 82)
    #expect(
      !OrientationPolicy.turnedIsClearlyBetter(
        turned, than: upright, uprightSignals: ResultReader.Signals()))
    let better = ReadingQuality(words: 100, confidentWords: 88, meanConfidence: 82)
    #expect(
      OrientationPolicy.turnedIsClearlyBetter(
        better, than: upright, uprightSignals: ResultReader.Signals()))
  }

  @Test func sidewaysUprightReadingGivesWayToAnEqualTurnedOne() {
    // Tesseract reads a page turned by 90° well, but down the page.
    var sideways = ResultReader.Signals()
    sideways.words = 60
    sideways.wordsNotUpright = 60
    let upright = ReadingQuality(words: 60, confidentWords: 60, meanConfidence: 96)
    let turned = ReadingQuality(words: 60, confidentWords: 60, meanConfidence: 96)
    #expect(
      OrientationPolicy.turnedIsClearlyBetter(turned, than: upright, uprightSignals: sideways))
    #expect(
      !OrientationPolicy.turnedIsClearlyBetter(
        turned, than: upright, uprightSignals: ResultReader.Signals()))
  }

  @Test func pagesAbove300PpiAreMeasuredHalved() {
    #expect(Preprocessor.measuresOrientationHalved(width: 3456, height: 4608, resolution: 350))
    #expect(!Preprocessor.measuresOrientationHalved(width: 3312, height: 2550, resolution: 300))
    #expect(!Preprocessor.measuresOrientationHalved(width: 5000, height: 6000, resolution: 300))
    // No resolution: larger than a letter page at 300 ppi.
    #expect(Preprocessor.measuresOrientationHalved(width: 4000, height: 2864, resolution: nil))
    #expect(!Preprocessor.measuresOrientationHalved(width: 2550, height: 3300, resolution: nil))
  }

  @Test(
    "Large upright real pages measured halved are found upright",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: ["ocrmypdf/typewriter.png", "ocrd/linguistics-thesis-a.jpg"])
  func largeRealPagesAreFoundUpright(_ name: String) throws {
    // Measured at full size, typewriter was not clearly upright (up 10.0,
    // sideways 8.9) and linguistics-thesis-a favoured sideways text (up
    // 2.2, sideways 3.9), which sent it to orientation detection first.
    let path = RealScans.path(name)
    let image = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let prepared = Preprocessor(steps: .default).prepare(image, dpi: nil)
    let estimate = try #require(Preprocessor.textOrientation(prepared))
    #expect(estimate.favoursUpright, "\(name): \(estimate)")
    if name.hasSuffix("typewriter.png") { #expect(estimate.clearlyUpright, "\(estimate)") }
  }

  /// The turn is decided around recognition (``OCREngine``'s
  /// `readOriented`), not by a step of the list; the decision kept is the
  /// page's typed orientation record: its quarter turns, what found them
  /// and the time, while the JSON keeps writing `"orientation"`.
  @Test(
    "A turned sample page records its turn, what found it and its time",
    arguments: [("rotated-90.png", 1), ("rotated-180.png", 2), ("rotated-270.png", 3)])
  func turnIsATypedRecord(_ name: String, _ turns: Int) throws {
    let page = try RecognizedScans.page(name)
    #expect(page.orientation == turns * 90)
    let record = try #require(page.steps.first { $0.step == .orientation }, "\(page.steps)")
    #expect(record.measurement == Double(turns))
    // Leptonica's measure is confident on these pages (the test below).
    #expect(record.decision == .turned(.textShape))
    #expect((record.seconds ?? 0) > 0)
    #expect(page.preprocessing.contains("orientation"))
    // Exported as before; read back, the record has the step alone.
    let json = DocumentJSON.value(
      of: Document(pages: [page]), generator: Generator(name: "t", version: "0"))
    let exported = try #require(json["pages"]?.arrayValue?.first)
    #expect(exported["preprocessing"] == .array(page.preprocessing.map(JSONValue.string)))
    let decoded = try #require(try DocumentJSON.decode(json).pages.first)
    #expect(decoded == page)
    #expect(decoded.steps.first { $0.step == .orientation } == StepRecord(.orientation))
  }

  @Test func leptonicaFindsTheTurnOfTheSampleRotations() throws {
    for (name, turns) in [
      ("clean.png", nil), ("rotated-90.png", 1), ("rotated-180.png", 2), ("rotated-270.png", 3),
    ] {
      let path = Fixtures.scans.appendingPathComponent(name).path
      let data = try ImageReader.readBytes(path)
      let image = try #require(
        try ImageReader.decodePages(data, path: path, maxPixels: .max).first)
      let gray = try #require(Preprocessor.gray(image))
      let ink = try #require(Preprocessor.binarize(gray))
      let estimate = try #require(
        Preprocessor.textOrientation(binary: ink, resolution: image.resolution))
      #expect(estimate.confidentTurns == turns, "\(name): \(estimate)")
      #expect(estimate.favoursUpright == (turns == nil), "\(name): \(estimate)")
    }
  }

  @Test func darkEdgeBandIsNotAShadow() {
    // Paper brightness of a 4×4 grid (row by row) on the real book page
    // kant-0017.tif (dark band on the right: the book's edge) and on the
    // generated page with a shadow.
    let bookEdge = [
      246, 237, 237, 141, 248, 237, 239, 156, 247, 232, 239, 155, 242, 237, 235, 146,
    ]
    let shadow = [162, 215, 237, 246, 146, 195, 215, 225, 131, 175, 194, 203, 118, 157, 174, 181]
    #expect(Preprocessor.backgroundSpread(bookEdge, tiles: 4) == 16)
    #expect(Preprocessor.backgroundSpread(shadow, tiles: 4) == 89)
  }
}
