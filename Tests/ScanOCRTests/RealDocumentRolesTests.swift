import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Roles on real documents (issue 44): pages of ../shared/docling
/// rasterised at 300 dpi as a scan of them would be, read with the
/// defaults, one label each (skipped when the folder or pdftoppm is
/// absent). All are pages of the develop half (Tools/check/structure-eval).
@Suite("Roles on real documents", .serialized)
struct RealDocumentRolesTests {
  static let docling = RealTableTests.docling

  /// Page `number` of docling's `name`.pdf, recognised (once per test
  /// process: the table and reading-order suites read some of these pages too).
  static func page(_ name: String, _ number: Int, languages: [LanguageCode] = ["eng"]) throws
    -> Page
  {
    try RealDocuments.page(
      docling.appendingPathComponent("\(name).pdf"), number, languages: languages)
  }

  static func paragraphs(_ page: Page) -> [(text: String, role: ParagraphRole)] {
    page.blocks.flatMap(\.paragraphs).map {
      ($0.lines.flatMap(\.words).map(\.text).joined(separator: " "), $0.role)
    }
  }

  static func role(of prefix: String, in page: Page) -> ParagraphRole? {
    paragraphs(page).first { $0.text.hasPrefix(prefix) }?.role
  }

  /// A word processor's history: bullets Tesseract reads as "e" before a
  /// tab are list items; the section titles are headings.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func bulletsReadAsLettersAreListItems() throws {
    let page = try Self.page("multi_page", 1)
    let names = ["IBM MT/ST", "Wang Laboratories", "WordStar", "Microsoft Word"]
    let items = Self.paragraphs(page).filter { paragraph in
      names.contains { paragraph.text.contains($0 + " (") || paragraph.text.contains($0 + ":") }
    }
    #expect(items.count == 4, "\(Self.paragraphs(page))")
    #expect(items.allSatisfy { $0.role == .listItem }, "\(items)")
    #expect(Self.role(of: "The Evolution of the Word Processor", in: page) == .heading)
  }

  /// A survey's answers: check boxes OCR drops (white squares on tinted
  /// paper) make list items, each its own; the page numbers and running
  /// feet are furniture.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func checkBoxesOnlyInTheImageMakeListItems() throws {
    let page = try Self.page("table_mislabeled_as_picture", 1)
    let all = Self.paragraphs(page)
    let national = all.filter { $0.text == "Yes, at the national (federal) level" }
    #expect(national.count == 2, "\(all)")
    #expect(national.allSatisfy { $0.role == .listItem })
    #expect(Self.role(of: "They can prepare legal documents", in: page) == .listItem)
    #expect(Self.role(of: "208", in: page) == .pageNumber)
    #expect(Self.role(of: "Global Study on Legal Aid", in: page) == .footer)
  }

  /// A paper's running head carries its page number a tab away, lower
  /// than a tenth of the page: a header.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aRunningHeadWithItsFolioIsAHeader() throws {
    let page = try Self.page("2305.03393v1-pg9", 1)
    #expect(Self.role(of: "Optimized Table Tokenization", in: page) == .header)
    #expect(Self.role(of: "5.1 Hyper Parameter Optimization", in: page) == .heading)
  }

  /// A manual's steps and listings: a numbered sentence is a list item,
  /// not a heading; a capitalised line of an SQL listing is no heading;
  /// "Figure 3-10 …" and "Example 3-10 …" labels are captions.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func stepsAndListingsAreNoHeadings() throws {
    let page = try Self.page("redp5110_sampled", 14)
    #expect(Self.role(of: "1. Run the SQL statements", in: page) == .listItem)
    #expect(Self.role(of: "2. Look at the definition", in: page) == .listItem)
    #expect(Self.role(of: "ACTIVATE ROW ACCESS CONTROL", in: page) != .heading)
    #expect(Self.role(of: "3.6.6 Activating RCAC", in: page) == .heading)
  }

  /// A syntax diagram (redp5110 p10, Figure 3-1): its keywords "FOR ROWS"
  /// and "ENFORCED FOR ALL ACCESS", in capitals at the text's size but
  /// set in from the column's text, are no headings; the section title
  /// below the figure, flush with the text, is one.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aSyntaxDiagramsKeywordsAreNoHeadings() throws {
    let page = try Self.page("redp5110_sampled", 10)
    #expect(Self.role(of: "FOR ROWS", in: page) == .body)
    #expect(Self.role(of: "ENFORCED FOR ALL ACCESS", in: page) == .body)
    #expect(Self.role(of: "Column mask", in: page) == .heading)
  }

  /// A page number alone at the foot of a page of figures, which
  /// Tesseract's layout drops as noise: read on its own, it is the page's
  /// number.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aPageNumberTesseractDropsIsReadOnItsOwn() throws {
    let page = try Self.page("picture_classification", 2)
    let numbers = Self.paragraphs(page).filter { $0.role == .pageNumber }
    #expect(numbers.map(\.text) == ["2"], "\(Self.paragraphs(page))")
    let box = try #require(
      page.blocks.flatMap(\.paragraphs).first { $0.role == .pageNumber }?.bbox)
    // Centred at the page's foot, in the original's pixels.
    #expect(abs((box.minX + box.maxX) / 2 - page.width / 2) < page.width / 20)
    #expect(box.minY > page.height * 7 / 8)
  }

  /// A Korean report's notes under a short rule at the foot of the left
  /// column, in smaller type: footnotes, though Tesseract's layout breaks
  /// the page's table and notes into many short lines (which set the
  /// running text's size too small before it was weighted by length).
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func notesUnderARuleAreFootnotes() throws {
    let page = try Self.page("normal_4pages", 2, languages: ["kor"])
    #expect(Self.role(of: "3) 개정", in: page) == .footnote, "\(Self.paragraphs(page))")
  }

  /// The same page's other notes: the table's notes ("※ 주: …", "※ 자료:
  /// …") read into one paragraph with the running text below them, the
  /// right column's notes read as one paragraph whose first markers OCR
  /// lost (note 7's marker hangs), note 4's further lines read as a
  /// paragraph overlapping its first: footnotes; the running text below
  /// the table stays body. The table's label in brackets ("[표 1] …")
  /// starts its caption.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func tableNotesAndNotesOCRBrokeAreFootnotes() throws {
    let page = try Self.page("normal_4pages", 2, languages: ["kor"])
    let all = Self.paragraphs(page)
    let tableNotes = try #require(all.first { $0.text.hasPrefix("※ 주:") }, "\(all)")
    #expect(tableNotes.role == .footnote)
    #expect(tableNotes.text.contains("※ 자료:"), "\(all)")
    #expect(!tableNotes.text.contains("기존"), "\(all)")
    #expect(all.first { $0.text.hasPrefix("기존") }?.role == .body, "\(all)")
    #expect(all.first { $0.text.contains("7) 제") }?.role == .footnote, "\(all)")
    #expect(all.first { $0.text.contains("디프테리아") }?.role == .footnote, "\(all)")
    #expect(all.first { $0.text.hasPrefix("[ 표 1]") }?.role == .caption, "\(all)")
  }

  /// Sub-titles numbered "(1)", "(3)" in type bolder and larger than the
  /// running text: headings, not list items.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func bracketNumberedSubtitlesAreHeadings() throws {
    let page = try Self.page("normal_4pages", 4, languages: ["kor"])
    let all = Self.paragraphs(page)
    #expect(Self.role(of: "(1)", in: page) == .heading, "\(all)")
    #expect(Self.role(of: "(3)", in: page) == .heading, "\(all)")
    #expect(Self.role(of: "10) 인덱스", in: page) == .footnote, "\(all)")
  }

  /// A paper's table caption of five lines over its table, numbered
  /// "Table 1.": a caption (the rule's four lines held captions of one
  /// to four lines only).
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aLongTableCaptionIsACaption() throws {
    let page = try Self.page("2305.03393v1-pg9", 1)
    #expect(
      Self.role(of: "Table 1. HPO performed", in: page) == .caption, "\(Self.paragraphs(page))")
    #expect(Self.role(of: "5.1 Hyper Parameter Optimization", in: page) == .heading)
  }

  /// A figure's caption whose line OCR reads as two paragraphs ("Figure
  /// 3-10 Colu", "mn masks shown in System i Navigator"): both caption.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aCaptionsLineReadAsTwoParagraphsIsAllCaption() throws {
    let page = try Self.page("redp5110_sampled", 14)
    let all = Self.paragraphs(page)
    let parts = all.filter {
      $0.text.hasPrefix("Figure 3-10") || $0.text.contains("masks shown in System i Navigator")
    }
    #expect(!parts.isEmpty, "\(all)")
    #expect(parts.allSatisfy { $0.role == .caption }, "\(parts)")
  }

  /// A back cover's heading in capitals read into one paragraph with the
  /// mixed-case text a blank line below it: split off, a heading.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aHeadingInCapitalsOverItsTextIsAHeading() throws {
    let page = try Self.page("redp5110_sampled", 18)
    let all = Self.paragraphs(page)
    let heading = try #require(all.first { $0.text.hasPrefix("BUILDING TECHNICAL") }, "\(all)")
    #expect(heading.role == .heading, "\(all)")
    #expect(heading.text.hasSuffix("PRACTICAL EXPERIENCE"), "\(all)")
    #expect(all.first { $0.text.hasPrefix("IBM Redbooks are developed") }?.role == .body, "\(all)")
  }

  /// An SQL listing that starts in the page's top sixth, and a stray "."
  /// and "5" read right of its third line as a paragraph of their own:
  /// not a running head (it lies beside the text block, not above it);
  /// the page's furniture is its running foot alone ("124   Row and
  /// Column Access Control Support in IBM DB2 for i").
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aStrayLineBesideAListingIsNoRunningHead() throws {
    let page = try Self.page("redp5110_sampled", 16)
    let furniture: Set<ParagraphRole> = [.header, .footer, .pageNumber]
    let found = page.blocks.flatMap(\.paragraphs).filter { furniture.contains($0.role) }
    #expect(!found.isEmpty, "\(Self.paragraphs(page))")
    #expect(found.allSatisfy { $0.bbox.minY > page.height * 17 / 20 }, "\(Self.paragraphs(page))")
    #expect(
      found.contains { $0.lines.flatMap(\.words).contains { $0.text == "Access" } },
      "\(Self.paragraphs(page))")
  }

  /// A Korean report's section title after its number set in a badge (a
  /// white figure in a dark square, which OCR does not read but the list
  /// marker rule sees as ink left of the line): a heading, not a list
  /// item.
  @Test(
    .enabled(if: RealTableTests.doclingPresent, Comment(rawValue: RealTableTests.doclingAbsent)))
  func aTitleAfterItsNumberInABadgeIsAHeading() throws {
    let page = try Self.page("normal_4pages", 2, languages: ["kor"])
    let all = Self.paragraphs(page)
    let title = try #require(all.first { $0.text.contains("관련 보험 현황") }, "\(all)")
    #expect(title.role == .heading, "\(all)")
  }
}
