import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// `OCREngine.readsAhead`: a page is read on a second thread while it is
/// prepared; the result is the same as without, kept only when the
/// preparation leaves the page unchanged.
@Suite("Reading ahead")
struct ReadingAheadTests {
  static func read(_ name: String, ahead: Bool, engine: OCREngine? = nil) throws -> (
    Page, OCREngine
  ) {
    let engine = try engine ?? OCREngine()
    engine.readsAhead = ahead
    let path = Fixtures.scans.appendingPathComponent(name).path
    let pages = try engine.recognize(contentsOf: path)
    return (try #require(pages.first), engine)
  }

  @Test("An unchanged page keeps the reading started ahead, and reads the same")
  func unchangedPageKeepsTheReading() throws {
    let (plain, _) = try Self.read("clean.png", ahead: false)
    let (ahead, engine) = try Self.read("clean.png", ahead: true)
    #expect(plain.preprocessing.isEmpty, "clean.png needs no step")
    #expect(engine.readingsAhead.kept == 1)
    #expect(engine.readingsAhead.cancelled == 0)
    #expect(ahead == plain)
  }

  @Test(
    "A page a step changes cancels the reading ahead and reads the prepared page",
    arguments: ["skew-plus7.png", "speckle.png", "rotated-90.png", "uneven-light.png"])
  func changedPageCancelsTheReading(_ name: String) throws {
    let (plain, _) = try Self.read(name, ahead: false)
    let (ahead, engine) = try Self.read(name, ahead: true)
    #expect(!plain.preprocessing.isEmpty, "\(name) is prepared")
    #expect(engine.readingsAhead.kept == 0)
    #expect(engine.readingsAhead.cancelled == 1)
    #expect(ahead == plain)
  }

  @Test("One engine reads ahead page after page, kept or cancelled, always with fresh results")
  func engineIsReusedAfterReadingAhead() throws {
    let engine = try OCREngine()
    for name in ["skew-plus7.png", "clean.png", "rotated-90.png", "clean.png"] {
      let (ahead, _) = try Self.read(name, ahead: true, engine: engine)
      let (plain, _) = try Self.read(name, ahead: false)
      #expect(ahead == plain, "\(name)")
    }
    #expect(engine.readingsAhead.kept == 2)
    #expect(engine.readingsAhead.cancelled == 2)
  }

  @Test("A page past its deadline times out when read ahead, and the engine reads on")
  func deadlineHoldsWhenReadingAhead() throws {
    let engine = try OCREngine(options: RecognitionOptions(timeout: 0.001))
    engine.readsAhead = true
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    // Twice: the first reading ahead is settled before the engine is used again.
    for _ in 0..<2 {
      #expect {
        _ = try engine.recognize(contentsOf: path)
      } throws: { error in
        guard case .timedOut = error as? OCRError else { return false }
        return true
      }
    }
  }
}
