import Testing

@testable import ScanModel

/// Columns of a table that the role rule calls marginalia (narrow blocks
/// at the page's side) join the table when they stand on its rows; a
/// margin note beside a table stays a margin note (issue 44, point 5;
/// PubTabNet's `PMC1626454_002_00`).
struct MarginalColumnTests {
  typealias Fixture = AlignedTableTests
  typealias Gap = AlignedTableGapTests

  /// Rows of five columns (``AlignedTableGapTests/row(_:_:)``): the labels
  /// and the first two number columns in the page's body, the last two
  /// number columns each a paragraph of its own called marginalia.
  static func blocks() -> [Block] {
    var body: [TextLine] = []
    var margins: [[TextLine]] = [[], []]
    for (i, label) in Gap.labels.enumerated() {
      let row = Gap.row(i, label)
      body += row.prefix(3)
      margins[0].append(row[3])
      margins[1].append(row[4])
    }
    return [Fixture.block([Fixture.paragraph(body)])]
      + margins.map { Fixture.block([Fixture.paragraph($0, role: .marginalia)]) }
  }

  @Test func numberColumnsCalledMarginaliaJoinTheTableTheyStandOn() throws {
    let cells = Gap.cells(Self.blocks())
    #expect(Set(cells.compactMap(\.cell?.column)) == Set(0..<5))
    let last = try #require(cells.first { Gap.text($0) == "54.5" })
    #expect(last.cell?.row == 5 && last.cell?.column == 4)
    let fever = try #require(cells.first { Gap.text($0) == "03.5" })
    #expect(fever.cell?.row == 0 && fever.cell?.column == 3)
  }

  /// Without marginalia the same table is found as before, and lines of
  /// a margin note beside it (its own pitch, between the table's rows)
  /// take no part.
  @Test func aMarginNoteBesideATableStaysOutOfIt() throws {
    var body: [TextLine] = []
    for (i, label) in Gap.labels.enumerated() { body += Gap.row(i, label).prefix(3) }
    // A note right of the table, lines 45 px apart starting between rows.
    let note = (0..<5).map { Fixture.line(["see", "note", "\($0)"], x: 1100, y: 545 + 45 * $0) }
    let blocks = [
      Fixture.block([Fixture.paragraph(body)]),
      Fixture.block([Fixture.paragraph(note, role: .marginalia)]),
    ]
    let composed = TableCells.composingAligned(blocks)
    let cells = composed.flatMap(\.paragraphs).filter { $0.cell != nil }
    #expect(Set(cells.compactMap(\.cell?.column)) == Set(0..<3))
    #expect(!cells.contains { Gap.text($0).hasPrefix("see") })
    let notes = composed.flatMap(\.paragraphs).filter { $0.role == .marginalia }
    #expect(notes.flatMap(\.lines).count == 5)
  }

  /// Two marginal lines on the table's rows are no column (a column holds
  /// three cells or more): the table keeps its three columns.
  @Test func twoMarginalLinesAreNoColumn() {
    var body: [TextLine] = []
    for (i, label) in Gap.labels.enumerated() { body += Gap.row(i, label).prefix(3) }
    let margin = (0..<2).map { Gap.row($0, Gap.labels[$0])[3] }
    let cells = Gap.cells([
      Fixture.block([Fixture.paragraph(body)]),
      Fixture.block([Fixture.paragraph(margin, role: .marginalia)]),
    ])
    #expect(Set(cells.compactMap(\.cell?.column)) == Set(0..<3))
    #expect(!cells.contains { Gap.text($0) == "03.5" })
  }
}
