import Foundation
import ScanFormats
import ScanModel
import Testing

/// A page of two lines curled like a book page near its spine: each line's
/// middle runs along `y = top + 40 ((x − 500) / 400)²`, so its ends sit 40
/// px lower than its middle, and the lines are 40 px apart. The rectangles
/// along their chords (72 px high) overlap by 32 px; their outlines,
/// following the curve, stand 8 px apart.
@Suite("Curved lines: outlines, selection, carets and hit tests follow the curve")
struct CurvedLineTests {
  static let halfHeight = 16.0

  /// Rounded to the formats' two decimals, so that a page read back from
  /// JSON equals the page written.
  static func middle(_ x: Double, line: Int) -> Double {
    let t = (x - 500) / 400
    return ((100 + 40 * Double(line) + 40 * t * t) * 100).rounded() / 100
  }

  /// A band from `x0` to `x1` along line `line`, as a quad whose left and
  /// right edges are upright (cross-sections of the curve).
  static func band(_ x0: Double, _ x1: Double, line: Int, half: Double = halfHeight) -> Quad {
    Quad(
      topLeft: Point(x: x0, y: middle(x0, line: line) - half),
      topRight: Point(x: x1, y: middle(x1, line: line) - half),
      bottomRight: Point(x: x1, y: middle(x1, line: line) + half),
      bottomLeft: Point(x: x0, y: middle(x0, line: line) + half))
  }

  static func box(_ q: Quad) -> PixelRect {
    let r = q.boundingRect
    return PixelRect(
      minX: Int(r.minX.rounded(.down)), minY: Int(r.minY.rounded(.down)),
      maxX: Int(r.maxX.rounded(.up)), maxY: Int(r.maxY.rounded(.up)))
  }

  /// Line `line`: eight four-letter words 80 px long with 20 px gaps from
  /// x = 100, each letter a glyph; with `curved`, its polygon has a
  /// cross-section every 50 px.
  static func line(_ line: Int, curved: Bool) -> TextLine {
    let words = (0..<8).map { w -> Word in
      let x0 = 100 + 100 * Double(w)
      let text = String(repeating: ["a", "b", "c", "d", "e", "f", "g", "h"][w], count: 4)
      let glyphs = (0..<4).map { g -> Glyph in
        let q = band(x0 + 20 * Double(g), x0 + 20 * Double(g + 1), line: line, half: 12)
        return Glyph(text: String(text.first ?? "a"), bbox: box(q), quad: q)
      }
      let q = band(x0, x0 + 80, line: line, half: 12)
      return Word(text: text, bbox: box(q), quad: q, glyphs: glyphs)
    }
    let xs = stride(from: 100.0, through: 900, by: 50).map { $0 }
    let polygon =
      xs.map { Point(x: $0, y: middle($0, line: line) - halfHeight) }
      + xs.reversed().map { Point(x: $0, y: middle($0, line: line) + halfHeight) }
    let quad = TextLine.chordRectangle(of: polygon, holding: words.flatMap(\.corners.corners))
    let bbox = box(quad ?? Quad(Rect(bounding: polygon)))
    return TextLine(
      bbox: bbox, quad: quad, polygon: curved ? polygon : nil, words: words)
  }

  static func page(curved: Bool = true) -> Page {
    let lines = [line(0, curved: curved), line(1, curved: curved)]
    let bbox = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return Page(
      width: 1000, height: 400,
      blocks: [Block(bbox: bbox, paragraphs: [Paragraph(bbox: bbox, lines: lines)])])
  }

  /// The distance from `p` to the nearest edge of line `line`'s outline at
  /// the same `x`.
  static func offEdge(_ p: Point, line: Int) -> Double {
    let m = middle(p.x, line: line)
    return min(abs(p.y - (m - halfHeight)), abs(p.y - (m + halfHeight)))
  }

