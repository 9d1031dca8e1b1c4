import Foundation
import ScanModel
import Testing

@Suite("Repairing OCR geometry")
struct GeometryRepairTests {
  static func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
    PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  static func page(_ lines: [TextLine], width: Int = 1000, height: Int = 1000) -> Page {
    let bbox = PixelRect.union(lines.map(\.bbox)) ?? box(0, 0, 1, 1)
    return Page(
      width: width, height: height,
      blocks: [Block(bbox: bbox, paragraphs: [Paragraph(bbox: bbox, lines: lines)])])
  }

  static func word(_ text: String, _ b: PixelRect, glyphs: [PixelRect]? = nil) -> Word {
    let boxes = glyphs ?? []
    return Word(
      text: text, bbox: b,
      glyphs: zip(text, boxes).map { Glyph(text: String($0), bbox: $1) })
  }

  /// The page's figures are kept (they were dropped: the page was rebuilt
  /// without them).
  @Test func figuresAreKept() {
    let w = Self.word("ab", Self.box(100, 100, 140, 120))
    let raw = Page(
      width: 1000, height: 1000,
      blocks: [
        Block(
          bbox: w.bbox,
          paragraphs: [Paragraph(bbox: w.bbox, lines: [TextLine(bbox: w.bbox, words: [w])])])
      ], figures: [Figure(bbox: Self.box(200, 300, 600, 700), alternativeText: "A fern")])
    let page = raw.repairingGeometry()
    #expect(page.figures.map(\.bbox) == [Self.box(200, 300, 600, 700)])
    #expect(page.figures.first?.alternativeText == "A fern")
  }

  @Test func degenerateGlyphsGetAShareOfTheirWord() throws {
    // Tesseract's glyph boxes on text it reads down the page: [0, 0, 0, 0].
    let zero = Self.box(0, 0, 0, 0)
    let w = Self.word("abcd", Self.box(100, 100, 140, 120), glyphs: [zero, zero, zero, zero])
    let raw = Self.page([TextLine(bbox: w.bbox, words: [w])])
    #expect(!raw.verify().passed)
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(
      glyphs.map(\.bbox) == [
        Self.box(100, 100, 110, 120), Self.box(110, 100, 120, 120),
        Self.box(120, 100, 130, 120), Self.box(130, 100, 140, 120),
      ])
    #expect(page.text == raw.text)
  }

  @Test func oneDegenerateGlyphFillsTheGapBetweenItsNeighbours() throws {
    let w = Self.word(
      "abc", Self.box(100, 100, 130, 120),
      glyphs: [Self.box(100, 100, 108, 120), Self.box(0, 0, 0, 0), Self.box(122, 100, 130, 120)])
    let page = Self.page([TextLine(bbox: w.bbox, words: [w])]).repairingGeometry()
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(glyphs[0].bbox == Self.box(100, 100, 108, 120))
    #expect(glyphs[1].bbox == Self.box(108, 100, 122, 120))
    #expect(page.verify().passed, "\(page.verify().violations)")
  }

  @Test func glyphsOutsideTheirWordAreClipped() throws {
    let w = Self.word(
      "ab", Self.box(100, 100, 120, 120),
      glyphs: [Self.box(95, 98, 110, 121), Self.box(110, 100, 125, 120)])
    let raw = Self.page([TextLine(bbox: w.bbox, words: [w])])
    let page = raw.repairingGeometry()
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(glyphs.map(\.bbox) == [Self.box(100, 100, 110, 120), Self.box(110, 100, 120, 120)])
    #expect(page.verify().passed)
  }

