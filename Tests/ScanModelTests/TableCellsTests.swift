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
}
