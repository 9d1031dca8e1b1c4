import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// The formats live in one registry (``ScanFormats/FileFormat/all``): the
/// endings that choose them, `--format`, the table of `docs/commands.md` and every
/// command's writing follow it (issue 28, point 3).
@Suite("Format registry")
struct FormatRegistryTests {
  static let pages = DocumentWriterTests.pages
  static let settings = WriterSettings(
    generator: DocumentWriterTests.generator, date: DocumentWriterTests.date,
    producer: "ScanText test", font: { Data("font".utf8) })

  /// Page images made up for the writers: a URL per page for HTML, an
  /// image of the page's size for the PDF.
  struct MadeUpImages: PageImageSource {
    func pdfImage(of page: Page, from origin: PageOrigin) throws -> PDFPageImage {
      PDFPageImage(
        data: Data(repeating: UInt8(origin.number), count: 16), filter: "FlateDecode",
        width: page.width, height: page.height, bitsPerComponent: 8, colorSpace: "/DeviceGray")
    }

    func htmlPicture(of page: Page, from origin: PageOrigin) throws -> AccessibleHTML.ShownPage {
      AccessibleHTML.ShownPage(
        page: page, image: .url("page\(origin.number).png"), number: origin.number)
    }
  }

  /// Writes `pages` as ``ScanService/DocumentStream`` does: the head first
  /// when it is known first, else after the pages (and those held back).
  static func streamed(_ format: FileFormat, _ pages: [Page]) throws -> Data {
    var writer = try format.makeWriter(settings)
    var body = Data()
    for (n, page) in pages.enumerated() {
      body += try writer.page(
        page, from: PageOrigin(path: "/scans/a.png", page: n, number: n + 1),
        images: MadeUpImages())
    }
    body += try writer.flush()
    #expect(writer.pageCount == pages.count)
    return writer.headBytes() + body + (try writer.tailBytes())
  }

  @Test func everyModelFormatHasItsRow() {
    let names = FileFormat.all.map(\.name)
    #expect(Set(names).count == names.count, "format names are unique")
    for format in DocumentFormat.allCases {
      let row = FileFormat(format)
      #expect(row.document == format)
      #expect(row.name == format.rawValue)
      #expect(!row.needsPageImages)
      #expect(row.isReadable == (format != .text))
    }
    #expect(FileFormat.searchablePDF.needsPageImages && FileFormat.accessibleHTML.needsPageImages)
    #expect(!FileFormat.searchablePDF.isReadable)
  }

