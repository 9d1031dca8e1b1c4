import Testing

@testable import ScanModel

/// Heading and caption rules for what the docling pages show (issue 44
/// point 3, 2026-12-07): a paper's long table caption, a section title
/// after its number in a badge, a heading in capitals over mixed-case
/// text.
@Suite("Heading and caption rules on real layouts")
struct HeadingCaptionRulesTests {
  typealias R = RoleDetectionTests

  /// A table's caption of five lines whose number ends in a sign ("Table
  /// 1. HPO performed …", docling 2305.03393 p1) is a caption; a long
  /// paragraph that names a table in its first words is not, nor one of
  /// five lines whose label's number runs on into a sentence.
  @Test func aLongCaptionWhoseNumberEndsInASignIsACaption() {
    let caption = [
      "Table 1. The boats of the harbour counted by the keeper in",
      "the year of the flood, by the hour of their landing and the",
      "weight of their catch, with the nets they carried and the",
      "names of their masters as the harbour book records them, and",
      "the tolls each paid at the pier.",
    ]
    let sentence = [
      "Table 3-2 lists the boats of the harbour counted by the keeper",
      "in the year of the flood, by the hour of their landing and the",
      "weight of their catch, with the nets they carried and the",
      "names of their masters as the harbour book records them, and",
      "the tolls each paid at the pier.",
    ]
    let found = R.roles([
      R.paragraph(R.body, x: 100, y: 100, size: 20),
      R.paragraph(caption, x: 100, y: 260, size: 20),
      R.paragraph(R.body, x: 100, y: 420, size: 20),
      R.paragraph(sentence, x: 100, y: 580, size: 20),
      R.paragraph(R.body, x: 100, y: 740, size: 20),
    ])
    #expect(found[caption.joined(separator: " ")]?.0 == .caption)
    #expect(found[sentence.joined(separator: " ")]?.0 == .body)
    // Nine lines is no caption, however it starts.
    let long = caption + caption.prefix(4)
    let tooLong = R.roles([
      R.paragraph(R.body, x: 100, y: 100, size: 20),
      R.paragraph(long, x: 100, y: 260, size: 20),
      R.paragraph(R.body, x: 100, y: 600, size: 20),
    ])
    #expect(tooLong[long.joined(separator: " ")]?.0 == .body)
  }

  /// A caption's line OCR read as two paragraphs (docling redp5110 p14:
  /// "Figure 3-10 Colu" and "mn masks shown in System i Navigator") is
  /// all caption; a line of text farther right on the same line, or on
  /// the line below, is not.
  @Test func aCaptionsLineSplitByOCRIsAllCaption() {
    let label = R.line("Figure 3-10 Colu", x: 100, y: 400, size: 20)
    let rest = R.line(
      "mn masks shown in the harbour book", x: label.bbox.maxX + 2, y: 400, size: 20)
    let far = R.line("Keeper", x: 900, y: 400, size: 20)
    let below = R.line("The boats came in at dawn", x: 100, y: 430, size: 20)
    let found = R.roles([
      R.paragraph(R.body, x: 100, y: 100, size: 20),
      Paragraph(bbox: label.bbox, lines: [label]),
      Paragraph(bbox: rest.bbox, lines: [rest]),
      Paragraph(bbox: far.bbox, lines: [far]),
      Paragraph(bbox: below.bbox, lines: [below]),
      R.paragraph(R.body, x: 100, y: 500, size: 20),
    ])
    #expect(found["Figure 3-10 Colu"]?.0 == .caption)
    #expect(found["mn masks shown in the harbour book"]?.0 == .caption)
    #expect(found["Keeper"]?.0 != .caption)
    #expect(found["The boats came in at dawn"]?.0 != .caption)
  }

  @Test func aSignedLabelIsALabelAndANumberEndingInASign() {
    #expect(TextCues.startsWithSignedLabel("Table 1. HPO performed in OTSL"))
    #expect(TextCues.startsWithSignedLabel("Listing 1: Simple JavaScript Program"))
    #expect(TextCues.startsWithSignedLabel("[표 1] 감염병예방법 비교"))
    #expect(!TextCues.startsWithSignedLabel("Table 3-2 Built-in global variables"))
    #expect(!TextCues.startsWithSignedLabel("Tables 1. and 2. show"))
    #expect(!TextCues.startsWithSignedLabel("1. Run the statements"))
  }

