import Foundation
import Testing

@testable import ScanModel

/// Offsets in `PageFixtures.sample`:
/// "The quick brown fox.\nDr. Smith can't e-mail 3.14 people.\n\nSecond paragraph, here!\n"
///  0   4     10    16  20 21  25    31    37     44   49     56 58     65         76   81
@Suite("UITextInput completeness")
struct TextInputTests {
  let page = PageFixtures.sample

  func move(_ p: Page, _ from: Int, _ d: TextLayoutDirection, _ offset: Int) -> Int? {
    p.position(from: p.pos(from), in: d, offset: offset)?.offset
  }

  func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  func near(_ a: Quad, _ b: Quad, _ tolerance: Double = 1e-9) -> Bool {
    zip(a.corners, b.corners).allSatisfy { near($0, $1, tolerance) }
  }

  // MARK: Positions

  @Test func comparePositions() {
    #expect(page.compare(page.pos(3), to: page.pos(5)) == .orderedAscending)
    #expect(page.compare(page.pos(5), to: page.pos(5)) == .orderedSame)
    #expect(page.compare(page.pos(9), to: page.pos(5)) == .orderedDescending)
    #expect(TextComparisonResult.orderedAscending.rawValue == -1)
  }

  @Test func movingInScreenDirectionsOnAnUprightPage() {
    #expect(move(page, 5, .right, 3) == 8)
    #expect(move(page, 5, .left, 2) == 3)
    #expect(move(page, 5, .right, -2) == 3)
    #expect(move(page, 5, .right, 0) == 5)
    #expect(move(page, 0, .left, 1) == nil)
    #expect(move(page, 81, .right, 1) == 82)
    #expect(move(page, 81, .right, 2) == nil)
    // The line break is a character: right from a line's end reaches the next line.
    #expect(move(page, 20, .right, 1) == 21)
    // Down keeps the caret's place along the line (x 160 is inside "Smith").
    #expect(move(page, 6, .down, 1) == 27)
    #expect(move(page, 6, .down, 2) == 64)
    #expect(move(page, 6, .down, 3) == 82)
    #expect(move(page, 6, .down, 4) == nil)
    #expect(move(page, 27, .down, -1) == 6)
    #expect(move(page, 27, .up, 1) == 6)
    #expect(move(page, 6, .up, 1) == 0)
    #expect(move(page, 999, .up, 1) == nil)
  }

  @Test func farthestPositionAndExtendingOnAnUprightPage() {
    let r = page.range(5..<25)
    #expect(page.position(within: r, farthestIn: .right)?.offset == 25)
    #expect(page.position(within: r, farthestIn: .down)?.offset == 25)
    #expect(page.position(within: r, farthestIn: .left)?.offset == 5)
    #expect(page.position(within: r, farthestIn: .up)?.offset == 5)
    #expect(page.position(within: page.range(5..<999), farthestIn: .up) == nil)
    func extend(_ p: Int, _ d: TextLayoutDirection) -> Range<Int>? {
      page.characterRange(byExtending: page.pos(p), inDirection: d)?.offsets
    }
    #expect(extend(5, .right) == 5..<20)
    #expect(extend(5, .left) == 0..<5)
    #expect(extend(25, .left) == 21..<25)
    #expect(extend(25, .down) == 25..<82)
    #expect(extend(25, .up) == 0..<25)
    // In the newlines after the first paragraph the caret stands on its last line.
    #expect(extend(57, .right) == 57..<57)
    #expect(extend(57, .left) == 21..<57)
    #expect(extend(999, .left) == nil)
  }

  // MARK: Turned and skewed pages

