import Foundation
import ScanFormats
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanModel

/// The searchable PDF is tagged (issue 30 points 1 and 2): checked the way a
/// user's tools see it, with the PDF/UA checker `pdfua` (PyPI), the project's
/// own checks (`Tools/check-tagged-pdf.py`, pikepdf), Poppler's
/// `pdfinfo -struct-text` and `qpdf --check`; the tag tree's text, in order,
/// is the model's reading order.
@Suite("Tagged PDF")
struct TaggedPDFTests {
  static let venv = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin")
  static let python = venv.appendingPathComponent("python").path
  static let pdfua = venv.appendingPathComponent("pdfua").path
  static let checker = Fixtures.packageRoot.appendingPathComponent("Tools/check-tagged-pdf.py")
    .path
  static var checkersPresent: Bool {
    FileManager.default.isExecutableFile(atPath: pdfua)
      && ((try? ExternalCheckers.run(python, ["-c", "import pikepdf"]).0) ?? 1) == 0
      && PDFOutputTests.pdfinfo != nil && ExternalCheckers.qpdf != nil
  }
  static let absentMessage =
    "pdfua or pikepdf (.build/tools-venv), pdfinfo or qpdf missing (run Tools/install-dependencies.sh): tagged PDF tests skipped"

  /// What the checks found on one PDF.
  struct Checked {
    var pdfuaOutput: String
    var findings: [String]
    /// The tag tree's text in order.
    var tagText: String
    var structText: String
  }

  /// Runs every checker on a PDF; expects each to pass.
  static func check(_ pdf: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> Checked
  {
    try PDFOutputTests.expectValid(pdf, sourceLocation: sourceLocation)
    let (uaStatus, uaOutput) = try ExternalCheckers.run(pdfua, ["check", pdf.path])
    #expect(uaStatus == 0, "\(pdf.lastPathComponent): \(uaOutput)", sourceLocation: sourceLocation)
    #expect(
      uaOutput.contains("result: PASS (no findings)"), "\(uaOutput)", sourceLocation: sourceLocation
    )
    // A rule the checker could not evaluate is no pass.
    #expect(!uaOutput.contains("[skip"), "\(uaOutput)", sourceLocation: sourceLocation)
    let (status, output) = try ExternalCheckers.run(python, [checker, pdf.path, "--json"])
    #expect(status == 0, "\(pdf.lastPathComponent): \(output)", sourceLocation: sourceLocation)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    let structText = try PDFOutputTests.run(PDFOutputTests.pdfinfo, ["-struct-text", pdf.path])
    return Checked(
      pdfuaOutput: uaOutput, findings: json["findings"] as? [String] ?? ["no findings list"],
      tagText: json["text"] as? String ?? "", structText: structText)
  }

  /// The model's words in reading order, its page furniture (artifacts in
  /// the PDF) left out, joined by single spaces; a word hyphenated at a
  /// line end joined to its continuation as the layer writes it
  /// (`recog-nition`, the `Span`'s `/ActualText` saying `recognition`).
  static func readingOrderText(_ document: Document) -> String {
    var out = ""
    for page in document.pages {
      let hyphens = Set(page.hyphenBreaks.map(\.hyphen.upperBound.offset))
      var joinNext = false
      for block in page.blocks {
        for paragraph in block.paragraphs
        where ![.header, .footer, .pageNumber].contains(paragraph.role) {
          for line in paragraph.lines {
            for word in line.words where !word.text.isEmpty {
              if !out.isEmpty && !joinNext { out += " " }
              out += word.text
              joinNext = hyphens.contains(word.range.upperBound.offset)
            }
          }
        }
      }
    }
    return out
  }

  /// The reading-order CER of the tag tree's text against the model's
  /// (``EvaluationEditDistance``, the metric `scantext eval` uses).
  static func cer(_ tagText: String, _ model: String) -> Double {
    // Both sides' words joined by single spaces (a word Tesseract read
    // with a leading space glyph, " §", is "§" in the layer's text).
    let tags = tagText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let model = model.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !model.isEmpty else { return tags.isEmpty ? 0 : 1 }
    return Double(EvaluationEditDistance.distance(tags, model)) / Double(model.count)
  }

