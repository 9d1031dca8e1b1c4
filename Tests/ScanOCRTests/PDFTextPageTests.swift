import ScanModel
import Testing

@testable import ScanOCR

/// The model of a PDF page built from its text (``PDFTextPage``), on text
/// laid out here as Poppler reports it: one box per character, a space's
/// box between its words, a newline ending each line.
@Suite("PDF text page")
struct PDFTextPageTests {
  /// A line of text drawn from `x`, `y` (its top) in points, each
  /// character `size / 2` wide and `1.2 × size` tall.
  struct Run {
    var text: String
    var x: Double
    var y: Double
    var size: Double = 10
  }

  /// Poppler's text of `runs`, in the order given, on a page of 600 × 800
  /// points; `down` draws each run downwards instead (text turned 90°
  /// clockwise).
  static func text(_ runs: [Run], down: Bool = false) -> PDFPageText {
    var characters: [PDFPageText.Character] = []
    for (n, run) in runs.enumerated() {
      if n > 0 {
        characters.append(
          .init(scalar: "\n", box: Rect(minX: 0, minY: 0, maxX: 0, maxY: 0), fontSize: 0))
      }
      for (i, scalar) in run.text.unicodeScalars.enumerated() {
        let start = Double(i) * run.size / 2
        let box =
          down
          ? Rect(
            minX: run.x, minY: run.y + start, maxX: run.x + 1.2 * run.size,
            maxY: run.y + start + run.size / 2)
          : Rect(
            minX: run.x + start, minY: run.y, maxX: run.x + start + run.size / 2,
            maxY: run.y + 1.2 * run.size)
        characters.append(.init(scalar: scalar, box: box, fontSize: run.size))
      }
    }
    return PDFPageText(characters: characters)
  }

  /// The page built from runs, at 1 pixel per point.
  static func page(_ runs: [Run], down: Bool = false) -> Page {
    let (blocks, orientation) = PDFTextPage.blocks(
      text(runs, down: down), width: 600, height: 800, pointsWide: 600, pointsHigh: 800,
      layout: .reading)
    return Page(width: 600, height: 800, orientation: orientation, blocks: blocks)
  }

  static func paragraphs(_ page: Page) -> [String] {
    page.blocks.flatMap(\.paragraphs).map { $0.lines.map(\.text).joined(separator: " ") }
  }

  /// A column of `count` lines of 12 points (10-point type) from `y`.
  static func column(_ words: String, x: Double, y: Double, count: Int) -> [Run] {
    (0..<count).map { Run(text: "\(words) \($0)", x: x, y: y + Double($0) * 12) }
  }