  @Test func directionsOnAPageTurnedBy90DegreesAreScreenDirections() throws {
    let turned = PageFixtures.turned(
      [["The quick brown fox.", "Dr. Smith can't e-mail 3.14 people."]], degrees: 90)
    #expect(turned.orientation == 90)
    #expect(turned.text.hasPrefix("The quick brown fox.\nDr. Smith"))
    // The lines read down the image; the next line is to the left.
    let first = try #require(turned.caretRect(for: turned.pos(0)))
    let second = try #require(turned.caretRect(for: turned.pos(1)))
    #expect(second.bounds.minY > first.bounds.minY)
    #expect(move(turned, 5, .down, 3) == 8)
    #expect(move(turned, 5, .up, 2) == 3)
    #expect(move(turned, 5, .right, 1) == 0)  // the previous line: the start of the text
    #expect(move(turned, 6, .left, 1) == move(page, 6, .down, 1))
    #expect(move(turned, 27, .right, 1) == 6)
    // The tokenizer reads the same screen directions.
    #expect(
      turned.position(from: turned.pos(5), toBoundary: .word, inDirection: .layout(.down))?
        .offset == 9)
    #expect(
      turned.position(from: turned.pos(27), toBoundary: .line, inDirection: .layout(.right))?
        .offset == 6)
    #expect(
      turned.rangeEnclosingPosition(turned.pos(4), with: .word, inDirection: .layout(.down))?
        .offsets == 4..<9)
    #expect(
      turned.rangeEnclosingPosition(turned.pos(4), with: .word, inDirection: .layout(.up)) == nil)
    #expect(
      turned.characterRange(byExtending: turned.pos(5), inDirection: .down)?.offsets == 5..<20)
    #expect(
      turned.characterRange(byExtending: turned.pos(5), inDirection: .left)?.offsets
        == 5..<turned.endPosition.offset)
    #expect(turned.position(within: turned.range(5..<25), farthestIn: .down)?.offset == 25)
    #expect(turned.position(within: turned.range(5..<25), farthestIn: .right)?.offset == 5)
    let report = turned.verify()
    #expect(report.passed, "\(report.violations)")
  }

  @Test func directionsOnPagesTurnedBy180And270Degrees() throws {
    let lines = [["The quick brown fox.", "Dr. Smith can't e-mail 3.14 people."]]
    // Turned by 270°: lines read up the image, the next line is to the right.
    let up = PageFixtures.turned(lines, degrees: 270)
    #expect(up.orientation == 270)
    #expect(move(up, 5, .up, 3) == 8)
    #expect(move(up, 5, .down, 2) == 3)
    #expect(move(up, 6, .right, 1) == move(page, 6, .down, 1))
    #expect(move(up, 27, .left, 1) == 6)
    let r = try #require(up.selectionRects(for: up.range(4..<9)).first)
    #expect(r.transform == AffineTransform(rotationAngle: Double.pi / 2))
    #expect(Set(r.rect.applying(r.transform).corners) == Set(r.quad.corners))
    // Upside down: left is forward, up goes to the next line; the rect is not turned over.
    let down = PageFixtures.turned(lines, degrees: 180)
    #expect(down.orientation == 180)
    #expect(move(down, 5, .left, 3) == 8)
    #expect(move(down, 6, .up, 1) == move(page, 6, .down, 1))
    let q = try #require(down.selectionRects(for: down.range(4..<9)).first)
    #expect(q.transform.isIdentity)
    #expect(q.rect == q.bounds)
    for turned in [up, down] {
      let report = turned.verify()
      #expect(report.passed, "\(report.violations)")
    }
  }

  @Test func selectionRectsAndCaretsOnATurnedLineAreUprightBoxesWithARotation() throws {
    let turned = PageFixtures.turned([["The quick brown fox."]], degrees: 90)
    let quick = try #require(turned.selectionRects(for: turned.range(4..<9)).first)
    #expect(quick.isVertical)
    #expect(quick.transform == AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
    // The rect is the word's band before rotation: 50 px along, 20 across.
    #expect(abs(quick.rect.width - 50) < 1e-9 && abs(quick.rect.height - 20) < 1e-9)
    #expect(near(quick.rect.applying(quick.transform), quick.quad))
    #expect(abs(quick.bounds.width - 20) < 1e-9 && abs(quick.bounds.height - 50) < 1e-9)
    let caret = try #require(turned.caretRect(for: turned.pos(4)))
    #expect(caret.transform == quick.transform)
    #expect(turned.caretTransform(for: turned.pos(4)) == quick.transform)
    #expect(caret.width == 2)
    #expect(abs(caret.rect.width - 2) < 1e-9 && abs(caret.rect.height - 20) < 1e-9)
    // Turned, the caret is a bar 20 px across the line and 2 px along it,
    // centred on the zero-width caret line.
    let drawn = caret.rect.applying(caret.transform).boundingRect
    #expect(abs(drawn.width - 20) < 1e-9 && abs(drawn.height - 2) < 1e-9)
    #expect(near(drawn.center, caret.bounds.center))
  }

  @Test func selectionRectsAndCaretsOnASkewedPage() throws {
    let skewed = PageFixtures.turned(
      [["The quick brown fox.", "Dr. Smith can't e-mail 3.14 people."]], degrees: 5)
    #expect(skewed.orientation == 0 && abs(skewed.skew - 5) < 1e-9)
    let rects = skewed.selectionRects(for: skewed.range(4..<25))
    #expect(rects.count == 2)
    for r in rects {
      #expect(abs(r.transform.rotationAngle - 5 * Double.pi / 180) < 1e-9)
      #expect(abs(r.rect.height - 20) < 1e-6)
      #expect(near(r.rect.applying(r.transform), r.quad, 1e-6))
      #expect(r.bounds == r.quad.boundingRect)
      #expect(r.rect != r.bounds)
    }
    // "quick brown fox." is 160 px along the line.
    #expect(abs(rects[0].rect.width - 160) < 1e-6)
    let caret = try #require(skewed.caretRect(for: skewed.pos(4)))
    #expect(caret.transform == rects[0].transform)
    #expect(skewed.caretTransform(for: skewed.pos(4)) == caret.transform)
    #expect(
      skewed.firstRect(for: skewed.range(4..<9))
        == skewed.selectionRects(for: skewed.range(4..<9)).first?.bounds)
    // Small skew: up and down still move between lines, left and right along them.
    #expect(move(skewed, 6, .down, 1) == 27)
    #expect(move(skewed, 5, .right, 1) == 6)
    let report = skewed.verify()
    #expect(report.passed, "\(report.violations)")
  }

  @Test func uprightLinesHaveIdentityTransformsAndVisibleCarets() throws {
    let r = try #require(page.selectionRects(for: page.range(4..<9)).first)
    #expect(r.transform.isIdentity)
    #expect(r.rect == r.bounds)
    #expect(r.rect == Rect(minX: 140, minY: 100, maxX: 190, maxY: 120))
    let caret = try #require(page.caretRect(for: page.pos(4)))
    #expect(caret.transform == .identity)
    #expect(caret.bounds == Rect(minX: 140, minY: 100, maxX: 140, maxY: 120))
    #expect(caret.rect == Rect(minX: 139, minY: 100, maxX: 141, maxY: 120))
    // A taller line has a wider caret: a tenth of its height.
    let tall = Page(
      width: 500, height: 500,
      blocks: [
        Block(
          bbox: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 60),
          paragraphs: [
            Paragraph(
              bbox: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 60),
              lines: [
                TextLine(
                  bbox: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 60),
                  words: [Word(text: "Big", bbox: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 60))]
                )
              ])
          ])
      ])
    #expect(tall.caretRect(for: tall.startPosition)?.width == 6)
    #expect(page.caretTransform(for: page.pos(0)) == .identity)
    #expect(PageFixtures.page([]).caretTransform(for: TextPosition(offset: 0)) == .identity)
  }

  // MARK: Writing direction

  /// "שלום עולם\n\nHello world\n": a Hebrew paragraph laid out right to left, then English.
  ///  0    4 5   9 10 11  16 17  22
  let mixed = PageFixtures.combined([
    PageFixtures.rightToLeft([["שלום עולם"]]),
    PageFixtures.page([["Hello world"]], origin: Point(x: 100, y: 300)),
  ])

  @Test func baseWritingDirectionComesFromTheFirstStrongCharacter() {
    #expect(mixed.text == "שלום עולם\n\nHello world\n")
    func dir(_ p: Int, _ d: TextStorageDirection) -> WritingDirection {
      mixed.baseWritingDirection(for: mixed.pos(p), in: d)
    }
    #expect(dir(0, .forward) == .rightToLeft)
    #expect(dir(0, .backward) == .rightToLeft)
    #expect(dir(9, .backward) == .rightToLeft)
    // In the newlines between paragraphs: forward the next, backward the previous.
    #expect(dir(9, .forward) == .leftToRight)
    #expect(dir(10, .forward) == .leftToRight)
    #expect(dir(11, .backward) == .rightToLeft)
    #expect(dir(11, .forward) == .leftToRight)
    #expect(dir(23, .forward) == .leftToRight)
    #expect(
      mixed.selectionRects(for: mixed.documentRange).map(\.writingDirection) == [
        .rightToLeft, .leftToRight,
      ])
    // Arabic after digits and punctuation; Hebrew quoted before Latin; no strong character.
    let arabic = PageFixtures.rightToLeft([["(123) مرحبا بالعالم"]])
    #expect(arabic.baseWritingDirection(for: arabic.pos(0), in: .forward) == .rightToLeft)
    let quoted = PageFixtures.page([["«שלום» said Anna"]])
    #expect(quoted.baseWritingDirection(for: quoted.pos(0), in: .forward) == .rightToLeft)
    let digits = PageFixtures.page([["42 17"]])
    #expect(digits.baseWritingDirection(for: digits.pos(0), in: .forward) == .leftToRight)
    #expect(BaseDirection.firstStrong(in: "12, abc") == .leftToRight)
    #expect(BaseDirection.firstStrong(in: "\u{05B0}12 ש") == .rightToLeft)  // a point is not strong
    #expect(BaseDirection.firstStrong(in: "١٢٣ - ?") == nil)
    #expect(
      PageFixtures.page([]).baseWritingDirection(for: TextPosition(offset: 0), in: .forward)
        == .leftToRight)
  }

  @Test func rightToLeftLinesReadFromTheRight() throws {
    // Carets run from the right edge leftward.
    #expect(mixed.caretRect(for: mixed.pos(0))?.bounds.minX == 900)
    #expect(mixed.caretRect(for: mixed.pos(1))?.bounds.minX == 890)
    #expect(mixed.caretRect(for: mixed.pos(4))?.bounds.minX == 860)
    #expect(mixed.caretRect(for: mixed.pos(5))?.bounds.minX == 850)
    #expect(mixed.caretRect(for: mixed.pos(9))?.bounds.minX == 810)
    let first = try #require(mixed.selectionRects(for: mixed.range(0..<4)).first)
    #expect(first.bounds == Rect(minX: 860, minY: 100, maxX: 900, maxY: 120))
    #expect(first.quad.topLeft == Point(x: 900, y: 100))  // the reading frame starts at the right
    #expect(first.transform.isIdentity && first.rect == first.bounds)
    // Left is forward on a right-to-left line, right is backward.
    #expect(move(mixed, 0, .left, 1) == 1)
    #expect(move(mixed, 1, .right, 1) == 0)
    #expect(move(mixed, 0, .right, 1) == nil)
    #expect(move(mixed, 12, .right, 1) == 13)
    // Crossing into the Hebrew paragraph, a move keeps its storage direction.
    #expect(move(mixed, 11, .left, 3) == 8)
    #expect(move(mixed, 11, .left, 11) == 0)
    #expect(move(mixed, 11, .left, 12) == nil)
    #expect(move(mixed, 11, .left, Int.max) == nil)
    #expect(move(mixed, 11, .right, Int.min) == nil)
    #expect(mixed.characterRange(byExtending: mixed.pos(2), inDirection: .left)?.offsets == 2..<9)
    #expect(mixed.characterRange(byExtending: mixed.pos(2), inDirection: .right)?.offsets == 0..<2)
    #expect(mixed.position(within: mixed.range(1..<3), farthestIn: .left)?.offset == 3)
    #expect(
      mixed.position(from: mixed.pos(1), toBoundary: .word, inDirection: .layout(.left))?.offset
        == 4)
    // Hit testing follows the right-to-left layout.
    #expect(mixed.closestPosition(to: Point(x: 898, y: 110)).offset == 0)
    #expect(mixed.closestPosition(to: Point(x: 812, y: 110)).offset == 9)
    for word in mixed.words {
      for glyph in word.glyphs {
        #expect(mixed.characterRange(at: glyph.bbox.center) == glyph.range)
      }
    }
    let report = mixed.verify()
    #expect(report.passed, "\(report.violations)")
  }

  @Test func overlappingLinesOfBothDirectionsGetTrimmedBands() {
    // Hebrew at y 100–120 on the right, English at y 115–135 below it, overlapping by 5 px.
    let both = PageFixtures.combined([
      PageFixtures.rightToLeft([["שלום עולם"]]),
      PageFixtures.page([["Hello world"]], origin: Point(x: 780, y: 115)),
    ])
    let rects = both.selectionRects(for: both.documentRange)
    #expect(rects.map(\.bounds.maxY) == [117.5, 135])
    #expect(rects.map(\.bounds.minY) == [100, 117.5])
    // Hit testing splits the overlap at its middle too.
    #expect(both.lineNumber(at: Point(x: 850, y: 116)) == 0)
    #expect(both.lineNumber(at: Point(x: 850, y: 119)) == 1)
  }

  @Test func geometryRepairLeavesRightToLeftLinesAlone() {
    let repaired = mixed.repairingGeometry()
    #expect(repaired == mixed)
    let arabic = PageFixtures.rightToLeft([["مرحبا بالعالم", "كيف حالك"]])
    #expect(arabic.repairingGeometry() == arabic)
    // Overlapping words on a right-to-left line are still cut apart.
    var blocks = PageFixtures.rightToLeft([["שלום עולם"]]).blocks
    blocks[0].paragraphs[0].lines[0].words[1].bbox = PixelRect(
      minX: 810, minY: 100, maxX: 864, maxY: 120)
    let overlapping = Page(width: 1000, height: 1000, blocks: blocks)
    let fixed = overlapping.repairingGeometry()
    let words = fixed.blocks[0].paragraphs[0].lines[0].words
    #expect(words[1].bbox.maxX <= words[0].bbox.minX)
    #expect(words[0].bbox.maxX == 900 && words[1].bbox.minX == 810)
    let report = fixed.verify()
    #expect(report.passed, "\(report.violations)")
  }

  // MARK: Tokenizer separators

  @Test func theEndsOfTheTextAreBoundariesOfEveryUnit() {
    let directions: [TextDirection] = [
      .forward, .backward, .layout(.left), .layout(.right), .layout(.up), .layout(.down),
    ]
    for g in TextGranularity.allCases {
      for d in directions {
        #expect(page.isPosition(page.startPosition, atBoundary: g, inDirection: d), "\(g) \(d)")
        #expect(page.isPosition(page.endPosition, atBoundary: g, inDirection: d), "\(g) \(d)")
        let empty = PageFixtures.page([])
        #expect(empty.isPosition(empty.startPosition, atBoundary: g, inDirection: d))
        #expect(empty.rangeEnclosingPosition(empty.startPosition, with: g, inDirection: d) == nil)
      }
      // Not within a unit past either end.
      #expect(!page.isPosition(page.endPosition, withinTextUnit: g, inDirection: .forward))
      #expect(!page.isPosition(page.startPosition, withinTextUnit: g, inDirection: .backward))
    }
    // Every grapheme boundary is a character boundary both ways, separators included.
    for p in [4, 19, 20, 21, 56, 57, 58] {
      #expect(page.isPosition(page.pos(p), atBoundary: .character, inDirection: .forward))
      #expect(page.isPosition(page.pos(p), atBoundary: .character, inDirection: .backward))
    }
  }

  @Test func theNewlinesBetweenParagraphsBelongToNoUnitButTheirCharacters() {
    func enclosing(_ p: Int, _ g: TextGranularity, _ d: TextDirection) -> Range<Int>? {
      page.rangeEnclosingPosition(page.pos(p), with: g, inDirection: d)?.offsets
    }
    for g in [TextGranularity.word, .sentence, .line, .paragraph] {
      #expect(enclosing(57, g, .forward) == nil, "\(g)")
      #expect(enclosing(57, g, .backward) == nil, "\(g)")
      #expect(!page.isPosition(page.pos(57), atBoundary: g, inDirection: .forward), "\(g)")
      #expect(!page.isPosition(page.pos(57), atBoundary: g, inDirection: .backward), "\(g)")
    }
    #expect(enclosing(57, .character, .forward) == 57..<58)
    #expect(enclosing(57, .character, .backward) == 56..<57)
    #expect(enclosing(57, .document, .forward) == 0..<82)
    // At the edges of the gap the paragraph on the text side encloses.
    #expect(enclosing(56, .paragraph, .backward) == 0..<56)
    #expect(enclosing(56, .paragraph, .forward) == nil)
    #expect(enclosing(58, .paragraph, .forward) == 58..<81)
    #expect(enclosing(58, .paragraph, .backward) == nil)
    // From inside the gap, the boundaries are the previous start and the next end.
    #expect(
      page.position(from: page.pos(57), toBoundary: .paragraph, inDirection: .forward)?.offset == 81
    )
    #expect(
      page.position(from: page.pos(57), toBoundary: .paragraph, inDirection: .backward)?.offset == 0
    )
  }

  @Test func theSpaceBetweenSentencesBelongsToNoSentence() {
    let two = PageFixtures.page([["One. Two three."]])
    func enclosing(_ p: Int, _ g: TextGranularity, _ d: TextDirection) -> Range<Int>? {
      two.rangeEnclosingPosition(two.pos(p), with: g, inDirection: d)?.offsets
    }
    #expect(enclosing(4, .sentence, .forward) == nil)
    #expect(enclosing(4, .sentence, .backward) == 0..<4)
    #expect(enclosing(5, .sentence, .forward) == 5..<15)
    #expect(enclosing(5, .sentence, .backward) == nil)
    // The paragraph and the line hold the space.
    #expect(enclosing(4, .paragraph, .forward) == 0..<15)
    #expect(enclosing(4, .line, .forward) == 0..<15)
    #expect(two.isPosition(two.pos(4), atBoundary: .sentence, inDirection: .forward))
    #expect(two.isPosition(two.pos(5), atBoundary: .sentence, inDirection: .backward))
    // The newline inside a paragraph belongs to it, not to a sentence.
    #expect(
      page.rangeEnclosingPosition(page.pos(20), with: .sentence, inDirection: .forward) == nil)
    #expect(
      page.rangeEnclosingPosition(page.pos(20), with: .paragraph, inDirection: .forward)?.offsets
        == 0..<56)
  }

  // MARK: Words under a point

  @Test func wordUnderAPointAgreesWithTheTokenizer() throws {
    // Over the "o" of "fox.": the OCR word and the tokenizer's word.
    #expect(page.word(at: Point(x: 275, y: 110))?.text == "fox.")
    let fox = try #require(page.wordRange(at: Point(x: 275, y: 110)))
    #expect(page.text(in: fox) == "fox")
    #expect(fox == page.rangeEnclosingPosition(page.pos(17), with: .word, inDirection: .forward))
    // Over the full stop: in the OCR word, outside the tokenizer's.
    #expect(page.word(at: Point(x: 295, y: 110))?.text == "fox.")
    #expect(page.wordRange(at: Point(x: 295, y: 110)) == nil)
    // In the gap between words, and off the lines: neither.
    #expect(page.word(at: Point(x: 135, y: 110)) == nil)
    #expect(page.wordRange(at: Point(x: 135, y: 110)) == nil)
    #expect(page.wordRange(at: Point(x: 150, y: 500)) == nil)
    // A word hyphenated at a line end is one word from either part.
    let hyphen = PageFixtures.page([["Optical recog-", "nition works"]])
    let whole = try #require(hyphen.wordRange(at: Point(x: 105, y: 140)))
    #expect(hyphen.text(in: whole) == "recog-\nnition")
    #expect(hyphen.wordRange(at: Point(x: 185, y: 110)) == whole)
    // Everywhere: the tokenizer's word lies in (or, hyphenated, overlaps) the OCR word.
    for p in [page, hyphen, mixed] {
      for word in p.words {
        for glyph in word.glyphs {
          let c = glyph.bbox.center
          #expect(p.word(at: c) == word)
          let letter = glyph.text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }
          guard let r = p.wordRange(at: c) else {
            #expect(!letter, "\(glyph.text) in \(word.text) has no word")
            continue
          }
          #expect(r.overlaps(word.range), "\(glyph.text) in \(word.text)")
          #expect(
            r
              == p.rangeEnclosingPosition(
                glyph.range.lowerBound, with: .word, inDirection: .forward))
        }
      }
    }
  }
}
