import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanOCR

/// `scantext ocr scan.pdf`: PDF pages through Poppler (issue 14, point 1),
/// on PDFs made from the sample pages with img2pdf, on ScanText's own
/// searchable PDFs, on the real PDFs in `../shared/scans/ocrmypdf`, and on
/// hand-written bad PDFs.
@Suite("PDF input")
struct PDFInputTests {
  /// img2pdf from PyPI (Tools/install/install-dependencies.sh puts it in
  /// `.build/tools-venv`): a PNG goes in losslessly, a JPEG byte for byte.
  static let img2pdf: String? = {
    let venv = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/img2pdf").path
    return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
  }()

  static var popplerPresent: Bool { PDFDocument.isAvailable }

  static let absentMessage =
    "Poppler's GLib library or img2pdf not installed (run Tools/install/install-dependencies.sh): PDF input tests skipped"

  /// Whether Poppler and the real scans are there; says why not.
  static var realPDFsReadable: Bool {
    guard popplerPresent else {
      print(absentMessage)
      return false
    }
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return false
    }
    return true
  }

  /// A PDF of one sample page, made by img2pdf.
  static func imageOnlyPDF(_ image: String, folder: URL) throws -> URL {
    let tool = try #require(img2pdf)
    let out = folder.appendingPathComponent(
      URL(fileURLWithPath: image).deletingPathExtension().lastPathComponent + ".pdf")
    let (status, output) = try ExternalCheckers.run(
      tool, [Fixtures.scans.appendingPathComponent(image).path, "-o", out.path])
    #expect(status == 0, "\(output)")
    return out
  }

  static func document(_ path: String) throws -> Document {
    try DocumentJSON.decode(String(contentsOfFile: path, encoding: .utf8))
  }

  static func boxes(_ page: Page) -> [PixelRect] {
    page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.bbox)
  }

  /// A page that is one image is read at the image's own resolution, its
  /// pixels unchanged: the same text and the same boxes as the image file.
  @Test(arguments: ["clean.png", "rotated-90.png", "blur-jpeg.jpg"])
  func imageOnlyPageReadsLikeItsImage(image: String) throws {
    guard Self.popplerPresent, Self.img2pdf != nil else {
      print(Self.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let pdf = try Self.imageOnlyPDF(image, folder: folder)
    let json = folder.appendingPathComponent("out.json").path
    let r = scantext(["ocr", pdf.path, "-o", json, "-q", "--no-cache"])
    #expect(r.code == 0, "\(r.stderr)")
    let pages = try Self.document(json).pages
    #expect(pages.count == 1)
    let page = try #require(pages.first)
    let expected = try RecognizedScans.page(image)
    #expect(page.width == expected.width && page.height == expected.height)
    #expect(page.dpi == 300)
    #expect(page.image == pdf.lastPathComponent)
    let source = try #require(page.pdf)
    #expect(source.page == 1 && source.nativeImage && !source.hasText && page.source == .ocr)
    #expect(page.dpiSource == .pdf)
    #expect(source.pixelToPoint == [0.24, 0, 0, 0.24, 0, 0])
    #expect(page.text == expected.text)
    #expect(Self.boxes(page) == Self.boxes(expected))
  }

  /// ScanText's own searchable PDF read back: the text layer is found
  /// (`hasText`) and, by default, the page is read from it, not
  /// recognised: the words and lines of the model the PDF was made from,
  /// in the same order (the text, but for where paragraphs break: the
  /// layer has lines, not paragraphs), each word within 2 pixels of its
  /// box there, and the geometry passes `verify`; `pixelToPoint` maps the words onto those `pdftotext
  /// -bbox` finds in the layer (within 2 pixels). `--skip-text` gives the
  /// same page; `--force-ocr` recognises the page again.
  @Test func searchablePDFRoundTrip() throws {
    guard Self.popplerPresent, let pdftotext = ExternalCheckers.pdftotext else {
      print(Self.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let pdf = folder.appendingPathComponent("clean.pdf").path
    var r = scantext(["ocr", image, "-o", pdf, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let json = folder.appendingPathComponent("again.json").path
    r = scantext(["ocr", pdf, "-o", json, "-q", "--no-cache"])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try #require(try Self.document(json).pages.first)
    let source = try #require(page.pdf)
    #expect(source.hasText && source.nativeImage && page.source == .pdfText)
    #expect(page.dpiSource == .pdf && page.dpi == 300)
    let expected = try RecognizedScans.page("clean.png")
    #expect(page.width == expected.width && page.height == expected.height)
    #expect(page.words.map(\.text) == expected.words.map(\.text))
    #expect(page.lines.map(\.text) == expected.lines.map(\.text))
    #expect(
      page.text.replacingOccurrences(of: "\n\n", with: "\n")
        == expected.text.replacingOccurrences(of: "\n\n", with: "\n"))
    for (read, original) in zip(page.words, expected.words) {
      let (a, b) = (read.bbox, original.bbox)
      let deviation =
        [a.minX - b.minX, a.minY - b.minY, a.maxX - b.maxX, a.maxY - b.maxY].map(
          abs
        ).max() ?? 0
      #expect(deviation <= 2, "'\(read.text)': \(a) against \(b)")
    }
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations.prefix(3))")

    // The layer's words, in points, against the model's boxes mapped
    // through pixelToPoint.
    let (status, layout) = try ExternalCheckers.run(pdftotext, ["-bbox", pdf, "-"])
    #expect(status == 0)
    let pattern = try NSRegularExpression(
      pattern:
        #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>"#
    )
    let ns = layout as NSString
    var found: [String: [[Double]]] = [:]
    for m in pattern.matches(in: layout, range: NSRange(location: 0, length: ns.length)) {
      let text = SearchablePDFTests.unescape(ns.substring(with: m.range(at: 5)))
      found[text, default: []].append(
        (1...4).map { Double(ns.substring(with: m.range(at: $0))) ?? 0 })
    }
    let map = source.pixelToPoint
    let pixel = 1 / map[0]
    var checked = 0
    for word in page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words) {
      guard let candidates = found[word.text] else {
        Issue.record("'\(word.text)' is not in the PDF's text")
        continue
      }
      let b = word.bbox
      let mapped = [
        map[0] * Double(b.minX) + map[4], map[3] * Double(b.minY) + map[5],
        map[0] * Double(b.maxX) + map[4], map[3] * Double(b.maxY) + map[5],
      ]
      let deviation =
        candidates.map { zip($0, mapped).map { abs($0 - $1) }.max() ?? 0 }.min() ?? .infinity
      #expect(deviation * pixel <= 2, "'\(word.text)': \(deviation * pixel) px")
      checked += 1
    }
    #expect(checked > 100)

    // --skip-text: the same page; --force-ocr: recognised again.
    let skippedJSON = folder.appendingPathComponent("skipped.json").path
    r = scantext(["ocr", pdf, "-o", skippedJSON, "-q", "--no-cache", "--skip-text"])
    #expect(r.code == 0 && r.stderr.isEmpty, "\(r.stderr)")
    #expect(try Self.document(skippedJSON).pages == [page])
    let forcedJSON = folder.appendingPathComponent("forced.json").path
    r = scantext(["ocr", pdf, "-o", forcedJSON, "-q", "--no-cache", "--force-ocr"])
    #expect(r.code == 0, "\(r.stderr)")
    let forced = try #require(try Self.document(forcedJSON).pages.first)
    #expect(forced.source == .ocr && forced.pdf?.hasText == true && forced.text == expected.text)
  }

  /// `--pages` picks pages (from 1) and keeps their order; a page past the
  /// end is an error naming the page count; `--dpi` renders at that
  /// resolution instead of the image's.
  @Test func pagesAndResolution() throws {
    guard Self.popplerPresent, Self.img2pdf != nil, let tool = Self.img2pdf else {
      print(Self.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("three.pdf").path
    let images = ["clean.png", "headings.png", "two-columns.png"].map {
      Fixtures.scans.appendingPathComponent($0).path
    }
    let (status, output) = try ExternalCheckers.run(tool, images + ["-o", pdf])
    #expect(status == 0, "\(output)")
    let json = folder.appendingPathComponent("pages.json").path
    var r = scantext(["ocr", pdf, "--pages", "3,1", "-o", json, "-q", "--no-cache", "-j", "2"])
    #expect(r.code == 0, "\(r.stderr)")
    let pages = try Self.document(json).pages
    #expect(pages.map { $0.pdf?.page } == [1, 3])
    #expect(pages.map(\.index) == [0, 1])
    #expect(pages[0].text == (try RecognizedScans.page("clean.png")).text)
    #expect(pages[1].text == (try RecognizedScans.page("two-columns.png")).text)

    r = scantext(["ocr", pdf, "--pages", "2-4", "-q", "--no-cache"])
    #expect(r.code == 1)
    #expect(r.stderr.contains("three.pdf: --pages asks for page 4, but the document has 3 pages"))
    r = scantext(["ocr", pdf, "--pages", "0", "-q"])
    #expect(r.code == 64)

    let low = folder.appendingPathComponent("low.json").path
    r = scantext(["ocr", pdf, "--pages", "2", "--dpi", "150", "-o", low, "-q", "--no-cache"])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try #require(try Self.document(low).pages.first)
    #expect(page.width == 638 && page.height == 825 && page.dpi == 150)
    #expect(page.pdf?.nativeImage == false)
    #expect(abs((page.pdf?.pixelToPoint.first ?? 0) - 306.0 / 638) < 1e-6)
  }

  /// A PDF in, a searchable PDF out: each page's image as it was read (a
  /// JPEG page's bytes unchanged), the page's size kept, every word of the model on its box (within
  /// 2 px, pdftotext), qpdf content.
  @Test func searchablePDFFromAPDF() throws {
    guard Self.realPDFsReadable else { return }
    guard SearchablePDFTests.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let input = RealScans.path("ocrmypdf/c02-22.pdf")
    let out = folder.appendingPathComponent("c02-searchable.pdf")
    let json = folder.appendingPathComponent("c02.json").path
    var r = scantext(["ocr", input, "-o", out.path, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    r = scantext(["ocr", input, "-o", json, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let (status, check) = try ExternalCheckers.run(
      try #require(ExternalCheckers.qpdf), ["--check", out.path])
    #expect(status == 0, "\(check)")
    let page = try #require(try Self.document(json).pages.first)
    let expected = SearchablePDFTests.modelWords(page)
    let found = try SearchablePDFTests.placedWords(out, page: page)
    #expect(found.count == expected.count)
    for word in expected {
      let deviations = found.filter { $0.text == word.text }.map {
        zip(word.box, $0.box).map { abs($0 - $1) }.max() ?? 0
      }
      let nearest = deviations.min() ?? .infinity
      #expect(nearest <= 2, "'\(word.text)': \(nearest) px from the model's box")
    }
    // The page's JPEG goes in as it was stored (qpdf reads its bytes): the
    // same bytes as the JPEG pdfimages takes out of the input.
    let prefix = folder.appendingPathComponent("img").path
    let (extracted, listing) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdfimages), ["-all", out.path, prefix])
    #expect(extracted == 0, "\(listing)")
    let stored = try Data(contentsOf: URL(fileURLWithPath: prefix + "-000.jpg"))
    let original = try Data(
      contentsOf: URL(fileURLWithPath: RealScans.path("ocrmypdf/c02-22-embedded-000.jpg")))
    #expect(stored == original)
    // The page keeps its size: 384 × 470.88 points.
    let (_, info) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftotext), ["-bbox", out.path, "-"])
    #expect(info.contains(#"<page width="384.000000" height="470.880000">"#), "\(info.prefix(300))")
  }

  /// `draw` and `html` on a PDF: the page rendered as it was read is the
  /// background (`html` embeds it: a browser cannot show a PDF as an
  /// image). They failed before ("the image image data is truncated or
  /// corrupt"; an `img` whose `src` was the PDF).
  @Test func drawAndHTMLShowThePDFPage() throws {
    guard Self.realPDFsReadable else { return }
    let folder = try Fixtures.temporaryFolder()
    let input = RealScans.path("ocrmypdf/c02-22.pdf")
    let png = folder.appendingPathComponent("c02.png").path
    var r = scantext(["draw", input, "-o", png])
    #expect(r.code == 0, "\(r.stderr)")
    let drawn = try Data(contentsOf: URL(fileURLWithPath: png))
    // PNG: width and height at bytes 16–23 of the IHDR chunk.
    let size = [16, 20].map { at in drawn[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(size == [800, 981])
    let html = folder.appendingPathComponent("c02.html").path
    r = scantext(["html", input, "-o", html])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains(#"<img class="scan" src="data:image/png;base64,"#))
  }

  /// How a page becomes pixels, decided from what Poppler reports: a fax
  /// image (200×100 dpi) is rendered at 200 dpi both ways and not marked
  /// native; an image drawn turned by 90° in its page is read at its own
  /// resolution; an image smaller than its page, or a page without one,
  /// at 300 dpi; `--dpi` wins.
  @Test func renderingFollowsThePagesImage() throws {
    guard Self.popplerPresent else {
      print(Self.absentMessage)
      return
    }
    let pdf = try PDFDocument(
      data: Self.handWritten([
        "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
      ]), path: "page.pdf")
    func rendering(_ image: [Double]?, dpi: Int? = nil, width: Double = 612, height: Double = 792)
      throws -> PDFDocument.Rendering
    {
      let info = PDFDocument.PageInfo(
        width: width, height: height, hasText: false, imageSize: image)
      return try pdf.rendering(page: 0, info: info, dpi: dpi, maxPixels: 100_000_000)
    }
    let fax = try rendering([1700, 1100, 612, 792])
    #expect(fax.dpi == 200 && fax.width == 1700 && fax.height == 2200 && !fax.nativeImage)
    let turned = try rendering([2550, 3300, 792, 612], width: 792, height: 612)
    #expect(
      turned.dpi == 300 && turned.width == 3300 && turned.height == 2550 && turned.nativeImage)
    let scanner = try rendering([1275, 1650, 612, 792])
    #expect(scanner.dpi == 150 && scanner.width == 1275 && scanner.nativeImage)
    let none = try rendering(nil)
    #expect(none.dpi == 300 && none.width == 2550 && !none.nativeImage)
    let chosen = try rendering([1275, 1650, 612, 792], dpi: 72)
    #expect(chosen.dpi == 72 && chosen.width == 612 && !chosen.nativeImage)
    #expect(throws: OCRError.self) { try rendering(nil, dpi: 10000) }
  }

  /// A minimal PDF written by hand: objects in order, a correct xref.
  static func handWritten(_ objects: [String]) -> Data { HandMadePDF.file(objects) }

  /// Bad PDFs get an error naming the file and the reason, exit code 1,
  /// no output file; the other inputs of the batch are still written.
  @Test func badPDFsAreReportedAndTheBatchGoesOn() throws {
    guard Self.popplerPresent, let qpdf = ExternalCheckers.qpdf else {
      print(Self.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    func write(_ name: String, _ data: Data) throws -> String {
      let url = folder.appendingPathComponent(name)
      try data.write(to: url)
      return url.path
    }
    let catalog = "<< /Type /Catalog /Pages 2 0 R >>"
    let empty = try write(
      "empty.pdf", Self.handWritten([catalog, "<< /Type /Pages /Kids [] /Count 0 >>"]))
    let huge = try write(
      "huge.pdf",
      Self.handWritten([
        catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>",
      ]))
    let whole = Self.handWritten([
      catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>",
    ])
    let truncated = try write("truncated.pdf", whole.prefix(40))
    let plain = try write("plain.pdf", whole)
    let encrypted = folder.appendingPathComponent("encrypted.pdf").path
    let (status, output) = try ExternalCheckers.run(
      qpdf, ["--encrypt", "user", "owner", "256", "--", plain, encrypted])
    #expect(status == 0, "\(output)")
    let cases: [(String, String)] = [
      (empty, "the PDF has no pages"),
      (
        huge,
        "page 1 is 14400×14400 points: at 300 dpi that is 60000×60000 pixels (3600.0 megapixels), over the limit of 100 megapixels (lower --dpi or raise --max-pixels)"
      ),
      (truncated, "the PDF is truncated or damaged"),
      (encrypted, "the PDF is encrypted with a password"),
    ]
    for (path, message) in cases {
      let out = folder.appendingPathComponent("out.json").path
      let started = Date()
      let r = scantext(["ocr", path, "-o", out, "-q", "--no-cache"])
      #expect(r.code == 1, "\(path)")
      #expect(r.stderr == "Error: \(path): \(message)\n")
      #expect(!FileManager.default.fileExists(atPath: out))
      #expect(Date().timeIntervalSince(started) < 10)
    }
    // In a batch, the good input is written and the bad one reported.
    let out = folder.appendingPathComponent("batch.json").path
    let r = scantext(["ocr", huge, plain, "-o", out, "-q", "--no-cache"])
    #expect(r.code == 1)
    #expect(r.stderr.contains("huge.pdf: page 1 is 14400×14400 points"))
    let pages = try Self.document(out).pages
    #expect(pages.count == 1 && pages[0].pdf?.page == 1 && pages[0].width == 833)
  }

  /// The real PDFs from OCRmyPDF's test suite: a JPEG page reads as its
  /// embedded JPEG does, a page turned by 180° in a 4-page PDF is found
  /// turned, and a skewed image (drawn turned by the page's content) is
  /// rendered at its own resolution, not marked native.
  @Test func realPDFs() throws {
    guard Self.realPDFsReadable else { return }
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("c02.json").path
    var r = scantext(["ocr", RealScans.path("ocrmypdf/c02-22.pdf"), "-o", out, "-q", "--no-cache"])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try #require(try Self.document(out).pages.first)
    let jpeg = try #require(try RealScans.pages("ocrmypdf/c02-22-embedded-000.jpg").first)
    #expect(page.pdf?.nativeImage == true && page.dpi == 150)
    #expect(page.width == 800 && page.height == 981)
    #expect(page.text == jpeg.text)

    let turned = folder.appendingPathComponent("cardinal.json").path
    r = scantext([
      "ocr", RealScans.path("ocrmypdf/cardinal.pdf"), "--pages", "3", "-o", turned, "-q",
      "--no-cache",
    ])
    #expect(r.code == 0, "\(r.stderr)")
    let third = try #require(try Self.document(turned).pages.first)
    #expect(third.pdf?.page == 3 && third.pdf?.nativeImage == true)
    #expect(third.orientation == 180 && third.width == 2550 && third.height == 3300)
    // A native page's pixels are the embedded image's (pdfimages gives
    // it as stored; the PNG pages beside it were rendered by pdftoppm,
    // whose Splash renderer moves 1-bit edges: 213,000 pixels differ).
    for (file, number, rotated) in [("cardinal.pdf", 1, false), ("cardinal.pdf", 3, true)] {
      let path = RealScans.path("ocrmypdf/" + file)
      let pdf = try PDFDocument(data: Data(contentsOf: URL(fileURLWithPath: path)), path: path)
      let info = try pdf.info(page: number - 1)
      let rendering = try pdf.rendering(
        page: number - 1, info: info, dpi: nil, maxPixels: 100_000_000)
      #expect(rendering.nativeImage && rendering.dpi == 300)
      let rendered = try pdf.render(page: number - 1, rendering)
      let prefix = folder.appendingPathComponent("\(number)").path
      let (status, output) = try ExternalCheckers.run(
        try #require(ExternalCheckers.pdfimages),
        ["-png", "-f", "\(number)", "-l", "\(number)", path, prefix])
      #expect(status == 0, "\(output)")
      let extracted = prefix + "-000.png"
      var stored = try #require(
        try ImageReader.decodePages(
          ImageReader.readBytes(extracted), path: extracted, maxPixels: .max
        ).first)
      if rotated {
        // Page 3 draws the stored image turned by 180°.
        stored = try #require(stored.turned(quarterTurns: 2))
      }
      #expect(rendered.hasSamePixels(as: stored), "\(file) page \(number)")
    }

    let pdf = try PDFDocument(
      data: Data(contentsOf: URL(fileURLWithPath: RealScans.path("ocrmypdf/skew.pdf"))),
      path: "skew.pdf")
    let info = try pdf.info(page: 0)
    let rendering = try pdf.rendering(page: 0, info: info, dpi: nil, maxPixels: 100_000_000)
    #expect(rendering.dpi == 300 && !rendering.nativeImage)
    #expect(rendering.width == 2550 && rendering.height == 3300)
    // Read whole, its geometry holds what verify checks.
    r = scantext(["verify", RealScans.path("ocrmypdf/skew.pdf"), "--no-cache"])
    #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("skew.pdf: 1 page, ") && r.stdout.contains(" 0 violations"))
  }
}
