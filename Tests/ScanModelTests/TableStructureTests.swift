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
