import Testing

@testable import ScanModel

/// Notes as real documents set them (issue 44 point 3): a table's notes
/// read into one paragraph with the running text below, notes read as one
/// paragraph whose first marker OCR lost, a note's lines read as two
/// paragraphs whose boxes overlap, reference marks.
struct NoteRolesTests {
  typealias R = RoleDetectionTests

  /// One paragraph of lines, each at its own size, indent and top.
  static func paragraph(_ lines: [(text: String, x: Int, y: Int, size: Int)]) -> Paragraph {
    let built = lines.map { R.line($0.text, x: $0.x, y: $0.y, size: $0.size) }
    return Paragraph(bbox: PixelRect.union(built.map(\.bbox)) ?? built[0].bbox, lines: built)
  }

  /// The texts and roles of the paragraphs after the note split and the
  /// roles, each given paragraph in its own block.
  static func read(_ paragraphs: [Paragraph], width: Int = 1000, height: Int = 1400)
    -> [(text: String, role: ParagraphRole)]
  {
    let blocks = RoleDetection.splittingNotes(
      paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) })
    return RoleDetection.assigningRoles(to: blocks, pageWidth: width, pageHeight: height)
      .flatMap(\.paragraphs).map {
        ($0.lines.flatMap(\.words).map(\.text).joined(separator: " "), $0.role)
      }
  }

  static let text = [R.paragraph(R.body, x: 200, y: 200, size: 20)]

  /// A table's notes in small type right under it, read with the running
  /// text below them into one paragraph (docling normal_4pages p2: "※ 주:
  /// 2020.1.1. 기준 / ※ 자료: … / 기존 생명보험에서 …"): split off, and
  /// footnotes though running text follows them.
  @Test func aTablesNotesReadWithTheTextBelowAreSplitOffAsFootnotes() {
    let merged = Self.paragraph([
      ("※ Note: counted in 2020.", 200, 700, 14),
      ("※ Source: the harbour board.", 200, 720, 14),
      ("The ferry left the harbour at dawn and the sea was calm all", 200, 750, 20),
      ("the way to the island where the keeper was waiting for the", 200, 774, 20),
      ("boat with a lantern in his hand and a dog at his side.", 200, 798, 20),
    ])
    let found = Self.read(Self.text + [merged])
    #expect(found.count == 3, "\(found)")
    #expect(found[safe: 1]?.text == "※ Note: counted in 2020. ※ Source: the harbour board.")
    #expect(found[safe: 1]?.role == .footnote)
    #expect(found[safe: 2]?.text.hasPrefix("The ferry left") == true)
    #expect(found[safe: 2]?.role == .body)
  }

  /// Running text, then a note below it read into the same paragraph:
  /// split where the type turns smaller at a note's marker.
  @Test func aNoteReadWithTheTextAboveIsSplitOff() {
    let merged = Self.paragraph([
      ("The ferry left the harbour at dawn and the sea was calm all", 200, 1100, 20),
      ("the way to the island where the keeper was waiting for the", 200, 1124, 20),
      ("3) The count was kept in the keeper's book.", 200, 1160, 14),
    ])
    let found = Self.read(Self.text + [merged])
    #expect(found.map(\.text).last == "3) The count was kept in the keeper's book.", "\(found)")
    #expect(found.last?.role == .footnote)
  }

  /// A note's marker raised in the running text and read as a line of its
  /// own ("4)"), a heading over its text, small type not starting with a
  /// marker: no cut.
  @Test func noCutWithoutANoteOfText() {
    let raised = Self.paragraph([
      ("The ferry left the harbour at dawn and the sea was calm all", 200, 600, 20),
      ("4)", 400, 622, 14),
      ("the way to the island where the keeper was waiting for the", 200, 640, 20),
    ])
    let small = Self.paragraph([
      ("The ferry left the harbour at dawn and the sea was calm all", 200, 800, 20),
      ("counted by the keeper in his book.", 200, 830, 14),
    ])
    let heading = Self.paragraph([
      ("12 Boats", 200, 1000, 30),
      ("12 boats left the harbour at dawn and the sea was calm all", 200, 1040, 20),
      ("the way to the island where the keeper was waiting for the", 200, 1064, 20),
    ])
    let blocks = (Self.text + [raised, small, heading]).map {
      Block(bbox: $0.bbox, paragraphs: [$0])
    }
    #expect(RoleDetection.splittingNotes(blocks) == blocks)
  }

  /// Notes read as one paragraph whose first marker OCR lost (docling
  /// normal_4pages p2's right column: notes 5 to 7): a later note's marker
  /// hanging out left of its text makes the paragraph notes; the same
  /// small lines set flush (a paragraph of small text) do not.
  @Test func aLaterNotesHangingMarkerMakesTheParagraphFootnotes() {
    let notes = Self.paragraph([
      ("Standard Classification of Diseases, made by", 230, 1150, 14),
      ("the statistics office for the records.", 230, 1168, 14),
      ("7) Article 5: the terms are read in good faith", 200, 1186, 14),
      ("and alike for every customer of the board.", 230, 1204, 14),
    ])
    let flush = Self.paragraph([
      ("Standard Classification of Diseases, made by", 600, 1150, 14),
      ("the statistics office for the records.", 600, 1168, 14),
      ("7 boats were read in good faith by the board", 600, 1186, 14),
      ("and alike for every customer of the board.", 600, 1204, 14),
    ])
    let found = Self.read(
      Self.text + [R.paragraph(R.body, x: 200, y: 500, size: 20), notes, flush])
    #expect(found.first { $0.text.hasPrefix("Standard") }?.role == .footnote, "\(found)")
    #expect(found.last { $0.text.hasPrefix("Standard") }?.role != .footnote, "\(found)")
  }

  /// A note's lines read as two paragraphs whose boxes overlap by a few
  /// pixels (docling normal_4pages p2: "4) 2. 가. ~ 더. …" and its further
  /// lines): the lower one continues the note.
  @Test func aNotesFurtherLinesOverlappingItAreTheNotes() {
    let found = Self.read(
      Self.text + [
        R.paragraph(R.body, x: 200, y: 600, size: 20),
        R.paragraph(["4) The seventeen diseases are these:"], x: 200, y: 1100, size: 14),
        R.paragraph(
          ["the fever of the south, the plague of the", "north and the pox of the west."],
          x: 200, y: 1104, size: 14),
      ])
    #expect(
      found.first { $0.text.hasPrefix("the fever") }?.role == .footnote, "\(found)")
  }

  /// A reference mark starts a note wherever it stands (under a table in
  /// the middle of the page); a star in the running text's size does not.
  @Test func aReferenceMarkInSmallTypeIsANoteAnywhere() {
    let found = Self.read(
      Self.text + [
        R.paragraph(["† Counted by the keeper in 1901."], x: 200, y: 400, size: 14),
        R.paragraph(R.body, x: 200, y: 450, size: 20),
        R.paragraph(["† Counted by the keeper in 1902."], x: 200, y: 650, size: 20),
        R.paragraph(R.body, x: 200, y: 700, size: 20),
      ])
    #expect(found.first { $0.text.hasSuffix("1901.") }?.role == .footnote, "\(found)")
    #expect(found.first { $0.text.hasSuffix("1902.") }?.role != .footnote, "\(found)")
  }

  /// A table's notes under it, with running text below them in their
  /// column, are read where they stand (docling's order for normal_4pages
  /// p2's "※ 주: …"); a page's notes at its foot are read after the text.
  @Test func aTablesNotesAreReadWhereTheyStand() {
    let merged = Self.paragraph([
      ("※ Note: counted in 2020.", 200, 700, 14),
      ("The ferry left the harbour at dawn and the sea was calm all", 200, 750, 20),
      ("the way to the island where the keeper was waiting for the", 200, 774, 20),
    ])
    let blocks = RoleDetection.splittingNotes(
      (Self.text + [
        merged,
        R.paragraph(["3) The count was kept in the keeper's book."], x: 200, y: 1200, size: 14),
        R.paragraph(
          ["boat with a lantern in his hand and a dog at his side", "while the gulls circled."],
          x: 200, y: 900, size: 20),
      ]).map { Block(bbox: $0.bbox, paragraphs: [$0]) })
    let roled = RoleDetection.assigningRoles(to: blocks, pageWidth: 1000, pageHeight: 1400)
    let read = ReadingOrder.ordering(roled, pageWidth: 1000, pageHeight: 1400)
      .flatMap(\.paragraphs).map { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") }
    #expect(
      read.map { String($0.prefix(12)) } == [
        "The ferry le", "※ Note: coun", "The ferry le", "boat with a ", "3) The count",
      ], "\(read)")
  }
}
