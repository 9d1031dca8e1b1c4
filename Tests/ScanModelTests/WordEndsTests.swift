import Testing

@testable import ScanModel

/// ``WordEnds``: a space Tesseract read at a word's end is no part of it.
@Suite("Spaces at words' ends")
struct WordEndsTests {
  /// "committee every outlives." as Tesseract read it on the browser-set
  /// newsletter page `nknewsletter-2`: the last word with a space glyph one
  /// pixel wide before it (its TSV: `1428 803 170 33 53.28 " outlives."`).
  static var blocks: [Block] {
    func glyphs(_ text: String, x: Int) -> [Glyph] {
      text.enumerated().map { k, c in
        Glyph(
          text: String(c),
          bbox: PixelRect(minX: x + 20 * k, minY: 803, maxX: x + 20 * k + 18, maxY: 836),
          confidence: 99)
      }
    }
    func word(_ text: String, x: Int) -> Word {
      Word(
        text: text, bbox: PixelRect(minX: x, minY: 803, maxX: x + 20 * text.count - 2, maxY: 836),
        confidence: 90, glyphs: glyphs(text, x: x))
    }
    var outlives = word("outlives.", x: 1428)
    outlives.text = " outlives."
    outlives.glyphs.insert(
      Glyph(
        text: " ", bbox: PixelRect(minX: 1428, minY: 803, maxX: 1429, maxY: 836), confidence: 97),
      at: 0)
    let words = [word("committee", x: 950), word("every", x: 1243), outlives]
    let box = PixelRect.union(words.map(\.bbox)) ?? outlives.bbox
    return [
      Block(
        bbox: box, paragraphs: [Paragraph(bbox: box, lines: [TextLine(bbox: box, words: words)])])
    ]
  }

  @Test func theSpaceBeforeAWordGoesWithItsGlyph() {
    let page = Page(width: 2550, height: 3300, blocks: WordEnds.trimming(Self.blocks))
    #expect(page.text == "committee every outlives.\n")
    let last = page.blocks.first?.paragraphs.first?.lines.first?.words.last
    #expect(last?.text == "outlives.")
    #expect(last?.glyphs.map(\.text).joined() == "outlives.")
    #expect(last?.range == TextRange(offsets: 16..<25))
    #expect(page.verify().passed)
    // Without the rule, the page's text has two spaces in one gap.
    #expect(
      Page(width: 2550, height: 3300, blocks: Self.blocks).text == "committee every  outlives.\n")
  }

  @Test func spacesAfterAWordAndWordsWithoutGoUnchanged() {
    var blocks = Self.blocks
    blocks[0].paragraphs[0].lines[0].words[0].text = "committee\u{00A0} "
    let trimmed = WordEnds.trimming(blocks)
    let words = trimmed[0].paragraphs[0].lines[0].words
    #expect(words.map(\.text) == ["committee", "every", "outlives."])
    #expect(words[1] == Self.blocks[0].paragraphs[0].lines[0].words[1])
    // A word of nothing but spaces is the reader's to leave out, not this
    // rule's to empty.
    let blank = Word(
      text: "  ", bbox: PixelRect(minX: 0, minY: 0, maxX: 2, maxY: 9), confidence: 10, glyphs: [])
    #expect(WordEnds.trimmed(blank).text == "  ")
  }
}
