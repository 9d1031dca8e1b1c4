import Testing

@testable import ScanModel

/// A paragraph opening with a large initial (a drop cap three or four lines
/// high), as Tesseract reads it on the `dropcap` family (develop seed 1005):
/// the first line, initial included, as a block of its own read after the
/// block of the lines set beside the initial. Its geometry, its role and
/// its place in the reading.
struct LargeInitialTests {
  static func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
    PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  static func line(_ words: [(String, PixelRect)]) -> TextLine {
    let ws = words.map { Word(text: $0.0, bbox: $0.1, confidence: 90) }
    return TextLine(bbox: PixelRect.union(ws.map(\.bbox)) ?? ws[0].bbox, words: ws)
  }

  /// The first line with its initial "N" (92 px high; the words 26).
  static let opening = line([
    ("N", box(211, 546, 285, 638)), ("otwithstanding", box(305, 546, 484, 572)),
    ("any", box(495, 551, 540, 572)), ("other", box(549, 546, 613, 572)),
    ("provision", box(623, 546, 740, 572)),
  ])
  /// The lines beside the initial, then one below it.
  static let beside = [
    line([
      ("covered", box(305, 582, 403, 602)), ("work", box(413, 582, 472, 602)),
      ("with", box(480, 582, 528, 602)),
    ]),
    line([
      ("into", box(306, 618, 348, 638)), ("a", box(359, 623, 374, 638)),
      ("single", box(384, 618, 455, 644)),
    ]),
    line([
      ("continue", box(201, 654, 310, 680)), ("to", box(320, 659, 345, 680)),
      ("apply", box(355, 654, 420, 680)),
    ]),
  ]

  static func blocks() -> [Block] {
    let p0 = Paragraph(
      bbox: PixelRect.union(beside.map(\.bbox)) ?? opening.bbox, lines: beside)
    let p1 = Paragraph(bbox: opening.bbox, lines: [opening])
    return [Block(bbox: p0.bbox, paragraphs: [p0]), Block(bbox: p1.bbox, paragraphs: [p1])]
  }

  /// The line's other words kept their height only where the cut went
  /// through the initial's line: held over the whole line, it left
  /// "otwithstanding" one pixel high ([305, 592, 484, 593]) and the lines
  /// beside the initial half theirs.
  @Test func theLinesBesideAnInitialAndItsOwnKeepTheirWords() {
    let page = Page(width: 1700, height: 2200, blocks: Self.blocks()).repairingGeometry()
    let words = Dictionary(
      page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map {
        ($0.text, $0.bbox)
      },
      uniquingKeysWith: { a, _ in a })
    for w in (Self.beside.flatMap(\.words) + Self.opening.words) {
      #expect(words[w.text] == w.bbox, "\(w.text)")
    }
    // The initial's line steps round the lines beside it: a polygon that
    // holds the initial and leaves their band to them.
    let first = page.blocks[1].paragraphs[0].lines[0]
    let polygon = first.polygon
    #expect(polygon != nil)
    #expect(polygon?.contains(Point(x: 211, y: 638)) == true)
    #expect(polygon?.contains { $0.y == 577 && $0.x > 300 } == true)
    #expect(page.verify().violations.isEmpty)
  }

  /// A letter set like a marker before a gap, but four lines high, is an
  /// initial, not a list item's bullet.
  @Test func aLargeInitialIsNoListMarker() {
    let roles = RoleDetection.assigningRoles(
      to: Self.blocks(), pageWidth: 1700, pageHeight: 2200, orientation: 0)
    let opening = roles.flatMap(\.paragraphs).first { $0.lines[0].words[0].text == "N" }
    #expect(opening?.role == .body)
    // The same letter at the words' height before a tab is still a bullet
    // read as a letter.
    #expect(
      ListLead.isTabbedMark(
        "N",
        boxes: [
          Self.box(211, 546, 230, 572), Self.box(260, 546, 484, 572),
          Self.box(495, 551, 540, 572),
        ], em: 26))
    #expect(
      !ListLead.isTabbedMark(
        "N", boxes: Self.opening.words.map(\.bbox), em: 26))
  }

  /// The paragraph that starts higher, with the lines beside its initial
  /// overlapping it, is read first; an inset that starts below the top of
  /// the paragraph around it keeps its place.
  @Test func theInitialsParagraphIsReadBeforeTheLinesBesideIt() {
    let ordered = ReadingOrder.ordering(Self.blocks(), pageWidth: 1700, pageHeight: 2200)
    let firstWords = ordered.flatMap(\.paragraphs).map { $0.lines[0].words[0].text }
    #expect(firstWords == ["N", "covered"])
    let text = Paragraph(
      bbox: Self.box(200, 500, 1500, 1200),
      lines: [Self.line([("Around", Self.box(200, 500, 1500, 1200))])])
    let inset = Paragraph(
      bbox: Self.box(400, 700, 1300, 900),
      lines: [Self.line([("Inset", Self.box(400, 700, 1300, 900))])])
    let kept = ReadingOrder.ordering(
      [Block(bbox: text.bbox, paragraphs: [text]), Block(bbox: inset.bbox, paragraphs: [inset])],
      pageWidth: 1700, pageHeight: 2200)
    #expect(kept.flatMap(\.paragraphs).map { $0.lines[0].words[0].text } == ["Around", "Inset"])
    // Two columns side by side, the right one starting higher: kept.
    let left = Paragraph(
      bbox: Self.box(100, 300, 800, 1200),
      lines: [Self.line([("Left", Self.box(100, 300, 800, 1200))])])
    let right = Paragraph(
      bbox: Self.box(900, 250, 1600, 1200),
      lines: [Self.line([("Right", Self.box(900, 250, 1600, 1200))])])
    let columns = ReadingOrder.ordering(
      [Block(bbox: left.bbox, paragraphs: [left]), Block(bbox: right.bbox, paragraphs: [right])],
      pageWidth: 1700, pageHeight: 2200)
    #expect(columns.flatMap(\.paragraphs).map { $0.lines[0].words[0].text } == ["Left", "Right"])
  }

  /// `scantext eval` matches a truth line to the OCR line that overlaps
  /// it most by the OCR line's outline: the initial's line, whose box also
  /// holds the lines beside the initial, was matched to them on a tie once
  /// it was read first, and its selection counted as their bleed.
  @Test func evaluationMatchesLinesByTheirOutlines() {
    let truth = Page(
      width: 1700, height: 2200,
      blocks: ReadingOrder.ordering(
        Self.blocks(), pageWidth: 1700, pageHeight: 2200))
    let ocr = truth.repairingGeometry()
    let e = ocr.evaluate(against: truth)
    #expect(e.lineCover == 1)
    #expect(e.lineBleed == 0)
    #expect(e.wordRecall == 1)
  }
}
