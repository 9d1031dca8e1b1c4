import ScanImaging
import ScanModel
import Testing

/// ``FolioInk``: ink standing alone where a page number is printed, in a
/// page's bottom (or top) band, that OCR did not read.
@Suite("Folio ink")
struct FolioInkTests {
  /// A 2000 × 400 bottom band of a page 3000 px tall, lines 30 px high.
  static let band = PixelRect(minX: 0, minY: 2600, maxX: 2000, maxY: 3000)
  static let lineHeight = 30.0

  static func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect {
    PixelRect(minX: x, minY: y, maxX: x + w, maxY: y + h)
  }

  /// The glyphs of a number: `count` figures 18 px wide, 4 px apart.
  static func figures(_ count: Int, x: Int, y: Int) -> [PixelRect] {
    (0..<count).map { box(x + $0 * 22, y, 18, 28) }
  }

  /// A line of words OCR read, from `x`, with its words' ink.
  static func words(x: Int, y: Int, count: Int) -> [PixelRect] {
    (0..<count).map { box(x + $0 * 120, y, 100, 30) }
  }

  @Test func aNumberAloneBelowTheTextIsFound() {
    let text = Self.words(x: 200, y: 2650, count: 12)
    let number = Self.figures(3, x: 980, y: 2900)
    let found = FolioInk.candidates(
      components: number + text, words: text, band: Self.band, atTop: false,
      lineHeight: Self.lineHeight)
    #expect(found == [Self.box(980, 2900, 62, 28)])
  }

  @Test func aNumberATabAwayFromARunningFootIsFound() {
    // "Chapter 3. Row and Column Access Control   27": the words read,
    // the number not.
    let foot = Self.words(x: 900, y: 2900, count: 7)
    let number = Self.figures(2, x: 1800, y: 2901)
    let found = FolioInk.candidates(
      components: number + foot, words: foot, band: Self.band, atTop: false,
      lineHeight: Self.lineHeight)
    #expect(found == [Self.box(1800, 2901, 40, 28)])
  }

  @Test func inkNextToTextIsNoFolio() {
    // A word OCR did not read at the end of a line it read: text, not a
    // page number.
    let line = Self.words(x: 200, y: 2900, count: 5)
    let word = Self.figures(2, x: 790, y: 2900)
    let found = FolioInk.candidates(
      components: word + line, words: line, band: Self.band, atTop: false,
      lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func inkAboveTheLastLineIsNoFolio() {
    // Not the outermost text: a line of words lies below it.
    let number = Self.figures(1, x: 980, y: 2800)
    let foot = Self.words(x: 200, y: 2900, count: 12)
    let found = FolioInk.candidates(
      components: number + foot, words: foot, band: Self.band, atTop: false,
      lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func aFiguresLabelsAreNoFolios() {
    // Five numbers alone in a row: the ticks of a chart's axis.
    let ticks = (0..<5).flatMap { Self.figures(2, x: 200 + $0 * 350, y: 2900) }
    let found = FolioInk.candidates(
      components: ticks, words: [], band: Self.band, atTop: false, lineHeight: Self.lineHeight)
    #expect(found.isEmpty)
  }

  @Test func aMarkTooLargeOrTooSmallIsNoFolio() {
    let logo = [Self.box(900, 2800, 150, 120)]
    let speck = [Self.box(1500, 2950, 8, 8)]
    #expect(
      FolioInk.candidates(
        components: logo + speck, words: [], band: Self.band, atTop: false,
        lineHeight: Self.lineHeight
      ).isEmpty)
  }

  @Test func inkOnTheBandsEdgeIsNoFolio() {
    // A scan's dark border reaching the page's edge.
    let border = [Self.box(0, 2900, 40, 40)]
    #expect(
      FolioInk.candidates(
        components: border, words: [], band: Self.band, atTop: false,
        lineHeight: Self.lineHeight
      ).isEmpty)
  }

  @Test func aNumberAboveTheRunningHeadIsFoundInTheTopBand() {
    let top = PixelRect(minX: 0, minY: 0, maxX: 2000, maxY: 400)
    let head = Self.words(x: 200, y: 200, count: 12)
    let number = Self.figures(2, x: 1800, y: 100)
    let found = FolioInk.candidates(
      components: number + head, words: head, band: top, atTop: true,
      lineHeight: Self.lineHeight)
    #expect(found == [Self.box(1800, 100, 40, 28)])
  }
}
