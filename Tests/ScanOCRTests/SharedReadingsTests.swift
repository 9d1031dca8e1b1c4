import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A ruled table's cells shared between two engines on two threads
/// (``RecognitionOptions/cores``): the page reads exactly as on one engine,
/// every time.
@Suite("A table's cells on two engines")
struct SharedReadingsTests {
  static func engine(cores: Int) throws -> OCREngine {
    var options = RecognitionOptions()
    options.cores = cores
    return try OCREngine(options: options)
  }

  static func json(_ page: Page) -> String {
    DocumentJSON.encode(
      Document(pages: [page]), generator: Generator(name: "test", version: "0"))
  }

  static let ruledTable = Fixtures.scans.appendingPathComponent("ruled-table.png").path

  /// The ruled table read on one engine and on two: the same JSON (text,
  /// boxes, cells), and the second engine was used.
  @Test func aRuledTableReadsTheSameOnOneEngineAndOnTwo() throws {
    let one = try Self.engine(cores: 1)
    let alone = try #require(try one.recognize(contentsOf: Self.ruledTable).first)
    #expect(one.partners.isEmpty, "one core: no second engine")
    let two = try Self.engine(cores: 2)
    let shared = try #require(try two.recognize(contentsOf: Self.ruledTable).first)
    #expect(two.partners.count == 1, "two cores: the cells were shared with a second engine")
    #expect(!alone.blocks.isEmpty)
    #expect(Self.json(shared) == Self.json(alone))
  }

  /// Five readings on two engines (the partner kept from page to page):
  /// the same JSON each time, whichever engine took which cell.
  @Test func repeatedReadingsOnTwoEnginesAreTheSame() throws {
    let two = try Self.engine(cores: 2)
    let first = try #require(try two.recognize(contentsOf: Self.ruledTable).first)
    let expected = Self.json(first)
    for run in 2...5 {
      let page = try #require(try two.recognize(contentsOf: Self.ruledTable).first)
      #expect(Self.json(page) == expected, "run \(run) differs from the first")
    }
    #expect(two.partners.count == 1)
  }

  /// Parts shared out by number: every part read once, in its place,
  /// whatever the threads' timing; none started past the deadline.
  @Test func everyPartIsReadOnceInItsPlace() throws {
    let engine = try Self.engine(cores: 2)
    let readings = try engine.sharedReadings(
      count: 200, index: 0, path: "parts", started: Date(), setUp: { _ in },
      read: { _, part in part * part })
    #expect(readings == (0..<200).map { $0 * $0 })
    var options = RecognitionOptions(timeout: 1)
    options.cores = 2
    let timed = try OCREngine(options: options)
    #expect(throws: OCRError.self) {
      try timed.sharedReadings(
        count: 3, index: 0, path: "parts", started: Date(timeIntervalSinceNow: -2),
        setUp: { _ in }, read: { _, part in part })
    }
  }
}
