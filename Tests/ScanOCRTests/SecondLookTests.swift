import CScanOCR
import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The second look (`--second-look`, issue 48 point 1): lines read weakly
/// are read again from other renderings of their pixels; a clean page
/// takes none.
@Suite("Second look")
struct SecondLookTests {
  /// `receipts-1002` of the receipts family (faded thermal print): its
  /// quantity line "3 @ 1.81" is first read "3 @1.81" at low confidence.
  static let receipt: Result<URL, FixtureError>? = {
    guard let python = GeneratedImages.python else { return nil }
    do {
      let folder = try Fixtures.temporaryFolder()
      let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
      let (status, output) = try ExternalCheckers.run(
        python, [generator, "receipts", "--seeds", "1002", "--out", folder.path])
      guard status == 0 else { return .failure(FixtureError("make-family failed: \(output)")) }
      return .success(folder)
    } catch {
      return .failure(FixtureError("\(error)"))
    }
  }()

  static func read(_ path: String, secondLook: Bool) throws -> Page {
    var options = RecognitionOptions()
    options.secondLook = secondLook
    return try OCREngine(options: options).recognize(contentsOf: path)[0]
  }

  static func line(_ page: Page, containing text: String) -> TextLine? {
    page.blocks.flatMap(\.paragraphs).flatMap(\.lines).first {
      $0.words.contains { $0.text.contains(text) }
    }
  }

  /// On a faded receipt, the quantity line "3 @ 1.81" is first read
  /// "3 @1.81" at low confidence; read again enlarged ×2, it is "3 @ 1.81",
  /// which is kept: its words' boxes in the original's pixels inside the
  /// line's, and the page's record names the line, why and the rendering.
  /// (The faded `two-columns.png` this test read before is now read right
  /// the first time: the illumination step averages a noisy faded page.)
  @Test func aWeakLineIsReadRightTheSecondTime() throws {
    guard let made = Self.receipt else {
      print(GeneratedImages.absentMessage)
      return
    }
    let stem = try made.get().appendingPathComponent("receipts-1002").path
    let first = try Self.read(stem + ".png", secondLook: false)
    let again = try Self.read(stem + ".png", secondLook: true)
    let truth = try #require(
      try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
        .pages.first)
    #expect(truth.text.contains("3 @ 1.81"))

    let before = try #require(Self.line(first, containing: "1.81"))
    #expect(before.words.map(\.text) == ["3", "@1.81"])
    #expect(first.steps.allSatisfy { $0.step != .secondLook })

    let after = try #require(Self.line(again, containing: "1.81"))
    #expect(after.words.map(\.text) == ["3", "@", "1.81"])
    #expect(after.words.allSatisfy { after.bbox.contains($0.bbox) }, "\(after.words.map(\.bbox))")
    #expect(zip(after.words, after.words.dropFirst()).allSatisfy { $0.bbox.maxX <= $1.bbox.minX })

    let records = again.preprocessing.filter { $0.hasPrefix("second look: ") }
    let record = try #require(
      records.first { $0.contains("low confidence") && $0.hasSuffix("kept upscaled ×2") },
      "records: \(records)")
    let numbers = record.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    let recorded = PixelRect(
      minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
    #expect(recorded.contains(after.bbox, tolerance: 2), "\(record) vs \(after.bbox)")
    // The rest of the page reads as it did or better.
    #expect(try Self.cer(again, truth) <= Self.cer(first, truth))
  }

  static func cer(_ page: Page, _ truth: Page) throws -> Double {
    page.evaluate(against: truth).cer
  }

  /// A clean page has no weak line: no second look is taken, its record
  /// says nothing was read again, and its JSON is byte for byte the JSON
  /// without the option.
  @Test func aCleanPageTakesNoSecondLook() throws {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let plain = try Self.read(path, secondLook: false)
    let looked = try Self.read(path, secondLook: true)
    #expect(!looked.steps.contains { $0.step == .secondLook })
    let generator = Generator(name: "scantext", version: "test")
    #expect(
      DocumentJSON.encode(Document(pages: [looked]), generator: generator)
        == DocumentJSON.encode(Document(pages: [plain]), generator: generator))
  }

  /// A second look's record reads back from its string, as a document's
  /// JSON holds it.
  @Test func theRecordReadsBack() throws {
    let record = StepRecord(
      .secondLook, decision: .reread("line [10,20,300,48] junk, kept upscaled ×2"))
    #expect(record.recorded == "second look: line [10,20,300,48] junk, kept upscaled ×2")
    let read = try #require(StepRecord(recorded: record.recorded))
    #expect(read == record)
    #expect(StepRecord(recorded: "second look: ") == nil)
  }

  /// What reads as junk and what as words.
  @Test func junkAndWords() {
    #expect(SecondLook.isJunk(["cece", "eeeee", "ee"]))
    #expect(SecondLook.isJunk(["||l|!", "—~"]))
    #expect(!SecondLook.isJunk(["The", "town", "library", "12.70", "£4.15"]))
    #expect(SecondLook.isWordLike("permitting."))
    #expect(SecondLook.isWordLike("\"Hello,\""))
    #expect(!SecondLook.isWordLike("tHiS"))
    #expect(!SecondLook.isWordLike("2A2"))
  }
}