  /// OCRs `inputs` to a tagged PDF and the model; checks the PDF; returns
  /// the checks and the model.
  static func tagged(_ inputs: [String], name: String, extra: [String] = []) throws -> (
    Checked, Document, URL
  ) {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("\(name).pdf")
    let json = folder.appendingPathComponent("\(name).json")
    try PDFOutputTests.ocr(inputs + ["-o", pdf.path] + extra)
    try PDFOutputTests.ocr(inputs + ["-o", json.path] + extra)
    return (try check(pdf), try PDFOutputTests.document(json), pdf)
  }

  /// The generated sample pages: an article (title, columns, caption,
  /// footnotes, running head), a ruled table, a book spread photo, margin
  /// notes, headings of three levels, a hyphenated paragraph; and all of
  /// them in one PDF.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    arguments: [
      "article.png", "ruled-table.png", "photo-spread.jpg", "marginalia.png", "headings.png",
      "justified-hyphenated.png",
    ])
  func samplePagesPassEveryCheck(_ sample: String) throws {
    let (checked, document, _) = try Self.tagged(
      [Fixtures.scans.appendingPathComponent(sample).path],
      name: (sample as NSString).deletingPathExtension)
    #expect(checked.findings.isEmpty, "\(sample): \(checked.findings)")
    let model = Self.readingOrderText(document)
    #expect(!model.isEmpty)
    let cer = Self.cer(checked.tagText, model)
    #expect(cer <= 0.001, "\(sample): tag text CER \(cer)\n\(checked.tagText)\n--\n\(model)")
    // Poppler reads the tags: as many headings as the model has.
    let headings = document.pages.flatMap { $0.blocks.flatMap(\.paragraphs) }.filter {
      $0.role == .heading
    }
    let structHeadings = checked.structText.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).range(
        of: #"^H[1-6] "#, options: .regularExpression) != nil
    }
    #expect(structHeadings.count == headings.count, "\(sample): \(checked.structText)")
  }

  /// What a reader hears of the article: its title an `H1`, the caption a
  /// `Caption`, the footnotes `Note`s with their ids, the running head an
  /// artifact (not in the tags), all in the model's reading order.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func articleStructure() throws {
    let (checked, _, _) = try Self.tagged(
      [Fixtures.scans.appendingPathComponent("article.png").path], name: "article")
    let lines = checked.structText.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let tags = lines.compactMap { $0.split(separator: " ").first.map(String.init) }.filter {
      !$0.hasPrefix("\"")
    }
    #expect(tags.first == "Document")
    #expect(tags.dropFirst().first == "H1", "\(checked.structText)")
    #expect(lines.contains("\"Ships, Tides and the Old Ledgers\""), "\(checked.structText)")
    #expect(tags.contains("Caption"))
    #expect(lines.contains { $0.hasPrefix("Note <note-1>") }, "\(checked.structText)")
    #expect(lines.contains { $0.hasPrefix("Note <note-2>") }, "\(checked.structText)")
    // The running head is an artifact: not in the structure's text.
    #expect(!checked.structText.contains("Harbour Quarterly"), "\(checked.structText)")
    // Lines of a paragraph keep a space between them.
    #expect(checked.structText.contains("7:45, the sea"), "\(checked.structText)")
  }

  /// A table reads as `Table` → `TR` → `TH` (first row, `/Scope /Column`) /
  /// `TD`, row by row, with the cells' text.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func ruledTableStructure() throws {
    let (checked, _, _) = try Self.tagged(
      [Fixtures.scans.appendingPathComponent("ruled-table.png").path], name: "ruled-table")
    let lines = checked.structText.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(lines.filter { $0 == "TR" }.count == 8, "\(checked.structText)")
    #expect(lines.filter { $0.hasPrefix("TH") }.count == 3, "\(checked.structText)")
    #expect(lines.filter { $0 == "TD" }.count == 21, "\(checked.structText)")
    #expect(checked.tagText.hasPrefix("Item Amount Note Flour 500 grams sifted twice"))
  }

  /// A hyphenated word is a `Span` whose `/ActualText` is the joined word.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func hyphenatedWordHasItsJoinedForm() throws {
    let (_, _, pdf) = try Self.tagged(
      [Fixtures.scans.appendingPathComponent("justified-hyphenated.png").path], name: "hyphenated")
    let script = """
      import pikepdf, sys
      pdf = pikepdf.open(sys.argv[1])
      out = []
      def walk(e):
          if not isinstance(e, pikepdf.Dictionary): return
          if str(e.get('/S')) == '/Span' and '/ActualText' in e: out.append(str(e.ActualText))
          k = e.get('/K')
          for kid in (k if isinstance(k, pikepdf.Array) else [k]): walk(kid)
      walk(pdf.Root.StructTreeRoot.K)
      print('|'.join(out))
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    #expect(status == 0, "\(output)")
    #expect(
      output.split(separator: "|").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .contains("recognition"), "\(output)")
  }

  /// Several inputs make one document: one `Document` with every page's
  /// elements, each page its own entry in the parent tree; `--title` is the
  /// title a viewer shows.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func severalPagesAndTitle() throws {
    let (checked, document, pdf) = try Self.tagged(
      [
        Fixtures.scans.appendingPathComponent("headings.png").path,
        Fixtures.scans.appendingPathComponent("ruled-table.png").path,
      ],
      name: "two", extra: ["--title", "Two pages"])
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    #expect(Self.cer(checked.tagText, Self.readingOrderText(document)) <= 0.001)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Title:           Two pages"), "\(info)")
    #expect(info.contains("Tagged:          yes"), "\(info)")
    #expect(info.contains("Pages:           2"), "\(info)")
  }

  /// `--no-tags` writes the plain layer: no structure, and the project's
  /// checker says so (it finds what is missing).
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func noTagsWritesThePlainLayer() throws {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("plain.pdf")
    try PDFOutputTests.ocr([
      Fixtures.scans.appendingPathComponent("clean.png").path, "-o", pdf.path, "--no-tags",
    ])
    try PDFOutputTests.expectValid(pdf)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Tagged:          no"), "\(info)")
    let (status, output) = try ExternalCheckers.run(Self.python, [Self.checker, pdf.path])
    #expect(status == 1)
    #expect(output.contains("no /StructTreeRoot"), "\(output)")
    #expect(output.contains("/MarkInfo /Marked is not true"), "\(output)")
  }

  /// `Scans/article.png` with a picture drawn under its caption (in the
  /// third column, 1133–1558 × 1060–1500): rings and hatching, made once.
  static let articleWithPicture: Result<URL, FixtureError>? = GeneratedImages.folder(
    """
    import sys
    from PIL import Image, ImageDraw
    im = Image.open(sys.argv[1]).convert("L")
    d = ImageDraw.Draw(im)
    for r in range(20, 200, 24):
        d.ellipse((1345 - r, 1280 - r, 1345 + r, 1280 + r), outline=0, width=6)
    for x in range(1140, 1560, 18):
        d.line((x, 1070, x + 60, 1140), fill=80, width=3)
    im.save(f"{sys.argv[2]}/article-picture.png", dpi=(300, 300))
    """,
    { [Fixtures.scans.appendingPathComponent("article.png").path, $0.path] })

  /// Issue 30 point 1: a region the model says holds a picture (the JSON's
  /// `"figures"`) is a `Figure` in the tags, at its place in reading order
  /// (after the caption above it in its column), with a `/BBox` and an
  /// `/Alt` ("Picture" and the caption beside it), its content the image's
  /// part inside it in marked content: `pdfua` and the project's checks
  /// pass and `pdfinfo -struct-text` shows it. Without the figure the page
  /// has no `Figure`.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func aPictureRegionIsAFigureWithAlt() throws {
    guard let generated = Self.articleWithPicture else {
      print(GeneratedImages.absentMessage)
      return
    }
    let image = try generated.get().appendingPathComponent("article-picture.png").path
    let folder = try Fixtures.temporaryFolder()
    let json = folder.appendingPathComponent("article.json")
    try PDFOutputTests.ocr([image, "-o", json.path])
    // The model without figures (recognition may find the drawn picture:
    // that is tested on real pictures below).
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
    var pages = try #require(object["pages"] as? [[String: Any]])
    pages[0]["figures"] = nil
    object["pages"] = pages
    let plainJSON = folder.appendingPathComponent("plain.json")
    try JSONSerialization.data(withJSONObject: object).write(to: plainJSON)
    let plainPDF = folder.appendingPathComponent("plain.pdf")
    #expect(scantext(["convert", plainJSON.path, plainPDF.path, "--image", image]).code == 0)
    // (The caption's text, "Figure 1. …", is quoted: an element is a line
    // starting with its type.)
    let plainLines = try Self.check(plainPDF).structText.split(separator: "\n")
    #expect(!plainLines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Figure") })
    // The figure, added to the model as another tool (or a person) would.
    pages[0]["figures"] = [["bbox": [1133, 1060, 1558, 1500]]]
    object["pages"] = pages
    let withFigure = folder.appendingPathComponent("figure.json")
    try JSONSerialization.data(withJSONObject: object).write(to: withFigure)
    #expect(try PDFOutputTests.document(withFigure).pages.first?.figures.count == 1)
    let pdf = folder.appendingPathComponent("figure.pdf")
    let convert = scantext(["convert", withFigure.path, pdf.path, "--image", image])
    #expect(convert.code == 0, "\(convert.stderr)")
    let checked = try Self.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    let lines = checked.structText.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let figure = try #require(lines.firstIndex { $0.hasPrefix("Figure") }, "\(checked.structText)")
    let caption = try #require(lines.firstIndex { $0.hasPrefix("Caption") })
    #expect(caption < figure, "\(checked.structText)")
    // Its /Alt and /BBox (the structure objects are written as text).
    let bytes = try String(decoding: Data(contentsOf: pdf), as: UTF8.self)
    let alt = SearchablePDF.literal("Picture: Figure 1.")
    #expect(bytes.contains("/S /Figure"))
    #expect(bytes.contains("/Alt " + alt.dropLast()), "no /Alt starting \(alt)")
    #expect(bytes.contains("/O /Layout /BBox ["))
  }

  /// Real scans and photos (`../shared/scans`): every check passes and the
  /// tag tree reads in the model's order.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: [
      "tesseract-test/phototest.tif", "tesseract-test/eurotext.tif",
      "tesseract-test/8071_093.3B.tif", "ocrmypdf/linn.png", "ocrd/kant-0017.tif",
      "ocrd/bengel-abriss-1751-0007.jpg", "ocrd/boston-cooking-a.jpg",
      "tesseract-test/phototest-rotated-R.png",
    ])
  func realScansPassEveryCheck(_ image: String) throws {
    let name = (URL(fileURLWithPath: image).lastPathComponent as NSString).deletingPathExtension
    let (checked, document, _) = try Self.tagged([RealScans.path(image)], name: name)
    #expect(checked.findings.isEmpty, "\(image): \(checked.findings)")
    let cer = Self.cer(checked.tagText, Self.readingOrderText(document))
    #expect(cer <= 0.001, "\(image): tag text CER \(cer)")
  }
  /// Pictures recognition finds (by default) on real scans
  /// (`indian-ferns-0004.tif`: two ferns; `bengel-abriss-1751-0007.jpg`: a
  /// headpiece and a woodcut, with `--figures`, still accepted;
  /// `c02-22-embedded-000.jpg`: an engraving) are `Figure`s in the tagged
  /// PDF: `pdfua` and the project's checks pass, `pdfinfo -struct-text`
  /// lists one `Figure` for each of the model's figures, each with an
  /// `/Alt`; a page without pictures (`fleming-jaeger-1719-0117.jpg`) has
  /// none, and with `--no-figures` `c02-22` has none. `c02-22`'s figure's
  /// `/Alt` holds its legend.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: [
      ("ocrd/indian-ferns-0004.tif", [], 2), ("ocrd/bengel-abriss-1751-0007.jpg", ["--figures"], 2),
      ("ocrmypdf/c02-22-embedded-000.jpg", [], 1),
      ("ocrmypdf/c02-22-embedded-000.jpg", ["--no-figures"], 0),
      ("ocrd/fleming-jaeger-1719-0117.jpg", [], 0),
    ])
  func realPicturesAreFigures(_ image: String, flags: [String], pictures: Int) throws {
    let name = (URL(fileURLWithPath: image).lastPathComponent as NSString).deletingPathExtension
    let (checked, document, pdf) = try Self.tagged(
      [RealScans.path(image)], name: name, extra: flags)
    #expect(checked.findings.isEmpty, "\(image): \(checked.findings)")
    #expect(document.pages.first?.figures.count == pictures)
    let figures = checked.structText.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix("Figure")
    }
    #expect(figures.count == pictures, "\(checked.structText)")
    let bytes = try String(decoding: Data(contentsOf: pdf), as: UTF8.self)
    #expect(
      bytes.components(separatedBy: "/S /Figure").count - 1 == pictures
        && bytes.components(separatedBy: "/Alt " + SearchablePDF.literal("Picture").dropLast())
          .count - 1 == pictures
    )
    // `c02-22`'s legend under the engraving ("THEY TIP-TOED ALONG.", not
    // numbered) is a caption, and the figure's `/Alt` is "Picture: " and
    // the legend (it was "Picture" before ``FigureLegends``).
    if image.hasPrefix("ocrmypdf/c02-22"), pictures == 1 {
      let legend = try #require(
        document.pages.first?.blocks.flatMap(\.paragraphs).first { $0.role == .caption })
      let text = legend.lines.flatMap(\.words).map(\.text).joined(separator: " ")
      #expect(text.hasSuffix("TIP-TOED ALONG."), "\(text)")
      #expect(bytes.contains("/Alt " + SearchablePDF.literal("Picture: " + text)))
    }
  }

  /// A scanned PDF (`scantext ocr scan.pdf -o out.pdf`): the input edited,
  /// its pages' content made artifacts and the new layers tagged, one
  /// structure tree over the pages; the input's XMP packet (with its
  /// `dc:title`) gets the PDF/UA identification. Real: the four turned
  /// pages of `cardinal.pdf` (XMP of its own) and `c02-22.pdf` (none);
  /// generated: img2pdf's PDF of the article, also under `--force-ocr`
  /// (each page replaced by its rendering: the rendering the artifact).
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(
      if: PDFOutputTests.toolsPresent, Comment(rawValue: PDFOutputTests.absentMessage)))
  func scannedPDFsAreTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    let article = folder.appendingPathComponent("article-scan.pdf")
    try PDFOutputTests.run(
      PDFInputTests.img2pdf,
      [Fixtures.scans.appendingPathComponent("article.png").path, "-o", article.path])
    var inputs: [(String, [String])] = [(article.path, []), (article.path, ["--force-ocr"])]
    if let real = RealScans.folder {
      inputs += [
        (real.appendingPathComponent("ocrmypdf/cardinal.pdf").path, []),
        (real.appendingPathComponent("ocrmypdf/c02-22.pdf").path, []),
      ]
    }
    for (k, (input, extra)) in inputs.enumerated() {
      let (checked, document, pdf) = try Self.tagged([input], name: "scan-\(k)", extra: extra)
      #expect(checked.findings.isEmpty, "\(input) \(extra): \(checked.findings)")
      let cer = Self.cer(checked.tagText, Self.readingOrderText(document))
      #expect(cer <= 0.001, "\(input) \(extra): tag text CER \(cer)")
      let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
      #expect(info.contains("Tagged:          yes"), "\(input): \(info)")
    }
  }

  /// A PDF with a page whose own text is kept (`Scans/scan.pdf`: a typed
  /// page among scans) is not tagged: its kept page's text has no tags,
  /// and a half-tagged file would hide it from a screen reader.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(
      if: PDFOutputTests.toolsPresent, Comment(rawValue: PDFOutputTests.absentMessage)))
  func aPDFWithKeptTextIsNotTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("mixed.pdf")
    try PDFOutputTests.ocr([Fixtures.scans.appendingPathComponent("scan.pdf").path, "-o", pdf.path])
    try PDFOutputTests.expectValid(pdf)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Tagged:          no"), "\(info)")
  }
}