  /// A word tilted against its line (the words of a curled line follow the
  /// curve, its frame the chord): its glyphs are clipped in the line's
  /// frame, where the word's box is larger than its own, so a clipped
  /// glyph could still leave the word's box (a generated curled photo had
  /// 38 such `glyphOutsideWord` violations). The word is then rewritten
  /// from its box in the line's frame, which holds its glyphs.
  @Test func aWordTiltedAgainstItsLineHoldsItsGlyphs() throws {
    func rotated(_ r: Rect, by degrees: Double, about c: Point) -> Quad {
      let t = degrees * Double.pi / 180
      func turn(_ p: Point) -> Point {
        let dx = p.x - c.x
        let dy = p.y - c.y
        return Point(x: c.x + dx * cos(t) - dy * sin(t), y: c.y + dx * sin(t) + dy * cos(t))
      }
      let q = Quad(r)
      return Quad(
        topLeft: turn(q.topLeft), topRight: turn(q.topRight), bottomRight: turn(q.bottomRight),
        bottomLeft: turn(q.bottomLeft))
    }
    let centre = Point(x: 250, y: 120)
    // The line runs 12° down to the right; the word on it is level, its
    // last glyph (a comma) reaching 6 px past the word's right edge.
    let lineQuad = rotated(
      Rect(minX: 100, minY: 90, maxX: 400, maxY: 150), by: 12, about: centre)
    let wordBox = Self.box(200, 100, 300, 130)
    let glyphBoxes = [Self.box(200, 100, 250, 130), Self.box(250, 100, 306, 130)]
    let word = Word(
      text: "a,", bbox: wordBox, quad: Quad(wordBox.rect),
      glyphs: zip(["a", ","], glyphBoxes).map {
        Glyph(text: $0, bbox: $1, quad: Quad($1.rect))
      })
    let lineBox = PixelRect(
      minX: Int(lineQuad.boundingRect.minX.rounded(.down)),
      minY: Int(lineQuad.boundingRect.minY.rounded(.down)),
      maxX: Int(lineQuad.boundingRect.maxX.rounded(.up)),
      maxY: Int(lineQuad.boundingRect.maxY.rounded(.up)))
    let raw = Self.page([TextLine(bbox: lineBox, quad: lineQuad, words: [word])])
    let page = raw.repairingGeometry()
    let repaired = try #require(page.line(number: 0)?.words.first)
    for glyph in repaired.glyphs {
      #expect(repaired.bbox.contains(glyph.bbox, tolerance: 1), "\(glyph.bbox) in \(repaired.bbox)")
    }
    #expect(page.verify().passed, "\(page.verify().violations.map(\.description))")
    #expect(page.text == raw.text)
  }

