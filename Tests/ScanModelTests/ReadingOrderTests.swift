import Testing

@testable import ScanModel

/// The order a reader expects, from roles and places on the page.
struct ReadingOrderTests {
  /// A paragraph of one or more lines at (x, y) with a role.
  static func para(
    _ text: String, x: Int, y: Int, lines: Int = 1, size: Int = 20, role: ParagraphRole = .body
  ) -> Paragraph {
    var p = RoleDetectionTests.paragraph(
      (0..<lines).map { "\(text) line \($0 + 1)" }, x: x, y: y, size: size)
    p.role = role
    return p
  }

  /// The page's paragraphs' first words, in the page's order, after
  /// ``ReadingOrder`` (or as given).
  static func order(
    _ blocks: [[Paragraph]], width: Int = 1000, height: Int = 1400, reorder: Bool = true
  ) -> [String] {
    let built = blocks.map { ps in
      Block(bbox: PixelRect.union(ps.map(\.bbox)) ?? ps[0].bbox, paragraphs: ps)
    }
    let ordered =
      reorder ? ReadingOrder.ordering(built, pageWidth: width, pageHeight: height) : built
    let page = Page(width: width, height: height, blocks: ordered)
    return page.blocks.flatMap(\.paragraphs).map { p in
      String(p.lines[0].text.split(separator: " ")[0])
    }
  }

