import ScanImaging
import ScanModel
import Testing

/// ``RowInk``: ink of a cell on the row of a line OCR read, a column's gap
/// from its words, that OCR's layout left out.
@Suite("Row ink")
struct RowInkTests {
  /// Words 24 px high.
  static let lineHeight = 24.0

  static func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect {
    PixelRect(minX: x, minY: y, maxX: x + w, maxY: y + h)
  }

  /// The glyphs of a short cell: `count` letters 14 px wide, 2 px apart.
  static func glyphs(_ count: Int, x: Int, y: Int) -> [PixelRect] {
    (0..<count).map { box(x + $0 * 16, y, 14, 22) }
  }

  /// A row label OCR read: its line's box, its words' boxes, and their ink.
  static func label(x: Int, y: Int, words count: Int) -> (line: PixelRect, words: [PixelRect]) {
    let words = (0..<count).map { box(x + $0 * 110, y, 100, 24) }
    return (words[0].union(words[count - 1]), words)
  }

  @Test func aColumnOfCellsBesideTheRowLabelsIsFound() {
    // "Abdominal pain   19.4%": the labels read, the rates not.
    let rows = (0..<4).map { Self.label(x: 10, y: 20 + $0 * 60, words: 2) }
    let rates = (0..<4).map { Self.glyphs(4, x: 800, y: 21 + $0 * 60) }
    let found = RowInk.candidates(
      components: rows.flatMap(\.words) + rates.flatMap { $0 }, lines: rows.map(\.line),
      words: rows.flatMap(\.words), lineHeight: Self.lineHeight)
    #expect(found.map(\.ink) == (0..<4).map { Self.box(800, 21 + $0 * 60, 62, 22) })
    #expect(found.map(\.line) == [0, 1, 2, 3])
  }

  @Test func inkBetweenTheRowsIsNotACell() {
    // A footnote mark or a note under the labels lies on no read row.
    let rows = (0..<2).map { Self.label(x: 10, y: 20 + $0 * 80, words: 2) }
    let note = Self.glyphs(3, x: 800, y: 60)
    let found = RowInk.candidates(
      components: rows.flatMap(\.words) + note, lines: rows.map(\.line),
      words: rows.flatMap(\.words), lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func theEndOfAWordReadShortIsNotACell() {
    // Ink a space from the last word read is that word's, not a cell.
    let row = Self.label(x: 10, y: 20, words: 2)
    let rest = Self.glyphs(2, x: row.line.maxX + 12, y: 21)
    let found = RowInk.candidates(
      components: row.words + rest, lines: [row.line], words: row.words,
      lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func aRuleAndSpecksOnTheRowAreNotCells() {
    // A rule across the row (thin and long), and specks, are no letters.
    let row = Self.label(x: 10, y: 20, words: 2)
    let rule = Self.box(400, 30, 600, 2)
    let specks = [Self.box(700, 25, 3, 3), Self.box(900, 28, 2, 2)]
    let found = RowInk.candidates(
      components: row.words + [rule] + specks, lines: [row.line], words: row.words,
      lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func aPageFullOfInkLeftOutGivesNothing() {
    // A picture or noise: more groups left out than a table's cells.
    let row = Self.label(x: 10, y: 20, words: 1)
    let noise = (0..<(RowInk.maxGroups + 1)).map { Self.box(200 + $0 * 40, 20, 14, 22) }
    let found = RowInk.candidates(
      components: row.words + noise, lines: [row.line], words: row.words,
      lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }
}
