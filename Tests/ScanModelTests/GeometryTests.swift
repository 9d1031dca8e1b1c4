import Testing

@testable import ScanModel

@Suite("Selection, carets and hit testing")
struct GeometryTests {
  let page = PageFixtures.sample

  @Test func wholeLineSelectionCoversItsWords() throws {
    let rects = page.selectionRects(for: page.range(0..<20))
    #expect(rects.count == 1)
    let r = try #require(rects.first)
    #expect(r.rect == Rect(minX: 100, minY: 100, maxX: 300, maxY: 120))
    #expect(r.containsStart && r.containsEnd && !r.isVertical)
    #expect(r.quad == Quad(Rect(minX: 100, minY: 100, maxX: 300, maxY: 120)))
  }

  @Test func selectionAcrossLinesHasOneRectPerLine() {
    let rects = page.selectionRects(for: page.range(5..<25))
    #expect(
      rects.map(\.rect) == [
        Rect(minX: 150, minY: 100, maxX: 300, maxY: 120),
        Rect(minX: 100, minY: 130, maxX: 140, maxY: 150),
      ])
    #expect(rects.map(\.containsStart) == [true, false])
    #expect(rects.map(\.containsEnd) == [false, true])
    #expect(rects.map(\.lineNumber) == [0, 1])
    #expect(rects.map(\.range.offsets) == [5..<20, 21..<25])
  }

  @Test func emptySelectionsHaveNoRectsAndLineBreaksHaveOneAtTheLineEnd() throws {
    #expect(page.selectionRects(for: page.range(5..<5)).isEmpty)
    // A range of line breaks only: a zero-width rect at the end of the line
    // it starts on, as UIKit draws it (it once returned nothing).
    let breakOnly = page.selectionRects(for: page.range(20..<21))
    #expect(breakOnly.map(\.rect) == [Rect(minX: 300, minY: 100, maxX: 300, maxY: 120)])
    #expect(breakOnly.first?.containsStart == true && breakOnly.first?.containsEnd == true)
    #expect(
      page.selectionRects(for: page.range(56..<58)).map(\.rect) == [
        Rect(minX: 450, minY: 130, maxX: 450, maxY: 150)
      ])
  }

  @Test func theStartHandleStandsWhereTheStartCaretIs() throws {
    // A selection from the end of line 0 into line 1: its start caret is
    // on line 0, so the rect marked containsStart is there too.
    let rects = page.selectionRects(for: page.range(20..<25))
    let caret = try #require(page.caretRect(for: page.pos(20)))
    #expect(rects.map(\.lineNumber) == [0, 1])
    let start = try #require(rects.first { $0.containsStart })
    #expect(start.lineNumber == caret.lineNumber)
    #expect(start.bounds == caret.bounds)
    #expect(rects.last?.containsEnd == true && rects.last?.range.offsets == 21..<25)
  }

  @Test func caretsAndFirstRect() {
    #expect(
      page.caretRect(for: page.pos(5))?.bounds == Rect(minX: 150, minY: 100, maxX: 150, maxY: 120))
    // In the space after "The" the caret sits at the end of "The"; after it, at "quick".
    #expect(page.caretRect(for: page.pos(3))?.bounds.minX == 130)
    #expect(page.caretRect(for: page.pos(4))?.bounds.minX == 140)
    // In the newlines after a line: that line's end.
    #expect(
      page.caretRect(for: page.pos(57))?.bounds == Rect(minX: 450, minY: 130, maxX: 450, maxY: 150))
    #expect(
      page.firstRect(for: page.range(5..<25)) == Rect(minX: 150, minY: 100, maxX: 300, maxY: 120))
    #expect(
      page.firstRect(for: page.range(20..<25)) == Rect(minX: 100, minY: 130, maxX: 140, maxY: 150))
    #expect(page.firstRect(for: page.range(7..<7)) == page.caretRect(for: page.pos(7))?.bounds)
  }

  @Test func hitTesting() {
    #expect(page.closestPosition(to: Point(x: 152, y: 110)) == page.pos(5))
    // Far right of line 0 but nearer to the longer line 1: nearest means
    // nearest (it used to prefer the line level with the point).
    #expect(page.closestPosition(to: Point(x: 900, y: 110)) == page.pos(56))
    #expect(page.closestPosition(to: Point(x: 305, y: 110)) == page.pos(20))
    #expect(page.closestPosition(to: Point(x: 0, y: 0)) == page.pos(0))
    #expect(page.closestPosition(to: Point(x: 152, y: 140)) == page.pos(26))
    #expect(page.characterRange(at: Point(x: 145, y: 110))?.offsets == 4..<5)
    #expect(page.characterRange(at: Point(x: 135, y: 110))?.offsets == 3..<4)
    #expect(page.word(at: Point(x: 145, y: 110))?.text == "quick")
    #expect(page.word(at: Point(x: 135, y: 110)) == nil)
    #expect(page.word(at: Point(x: 145, y: 125)) == nil)
    #expect(page.lineNumber(at: Point(x: 145, y: 125)) == nil)
    #expect(page.lineNumber(at: Point(x: 145, y: 110)) == 0)
    #expect(page.nearestLineNumber(to: Point(x: 145, y: 124)) == 0)
    #expect(
      page.closestPosition(to: Point(x: 152, y: 110), within: page.range(30..<40)) == page.pos(30))
    #expect(
      page.closestPosition(to: Point(x: 152, y: 110), within: page.range(2..<40)) == page.pos(5))
  }

  @Test func readingContent() {
    #expect(page.content(forLineNumber: 1) == "Dr. Smith can't e-mail 3.14 people.")
    #expect(page.content(forLineNumber: 3) == nil)
    #expect(page.frame(forLineNumber: 0) == Rect(minX: 100, minY: 100, maxX: 300, maxY: 120))
    #expect(page.frame(forLineNumber: -1) == nil)
    #expect(page.pageContent == page.text)
    #expect(page.lineNumber(containing: page.pos(30)) == 1)
    #expect(page.lineNumber(containing: page.pos(57)) == nil)
  }

  @Test func everyGlyphCentreHitsItsGlyph() {
    for word in page.words {
      for glyph in word.glyphs {
        #expect(page.characterRange(at: glyph.bbox.center) == glyph.range)
        #expect(page.word(at: glyph.bbox.center) == word)
      }
    }
    #expect(page.verify().passed)
  }

  @Test func overlappingLineBoxesGetTrimmedBands() throws {
    func line(_ text: String, y0: Int, y1: Int) -> TextLine {
      let word = Word(text: text, bbox: PixelRect(minX: 0, minY: y0, maxX: 100, maxY: y1))
      return TextLine(bbox: word.bbox, words: [word])
    }
    let lines = [line("upper", y0: 100, y1: 125), line("lower", y0: 120, y1: 145)]
    let page = Page(
      width: 200, height: 200,
      blocks: [
        Block(
          bbox: PixelRect(minX: 0, minY: 100, maxX: 100, maxY: 145),
          paragraphs: [
            Paragraph(bbox: PixelRect(minX: 0, minY: 100, maxX: 100, maxY: 145), lines: lines)
          ])
      ])
    let rects = page.selectionRects(for: page.documentRange)
    #expect(rects.map(\.rect.maxY) == [122.5, 145])
    #expect(rects.map(\.rect.minY) == [100, 122.5])
    #expect(page.lineNumber(at: Point(x: 50, y: 121)) == 0)
    #expect(page.lineNumber(at: Point(x: 50, y: 124)) == 1)
  }

  /// Two lines of neighbouring columns on a curled page (`photo-curl.jpg`
  /// read with `--no-preprocess`: lines 8 and 11), sloped 6.7° and 5°: the
  /// left one's end touches the right one's start. Only the part of a
  /// neighbour alongside a line may trim its band; measured over the whole
  /// neighbour, the right line's band lost 3.8 px at the bottom and its last
  /// word stuck out of its selection (2 `verify` violations).
  @Test func aNeighbourBesideTheLineDoesNotTrimItsBand() throws {
    func line(_ text: String, _ corners: [(Double, Double)]) -> TextLine {
      let points = corners.map { Point(x: $0.0, y: $0.1) }
      let quad = Quad(
        topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
      let box = quad.boundingRect
      let bbox = PixelRect(
        minX: Int(box.minX.rounded(.down)), minY: Int(box.minY.rounded(.down)),
        maxX: Int(box.maxX.rounded(.up)), maxY: Int(box.maxY.rounded(.up)))
      return TextLine(bbox: bbox, quad: quad, words: [Word(text: text, bbox: bbox, quad: quad)])
    }
    let left = line(
      "brew", [(506.95, 761.39), (785.91, 793.97), (780.55, 839.89), (501.59, 807.31)])
    let right = line(
      "boiling,", [(786.93, 733.98), (1339.26, 781.97), (1334.15, 840.81), (781.82, 792.82)])
    let page = Page(
      width: 1400, height: 900,
      blocks: [left, right].map { line in
        Block(bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])
      })
    let rects = page.selectionRects(for: page.documentRange)
    #expect(rects.count == 2)
    for (rect, line) in zip(rects, [left, right]) {
      let quad = try #require(line.quad)
      for (a, b) in zip(rect.quad.corners, quad.corners) {
        #expect(abs(a.x - b.x) < 0.01 && abs(a.y - b.y) < 0.01, "\(rect.quad) against \(quad)")
      }
    }
    #expect(page.verify().passed, "\(page.verify().violations.prefix(2))")
  }

  @Test func slopedBaselineGivesTiltedSelection() throws {
    // Words stepping down 10 px per 100 px (about 5.7°).
    var words: [Word] = []
    for k in 0..<5 {
      words.append(
        Word(
          text: "w\(k)",
          bbox: PixelRect(minX: 100 * k, minY: 100 + 10 * k, maxX: 100 * k + 90, maxY: 130 + 10 * k)
        ))
    }
    let box = PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    let line = TextLine(
      bbox: box, baseline: Baseline(start: Point(x: 0, y: 125), end: Point(x: 490, y: 174)),
      words: words)
    let page = Page(
      width: 600, height: 300,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    let r = try #require(page.selectionRects(for: page.documentRange).first)
    // The quad's top edge follows the baseline's slope.
    let slope = (r.quad.topRight.y - r.quad.topLeft.y) / (r.quad.topRight.x - r.quad.topLeft.x)
    #expect(abs(slope - 0.1) < 1e-9)
    let report = page.verify()
    #expect(report.passed, "\(report.violations)")
  }

  @Test func verifyReportsBrokenGeometry() {
    let good = Word(text: "ok", bbox: PixelRect(minX: 0, minY: 0, maxX: 20, maxY: 20))
    let huge = Word(text: "x", bbox: PixelRect(minX: 0, minY: 0, maxX: 1000, maxY: 1000))
    let flat = Word(text: "y", bbox: PixelRect(minX: 30, minY: 5, maxX: 30, maxY: 15))
    let line = TextLine(
      bbox: PixelRect(minX: 0, minY: 0, maxX: 40, maxY: 20), words: [good, huge, flat])
    let page = Page(
      width: 1000, height: 1000,
      blocks: [Block(bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])])
    let kinds = Set(page.verify().violations.map(\.kind))
    #expect(kinds.contains(.oversizedBox))
    #expect(kinds.contains(.emptyBox))
    #expect(kinds.contains(.wordOutsideLine))
    #expect(
      page.verify().violations.allSatisfy { $0.description.hasPrefix("page 0, line 0") },
      "\(page.verify().violations)")
  }

  @Test func nearestLineIsTheNearestOutline() throws {
    // Column 1 at x 100–300; column 2 at x 700–900, its lines offset by 15 px.
    func line(_ text: String, x: Int, y: Int) -> TextLine {
      let w = Word(text: text, bbox: PixelRect(minX: x, minY: y, maxX: x + 200, maxY: y + 20))
      return TextLine(bbox: w.bbox, words: [w])
    }
    let column1 = (0..<5).map { line("left\($0)", x: 100, y: 100 + 40 * $0) }
    let column2 = (0..<5).map { line("right\($0)", x: 700, y: 115 + 40 * $0) }
    func block(_ lines: [TextLine]) -> Block {
      let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
      return Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: lines)])
    }
    let columns = Page(width: 1000, height: 400, blocks: [block(column1), block(column2)])
    // Level with column 2's line 1 (y 155–175) but 5 px above column 1's line 2.
    let point = Point(x: 140, y: 175)
    let n = try #require(columns.nearestLineNumber(to: point))
    #expect(columns.line(number: n)?.text == "left2")
    // Brute force: no line is nearer than the chosen one, at many points.
    for x in stride(from: 0.0, through: 1000, by: 37) {
      for y in stride(from: 0.0, through: 400, by: 13) {
        let p = Point(x: x, y: y)
        let chosen = try #require(columns.nearestLineNumber(to: p))
        let d = { (k: Int) -> Double in
          columns.line(number: k).map { $0.bbox.rect.distance(to: p) } ?? .infinity
        }
        let best = (0..<columns.lineCount).map(d).min() ?? 0
        #expect(abs(d(chosen) - best) < 1e-9, "\(p): line \(chosen) at \(d(chosen)), best \(best)")
      }
    }
  }

  @Test func belowTheTextIsTheEndOfTheText() {
    #expect(page.closestPosition(to: Point(x: 2000, y: 2000)) == page.endPosition)
    #expect(page.closestPosition(to: Point(x: 120, y: 2000)) == page.endPosition)
  }

  @Test func positionsNeverSplitAGraphemeCluster() throws {
    // The OCR read the accent as a glyph of its own, and the skin tone.
    func word(_ text: String, _ glyphs: [String], x: Int) -> Word {
      let gs = glyphs.enumerated().map { k, g in
        Glyph(
          text: g, bbox: PixelRect(minX: x + 10 * k, minY: 100, maxX: x + 10 * k + 10, maxY: 120))
      }
      return Word(
        text: text, bbox: PixelRect(minX: x, minY: 100, maxX: x + 10 * glyphs.count, maxY: 120),
        glyphs: gs)
    }
    let cafe = word("cafe\u{301}", ["c", "a", "f", "e", "\u{301}"], x: 100)
    let thumbs = word("x👍🏽y", ["x", "👍", "🏽", "y"], x: 200)
    let box = PixelRect(minX: 100, minY: 100, maxX: 240, maxY: 120)
    let page = Page(
      width: 400, height: 200,
      blocks: [
        Block(
          bbox: box,
          paragraphs: [
            Paragraph(
              bbox: box,
              lines: [
                TextLine(bbox: box, words: [cafe, thumbs])
              ])
          ])
      ])
    let text = page.text
    var boundaries = Set<Int>([0])
    var offset = 0
    for c in text {
      offset += c.utf16.count
      boundaries.insert(offset)
    }
    for x in stride(from: 95.0, through: 245, by: 0.5) {
      let p = Point(x: x, y: 110)
      let position = page.closestPosition(to: p).offset
      #expect(boundaries.contains(position), "closestPosition(\(x)) = \(position)")
      let range = try #require(page.characterRange(at: p))
      #expect(
        boundaries.contains(range.lowerBound.offset)
          && boundaries.contains(range.upperBound.offset),
        "characterRange(at: \(x)) = \(range.offsets)")
    }
    // The accent's glyph hit-tests to the whole "é".
    let accent = try #require(page.characterRange(at: Point(x: 145, y: 110)))
    #expect(page.text(in: accent) == "e\u{301}")
    let tone = try #require(page.characterRange(at: Point(x: 225, y: 110)))
    #expect(page.text(in: tone) == "👍🏽")
  }
}
