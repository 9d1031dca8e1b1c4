import Testing

@testable import ScanModel

/// A column's lines mended where Tesseract cut them across or along a
/// whitespace river (``ColumnLines``).
struct ColumnLinesTests {
  static func line(_ text: String, x: Int, y: Int) -> TextLine {
    RoleDetectionTests.line(text, x: x, y: y, size: 20)
  }

  static func paragraph(_ lines: [TextLine]) -> Paragraph {
    Paragraph(bbox: PixelRect.union(lines.map(\.bbox)) ?? lines[0].bbox, lines: lines)
  }

  static func block(_ paragraphs: [Paragraph]) -> Block {
    Block(
      bbox: PixelRect.union(paragraphs.map(\.bbox)) ?? paragraphs[0].bbox, paragraphs: paragraphs)
  }

  /// The page's text after mending (or as given).
  static func text(_ blocks: [Block], mend: Bool = true) -> String {
    Page(width: 1400, height: 1400, blocks: mend ? ColumnLines.mendingLines(blocks) : blocks).text
  }

  /// `columns-1000`'s kind of page: "concerns." of a justified line cut
  /// out at its wide spaces into a paragraph of its own, read after the
  /// column.
  @Test func aJustifiedLinesWordsCutOutGoBackIntoTheirLine() {
    let whole = Self.line("problems or concerns. Each", x: 100, y: 124)
    var host = whole
    host.words.remove(at: 2)
    host.bbox = PixelRect.union(host.words.map(\.bbox)) ?? host.bbox
    let cut = TextLine(bbox: whole.words[2].bbox, words: [whole.words[2]])
    let column = Self.paragraph([
      Self.line("may differ in detail to address new", x: 100, y: 100), host,
      Self.line("version of the License is given a", x: 100, y: 148),
    ])
    let blocks = [Self.block([column]), Self.block([Self.paragraph([cut])])]
    #expect(
      Self.text(blocks, mend: false)
        == "may differ in detail to address new\nproblems or Each\n"
        + "version of the License is given a\n\nconcerns.\n")
    #expect(
      Self.text(blocks)
        == "may differ in detail to address new\nproblems or concerns. Each\n"
        + "version of the License is given a\n")
    let mended = ColumnLines.mendingLines(blocks)
    #expect(mended.count == 1)
    #expect(mended[0].paragraphs[0].lines[1].bbox == whole.bbox)
  }

  /// `columns-9019`'s kind of page: a note in the margin read into the
  /// paragraph's first line comes out as a paragraph of its own, read
  /// right after its paragraph (before the next one of the same block).
  @Test func aLineMergedAcrossTheMarginIsCutAtTheRiver() {
    var first = Self.line("To use this License", x: 100, y: 100)
    let note = Self.line("Library in a tool.", x: 900, y: 102)
    first.words += note.words
    first.bbox = first.bbox.union(note.bbox)
    let body = Self.paragraph([
      first, Self.line("have written a copy", x: 100, y: 124),
      Self.line("of the License in", x: 100, y: 148),
    ])
    let next = Self.paragraph([
      Self.line("States should not", x: 100, y: 200), Self.line("allow patents to", x: 100, y: 224),
    ])
    let mended = ColumnLines.mendingLines([Self.block([body, next])])
    #expect(
      Page(width: 1400, height: 1400, blocks: mended).text
        == "To use this License\nhave written a copy\nof the License in\n\n"
        + "Library in a tool.\n\nStates should not\nallow patents to\n")
    #expect(mended.count == 3)
    #expect(mended[1].paragraphs[0].lines[0].bbox == note.bbox)
    #expect(mended[0].paragraphs[0].lines[0].bbox.maxX < 600)
  }

  /// Two columns side by side, and a table whose every row has the same
  /// wide gap, are left as they are: their gaps are rivers.
  @Test func columnsAndTablesKeepTheirLines() {
    let left = Self.paragraph(
      (0..<4).map { Self.line("left column text line", x: 100, y: 100 + 24 * $0) })
    let right = Self.paragraph(
      (0..<4).map { Self.line("right column text", x: 700, y: 100 + 24 * $0) })
    let columns = [Self.block([left]), Self.block([right])]
    #expect(ColumnLines.mendingLines(columns) == columns)

    let rows = (0..<4).map { i in
      var row = Self.line("Item \(i)", x: 100, y: 300 + 24 * i)
      let price = Self.line("\(i).50", x: 800, y: 300 + 24 * i)
      row.words += price.words
      row.bbox = row.bbox.union(price.bbox)
      return row
    }
    let table = [Self.block([Self.paragraph(rows)])]
    #expect(ColumnLines.mendingLines(table) == table)
  }
}
