import Testing

@testable import ScanModel

/// Rows joined by leaders are a table of two columns: the entries and the
/// numbers they lead to (a contents page; issue 44, point 5: the docling
/// set's `redp5110_sampled` p2).
struct LeaderTableTests {
  typealias Fixture = AlignedTableTests

  static let entries = [
    ("Notices", "vii"), ("Preface", "xi"), ("Chapter 1. Securing data", "1"),
    ("1.1 Security fundamentals", "2"), ("1.2 Current state of security", "12"),
  ]

  /// Each entry at x 100, its number flush right at x 2000, a leader
  /// between them, lines 50 px apart (the leaders' marks are paper: the
  /// leaders step took them out of the words).
  static func page(numbers: Bool = true) -> (blocks: [Block], leaders: [PixelRect]) {
    var lines: [TextLine] = []
    var leaders: [PixelRect] = []
    for (i, (entry, number)) in entries.enumerated() {
      let y = 400 + 50 * i
      var line = Fixture.line(entry.split(separator: " ").map(String.init), x: 100, y: y)
      let end = line.bbox.maxX
      if numbers {
        let right = Fixture.line([number], x: 2000 - 16 * number.count, y: y)
        line.words += right.words
        line.bbox = line.bbox.union(right.bbox)
      }
      lines.append(line)
      leaders.append(PixelRect(minX: end + 20, minY: y - 4, maxX: 1900, maxY: y))
    }
    return ([Fixture.block([Fixture.paragraph(lines)])], leaders)
  }

  static func cells(_ blocks: [Block], _ leaders: [PixelRect]) -> [Paragraph] {
    TableCells.composingLeadered(blocks, leaders: leaders).flatMap(\.paragraphs)
      .filter { $0.cell != nil }
  }

  @Test func rowsJoinedByLeadersAreATableOfTwoColumns() throws {
    let (blocks, leaders) = Self.page()
    let tables = LeaderTables.tables(in: blocks, leaders: leaders)
    #expect(tables.count == 1)
    #expect(tables.first?.rows == 5 && tables.first?.columns == 2)
    let cells = Self.cells(blocks, leaders)
    let text = AlignedTableGapTests.text
    let notices = try #require(cells.first { text($0) == "Notices" })
    #expect(notices.cell == TableCellPosition(row: 0, column: 0))
    let number = try #require(cells.first { text($0) == "12" })
    #expect(number.cell == TableCellPosition(row: 4, column: 1))
    // No row labels the columns: front matter's "vii" is a page number.
    #expect(cells.allSatisfy { $0.cell?.isHeader == false })
  }

  /// A form's fill-in lines ("Name ........") lead to nothing: no table.
  @Test func leadersToNothingAreNoTable() {
    let (blocks, leaders) = Self.page(numbers: false)
    #expect(LeaderTables.tables(in: blocks, leaders: leaders).isEmpty)
  }

  /// The same lines without leaders found stay lines.
  @Test func withoutLeadersTheLinesStayLines() {
    let (blocks, _) = Self.page()
    #expect(LeaderTables.tables(in: blocks, leaders: []).isEmpty)
    #expect(Self.cells(blocks, []).isEmpty)
  }
}
