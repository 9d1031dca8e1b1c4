import Testing

@testable import ScanModel

/// Offsets in `PageFixtures.sample`:
/// "The quick brown fox.\nDr. Smith can't e-mail 3.14 people.\n\nSecond paragraph, here!\n\n"
///  0   4     10    16  20 21  25    31    37     44   49     56 58     65         76    81 82
@Suite("Tokenizer")
struct TokenizerTests {
  let page = PageFixtures.sample

  func enclosing(_ p: Int, _ g: TextGranularity, _ d: TextDirection = .forward) -> Range<Int>? {
    page.rangeEnclosingPosition(page.pos(p), with: g, inDirection: d)?.offsets
  }

  func next(_ p: Int, _ g: TextGranularity, _ d: TextDirection) -> Int? {
    page.position(from: page.pos(p), toBoundary: g, inDirection: d)?.offset
  }

  @Test func wordsAsAReaderSeesThem() {
    #expect(enclosing(5, .word) == 4..<9)
    #expect(page.text(in: page.range(enclosing(17, .word) ?? 0..<0)) == "fox")
    #expect(page.text(in: page.range(enclosing(22, .word) ?? 0..<0)) == "Dr")
    #expect(page.text(in: page.range(enclosing(32, .word) ?? 0..<0)) == "can't")
    #expect(page.text(in: page.range(enclosing(40, .word) ?? 0..<0)) == "e-mail")
    #expect(page.text(in: page.range(enclosing(45, .word) ?? 0..<0)) == "3.14")
    #expect(page.text(in: page.range(enclosing(70, .word) ?? 0..<0)) == "paragraph")
  }

  @Test func wordEdgesDependOnDirection() {
    // At the start of "quick": forward encloses it, backward sees the space.
    #expect(enclosing(4, .word, .forward) == 4..<9)
    #expect(enclosing(4, .word, .backward) == nil)
    // At its end: the reverse.
    #expect(enclosing(9, .word, .forward) == nil)
    #expect(enclosing(9, .word, .backward) == 4..<9)
    // Between "fox" and its period.
    #expect(enclosing(19, .word, .forward) == nil)
    #expect(enclosing(19, .word, .backward) == 16..<19)
    #expect(page.isPosition(page.pos(9), atBoundary: .word, inDirection: .forward))
    #expect(!page.isPosition(page.pos(9), atBoundary: .word, inDirection: .backward))
    #expect(page.isPosition(page.pos(4), atBoundary: .word, inDirection: .backward))
    #expect(!page.isPosition(page.pos(5), atBoundary: .word, inDirection: .forward))
    #expect(page.isPosition(page.pos(5), withinTextUnit: .word, inDirection: .forward))
    #expect(!page.isPosition(page.pos(3), withinTextUnit: .word, inDirection: .forward))
    #expect(page.isPosition(page.pos(3), withinTextUnit: .word, inDirection: .backward))
  }

  @Test func movingByWords() {
    #expect(next(5, .word, .forward) == 9)
    #expect(next(9, .word, .forward) == 15)
    #expect(next(3, .word, .forward) == 9)
    #expect(next(9, .word, .backward) == 4)
    #expect(next(4, .word, .backward) == 0)
    #expect(next(0, .word, .backward) == nil)
    #expect(next(80, .word, .forward) == nil)
    #expect(next(82, .word, .forward) == nil)
    #expect(next(82, .word, .backward) == 76)
    #expect(next(5, .word, .layout(.right)) == 9)
    #expect(next(5, .word, .layout(.left)) == 4)
  }

