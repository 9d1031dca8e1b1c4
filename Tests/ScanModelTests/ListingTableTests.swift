import Testing

@testable import ScanModel

/// A code listing leaves the columns of a table (keywords in a column of
/// their own, lines with a common prefix) but is no table: its lines are
/// set at a fixed pitch, the page's text is not.
struct ListingTableTests {
  /// The advance of a letter in a proportional face, 28 px to the em
  /// (Helvetica's widths, rounded).
  static func advance(_ c: Character) -> Int {
    let lower: [Character: Int] = [
      "a": 16, "b": 16, "c": 14, "d": 16, "e": 16, "f": 8, "g": 16, "h": 16, "i": 6, "j": 6,
      "k": 14, "l": 6, "m": 23, "n": 16, "o": 16, "p": 16, "q": 16, "r": 9, "s": 14, "t": 8,
      "u": 16, "v": 14, "w": 20, "x": 14, "y": 14, "z": 14,
    ]
    if let width = lower[c] { return width }
    if c.isUppercase { return ["I": 8, "M": 23, "W": 26][c] ?? 19 }
    return c.isNumber ? 16 : 8
  }

  /// A word 30 px high on baseline `y` whose glyphs step by their
  /// advances: 16 px each at a fixed pitch, else ``advance(_:)``.
  static func word(_ text: String, x: Int, y: Int, fixed: Bool) -> Word {
    var left = x
    var glyphs: [Glyph] = []
    for c in text {
      let advance = fixed ? 16 : Self.advance(c)
      glyphs.append(
        Glyph(
          text: String(c),
          bbox: PixelRect(minX: left + 1, minY: y - 24, maxX: left + advance - 1, maxY: y + 6)))
      left += advance
    }
    var word = Word(
      text: text, bbox: PixelRect(minX: x + 1, minY: y - 24, maxX: left - 1, maxY: y + 6),
      confidence: 90)
    word.glyphs = glyphs
    return word
  }

  /// A line of words at the given x, on baseline `y`.
  static func line(_ words: [(String, Int)], y: Int, fixed: Bool) -> TextLine {
    let out = words.map { word($0.0, x: $0.1, y: y, fixed: fixed) }
    let box = PixelRect.union(out.map(\.bbox)) ?? PixelRect(minX: 0, minY: y, maxX: 0, maxY: y)
    return TextLine(
      bbox: box,
      baseline: Baseline(
        start: Point(x: Double(box.minX), y: Double(y)),
        end: Point(x: Double(box.maxX), y: Double(y))),
      words: out)
  }

  /// Running text as one line of words a space (10 px) apart from `x`.
  static func prose(_ text: String, x: Int, y: Int, fixed: Bool) -> TextLine {
    var left = x
    var words: [(String, Int)] = []
    for w in text.split(separator: " ").map(String.init) {
      words.append((w, left))
      left = word(w, x: left, y: y, fixed: fixed).bbox.maxX + 11
    }
    return line(words, y: y, fixed: fixed)
  }

  /// A page of running text over a query of `redp5110_sampled` p8's kind:
  /// keywords at x = 200, clauses at x = 400, lines 50 px apart.
  static func page(listingFixed: Bool, proseFixed: Bool) -> [Block] {
    let text = [
      "This query finds the profiles that are allowed to define and manage",
      "the permissions and masks of the listed tables, with their settings and identifiers",
    ]
    let above = text.enumerated().map { i, t in
      prose(t, x: 200, y: 200 + 50 * i, fixed: proseFixed)
    }
    let rows: [(String?, String)] = [
      ("SELECT", "function_id,"), (nil, "user_name,"), (nil, "usage,"), (nil, "user_type"),
      ("FROM", "function_usage"), ("WHERE", "function_id='QIBM_DB_SECADM'"),
      ("ORDER BY", "user_name;"),
    ]
    let listing = rows.enumerated().map { i, row in
      var words: [(String, Int)] = []
      if let keyword = row.0 {
        var x = 200
        for part in keyword.split(separator: " ").map(String.init) {
          words.append((part, x))
          x += 16 * (part.count + 1)
        }
      }
      words.append((row.1, 400))
      return line(words, y: 400 + 50 * i, fixed: listingFixed)
    }
    return [
      AlignedTableTests.block([AlignedTableTests.paragraph(above)]),
      AlignedTableTests.block([AlignedTableTests.paragraph(listing)]),
    ]
  }

  static func cells(_ blocks: [Block]) -> [Paragraph] {
    TableCells.composingAligned(blocks).flatMap(\.paragraphs).filter { $0.cell != nil }
  }

  @Test func aListingSetAtAFixedPitchIsNoTable() {
    let blocks = Self.page(listingFixed: true, proseFixed: false)
    #expect(AlignedTables.tables(in: blocks).isEmpty)
    #expect(Self.cells(blocks).isEmpty)
  }

  @Test func theSameLinesInTheDocumentsTypeAreATable() {
    // Without the listing's face the keywords and clauses are two short
    // columns: the rule that leaves the listing out is the face alone.
    let cells = Self.cells(Self.page(listingFixed: false, proseFixed: false))
    func text(_ p: Paragraph) -> String {
      p.lines.flatMap(\.words).map(\.text).joined(separator: " ")
    }
    #expect(
      cells.map { "\($0.cell?.row ?? -1),\($0.cell?.column ?? -1) \(text($0))" } == [
        "0,0 SELECT", "0,1 function_id, user_name, usage, user_type", "1,0 FROM",
        "1,1 function_usage", "2,0 WHERE", "2,1 function_id='QIBM_DB_SECADM'", "3,0 ORDER BY",
        "3,1 user_name;",
      ])
  }

  @Test func aTypewrittenPagesTableStaysATable() {
    // Everything at a fixed pitch: the face tells nothing.
    let cells = Self.cells(Self.page(listingFixed: true, proseFixed: true))
    #expect(cells.count == 8)
  }

  @Test func wordsTellTheirFaceFromTheirGlyphSteps() {
    #expect(FixedPitch.isFixedPitch(Self.word("function", x: 0, y: 50, fixed: true)) == true)
    #expect(FixedPitch.isFixedPitch(Self.word("function", x: 0, y: 50, fixed: false)) == false)
    // Too few glyphs, or figures (set at one width in any face): nothing.
    #expect(FixedPitch.isFixedPitch(Self.word("use", x: 0, y: 50, fixed: false)) == nil)
    #expect(FixedPitch.isFixedPitch(Self.word("1234.5", x: 0, y: 50, fixed: true)) == nil)
  }
}
