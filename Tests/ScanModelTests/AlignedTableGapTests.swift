import Testing

@testable import ScanModel

/// Columns are the gaps most rows keep: a row whose two cells touch and a
/// title over several columns do not cut a table, and a line of prose
/// next to one is no row of it (issue 44, point 5; PubTabNet's crops).
struct AlignedTableGapTests {
  typealias Fixture = AlignedTableTests

  /// Left edges of a table of five columns: row labels, then numbers.
  static let columnX = [100, 500, 800, 1100, 1400]

  /// A body row: a label and four numbers, 60 px below the last.
  static func row(_ i: Int, _ label: String) -> [TextLine] {
    let y = 520 + 60 * i
    return [Fixture.line([label], x: columnX[0], y: y)]
      + (1..<5).map { Fixture.line(["\(i)\($0).5"], x: columnX[$0], y: y) }
  }

  static let labels = ["Fever", "Cough", "Rash", "Ache", "Chill", "Cramp"]

  static func cells(_ blocks: [Block]) -> [Paragraph] {
    let composed = TableCells.composingAligned(blocks)
    return composed.flatMap(\.paragraphs).filter { $0.cell != nil }
  }

  static func text(_ paragraph: Paragraph) -> String {
    paragraph.lines.flatMap(\.words).map(\.text).joined(separator: " ")
  }

  /// Tesseract read two cells of one row as one stretch of words across
  /// the gap between their columns (`eh (aT (93)` in PubTabNet's
  /// `PMC4682394_003_00`): that row joins the two cells, the table keeps
  /// its rows and its other columns (before: the run of rows ended there
  /// and the table was cut into pieces).
  @Test func aRowWhoseTwoCellsTouchStaysInTheTable() throws {
    var lines: [TextLine] = []
    for (i, label) in Self.labels.enumerated() {
      var row = Self.row(i, label)
      if i == 2 {
        // Columns 3 and 4 read as one line: "25.5 (a" from x 1100 to 1420.
        let y = 520 + 60 * i
        row.removeLast(2)
        row.append(Fixture.line(["25.5", "(aT1", "(aT2", "(aT3", "(a"], x: 1100, y: y))
      }
      lines += row
    }
    let cells = Self.cells([Fixture.block([Fixture.paragraph(lines)])])
    #expect(Set(cells.compactMap(\.cell?.row)) == Set(0..<6))
    let joined = try #require(cells.first { Self.text($0).hasPrefix("25.5") })
    #expect(joined.cell?.row == 2 && joined.cell?.column == 3 && joined.cell?.columnSpan == 2)
    let last = try #require(cells.first { Self.text($0) == "54.5" })
    #expect(last.cell?.row == 5 && last.cell?.column == 4 && last.cell?.columnSpan == 1)
  }

  @Test func aRowKeepsMostGapsWhenItJoinsFewOfThem() {
    let columns = Self.columnX.map { $0...($0 + 64) }
    func row(_ spans: [ClosedRange<Int>]) -> AlignedTables.Row {
      let segments = spans.map { span in
        AlignedTables.Segment(
          words: [],
          box: PixelRect(minX: span.lowerBound, minY: 0, maxX: span.upperBound, maxY: 30),
          baseline: 24, paragraph: 0)
      }
      return AlignedTables.Row(baseline: 24, segments: segments)
    }
    // Four segments, one over the gap between columns 3 and 4: kept.
    #expect(
      AlignedTables.keepsMostGaps(
        row([100...164, 500...564, 800...864, 1100...1440]), columns: columns, h: 30))
    // A line of prose over every gap: not kept.
    #expect(!AlignedTables.keepsMostGaps(row([100...1440]), columns: columns, h: 30))
    // Two segments each over two gaps: not kept (fewer than three).
    #expect(
      !AlignedTables.keepsMostGaps(row([100...560, 800...1440]), columns: columns, h: 30))
    // Three columns: one joined gap of two is too many.
    #expect(
      !AlignedTables.keepsMostGaps(
        row([100...164, 500...864, 1100...1164]), columns: Array(columns.prefix(3)), h: 30))
  }

  /// A title of several words over the number columns (PubTabNet's
  /// `PMC4682394_003_00`: "N (% of each presenting complaints)" over six
  /// columns) is one header cell spanning them, and the columns under it
  /// stay apart (before: they were one column, as the title joins them).
  @Test func aTitleOfSeveralWordsRightOfTheLabelsSpansItsColumns() throws {
    var lines = [
      Fixture.line(["Complaint"], x: 100, y: 380),
      Fixture.line(["Total"], x: 500, y: 380),
      Fixture.line(
        ["Count", "of", "each", "complaint", "by", "sign", "and", "week", "seen"], x: 800, y: 380),
    ]
    lines += (2..<5).map { Fixture.line(["Sign\($0)"], x: Self.columnX[$0], y: 460) }
    for (i, label) in Self.labels.enumerated() { lines += Self.row(i, label) }
    let cells = Self.cells([Fixture.block([Fixture.paragraph(lines)])])
    let title = try #require(cells.first { Self.text($0).hasPrefix("Count of each") })
    #expect(title.cell?.row == 0 && title.cell?.column == 2 && title.cell?.columnSpan == 3)
    #expect(cells.first { Self.text($0) == "Sign3" }?.cell?.column == 3)
    #expect(cells.first { Self.text($0) == "03.5" }?.cell?.column == 3)
    #expect(cells.first { Self.text($0) == "04.5" }?.cell?.column == 4)
  }

  /// A margin note beside a paragraph of prose is still no cell: one
  /// short column beside running text is no table.
  @Test func aMarginNoteBesideProseIsNoCell() {
    let prose = (0..<6).map { i in
      Fixture.line(
        ["the", "seed", "bank", "keeps", "every", "batch", "of", "grain", "dry"], x: 100,
        y: 400 + 52 * i)
    }
    let notes = [Fixture.line(["1751"], x: 1400, y: 400), Fixture.line(["1752"], x: 1400, y: 556)]
    let blocks = [
      Fixture.block([Fixture.paragraph(prose)]),
      Fixture.block([Fixture.paragraph(notes, role: .marginalia)]),
    ]
    #expect(Self.cells(blocks).isEmpty)
  }
}
