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
  /// `two-columns.png` faded: its ink lifted to gray (black to 214 on
  /// paper 255), blurred (1.2 px) and noised (σ 10, seeded), as a faded
  /// page is; the same size and truth as the sample. Recipe of
  /// docs/measurements/2026-12-07-second-look.md.
  static let faded: Result<URL, FixtureError>? = {
    let script = """
      import sys
      import numpy as np
      from PIL import Image, ImageFilter
      src, out = sys.argv[1], sys.argv[2]
      im = Image.open(src).convert('L')
      a = np.asarray(im.filter(ImageFilter.GaussianBlur(1.2)), dtype=np.float64)
      a = 255 - (255 - a) * 0.16
      a += np.random.default_rng(7).normal(0, 10, a.shape)
      Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(out + '/faded.png', dpi=(300, 300))
      """
    return GeneratedImages.folder(
      script, { [Fixtures.scans.appendingPathComponent("two-columns.png").path, $0.path] })
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

  /// On the faded page, the first reading of the last line of the second
  /// column is `"permitting.` at confidence 35 (a quote read in the
  /// noise); read again, its Sauvola binarisation and its contrast stretch
  /// both read `permitting.`, which is kept: the truth's word, its box over
  /// the word's ink in the original's pixels, and the page's record names
  /// the line, why and the rendering.
  @Test func aWeakLineIsReadRightTheSecondTime() throws {
    guard let made = Self.faded else {
      print(GeneratedImages.absentMessage)
      return
    }
    let path = try made.get().appendingPathComponent("faded.png").path
    let first = try Self.read(path, secondLook: false)
    let again = try Self.read(path, secondLook: true)
    let truth = try Fixtures.truth("two-columns.png")
    let truthWord = try #require(truth.words.first { $0.text == "permitting." })

    let before = try #require(Self.line(first, containing: "permitting"))
    #expect(before.words.map(\.text) == ["\"permitting."])
    #expect(first.steps.allSatisfy { $0.step != .secondLook })

    let after = try #require(Self.line(again, containing: "permitting"))
    #expect(after.words.map(\.text) == ["permitting."])
    let word = try #require(after.words.first)
    #expect(word.bbox.contains(truthWord.bbox, tolerance: 2), "\(word.bbox)")
    #expect(word.bbox.intersectionOverUnion(truthWord.bbox) >= 0.6, "\(word.bbox)")
    #expect(after.bbox.contains(word.bbox))

    let records = again.preprocessing.filter { $0.hasPrefix("second look: ") }
    let named = records.first {
      $0.contains("low confidence")
        && ($0.hasSuffix("kept sauvola") || $0.hasSuffix("kept contrast-stretched"))
    }
    let record = try #require(named, "records: \(records)")
    let numbers = record.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    let recorded = PixelRect(
      minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
    #expect(recorded.contains(truthWord.bbox, tolerance: 2), "\(record)")
    // The rest of the page reads as it did or better.
    let firstCER = try Self.cer(first, truth)
    let againCER = try Self.cer(again, truth)
    #expect(againCER <= firstCER)
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