  @Test func theGeometryHoldsWithTheCurveAndNotWithTheChord() {
    let curved = Self.page()
    #expect(curved.verify().violations.isEmpty, "\(curved.verify().violations.prefix(3))")
    // The same lines without their polygons: the rectangles along their
    // chords overlap, and cutting them apart cuts their words.
    let chords = Self.page(curved: false).verify().violations
    #expect(chords.contains { $0.kind == .selectionMissesWord }, "\(chords.prefix(3))")
  }

  @Test func aWholeLineIsSelectedAlongItsCurve() throws {
    let page = Self.page()
    for n in 0..<2 {
      let line = try #require(page.line(number: n))
      let rects = page.selectionRects(for: line.range)
      let rect = try #require(rects.first)
      #expect(rects.count == 1)
      let polygon = try #require(rect.polygon)
      // From the first word's start (x = 100) to the last word's end
      // (x = 880), every point on the line's top or bottom edge.
      #expect(polygon.count >= 2 * 17)
      for p in polygon {
        #expect(Self.offEdge(p, line: n) < 0.5, "\(p) on line \(n)")
      }
      #expect(abs(polygon[0].x - 100) < 0.5 && abs(polygon[polygon.count / 2 - 1].x - 880) < 0.5)
      #expect(rect.bounds == Rect(bounding: polygon))
      #expect(rect.quad.topLeft == polygon[0])
    }
  }

  @Test func aWordsSelectionAndCaretsSitOnTheCurve() throws {
    let page = Self.page()
    let line = try #require(page.line(number: 0))
    let word = line.words[6]
    let rect = try #require(page.selectionRects(for: word.range).first)
    let polygon = try #require(rect.polygon)
    // The word runs from x = 700 to 780, where the line falls 1 px in 10.
    #expect(abs(polygon[0].x - 700) < 0.5 && Self.offEdge(polygon[0], line: 0) < 0.5)
    let end = polygon[polygon.count / 2 - 1]
    #expect(abs(end.x - 780) < 0.5 && Self.offEdge(end, line: 0) < 0.5)
    // A cross-section of the outline at x = 750 lies between them.
    #expect(polygon.contains { abs($0.x - 750) < 0.5 })

    let caret = try #require(page.caretRect(for: word.range.lowerBound))
    #expect(abs(caret.quad.topLeft.x - 700) < 0.5)
    #expect(abs(caret.quad.topLeft.y - (Self.middle(700, line: 0) - Self.halfHeight)) < 0.5)
    #expect(abs(caret.quad.bottomLeft.y - (Self.middle(700, line: 0) + Self.halfHeight)) < 0.5)
    // The caret leans with the curve there (the slope at x = 700 is 0.1,
    // 5.7°; the line's chord is level).
    let angle = atan2(caret.transform.b, caret.transform.a) * 180 / Double.pi
    #expect(abs(angle - atan(0.1) * 180 / Double.pi) < 0.5, "\(angle)")
  }

  @Test func pointsHitTheLineWhoseCurveHoldsThem() throws {
    let page = Self.page()
    let second = try #require(page.line(number: 1))
    // In the middle of the page, 4 px below the second line's top edge:
    // inside the first line's chord rectangle (84...156), but on the
    // second line's curve.
    let p = Point(x: 510, y: Self.middle(510, line: 1) - Self.halfHeight + 4)
    let hit = try #require(page.characterRange(at: p))
    #expect(second.range.contains(hit.lowerBound), "\(hit) not in \(second.range)")
    let chords = Self.page(curved: false)
    let chordHit = try #require(chords.characterRange(at: p))
    #expect(!second.range.contains(chordHit.lowerBound))
  }

  @Test func theRepairLeavesACurvedLineAsItIs() {
    let page = Self.page()
    #expect(page.repairingGeometry().blocks == page.blocks)
  }

