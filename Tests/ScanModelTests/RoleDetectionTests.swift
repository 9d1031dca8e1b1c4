import Testing

@testable import ScanModel

/// Paragraph roles from the page's geometry and text.
struct RoleDetectionTests {
  /// A line of words at `y` whose height follows their letters at type
  /// size `size` (capitals and ascenders 0.70 em, descenders 0.21 em,
  /// x-height 0.48 em), each character `size / 2` wide.
  static func line(_ text: String, x: Int, y: Int, size: Int) -> TextLine {
    var words: [Word] = []
    var cursor = x
    for token in text.split(separator: " ").map(String.init) {
      let ascends = token.contains { $0.isUppercase || $0.isNumber || "bdfhklt".contains($0) }
      let descends = token.contains { "gjpqy".contains($0) }
      let top = y + Int(Double(size) * (ascends ? 0 : 0.22))
      let bottom = y + Int(Double(size) * (descends ? 0.91 : 0.70))
      let width = token.count * size / 2
      words.append(
        Word(
          text: token, bbox: PixelRect(minX: cursor, minY: top, maxX: cursor + width, maxY: bottom))
      )
      cursor += width + size / 2
    }
    let box = words.dropFirst().reduce(words[0].bbox) { $0.union($1.bbox) }
    return TextLine(bbox: box, words: words)
  }

  static func paragraph(_ lines: [String], x: Int, y: Int, size: Int) -> Paragraph {
    let built = lines.enumerated().map { i, text in
      line(text, x: x, y: y + i * size * 6 / 5, size: size)
    }
    let box = built.dropFirst().reduce(built[0].bbox) { $0.union($1.bbox) }
    return Paragraph(bbox: box, lines: built)
  }

  static let body = [
    "The ferry left the harbour at dawn and the sea was calm all",
    "the way to the island where the keeper was waiting for the",
    "boat with a lantern in his hand and a dog at his side while",
    "the gulls circled over the pier and the nets lay drying out.",
  ]

  static func roles(_ paragraphs: [Paragraph], width: Int = 1000, height: Int = 1400) -> [String: (
    ParagraphRole, Int?
  )] {
    let blocks = paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let page = Page(
      width: width, height: height,
      blocks: RoleDetection.assigningRoles(to: blocks, pageWidth: width, pageHeight: height))
    var out: [String: (ParagraphRole, Int?)] = [:]
    for block in page.blocks {
      for p in block.paragraphs {
        out[p.lines.map(\.text).joined(separator: " ")] = (p.role, p.headingLevel)
      }
    }
    return out
  }

  @Test func aBookPageHasItsRunningHeadHeadingsNotesAndNumber() {
    let found = Self.roles([
      Self.paragraph(["THE HARBOUR BOOK"], x: 400, y: 40, size: 20),
      Self.paragraph(["2.1 The Harbour"], x: 200, y: 150, size: 20),
      Self.paragraph(Self.body, x: 200, y: 200, size: 20),
      Self.paragraph(["and nothing else was heard."], x: 200, y: 320, size: 20),
      Self.paragraph(Self.body, x: 200, y: 370, size: 20),
      Self.paragraph(["• the first thing to pack"], x: 200, y: 490, size: 20),
      Self.paragraph(["2. the second thing to pack."], x: 200, y: 520, size: 20),
      Self.paragraph(["Figure 3. The harbour at dawn"], x: 260, y: 800, size: 16),
      Self.paragraph(["see the", "records"], x: 30, y: 400, size: 16),
      Self.paragraph(Self.body, x: 200, y: 850, size: 20),
      Self.paragraph(["1 See the harbour records of 1901."], x: 200, y: 1250, size: 14),
      Self.paragraph(["12"], x: 490, y: 1350, size: 20),
    ])
    #expect(found["THE HARBOUR BOOK"]?.0 == .header)
    #expect(found["2.1 The Harbour"]?.0 == .heading)
    #expect(found["2.1 The Harbour"]?.1 == 1)
    #expect(found[Self.body.joined(separator: " ")]?.0 == .body)
    // A paragraph's short last line set apart is not a heading: it ends a sentence.
    #expect(found["and nothing else was heard."]?.0 == .body)
    #expect(found["• the first thing to pack"]?.0 == .listItem)
    #expect(found["2. the second thing to pack."]?.0 == .listItem)
    #expect(found["Figure 3. The harbour at dawn"]?.0 == .caption)
    #expect(found["see the records"]?.0 == .marginalia)
    #expect(found["1 See the harbour records of 1901."]?.0 == .footnote)
    #expect(found["12"]?.0 == .pageNumber)
    #expect(found["12"]?.1 == nil)
  }

