import Testing

@testable import ScanModel

/// Tables as papers and reports set them: header rows over columns of
/// numbers, rules only between the columns (open sides).
struct TableStructureTests {
  @Test func theRowsAboveTheFirstNumbersAreTheHeader() {
    func cells(_ rows: [[String]]) -> [(position: TableCellPosition, text: String)] {
      rows.enumerated().flatMap { i, row in
        row.enumerated().map { (TableCellPosition(row: i, column: $0), $1) }
      }
    }
    // "Web pages 3.71T": a name column beside a column of amounts.
    let corpus = [
      ["Source", "Tokens"], ["Web pages", "3.71T"], ["Code", "0.78T"], ["Books", "0.10T"],
    ]
    #expect(TableHeader.rowCount(cells(corpus)) == 1)
    #expect(
      TableHeader.marking(cells(corpus)).map(\.isHeader) == [
        true, true, false, false, false, false, false, false,
      ])
    // Two header rows (a group title, then its columns).
    let grouped = [
      ["Model", "TEDs"], ["", "all"], ["OTSL", "0.955"], ["HTML", "0.955"], ["x", "0.9"],
    ]
    #expect(TableHeader.rowCount(cells(grouped)) == 2)
    // A table of words only has no header told from its cells.
    let glossary = [["Barley", "a cereal"], ["Woad", "a dye plant"], ["Flax", "a fibre"]]
    #expect(TableHeader.rowCount(cells(glossary)) == 0)
    // Numbers from the first row on: no header.
    let data = [["2019", "12"], ["2020", "14"], ["2021", "15"]]
    #expect(TableHeader.rowCount(cells(data)) == 0)
    #expect(TableHeader.isNumber("−0.75") && TableHeader.isNumber("$1,200"))
    #expect(!TableHeader.isNumber("mAP (0.75)") && !TableHeader.isNumber("Inference"))
  }

  /// PubTabNet's `PMC1626454_002_00`: the table's first row holds only
  /// marks read as no words, and three rows of labels follow it over the
  /// columns of percentages. The empty row neither starts nor ends the
  /// header: the three labelled rows are header rows (no row was).
  @Test func aRowWithoutTextNeitherStartsNorEndsTheHeader() {
    var cells: [(position: TableCellPosition, text: String)] = []
    let rows = [
      ["", "", ""], ["Statement", "General", "lay persons"], ["", "rather", "rather"],
      ["", "disagree", "agree"], ["1. Drugs help", "7.1", "26.3"], ["2. Drugs harm", "45", "5"],
      ["3. Drugs calm", "68.7", "1"], ["4. Drugs shorten stays", "0", "75.8"],
      ["5. Drugs make ill", "69", "8.8"], ["6. Drugs ease", "3", "16.5"],
    ]
    for (i, row) in rows.enumerated() {
      for (j, text) in row.enumerated() where !text.isEmpty {
        cells.append((TableCellPosition(row: i, column: j), text))
      }
    }
    // The empty first row counts as a row of the table.
    cells.append((TableCellPosition(row: 0, column: 0), ""))
    #expect(TableHeader.rowCount(cells) == 4)
    #expect(
      TableHeader.marking(cells).filter(\.isHeader).map(\.row) == [1, 1, 1, 2, 2, 3, 3, 0])
  }

  /// PubTabNet's `PMC4172848_007_00`: two header rows set bold, group
  /// titles ("Agency level") over "6-Month (n = 80)", above counts in the
  /// regular face, and bold section titles in the label column. The
  /// second header row reads as numbers (its cells start with a digit):
  /// told by the text alone the header is one row; told by the type, two.
  /// A section title lies over no data column: it starts the body.
  @Test func boldRowsOverTheDataColumnsAreTheHeader() {
    let rows = [
      ["", "Agency level", "", "Individual level"],
      ["", "6-Month (n = 80)", "12-Month (n = 80)", "6-Month (n = 228)"],
      ["Number of couples per facilitator: Mean (SD)", "", "", ""],
      ["Manual-based", "1.38 (4.79)", "1.15 (2.53)", "0.46 (2.00)"],
      ["Web-based", "0.53 (1.47)", "0.25 (0.67)", "0.19 (0.91)"],
      ["Overall", "0.95 (3.55)", "0.70 (1.89)", "0.33 (1.58)"],
      ["Mean of sessions per facilitator: Mean (SD)", "", "", ""],
      ["Manual-based", "0.49 (1.27)", "0.69 (1.31)", "0.41 (1.24)"],
      ["Web-based", "0.23 (0.61)", "0.15 (0.39)", "0.24 (0.99)"],
      ["Overall", "0.36 (1.00)", "0.42 (1.00)", "0.33 (1.13)"],
    ]
    let bold: Set<Int> = [0, 1, 2, 6]
    var cells: [(position: TableCellPosition, text: String)] = []
    var weights: [Double?] = []
    for (i, row) in rows.enumerated() {
      for (j, text) in row.enumerated() where !text.isEmpty {
        cells.append((TableCellPosition(row: i, column: j), text))
        // Bold stems about 1.6 times the regular ones (``TypeWeight``).
        weights.append(bold.contains(i) ? 0.16 : 0.10)
      }
    }
    #expect(TableHeader.rowCount(cells) == 1)
    #expect(TableHeader.rowCount(cells, weights: weights) == 2)
    #expect(
      TableHeader.marking(cells, weights: weights).filter(\.isHeader).map(\.row) == [
        0, 0, 1, 1, 1,
      ])
    // Type not measured in the body: the text alone tells.
    let top = weights.enumerated().map { k, weight in cells[k].position.row < 2 ? weight : nil }
    #expect(TableHeader.rowCount(cells, weights: top) == 1)
    // Every row in one face: the type tells nothing, the text does.
    let even = weights.map { _ in Double?(0.10) }
    #expect(TableHeader.rowCount(cells, weights: even) == 1)
  }

  /// The first rule across the table ends the header when the body under
  /// it is open: a rule under two header rows makes two, whatever they
  /// hold; rules between every row (a grid) or under half the table and
  /// more tell nothing, and the text tells.
  @Test func theFirstRuleAcrossAnOpenTableEndsItsHeader() {
    let rows = [
      ["Crop", "Yield", "Yield"], ["", "2019", "2020"], ["Barley", "12.5", "13.1"],
      ["Oats", "9.5", "8.75"], ["Rye", "4.25", "5.5"], ["Flax", "3.5", "2.25"],
      ["Hemp", "1.5", "1.75"],
    ]
    let cells = rows.enumerated().flatMap { i, row in
      row.enumerated().filter { !$0.element.isEmpty }.map {
        (position: TableCellPosition(row: i, column: $0.offset), text: $0.element)
      }
    }
    #expect(TableHeader.rowCount(cells) == 1)
    #expect(TableHeader.rowCount(cells, rules: [2]) == 2)
    // A section rule lower down besides: the body is still open.
    #expect(TableHeader.rowCount(cells, rules: [2, 5]) == 2)
    // Every row ruled off: a grid.
    #expect(TableHeader.rowCount(cells, rules: Set(1..<7)) == 1)
    // The first rule under the table's top half: no header told by it.
    #expect(TableHeader.rowCount(cells, rules: [4]) == 1)
  }

  /// A table of words only (a glossary) has no header told from its
  /// text; a first row set bold over a body in the regular face is one.
  @Test func aTableOfWordsHasItsBoldRowsForAHeader() {
    let rows = [
      ["Plant", "Use"], ["Barley", "a cereal"], ["Woad", "a dye plant"], ["Flax", "a fibre"],
      ["Hemp", "rope"],
    ]
    let cells = rows.enumerated().flatMap { i, row in
      row.enumerated().map { (position: TableCellPosition(row: i, column: $0), text: $1) }
    }
    let weights = cells.map { Double?($0.position.row == 0 ? 0.16 : 0.10) }
    #expect(TableHeader.rowCount(cells) == 0)
    #expect(TableHeader.rowCount(cells, weights: weights) == 1)
    // The bold row must lead: a bold row further down is no header.
    let lower = cells.map { Double?($0.position.row == 1 ? 0.16 : 0.10) }
    #expect(TableHeader.rowCount(cells, weights: lower) == 0)
  }

  /// Rules between the columns and across the rows, none round the
  /// table's sides (the usual paper table): the outer columns lie between
  /// the last column rule and the row rules' ends.
  @Test func aTableRuledBetweenItsColumnsKeepsItsOuterColumns() throws {
    let ys = [100, 160, 220, 280]
    let horizontal = ys.map { PixelRect(minX: 100, minY: $0, maxX: 900, maxY: $0 + 3) }
    let vertical = [300, 600].map { PixelRect(minX: $0, minY: 100, maxX: $0 + 3, maxY: 283) }
    let table = try #require(
      TableGrid(horizontalRules: horizontal, verticalRules: vertical).tables.first)
    #expect(table.rows == 3 && table.columns == 3)
    #expect(table.cells.count == 9)
    #expect(table.cell(at: Point(x: 150, y: 130))?.position == TableCellPosition(row: 0, column: 0))
    #expect(table.cell(at: Point(x: 850, y: 250))?.position == TableCellPosition(row: 2, column: 2))
    // Nothing outside the rules' ends is a cell.
    #expect(table.cell(at: Point(x: 950, y: 130)) == nil)
  }
}
