import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// ``DocumentWriter`` writes each format page by page with the bytes
/// ``DocumentFormat/encode(_:generator:date:)`` gives at once (issue 27,
/// point 4: long documents are streamed, not held).
@Suite("Document writer")
struct DocumentWriterTests {
  /// The ground truths of eight sample pages (headings, columns, tables,
  /// turned pages: styles and roles ALTO lists in its head).
  static let pages: [Page] = Fixtures.scanImages.prefix(8).enumerated().compactMap {
    try? Fixtures.truth($1).withIndex($0)
  }
  static let generator = Generator(name: "scantext", version: "test", details: ["psm": "3"])
  static let date = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(arguments: DocumentFormat.allCases.filter { $0 != .page }, [0, 1, 8])
  func piecesAreTheWholeDocument(format: DocumentFormat, count: Int) throws {
    try #require(Self.pages.count == 8)
    let document = Document(pages: Array(Self.pages.prefix(count)))
    var writer = DocumentWriter(format: format, generator: Self.generator, date: Self.date)
    var text = ""
    // Formats whose head is known first are written as a stream would:
    // head, then each page as it comes.
    if writer.headIsKnownFirst { text += writer.head() }
    var pages = ""
    for page in document.pages { pages += try writer.page(page) }
    text = writer.headIsKnownFirst ? text + pages : writer.head() + pages
    text += writer.tail()
    #expect(writer.pageCount == count)
    #expect(text == (try format.encode(document, generator: Self.generator, date: Self.date)))
    #expect(writer.headIsKnownFirst == (format != .alto))
  }

  @Test func altoHeadListsTheStylesOfEveryPage() throws {
    var writer = DocumentWriter(format: .alto, generator: Self.generator)
    _ = try writer.page(try #require(Self.pages.first))
    let afterOne = writer.head()
    for page in Self.pages.dropFirst() { _ = try writer.page(page) }
    let afterAll = writer.head()
    let styles = { (text: String) in text.components(separatedBy: "<ParagraphStyle ").count - 1 }
    #expect(styles(afterAll) > styles(afterOne))
    #expect(afterAll.hasSuffix("  <Layout>\n"))
  }

  @Test func pageXMLRefusesASecondPage() throws {
    var writer = DocumentWriter(format: .page, generator: Self.generator, date: Self.date)
    let first = try writer.page(Self.pages[0])
    #expect(
      first
        == (try DocumentFormat.page.encode(
          Document(pages: [Self.pages[0]]), generator: Self.generator, date: Self.date)))
    #expect(throws: DocumentFormatError.self) { _ = try writer.page(Self.pages[1]) }
    // No page: a page of no size, as PAGE XML requires one.
    var empty = DocumentWriter(format: .page, generator: Self.generator, date: Self.date)
    #expect(
      empty.head() + empty.tail()
        == (try DocumentFormat.page.encode(
          Document(pages: []), generator: Self.generator, date: Self.date)))
  }
}