  /// redp5110 p13 (docling), a code line's ") =" in a table cell: the
  /// line's outline was cut short at its right end by the line below (a
  /// step in its bottom edge), which tilts its chord 12° though its words
  /// are level. The selection of the whole line holds the "=" at that
  /// end; `verify` saw it past the band's end (two violations), measuring
  /// along the selection's top edge rather than its chord.
  @Test func aLineCutShortAtOneEndHoldsTheWordThere() {
    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
    let paren = Word(
      text: ")", bbox: PixelRect(minX: 1719, minY: 545, maxX: 1728, maxY: 583),
      quad: Quad(
        topLeft: p(1718.53, 545.01), topRight: p(1728, 544.89), bottomRight: p(1728.47, 582.99),
        bottomLeft: p(1719, 583.11)),
      glyphs: [Glyph(text: ")", bbox: PixelRect(minX: 1719, minY: 545, maxX: 1728, maxY: 583))])
    let equals = Word(
      text: "=", bbox: PixelRect(minX: 1759, minY: 559, maxX: 1774, maxY: 560),
      glyphs: [Glyph(text: "=", bbox: PixelRect(minX: 1759, minY: 559, maxX: 1774, maxY: 560))])
    let polygon = [
      p(1718.53, 544.89), p(1746.27, 544.89), p(1752.18, 544.89), p(1758, 544.89),
      p(1774, 544.89), p(1774, 560), p(1758, 560), p(1752.18, 583.11), p(1746.27, 583.11),
      p(1718.53, 583.11),
    ]
    let quad = Quad(
      topLeft: p(1710.9, 546.48), topRight: p(1771.69, 533.82), bottomRight: p(1780.72, 577.16),
      bottomLeft: p(1719.93, 589.83))
    let bbox = PixelRect(minX: 1718, minY: 544, maxX: 1774, maxY: 584)
    let line = TextLine(bbox: bbox, quad: quad, polygon: polygon, words: [paren, equals])
    let page = Page(
      width: 2550, height: 3300,
      blocks: [Block(bbox: bbox, paragraphs: [Paragraph(bbox: bbox, lines: [line])])])
    #expect(TextLine.isLinePolygon(polygon))
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations)")
  }

  /// Two labels of a diagram on a real page (`redp5110_sampled` p15 at
  /// 300 dpi, as read): "fe \\" is tilted 4° against its chord, so its
  /// polygon's bottom edge starts 9 px after its top edge, and the line
  /// below, "be a=]", steps down round it. The band of the upper line ran
  /// its bottom edge on level to its chord's start, into that step; the
  /// lower line's whole selection was trimmed 3 px as though the lines
  /// overlapped there, and missed its first word's top by 2.8 px (three
  /// violations). Neighbours are now compared by their own outlines.
  @Test func aLineSteppingRoundATiltedNeighbourKeepsItsSelection() throws {
    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
    let lines = [
      TextLine(
        bbox: PixelRect(minX: 1722, minY: 1462, maxX: 1941, maxY: 1566),
        quad: Quad(
          topLeft: p(1723.66, 1449.93), topRight: p(1947.33, 1465.88),
          bottomRight: p(1939.29, 1578.63), bottomLeft: p(1715.62, 1562.68)),
        polygon: [
          p(1722.44, 1467.02), p(1830.13, 1464.49), p(1903.73, 1462.77), p(1917.59, 1496.32),
          p(1938.61, 1495.83), p(1940.24, 1565.3), p(1919.2, 1565.11), p(1906.13, 1564.99),
          p(1832.47, 1564.31), p(1724.7, 1563.33),
        ],
        words: [
          Word(
            text: "fe", bbox: PixelRect(minX: 1723, minY: 1465, maxX: 1797, maxY: 1563),
            quad: Quad(
              topLeft: p(1722.44, 1467.02), topRight: p(1794.98, 1465.32),
              bottomRight: p(1797.24, 1561.63), bottomLeft: p(1724.7, 1563.33)),
            glyphs: [
              Glyph(
                text: "f", bbox: PixelRect(minX: 1723, minY: 1468, maxX: 1795, maxY: 1563),
                quad: Quad(
                  topLeft: p(1722.61, 1470.06), topRight: p(1792.96, 1468.4),
                  bottomRight: p(1795.15, 1561.68), bottomLeft: p(1724.8, 1563.33))),
              Glyph(
                text: "e", bbox: PixelRect(minX: 1763, minY: 1465, maxX: 1797, maxY: 1562),
                quad: Quad(
                  topLeft: p(1763.42, 1466.06), topRight: p(1794.98, 1465.32),
                  bottomRight: p(1797.24, 1561.63), bottomLeft: p(1765.68, 1562.37))),
            ]),
          Word(
            text: "\\", bbox: PixelRect(minX: 1879, minY: 1496, maxX: 1940, maxY: 1557),
            quad: Quad(
              topLeft: p(1878.62, 1497.24), topRight: p(1938.61, 1495.83),
              bottomRight: p(1940.02, 1555.95), bottomLeft: p(1880.03, 1557.36)),
            glyphs: [
              Glyph(
                text: "\\", bbox: PixelRect(minX: 1879, minY: 1496, maxX: 1940, maxY: 1557),
                quad: Quad(
                  topLeft: p(1878.62, 1497.24), topRight: p(1938.61, 1495.83),
                  bottomRight: p(1940.02, 1555.95), bottomLeft: p(1880.03, 1557.36)))
            ]),
        ]),
      TextLine(
        bbox: PixelRect(minX: 1634, minY: 1548, maxX: 2037, maxY: 1652),
        quad: Quad(
          topLeft: p(1635.01, 1548.21), topRight: p(2036.76, 1551.87),
          bottomRight: p(2035.85, 1651.25), bottomLeft: p(1634.1, 1647.59)),
        polygon: [
          p(1635.01, 1548.21), p(1708.76, 1548.88), p(1720.56, 1563.29), p(1835.75, 1564.34),
          p(1941.47, 1565.31), p(1953.54, 1551.11), p(2036.76, 1551.87), p(2035.85, 1651.24),
          p(1952.64, 1650.49), p(1940.7, 1650.38), p(1834.98, 1649.41), p(1719.79, 1648.36),
          p(1707.85, 1648.25), p(1634.1, 1647.58),
        ],
        words: [
          Word(
            text: "be", bbox: PixelRect(minX: 1634, minY: 1563, maxX: 1723, maxY: 1648),
            quad: Quad(
              topLeft: p(1634.88, 1562.51), topRight: p(1722.77, 1563.31),
              bottomRight: p(1722, 1648.38), bottomLeft: p(1634.1, 1647.58)),
            glyphs: [
              Glyph(
                text: "b", bbox: PixelRect(minX: 1634, minY: 1563, maxX: 1722, maxY: 1645),
                quad: Quad(
                  topLeft: p(1634.91, 1562.51), topRight: p(1721.74, 1563.3),
                  bottomRight: p(1720.99, 1644.78), bottomLeft: p(1634.17, 1643.99))),
              Glyph(
                text: "e", bbox: PixelRect(minX: 1679, minY: 1563, maxX: 1723, maxY: 1648),
                quad: Quad(
                  topLeft: p(1679.87, 1562.92), topRight: p(1722.77, 1563.31),
                  bottomRight: p(1722, 1648.38), bottomLeft: p(1679.1, 1647.99))),
            ]),
          Word(
            text: "a=]", bbox: PixelRect(minX: 1959, minY: 1602, maxX: 2036, maxY: 1635),
            quad: Quad(
              topLeft: p(1959.01, 1601.38), topRight: p(2036.3, 1602.08),
              bottomRight: p(2036, 1635.05), bottomLeft: p(1958.71, 1634.34)),
            glyphs: [
              Glyph(
                text: "a", bbox: PixelRect(minX: 1959, minY: 1610, maxX: 1994, maxY: 1627),
                quad: Quad(
                  topLeft: p(1959, 1609.68), topRight: p(1994.16, 1610),
                  bottomRight: p(1994, 1627.32), bottomLeft: p(1958.84, 1627))),
              Glyph(
                text: "=", bbox: PixelRect(minX: 1995, minY: 1602, maxX: 2027, maxY: 1620),
                quad: Quad(
                  topLeft: p(1995, 1601.71), topRight: p(2027.16, 1602),
                  bottomRight: p(2027, 1620.29), bottomLeft: p(1994.84, 1620))),
              Glyph(
                text: "]", bbox: PixelRect(minX: 2031, minY: 1607, maxX: 2036, maxY: 1635),
                quad: Quad(
                  topLeft: p(2031, 1606.95), topRight: p(2036.26, 1607),
                  bottomRight: p(2036, 1635.05), bottomLeft: p(2030.74, 1635))),
            ]),
        ]),
    ]
    let bbox = try #require(PixelRect.union(lines.map(\.bbox)))
    let page = Page(
      width: 2550, height: 3300,
      blocks: [Block(bbox: bbox, paragraphs: [Paragraph(bbox: bbox, lines: lines)])])
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations)")
    // The selection of "be" reaches the top of its glyphs.
    let be = try #require(page.line(number: 1)?.words.first)
    let rect = try #require(page.selectionRects(for: be.range).first)
    #expect(rect.bounds.minY <= Double(be.bbox.minY) + 0.5, "\(rect.bounds)")
  }

  @Test func thePolygonShapeIsChecked() {
    let polygon = Self.line(0, curved: true).polygon ?? []
    #expect(TextLine.isLinePolygon(polygon))
    // Odd, too short, or the bottom edge not run back.
    #expect(!TextLine.isLinePolygon(Array(polygon.dropLast())))
    #expect(!TextLine.isLinePolygon(Array(polygon.prefix(2))))
    let k = polygon.count / 2
    #expect(!TextLine.isLinePolygon(Array(polygon[..<k]) + Array(polygon[k...].reversed())))
    // The top and bottom edges swapped.
    #expect(
      !TextLine.isLinePolygon(Array(polygon[k...].reversed()) + Array(polygon[..<k].reversed())))
  }

  @Test func formatsKeepThePolygon() throws {
    let page = Self.page()
    let document = Document(pages: [page])
    let generator = Generator(name: "scantext", version: "test")
    let json = try DocumentFormat.json.decode(
      Data(DocumentFormat.json.encode(document, generator: generator).utf8))
    #expect(json.pages[0].blocks == page.blocks)
    for format in [DocumentFormat.alto, .page, .hocr] {
      let back = try format.decode(Data(format.encode(document, generator: generator).utf8))
      for n in 0..<2 {
        let before = try #require(page.line(number: n)?.polygon)
        let after = try #require(back.pages[0].line(number: n)?.polygon, "\(format)")
        #expect(after.count == before.count)
        // PAGE XML and hOCR write whole pixels.
        for (a, b) in zip(after, before) {
          #expect(abs(a.x - b.x) <= 0.5 && abs(a.y - b.y) <= 0.5, "\(format) \(a) \(b)")
        }
      }
      #expect(back.pages[0].verify().violations.isEmpty, "\(format)")
    }
  }

  @Test func aPolygonOfAnotherShapeIsAnError() throws {
    // The first line's polygon with its bottom edge run forward.
    var line = Self.line(0, curved: true)
    let polygon = try #require(line.polygon)
    let k = polygon.count / 2
    line.polygon = Array(polygon[..<k]) + Array(polygon[k...].reversed())
    let page = Page(
      width: 1000, height: 400,
      blocks: [Block(bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])])
    let text = try DocumentFormat.json.encode(
      Document(pages: [page]), generator: Generator(name: "scantext", version: "test"))
    let error = #expect(throws: DocumentFormatError.self) {
      try DocumentFormat.json.decode(Data(text.utf8))
    }
    #expect(
      "\(error.map { "\($0)" } ?? "")".contains(
        "'polygon' must run along the line's top edge, then back along its bottom edge"),
      "\(String(describing: error))")
  }
}
