import ScanModel
import Testing

/// The limits every reader checks a page against (issue 45, point 1): a
/// forged model is refused with the element and the field, before a
/// writer allocates by a count it claims or loops on an angle.
@Suite("Model limits")
struct ModelLimitsTests {
  /// A page of `words` one-word paragraphs; the first `cells` are table
  /// cells at the places given.
  static func page(
    words: Int = 1, cells: [TableCellPosition] = [], dpi: Int? = 300, skew: Double = 0,
    polygon: [Point]? = nil
  ) -> Page {
    var paragraphs: [Paragraph] = []
    for i in 0..<max(words, cells.count) {
      let box = PixelRect(
        minX: 10 + 20 * (i % 40), minY: 10 + 30 * (i / 40), maxX: 25 + 20 * (i % 40),
        maxY: 30 + 30 * (i / 40))
      let line = TextLine(
        bbox: box, polygon: i == 0 ? polygon : nil,
        words: [Word(text: "w", bbox: box, confidence: 90)])
      let cell = i < cells.count ? cells[i] : nil
      paragraphs.append(
        Paragraph(
          bbox: box, lines: [line], role: cell == nil ? .body : .tableCell, headingLevel: nil,
          cell: cell))
    }
    return Page(
      width: 1000, height: 1000, dpi: dpi, skew: skew,
      blocks: [
        Block(bbox: PixelRect(minX: 0, minY: 0, maxX: 1000, maxY: 1000), paragraphs: paragraphs)
      ])
  }

  func refusal(_ page: Page) -> ModelLimitError? {
    do {
      try ModelLimits.check(page)
      return nil
    } catch {
      return error
    }
  }

  @Test func aRecognisedPageIsWithinTheLimits() {
    #expect(refusal(Self.page(words: 50)) == nil)
    // A 2 × 2 table, and a ruled form of 10 × 10 places with 5 words.
    let square = (0..<4).map { TableCellPosition(row: $0 / 2, column: $0 % 2) }
    #expect(refusal(Self.page(words: 4, cells: square)) == nil)
    let form = (0..<5).map { TableCellPosition(row: 2 * $0, column: 9 - $0) }
    #expect(refusal(Self.page(words: 5, cells: form)) == nil)
    #expect(refusal(Self.page(dpi: nil)) == nil)
    #expect(refusal(Self.page(skew: -359.5)) == nil)
  }

  /// `"dpi": 0` killed PDF output by SIGILL (a division by zero).
  @Test(arguments: [0, -300, 100_001, Int.max])
  func resolutionsOutOfRange(_ dpi: Int) {
    #expect(
      refusal(Self.page(dpi: dpi))
        == ModelLimitError(element: "", reason: "'dpi' \(dpi) is not between 1 and 100000"))
  }

  /// `"skew": 1e300` made the PAGE writer loop for ever.
  @Test(arguments: [1e300, -1e12, 360.5, Double.nan, Double.infinity])
  func anglesOutOfRange(_ skew: Double) {
    #expect(refusal(Self.page(skew: skew))?.reason == "'skew' \(skew) is not an angle within ±360°")
  }

  /// A cell at row 20,000 made the tagged-PDF writer build a 20,000 ×
  /// 20,000 grid; spans of `Int.max` overflowed.
  @Test func tableCellsBeyondThePagesWords() {
    let far = refusal(Self.page(words: 1, cells: [TableCellPosition(row: 20_000, column: 0)]))
    #expect(far?.element == "blocks[0].paragraphs[0]")
    #expect(
      far?.reason
        == "the table cell at row 20000 spanning 1 reaches beyond the 16384 places a table of this page's 1 words may have"
    )
    for cell in [
      TableCellPosition(row: 0, column: 0, rowSpan: Int.max),
      TableCellPosition(row: Int.max, column: 0),
      TableCellPosition(row: 0, column: Int.max - 1, columnSpan: 2),
      TableCellPosition(row: -1, column: 0),
    ] {
      #expect(refusal(Self.page(words: 1, cells: [cell])) != nil, "\(cell)")
    }
    // Each dimension within the limit, the grid not: 1,000 × 1,000 places
    // for 2 words.
    let wide = [
      TableCellPosition(row: 999, column: 0), TableCellPosition(row: 0, column: 999),
    ]
    #expect(
      refusal(Self.page(words: 2, cells: wide))?.reason.hasPrefix(
        "the page's table cells lay out 1000 rows × 1000 columns") == true)
  }

  @Test func polygonsAndCoordinates() {
    let many = (0..<(ModelLimits.polygonPointLimit + 2)).map { Point(x: Double($0 % 10), y: 0) }
    #expect(refusal(Self.page(polygon: many))?.element == "blocks[0].paragraphs[0].lines[0]")
    let nan = [Point(x: .nan, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
    #expect(refusal(Self.page(polygon: nan))?.reason.hasPrefix("'polygon' has the point") == true)
  }
}

/// `verify` named every glyph with its word's whole text: a forged word
/// of 40,000 glyphs took 1.7 GB (the names, O(*n*²)). Names quote at most
/// 40 characters of a text.
@Suite("Verification names")
struct VerificationNamesTests {
  @Test func aLongWordIsQuotedShort() {
    let count = 2_000
    let box = PixelRect(minX: 10, minY: 10, maxX: 20, maxY: 30)
    let glyphs = (0..<count).map { _ in
      Glyph(text: "x", bbox: PixelRect(minX: 500, minY: 500, maxX: 501, maxY: 501))
    }
    let word = Word(text: String(repeating: "x", count: count), bbox: box, glyphs: glyphs)
    let line = TextLine(bbox: box, words: [word])
    let page = Page(
      width: 1000, height: 1000,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    let report = page.verify()
    #expect(report.violations.count >= count)
    let longest = report.violations.map(\.element.count).max() ?? 0
    #expect(longest < 120)
    #expect(
      report.violations.first?.element
        == "line 0 word 0 \"\(String(repeating: "x", count: 40))…\" glyph 0 \"x\"")
  }
}
