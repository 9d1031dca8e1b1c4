import Testing

@testable import ScanModel

/// Tables on a page whose content is turned as a whole (a landscape table
/// set sideways on a portrait page) are found in its upright frame.
struct TurnedTableTests {
  /// The image of ``AlignedTableTests/tablePage`` turned: its content
  /// turned `orientation` degrees clockwise on a `width` × `height` image,
  /// every word's and line's outline named in reading order.
  static func turnedPage(orientation: Int, width: Int, height: Int) -> [Block] {
    let frame = UprightFrame(orientation: orientation, width: width, height: height)
    return frame.image(AlignedTableTests.tablePage, carried: .init())
  }

  static func cells(_ blocks: [Block]) -> [(String, TableCellPosition)] {
    blocks.flatMap(\.paragraphs).compactMap { p in
      p.cell.map { (p.lines.flatMap(\.words).map(\.text).joined(separator: " "), $0) }
    }
  }

  @Test(arguments: [90, 270])
  func aSidewaysTableHasItsRowsAndColumnsAsRead(orientation: Int) throws {
    let upright = TableCells.composingAligned(AlignedTableTests.tablePage)
    let expected = Self.cells(upright)
    #expect(expected.count == 12)
    // A portrait image: the table's rows run down it.
    let image = Self.turnedPage(orientation: orientation, width: 1200, height: 1700)
    let found = TableCells.inUprightFrame(
      image, grids: [], orientation: orientation, width: 1200, height: 1700
    ) { blocks, _ in TableCells.composingAligned(blocks) }
    #expect(found.count == upright.count)
    #expect(Self.cells(found).map(\.0) == expected.map(\.0))
    #expect(Self.cells(found).map(\.1) == expected.map(\.1))
    // "Barley", row 1 column 0, lies in the image where its upright box
    // turns to, its outline named from its upright top-left corner.
    let frame = UprightFrame(orientation: orientation, width: 1200, height: 1700)
    let barley = try #require(found.flatMap(\.paragraphs).first { $0.cell?.row == 1 })
    let uprightBarley = try #require(upright.flatMap(\.paragraphs).first { $0.cell?.row == 1 })
    #expect(barley.bbox == frame.imageRect(uprightBarley.bbox))
    let word = try #require(barley.lines.first?.words.first)
    #expect(word.text == "Barley")
    #expect(word.quad == frame.imageQuad(uprightBarley.lines[0].words[0].bbox))
    // The sentence above the table is no cell and comes back as it was.
    #expect(found[0] == image[0])
  }

  /// Found in the image's own frame, the sideways table's rows are no
  /// rows: its cells' places were read down the columns.
  @Test func withoutTheFrameTheSidewaysTableIsNotReadRowByRow() {
    let image = Self.turnedPage(orientation: 90, width: 1200, height: 1700)
    let cells = Self.cells(TableCells.composingAligned(image))
    let upright = Self.cells(TableCells.composingAligned(AlignedTableTests.tablePage))
    #expect(cells.map(\.1) != upright.map(\.1) || cells.map(\.0) != upright.map(\.0))
  }

  @Test func aPageNotTurnedIsLeftToTheRule() {
    let page = AlignedTableTests.tablePage
    let found = TableCells.inUprightFrame(
      page, grids: [], orientation: 0, width: 1200, height: 1700
    ) { blocks, _ in TableCells.composingAligned(blocks) }
    #expect(found == TableCells.composingAligned(page))
  }

  /// A grid's rules turn with the page: the image's horizontal rules run
  /// down the upright frame.
  @Test func aGridTurnsWithThePage() {
    let grid = TableGrid(
      horizontalRules: [PixelRect(minX: 100, minY: 100, maxX: 500, maxY: 103)],
      verticalRules: [PixelRect(minX: 100, minY: 100, maxX: 103, maxY: 900)])
    let frame = UprightFrame(orientation: 90, width: 1200, height: 1700)
    let turned = frame.grid(grid)
    #expect(turned.horizontalRules == [frame.rect(grid.verticalRules[0])])
    #expect(turned.verticalRules == [frame.rect(grid.horizontalRules[0])])
    #expect(turned.horizontalRules[0].width > turned.horizontalRules[0].height)
    #expect(frame.imageRect(frame.rect(grid.verticalRules[0])) == grid.verticalRules[0])
  }
}
