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

  /// Cut at a gutter (two-columns.png) and at a band between lines
  /// (justified-hyphenated.png): the same JSON (text, order, boxes) from
  /// every reading.
  @Test(arguments: ["two-columns.png", "justified-hyphenated.png"])
  func twentyReadingsOfAPageInPartsAreTheSame(image: String) throws {
    let engine = try Self.engine(threads: 2)
    let first = try #require(try engine.recognize(contentsOf: Self.path(image)).first)
    #expect(engine.partners.count == 1, "\(image) was read in two parts")
    let expected = Self.json(first)
    for run in 2...20 {
      let page = try #require(try engine.recognize(contentsOf: Self.path(image)).first)
      #expect(Self.json(page) == expected, "\(image): run \(run) differs from the first")
    }
  }

  @Test(arguments: ["two-columns.png", "justified-hyphenated.png"])
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

  /// A block of one line of `text` at `box`.
  static func block(_ text: String, _ box: PixelRect) -> Block {
    let line = TextLine(bbox: box, words: [Word(text: text, bbox: box)])
    return Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])
  }

  /// A page cut below a full-width block above two columns (linn.png: the
  /// cut under its list of features): the columns' blocks, all below that
  /// one block, keep the bottom part's order, the left column's first.
  @Test func theBottomPartsBlocksKeepTheirOrderUnderOneWideBlock() {
    let top = [
      Self.block("title", PixelRect(minX: 300, minY: 100, maxX: 1700, maxY: 200)),
      Self.block("features", PixelRect(minX: 100, minY: 300, maxX: 1900, maxY: 1000)),
    ]
    let bottom = [
      Self.block("left-heading", PixelRect(minX: 100, minY: 1100, maxX: 500, maxY: 1140)),
      Self.block("left-text", PixelRect(minX: 100, minY: 1150, maxX: 950, maxY: 2000)),
      Self.block("right-text", PixelRect(minX: 1050, minY: 1100, maxX: 1900, maxY: 2000)),
      Self.block("footer", PixelRect(minX: 100, minY: 2100, maxX: 1900, maxY: 2300)),
    ]
    let joined = OCREngine.joined(top: top, bottom: bottom)
    #expect(
      joined.map { $0.paragraphs[0].lines[0].words[0].text } == [
        "title", "features", "left-heading", "left-text", "right-text", "footer",
      ])
  }

  /// Two columns cut across: each bottom block goes on under its own
  /// column's top block, the left column whole before the right one.
  @Test func aColumnCutAcrossGoesOnUnderItsTop() {
    let top = [
      Self.block("left-1", PixelRect(minX: 100, minY: 100, maxX: 900, maxY: 1000)),
      Self.block("right-1", PixelRect(minX: 1100, minY: 100, maxX: 1900, maxY: 1000)),
    ]
    let bottom = [
      Self.block("left-2", PixelRect(minX: 100, minY: 1200, maxX: 900, maxY: 2000)),
      Self.block("right-2", PixelRect(minX: 1100, minY: 1200, maxX: 1900, maxY: 2000)),
    ]
    let joined = OCREngine.joined(top: top, bottom: bottom)
    #expect(
      joined.map { $0.paragraphs[0].lines[0].words[0].text } == [
        "left-1", "left-2", "right-1", "right-2",
      ])
  }

  /// headings-9000: the cut under a paragraph's short last line (a block
  /// of its own in the top part); the heading centred below goes in after
  /// that line, not after the paragraph it shares more width with.
  @Test func aHeadingBelowTheCutGoesInAfterTheTopsLastLine() {
    let top = [
      Self.block("paragraph", PixelRect(minX: 180, minY: 1110, maxX: 1770, maxY: 1313)),
      Self.block("short-line", PixelRect(minX: 181, minY: 1358, maxX: 905, maxY: 1401)),
    ]
    let bottom = [
      Self.block("heading", PixelRect(minX: 647, minY: 1469, maxX: 1302, maxY: 1517)),
      Self.block("text", PixelRect(minX: 180, minY: 1552, maxX: 1770, maxY: 1821)),
    ]
    let joined = OCREngine.joined(top: top, bottom: bottom)
    #expect(
      joined.map { $0.paragraphs[0].lines[0].words[0].text } == [
        "paragraph", "short-line", "heading", "text",
      ])
  }

  /// article.png's widest band runs through its three columns, which go
  /// on below it: cut there, the columns' tops were read before their
  /// ends. The page is read whole, in the whole page's order.
  @Test func aPageWhoseColumnsGoOnAcrossTheBandIsReadWhole() throws {
    let engine = try Self.engine(threads: 2)
    let parts = try #require(try engine.recognize(contentsOf: Self.path("article.png")).first)
    #expect(engine.partners.isEmpty)
    let whole = try #require(
      try Self.engine(threads: 1).recognize(contentsOf: Self.path("article.png")).first)
    #expect(parts.text == whole.text)
    #expect(parts.blocks.map(\.bbox) == whole.blocks.map(\.bbox))
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
