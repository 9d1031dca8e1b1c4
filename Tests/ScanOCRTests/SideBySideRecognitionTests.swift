import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// One page recognised on two cores (issue 47): the page cut through blank
/// paper, its parts read side by side by two engines, their words put back
/// in the original's pixels. The suite checks what comes out (the same
/// page every run, text as good as the page read whole), never the speed.
@Suite("One page on two cores")
struct SideBySideRecognitionTests {
  static func engine(threads: Int) throws -> OCREngine {
    try OCREngine(options: RecognitionOptions(pageThreads: threads))
  }

  static func path(_ image: String) -> String {
    Fixtures.scans.appendingPathComponent(image).path
  }

  static func json(_ page: Page) -> String {
    DocumentJSON.encode(
      Document(pages: [page]), generator: Generator(name: "test", version: "0"))
  }

  @Test func twentyReadingsOfAPageInPartsAreTheSame() throws {
    let engine = try Self.engine(threads: 2)
    let first = try #require(try engine.recognize(contentsOf: Self.path("two-columns.png")).first)
    #expect(engine.partners.count == 1, "the page was read in two parts")
    let expected = Self.json(first)
    for run in 2...20 {
      let page = try #require(try engine.recognize(contentsOf: Self.path("two-columns.png")).first)
      #expect(Self.json(page) == expected, "run \(run) differs from the first")
    }
  }

  @Test(arguments: ["two-columns.png", "article.png", "justified-hyphenated.png"])
  func aPageReadInPartsReadsAsWellAsWhole(image: String) throws {
    let truth = try Fixtures.truth(image)
    let whole = try #require(
      try Self.engine(threads: 1).recognize(contentsOf: Self.path(image)).first)
    let engine = try Self.engine(threads: 2)
    let parts = try #require(try engine.recognize(contentsOf: Self.path(image)).first)
    #expect(engine.partners.count == 1, "\(image) was read in two parts")
    let before = whole.evaluate(against: truth)
    let after = parts.evaluate(against: truth)
    // The gate's rule (Tools/check/gate): no worse by more than 0.005 in CER and
    // reading-order CER, 0.01 in word recall.
    #expect(after.value(of: .cer) <= before.value(of: .cer) + 0.005, "\(image)")
    #expect(
      after.value(of: .readingOrderCER) <= before.value(of: .readingOrderCER) + 0.005, "\(image)")
    #expect(after.value(of: .wordRecall) >= before.value(of: .wordRecall) - 0.01, "\(image)")
    #expect(parts.verify().passed, "\(image): \(parts.verify().violations.prefix(3))")
  }

  @Test func aSmallPageIsReadWholeOnOneCore() throws {
    let engine = try Self.engine(threads: 2)
    _ = try engine.recognize(contentsOf: Self.path("dpi-150.png"))
    #expect(engine.partners.isEmpty)
  }

  @Test func tesseractsOrderReadsThePageWhole() throws {
    // `--no-preprocess` promises the `tesseract` command's text: the page
    // is not cut.
    let engine = try OCREngine(
      options: RecognitionOptions(preprocessing: .none, layout: .tesseract, pageThreads: 2))
    let page = try #require(try engine.recognize(contentsOf: Self.path("two-columns.png")).first)
    #expect(engine.partners.isEmpty)
    #expect(!page.text.isEmpty)
  }
}
