import Testing

@testable import ScanModel

/// Table cells from a table's ruling lines.
struct TableCellsTests {
  /// A grid of `columns` × `rows` cells, each 200 × 40 px, from (100, 100).
  static func grid(columns: Int, rows: Int) -> TableGrid {
    TableGrid(
      horizontalRules: (0...rows).map {
        PixelRect(minX: 100, minY: 100 + 40 * $0, maxX: 100 + 200 * columns, maxY: 103 + 40 * $0)
      },
      verticalRules: (0...columns).map {
        PixelRect(minX: 100 + 200 * $0, minY: 100, maxX: 103 + 200 * $0, maxY: 100 + 40 * rows)
      })
  }

  /// A paragraph of one line per row of column `column`.
  static func column(_ column: Int, _ texts: [String]) -> Paragraph {
    let lines = texts.enumerated().map { row, text in
      let box = PixelRect(
        minX: 110 + 200 * column, minY: 110 + 40 * row, maxX: 110 + 200 * column + 10 * text.count,
        maxY: 130 + 40 * row)
      return TextLine(bbox: box, words: [Word(text: text, bbox: box)])
    }
    return Paragraph(bbox: PixelRect.union(lines.map(\.bbox)) ?? lines[0].bbox, lines: lines)
  }

  @Test func aColumnOfCellsIsSplitIntoCells() {
    let blocks = [
      Block(
        bbox: PixelRect(minX: 0, minY: 0, maxX: 1000, maxY: 1000),
        paragraphs: [
          Self.column(0, ["Item", "Flour", "Water"]), Self.column(1, ["Amount", "500", "350"]),
        ])
    ]
    let split = TableCells.splitting(blocks, grids: [Self.grid(columns: 2, rows: 3)])
    let page = Page(width: 1000, height: 1000, blocks: split)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    #expect(paragraphs.count == 6)
    #expect(paragraphs.allSatisfy { $0.role == .tableCell })
    #expect(
      paragraphs.map { $0.lines.map(\.text) } == [
        ["Item"], ["Flour"], ["Water"], ["Amount"], ["500"], ["350"],
      ])
    #expect(page.text == "Item\n\nFlour\n\nWater\n\nAmount\n\n500\n\n350\n")
    #expect(paragraphs[1].bbox == PixelRect(minX: 110, minY: 150, maxX: 160, maxY: 170))
  }

  @Test func textOutsideTheGridAndABoxedSidebarAreNoCells() {
    let outside = Paragraph(
      bbox: PixelRect(minX: 100, minY: 400, maxX: 500, maxY: 420),
      lines: [
        TextLine(
          bbox: PixelRect(minX: 100, minY: 400, maxX: 500, maxY: 420),
          words: [Word(text: "Below", bbox: PixelRect(minX: 100, minY: 400, maxX: 500, maxY: 420))])
      ])
    let blocks = [
      Block(bbox: outside.bbox, paragraphs: [Self.column(0, ["Inside", "a", "box"]), outside])
    ]
    // One column between two vertical rules: a frame, not a table.
    let frame = Self.grid(columns: 1, rows: 3)
    #expect(TableCells.splitting(blocks, grids: [frame]) == blocks)
    #expect(TableCells.splitting(blocks, grids: []) == blocks)
    let table = TableCells.splitting(blocks, grids: [Self.grid(columns: 2, rows: 3)])
    #expect(table[0].paragraphs.map(\.role) == [.tableCell, .tableCell, .tableCell, .body])
  }

  // MARK: Tables from their rules

  @Test func aFullGridGivesEveryCellItsPlace() throws {
    let table = try #require(Self.grid(columns: 3, rows: 4).tables.first)
    #expect(table.rows == 4 && table.columns == 3)
    #expect(table.cells.count == 12)
    #expect(table.cells.map(\.position.row) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
    #expect(table.cells.map(\.position.column) == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
    // Inside the rules (3 px thick, centres at 101.5 + 200 k and 101.5 + 40 k).
    #expect(table.cells[4].box == PixelRect(minX: 305, minY: 145, maxX: 500, maxY: 180))
    #expect(table.cell(at: Point(x: 400, y: 160))?.position == TableCellPosition(row: 1, column: 1))
    #expect(table.cell(at: Point(x: 400, y: 90)) == nil)
  }

  /// A merged header: "Group" over columns 1–2, the cells of columns 0 and
  /// 3 spanning both header rows.
  @Test func mergedHeaderCellsSpanTheirRowsAndColumns() throws {
    let y = [100, 140, 180, 220, 260]
    let x = [100, 300, 500, 700, 900]
    let horizontal =
      [
        PixelRect(minX: 100, minY: y[0], maxX: 903, maxY: y[0] + 3),
        PixelRect(minX: 300, minY: y[1], maxX: 703, maxY: y[1] + 3),
      ] + y[2...].map { PixelRect(minX: 100, minY: $0, maxX: 903, maxY: $0 + 3) }
    let vertical = [
      PixelRect(minX: x[0], minY: 100, maxX: x[0] + 3, maxY: 263),
      PixelRect(minX: x[1], minY: 100, maxX: x[1] + 3, maxY: 263),
      PixelRect(minX: x[2], minY: 140, maxX: x[2] + 3, maxY: 263),
      PixelRect(minX: x[3], minY: 100, maxX: x[3] + 3, maxY: 263),
      PixelRect(minX: x[4], minY: 100, maxX: x[4] + 3, maxY: 263),
    ]
    let table = try #require(
      TableGrid(horizontalRules: horizontal, verticalRules: vertical).tables.first)
    #expect(table.rows == 4 && table.columns == 4)
    let header = table.cells.filter { $0.position.row < 2 }.map(\.position)
    #expect(
      header == [
        TableCellPosition(row: 0, column: 0, rowSpan: 2),
        TableCellPosition(row: 0, column: 1, columnSpan: 2),
        TableCellPosition(row: 0, column: 3, rowSpan: 2),
        TableCellPosition(row: 1, column: 1), TableCellPosition(row: 1, column: 2),
      ])
    #expect(table.cells.count == 5 + 8)
  }

  @Test func rulesElsewhereFramesAndColumnRulesMakeNoTable() {
    // A rule under a heading, away from the grid, stays out of it.
    var grid = Self.grid(columns: 2, rows: 3)
    grid.horizontalRules.append(PixelRect(minX: 100, minY: 20, maxX: 900, maxY: 23))
    #expect(grid.tables.map(\.cells.count) == [6])
    // A frame (one column) is no table.
    #expect(Self.grid(columns: 1, rows: 3).tables.isEmpty)
    // A magazine page: three column rules the height of the page, an
    // article rule across the first column and another across the third.
    // Most lattice places are merged into the articles' regions.
    let page = TableGrid(
      horizontalRules: [
        PixelRect(minX: 100, minY: 100, maxX: 2403, maxY: 103),
        PixelRect(minX: 100, minY: 800, maxX: 903, maxY: 803),
        PixelRect(minX: 1700, minY: 1400, maxX: 2403, maxY: 1403),
        PixelRect(minX: 100, minY: 2000, maxX: 2403, maxY: 2003),
      ],
      verticalRules: [100, 900, 1700, 2400].map {
        PixelRect(minX: $0, minY: 100, maxX: $0 + 3, maxY: 2003)
      })
    #expect(page.tables.isEmpty)
  }

  /// camelot's `column_span_2.pdf`: a note across three columns and five
  /// rows of the body. Most lattice places lie in that one spanning
  /// cell, but most cells are plain cells: a table (before: none, when
  /// half the places had to be plain cells).
  @Test func aTableWhoseSpanningCellCoversMostPlacesIsATable() throws {
    let full = [100, 140, 340, 380].map {
      PixelRect(minX: 100, minY: $0, maxX: 903, maxY: $0 + 3)
    }
    // Rows 1–5 are ruled only across the first column.
    let first = [180, 220, 260, 300].map {
      PixelRect(minX: 100, minY: $0, maxX: 303, maxY: $0 + 3)
    }
    let sides = [100, 300, 900].map { PixelRect(minX: $0, minY: 100, maxX: $0 + 3, maxY: 383) }
    // Columns 2 and 3 are ruled only in the header and the last row.
    let inner = [500, 700].flatMap {
      [
        PixelRect(minX: $0, minY: 100, maxX: $0 + 3, maxY: 143),
        PixelRect(minX: $0, minY: 340, maxX: $0 + 3, maxY: 383),
      ]
    }
    let table = try #require(
      TableGrid(horizontalRules: full + first, verticalRules: sides + inner).tables.first)
    #expect(table.rows == 7 && table.columns == 4)
    #expect(table.cells.count == 4 + 5 + 1 + 4)
    #expect(
      table.cells.contains {
        $0.position == TableCellPosition(row: 1, column: 1, rowSpan: 5, columnSpan: 3)
      })
    #expect(RuledTable.mostlyPlainCells(single: 13, cells: 14, places: 28))
    // The magazine page's lattice: 2 plain cells of 5, in 9 places.
    #expect(!RuledTable.mostlyPlainCells(single: 2, cells: 5, places: 9))
  }

  // MARK: Cells read on their own

  static func line(_ words: [(String, PixelRect)], confidence: Double = 95) -> TextLine {
    TextLine(
      bbox: PixelRect.union(words.map(\.1)) ?? words[0].1,
      words: words.map { Word(text: $0.0, bbox: $0.1, confidence: confidence) })
  }

  static func box(_ x: Int, _ y: Int, _ width: Int = 40) -> PixelRect {
    PixelRect(minX: x, minY: y, maxX: x + width, maxY: y + 20)
  }

  @Test func cellsReadAloneReplaceWhatTesseractReadInThem() throws {
    let table = try #require(Self.grid(columns: 2, rows: 2).tables.first)
    // Tesseract: a paragraph above, then one line across both columns of
    // row 0 joined with the text beside the table, then row 1 as "22".
    let above = Paragraph(
      bbox: Self.box(100, 40, 300), lines: [Self.line([("Above", Self.box(100, 40, 300))])])
    let across = Self.line([
      ("Item", Self.box(110, 110)), ("Rate", Self.box(310, 110)), ("Beside", Self.box(600, 110)),
    ])
    let row1 = Self.line([("Flour", Self.box(110, 150)), ("22", Self.box(310, 150))])
    // Tesseract put the paragraph above and the table in one block.
    let blocks = [
      Block(
        bbox: PixelRect(minX: 100, minY: 40, maxX: 640, maxY: 170),
        paragraphs: [
          above,
          Paragraph(
            bbox: PixelRect(minX: 100, minY: 110, maxX: 640, maxY: 170), lines: [across, row1]),
        ])
    ]
    let composed = try #require(
      TableCells.composing(blocks, reading: .init(table: table, cellLines: Self.itemRateCells)))
    let page = Page(width: 1000, height: 1000, blocks: composed)
    #expect(page.text == "Above\n\nItem\n\nRate\n\nFlour\n\n2.2\n\nBeside\n")
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    #expect(
      paragraphs.map(\.role) == [.body, .tableCell, .tableCell, .tableCell, .tableCell, .body])
    #expect(
      paragraphs.map(\.cell) == [
        nil, TableCellPosition(row: 0, column: 0), TableCellPosition(row: 0, column: 1),
        TableCellPosition(row: 1, column: 0), TableCellPosition(row: 1, column: 1), nil,
      ])
    // The line beside the table shrinks to its word.
    #expect(paragraphs[5].lines[0].bbox == Self.box(600, 110))
    #expect(page.blocks.count == 3)
    #expect(page.blocks[1].bbox == PixelRect(minX: 110, minY: 110, maxX: 350, maxY: 170))
  }

  /// docling's `redp5110` p12: a list item's line read across a table's
  /// cells, its marker left of them and its end right of them. What it
  /// keeps outside is two lines, one each side (before, one line over the
  /// cells taken from it: `verify` found its selection overlapping theirs).
  @Test func aLineCutByATableKeepsEachSideAsALine() throws {
    let table = try #require(Self.grid(columns: 2, rows: 2).tables.first)
    let across = Self.line([
      ("3.", Self.box(40, 110, 30)), ("Item", Self.box(110, 110)), ("Rate", Self.box(310, 110)),
      ("tail", Self.box(600, 110)),
    ])
    let row1 = Self.line([("Flour", Self.box(110, 150)), ("22", Self.box(310, 150))])
    let paragraph = Paragraph(
      bbox: PixelRect.union([across.bbox, row1.bbox]) ?? across.bbox, lines: [across, row1])
    let composed = try #require(
      TableCells.composing(
        [Block(bbox: paragraph.bbox, paragraphs: [paragraph])],
        reading: .init(table: table, cellLines: Self.itemRateCells)))
    let page = Page(width: 1000, height: 1000, blocks: composed)
    let outside = page.blocks.flatMap(\.paragraphs).filter { $0.role != .tableCell }
    #expect(outside.flatMap(\.lines).map(\.bbox) == [Self.box(40, 110, 30), Self.box(600, 110)])
    #expect(page.verify().passed, "\(page.verify().violations)")
  }

  /// The cells of a 2 × 2 grid (rows at y 110 and 150, columns at x 110
  /// and 310) as each reads alone: "Item", "Rate", "Flour", "2.2".
  static var itemRateCells: [[TextLine]] {
    [
      [line([("Item", box(110, 110))])], [line([("Rate", box(310, 110))])],
      [line([("Flour", box(110, 150))])], [line([("2.2", box(310, 150))])],
    ]
  }

  /// Develop `tables-1032`: Tesseract's lines ran across the table into
  /// the text beside it, and that text, cut from them, came first. The
  /// table is read before the text wholly right of it (columns left to
  /// right), after the text wholly above it.
  @Test func aTableIsReadBeforeTheTextBesideIt() throws {
    let table = try #require(Self.grid(columns: 2, rows: 2).tables.first)
    let above = Paragraph(
      bbox: Self.box(100, 40, 300), lines: [Self.line([("Above", Self.box(100, 40, 300))])])
    // The text beside starts a little higher than the table's first row.
    let besideLines = [
      Self.line([("Beside", Self.box(600, 95, 200))]),
      Self.line([("text", Self.box(600, 140, 200))]),
    ]
    let beside = Paragraph(
      bbox: PixelRect(minX: 600, minY: 95, maxX: 800, maxY: 160), lines: besideLines)
    let rows = [
      Self.line([("Item", Self.box(110, 110)), ("Rate", Self.box(310, 110))]),
      Self.line([("Flour", Self.box(110, 150)), ("22", Self.box(310, 150))]),
    ]
    let tableParagraph = Paragraph(
      bbox: PixelRect(minX: 110, minY: 110, maxX: 350, maxY: 170), lines: rows)
    let blocks = [above, beside, tableParagraph].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let composed = try #require(
      TableCells.composing(blocks, reading: .init(table: table, cellLines: Self.itemRateCells)))
    let page = Page(width: 1000, height: 1000, blocks: composed)
    #expect(page.text == "Above\n\nItem\n\nRate\n\nFlour\n\n2.2\n\nBeside\ntext\n")
  }

  /// Develop `tables-1055`: a cell read alone as `97.10` (confidence 65)
  /// where the page's reading has `57.10` (95) keeps the page's word; a
  /// cell read alone as `2.2` where the page's reading has `22` at no
  /// higher confidence takes the reading alone, and so does a cell whose
  /// words the two count differently.
  @Test func aCellReadAloneLessSurelyKeepsTesseractsWords() throws {
    let table = try #require(Self.grid(columns: 2, rows: 2).tables.first)
    func word(_ text: String, _ x: Int, _ y: Int, _ confidence: Double) -> Word {
      Word(text: text, bbox: Self.box(x, y), confidence: confidence)
    }
    func line(_ words: [Word]) -> TextLine {
      TextLine(bbox: PixelRect.union(words.map(\.bbox)) ?? words[0].bbox, words: words)
    }
    let rows = [
      line([word("Item", 110, 110, 95), word("57.10", 310, 110, 95)]),
      line([word("Flour", 110, 150, 80), word("22", 310, 150, 90)]),
    ]
    let paragraph = Paragraph(
      bbox: PixelRect.union(rows.map(\.bbox)) ?? rows[0].bbox, lines: rows)
    let cells = [
      [line([word("ltem", 110, 110, 70), word("x", 130, 110, 70)])],
      [line([word("97.10", 310, 110, 65)])],
      [line([word("Flour", 110, 150, 96)])],
      [line([word("2.2", 310, 150, 90)])],
    ]
    let composed = try #require(
      TableCells.composing(
        [Block(bbox: paragraph.bbox, paragraphs: [paragraph])],
        reading: .init(table: table, cellLines: cells)))
    let page = Page(width: 1000, height: 1000, blocks: composed)
    #expect(page.text == "ltem x\n\n57.10\n\nFlour\n\n2.2\n")
  }

  @Test func cellsThatReadFewerConfidentWordsLeaveTesseractsReading() throws {
    let table = try #require(Self.grid(columns: 2, rows: 2).tables.first)
    let row = Self.line([("Item", Self.box(110, 110)), ("Rate", Self.box(310, 110))])
    let blocks = [
      Block(bbox: row.bbox, paragraphs: [Paragraph(bbox: row.bbox, lines: [row])])
    ]
    let weak = [
      [Self.line([("Itm", Self.box(110, 110))], confidence: 40)],
      [Self.line([("Rate", Self.box(310, 110))])], [], [],
    ]
    #expect(TableCells.composing(blocks, reading: .init(table: table, cellLines: weak)) == nil)
  }
}
