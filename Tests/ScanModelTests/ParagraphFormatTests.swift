import ScanModel
import Testing

@Suite("Paragraph formats")
struct ParagraphFormatTests {
  /// A paragraph of lines 20 px high, 30 px apart, each from `x0` to `x1`.
  static func paragraph(_ spans: [(Int, Int)]) -> Paragraph {
    let lines = spans.enumerated().map { i, span in
      let box = PixelRect(minX: span.0, minY: 100 + 30 * i, maxX: span.1, maxY: 120 + 30 * i)
      return TextLine(bbox: box, words: [Word(text: "w", bbox: box)])
    }
    let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return Paragraph(bbox: box, lines: lines)
  }

  static let column = PixelRect(minX: 100, minY: 100, maxX: 500, maxY: 900)

  func format(_ spans: [(Int, Int)]) -> ParagraphFormat {
    ParagraphFormat(measuring: Self.paragraph(spans), inColumn: Self.column)
  }

  @Test func justifiedWithAnIndentedFirstLine() {
    let f = format([(140, 500), (100, 499), (101, 500), (100, 300)])
    #expect(f.alignment == .justified)
    #expect(f.leftIndent == 0 && f.rightIndent == 0)
    #expect(f.firstLineIndent == 40)
    #expect(f.lineSpacing == 30)
  }

  @Test func raggedRightIsLeft() {
    let f = format([(120, 430), (120, 480), (121, 390), (120, 200)])
    #expect(f.alignment == .left)
    #expect(f.leftIndent == 20 && f.firstLineIndent == 0)
  }

  @Test func hangingIndentIsNegative() {
    let f = format([(100, 480), (130, 470), (130, 400)])
    #expect(f.alignment == .left)
    #expect(f.leftIndent == 30 && f.firstLineIndent == -30)
  }

  @Test func raggedLeftIsRight() {
    let f = format([(300, 480), (200, 480), (350, 481)])
    #expect(f.alignment == .right)
    #expect(f.rightIndent == 20)
  }

  @Test func centredLines() {
    let f = format([(200, 400), (150, 450), (250, 350)])
    #expect(f.alignment == .center)
  }

  @Test func linesThatShareNoEdgeHaveNoAlignment() {
    #expect(format([(200, 400), (120, 450), (250, 300)]).alignment == nil)
  }

  @Test func oneLineIsMeasuredAgainstItsColumn() {
    #expect(format([(250, 350)]).alignment == .center)
    #expect(format([(100, 300)]).alignment == .left)
    #expect(format([(300, 500)]).alignment == .right)
    #expect(format([(100, 500)]).alignment == nil)
    #expect(format([(100, 500)]).lineSpacing == nil)
    #expect(format([(100, 500)]).firstLineIndent == 0)
  }

  @Test func turnedPagesAreMeasuredUpright() {
    // The paragraph of `justifiedWithAnIndentedFirstLine`, on a page whose
    // content is turned 90° clockwise: lines run down the image.
    let upright = Self.paragraph([(140, 500), (100, 499), (101, 500), (100, 300)])
    let height = 1000
    func turn(_ r: PixelRect) -> PixelRect {
      // Upright (x, y) is image (width - y, x) for a 90° turn.
      PixelRect(minX: 1000 - r.maxY, minY: r.minX, maxX: 1000 - r.minY, maxY: r.maxX)
    }
    let lines = upright.lines.map { line in
      TextLine(bbox: turn(line.bbox), words: [Word(text: "w", bbox: turn(line.bbox))])
    }
    let paragraph = Paragraph(bbox: turn(upright.bbox), lines: lines)
    let page = Page(
      width: 1000, height: height, orientation: 90,
      blocks: [Block(bbox: turn(Self.column), paragraphs: [paragraph])])
    let f = page.paragraphFormats[0][0]
    #expect(f.alignment == .justified)
    #expect(f.firstLineIndent == 40)
    #expect(f.lineSpacing == 30)
  }
}
