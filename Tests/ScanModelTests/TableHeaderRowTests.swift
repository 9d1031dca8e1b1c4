import Testing

@testable import ScanModel

/// A line the role rule calls a running head is a table's header row when
/// its words line up with the table's columns directly below it (issue 44,
/// point 5; PubTabNet's `PMC4682394_003_00`, a crop that is one table).
struct TableHeaderRowTests {
  typealias Fixture = AlignedTableTests

  /// Left edges of three columns: labels, numbers, statuses.
  static let columnX = [200, 600, 1000]
  static let body = [
    ["Barley", "12.5", "done"],
    ["Sedge", "-0.75", "sent"],
    ["Lupin", "+130.168", "new"],
    ["Spelt", "7.25", "held"],
  ]

  /// The table's body rows from y = 400, 80 px apart, one paragraph, under
  /// `head` (a paragraph with the given role).
  static func page(head: Paragraph) -> [Block] {
    var lines: [TextLine] = []
    for (i, row) in body.enumerated() {
      for (j, x) in columnX.enumerated() {
        lines.append(Fixture.line([row[j]], x: x, y: 400 + 80 * i))
      }
    }
    return [Fixture.block([head]), Fixture.block([Fixture.paragraph(lines)])]
  }

  static func cells(_ blocks: [Block]) -> [Paragraph] {
    TableCells.composingAligned(blocks).flatMap(\.paragraphs).filter { $0.cell != nil }
  }

  static func text(_ paragraph: Paragraph) -> String {
    paragraph.lines.flatMap(\.words).map(\.text).joined(separator: " ")
  }

  @Test func aRunningHeadOverTheColumnsIsTheTablesHeaderRow() throws {
    // One line, as Tesseract reads a header row, 80 px over the first row.
    let line = Fixture.line(["Species"], x: 200, y: 320)
    let more = [
      Fixture.line(["Weight"], x: 600, y: 320), Fixture.line(["Status"], x: 1000, y: 320),
    ]
    let words = ([line] + more).flatMap(\.words)
    let head = TextLine(
      bbox: PixelRect.union(words.map(\.bbox)) ?? line.bbox, baseline: line.baseline, words: words)
    let cells = Self.cells(Self.page(head: Fixture.paragraph([head], role: .header)))
    #expect(cells.count == 15)
    for (j, name) in ["Species", "Weight", "Status"].enumerated() {
      let cell = try #require(cells.first { Self.text($0) == name })
      #expect(cell.cell?.row == 0 && cell.cell?.column == j && cell.cell?.isHeader == true)
      #expect(cell.role == .tableCell)
    }
    let spelt = try #require(cells.first { Self.text($0) == "Spelt" })
    #expect(spelt.cell?.row == 4 && spelt.cell?.column == 0 && spelt.cell?.isHeader == false)
  }

  @Test func aRunningHeadThatDoesNotBreakAtTheColumnsStaysFurniture() {
    // One stretch of words over the first two columns' gap.
    let joined = Fixture.paragraph(
      [Fixture.line(["Annual", "report", "of", "the", "seed", "station"], x: 200, y: 320)],
      role: .header)
    // Set apart: 200 px over the first row.
    let far = Fixture.paragraph(
      [
        TextLine(
          bbox: PixelRect(minX: 200, minY: 176, maxX: 1100, maxY: 206), baseline: nil,
          words: [
            Word(text: "Species", bbox: PixelRect(minX: 200, minY: 176, maxX: 312, maxY: 206)),
            Word(text: "Status", bbox: PixelRect(minX: 1000, minY: 176, maxX: 1096, maxY: 206)),
          ])
      ], role: .header)
    for head in [joined, far] {
      let blocks = Self.page(head: head)
      let cells = Self.cells(blocks)
      #expect(cells.count == 12)
      #expect(!cells.contains { $0.bbox.minY < 370 })
      let kept = TableCells.composingAligned(blocks).flatMap(\.paragraphs).filter {
        $0.role == .header
      }
      #expect(kept.map(\.lines) == [head.lines])
    }
  }
}
