import Testing

@testable import ScanModel

@Suite("Page text and ranges")
struct PageTextTests {
  @Test func textIsJoinedAsTesseractJoinsIt() {
    let page = PageFixtures.sample
    #expect(
      page.text
        == "The quick brown fox.\nDr. Smith can't e-mail 3.14 people.\n\nSecond paragraph, here!\n")
  }

  @Test func everyElementRangeSlicesItsText() throws {
    let page = PageFixtures.sample
    for block in page.blocks {
      for paragraph in block.paragraphs {
        for line in paragraph.lines {
          #expect(page.text(in: line.range) == line.text)
          for word in line.words {
            #expect(page.text(in: word.range) == word.text)
            for glyph in word.glyphs { #expect(page.text(in: glyph.range) == glyph.text) }
          }
        }
      }
    }
    #expect(page.text(in: page.blocks[0].paragraphs[1].range) == "Second paragraph, here!")
  }

  @Test func rangesUseUTF16AndGraphemes() throws {
    let page = PageFixtures.page([["naïve café 😀x e\u{301}t"]])
    let words = page.words
    #expect(words.map(\.range.offsets) == [0..<5, 6..<10, 11..<14, 15..<18])
    #expect(page.text(in: page.range(11..<13)) == "😀")
    // Character navigation never splits the surrogate pair or the combining sequence.
    #expect(page.position(from: page.pos(11), offsetByCharacters: 1) == page.pos(13))
    #expect(page.position(from: page.pos(15), offsetByCharacters: 1) == page.pos(17))
    #expect(page.position(from: page.pos(17), offsetByCharacters: -1) == page.pos(15))
  }

  @Test func positionsOutsideTheTextAreRejected() {
    let page = PageFixtures.sample
    let end = page.endPosition
    #expect(page.position(from: end, offset: 1) == nil)
    #expect(page.position(from: page.startPosition, offset: -1) == nil)
    #expect(page.position(from: end, offset: -3) == page.pos(end.offset - 3))
    #expect(page.text(in: page.range(0..<(end.offset + 1))) == nil)
    #expect(page.textRange(from: page.pos(5), to: page.pos(2)) == page.range(2..<5))
    #expect(page.textRange(from: page.pos(-1), to: page.pos(2)) == nil)
    #expect(page.offset(from: page.pos(3), to: page.pos(10)) == 7)
  }

  @Test func consecutiveRangesConcatenateToThePageText() {
    let page = PageFixtures.sample
    let n = page.endPosition.offset
    for step in [1, 3, 7] {
      var joined = ""
      var s = 0
      while s < n {
        let e = min(n, s + step)
        joined += page.text(in: page.range(s..<e)) ?? "<nil>"
        s = e
      }
      #expect(joined == page.text)
    }
  }

  @Test func textInRectTakesWordsMostlyInside() {
    let page = PageFixtures.sample
    // Line 0 spans y 100..<120; "quick" is x 140..<190.
    #expect(page.text(in: Rect(minX: 135, minY: 95, maxX: 195, maxY: 125)) == "quick")
    // Less than half of "brown" (200..<250) inside: not taken.
    #expect(page.text(in: Rect(minX: 135, minY: 95, maxX: 220, maxY: 125)) == "quick")
    // Two lines.
    #expect(
      page.text(in: Rect(minX: 0, minY: 0, maxX: 250, maxY: 155))
        == "The quick brown\nDr. Smith can't")
    #expect(page.words(in: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)).isEmpty)
  }

  @Test func emptyPageHasNoText() {
    let page = PageFixtures.page([])
    #expect(page.text == "")
    #expect(page.lineCount == 0)
    #expect(page.closestPosition(to: Point(x: 5, y: 5)) == page.startPosition)
    #expect(page.characterRange(at: Point(x: 5, y: 5)) == nil)
    #expect(page.selectionRects(for: page.documentRange).isEmpty)
    #expect(page.caretRect(for: page.startPosition) == nil)
    for g in TextGranularity.allCases {
      #expect(
        page.rangeEnclosingPosition(page.startPosition, with: g, inDirection: .forward) == nil)
      #expect(page.position(from: page.startPosition, toBoundary: g, inDirection: .forward) == nil)
      #expect(page.position(from: page.startPosition, toBoundary: g, inDirection: .backward) == nil)
    }
    #expect(page.verify().passed)
  }

  @Test func linesWithoutWordsAreDropped() {
    let empty = TextLine(bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10), words: [])
    let page = Page(
      width: 100, height: 100,
      blocks: [
        Block(
          bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10),
          paragraphs: [
            Paragraph(bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10), lines: [empty])
          ])
      ])
    #expect(page.blocks.isEmpty)
    #expect(page.text == "")
  }
}
