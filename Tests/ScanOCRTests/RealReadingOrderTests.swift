import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Reading order on real documents (issue 44 point 4): pages of
/// ../shared/docling rasterised at 300 dpi, read with the defaults, the
/// order of a few paragraphs checked against the order docling's `body`
/// gives them (skipped when the folder or pdftoppm is absent). All are
/// pages of the develop half (Tools/check/structure-eval).
@Suite("Reading order on real documents", .serialized)
struct RealReadingOrderTests {
  /// The place in reading order of the first paragraph whose text
  /// contains `text`.
  static func place(
    of text: String, in paragraphs: [(text: String, role: ParagraphRole)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Int {
    try #require(
      paragraphs.firstIndex { $0.text.contains(text) }, "no \"\(text)\" in \(paragraphs)",
      sourceLocation: sourceLocation)
  }

  /// A Korean report in two columns with notes at the foot of each
  /// column: the left column's notes ("3) 개정 …") are read when the left
  /// column ends (after "기존 …"), before the right column ("그러나 …");
  /// the right column's notes ("7) 제 …") after the right column.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aColumnsNotesAreReadWhenTheColumnEnds() throws {
    let page = try RealDocumentRolesTests.page("normal_4pages", 2, languages: ["kor"])
    let all = RealDocumentRolesTests.paragraphs(page)
    let leftEnd = try Self.place(of: "기존", in: all)
    let leftNotes = try Self.place(of: "3) 개정", in: all)
    let right = try Self.place(of: "그러나", in: all)
    let rightNotes = try Self.place(of: "7) 제", in: all)
    #expect(all[leftNotes].role == .footnote, "\(all)")
    #expect(leftEnd < leftNotes, "\(all)")
    #expect(leftNotes < right, "\(all)")
    #expect(right < rightNotes, "\(all)")
  }

  /// A book's left-hand page: the folio "20" left of the running foot
  /// "Row and Column Access Control Support in IBM DB2 for i", on its
  /// line; docling (and Tesseract) read "20 Row and …". The page number
  /// is read in its line, before the foot, and both after the text.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aFolioOnTheFootsLineIsReadInThatLine() throws {
    let page = try RealDocumentRolesTests.page("redp5110_sampled", 12)
    let all = RealDocumentRolesTests.paragraphs(page)
    let folio = try #require(all.firstIndex { $0.text == "20" }, "\(all)")
    let foot = try Self.place(of: "Support in IBM DB2 for i", in: all)
    let text = try Self.place(of: "VERIFY_GROUP_FOR_USER function was added", in: all)
    #expect(all[folio].role == .pageNumber, "\(all)")
    #expect(text < folio, "\(all)")
    #expect(folio + 1 == foot, "\(all)")
  }

  /// A Korean report's ruled table read cell by cell: Tesseract reads a
  /// cell's lines with boxes over two lines of type ("포함. 병 에 …"
  /// across "포함" and "①신종감염병…"); the cells' reading is repaired as
  /// the page's is, so `verify` holds (70 violations before: words
  /// outside their line's selection, selections overlapping, taps landing
  /// on the line above).
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aRuledTablesCellsReadAloneKeepTheInvariants() throws {
    let page = try RealDocumentRolesTests.page("normal_4pages", 2, languages: ["kor"])
    let cells = page.blocks.flatMap(\.paragraphs).filter { $0.role == .tableCell }
    #expect(cells.count >= 8, "\(RealDocumentRolesTests.paragraphs(page))")
    let report = page.verify()
    #expect(
      report.passed,
      "\(report.violations.count) violations, first: \(report.violations.prefix(3).map(\.description))"
    )
  }

  /// A magazine page in three columns whose first line ("S* mopep. She
  /// sighed. She", beside a three-line drop cap) Tesseract reads after the
  /// line below it ("wandered around the 'house"), whose box, once the
  /// initial's line is cut apart from it, starts higher: the first line's
  /// baseline is higher, and it is read first (`8071_093.3B.tif`; the
  /// truth's order).
  @Test(.enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func aLineBesideADropCapIsReadBeforeTheLineBelowIt() throws {
    let page = try #require(try RealScans.pages("tesseract-test/8071_093.3B.tif").first)
    let all = RealDocumentRolesTests.paragraphs(page)
    let first = try Self.place(of: "She sighed", in: all)
    let second = try Self.place(of: "wandered around", in: all)
    let third = try Self.place(of: "with the look", in: all)
    #expect(first < second, "\(all.prefix(4))")
    #expect(second < third, "\(all.prefix(4))")
  }
}
