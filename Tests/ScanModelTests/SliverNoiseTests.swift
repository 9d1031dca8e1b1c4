import Testing

@testable import ScanModel

/// Slivers of noise (issue 30: `boston-cooking-a`'s facing-page margin read
/// as words set down the page) leave the model; words set vertically, words
/// read with confidence and pages with too little text keep theirs.
@Suite("Sliver noise")
struct SliverNoiseTests {
  static func rect(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
    PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  /// A page of six lines of horizontal words 40 px tall (confidence 95)
  /// and, in its own block, the words given.
  static func page(with extra: [Word], orientation: Int = 0) -> Page {
    var lines: [TextLine] = []
    for k in 0..<6 {
      let y = 200 + 60 * k
      let words = (0..<3).map { i in
        Word(
          text: "word\(k)\(i)", bbox: rect(300 + 160 * i, y, 440 + 160 * i, y + 40), confidence: 95)
      }
      lines.append(TextLine(bbox: rect(300, y, 760, y + 40), words: words))
    }
    let body = Block(
      bbox: rect(300, 200, 760, 540),
      paragraphs: [Paragraph(bbox: rect(300, 200, 760, 540), lines: lines)])
    var blocks = [body]
    if !extra.isEmpty {
      let box = extra.map(\.bbox).reduce(extra[0].bbox) { $0.union($1) }
      blocks.append(
        Block(
          bbox: box, paragraphs: [Paragraph(bbox: box, lines: [TextLine(bbox: box, words: extra)])])
      )
    }
    let kept = SliverNoise.removing(from: blocks, orientation: orientation)
    return Page(width: 1000, height: 1000, orientation: orientation, blocks: kept)
  }

  @Test func aLowConfidenceStreakThinnerThanHalfTheTextIsDropped() {
    // `enc` in a 15 × 125 px streak at confidence 29 (text 40 px tall).
    let page = Self.page(with: [
      Word(text: "enc", bbox: Self.rect(20, 300, 35, 425), confidence: 29)
    ])
    #expect(!page.text.contains("enc"))
    #expect(page.blocks.count == 1)
    #expect(page.text.hasPrefix("word00 word01 word02"))
    #expect(page.verify().passed)
  }

  @Test func wordsThatAreNotSliversStay() {
    let kept = [
      // Set vertically, as thick as the text is tall.
      Word(text: "CONDITIONS", bbox: Self.rect(100, 200, 140, 480), confidence: 42),
      // A thin streak read with confidence.
      Word(text: "ll", bbox: Self.rect(900, 300, 910, 350), confidence: 80),
      // One character.
      Word(text: "l", bbox: Self.rect(880, 300, 884, 350), confidence: 10),
    ]
    for word in kept {
      let page = Self.page(with: [word])
      #expect(page.text.contains(word.text), "\(word.text)")
    }
  }

  @Test func aTurnedPageMeasuresAcrossItsOwnLines() {
    // On a page turned by 90°, its lines run down the image: a word 125 px
    // wide and 15 px tall in the image is a sliver across those lines, but
    // the page's own words (tall in the image) are not.
    var lines: [TextLine] = []
    for k in 0..<6 {
      let x = 200 + 60 * k
      let words = (0..<3).map { i in
        Word(
          text: "word\(k)\(i)", bbox: Self.rect(x, 300 + 160 * i, x + 40, 440 + 160 * i),
          confidence: 95)
      }
      lines.append(TextLine(bbox: Self.rect(x, 300, x + 40, 760), words: words))
    }
    let sliver = Word(text: "enc", bbox: Self.rect(300, 20, 425, 35), confidence: 29)
    let blocks = [
      Block(
        bbox: Self.rect(200, 300, 540, 760),
        paragraphs: [Paragraph(bbox: Self.rect(200, 300, 540, 760), lines: lines)]),
      Block(
        bbox: sliver.bbox,
        paragraphs: [
          Paragraph(bbox: sliver.bbox, lines: [TextLine(bbox: sliver.bbox, words: [sliver])])
        ]),
    ]
    let kept = SliverNoise.removing(from: blocks, orientation: 90)
    #expect(kept.count == 1)
    #expect(kept.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }.count == 18)
    // Upright, no word lies along the lines to measure the text by:
    // nothing is dropped.
    #expect(SliverNoise.removing(from: blocks, orientation: 0).count == 2)
  }

  @Test func aPageWithLittleTextKeepsEveryWord() {
    let sliver = Word(text: "enc", bbox: Self.rect(20, 300, 35, 425), confidence: 29)
    let blocks = [
      Block(
        bbox: sliver.bbox,
        paragraphs: [
          Paragraph(bbox: sliver.bbox, lines: [TextLine(bbox: sliver.bbox, words: [sliver])])
        ])
    ]
    #expect(SliverNoise.removing(from: blocks, orientation: 0).count == 1)
  }
}
