import Testing

@testable import ScanModel

@Suite("Uncertain words")
struct UncertainWordsTests {
  /// "Die StraBe ist lang\nund breit.\n" with confidences 95, 31, 90, 59.9
  /// on the first line, none and 60 on the second.
  let page: Page = {
    let base = PageFixtures.page([["Die StraBe ist lang", "und breit."]])
    let confidences: [[Double?]] = [[95, 31, 90, 59.9], [nil, 60]]
    var blocks = base.blocks
    for l in blocks[0].paragraphs[0].lines.indices {
      for w in blocks[0].paragraphs[0].lines[l].words.indices {
        blocks[0].paragraphs[0].lines[l].words[w].confidence = confidences[l][w]
      }
    }
    return Page(width: base.width, height: base.height, blocks: blocks)
  }()

  @Test func wordsBelowAThreshold() {
    #expect(page.words(withConfidenceBelow: 60).map(\.text) == ["StraBe", "lang"])
    #expect(page.words(withConfidenceBelow: 60.01).map(\.text) == ["StraBe", "lang", "breit."])
    #expect(page.words(withConfidenceBelow: 0).isEmpty)
    // Words without a confidence are never uncertain.
    #expect(!page.words(withConfidenceBelow: 101).map(\.text).contains("und"))
    let straBe = page.words(withConfidenceBelow: 60)[0]
    #expect(straBe.confidence == 31)
    #expect(straBe.range.offsets == 4..<10)
    #expect(straBe.bbox == PixelRect(minX: 140, minY: 100, maxX: 200, maxY: 120))
  }

  @Test func theRotorStepsForwardAndBack() {
    func next(_ p: Int) -> String? {
      page.nextUncertainWord(after: TextPosition(offset: p), threshold: 60)?.text
    }
    func previous(_ p: Int) -> String? {
      page.previousUncertainWord(before: TextPosition(offset: p), threshold: 60)?.text
    }
    #expect(next(0) == "StraBe")
    #expect(next(4) == "StraBe")
    #expect(next(5) == "lang")
    #expect(next(10) == "lang")
    #expect(next(19) == nil)
    #expect(previous(31) == "lang")
    #expect(previous(19) == "lang")
    #expect(previous(18) == "StraBe")
    #expect(previous(10) == "StraBe")
    #expect(previous(9) == nil)
    #expect(next(-1) == nil)
    #expect(previous(999) == nil)
    // Stepping with the ends of the current word visits each once.
    var visited: [String] = []
    var p = page.startPosition
    while let w = page.nextUncertainWord(after: p, threshold: 60) {
      visited.append(w.text)
      p = w.range.upperBound
    }
    #expect(visited == ["StraBe", "lang"])
  }
}