  /// A page turned by 90°, 180° or 270° gets the roles of the same page
  /// upright (and the same reading order): the rules look at it upright.
  @Test(arguments: [90, 180, 270])
  func aTurnedPageGetsTheRolesOfTheUprightOne(_ turn: Int) {
    let upright = [
      Self.paragraph(["THE HARBOUR BOOK"], x: 400, y: 40, size: 20),
      Self.paragraph(["2.1 The Harbour"], x: 200, y: 150, size: 20),
      Self.paragraph(Self.body, x: 200, y: 200, size: 20),
      Self.paragraph(["see the", "records"], x: 30, y: 220, size: 16),
      Self.paragraph(Self.body, x: 200, y: 370, size: 20),
      Self.paragraph(["1 See the harbour records of 1901."], x: 200, y: 1250, size: 14),
      Self.paragraph(["12"], x: 490, y: 1350, size: 20),
    ].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    // Turning the upright page's boxes by `turn` clockwise is what the
    // upright frame of the opposite turn does.
    let (width, height) = turn == 180 ? (1000, 1400) : (1400, 1000)
    let turned = UprightFrame(orientation: (360 - turn) % 360, width: 1000, height: 1400)
      .blocks(upright)
    let want = RoleDetection.assigningRoles(to: upright, pageWidth: 1000, pageHeight: 1400)
    let got = RoleDetection.assigningRoles(
      to: turned, pageWidth: width, pageHeight: height, orientation: turn)
    #expect(got.map { $0.paragraphs[0].role } == want.map { $0.paragraphs[0].role })
    #expect(want.map { $0.paragraphs[0].role }.contains(.marginalia))
    #expect(got.map { $0.paragraphs[0].headingLevel } == want.map { $0.paragraphs[0].headingLevel })
    let order = ReadingOrder.ordering(
      got, pageWidth: width, pageHeight: height, orientation: turn
    ).flatMap(\.paragraphs).map { $0.lines[0].words.map(\.text).joined(separator: " ") }
    let uprightOrder = ReadingOrder.ordering(want, pageWidth: 1000, pageHeight: 1400)
      .flatMap(\.paragraphs).map { $0.lines[0].words.map(\.text).joined(separator: " ") }
    #expect(order == uprightOrder)
    #expect(uprightOrder.last == "12")
  }

  @Test func headingLevelsFollowTheSizeOfTheirType() {
    let found = Self.roles([
      Self.paragraph(["Notes from the Archive"], x: 300, y: 200, size: 40),
      Self.paragraph(["Scanning the Ledgers"], x: 200, y: 300, size: 28),
      Self.paragraph(Self.body, x: 200, y: 360, size: 20),
      Self.paragraph(["Numbers and Units"], x: 200, y: 500, size: 23),
      Self.paragraph(Self.body, x: 200, y: 540, size: 20),
      Self.paragraph(["Dates and Places"], x: 200, y: 680, size: 23),
      Self.paragraph(Self.body, x: 200, y: 720, size: 20),
    ])
    #expect(found["Notes from the Archive"].map { [$0.0 == .heading, $0.1 == 1] } == [true, true])
    #expect(found["Scanning the Ledgers"]?.1 == 2)
    #expect(found["Numbers and Units"]?.1 == 3)
    #expect(found["Dates and Places"]?.1 == 3)
  }

  @Test func aLetterHasNoHeadings() {
    // Salutations and closings are short single lines, but they end in
    // punctuation or are not title case.
    let found = Self.roles([
      Self.paragraph(["Dear Mrs Hudson,"], x: 200, y: 200, size: 20),
      Self.paragraph(Self.body, x: 200, y: 250, size: 20),
      Self.paragraph(["with best wishes"], x: 200, y: 400, size: 20),
      Self.paragraph(Self.body, x: 200, y: 450, size: 20),
    ])
    #expect(found.values.allSatisfy { $0.0 == .body }, "\(found)")
  }

  @Test func typeSizeComparesWordsWithDifferentLetters() throws {
    // Heights measured on Scans/headings.png: the 18 pt title's "Notes"
    // (capital, no descender) is shorter than the 14 pt "Scanning"
    // (capital and descender), yet its type is larger; the 11 pt body's
    // "are" (x-height only) and "ledger" (ascender and descender) agree.
    func size(_ text: String, _ height: Int) throws -> Double {
      try #require(
        RoleDetection.typeSize(
          of: Word(text: text, bbox: PixelRect(minX: 0, minY: 0, maxX: 50, maxY: height))))
    }
    #expect(try size("Notes", 53) > 1.2 * size("Scanning", 54))
    #expect(abs(try size("are", 21) - size("ledger", 42)) < 3)
    #expect(
      RoleDetection.typeSize(
        of: Word(text: "—", bbox: PixelRect(minX: 0, minY: 0, maxX: 9, maxY: 2))) == nil)
  }
}
