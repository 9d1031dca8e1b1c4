import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Synchronization
import Testing

@testable import ScanCLI
@testable import ScanOCR
@testable import ScanService

/// A born-digital PDF printed by headless Chromium from HTML whose text is
/// known: a heading, a paragraph, a second-level heading, two columns side
/// by side and a short line of non-ASCII text under them. Made once per
/// test run (a few seconds); `nil` when Chromium or Poppler is missing.
enum BornDigital {
  /// The paragraphs in reading order, as the HTML has them.
  static let paragraphs = [
    "Harbour Records",
    "The ledgers of the harbour office list every ship that entered the port between 1850 and 1900, with its tonnage, its cargo and the name of its master.",
    "Two columns",
    "The left column holds the first part of the story, which goes on for several lines so that the column is filled with running text of ordinary size.",
    "The right column continues the story with more words, again long enough to make several lines in this narrow column of text.",
    "Größe naïve café — the end.",
  ]

  static let html = """
    <!doctype html><html><head><meta charset="utf-8"><style>
    body{font-family:"DejaVu Serif",serif;font-size:12pt;margin:0}
    h1{font-size:24pt} h2{font-size:18pt}
    .cols{display:flex;gap:2em} .cols>div{flex:1}
    </style></head><body>
    <h1>\(paragraphs[0])</h1>
    <p>\(paragraphs[1])</p>
    <h2>\(paragraphs[2])</h2>
    <div class="cols"><div><p>\(paragraphs[3])</p></div><div><p>\(paragraphs[4])</p></div></div>
    <p>\(paragraphs[5])</p>
    </body></html>
    """

  /// The words in reading order.
  static let words = paragraphs.flatMap { $0.split(separator: " ") }

  static var absentMessage: String {
    "chromium or Poppler's GLib library not installed (run Tools/install/install-dependencies.sh): born-digital PDF tests skipped"
  }

  static let chromium: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/chromium" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// The PDF, printed once.
  static let pdf: URL? = {
    guard let chromium, PDFDocument.isAvailable,
      let folder = try? Fixtures.temporaryFolder()
    else { return nil }
    let page = folder.appendingPathComponent("page.html")
    let out = folder.appendingPathComponent("born.pdf")
    guard (try? html.write(to: page, atomically: true, encoding: .utf8)) != nil,
      let (status, _) = try? ExternalCheckers.run(
        chromium,
        [
          "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
          "--print-to-pdf=\(out.path)", page.path,
        ]),
      status == 0, FileManager.default.fileExists(atPath: out.path)
    else { return nil }
    return out
  }()

  /// `pdftotext -bbox`'s words: text and box in points.
  static func pdftotextWords(_ pdf: String) throws -> [(text: String, box: [Double])] {
    let tool = try #require(ExternalCheckers.pdftotext)
    let (status, layout) = try ExternalCheckers.run(tool, ["-bbox", pdf, "-"])
    #expect(status == 0)
    let pattern = try NSRegularExpression(
      pattern:
        #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>"#)
    let ns = layout as NSString
    return pattern.matches(in: layout, range: NSRange(location: 0, length: ns.length)).map { m in
      (
        SearchablePDFTests.unescape(ns.substring(with: m.range(at: 5))),
        (1...4).map { Double(ns.substring(with: m.range(at: $0))) ?? 0 }
      )
    }
  }
}

/// PDF pages that already have text are read from it, not recognised
/// (issue 26, point 1): on a born-digital PDF printed by Chromium, turned
/// by `/Rotate`, mixed with a scanned page, and through every command.
@Suite("PDF text")
struct PDFTextTests {
  static func document(_ path: String) throws -> Document {
    try DocumentJSON.decode(String(contentsOfFile: path, encoding: .utf8))
  }

  /// Runs the built binary with extra environment variables.
  static func binary(_ arguments: [String], environment extra: [String: String]) throws -> (
    code: Int32, stdout: String, stderr: String
  ) {
    let process = Process()
    process.executableURL = Fixtures.executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = try Fixtures.temporaryFolder().path
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = Mutex(Data())
    let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      errData.withLock { String(decoding: $0, as: UTF8.self) }
    )
  }