  @Test func endingsChooseTheirFormat() {
    let expected: [(String, String?)] = [
      ("x.json", "json"), ("x.TXT", "text"), ("x.hocr", "hocr"), ("x.html", "hocr"),
      ("x.htm", "hocr"), ("x.xhtml", "hocr"), ("x.alto.xml", "alto"), ("x.ALTO", "alto"),
      ("x.page.xml", "page"), ("x.page", "page"), ("x.tsv", "tsv"), ("x.Pdf", "pdf"),
      ("x.STM", "stm"), ("x.md", "markdown"), ("x.Markdown", "markdown"),
      ("x.xml", nil), ("x.docx", nil), ("x", nil),
    ]
    for (name, format) in expected {
      #expect(FileFormat(fileName: name)?.name == format, "\(name)")
    }
    #expect(DocumentFormat(fileName: "x.pdf") == nil)
    // The accessible HTML is only named: `.html` stays hOCR.
    #expect(FileFormat.accessibleHTML.fileNameSuffixes.isEmpty)
    #expect(!FileFormat.chosenByFileName.contains(.accessibleHTML))
    // …and `--format` names it.
    #expect(FileFormat(argument: "accessible-html") == .accessibleHTML)
    #expect(
      FileFormat.allValueStrings == [
        "json", "text", "hocr", "alto", "page", "tsv", "stm", "pdf", "markdown",
        "accessible-html",
      ])
  }

  @Test(arguments: DocumentFormat.allCases.filter { $0 != .page }, [0, 1, 8])
  func modelFormatsWriteTheirDocument(format: DocumentFormat, count: Int) throws {
    let document = Document(pages: Array(Self.pages.prefix(count)))
    let expected = try format.encode(
      document, generator: DocumentWriterTests.generator, date: DocumentWriterTests.date)
    #expect(try Self.streamed(FileFormat(format), document.pages) == Data(expected.utf8))
  }

  @Test(arguments: [1, 3])
  func accessibleHTMLIsTheWholeDocument(count: Int) throws {
    let pages = Array(Self.pages.prefix(count))
    let shown = try pages.enumerated().map {
      try MadeUpImages().htmlPicture(
        of: $1, from: PageOrigin(path: "/scans/a.png", page: $0, number: $0 + 1))
    }
    let expected = AccessibleHTML().html(pages: shown)
    #expect(try Self.streamed(.accessibleHTML, pages) == Data(expected.utf8))
  }

  @Test func searchablePDFIsTheWriters() throws {
    let pages = Array(Self.pages.prefix(3))
    // PDF/A-2a by default (`--output-type pdfa`), when the profile is there.
    var writer = SearchablePDF.Writer(
      font: Data("font".utf8), title: "a.png", producer: "ScanText test",
      archive: Self.settings.archive())
    var expected = Data()
    for (n, page) in pages.enumerated() {
      expected += try writer.add(
        SearchablePDF.PageInput(
          page: page,
          image: MadeUpImages().pdfImage(
            of: page, from: PageOrigin(path: "/scans/a.png", page: n, number: n + 1))))
    }
    expected += try writer.finish()
    #expect(try Self.streamed(.searchablePDF, pages) == expected)
    // A writer that needs images and is given none says so.
    var bare = try FileFormat.searchablePDF.makeWriter(Self.settings)
    #expect(throws: (any Error).self) {
      _ = try bare.page(pages[0], from: PageOrigin(path: "a.png", page: 0, number: 1), images: nil)
    }
  }

  /// The `pdf` row writes with the writer its image source gives at the
  /// first page, when it gives one (ScanService's, which edits PDF
  /// inputs): every page and the tail are that writer's; the source is
  /// asked once.
  @Test func searchablePDFTakesTheSourcesWriter() throws {
    final class Other: PageImageSource {
      var asked = 0
      func pdfImage(of page: Page, from origin: PageOrigin) throws -> PDFPageImage {
        throw DocumentFormatError(path: "", reason: "no image")
      }
      func htmlPicture(of page: Page, from origin: PageOrigin) throws -> AccessibleHTML.ShownPage {
        throw DocumentFormatError(path: "", reason: "no picture")
      }
      func searchablePDFWriter(settings: WriterSettings, font: Data) throws -> (any PageWriter)? {
        asked += 1
        #expect(font == Data("font".utf8))
        return try FileFormat(.text).makeWriter(settings)
      }
    }
    let pages = Array(Self.pages.prefix(3))
    let source = Other()
    var writer = try FileFormat.searchablePDF.makeWriter(Self.settings)
    var bytes = writer.headBytes()
    for (n, page) in pages.enumerated() {
      bytes += try writer.page(
        page, from: PageOrigin(path: "a.pdf", page: n, number: n + 1), images: source)
    }
    bytes += try writer.tailBytes()
    #expect(writer.pageCount == 3 && source.asked == 1)
    let text = try DocumentFormat.text.encode(
      Document(pages: pages), generator: DocumentWriterTests.generator)
    #expect(bytes == Data(text.utf8))
  }

  /// `doc.json` in `folder`: the ground truth of `headings.png` and
  /// `clean.png`, two pages whose images are not beside it.
  static func twoPageModel(in folder: URL) throws -> String {
    let document = folder.appendingPathComponent("doc.json").path
    let truths = ["headings", "clean"].map {
      Fixtures.scans.appendingPathComponent($0 + ".truth.json").path
    }
    let r = scantext(["ocr"] + truths + ["-o", document, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    return document
  }

  /// `convert` writes through the registry like `ocr`, and knows the
  /// document's length: PAGE XML, which holds one page, says how many it
  /// was given, and nothing is written.
  @Test func convertSaysHowManyPagesPAGEXMLWasGiven() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = try Self.twoPageModel(in: folder)
    let out = folder.appendingPathComponent("doc.page.xml").path
    let r = scantext(["convert", document, out])
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: cannot write PAGE XML: PAGE XML holds one page and the document has 2: write one file per page\n"
    )
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// The table under "The format comes from the output's ending"
  /// (`docs/commands.md`):
  /// one row per format a file name chooses, in the registry's order, each
  /// with its endings first.
  @Test func readmeTableIsTheRegistry() throws {
    let lines = try Documentation.read("docs/commands.md").components(separatedBy: "\n")
    let intro = try #require(
      lines.firstIndex { $0.contains("**The format comes from the output's ending**") })
    let rows = lines[(intro + 1)...].drop { !$0.hasPrefix("  |") }.prefix { $0.hasPrefix("  |") }
      .dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(rows.count == FileFormat.chosenByFileName.count)
    for (row, format) in zip(rows, FileFormat.chosenByFileName) {
      let endings = format.fileNameSuffixes.map { "`\($0)`" }.joined(separator: ", ")
      #expect(row.hasPrefix("| `\(format.name)` | \(endings)"), "\(row)")
      if let note = format.note { #expect(row.contains("(\(note))"), "\(row)") }
    }
  }

  @Test func formatHelpListsTheUsualEndings() {
    let help = scantext(["ocr", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
      .split(separator: " ").joined(separator: " ")
    #expect(
      help.contains(".json, .txt, .hocr, .alto.xml, .page.xml, .tsv, .stm, .pdf, .md; json for"))
    // Every row is a value of `--format`, those no ending chooses too.
    let refused = scantext(["ocr", "x.png", "--format", "docx"])
    #expect(refused.code == 64)
    #expect(refused.stderr.hasPrefix("Error: The value 'docx' is invalid for '--format"))
    #expect(refused.stderr.contains("  - pdf\n  - markdown\n  - accessible-html\n"))
  }
}