  /// A title over two columns and a short line under them, given in
  /// Poppler's order for such a page (the short line between the
  /// columns): read title, left, right, line.
  @Test func columnsThenAShortLine() {
    let left = Self.column("left column text here", x: 20, y: 100, count: 4)
    let right = Self.column("right column text here", x: 320, y: 100, count: 4)
    let title = Run(text: "A Title Over Both", x: 20, y: 40, size: 20)
    let after = Run(text: "short line", x: 20, y: 170)
    let page = Self.page([title] + left + [after] + right)
    #expect(
      Self.paragraphs(page) == [
        "A Title Over Both", left.map(\.text).joined(separator: " "),
        right.map(\.text).joined(separator: " "), "short line",
      ])
    #expect(page.blocks.flatMap(\.paragraphs).first?.role == .heading)
    #expect(page.verify().passed)
  }

  /// Two columns whose paragraph breaks fall at the same height are read
  /// column by column, not row by row; the end of a long column beside a
  /// short one stays with its column.
  @Test func columnsAreNotCutIntoRows() {
    let left =
      Self.column("left one", x: 20, y: 100, count: 3)
      + Self.column("left two", x: 20, y: 160, count: 3)
    let right =
      Self.column("right one", x: 320, y: 100, count: 3)
      + Self.column("right two", x: 320, y: 160, count: 3)
    #expect(
      Self.page(right + left).words.map(\.text).joined(separator: " ")
        == (left + right).map(\.text).joined(separator: " "))
    let long =
      Self.column("long column of text", x: 20, y: 100, count: 3)
      + Self.column("long column of text", x: 20, y: 160, count: 3)
    let short = Self.column("short column", x: 320, y: 100, count: 2)
    #expect(
      Self.page(long + short).words.map(\.text).joined(separator: " ")
        == (long + short).map(\.text).joined(separator: " "))
  }

  /// Paragraphs of one column: an indented first line after a short line,
  /// a bullet, larger type; a running head beside its page number stands
  /// apart from both (and the page number, found, is read in the running
  /// head's line, as a reader and docling's order read it).
  @Test func paragraphsInAColumn() {
    let runs = [
      Run(text: "Running head", x: 20, y: 20), Run(text: "7", x: 560, y: 20),
      Run(text: "Heading", x: 20, y: 60, size: 16),
      Run(text: "first paragraph runs across the whole column", x: 20, y: 82),
      Run(text: "and ends here.", x: 20, y: 94),
      Run(text: "Indented second paragraph runs across", x: 40, y: 106),
      Run(text: "the column and ends.", x: 20, y: 118),
      Run(text: "• a bullet item", x: 20, y: 130),
      Run(text: "• another", x: 20, y: 142),
    ]
    #expect(
      Self.paragraphs(Self.page(runs)) == [
        "Running head", "7", "Heading",
        "first paragraph runs across the whole column and ends here.",
        "Indented second paragraph runs across the column and ends.", "• a bullet item",
        "• another",
      ])
  }

  /// Lines whose boxes overlap (fonts taller than the line spacing) are
  /// cut at the middle of the overlap, glyphs included, so their
  /// selections do not overlap.
  @Test func overlappingLinesAreTrimmed() {
    let runs = (0..<5).map {
      Run(text: "tight lines of text \($0)", x: 20, y: 100 + Double($0) * 9)
    }
    let page = Self.page(runs)
    let lines = page.blocks.flatMap(\.paragraphs).flatMap(\.lines)
    #expect(lines.count == 5)
    for (a, b) in zip(lines, lines.dropFirst()) { #expect(a.bbox.maxY <= b.bbox.minY) }
    #expect(page.verify().passed, "\(page.verify().violations.prefix(3))")
  }

  /// A word Poppler runs on into the row above without a space (a code
  /// listing's columns) is split where its glyphs jump back up.
  @Test func wordRunOnIntoAnotherRowIsSplit() {
    var text = Self.text([
      Run(text: "4 CARD32 COUNT", x: 20, y: 100), Run(text: "8*COUNT", x: 20, y: 112),
    ])
    // "8*COUNT" then "NAME" of the row above, as one word.
    let name = Self.text([Run(text: "NAME", x: 120, y: 100)]).characters
    text.characters += name
    let (blocks, _) = PDFTextPage.blocks(
      text, width: 600, height: 800, pointsWide: 600, pointsHigh: 800, layout: .reading)
    let lines = blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
    #expect(lines.contains(["8*COUNT"]) && lines.contains(["NAME"]))
    let page = Page(width: 600, height: 800, blocks: blocks)
    #expect(page.verify().passed)
  }

  /// Poppler runs the last word of a column's row on into the first word
  /// of the next column's row, without a space (seen on ScanText's own PDF
  /// of two narrow columns): split into two lines, so the columns are
  /// read one after the other.
  @Test func wordRunOnIntoTheNextColumnIsSplit() {
    let left = Self.column("salt and the dough rest", x: 20, y: 100, count: 3)
    let right = Self.column("millimetres of rain", x: 200, y: 100, count: 3)
    var text = Self.text([left[0]])
    text.characters += Self.text([right[0]]).characters
    text.characters +=
      Self.text([Run(text: "", x: 0, y: 0)] + Array(left.dropFirst()) + right.dropFirst())
      .characters
    let (blocks, _) = PDFTextPage.blocks(
      text, width: 600, height: 800, pointsWide: 600, pointsHigh: 800, layout: .reading)
    let page = Page(width: 600, height: 800, blocks: blocks)
    #expect(page.lines.map(\.text) == (left + right).map(\.text))
    #expect(page.verify().passed)
  }

  /// Text drawn downwards (a page turned by 90°): orientation 90, read in
  /// the same order as upright, with quads whose top-left corner is the
  /// box's top-right.
  @Test func turnedText() {
    let upright = [
      Run(text: "Heading Line", x: 40, y: 20, size: 16), Run(text: "body text one", x: 40, y: 60),
      Run(text: "body text two", x: 40, y: 72),
    ]
    // Turned 90° clockwise on a page 800 wide: (x, y) -> (800 - y - h, x).
    let turned = upright.map {
      Run(text: $0.text, x: 800 - $0.y - 1.2 * $0.size, y: $0.x, size: $0.size)
    }
    let (blocks, orientation) = PDFTextPage.blocks(
      Self.text(turned, down: true), width: 800, height: 600, pointsWide: 800, pointsHigh: 600,
      layout: .reading)
    #expect(orientation == 90)
    let page = Page(width: 800, height: 600, orientation: 90, blocks: blocks)
    #expect(
      page.words.map(\.text) == upright.flatMap { $0.text.split(separator: " ").map(String.init) })
    let word = page.words[0]
    #expect(word.quad?.topLeft == Point(x: Double(word.bbox.maxX), y: Double(word.bbox.minY)))
    #expect(page.verify().passed)
  }

  @Test func listItemMarks() {
    for mark in ["•", "1.", "12)", "a.", "iv)", "(c)", "(12)"] {
      #expect(PDFTextPage.Layout.startsListItem(mark), "\(mark)")
    }
    for word in ["1850.", "e.g.", "The", "123.", "()", "-"] {
      #expect(!PDFTextPage.Layout.startsListItem(word), "\(word)")
    }
  }
}
