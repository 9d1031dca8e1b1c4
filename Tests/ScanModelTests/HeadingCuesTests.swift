import Testing

@testable import ScanModel

/// The heading rules of issue 29: bold type by its strokes, numbered
/// headings in larger type, numbering as OCR reads it, headings split off
/// the paragraph they were read into, and levels from weight and case.
@Suite("Heading cues")
struct HeadingCuesTests {
  typealias R = RoleDetectionTests

  /// Stroke widths of a page where the words in `bold` are bold (0.15 em
  /// strokes) and the rest regular (0.09 em).
  static func strokes(bold: Set<String>) -> (Word) -> Double? {
    { word in
      RoleDetection.typeSize(of: word).map { $0 * (bold.contains(word.text) ? 0.15 : 0.09) }
    }
  }

  static func roles(
    _ paragraphs: [Paragraph], bold: Set<String>? = nil, split: Bool = false
  ) -> [String: (ParagraphRole, Int?)] {
    var blocks = paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let strokeWidth = bold.map { strokes(bold: $0) }
    if split { blocks = RoleDetection.splittingHeadings(blocks, strokeWidth: strokeWidth) }
    let found = RoleDetection.assigningRoles(
      to: blocks, pageWidth: 1000, pageHeight: 1400, orientation: 0, strokeWidth: strokeWidth)
    var out: [String: (ParagraphRole, Int?)] = [:]
    for p in found.flatMap(\.paragraphs) {
      let text = p.lines.flatMap { $0.words.map(\.text) }.joined(separator: " ")
      out[text] = (p.role, p.headingLevel)
    }
    return out
  }

  static func words(_ text: String) -> Set<String> {
    Set(text.split(separator: " ").map(String.init))
  }

  @Test func aBoldLineAtTheTextSizeIsAHeading() {
    // Sentence case, unnumbered, not centred: only its weight sets it apart.
    let page = [
      R.paragraph(["On the old sluice"], x: 200, y: 200, size: 20),
      R.paragraph(R.body, x: 200, y: 240, size: 20),
      R.paragraph(R.body, x: 200, y: 400, size: 20),
    ]
    let bold = Self.roles(page, bold: Self.words("On the old sluice"))
    #expect(bold["On the old sluice"].map { [$0.0 == .heading, $0.1 == 1] } == [true, true])
    #expect(Self.roles(page, bold: [])["On the old sluice"]?.0 == .body)
    #expect(Self.roles(page)["On the old sluice"]?.0 == .body)
  }

  @Test func aBoldWordOrABoldRunInLeadIsNotAHeading() {
    let lead = "Methods. The mill was sold in May and the rest of it went"
    // Most of its line bold, but it ends before the line does.
    let longLead = "How Lanterns Were Filled. Mills"
    let page = [
      R.paragraph(["On the old sluice"], x: 200, y: 200, size: 20),
      R.paragraph([lead] + R.body.dropFirst(), x: 200, y: 240, size: 20),
      R.paragraph(R.body, x: 200, y: 400, size: 20),
      R.paragraph(["Methods. The mill was sold."], x: 200, y: 560, size: 20),
      R.paragraph(R.body, x: 200, y: 600, size: 20),
      R.paragraph([longLead] + R.body.dropFirst(), x: 200, y: 760, size: 20),
    ]
    let found = Self.roles(
      page,
      bold: Self.words("On the old sluice How Lanterns Were Filled.")
        .union(["Methods.", "ferry", "keeper"]),
      split: true)
    #expect(found["On the old sluice"]?.0 == .heading)
    // Neither split off its paragraph nor a heading alone.
    #expect(found[([lead] + R.body.dropFirst()).joined(separator: " ")]?.0 == .body)
    #expect(found["Methods. The mill was sold."]?.0 == .body)
    #expect(found[([longLead] + R.body.dropFirst()).joined(separator: " ")]?.0 == .body)
    #expect(found[R.body.joined(separator: " ")]?.0 == .body)
  }

  @Test func aNumberedHeadingInLargerTypeIsNotAListItem() {
    let heading = ["1. A Long Account of the Mills and", "the Rivers of the Valley"]
    let larger = Self.roles([
      R.paragraph(heading, x: 200, y: 100, size: 30),
      R.paragraph(["ll. Roads and Chapels"], x: 200, y: 200, size: 30),
      R.paragraph(R.body, x: 200, y: 260, size: 20),
    ])
    #expect(larger[heading.joined(separator: " ")]?.0 == .heading)
    #expect(larger["ll. Roads and Chapels"]?.0 == .heading)
    // The same lines at the running text's size are a list item.
    let same = Self.roles([
      R.paragraph(heading, x: 200, y: 100, size: 20),
      R.paragraph(R.body, x: 200, y: 260, size: 20),
    ])
    #expect(same[heading.joined(separator: " ")]?.0 == .listItem)
  }