  @Test func headersComeFirstAndFootnotesFootersAndPageNumbersLast() {
    // Tesseract's order on a two-column page: the footnote and the footer
    // sit below the first column and are read before the second.
    let blocks: [[Paragraph]] = [
      [Self.para("Quarterly", x: 100, y: 40, size: 14, role: .header)],
      [Self.para("Left", x: 100, y: 200, lines: 20)],
      [
        Self.para("Note", x: 100, y: 1200, size: 14, role: .footnote),
        Self.para("Footer", x: 100, y: 1330, size: 14, role: .footer),
      ],
      [Self.para("Right", x: 550, y: 200, lines: 20)],
      [Self.para("17", x: 850, y: 1330, size: 14, role: .pageNumber)],
    ]
    #expect(
      Self.order(blocks, reorder: false) == ["Quarterly", "Left", "Note", "Footer", "Right", "17"])
    #expect(Self.order(blocks) == ["Quarterly", "Left", "Right", "Note", "Footer", "17"])
  }

  /// A paper's page: two columns of prose, the left one ending a little
  /// lower than the right, then a table centred across the columns'
  /// gutter. The left column's last paragraph has nothing beside it and
  /// stands over the table's cells, which lie side by side as columns do:
  /// it was taken for a paragraph across the columns and read after the
  /// right column (a page set by a browser). A table's cells are no
  /// columns of text.
  @Test func aColumnsLastParagraphOverATableIsNoParagraphAcrossTheColumns() {
    let words = "word text page line room type"
    func column(_ name: String, x: Int, y: Int, lines: Int) -> Paragraph {
      RoleDetectionTests.paragraph(
        (0..<lines).map { "\(name) \(words) \($0 + 1)" }, x: x, y: y, size: 20)
    }
    func cell(_ text: String, x: Int, column: Int) -> Paragraph {
      var p = RoleDetectionTests.paragraph([text], x: x, y: 760, size: 20)
      p.role = .tableCell
      p.cell = TableCellPosition(row: 0, column: column)
      return p
    }
    let blocks: [[Paragraph]] = [
      [column("Left", x: 100, y: 200, lines: 10)],
      [column("Tail", x: 100, y: 600, lines: 4)],
      [column("Right", x: 560, y: 200, lines: 14)],
      [
        cell("Set", x: 300, column: 0), cell("Pages", x: 400, column: 1),
        cell("Words", x: 520, column: 2), cell("Errors", x: 640, column: 3),
      ],
    ]
    #expect(
      Self.order(blocks) == ["Left", "Tail", "Right", "Set", "Pages", "Words", "Errors"])
  }

  @Test func aBlockReadInTwoPartsIsSplitWithTheBoxesOfItsParts() {
    let note = Self.para("Note", x: 100, y: 1200, size: 14, role: .footnote)
    let body = Self.para("Body", x: 100, y: 200, lines: 5)
    let more = Self.para("More", x: 550, y: 200, lines: 5)
    let blocks = [
      Block(bbox: note.bbox.union(body.bbox), paragraphs: [body, note]),
      Block(bbox: more.bbox, paragraphs: [more]),
    ]
    let ordered = ReadingOrder.ordering(blocks, pageWidth: 1000, pageHeight: 1400)
    #expect(ordered.count == 3)
    #expect(ordered.map(\.paragraphs.count) == [1, 1, 1])
    #expect(ordered[0].bbox == body.bbox)
    #expect(ordered[2].bbox == note.bbox)
    #expect(ordered[2].paragraphs[0].role == .footnote)
  }

  @Test func marginaliaFollowTheParagraphTheySitBeside() {
    let blocks: [[Paragraph]] = [
      [
        Self.para("First", x: 50, y: 105, lines: 2, size: 12, role: .marginalia),
        Self.para("Second", x: 50, y: 505, lines: 2, size: 12, role: .marginalia),
      ],
      [
        Self.para("Garden", x: 300, y: 100, lines: 5),
        Self.para("Clock", x: 300, y: 300, lines: 5),
        Self.para("Train", x: 300, y: 500, lines: 5),
      ],
    ]
    #expect(Self.order(blocks) == ["Garden", "First", "Clock", "Train", "Second"])
  }

  @Test func aNoteBesideNoParagraphFollowsTheNearestOneAbove() {
    let blocks: [[Paragraph]] = [
      [Self.para("Aside", x: 50, y: 700, size: 12, role: .marginalia)],
      [
        Self.para("Garden", x: 300, y: 100, lines: 5), Self.para("Clock", x: 300, y: 300, lines: 5),
      ],
    ]
    #expect(Self.order(blocks) == ["Garden", "Clock", "Aside"])
  }

  @Test func theTwoPagesOfASpreadAreReadOneAfterTheOther() {
    // Landscape: two pages side by side, each with a head and a number.
    // Tesseract reads both heads, then the text, then both numbers.
    let blocks: [[Paragraph]] = [
      [
        Self.para("LeftHead", x: 100, y: 40, size: 14, role: .header),
        Self.para("RightHead", x: 1000, y: 40, size: 14, role: .header),
      ],
      [
        Self.para("LeftText of the left page set wide across its column", x: 100, y: 150, lines: 10)
      ],
      [
        Self.para(
          "RightText of the right page set wide across its column", x: 1000, y: 150, lines: 10)
      ],
      [
        Self.para("24", x: 400, y: 900, size: 14, role: .pageNumber),
        Self.para("25", x: 1300, y: 900, size: 14, role: .pageNumber),
      ],
    ]
    #expect(
      Self.order(blocks, width: 1800, height: 1000)
        == ["LeftHead", "LeftText", "24", "RightHead", "RightText", "25"])
    // The same paragraphs on a portrait page are one page (two columns).
    #expect(
      Self.order(blocks, width: 1800, height: 1800)
        == ["LeftHead", "RightHead", "LeftText", "RightText", "24", "25"])
  }

  @Test func aTitleAcrossTheGutterMakesItOnePage() {
    let blocks: [[Paragraph]] = [
      [Self.para("Title spanning both halves of the landscape page", x: 300, y: 40, size: 30)],
      [
        Self.para("LeftText of the left page set wide across its column", x: 100, y: 150, lines: 10)
      ],
      [
        Self.para(
          "RightText of the right page set wide across its column", x: 1000, y: 150, lines: 10)
      ],
      [Self.para("Footer", x: 100, y: 900, size: 14, role: .footer)],
    ]
    #expect(
      Self.order(blocks, width: 1800, height: 1000) == ["Title", "LeftText", "RightText", "Footer"])
  }

  @Test func aPageWithoutThoseRolesKeepsTheEnginesOrderAndBlocks() {
    let blocks = [
      Block(
        bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10),
        paragraphs: [Self.para("Right", x: 550, y: 200, lines: 3)]),
      Block(
        bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10),
        paragraphs: [
          Self.para("Heading", x: 100, y: 100, size: 30, role: .heading),
          Self.para("Left", x: 100, y: 200, lines: 3),
        ]),
    ]
    #expect(ReadingOrder.ordering(blocks, pageWidth: 1000, pageHeight: 1400) == blocks)
  }

  /// A one-line note read downward (its words stacked down the page) in the
  /// right margin at (x, y).
  static func turnedNote(_ words: [String], x: Int, y: Int) -> Paragraph {
    var placed: [Word] = []
    var top = y
    for text in words {
      let height = text.count * 10
      placed.append(
        Word(text: text, bbox: PixelRect(minX: x, minY: top, maxX: x + 20, maxY: top + height)))
      top += height + 10
    }
    let box = PixelRect(minX: x, minY: y, maxX: x + 20, maxY: top - 10)
    let line = TextLine(
      bbox: box,
      baseline: Baseline(
        start: Point(x: Double(x + 4), y: Double(y)),
        end: Point(x: Double(x + 4), y: Double(top - 10))),
      words: placed)
    return Paragraph(bbox: box, lines: [line], role: .marginalia)
  }

  @Test func aTurnedNoteInTheMarginIsReadLastNotInsideAColumn() {
    // Tesseract's order on a two-column page with a note printed sideways
    // in the right margin, level with the middle of both columns.
    let blocks: [[Paragraph]] = [
      [Self.para("Left", x: 100, y: 200, lines: 5), Self.para("Lower", x: 100, y: 400, lines: 5)],
      [Self.para("Right", x: 500, y: 200, lines: 10)],
      [Self.para("17", x: 450, y: 1330, size: 14, role: .pageNumber)],
      [Self.turnedNote(["Printed", "sideways", "here"], x: 940, y: 330)],
    ]
    #expect(Self.order(blocks) == ["Left", "Lower", "Right", "17", "Printed"])
    // A level note is a gloss on the paragraph beside it.
    var level = Self.para("Gloss", x: 900, y: 220, size: 12, role: .marginalia)
    level.lines[0].baseline = Baseline(
      start: Point(x: 900, y: 230), end: Point(x: Double(level.bbox.maxX), y: 230))
    let glossed = Array(blocks.dropLast()) + [[level]]
    #expect(Self.order(glossed) == ["Left", "Gloss", "Lower", "Right", "17"])
  }

  @Test func aTitleOverTheMiddleColumnsIsReadBeforeEveryColumn() {
    // Tesseract's order on a four-column page whose title is centred over
    // the two middle columns: the first column, which the title does not
    // overlap, before it.
    let title = Self.para("Title across the two middle columns", x: 300, y: 100, size: 20)
    let columns = [50, 300, 550, 800].enumerated().map { i, x in
      Self.para(["First", "Second", "Third", "Fourth"][i], x: x, y: 200, lines: 20)
    }
    let blocks: [[Paragraph]] = [[columns[0]], [title], [columns[1]], [columns[2]], [columns[3]]]
    #expect(Self.order(blocks) == ["Title", "First", "Second", "Third", "Fourth"])
    // A footnote without its role, under the first two columns, read
    // before the last two: after every column.
    let note = Self.para("1 Footnote under the first two columns", x: 50, y: 1000, size: 20)
    let below: [[Paragraph]] = [[columns[0]], [columns[1]], [note], [columns[2]], [columns[3]]]
    #expect(Self.order(below) == ["First", "Second", "Third", "Fourth", "1"])
    // A caption under two of three columns, the third running beside it,
    // is no cut across the page: the engine's order stays.
    let caption = Self.para("Figure spanning two columns", x: 50, y: 700, size: 14)
    let beside: [[Paragraph]] = [
      [Self.para("Upper", x: 50, y: 200, lines: 10)],
      [Self.para("Middle", x: 300, y: 200, lines: 10)],
      [caption], [Self.para("Lower", x: 50, y: 800, lines: 5)],
      [Self.para("Side", x: 600, y: 200, lines: 30)],
    ]
    #expect(Self.order(beside) == ["Upper", "Middle", "Figure", "Lower", "Side"])
    // A heading over a column and a short line far below it, left and
    // right of each other but at no common height, is no cut either
    // (`linn.png`: "Additional Features").
    let lone: [[Paragraph]] = [
      [Self.para("Left", x: 100, y: 200, lines: 10)],
      [Self.para("Features of the page", x: 100, y: 900)],
      [Self.para("Right", x: 550, y: 200, lines: 10)], [Self.para("Edge", x: 250, y: 1100)],
    ]
    #expect(Self.order(lone) == ["Left", "Features", "Right", "Edge"])
  }

  @Test func aFootnotesLineReadApartIsReadWithItsFootnote() {
    // Tesseract split the footnote's second line off as a paragraph of
    // running text and read it before the second column.
    let blocks: [[Paragraph]] = [
      [Self.para("Left", x: 100, y: 200, lines: 20)],
      [Self.para("1 First note", x: 100, y: 1200, size: 14, role: .footnote)],
      [Self.para("continued", x: 100, y: 1220, size: 14)],
      [Self.para("Right", x: 550, y: 200, lines: 20)],
      [Self.para("2 Second note", x: 100, y: 1260, size: 14, role: .footnote)],
      [Self.para("17", x: 450, y: 1330, size: 14, role: .pageNumber)],
    ]
    #expect(Self.order(blocks) == ["Left", "Right", "1", "continued", "2", "17"])
  }

  @Test func aPageNumberOnAFootsLineIsReadInThatLine() {
    // A book's left-hand page: the folio left of the running foot, on its
    // line ("20   Row and Column Access Control …", redp5110 p12). It was
    // read after the foot; a reader reads the line left to right.
    let body = Self.para("Body", x: 100, y: 200, lines: 20)
    let foot = Self.para("Row and Column Access Control", x: 200, y: 1330, size: 14, role: .footer)
    let folio = Self.para("20", x: 100, y: 1330, size: 14, role: .pageNumber)
    #expect(Self.order([[body], [foot], [folio]]) == ["Body", "20", "Row"])
    // At the head too, read first with the running head; a page number
    // on no furniture's line is still read last.
    let head = Self.para("Chapter two", x: 100, y: 40, size: 14, role: .header)
    let topFolio = Self.para("21", x: 850, y: 40, size: 14, role: .pageNumber)
    #expect(Self.order([[body], [topFolio], [head]]) == ["Chapter", "21", "Body"])
    let lowFolio = Self.para("22", x: 850, y: 1360, size: 14, role: .pageNumber)
    #expect(Self.order([[lowFolio], [body], [foot]]) == ["Body", "Row", "22"])
  }

  @Test func aColumnsNotesAreReadWhenTheColumnEnds() {
    // A report set in two columns with notes at the foot of each column
    // (normal_4pages p2): Tesseract reads the left notes where they sit,
    // the roles rule reads every note after the page's text. A reader
    // reads each column's notes when the column ends.
    let left = Self.para("Left", x: 100, y: 200, lines: 20)
    let right = Self.para("Right", x: 550, y: 200, lines: 20)
    let leftNotes = Self.para("3) Left note", x: 100, y: 1100, lines: 3, size: 14, role: .footnote)
    let rightNote = Self.para("5) Right note", x: 550, y: 1150, lines: 2, size: 14, role: .footnote)
    let folio = Self.para("17", x: 480, y: 1330, size: 14, role: .pageNumber)
    let blocks: [[Paragraph]] = [[left], [leftNotes], [right], [rightNote], [folio]]
    #expect(Self.order(blocks) == ["Left", "3)", "Right", "5)", "17"])
    // A one-line note of a column whose other notes show its measure is
    // the column's too, read down the column (the engine read it last).
    let short = Self.para("4) Short", x: 100, y: 1250, size: 14, role: .footnote)
    #expect(
      Self.order([[left], [leftNotes], [right], [rightNote], [short], [folio]]) == [
        "Left", "3)", "4)", "Right", "5)", "17",
      ])
    // A note across both columns is the page's: after the text.
    let wide = Self.para(
      "1 " + String(repeating: "note ", count: 60), x: 100, y: 1150, lines: 2, size: 14,
      role: .footnote)
    #expect(Self.order([[left], [wide], [right], [folio]]) == ["Left", "Right", "1", "17"])
    // A title over both columns is no part of the left column: the left
    // notes still follow the left column, not the title.
    let title = Self.para(
      "Title " + String(repeating: "across ", count: 10), x: 100, y: 100, size: 24)
    #expect(
      Self.order([[title], [left], [leftNotes], [right], [folio]]) == [
        "Title", "Left", "3)", "Right", "17",
      ])
  }

  /// Four numbered boxes, two across and two down, each a numbered title
  /// and a paragraph, in Tesseract's order (column by column: 1, 3, 2, 4).
  static func numberedGrid(_ numbers: [String] = ["1.", "3.", "2.", "4."]) -> [[Paragraph]] {
    let places = [(100, 200), (100, 700), (550, 200), (550, 700)]
    return zip(numbers, places).map { number, place in
      [
        Self.para(number, x: place.0, y: place.1),
        Self.para("Panel\(number)", x: place.0, y: place.1 + 60, lines: 5),
      ]
    }
  }

  @Test func numberedBoxesInAGridAreReadInNumberOrder() {
    #expect(
      Self.order(Self.numberedGrid()) == [
        "1.", "Panel1.", "2.", "Panel2.", "3.", "Panel3.", "4.", "Panel4.",
      ])
    // Numbered "1)" too, and what stands before the first box stays first.
    let titled =
      [[Self.para("Steps", x: 100, y: 100)]] + Self.numberedGrid(["1)", "3)", "2)", "4)"])
    #expect(
      Self.order(titled) == [
        "Steps", "1)", "Panel1)", "2)", "Panel2)", "3)", "Panel3)", "4)", "Panel4)",
      ])
  }

  @Test func numbersThatAreNoGridKeepTheEnginesOrder() {
    // Read column by column and numbered so (1, 2 down the left, 3, 4
    // down the right): already in order.
    let byColumns = Self.numberedGrid(["1.", "2.", "3.", "4."])
    #expect(Self.order(byColumns) == Self.order(byColumns, reorder: false))
    // One column whose numbers do not count on down the page (a
    // numbered list quoted out of order): no grid, kept.
    let column = [
      [Self.para("3.", x: 100, y: 200)], [Self.para("1.", x: 100, y: 400)],
      [Self.para("2.", x: 100, y: 600)],
    ]
    #expect(Self.order(column) == ["3.", "1.", "2."])
    // A number twice (two lists): kept.
    let twice = Self.numberedGrid(["1.", "2.", "1.", "2."])
    #expect(Self.order(twice) == Self.order(twice, reorder: false))
  }

  /// `para` with each line's baseline set where its letters stand (the
  /// bottom of a line without descenders), or at `baseline` for the first
  /// line.
  static func withBaselines(_ p: Paragraph, first baseline: Int? = nil) -> Paragraph {
    var p = p
    for i in p.lines.indices {
      let box = p.lines[i].bbox
      let y = Double(i == 0 ? baseline ?? box.maxY : box.maxY)
      p.lines[i].baseline = Baseline(
        start: Point(x: Double(box.minX), y: y), end: Point(x: Double(box.maxX), y: y))
    }
    return p
  }

  /// A page's first line beside a large initial, its box dragged down
  /// below the top of the next line's by the initial (8071_093.3B: "She
  /// moped. She sighed. She" [183, 221, 799, 273], baseline 195;
  /// "wandered around the house" [278, 203, 799, 227], baseline 240),
  /// read by the engine after that next line: its baseline says it is
  /// the higher line, and it is read first.
  @Test func aLineWhoseBaselineIsHigherIsReadFirstWhateverItsBox() {
    var first = Self.withBaselines(Self.para("She", x: 183, y: 221), first: 195)
    first.bbox = PixelRect(minX: 183, minY: 221, maxX: 799, maxY: 273)
    first.lines[0].bbox = first.bbox
    var second = Self.withBaselines(Self.para("wandered", x: 278, y: 203), first: 240)
    second.bbox = PixelRect(minX: 278, minY: 203, maxX: 799, maxY: 227)
    second.lines[0].bbox = second.bbox
    let rest = Self.withBaselines(Self.para("with", x: 178, y: 268, lines: 8))
    let heading = Self.para("Title", x: 400, y: 100, role: .heading)
    #expect(
      Self.order([[heading], [second], [first], [rest]]) == ["Title", "She", "wandered", "with"])
    // Without baselines the boxes decide: the engine's order stays.
    var boxesOnly = [first, second]
    for i in boxesOnly.indices { boxesOnly[i].lines[0].baseline = nil }
    #expect(
      Self.order([[heading], [boxesOnly[1]], [boxesOnly[0]], [rest]]) == [
        "Title", "wandered", "She", "with",
      ])
  }

  /// A speck inside a paragraph's box read as a word ("|", `normal_4pages`
  /// p1) gets a baseline up the page: that says nothing of where letters
  /// stand, and the speck is not read before the paragraph.
  @Test func aBaselineUpThePageDoesNotTellWhichStartsHigher() {
    var text = Self.withBaselines(Self.para("Text", x: 270, y: 2449, lines: 4), first: 2506)
    text.bbox = PixelRect(minX: 270, minY: 2449, maxX: 1230, maxY: 2678)
    var speck = RoleDetectionTests.paragraph(["|"], x: 1184, y: 2465, size: 20)
    speck.bbox = PixelRect(minX: 1184, minY: 2465, maxX: 1212, maxY: 2469)
    speck.lines[0].bbox = speck.bbox
    speck.lines[0].baseline = Baseline(
      start: Point(x: 1203, y: 2474), end: Point(x: 1203, y: 2465))
    #expect(Self.order([[text], [speck]], height: 3000) == ["Text", "|"])
  }

  /// A question's number hanging in the margin left of its first line
  /// (`table_mislabeled_as_picture` p1: "28." beside "Are specialized
  /// legal aid services …") is read before the question; a gloss, or a
  /// number beside a later line, after it, as marginalia are.
  @Test func aNumberHangingLeftOfAParagraphsFirstLineIsReadBeforeIt() {
    func note(_ text: String, y: Int) -> Paragraph {
      var p = RoleDetectionTests.paragraph([text], x: 120, y: y, size: 20)
      p.role = .marginalia
      return p
    }
    let question = Self.para("Are", x: 200, y: 300, lines: 3)
    #expect(Self.order([[question], [note("28.", y: 300)]]) == ["28.", "Are"])
    #expect(Self.order([[question], [note("Gloss", y: 300)]]) == ["Are", "Gloss"])
    #expect(Self.order([[question], [note("28.", y: 348)]]) == ["Are", "28."])
  }
}