  /// The note `scantext ocr` prints for a PDF whose pages `pages` were
  /// read from their text.
  static func note(_ path: String, _ pages: String, one: Bool) -> String {
    "Note: \(path): \(one ? "page" : "pages") \(pages) already "
      + (one
        ? "has text: its words come from the PDF and a searchable PDF keeps it as it is; "
        : "have text: their words come from the PDF and a searchable PDF keeps them as they are; ")
      + "--redo-ocr replaces an earlier OCR layer, --force-ocr recognises every page.\n"
  }

  /// Each model word against the word `pdftotext -bbox` reports with the
  /// same text nearest its box: every word and glyph within 1 px of it
  /// (a glyph across the line; along it, the glyphs together span the
  /// word).
  static func expectBoxesMatch(_ page: Page, _ words: [(text: String, box: [Double])]) throws {
    let scale = try #require(page.pdf.map { 1 / $0.pixelToPoint[0] })
    for word in page.words {
      let candidates = words.filter { $0.text == word.text }.map { $0.box.map { $0 * scale } }
      let b = word.bbox
      let edges = [b.minX, b.minY, b.maxX, b.maxY].map(Double.init)
      let nearest = try #require(
        candidates.min {
          zip($0, edges).map { abs($0 - $1) }.max() ?? 0 < zip($1, edges).map { abs($0 - $1) }.max()
            ?? 0
        }, "'\(word.text)' is not among pdftotext's words")
      let deviation = zip(nearest, edges).map { abs($0 - $1) }.max() ?? .infinity
      #expect(deviation <= 1, "'\(word.text)': \(b) against \(nearest)")
      let glyphs = try #require(PixelRect.union(word.glyphs.map(\.bbox)))
      #expect(glyphs == b, "'\(word.text)': glyphs span \(glyphs), word \(b)")
      let vertical = page.orientation % 180 != 0
      for glyph in word.glyphs {
        let across =
          vertical
          ? [glyph.bbox.minX - b.minX, glyph.bbox.maxX - b.maxX]
          : [glyph.bbox.minY - b.minY, glyph.bbox.maxY - b.maxY]
        #expect(across.allSatisfy { abs($0) <= 1 }, "'\(word.text)' glyph '\(glyph.text)'")
      }
    }
  }

  /// The born-digital page's model: Poppler's text exactly (its lines are
  /// the model's lines, its words, split at the one space Poppler puts
  /// between words, the model's words; the model joins paragraphs with an
  /// empty line, in its reading order: heading, paragraph, heading, left
  /// column, right column, the line under them), each paragraph the HTML's
  /// text, headings found, `source: pdf-text`, confidence 100, boxes
  /// within 1 px of `pdftotext -bbox`, and `verify` passes.
  @Test func bornDigitalPageIsReadFromItsText() throws {
    guard let pdf = BornDigital.pdf, ExternalCheckers.pdftotext != nil else {
      print(BornDigital.absentMessage)
      return
    }
    let json = try Fixtures.temporaryFolder().appendingPathComponent("born.json").path
    let r = scantext(["ocr", pdf.path, "-o", json, "-q"])
    #expect(r.code == 0 && r.stderr.isEmpty, "\(r.stderr)")
    let page = try #require(try Self.document(json).pages.first)
    #expect(page.source == .pdfText && page.dpiSource == .pdf && page.dpi == 300)
    #expect(page.pdf?.hasText == true && page.pdf?.page == 1)
    #expect(page.width == 2550 && page.height == 3300 && page.orientation == 0)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    #expect(
      paragraphs.map { $0.lines.map(\.text).joined(separator: " ") } == BornDigital.paragraphs)
    #expect(
      page.text == paragraphs.map { $0.lines.map(\.text).joined(separator: "\n") }.joined(
        separator: "\n\n") + "\n")
    #expect(page.words.map(\.text) == BornDigital.words.map(String.init))
    #expect(paragraphs.map(\.role) == [.heading, .body, .heading, .body, .body, .body])
    #expect(paragraphs[0].headingLevel == 1 && paragraphs[2].headingLevel == 2)
    #expect(
      page.words.allSatisfy {
        $0.confidence == 100 && $0.glyphs.allSatisfy { $0.confidence == 100 }
      })
    let cafe = try #require(page.words.first { $0.text == "naïve" })
    #expect(cafe.glyphs.map(\.text) == ["n", "a", "ï", "v", "e"])
    try Self.expectBoxesMatch(page, try BornDigital.pdftotextWords(pdf.path))
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations.prefix(3))")
  }

  /// No recognition: with no language data at all (an empty
  /// TESSDATA_PREFIX) the born-digital PDF is still read, by `ocr`, `text`
  /// and `verify`, while `--force-ocr` needs the engine and says so; the
  /// forced page is recognised (`source` absent).
  @Test func noEngineForPagesWithText() throws {
    guard let pdf = BornDigital.pdf else {
      print(BornDigital.absentMessage)
      return
    }
    let none = ["TESSDATA_PREFIX": try Fixtures.temporaryFolder().path]
    var r = try Self.binary(["ocr", pdf.path, "--format", "text", "-q"], environment: none)
    #expect(r.code == 0 && r.stderr.isEmpty, "\(r.stderr)")
    #expect(
      r.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        == BornDigital.words.map(String.init))
    let text = try Self.binary(["text", pdf.path], environment: none)
    #expect(text.code == 0 && text.stdout == r.stdout, "\(text.stderr)")
    #expect(text.stdout.contains("Größe naïve café — the end."))
    let verify = try Self.binary(["verify", pdf.path], environment: none)
    #expect(verify.code == 0 && verify.stdout.contains("0 violations"), "\(verify.stdout)")
    r = try Self.binary(["ocr", pdf.path, "-q", "--force-ocr"], environment: none)
    #expect(r.code != 0 && r.stderr.contains("unknown language 'eng'"), "\(r.stderr)")

    let json = try Fixtures.temporaryFolder().appendingPathComponent("forced.json").path
    let forced = scantext(["ocr", pdf.path, "-o", json, "-q", "--no-cache", "--force-ocr"])
    #expect(forced.code == 0, "\(forced.stderr)")
    let page = try #require(try Self.document(json).pages.first)
    #expect(page.source == .ocr && page.dpiSource == .pdf && page.pdf?.hasText == true)
    #expect(page.text.contains("Harbour Records"))
  }

  /// A page turned by `/Rotate` 90 (`qpdf --rotate=+90`): the same words in
  /// the same order, read downwards on the displayed page (orientation 90,
  /// quads), within 1 px of `pdftotext -bbox` there, and `verify` passes.
  @Test func turnedPage() throws {
    guard let pdf = BornDigital.pdf, let qpdf = ExternalCheckers.qpdf,
      ExternalCheckers.pdftotext != nil
    else {
      print(BornDigital.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let turned = folder.appendingPathComponent("turned.pdf").path
    let (status, output) = try ExternalCheckers.run(qpdf, ["--rotate=+90", pdf.path, turned])
    #expect(status == 0, "\(output)")
    let json = folder.appendingPathComponent("turned.json").path
    let r = scantext(["ocr", turned, "-o", json, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try #require(try Self.document(json).pages.first)
    #expect(page.width == 3300 && page.height == 2550 && page.orientation == 90)
    #expect(page.source == .pdfText)
    #expect(page.words.map(\.text) == BornDigital.words.map(String.init))
    let first = try #require(page.words.first)
    // Read downwards: the reading-order top-left corner is the box's
    // top-right.
    #expect(first.quad?.topLeft == Point(x: Double(first.bbox.maxX), y: Double(first.bbox.minY)))
    try Self.expectBoxesMatch(page, try BornDigital.pdftotextWords(turned))
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations.prefix(3))")
  }

  /// ScanText's own searchable PDF of a skewed scan fed back: its layer
  /// draws each word at the page's slant, and Poppler gives it in pieces
  /// ("Remov" + "e", 117 pieces for 88 words; 2 `verify` violations). Such
  /// a slanted invisible layer is recognised instead by default (the
  /// page's text as recognised, `verify` clean); `--skip-text` still reads
  /// it from the PDF, as asked. A level layer is read from the PDF (the
  /// other tests).
  @Test func slantedOCRLayerIsRecognisedInstead() throws {
    guard PDFDocument.isAvailable else {
      print("Poppler's GLib library (libpoppler-glib8) is not installed: PDF test skipped")
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let input = folder.appendingPathComponent("skew.pdf")
    let recognised = try RecognizedScans.page("skew-plus7.png")
    try SearchablePDFOutput.imagePDF(
      pages: [(recognised, (Fixtures.scans.appendingPathComponent("skew-plus7.png").path, 0))],
      maxPixels: RecognitionOptions.defaultMaxPixels, font: PDFImages.glyphlessFont(),
      title: nil
    ).write(to: input)
    let json = folder.appendingPathComponent("skew.json").path
    var r = scantext(["ocr", input.path, "-o", json, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let page = try #require(try Self.document(json).pages.first)
    #expect(page.source == .ocr)
    #expect(page.verify().violations.isEmpty, "\(page.verify().violations.prefix(3))")
    #expect(page.words.count == recognised.words.count)
    r = scantext(["ocr", input.path, "-o", json, "--skip-text"])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(try Self.document(json).pages.first?.source == .pdfText)
  }

  /// A PDF of a born-digital page, a scanned page and the born-digital page
  /// turned: `--pages 2-3` reads page 2 by recognition and page 3 from its
  /// text, and the note names page 3 only; every page read, the note
  /// names pages 1 and 3.
  @Test func pagesWithAndWithoutText() throws {
    guard let pdf = BornDigital.pdf, let qpdf = ExternalCheckers.qpdf,
      let img2pdf = PDFInputTests.img2pdf
    else {
      print(BornDigital.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let scan = folder.appendingPathComponent("scan.pdf").path
    var (status, output) = try ExternalCheckers.run(
      img2pdf, [Fixtures.scans.appendingPathComponent("clean.png").path, "-o", scan])
    #expect(status == 0, "\(output)")
    let mixed = folder.appendingPathComponent("mixed.pdf").path
    (status, output) = try ExternalCheckers.run(
      qpdf, ["--empty", "--pages", pdf.path, scan, pdf.path, "--", mixed])
    #expect(status == 0, "\(output)")
    let turnedMixed = folder.appendingPathComponent("mixed-turned.pdf").path
    (status, output) = try ExternalCheckers.run(qpdf, ["--rotate=+90:3", mixed, turnedMixed])
    #expect(status == 0, "\(output)")

    let json = folder.appendingPathComponent("mixed.json").path
    var r = scantext(["ocr", turnedMixed, "--pages", "2-3", "-o", json, "--no-cache"])
    #expect(r.code == 0)
    #expect(r.stderr == Self.note(turnedMixed, "3", one: true))
    let pages = try Self.document(json).pages
    #expect(pages.map(\.source) == [.ocr, .pdfText])
    #expect(pages.map { $0.pdf?.page } == [2, 3])
    #expect(pages.map(\.orientation) == [0, 90])
    #expect(pages[0].text == (try RecognizedScans.page("clean.png")).text)
    r = scantext(["ocr", turnedMixed, "-o", json, "--no-cache"])
    #expect(r.code == 0 && r.stderr == Self.note(turnedMixed, "1, 3", one: false), "\(r.stderr)")
  }

  /// The note, word for word, for every page of a PDF with text; none with
  /// `--skip-text` (the same pages, asked for) or `-q`.
  @Test func noteNamesThePagesAndTheChoices() throws {
    guard let pdf = BornDigital.pdf, let qpdf = ExternalCheckers.qpdf else {
      print(BornDigital.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let three = folder.appendingPathComponent("three.pdf").path
    let (status, output) = try ExternalCheckers.run(
      qpdf, ["--empty", "--pages", pdf.path, pdf.path, pdf.path, "--", three])
    #expect(status == 0, "\(output)")
    let r = scantext(["ocr", three, "--format", "text"])
    #expect(r.code == 0)
    #expect(r.stderr == Self.note(three, "1-3", one: false))
    let skipped = scantext(["ocr", three, "--format", "text", "--skip-text"])
    #expect(skipped.code == 0 && skipped.stderr.isEmpty && skipped.stdout == r.stdout)
    let quiet = scantext(["ocr", three, "--format", "text", "-q"])
    #expect(quiet.code == 0 && quiet.stderr.isEmpty && quiet.stdout == r.stdout)
    #expect(RunNotes.ranges([7, 1, 2, 3, 5, 9, 8]) == "1-3, 5, 7-9")
  }

  /// `--no-preprocess` TSV of a PDF is the model's TSV (Tesseract's exact
  /// TSV reads image files only): before, the PDF went to Tesseract as an
  /// image and failed ("the image image data is truncated or corrupt").
  @Test func tsvOfAPDF() throws {
    guard let pdf = BornDigital.pdf else {
      print(BornDigital.absentMessage)
      return
    }
    let r = scantext(["ocr", pdf.path, "--no-preprocess", "--format", "tsv", "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let words = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t") }
      .filter { $0.first == "5" }.compactMap(\.last)
    #expect(words == BornDigital.words)
  }
}
