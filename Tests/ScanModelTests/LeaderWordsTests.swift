import Testing

@testable import ScanModel

/// ``LeaderWords``: what OCR read over leaders goes, what it read beside
/// them stays.
@Suite("Words read over leaders")
struct LeaderWordsTests {
  /// A word whose glyphs are 20 px wide, from `x`, on a line 470–500.
  static func word(_ text: String, x: Int) -> Word {
    let glyphs = text.enumerated().map { k, c in
      Glyph(
        text: String(c),
        bbox: PixelRect(minX: x + 20 * k, minY: 470, maxX: x + 20 * k + 18, maxY: 500),
        confidence: 80)
    }
    return Word(
      text: text, bbox: PixelRect(minX: x, minY: 470, maxX: x + 20 * text.count - 2, maxY: 500),
      confidence: 80, glyphs: glyphs)
  }

  static func blocks(_ words: [Word]) -> [Block] {
    let box = PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return [
      Block(
        bbox: box, paragraphs: [Paragraph(bbox: box, lines: [TextLine(bbox: box, words: words)])])
    ]
  }

  static func texts(_ blocks: [Block]) -> [String] {
    blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.text)
  }

  /// The leader between x = 400 and 900 on the line's baseline.
  static let leader = PixelRect(minX: 400, minY: 494, maxX: 900, maxY: 500)

  @Test func junkReadOverALeaderGoes() {
    let words = [
      Self.word("1.1", x: 100), Self.word("Scope", x: 180), Self.word("-----", x: 420),
      Self.word("cece", x: 600), Self.word("eee", x: 800), Self.word("12", x: 920),
    ]
    let kept = LeaderWords.removing(from: Self.blocks(words), leaders: [Self.leader])
    #expect(Self.texts(kept) == ["1.1", "Scope", "12"])
  }

  @Test func dotsGluedToAWordAreCutOff() {
    // "Document....." read as one word running into the leader, and a
    // word both sides of it ("2.....9").
    let words = [Self.word("Document.....", x: 240), Self.word("7...9", x: 860)]
    let kept = LeaderWords.removing(from: Self.blocks(words), leaders: [Self.leader])
    #expect(Self.texts(kept) == ["Document", "..9"])
    let first = kept[0].paragraphs[0].lines[0].words[0]
    #expect(first.bbox == PixelRect(minX: 240, minY: 470, maxX: 398, maxY: 500))
    #expect(first.glyphs.count == 8)
  }

  @Test func wordsOnOtherLinesAndPagesWithoutLeadersStay() {
    var above = Self.word("Contents", x: 420)
    above.bbox = PixelRect(minX: 420, minY: 300, maxX: 578, maxY: 330)
    above.glyphs = []
    let blocks = Self.blocks([above])
    #expect(LeaderWords.removing(from: blocks, leaders: [Self.leader]) == blocks)
    let line = Self.blocks([Self.word("-----", x: 420)])
    #expect(LeaderWords.removing(from: line, leaders: []) == line)
    #expect(LeaderWords.removing(from: line, leaders: [Self.leader]).isEmpty)
  }
}
