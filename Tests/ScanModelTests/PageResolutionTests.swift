import ScanModel
import Testing

/// The resolution recorded for a page (issue 26 point 4): the option, a
/// credible tag, else an estimate from the body text's x-height, never a
/// page over 20 inches a side unless a tag says so.
@Suite("Page resolution")
struct PageResolutionTests {
  /// A body paragraph of `count` letters "o", "n", "e" (no ascender, no
  /// descender) `xHeight` pixels tall, in words of three, and an "h" and a
  /// "g" in each word that do not count.
  static func body(letters count: Int, xHeight: Int, confidence: Double = 90) -> [Block] {
    var words: [Word] = []
    var x = 0
    for w in 0..<(count / 3) {
      var glyphs: [Glyph] = []
      for letter in ["o", "n", "e", "h", "g"] {
        let tall = letter == "h" ? xHeight / 2 : 0
        let deep = letter == "g" ? xHeight / 2 : 0
        glyphs.append(
          Glyph(
            text: letter,
            bbox: PixelRect(
              minX: x, minY: 100 - tall, maxX: x + xHeight, maxY: 100 + xHeight + deep)
          ))
        x += xHeight + 2
      }
      let box = PixelRect.union(glyphs.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
      words.append(
        Word(text: "onehg", bbox: box, confidence: w == 0 ? 10 : confidence, glyphs: glyphs))
      x += xHeight
    }
    let box = PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return [
      Block(
        bbox: box, paragraphs: [Paragraph(bbox: box, lines: [TextLine(bbox: box, words: words)])])
    ]
  }

  @Test func optionThenCredibleTagThenEstimate() {
    let blocks = Self.body(letters: 60, xHeight: 21)
    #expect(
      PageResolution.resolve(option: 200, tag: 300, blocks: blocks, width: 2550, height: 3300)
        == (200, .option))
    #expect(
      PageResolution.resolve(option: nil, tag: 300, blocks: blocks, width: 2550, height: 3300)
        == (300, .tag))
    // 21 px of x-height at 5.2 points: 291 dpi.
    for tag in [nil, 72, 96, 99, 2401] as [Int?] {
      let r = PageResolution.resolve(
        option: nil, tag: tag, blocks: blocks, width: 2550, height: 3300)
      #expect(r.source == .estimated && r.dpi == 291, "tag \(String(describing: tag)): \(r)")
    }
    #expect(
      PageResolution.resolve(option: nil, tag: 100, blocks: [], width: 425, height: 550)
        == (100, .tag))
    #expect(
      PageResolution.resolve(option: nil, tag: 2400, blocks: [], width: 425, height: 550)
        == (2400, .tag))
  }

  @Test func xHeightIsTheMedianOfLettersWithoutAscendersOrDescenders() {
    // The first word (confidence 10) and the h and g of every word are left out.
    #expect(PageResolution.bodyXHeight(of: Self.body(letters: 60, xHeight: 30)) == 30)
    // Too few letters to measure.
    #expect(PageResolution.bodyXHeight(of: Self.body(letters: 21, xHeight: 30)) == nil)
    // Headings are not body text.
    var heading = Self.body(letters: 60, xHeight: 30)
    heading[0].paragraphs[0].role = .heading
    #expect(PageResolution.bodyXHeight(of: heading) == nil)
  }

  /// Too little text: 300 dpi; an estimate or the fallback never makes a
  /// page over 20 inches a side.
  @Test func noPageOverTwentyInchesUnlessTheTagSays() {
    #expect(
      PageResolution.resolve(option: nil, tag: nil, blocks: [], width: 2550, height: 3300)
        == (300, .estimated))
    #expect(
      PageResolution.resolve(option: nil, tag: 72, blocks: [], width: 9000, height: 600)
        == (450, .estimated))
    // Tiny letters for the page (a 3264-pixel photo with 5-pixel x-height
    // would be 69 dpi, 47 inches): raised to 164 dpi, 19.9 inches.
    let tiny = Self.body(letters: 60, xHeight: 5)
    #expect(
      PageResolution.resolve(option: nil, tag: 72, blocks: tiny, width: 3264, height: 2448)
        == (164, .estimated))
    // A credible tag may say more: a map scanned at 600 dpi.
    #expect(
      PageResolution.resolve(option: nil, tag: 600, blocks: [], width: 20000, height: 15000)
        == (600, .tag))
    // Huge letters: at most 2,400 dpi.
    let huge = Self.body(letters: 60, xHeight: 400)
    #expect(
      PageResolution.resolve(option: nil, tag: nil, blocks: huge, width: 3000, height: 3000).dpi
        == 2400)
  }

  /// A writer sizes a page by its dpi, else by the fallback within 20 inches.
  @Test func writersUseTheRecordedResolution() {
    #expect(
      PageResolution.resolution(of: Page(width: 850, height: 1100, dpi: 100, blocks: [])) == 100)
    #expect(PageResolution.resolution(of: Page(width: 2550, height: 3300, blocks: [])) == 300)
    #expect(PageResolution.resolution(of: Page(width: 12000, height: 3300, blocks: [])) == 600)
  }
}
