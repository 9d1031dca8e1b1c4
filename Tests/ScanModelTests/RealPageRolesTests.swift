import Testing

@testable import ScanModel

/// Role rules for what real documents show and generated pages did not:
/// code listings, table header rows, running heads carrying their page
/// number, footnotes of several paragraphs.
struct RealPageRolesTests {
  typealias R = RoleDetectionTests

  /// A line whose words are set at the given x positions.
  static func line(_ words: [(String, Int)], y: Int, size: Int) -> TextLine {
    let built = words.map { text, x in
      R.line(text, x: x, y: y, size: size).words[0]
    }
    return TextLine(bbox: PixelRect.union(built.map(\.bbox)) ?? built[0].bbox, words: built)
  }

  static func paragraph(_ line: TextLine) -> Paragraph {
    Paragraph(bbox: line.bbox, lines: [line])
  }

  @Test func aCapitalisedLineOfACodeListingIsNotAHeading() {
    let code = [
      "CREATE MASK HR_SCHEMA.MASK_TAX_ID ON HR_SCHEMA.EMPLOYEES",
      "FOR COLUMN TAX_ID RETURN CASE WHEN 1 = 1 THEN TAX_ID",
    ]
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(code, x: 200, y: 330, size: 20),
      // As close under the listing as its lines are to each other.
      R.paragraph(["ACTIVATE ROW ACCESS CONTROL"], x: 200, y: 372, size: 20),
      R.paragraph(["THEN C . CUSTOMER_LOGIN_ID"], x: 200, y: 440, size: 20),
      R.paragraph(R.body, x: 200, y: 500, size: 20),
      // A heading naming one identifier stays one.
      R.paragraph(["3.3 VERIFY_GROUP_FOR_USER function"], x: 200, y: 700, size: 20),
      R.paragraph(R.body, x: 200, y: 750, size: 20),
    ])
    #expect(found["ACTIVATE ROW ACCESS CONTROL"]?.0 == .body)
    #expect(found["THEN C . CUSTOMER_LOGIN_ID"]?.0 == .body)
    #expect(found["3.3 VERIFY_GROUP_FOR_USER function"]?.0 == .heading)
  }

  /// A syntax diagram's keywords (docling redp5110 p10: "FOR ROWS",
  /// "ENFORCED FOR ALL ACCESS") set in from the column's text, apart from
  /// the lines around them: no headings; a line in capitals flush with
  /// the text, left or right, is one.
  @Test func aLineSetInFromItsColumnIsNotAHeading() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(["FOR ROWS"], x: 250, y: 400, size: 20),
      R.paragraph(["ENFORCED FOR ALL ACCESS"], x: 250, y: 500, size: 20),
      R.paragraph(["THE KEEPER'S LOG"], x: 200, y: 600, size: 20),
      R.paragraph(R.body, x: 200, y: 650, size: 20),
      // Flush right, as a right-to-left script sets its headings.
      R.paragraph(["THE LAST VOYAGE"], x: 650, y: 850, size: 20),
      R.paragraph(R.body, x: 200, y: 900, size: 20),
    ])
    #expect(found["FOR ROWS"]?.0 == .body)
    #expect(found["ENFORCED FOR ALL ACCESS"]?.0 == .body)
    #expect(found["THE KEEPER'S LOG"]?.0 == .heading)
    #expect(found["THE LAST VOYAGE"]?.0 == .heading)
  }

  @Test func aTableHeaderRowIsNotAHeading() {
    let blocks = [
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      Self.paragraph(
        Self.line(
          [("Column", 200), ("Name", 280), ("Type", 520), ("Description", 700)], y: 400, size: 20)),
      R.paragraph(R.body, x: 200, y: 450, size: 20),
    ].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let roles = RoleDetection.assigningRoles(to: blocks, pageWidth: 1000, pageHeight: 1400)
    #expect(roles[1].paragraphs[0].role == .body)
  }

  @Test func runningHeadsAndFeetCarryingTheirPageNumberAreFurniture() {
    // Lower than a tenth of the page and only a paragraph's space from
    // the text: told by the folio a tab away.
    let head = Self.paragraph(
      Self.line(
        [("Optimized", 300), ("Table", 420), ("Tokenization", 500), ("9", 900)], y: 150, size: 20))
    let foot = Self.paragraph(
      Self.line(
        [("Chapter", 200), ("3.", 300), ("Access", 340), ("Control", 440), ("19", 900)], y: 1230,
        size: 20))
    let blocks = [
      head, R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(R.body, x: 200, y: 1120, size: 20), foot,
    ].map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let roles = RoleDetection.assigningRoles(to: blocks, pageWidth: 1000, pageHeight: 1400)
    #expect(roles[0].paragraphs[0].role == .header)
    #expect(roles[3].paragraphs[0].role == .footer)
    #expect(roles[1].paragraphs[0].role == .body)
  }

  @Test func aFootnoteGoesOnInTheParagraphsBelowIt() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(R.body, x: 200, y: 400, size: 20),
      R.paragraph(["※ Source: the harbour records of 1901."], x: 200, y: 1100, size: 14),
      R.paragraph(["1) The keeper's own count, kept apart."], x: 200, y: 1130, size: 14),
      R.paragraph(
        ["and written in the margin of the book", "in a smaller hand than the rest."], x: 200,
        y: 1160, size: 14),
    ])
    #expect(found["※ Source: the harbour records of 1901."]?.0 == .footnote)
    #expect(found["1) The keeper's own count, kept apart."]?.0 == .footnote)
    #expect(
      found["and written in the margin of the book in a smaller hand than the rest."]?.0
        == .footnote)
  }

  /// The last footnote at the page's foot stays a footnote: its marker
  /// says what it is, before small type in the bottom band makes it a
  /// running foot (a check page of the docling set, normal_4pages-p3).
  @Test func aFootnoteAtThePagesFootIsNoRunningFoot() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(R.body, x: 200, y: 400, size: 20),
      R.paragraph(
        ["9) The sums agree when the same policies are sold."], x: 200, y: 1230, size: 14),
    ])
    #expect(found["9) The sums agree when the same policies are sold."]?.0 == .footnote)
  }

  /// An address at the page's foot starts with a postcode, not a note's
  /// number (docling normal_4pages p4: "07233 서울시 …" was a footnote):
  /// a note is numbered with at most three figures.
  @Test func aPostcodeIsNoFootnotesMarker() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(R.body, x: 200, y: 400, size: 20),
      // The note closes the right column; the address stands at the
      // foot of the left one.
      R.paragraph(["10) The index pays on the rainfall measured."], x: 550, y: 1000, size: 14),
      R.paragraph(["07233 Harbour Road 1, Keeper's House"], x: 100, y: 1060, size: 14),
    ])
    #expect(found["10) The index pays on the rainfall measured."]?.0 == .footnote)
    #expect(found["07233 Harbour Road 1, Keeper's House"]?.0 != .footnote)
  }

  /// A sub-section numbered "(1)" set larger than the running text is a
  /// heading; numbered so in the running text's type, an item of a list
  /// (docling normal_4pages: "(1) 「감염병의 예방 …」 개정").
  @Test func aBracketNumberedLineInDisplayTypeIsAHeading() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 200, size: 20),
      R.paragraph(["(1) The Harbour Records"], x: 200, y: 400, size: 26),
      R.paragraph(R.body, x: 200, y: 450, size: 20),
      R.paragraph(["(2) the keeper kept the count of the boats;"], x: 200, y: 600, size: 20),
      R.paragraph(["(3) the nets were dried on the pier."], x: 200, y: 630, size: 20),
      R.paragraph(R.body, x: 200, y: 700, size: 20),
    ])
    #expect(found["(1) The Harbour Records"]?.0 == .heading)
    #expect(found["(2) the keeper kept the count of the boats;"]?.0 == .listItem)
  }

  /// The running text's size is that of the type filling most of the
  /// page's lines, not of the most lines: a table's many short cells in
  /// small type do not make the notes at the foot, set as small, the
  /// page's running text (docling normal_4pages p2, whose notes
  /// Tesseract's layout broke into many short lines).
  @Test func manyShortLinesDoNotSetTheRunningTextsSize() {
    let cells = (0..<6).map { row in
      R.paragraph(
        ["Cell \(row) one", "and two"], x: 200 + (row % 3) * 200, y: 700 + row / 3 * 40, size: 14)
    }
    let found = R.roles(
      [
        R.paragraph(R.body, x: 200, y: 200, size: 20),
        R.paragraph(R.body, x: 200, y: 400, size: 20),
      ] + cells + [
        R.paragraph(
          ["3) The count was kept in the keeper's book", "and checked at the end of the year."],
          x: 200, y: 1150, size: 14)
      ])
    #expect(
      found["3) The count was kept in the keeper's book and checked at the end of the year."]?.0
        == .footnote)
  }

  @Test func theWeightedMedianCountsEachValueByItsWeight() {
    #expect(RoleDetection.weightedMedian([]) == 0)
    #expect(RoleDetection.weightedMedian([(14, 1), (14, 1), (14, 1), (20, 4)]) == 20)
    #expect(RoleDetection.weightedMedian([(14, 1), (20, 1)]) == 14)
  }

  /// A foot in small type at the bottom of its column is furniture even
  /// when another column's foot (a logo's lettering) runs lower on the
  /// page (docling normal_4pages p4: the publisher's address).
  @Test func aFootWithNothingBelowItInItsColumnIsAFooter() {
    let found = R.roles([
      R.paragraph(R.body, x: 100, y: 200, size: 20),
      R.paragraph(R.body, x: 100, y: 600, size: 20),
      R.paragraph(["Harbour Road 1, Keeper's House"], x: 100, y: 1250, size: 14),
      R.paragraph(["LIGHTHOUSE BOARD"], x: 750, y: 1300, size: 14),
    ])
    #expect(found["Harbour Road 1, Keeper's House"]?.0 == .footer)
  }

  /// A caption's label and number in brackets, as Korean reports set
  /// them (docling normal_4pages p2: "[표 1] 감염병예방법 제2조제2호
  /// 개정전·후 비교"): a caption; a reference's number in brackets, or
  /// "표 1" starting a sentence, is not.
  @Test func aLabelAndNumberInBracketsStartACaption() {
    let found = R.roles([
      R.paragraph(R.body, x: 200, y: 100, size: 20),
      R.paragraph(["[표 1] 감염병예방법 개정 전후 비교"], x: 200, y: 300, size: 18),
      R.paragraph(R.body, x: 200, y: 350, size: 20),
      R.paragraph(["[Table 2] The boats of the harbour"], x: 200, y: 550, size: 18),
      R.paragraph(R.body, x: 200, y: 600, size: 20),
      R.paragraph(["[1] Keeper, J. The harbour records."], x: 200, y: 800, size: 20),
      R.paragraph(["표 1에서 보듯이 개정 전후가 다르다"], x: 200, y: 850, size: 20),
      R.paragraph(R.body, x: 200, y: 900, size: 20),
    ])
    #expect(found["[표 1] 감염병예방법 개정 전후 비교"]?.0 == .caption)
    #expect(found["[Table 2] The boats of the harbour"]?.0 == .caption)
    #expect(found["[1] Keeper, J. The harbour records."]?.0 != .caption)
    #expect(found["표 1에서 보듯이 개정 전후가 다르다"]?.0 != .caption)
  }
}