  /// A section's title in display type after its number set in a badge
  /// (a white figure in a dark square OCR does not read: docling
  /// normal_4pages p2, "[2] 코로나-19 관련 보험 현황") is a heading; a
  /// line of the running text's size after the same ink is a list item.
  @Test func aTitleAfterANumberInABadgeIsAHeading() {
    // Hangul measured by the synthetic line is not its size: a Latin title.
    let title = "Insurance After the Epidemic"
    let item = "The keeper counted the boats."
    let blocks = [
      R.paragraph(R.body, x: 200, y: 100, size: 20),
      R.paragraph([title], x: 260, y: 300, size: 32),
      R.paragraph(R.body, x: 200, y: 360, size: 20),
      R.paragraph([item], x: 240, y: 520, size: 20),
      R.paragraph(R.body, x: 200, y: 560, size: 20),
    ].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    // The ink left of the title's and the item's lines.
    let marked: Set<Int> = [300, 520]
    let found = RoleDetection.assigningRoles(
      to: blocks, pageWidth: 1000, pageHeight: 1400, orientation: 0,
      listMarker: { line in marked.contains { abs(line.bbox.minY - $0) < 20 } })
    let roles = Dictionary(
      found.flatMap(\.paragraphs).map {
        ($0.lines.flatMap { $0.words.map(\.text) }.joined(separator: " "), $0.role)
      },
      uniquingKeysWith: { a, _ in a })
    #expect(roles[title] == .heading)
    #expect(roles[item] == .listItem)
  }

  /// The same title bold at the running text's size (docling
  /// normal_4pages p2's title measures 1.19 × its text: Hangul's boxes do
  /// not grow with its weight) is a heading too, though it starts right
  /// of the text's edge (the badge stands there); a regular line after
  /// the same ink is a list item.
  @Test func aBoldTitleAfterANumberInABadgeIsAHeading() {
    let title = "Insurance After the Epidemic"
    let item = "The keeper counted the boats."
    let blocks = [
      R.paragraph(R.body, x: 200, y: 100, size: 20),
      R.paragraph([title], x: 260, y: 300, size: 20),
      R.paragraph(R.body, x: 200, y: 360, size: 20),
      R.paragraph([item], x: 240, y: 520, size: 20),
      R.paragraph(R.body, x: 200, y: 560, size: 20),
    ].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let marked: Set<Int> = [300, 520]
    let found = RoleDetection.assigningRoles(
      to: blocks, pageWidth: 1000, pageHeight: 1400, orientation: 0,
      strokeWidth: HeadingCuesTests.strokes(bold: HeadingCuesTests.words(title)),
      listMarker: { line in marked.contains { abs(line.bbox.minY - $0) < 20 } })
    let roles = Dictionary(
      found.flatMap(\.paragraphs).map {
        ($0.lines.flatMap { $0.words.map(\.text) }.joined(separator: " "), $0.role)
      },
      uniquingKeysWith: { a, _ in a })
    #expect(roles[title] == .heading)
    #expect(roles[item] == .listItem)
  }

  /// A heading in capitals read into one paragraph with the text below it,
  /// a blank between them (docling redp5110 p18: "BUILDING TECHNICAL /
  /// INFORMATION BASED ON / PRACTICAL EXPERIENCE" over "IBM Redbooks are
  /// developed …"), is split off and is a heading; a paragraph whose first
  /// line is in capitals and runs on without a blank is not split.
  @Test func aHeadingInCapitalsOverItsTextIsSplitOffAndAHeading() {
    let heading = ["BUILDING TECHNICAL", "INFORMATION BASED ON", "PRACTICAL EXPERIENCE"]
    var merged = R.paragraph(heading + R.body, x: 200, y: 500, size: 20)
    // The text starts a blank line below the heading.
    for l in 3..<merged.lines.count {
      let line = merged.lines[l]
      merged.lines[l] = R.line(
        line.words.map(\.text).joined(separator: " "), x: 200, y: line.bbox.minY + 20, size: 20)
    }
    merged.bbox = PixelRect.union(merged.lines.map(\.bbox)) ?? merged.bbox
    let runOn = R.paragraph(["THE HARBOUR BOOK AND"] + R.body, x: 200, y: 900, size: 20)
    let text = R.paragraph(R.body, x: 200, y: 200, size: 20)
    let blocks = [text, merged, runOn].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let split = RoleDetection.splittingHeadings(blocks)
    #expect(split.map(\.paragraphs.count) == [1, 2, 1])
    let found = RoleDetection.assigningRoles(to: split, pageWidth: 1000, pageHeight: 1400)
    #expect(found[1].paragraphs.map(\.role) == [.heading, .body])
    #expect(found[2].paragraphs.map(\.role) == [.body])
  }

  /// Up to three lines in capitals at the running text's size, flush with
  /// the text, are a heading; a sentence in capitals is not.
  @Test func capitalsOfUpToThreeLinesAreAHeading() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 100, size: 20),
      R.paragraph(["THE HARBOUR BOOK OF", "THE KEEPER"], x: 200, y: 300, size: 20),
      R.paragraph(R.body, x: 200, y: 370, size: 20),
      R.paragraph(["THE KEEPER COUNTED THE", "BOATS AT DAWN."], x: 200, y: 560, size: 20),
      R.paragraph(R.body, x: 200, y: 630, size: 20),
    ])
    #expect(found["THE HARBOUR BOOK OF THE KEEPER"]?.0 == .heading)
    #expect(found["THE KEEPER COUNTED THE BOATS AT DAWN."]?.0 == .body)
  }
}
