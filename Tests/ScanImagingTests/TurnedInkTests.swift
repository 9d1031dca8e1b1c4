import ScanImaging
import ScanModel
import Testing

/// ``TurnedInk``: the ink of a line set turned a quarter inside an upright
/// page (a column's header set upward), and boxes read in the turned crop
/// placed back in the page.
@Suite("Turned ink")
struct TurnedInkTests {
  static let lineHeight = 30.0

  static func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect {
    PixelRect(minX: x, minY: y, maxX: x + w, maxY: y + h)
  }

  /// A word set upward: `count` glyphs 26 px wide (the type's height),
  /// 14-20 px tall, 3 px apart, stacked from `y` down.
  static func turnedWord(_ count: Int, x: Int, y: Int) -> [PixelRect] {
    (0..<count).map { box(x + ($0 % 2) * 4, y + $0 * 20, 22 + ($0 % 2) * 4, 17) }
  }

  /// A line of upright text: glyphs side by side.
  static func uprightLine(_ count: Int, x: Int, y: Int) -> [PixelRect] {
    (0..<count).map { box(x + $0 * 19, y, 16, 22) }
  }

  @Test func aWordSetUpwardIsOneCandidate() {
    let header = Self.turnedWord(7, x: 400, y: 100)
    let found = TurnedInk.candidates(components: header, lineHeight: Self.lineHeight)
    #expect(found == [PixelRect.union(header)])
  }

  @Test func uprightLinesAndTableRowsAreNone() {
    // Lines of a paragraph 45 px apart, and a column of figures on rows
    // 50 px apart: stacked, but a row's pitch apart.
    let paragraph = (0..<6).flatMap { Self.uprightLine(40, x: 100, y: 300 + $0 * 45) }
    let column = (0..<10).map { Self.box(1500, 300 + $0 * 50, 16, 22) }
    #expect(
      TurnedInk.candidates(components: paragraph + column, lineHeight: Self.lineHeight).isEmpty)
  }

  @Test func aTurnedWordBesideUprightTextIsNone() {
    // Glyphs stacked inside a line of upright text (an "i" over a dot, a
    // colon) have that line's letters beside them.
    let line = Self.uprightLine(10, x: 100, y: 100)
    let stack = Self.turnedWord(4, x: 100 + 10 * 19 + 5, y: 95)
    #expect(TurnedInk.candidates(components: line + stack, lineHeight: Self.lineHeight).isEmpty)
  }

  @Test func boxesReadTurnedComeBackInReadingOrder() {
    // A crop 40 wide and 200 tall at (500, 300). Turned clockwise (text
    // read upward), it is 200 wide and 40 tall; a word at its left end
    // lies at the crop's foot, its top edge on the crop's left.
    let crop = Self.box(500, 300, 40, 200)
    let upward = TurnedInk.placed(Self.box(10, 5, 60, 30), quarterTurns: 1, crop: crop)
    #expect(upward.box == Self.box(505, 430, 30, 60))
    #expect(upward.quad.topLeft == Point(x: 505, y: 490))
    #expect(upward.quad.topRight == Point(x: 505, y: 430))
    #expect(upward.quad.bottomLeft == Point(x: 535, y: 490))
    // Turned counter-clockwise (read downward): its left end at the top,
    // its top edge on the crop's right.
    let downward = TurnedInk.placed(Self.box(10, 5, 60, 30), quarterTurns: 3, crop: crop)
    #expect(downward.box == Self.box(505, 310, 30, 60))
    #expect(downward.quad.topLeft == Point(x: 535, y: 310))
    #expect(downward.quad.topRight == Point(x: 535, y: 370))
  }
}

extension TurnedInkTests {
  @Test func twoTurnedWordsOfOneLineAreOneCandidate() {
    // "Seed count" set upward: two words a word space (18 px, over half a
    // line height) apart in one column.
    let first = Self.turnedWord(5, x: 400, y: 100)
    let second = Self.turnedWord(4, x: 400, y: 100 + 5 * 20 + 15)
    let found = TurnedInk.candidates(components: first + second, lineHeight: Self.lineHeight)
    #expect(found == [PixelRect.union(first + second)])
  }
}

extension TurnedInkTests {
  @Test func aTurnedWordWithAnIsDotIsOneCandidate() {
    // "Spring" set upward (vertical-9001): the "i"'s dot lies beside its
    // stem, on the side of the capital (the "S" three glyphs on), 23 px
    // from the nearest glyph sharing its columns (over half a line
    // height): not stacked with the word's glyphs, but on its rows and,
    // but for a pixel past the capital, in its columns.
    var glyphs = Self.turnedWord(7, x: 404, y: 100)
    glyphs[6] = Self.box(399, 220, 31, 17)
    let dot = Self.box(398, 165, 6, 6)
    let found = TurnedInk.candidates(components: glyphs + [dot], lineHeight: Self.lineHeight)
    #expect(found == [PixelRect.union(glyphs + [dot])])
  }
}