  @Test func numberingIsReadAsOCRReadsIt() {
    for word in ["2.", "2.1", "2.1.", "IV.", "A.", "ll.", "Il.", "lll.", "Ill."] {
      #expect(TextCues.isNumbering(word), "\(word)")
    }
    for word in ["all.", "Ill", "Ab.", "lo.", "a."] {
      #expect(!TextCues.isNumbering(word), "\(word)")
    }
  }

  @Test func aHeadingReadIntoTheParagraphBelowItIsSplitOff() {
    // A larger first line, and a bold first line at the text's size.
    var larger = R.paragraph(["Notes on Stables"] + R.body, x: 200, y: 200, size: 20)
    larger.lines[0] = R.line("Notes on Stables", x: 200, y: 170, size: 30)
    larger.bbox = larger.bbox.union(larger.lines[0].bbox)
    let bold = R.paragraph(["Cellars and wheels"] + R.body, x: 200, y: 500, size: 20)
    let plain = R.paragraph(R.body, x: 200, y: 800, size: 20)
    let blocks = [Block(bbox: larger.bbox, paragraphs: [larger, bold, plain])]
    let strokes = Self.strokes(bold: Self.words("Cellars and wheels"))
    let split = RoleDetection.splittingHeadings(blocks, strokeWidth: strokes)
    #expect(split[0].paragraphs.map(\.lines.count) == [1, 4, 1, 4, 4])
    let found = RoleDetection.assigningRoles(
      to: split, pageWidth: 1000, pageHeight: 1400, orientation: 0, strokeWidth: strokes)
    #expect(
      found[0].paragraphs.map(\.role) == [.heading, .body, .heading, .body, .body])
    #expect(found[0].paragraphs.map(\.headingLevel) == [1, nil, 2, nil, nil])
    // Unmeasured, the bold line stays; without a change of type, nothing splits.
    #expect(
      RoleDetection.splittingHeadings(blocks)[0].paragraphs.map(\.lines.count) == [1, 4, 5, 4])
    let uniform = [Block(bbox: plain.bbox, paragraphs: [plain, plain])]
    #expect(RoleDetection.splittingHeadings(uniform, strokeWidth: strokes) == uniform)
  }

  @Test func aLargerLineFillingItsColumnIsNotSplitOff() {
    // OCR read two lines of running text as one tall line: it fills the
    // measure, which a heading's last line does not.
    var merged = R.paragraph(
      ["Gegenden anderer Länder fortgesetzt und", "geführt."], x: 200, y: 500, size: 20)
    merged.lines[0] = R.line(
      "Gegenden anderer Länder fortgesetzt und", x: 200, y: 470, size: 30)
    merged.bbox = merged.bbox.union(merged.lines[0].bbox)
    let text = R.paragraph(R.body, x: 200, y: 200, size: 20)
    let column = text.bbox.union(merged.bbox)
    let full = [Block(bbox: column, paragraphs: [text, merged])]
    #expect(RoleDetection.splittingHeadings(full)[0].paragraphs.count == 2)
    // The same lines in a wider column: the first ends short, a heading.
    var wide = full
    wide[0].bbox.maxX += 200
    #expect(RoleDetection.splittingHeadings(wide)[0].paragraphs.count == 3)
  }

  @Test func aHeadingIsFollowedByTextInItsColumn() {
    let page = [
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(["Lander fortgesetzt"], x: 200, y: 1200, size: 30),
    ]
    let stampBeside = Self.roles(page + [R.paragraph(["ULB Halle"], x: 20, y: 1300, size: 12)])
    #expect(stampBeside["Lander fortgesetzt"]?.0 == .body)
    let textBelow = Self.roles(page + [R.paragraph(R.body, x: 200, y: 1250, size: 20)])
    #expect(textBelow["Lander fortgesetzt"]?.0 == .heading)
  }

  @Test func levelsFollowWeightAndCaseWithinASize() {
    typealias Look = RoleDetection.HeadingLook
    #expect(
      RoleDetection.headingLevels([
        Look(size: 20, bold: true), Look(size: 20), Look(size: 16, bold: true), Look(size: 20),
      ]) == [1, 2, 3, 2])
    #expect(
      RoleDetection.headingLevels([Look(size: 20, capitals: true), Look(size: 20)]) == [1, 2])
    // Sizes of one level spread by a few per cent: within 8 % of the next
    // larger one, the same tier; a larger drop, the next.
    #expect(RoleDetection.headingLevels([20, 19, 18.2]) == [1, 1, 1])
    #expect(RoleDetection.headingLevels([20, 18]) == [1, 2])
  }
}
