import Foundation
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// The library example of the README, run on a sample scan.
@Suite("README example")
struct ReadmeExampleTests {
  @Test func theExampleRunsAndFindsTheTappedWord() throws {
    let engine = try OCREngine(options: RecognitionOptions(languages: ["eng"]))
    let page = try engine.recognize(
      contentsOf: Fixtures.scans.appendingPathComponent("clean.png").path)[0]
    let target = try #require(page.words.dropFirst(3).first)

    let tap = target.bbox.center  // image pixels
    let caret = page.closestPosition(to: tap)
    let word = try #require(
      page.rangeEnclosingPosition(caret, with: .word, inDirection: .forward)
        ?? page.rangeEnclosingPosition(caret, with: .word, inDirection: .backward))
    let highlight = page.selectionRects(for: word)
    #expect(page.text(in: word) == target.text.trimmingCharacters(in: .punctuationCharacters))
    #expect(highlight.count == 1)
    var read: [String] = []
    for line in 0..<page.lineCount {
      if let frame = page.frame(forLineNumber: line), let text = page.content(forLineNumber: line) {
        #expect(frame.area > 0)
        read.append(text)
      }
    }
    #expect(read.joined(separator: " ").contains(target.text))
  }
}