  @Test func sentencesRunAcrossLinesAndSkipAbbreviations() {
    #expect(enclosing(5, .sentence) == 0..<20)
    #expect(
      page.text(in: page.range(enclosing(22, .sentence) ?? 0..<0))
        == "Dr. Smith can't e-mail 3.14 people.")
    #expect(enclosing(60, .sentence) == 58..<81)
    #expect(next(5, .sentence, .forward) == 20)
    #expect(next(20, .sentence, .forward) == 56)
    #expect(next(58, .sentence, .backward) == 21)
    let wrapped = PageFixtures.page([["It runs across", "two lines. Then ends."]])
    #expect(
      wrapped.rangeEnclosingPosition(wrapped.pos(3), with: .sentence, inDirection: .forward)?
        .offsets == 0..<25)
  }

  @Test func linesParagraphsAndDocument() {
    #expect(enclosing(5, .line) == 0..<20)
    #expect(enclosing(20, .line, .forward) == nil)
    #expect(enclosing(20, .line, .backward) == 0..<20)
    #expect(next(5, .line, .forward) == 20)
    #expect(next(20, .line, .forward) == 56)
    #expect(next(21, .line, .backward) == 0)
    #expect(enclosing(30, .paragraph) == 0..<56)
    #expect(enclosing(57, .paragraph) == nil)
    #expect(enclosing(60, .paragraph) == 58..<81)
    #expect(next(30, .paragraph, .forward) == 56)
    #expect(next(56, .paragraph, .forward) == 81)
    #expect(enclosing(40, .document) == 0..<82)
    #expect(next(40, .document, .forward) == 82)
    #expect(next(40, .document, .backward) == 0)
    #expect(next(0, .document, .backward) == nil)
    #expect(page.isPosition(page.endPosition, atBoundary: .document, inDirection: .forward))
  }

  @Test func charactersAreGraphemeClusters() {
    let emoji = PageFixtures.page([["a😀b e\u{301}"]])
    #expect(
      emoji.rangeEnclosingPosition(emoji.pos(1), with: .character, inDirection: .forward)?.offsets
        == 1..<3)
    #expect(
      emoji.rangeEnclosingPosition(emoji.pos(3), with: .character, inDirection: .backward)?.offsets
        == 1..<3)
    #expect(
      emoji.position(from: emoji.pos(1), toBoundary: .character, inDirection: .forward)?.offset == 3
    )
    #expect(
      emoji.position(from: emoji.pos(7), toBoundary: .character, inDirection: .backward)?.offset
        == 5)
    #expect(!emoji.isPosition(emoji.pos(2), atBoundary: .character, inDirection: .forward))
    #expect(
      emoji.rangeEnclosingPosition(emoji.pos(4), with: .character, inDirection: .forward)?.offsets
        == 4..<5)
  }

  @Test func upAndDownKeepTheCaretX() {
    // Offset 6 is after "qu" at x = 160; on line 1 that is inside "Smith" (140..<190).
    #expect(next(6, .line, .layout(.down)) == 27)
    #expect(next(27, .line, .layout(.down)) == 64)
    #expect(next(64, .line, .layout(.down)) == 82)
    #expect(next(82, .line, .layout(.down)) == nil)
    #expect(next(27, .line, .layout(.up)) == 6)
    #expect(next(6, .line, .layout(.up)) == 0)
    #expect(next(0, .line, .layout(.up)) == nil)
    // With paragraph granularity, up and down mean backward and forward.
    #expect(next(30, .paragraph, .layout(.down)) == 56)
  }

  @Test func steppingForwardThenBackwardReturnsToTheStart() {
    for g in [TextGranularity.word, .sentence, .line, .paragraph, .character] {
      var p = 0
      while let e = next(p, g, .forward) {
        if page.isPosition(page.pos(p), atBoundary: g, inDirection: .backward) {
          #expect(next(e, g, .backward) == p, "\(g) from \(p)")
        }
        p = e
      }
      #expect(p == page.endPosition.offset || g != .character)
    }
  }

  @Test func enclosingWordOfEveryPositionInsideAWordIsThatWord() {
    for w in page.layout.readerWords {
      for p in w.lowerBound..<w.upperBound {
        #expect(enclosing(p, .word) == w)
      }
    }
  }

  @Test func positionsOutsideThePageGiveNil() {
    for g in TextGranularity.allCases {
      #expect(page.rangeEnclosingPosition(page.pos(-1), with: g, inDirection: .forward) == nil)
      #expect(page.position(from: page.pos(999), toBoundary: g, inDirection: .backward) == nil)
      #expect(!page.isPosition(page.pos(999), atBoundary: g, inDirection: .forward))
    }
  }
}