  @Test func aTiltedWordsBoxIsItsGlyphsInk() throws {
    // A word along a line rising 1 in 4: its quad's box takes in the empty
    // corners of the slanted band (100...200 × 60...110); its glyphs' boxes
    // hold the ink (100...200 × 70...100).
    let quad = Quad(
      topLeft: Point(x: 100, y: 85), topRight: Point(x: 200, y: 60),
      bottomRight: Point(x: 200, y: 85), bottomLeft: Point(x: 100, y: 110))
    let glyphs = [
      Glyph(text: "a", bbox: Self.box(100, 80, 150, 100)),
      Glyph(text: "b", bbox: Self.box(150, 70, 200, 90)),
      Glyph(text: "c", bbox: Self.box(0, 0, 0, 0)),
    ]
    let tilted = Word(text: "abc", bbox: Self.box(100, 60, 200, 110), quad: quad, glyphs: glyphs)
    let upright = Self.word(
      "up", Self.box(300, 60, 340, 110),
      glyphs: [
        Self.box(300, 70, 320, 100), Self.box(320, 70, 340, 100),
      ])
    let line = TextLine(bbox: Self.box(100, 60, 340, 110), words: [tilted, upright])
    let blocks = [Block(bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])]
    let fitted = GeometryRepair.fittingWordBoxesToGlyphs(blocks)
    let words = fitted[0].paragraphs[0].lines[0].words
    // The empty glyph box is left out; the quad is kept.
    #expect(words[0].bbox == Self.box(100, 70, 200, 100))
    #expect(words[0].quad == quad)
    // A word without a quad keeps its box.
    #expect(words[1].bbox == Self.box(300, 60, 340, 110))
    // The box never grows past the word's own.
    var wide = tilted
    wide.glyphs[1].bbox = Self.box(150, 40, 230, 90)
    let clipped = GeometryRepair.fittingWordBoxesToGlyphs([
      Block(
        bbox: line.bbox,
        paragraphs: [
          Paragraph(bbox: line.bbox, lines: [TextLine(bbox: line.bbox, words: [wide])])
        ])
    ])
    #expect(clipped[0].paragraphs[0].lines[0].words[0].bbox == Self.box(100, 60, 200, 100))
  }

  @Test func glyphsOutOfOrderAreSpreadOverTheWord() throws {
    let w = Self.word(
      "ab", Self.box(100, 100, 120, 120),
      glyphs: [Self.box(110, 100, 120, 120), Self.box(100, 100, 110, 120)])
    let raw = Self.page([TextLine(bbox: w.bbox, words: [w])])
    #expect(!raw.verify().passed)
    let page = raw.repairingGeometry()
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(glyphs.map(\.bbox) == [Self.box(100, 100, 110, 120), Self.box(110, 100, 120, 120)])
    #expect(page.verify().passed, "\(page.verify().violations)")
  }

  @Test func overlappingLinesAreCutAtTheMiddleOfTheOverlap() throws {
    // A descender of the first line reaches 10 px into the second.
    let a = Self.word("gap", Self.box(100, 100, 160, 140))
    let b = Self.word("hat", Self.box(100, 130, 160, 170))
    let raw = Self.page([
      TextLine(bbox: a.bbox, words: [a]), TextLine(bbox: b.bbox, words: [b]),
    ])
    #expect(raw.verify().violations.contains { $0.kind == .selectionMissesWord })
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    #expect(page.line(number: 0)?.bbox == Self.box(100, 100, 160, 135))
    #expect(page.line(number: 1)?.bbox == Self.box(100, 135, 160, 170))
    #expect(page.line(number: 0)?.words.first?.bbox == Self.box(100, 100, 160, 135))
  }

  /// A one-glyph line read again over a word of a long line (Tesseract
  /// read "위" as a block of its own over "원" on a real page) yields to
  /// the long line: cut along at the middle of their overlap, it ended the
  /// long line there and left the words after it half a pixel wide.
  @Test func aLineInsideAnothersRunYieldsToIt() throws {
    func glyphs(_ text: String, _ b: PixelRect) -> [PixelRect] {
      let n = text.count
      let w = b.width / n
      return (0..<n).map { Self.box(b.minX + $0 * w, b.minY, b.minX + ($0 + 1) * w, b.maxY) }
    }
    let words = [
      ("alpha", Self.box(100, 100, 200, 160)), ("beta", Self.box(210, 100, 290, 160)),
      ("gamma", Self.box(310, 100, 410, 160)), ("delta", Self.box(420, 100, 520, 160)),
    ].map { Self.word($0.0, $0.1, glyphs: glyphs($0.0, $0.1)) }
    let long = TextLine(bbox: Self.box(100, 100, 520, 160), words: words)
    let strayBox = Self.box(235, 108, 265, 144)
    let stray = TextLine(
      bbox: strayBox, words: [Self.word("x", strayBox, glyphs: [strayBox])])
    let raw = Self.page([stray, long])
    #expect(!raw.verify().passed)
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    // The long line and its words keep their boxes.
    let repaired = try #require(page.line(number: 1))
    #expect(repaired.bbox == long.bbox)
    #expect(repaired.words.map(\.bbox) == words.map(\.bbox))
    // The stray line keeps a pixel at the long line's top edge.
    #expect(page.line(number: 0)?.bbox == Self.box(235, 99, 265, 100))
    #expect(page.text == raw.text)
  }

  /// A few glyphs of a line read again down the page, as a line of their
  /// own reaching below it ("16 110" over the first words of a line on a
  /// real page), yield to the line whichever of the two comes first: the
  /// line keeps its words, the line read down keeps its part below.
  @Test func aLineReadDownAcrossALinesRunYieldsToIt() throws {
    let words = [
      ("alpha", Self.box(100, 100, 200, 160)), ("beta", Self.box(210, 100, 290, 160)),
      ("gamma", Self.box(310, 100, 410, 160)),
    ].map { Self.word($0.0, $0.1) }
    let long = TextLine(bbox: Self.box(100, 100, 410, 160), words: words)
    let zero = Self.box(0, 0, 0, 0)
    let downBox = Self.box(235, 120, 265, 190)
    let down = TextLine(
      bbox: downBox,
      baseline: Baseline(start: Point(x: 250, y: 120), end: Point(x: 250, y: 190)),
      words: [Self.word("16", downBox, glyphs: [zero, zero])])
    for lines in [[down, long], [long, down]] {
      let raw = Self.page(lines)
      let page = raw.repairingGeometry()
      #expect(page.verify().passed, "\(page.verify().violations)")
      let longIndex = lines[0].words.count == 1 ? 1 : 0
      let repaired = try #require(page.line(number: longIndex))
      #expect(repaired.bbox == long.bbox)
      #expect(repaired.words.map(\.bbox) == words.map(\.bbox))
      #expect(page.line(number: 1 - longIndex)?.bbox == Self.box(235, 160, 265, 190))
    }
  }

  /// A number read up the page across a line (`normal_4pages` p1: "16 110"
  /// over the foot of a line of Korean) yields to that line; its word
  /// "110", wholly inside the line's run, was cut to one pixel with its
  /// three glyphs in it, and hit tests could not tell them apart (two
  /// violations). A word cut to a sliver keeps a pixel per glyph.
  @Test func aWordCutToASliverKeepsAPixelPerGlyph() throws {
    let words = [
      ("alpha", Self.box(100, 100, 200, 160)), ("beta", Self.box(210, 100, 290, 160)),
      ("gamma", Self.box(310, 100, 410, 160)),
    ].map { Self.word($0.0, $0.1) }
    let long = TextLine(bbox: Self.box(100, 100, 410, 160), words: words)
    let sixteen = Self.word(
      "16", Self.box(235, 170, 265, 190),
      glyphs: [Self.box(235, 180, 265, 190), Self.box(235, 170, 265, 180)])
    let number = Self.word(
      "110", Self.box(235, 120, 265, 160),
      glyphs: [
        Self.box(235, 150, 265, 160), Self.box(235, 135, 265, 150), Self.box(235, 120, 265, 135),
      ])
    let up = TextLine(
      bbox: Self.box(235, 120, 265, 190),
      baseline: Baseline(start: Point(x: 250, y: 190), end: Point(x: 250, y: 120)),
      words: [sixteen, number])
    let page = Self.page([long, up]).repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let glyphs = try #require(page.line(number: 1)?.words.last?.glyphs.map(\.bbox))
    #expect(glyphs.count == 3)
    #expect(glyphs.allSatisfy { $0.maxY - $0.minY >= 1 && $0.minY >= 160 }, "\(glyphs)")
    #expect(Set(glyphs.map(\.minY)).count == 3, "\(glyphs)")
  }

  /// Glyphs beyond a cut through their word kept one-pixel slivers, all at
  /// the cut: their centres no longer advanced and hit tests could not tell
  /// them apart. The word's glyphs now share what is left of it.
  @Test func glyphsCutOffByANeighbourShareWhatIsLeftOfTheirWord() throws {
    let a = Self.word("a", Self.box(100, 100, 200, 160))
    let ends = Self.word(
      "ends", Self.box(210, 100, 300, 160),
      glyphs: [
        Self.box(210, 100, 230, 160), Self.box(230, 100, 250, 160),
        Self.box(292, 100, 296, 160), Self.box(296, 100, 300, 160),
      ])
    let next = Self.word(
      "next", Self.box(280, 100, 400, 160),
      glyphs: [
        Self.box(280, 100, 310, 160), Self.box(310, 100, 340, 160),
        Self.box(340, 100, 370, 160), Self.box(370, 100, 400, 160),
      ])
    let raw = Self.page([
      TextLine(bbox: Self.box(100, 100, 300, 160), words: [a, ends]),
      TextLine(bbox: next.bbox, words: [next]),
    ])
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let glyphs = try #require(page.line(number: 0)?.words.last?.glyphs)
    #expect(
      glyphs.map(\.bbox) == [
        Self.box(210, 100, 230, 160), Self.box(230, 100, 250, 160),
        Self.box(250, 100, 270, 160), Self.box(270, 100, 290, 160),
      ])
    #expect(page.line(number: 1)?.bbox == Self.box(290, 100, 400, 160))
  }

  /// A drop cap at the start of a line reaching under the start of the
  /// line above it (`8071_093.3B.tif`): the lines are cut apart between
  /// their words, not through them, and the line's other words keep their
  /// height (they were left one pixel high).
  @Test func aDropCapReachingUnderTheLineAboveLeavesTheWordsWhole() throws {
    let above = [
      ("wandered", Self.box(278, 207, 452, 241)), ("around", Self.box(475, 207, 601, 241)),
    ].map { Self.word($0.0, $0.1) }
    let capped = [
      ("S", Self.box(184, 168, 312, 288)), ("mopep.", Self.box(341, 174, 463, 195)),
      ("She", Self.box(492, 162, 555, 195)),
    ].map { Self.word($0.0, $0.1) }
    let raw = Self.page([
      TextLine(bbox: Self.box(278, 207, 601, 241), words: above),
      TextLine(bbox: Self.box(184, 162, 555, 288), words: capped),
    ])
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let first = try #require(page.line(number: 0))
    let second = try #require(page.line(number: 1))
    #expect(first.words.map(\.bbox) == above.map(\.bbox))
    #expect(second.words.dropFirst().map(\.bbox) == capped.dropFirst().map(\.bbox))
    // The drop cap keeps its top and its width; where it reaches under the
    // line above, its box ends at the cut between the two lines' words.
    let cap = try #require(second.words.first?.bbox)
    #expect(cap.minY == 168 && cap.minX == 184 && cap.maxX == 312, "\(cap)")
    #expect(cap.maxY >= 201, "\(cap)")
  }

  /// A line along `degrees` from `origin` (its top-left corner): words
  /// of `wordLength` px with `gap` px between them, `height` px tall, each
  /// drawn as a quad, as on a sloped line of a page read as it is.
  static func slopedLine(
    from origin: Point, degrees: Double, words count: Int, wordLength: Double = 180,
    gap: Double = 20, height: Double = 30
  ) -> TextLine {
    let a = degrees * .pi / 180
    func at(_ pu: Double, _ pv: Double) -> Point {
      Point(x: origin.x + pu * cos(a) - pv * sin(a), y: origin.y + pu * sin(a) + pv * cos(a))
    }
    func quad(_ u0: Double, _ u1: Double) -> Quad {
      Quad(
        topLeft: at(u0, 0), topRight: at(u1, 0), bottomRight: at(u1, height),
        bottomLeft: at(u0, height))
    }
    func box(_ q: Quad) -> PixelRect {
      let r = q.boundingRect
      return Self.box(
        Int(r.minX.rounded(.down)), Int(r.minY.rounded(.down)), Int(r.maxX.rounded(.up)),
        Int(r.maxY.rounded(.up)))
    }
    let words = (0..<count).map { i in
      let q = quad(Double(i) * (wordLength + gap), Double(i) * (wordLength + gap) + wordLength)
      return Word(text: "word\(i)", bbox: box(q), quad: q)
    }
    let line = quad(0, Double(count) * (wordLength + gap) - gap)
    return TextLine(bbox: box(line), quad: line, words: words)
  }

  /// The lines of a curled page read as it is slope differently (2–6.5° on
  /// develop `photo-1002`). Two such lines whose bounding boxes overlap but
  /// whose words do not were cut level at the middle of their bounding
  /// boxes' overlap, held at each line's worst end: the upper line's words
  /// kept 20 of their 36 pixels' bounding height, the lower line's 34 of
  /// 50, and where lines lay closer words were cut to slivers. Cut in the longer line's frame where both lines
  /// lie, they are apart and keep their words whole.
  @Test func linesSlopedDifferentlyKeepTheirWordsWhole() throws {
    let upper = Self.slopedLine(from: Point(x: 10, y: 100), degrees: 2, words: 6)
    let lower = Self.slopedLine(from: Point(x: 10, y: 138), degrees: 6.5, words: 3)
    let raw = Self.page([upper, lower], width: 1400, height: 400)
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    for n in 0..<2 {
      let before = try #require(raw.line(number: n)?.words)
      let after = try #require(page.line(number: n)?.words)
      for (b, a) in zip(before, after) {
        #expect(
          a.corners.boundingRect.height >= b.corners.boundingRect.height - 1,
          "line \(n) \(a.text): \(a.corners) was \(b.corners)")
      }
    }
  }

  /// Lines sloped differently that do overlap are cut at an angle to the
  /// shorter one, which gets an outline that follows the cut (a polygon):
  /// its words lose only their part in the overlap, not the cut's drift
  /// over the line's length.
  @Test func aLineCutAtAnAngleGetsAPolygonHoldingItsWords() throws {
    let upper = Self.slopedLine(from: Point(x: 10, y: 100), degrees: 2, words: 6)
    let lower = Self.slopedLine(from: Point(x: 10, y: 124), degrees: 6.5, words: 3)
    let page = Self.page([upper, lower], width: 1400, height: 400).repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let line = try #require(page.line(number: 1))
    let polygon = try #require(line.polygon)
    #expect(TextLine.isLinePolygon(polygon))
    for word in line.words {
      #expect(word.corners.boundingRect.height >= 20, "\(word.text): \(word.corners)")
    }
    #expect(page.repairingGeometry() == page)
  }

  @Test func wordsRunningBackwardsAreCutApart() throws {
    let a = Self.word("ab", Self.box(100, 100, 140, 120))
    let b = Self.word("cd", Self.box(130, 100, 170, 120))
    let raw = Self.page([TextLine(bbox: Self.box(100, 100, 170, 120), words: [a, b])])
    let page = raw.repairingGeometry()
    let words = try #require(page.line(number: 0)?.words)
    #expect(words[0].bbox == Self.box(100, 100, 135, 120))
    #expect(words[1].bbox == Self.box(135, 100, 170, 120))
    #expect(page.verify().passed)
  }

  /// Tesseract reads an identifier joined by underscores as one word whose
  /// box spans it, and its parts again as words inside that box (the line
  /// of `redp5110_sampled` page 16 of ../shared/docling, its boxes here).
  /// The boundary was the middle of the overlap, past the inner word's end:
  /// `LICENSE` kept a pixel per letter (7 × 55 px), read as a sliver of
  /// noise and lost from the page's text. Now the outer word ends where the
  /// inner one starts, and each keeps its own box.
  @Test func aWordInsideAnothersSpanKeepsItsBox() throws {
    let words = [
      Self.word("MASK", Self.box(402, 711, 475, 738)),
      Self.word("BANK_SCHEMA.MASK_DRIVERS", Self.box(498, 711, 1335, 746)),
      Self.word("LICENSE", Self.box(960, 696, 1098, 751)),
      Self.word("ON", Self.box(1111, 696, 1153, 751)),
      Self.word("CUSTOMERS", Self.box(1166, 696, 1336, 751)),
      Self.word("ON", Self.box(1357, 711, 1391, 738)),
    ]
    let raw = Self.page(
      [TextLine(bbox: Self.box(402, 696, 1391, 751), words: words)], width: 2550, height: 3300)
    let page = raw.repairingGeometry()
    let repaired = try #require(page.line(number: 0)?.words)
    #expect(repaired.map(\.text) == words.map(\.text))
    #expect(repaired[1].bbox.minX == 498 && repaired[1].bbox.maxX == 960, "\(repaired[1].bbox)")
    #expect(repaired[2].bbox.minX == 960 && repaired[2].bbox.maxX == 1098, "\(repaired[2].bbox)")
    #expect(repaired[4].bbox.minX == 1166 && repaired[4].bbox.maxX == 1336, "\(repaired[4].bbox)")
    #expect(page.verify().passed)
  }

  /// A combining mark Tesseract reads as a glyph of its own (Arabic
  /// tanwin on right_to_left_02 of ../shared/docling; here an acute) is
  /// hit by its grapheme cluster: `verify` took the cluster's range for a
  /// miss.
  @Test func aCombiningMarksGlyphIsHitByItsCluster() throws {
    let word = Word(
      text: "e\u{301}x", bbox: Self.box(100, 100, 130, 120),
      glyphs: [
        Glyph(text: "e", bbox: Self.box(100, 100, 110, 120)),
        Glyph(text: "\u{301}", bbox: Self.box(110, 100, 116, 120)),
        Glyph(text: "x", bbox: Self.box(116, 100, 130, 120)),
      ])
    let page = Self.page([TextLine(bbox: Self.box(100, 100, 130, 120), words: [word])])
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(glyphs.count == 3)
    #expect(page.verify().passed, "\(page.verify())")
  }

  /// A glyph a pixel high that sticks out of its line's band by less than
  /// the tolerance (a speck's ":" between two curled lines, written in
  /// whole pixels by hOCR or PAGE) has its box's centre on the next line:
  /// `verify` tapped there and called the glyph missed. A tap on the glyph
  /// within its own line's band answers it.
  @Test func aSliverGlyphStickingOutOfItsLineIsHitOnItsLine() throws {
    let first = TextLine(
      bbox: Self.box(100, 100, 300, 120),
      words: [
        Self.word(
          "ab", Self.box(100, 100, 140, 120),
          glyphs: [Self.box(100, 100, 120, 120), Self.box(120, 100, 140, 120)]),
        Self.word(":", Self.box(150, 120, 155, 122), glyphs: [Self.box(150, 120, 155, 122)]),
      ])
    let second = TextLine(
      bbox: Self.box(100, 120, 300, 140),
      words: [
        Self.word(
          "cd", Self.box(100, 120, 140, 140),
          glyphs: [Self.box(100, 120, 120, 140), Self.box(120, 120, 140, 140)])
      ])
    let page = Self.page([first, second])
    #expect(page.verify().passed, "\(page.verify().violations)")
    // A tap well inside the second line still answers the second line.
    let hit = try #require(page.characterRange(at: Point(x: 110, y: 130)))
    #expect(page.text(in: hit) == "c")
  }

  @Test func aLineReadDownThePageRunsDownThePage() throws {
    // Tesseract reads a page turned by 90° "down the page": words stacked
    // vertically, a vertical baseline, glyph boxes with no area.
    let zero = Self.box(0, 0, 0, 0)
    let w1 = Self.word("ab", Self.box(200, 100, 230, 140), glyphs: [zero, zero])
    let w2 = Self.word("cd", Self.box(200, 160, 230, 200), glyphs: [zero, zero])
    let line = TextLine(
      bbox: Self.box(200, 100, 230, 200),
      baseline: Baseline(start: Point(x: 210, y: 100), end: Point(x: 210, y: 200)),
      words: [w1, w2])
    let raw = Self.page([line])
    let page = raw.repairingGeometry()
    #expect(page.verify().passed, "\(page.verify().violations)")
    let glyphs = try #require(page.line(number: 0)?.words.first?.glyphs)
    #expect(glyphs.map(\.bbox) == [Self.box(200, 100, 230, 120), Self.box(200, 120, 230, 140)])
    // A tap on the second glyph lands on it, and selection runs downward.
    let hit = try #require(page.characterRange(at: Point(x: 215, y: 130)))
    #expect(page.text(in: hit) == "b")
    let rect = try #require(page.selectionRects(for: page.documentRange).first)
    #expect(rect.isVertical)
  }

  @Test func repairIsIdempotentAndKeepsConsistentPages() throws {
    let clean = Self.word(
      "ok", Self.box(10, 10, 30, 20),
      glyphs: [
        Self.box(10, 10, 20, 20), Self.box(20, 10, 30, 20),
      ])
    let page = Self.page([TextLine(bbox: clean.bbox, words: [clean])])
    #expect(page.repairingGeometry() == page)
    let zero = Self.box(0, 0, 0, 0)
    let broken = Self.word("abc", Self.box(100, 100, 130, 120), glyphs: [zero, zero, zero])
    let once = Self.page([TextLine(bbox: broken.bbox, words: [broken])]).repairingGeometry()
    #expect(once.repairingGeometry() == once)
  }

  /// Repair changes boxes, nothing the page records of where it came from
  /// (it dropped all of it before the page was built once).
  @Test func repairKeepsTheProvenance() throws {
    let zero = Self.box(0, 0, 0, 0)
    let broken = Self.word("abc", Self.box(100, 100, 130, 120), glyphs: [zero, zero, zero])
    let bbox = broken.bbox
    let page = Page(
      index: 2, image: "p.png", width: 1000, height: 1000, dpi: 300,
      blocks: [
        Block(
          bbox: bbox,
          paragraphs: [Paragraph(bbox: bbox, lines: [TextLine(bbox: bbox, words: [broken])])])
      ],
      steps: [StepRecord(.crop, measurement: 2), StepRecord(.deskew, measurement: 1.5)],
      crop: Self.box(10, 10, 990, 990),
      pdf: PDFPageSource(
        page: 3, width: 612, height: 792, pixelToPoint: [0.24, 0, 0, 0.24, 0, 0], hasText: false,
        nativeImage: true), source: .pdfText, dpiSource: .pdf, exifOrientation: 6)
    let repaired = page.repairingGeometry()
    #expect(repaired.blocks != page.blocks)
    #expect(repaired.steps == page.steps)
    #expect(repaired.crop == page.crop && repaired.perspective == page.perspective)
    #expect(repaired.pdf == page.pdf && repaired.source == page.source)
    #expect(repaired.dpiSource == page.dpiSource && repaired.exifOrientation == 6)
  }

  @Test func verifyChecksEveryPairOfLinesNotOnlyNeighbours() {
    // Lines 0 and 2 overlap; line 1 lies elsewhere.
    let a = Self.word("one", Self.box(100, 100, 200, 130))
    let b = Self.word("two", Self.box(600, 500, 700, 530))
    let c = Self.word("three", Self.box(150, 110, 250, 140))
    let page = Self.page([
      TextLine(bbox: a.bbox, words: [a]), TextLine(bbox: b.bbox, words: [b]),
      TextLine(bbox: c.bbox, words: [c]),
    ])
    #expect(page.verify().violations.contains { $0.kind == .selectionsOverlap })
    #expect(page.repairingGeometry().verify().passed)
  }

  @Test func largePrintOnASmallImageIsNotOversized() {
    // Every word is large: a tenth of the page is not a failure here.
    let words = [
      Self.word("big", Self.box(0, 0, 150, 100)), Self.word("text", Self.box(160, 0, 330, 100)),
    ]
    let page = Self.page(
      [TextLine(bbox: Self.box(0, 0, 330, 100), words: words)], width: 400, height: 300)
    #expect(!page.verify().violations.contains { $0.kind == .oversizedBox })
  }
}
