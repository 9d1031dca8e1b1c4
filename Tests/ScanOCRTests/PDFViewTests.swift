import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Pages beyond the first few read through a view of the file in which
/// their window of pages are the only pages (issue 45, point 2: Poppler
/// keeps a page object for every page before the one asked for, 30 MB at
/// page 20,000), read exactly as through the whole document.
@Suite("PDF views")
struct PDFViewTests {
  /// A PDF of `count` text pages whose page tree's root gives them their
  /// media box, rotation and resources (the font): the pages inherit them.
  static func inheritingPDF(count: Int) -> Data {
    var objects = [
      "<< /Type /Catalog /Pages 2 0 R >>", "",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    var kids: [String] = []
    for page in 0..<count {
      let content =
        "BT /F1 \(12 + page) Tf 20 \(100 + 10 * page) Td (Page \(page + 1) of the tree) Tj ET"
      objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
      let contentNumber = objects.count
      // The last page has a media box of its own.
      let own = page == count - 1 ? " /MediaBox [0 0 300 250]" : ""
      objects.append("<< /Type /Page /Parent 2 0 R /Contents \(contentNumber) 0 R\(own) >>")
      kids.append("\(objects.count) 0 R")
    }
    objects[1] =
      "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(count) /MediaBox [0 0 400 300] /Rotate 90 /Resources << /Font << /F1 3 0 R >> >> >>"
    return HandMadePDF.file(objects)
  }

  /// Every page read through views of `pagesPerView` pages is the page read
  /// through the whole document: its description, its text page and its
  /// rendering.
  func expectSamePages(
    _ data: Data, path: String, pagesPerView: Int, render: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let whole = try PDFDocument(data: data, path: path, pagesPerView: .max)
    let viewed = try PDFDocument(data: data, path: path, pagesPerView: pagesPerView)
    #expect(viewed.pageCount == whole.pageCount, sourceLocation: sourceLocation)
    let options = RecognitionOptions()
    for index in 0..<whole.pageCount {
      // Beyond the first window, the page is read through a view.
      _ = viewed.located(index)
      #expect(
        (viewed.viewWindow != nil) == (index >= pagesPerView), "page \(index + 1)",
        sourceLocation: sourceLocation)
      let info = try whole.info(page: index)
      #expect(
        try viewed.info(page: index) == info, "page \(index + 1)", sourceLocation: sourceLocation)
      #expect(
        try viewed.textPage(page: index, policy: .keep, options: options)
          == whole.textPage(page: index, policy: .keep, options: options), "page \(index + 1)",
        sourceLocation: sourceLocation)
      guard render else { continue }
      let rendering = try whole.rendering(page: index, info: info, dpi: 50, maxPixels: 1 << 24)
      #expect(
        try viewed.render(page: index, rendering).hasSamePixels(
          as: whole.render(page: index, rendering)), "page \(index + 1)",
        sourceLocation: sourceLocation)
    }
  }

  /// Pages that inherit their media box, rotation and font from the page
  /// tree keep them in a view.
  @Test func inheritedAttributesAreKept() throws {
    let data = Self.inheritingPDF(count: 7)
    try expectSamePages(data, path: "inheriting.pdf", pagesPerView: 3, render: true)
    // The text page names its page: the view's pages are the right ones.
    let viewed = try PDFDocument(data: data, path: "inheriting.pdf", pagesPerView: 2)
    let page = try #require(
      try viewed.textPage(page: 5, policy: .keep, options: RecognitionOptions()))
    #expect(page.text.contains("Page 6 of the tree"), "\(page.text)")
  }

  /// The project's sample PDF (scanned pages and a born-digital one), a
  /// page a view.
  @Test func theSamplePDFReadsTheSameThroughViews() throws {
    let path = Fixtures.scans.appendingPathComponent("scan.pdf").path
    try expectSamePages(
      Data(contentsOf: URL(fileURLWithPath: path)), path: path, pagesPerView: 1, render: true)
  }

  /// A real PDF of pages turned by `/Rotate`.
  @Test(
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func aRealPDFReadsTheSameThroughViews() throws {
    let path = RealScans.path("ocrmypdf/cardinal.pdf")
    try expectSamePages(
      Data(contentsOf: URL(fileURLWithPath: path)), path: path, pagesPerView: 1, render: true)
  }
}
