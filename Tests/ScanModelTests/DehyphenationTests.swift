import ScanModel
import Testing

/// Builds a one-paragraph page with the public initializer only: every
/// character 10 px wide, lines 30 px apart, starting at (100, 100).
private func publicPage(_ paragraphs: [[String]]) -> Page {
  var y = 100
  var built: [Paragraph] = []
  for lines in paragraphs {
    var textLines: [TextLine] = []
    for line in lines {
      var x = 100
      var words: [Word] = []
      for token in line.split(separator: " ") {
        let width = 10 * token.count
        words.append(
          Word(
            text: String(token), bbox: PixelRect(minX: x, minY: y, maxX: x + width, maxY: y + 20),
            confidence: 90))
        x += width + 10
      }
      let box = PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
      textLines.append(TextLine(bbox: box, words: words))
      y += 30
    }
    y += 30
    let box =
      PixelRect.union(textLines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    built.append(Paragraph(bbox: box, lines: textLines))
  }
  let box = PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
  return Page(width: 1000, height: 1000, blocks: [Block(bbox: box, paragraphs: built)])
}

private func wordRange(_ page: Page, _ offset: Int) -> Range<Int>? {
  page.rangeEnclosingPosition(TextPosition(offset: offset), with: .word, inDirection: .forward)?
    .offsets
}

private func offset(_ page: Page, of needle: String) -> Int {
  let units = Array(page.text.utf16)
  let n = Array(needle.utf16)
  for i in 0...(units.count - n.count) where Array(units[i..<(i + n.count)]) == n { return i }
  return -1
}

@Suite("De-hyphenation")
struct DehyphenationTests {
  /// "Optical character recog-\nnition works.\n": "recog" at 18, the
  /// hyphen at 23, the line break at 24, "nition" at 25..<31.
  let page = publicPage([["Optical character recog-", "nition works."]])

  @Test func aHyphenatedWordIsOneWordForTheTokenizer() throws {
    #expect(page.text == "Optical character recog-\nnition works.\n")
    // Every position inside the two parts, the hyphen and the line break
    // included, is in the one word.
    for p in 18..<31 { #expect(wordRange(page, p) == 18..<31, "at \(p)") }
    #expect(
      page.rangeEnclosingPosition(TextPosition(offset: 31), with: .word, inDirection: .backward)?
        .offsets == 18..<31)
    #expect(page.text(in: TextRange(offsets: 18..<31)) == "recog-\nnition")
    // Moving by words steps over the whole word.
    #expect(
      page.position(from: TextPosition(offset: 18), toBoundary: .word, inDirection: .forward)
        == TextPosition(offset: 31))
    #expect(
      page.position(from: TextPosition(offset: 31), toBoundary: .word, inDirection: .backward)
        == TextPosition(offset: 18))
    #expect(
      page.isPosition(TextPosition(offset: 24), withinTextUnit: .word, inDirection: .forward))
    #expect(
      !page.isPosition(TextPosition(offset: 24), atBoundary: .word, inDirection: .forward))
  }

  @Test func theWordsSelectionHasOneRectPerLine() throws {
    let rects = page.selectionRects(for: TextRange(offsets: 18..<31))
    #expect(rects.map(\.lineNumber) == [0, 1])
    #expect(rects.map(\.range.offsets) == [18..<24, 25..<31])
    // "recog-" spans x 280..340 on the first line, "nition" 100..160 on the next.
    #expect(rects[0].rect.minX == 280 && rects[0].rect.maxX == 340)
    #expect(rects[0].rect.minY == 100 && rects[0].rect.maxY == 120)
    #expect(rects[1].rect.minX == 100 && rects[1].rect.maxX == 160)
    #expect(rects[1].rect.minY == 130 && rects[1].rect.maxY == 150)
    #expect(rects[0].containsStart && rects[1].containsEnd)
  }

  @Test func printedTextAndOffsetsDoNotChange() {
    #expect(page.lines.map(\.text) == ["Optical character recog-", "nition works."])
    #expect(page.lines.map(\.range.offsets) == [0..<24, 25..<38])
    #expect(page.words.map(\.text) == ["Optical", "character", "recog-", "nition", "works."])
    #expect(page.words[2].range.offsets == 18..<24)
  }

  @Test func theBreakIsReported() {
    #expect(
      page.hyphenBreaks == [
        HyphenBreak(
          hyphen: TextRange(offsets: 23..<24), gap: TextRange(offsets: 23..<25),
          word: TextRange(offsets: 18..<31), kind: .wordBreak)
      ])
  }

  @Test func spokenTextJoinsTheParts() {
    #expect(page.spokenText == "Optical character recognition works.\n")
    #expect(page.spokenText(in: TextRange(offsets: 18..<31)) == "recognition")
    // Only a range that holds the hyphen and reaches the next line joins.
    #expect(page.spokenText(in: TextRange(offsets: 18..<24)) == "recog-")
    #expect(page.spokenText(in: TextRange(offsets: 25..<31)) == "nition")
    #expect(page.spokenText(in: TextRange(offsets: 20..<27)) == "cogni")
    #expect(page.spokenText(in: TextRange(offsets: 0..<99)) == nil)
  }

  @Test func compoundsKeepTheirHyphen() {
    let page = publicPage([
      ["Send an e-", "mail to the well-", "known state-of-the-", "art lab of Jean-", "Paul."]
    ])
    #expect(page.hyphenBreaks.map(\.kind) == [.compound, .compound, .compound, .compound])
    #expect(
      page.spokenText == "Send an e-mail to the well-known state-of-the-art lab of Jean-Paul.\n")
    // Still one word each for the tokenizer, hyphen and line break included.
    let e = offset(page, of: "e-\nmail")
    #expect(wordRange(page, e) == e..<(e + 7))
    let state = offset(page, of: "state")
    #expect(
      page.text(in: TextRange(offsets: wordRange(page, state) ?? 0..<0)) == "state-of-the-\nart")
  }

  @Test func aWordBrokenOverThreeLinesIsOneWord() {
    let page = publicPage([["a super-", "cali-", "fragilistic word"]])
    let start = offset(page, of: "super")
    let end = offset(page, of: "fragilistic") + 11
    #expect(wordRange(page, start) == start..<end)
    #expect(wordRange(page, offset(page, of: "cali")) == start..<end)
    #expect(page.hyphenBreaks.count == 2)
    #expect(page.hyphenBreaks.allSatisfy { $0.word.offsets == start..<end })
    #expect(page.spokenText == "a supercalifragilistic word\n")
  }

  @Test func linesThatDoNotJoin() {
    // Another paragraph, a dash, a lone hyphen, a continuation that starts
    // with a bracket, an emoji before the hyphen, the last line.
    let page = publicPage([
      ["end of recog-"],
      ["nition here", "a word—", "next word -", "another recog-", "(nition 👍-", "x recog-"],
    ])
    #expect(page.hyphenBreaks.isEmpty)
    #expect(page.spokenText == page.text)
    let r = offset(page, of: "recog")
    #expect(wordRange(page, r) == r..<(r + 5))
  }

  @Test func softHyphenAndFrakturMarks() {
    let page = publicPage([
      ["des Men¬", "ſchen Unmu\u{364}n\u{AD}", "digkeit Donau⸗", "Dampfſchiff"]
    ])
    #expect(page.hyphenBreaks.map(\.kind) == [.wordBreak, .wordBreak, .compound])
    #expect(page.spokenText == "des Menſchen Unmu\u{364}ndigkeit Donau-Dampfſchiff\n")
    let u = offset(page, of: "Unmu")
    #expect(
      page.text(in: TextRange(offsets: wordRange(page, u) ?? 0..<0))
        == "Unmu\u{364}n\u{AD}\ndigkeit")
  }

  @Test func aHyphenReadAsAWordOfItsOwnJoinsWhenItTouches() throws {
    // "des Men -" / "ſchen": ground truths that tokenize punctuation give the
    // hyphen its own word, touching the word before.
    func line(_ words: [(String, Int, Int)], y: Int) -> TextLine {
      let ws = words.map {
        Word(text: $0.0, bbox: PixelRect(minX: $0.1, minY: y, maxX: $0.2, maxY: y + 20))
      }
      return TextLine(bbox: PixelRect.union(ws.map(\.bbox)) ?? ws[0].bbox, words: ws)
    }
    func page(hyphenAt x: Int) -> Page {
      let lines = [
        line([("des", 100, 130), ("Men", 140, 170), ("-", x, x + 8)], y: 100),
        line([("ſchen", 100, 150)], y: 130),
      ]
      let box = PixelRect(minX: 100, minY: 100, maxX: 200, maxY: 150)
      return Page(
        width: 300, height: 300,
        blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: lines)])])
    }
    let touching = page(hyphenAt: 170)
    #expect(touching.text == "des Men -\nſchen\n")
    let b = try #require(touching.hyphenBreaks.first)
    #expect(b.hyphen.offsets == 8..<9)
    #expect(b.gap.offsets == 7..<10)
    #expect(b.word.offsets == 4..<15)
    #expect(b.kind == .wordBreak)
    #expect(wordRange(touching, 5) == 4..<15)
    #expect(touching.spokenText == "des Menſchen\n")
    #expect(touching.findRanges("menschen", options: .caseInsensitive).map(\.offsets) == [4..<15])
    // A spaced hyphen (a dash) does not join.
    let spaced = page(hyphenAt: 180)
    #expect(spaced.hyphenBreaks.isEmpty)
    #expect(wordRange(spaced, 5) == 4..<7)
  }

  @Test func theBreakingRule() {
    func kind(_ mark: Character, _ before: String, _ after: String) -> HyphenBreak.Kind {
      Dehyphenation.kind(mark: mark, before: Substring(before), after: Substring(after))
    }
    func kind(_ before: String, _ after: String) -> HyphenBreak.Kind { kind("-", before, after) }
    #expect(kind("recog", "nition") == .wordBreak)
    #expect(kind("Men", "ſchen") == .wordBreak)
    #expect(kind("RECOG", "NITION") == .wordBreak)
    #expect(kind("\u{AD}", "Well", "known") == .wordBreak)
    #expect(kind("¬", "e", "mail") == .wordBreak)
    #expect(kind("e", "mail") == .compound)
    #expect(kind("well", "known") == .compound)
    #expect(kind("Self", "evident") == .compound)
    #expect(kind("state-of-the", "art") == .compound)
    #expect(kind("Jean", "Paul") == .compound)
    #expect(kind("anti", "Nazi") == .compound)
    #expect(kind("COVID", "19") == .compound)
    #expect(kind("MS", "dos") == .compound)
    #expect(kind("\u{2010}", "recog", "nition") == .wordBreak)
    #expect(kind("⸗", "Donau", "Dampfſchiff") == .compound)
  }
}
