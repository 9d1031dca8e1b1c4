import Foundation
import ScanFormats
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanModel

/// The searchable PDF is tagged (issue 30 points 1 and 2): checked the way a
/// user's tools see it, with the PDF/UA checker `pdfua` (PyPI), the project's
/// own checks (`Tools/check/check-tagged-pdf.py`, pikepdf), Poppler's
/// `pdfinfo -struct-text` and `qpdf --check`; the tag tree's text, in order,
/// is the model's reading order.
@Suite("Tagged PDF")
struct TaggedPDFTests {
  static let venv = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin")
  static let python = venv.appendingPathComponent("python").path
  static let pdfua = venv.appendingPathComponent("pdfua").path
  static let checker = Fixtures.packageRoot.appendingPathComponent(
    "Tools/check/check-tagged-pdf.py"
  )
  .path
  static var checkersPresent: Bool {
    FileManager.default.isExecutableFile(atPath: pdfua)
      && ((try? ExternalCheckers.run(python, ["-c", "import pikepdf"]).0) ?? 1) == 0
      && PDFOutputTests.pdfinfo != nil && ExternalCheckers.qpdf != nil
  }
  static let absentMessage =
    "pdfua or pikepdf (.build/tools-venv), pdfinfo or qpdf missing (run Tools/install/install-dependencies.sh): tagged PDF tests skipped"

  /// What the checks found on one PDF.
  struct Checked {
    var pdfuaOutput: String
    var findings: [String]
    /// The tag tree's text in order.
    var tagText: String
    /// Each page's part of it (the text of its elements, in order).
    var pageTexts: [String]
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
      tagText: json["text"] as? String ?? "", pageTexts: json["pages"] as? [String] ?? [],
      structText: structText)
  }

  /// The model's words in reading order, its page furniture (artifacts in
  /// the PDF) left out, joined by single spaces; a word hyphenated at a
  /// line end joined to its continuation as the layer writes it
  /// (`recog-nition`, the hyphen a `Span` whose `/ActualText` is the soft
  /// hyphen).
  static func readingOrderText(_ document: Document) -> String {
    document.pages.map(readingOrderText).filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// One page's part of ``readingOrderText(_:)``.
  static func readingOrderText(_ page: Page) -> String {
    var out = ""
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

  /// The hyphen that breaks a word at a line's end is a `Span` of its own
  /// whose `/ActualText` is the soft hyphen (U+00AD), as PDF 1.7 §10.7
  /// asks of a tagged PDF: the tag tree holds `recog`, the soft hyphen and
  /// `nition`, so a screen reader reads `recognition`. MuPDF (PyMuPDF)
  /// takes the `/ActualText`: its words keep both parts, each on its ink
  /// (`recog` + U+00AD, `nition`) and its search finds `recognition`
  /// across the break. Before, the Span held both parts with the joined
  /// word as its `/ActualText`, and MuPDF spread the joined word's letters
  /// over the glyphs: `recogn` / `ition`, and no search hit. A compound's
  /// hyphen (`e-` / `mail`) is the word's own: no Span.
  @Test(.enabled(if: checkersPresent, Comment(rawValue: absentMessage)))
  func lineEndHyphenIsASoftHyphen() throws {
    let (checked, _, pdf) = try Self.tagged(
      [Fixtures.scans.appendingPathComponent("justified-hyphenated.png").path], name: "hyphenated")
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    #expect(checked.tagText.contains("character recog-nition has learned"), "\(checked.tagText)")
    let script = """
      import pikepdf, sys, re
      pdf = pikepdf.open(sys.argv[1])
      page = pdf.pages[0]
      content = {}
      for operands, operator in pikepdf.parse_content_stream(page):
          if operator == pikepdf.Operator('BDC'):
              mcid = operands[1].get('/MCID')
          elif operator == pikepdf.Operator('Tj') and mcid is not None:
              units = bytes(operands[0])
              content[int(mcid)] = content.get(int(mcid), '') + units.decode('utf-16-be')
      spans = []
      def walk(e):
          if not isinstance(e, pikepdf.Dictionary): return
          if str(e.get('/S')) == '/Span':
              spans.append((str(e.get('/ActualText')), content.get(int(e.K))))
          k = e.get('/K')
          for kid in (k if isinstance(k, pikepdf.Array) else [k]): walk(kid)
      walk(pdf.Root.StructTreeRoot.K)
      print('|'.join(f'{a!r}={t!r}' for a, t in spans))
      try:
          import pymupdf
      except ImportError:
          sys.exit(0)
      p = pymupdf.open(sys.argv[1])[0]
      words = [w[4] for w in p.get_text('words')]
      print('words', repr(words[words.index('character') + 1:words.index('character') + 3]))
      print('search', len(p.search_for('recognition')))
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    #expect(status == 0, "\(output)")
    let lines = output.split(separator: "\n").map(String.init)
    // Every Span is a breaking hyphen: its ActualText the soft hyphen, its
    // content the hyphen glyph alone.
    let spans = lines.first?.split(separator: "|").map(String.init) ?? []
    #expect(!spans.isEmpty, "\(output)")
    #expect(spans.allSatisfy { $0 == #"'\xad'='-'"# }, "\(output)")
    if lines.count == 3 {
      #expect(lines[1] == "words ['recog\\xad', 'nition']", "\(output)")
      #expect(lines[2] == "search 2", "\(output)")
    }
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

  /// The folders of the real scans (`ocrd`, `ocrmypdf`, `tesseract-test`).
  static let realScanFolders: [String] = Array(
    Set(RealScans.images.compactMap { $0.split(separator: "/").first.map(String.init) })
  ).sorted()

  /// Every real scan and photo (`../shared/scans`: each PNG, JPEG and TIFF
  /// under it, 22 today): every check passes and each page's tag text
  /// reads in its model's order (CER ≤ 0.001), with as many headings in
  /// `pdfinfo -struct-text` as the model has. One multi-page PDF per
  /// folder (`scantext ocr a b c … -o folder.pdf`), checked once, the JSON
  /// run served by the recognition cache; a failing page is named by its
  /// file. Measured here (debug build, 2 shared cores, empty cache): the
  /// three folders' 22 pages take 73 s CPU (42 s wall on an idle machine,
  /// 95 s beside other builds; recognition most of it);
  /// one PDF per image instead costs one more set of checker runs (about
  /// 0.5 s: Python, pikepdf, Poppler, qpdf) for each of 19 more PDFs. The
  /// eight images this test checked before, one by one: 26 s (CLI runs,
  /// serially).
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: realScanFolders)
  func realScansPassEveryCheck(_ folder: String) throws {
    let images = RealScans.images.filter { $0.hasPrefix(folder + "/") }
    try #require(!images.isEmpty, "no images in \(folder)")
    let (checked, document, _) = try Self.tagged(images.map(RealScans.path), name: folder)
    // The checker names the page (`page 3: …`): its file follows.
    let named = images.enumerated().map { "page \($0.offset + 1): \($0.element)" }
    #expect(checked.findings.isEmpty, "\(checked.findings)\n\(named)")
    #expect(document.pages.count == images.count)
    #expect(checked.pageTexts.count == images.count, "\(checked.pageTexts.count) pages tagged")
    for (k, (page, image)) in zip(document.pages, images).enumerated()
    where k < checked.pageTexts.count {
      let cer = Self.cer(checked.pageTexts[k], Self.readingOrderText(page))
      #expect(cer <= 0.001, "\(image) (page \(k + 1)): tag text CER \(cer)")
    }
    let headings = document.pages.flatMap { $0.blocks.flatMap(\.paragraphs) }.filter {
      $0.role == .heading
    }
    let structHeadings = checked.structText.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).range(
        of: #"^H[1-6] "#, options: .regularExpression) != nil
    }
    #expect(structHeadings.count == headings.count, "\(folder): \(checked.structText)")
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
  /// pages of `cardinal.pdf` (XMP of its own), `c02-22.pdf` (none) and
  /// `skew.pdf` (XMP without a title);
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
        // An XMP packet without a dc:title: it gets the title shown, so
        // that it can claim PDF/UA (before: pdfua UA-28-004, a warning).
        (real.appendingPathComponent("ocrmypdf/skew.pdf").path, []),
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

  /// Issue 30 point 1 for a scanned PDF: the pictures recognition finds
  /// (`--figures`) are `Figure`s with `/Alt` and `/BBox` at their place in
  /// reading order, their content the page's own content drawn again
  /// inside each figure's outline in marked content (the page's content
  /// kept, an artifact): every check passes, the page looks the same
  /// (Poppler's rendering of the input and of the output, identical
  /// pixels) and the page image is in the file once. Real: `c02-22.pdf`
  /// (an engraving); generated: img2pdf's PDF of the article with a
  /// picture, also under `--force-ocr` (the figure drawn from the page's
  /// rendering). Before, a scanned PDF's figures were left out of the tags.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(
      if: PDFOutputTests.toolsPresent, Comment(rawValue: PDFOutputTests.absentMessage)))
  func scannedPDFFiguresAreTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    var inputs: [(String, [String])] = []
    if let generated = Self.articleWithPicture {
      let image = try generated.get().appendingPathComponent("article-picture.png").path
      let article = folder.appendingPathComponent("article-picture.pdf")
      try PDFOutputTests.run(PDFInputTests.img2pdf, [image, "-o", article.path])
      inputs += [(article.path, ["--figures"]), (article.path, ["--figures", "--force-ocr"])]
    } else {
      print(GeneratedImages.absentMessage)
    }
    if let real = RealScans.folder {
      inputs.append((real.appendingPathComponent("ocrmypdf/c02-22.pdf").path, ["--figures"]))
    }
    for (k, (input, extra)) in inputs.enumerated() {
      let name = URL(fileURLWithPath: input).lastPathComponent + " \(extra)"
      let (checked, document, pdf) = try Self.tagged([input], name: "figure-\(k)", extra: extra)
      #expect(checked.findings.isEmpty, "\(name): \(checked.findings)")
      #expect(
        Self.cer(checked.tagText, Self.readingOrderText(document)) <= 0.001, "\(name)")
      let figures = document.pages.first?.figures.count ?? 0
      #expect(figures == 1, "\(name): the model's figures")
      let lines = checked.structText.split(separator: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      #expect(lines.filter { $0.hasPrefix("Figure") }.count == figures, "\(checked.structText)")
      #expect(lines.contains { $0.hasPrefix("/BBox [") }, "\(checked.structText)")
      // The figure's marked content, its /Alt, and images: as many image
      // XObjects as the input has (the page image is not stored again).
      let script = """
        import pikepdf, sys
        def images(path):
            pdf = pikepdf.open(path)
            return sum(1 for o in pdf.objects if isinstance(o, pikepdf.Stream)
                       and o.get('/Subtype') == '/Image')
        out = pikepdf.open(sys.argv[1])
        alts = []
        def walk(e):
            if not isinstance(e, pikepdf.Dictionary): return
            if str(e.get('/S')) == '/Figure': alts.append(str(e.get('/Alt', '')))
            k = e.get('/K')
            for kid in (k if isinstance(k, pikepdf.Array) else [k]): walk(kid)
        walk(out.Root.StructTreeRoot.K)
        print(images(sys.argv[1]), images(sys.argv[2]), '|'.join(alts))
        """
      let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path, input])
      #expect(status == 0, "\(output)")
      let fields = output.trimmingCharacters(in: .whitespacesAndNewlines).split(
        separator: " ", maxSplits: 2)
      #expect(fields.count == 3 && fields[0] == fields[1], "\(name): images \(output)")
      #expect(fields.count == 3 && fields[2].hasPrefix("Picture"), "\(name): /Alt \(output)")
      // The page looks as it did (a rendered page is a new image: not
      // compared).
      if !extra.contains("--force-ocr") {
        let before = try Self.rendered(URL(fileURLWithPath: input), in: folder, as: "in-\(k)")
        let after = try Self.rendered(pdf, in: folder, as: "out-\(k)")
        #expect(before.count > 1000 && before == after, "\(name): the page looks different")
      }
    }
  }

  /// A page redone (`--redo-ocr`, an earlier invisible layer replaced)
  /// keeps its figure tagged, drawn from its content without that layer
  /// (its text read once); a page that also shows visible text of its own
  /// (a stamp laid over it) leaves its figure out of the tags, as the
  /// figure's content would draw the stamp's text a second time. Both
  /// pass every check, and the PDF's text holds each line as often as the
  /// input's does.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(
      if: PDFOutputTests.toolsPresent, Comment(rawValue: PDFOutputTests.absentMessage)))
  func redoneFiguresAndVisibleText() throws {
    guard let generated = Self.articleWithPicture, let chromium = PDFOutputTests.chromium else {
      print("\(GeneratedImages.absentMessage), or chromium missing")
      return
    }
    let image = try generated.get().appendingPathComponent("article-picture.png").path
    let folder = try Fixtures.temporaryFolder()
    let layered = folder.appendingPathComponent("layered.pdf")
    try PDFOutputTests.ocr([image, "-o", layered.path, "--no-tags", "--figures"])
    let stamp = try PDFOutputTests.printed(
      """
      <!DOCTYPE html><html><head><style>@page { size: 408pt 528pt; margin: 0 }</style></head>
      <body><div style="position: absolute; left: 30pt; top: 500pt; font: bold 14pt sans-serif">
      CONFIDENTIAL COPY</div></body></html>
      """, as: "stamp", in: folder, chromium: chromium)
    let stamped = folder.appendingPathComponent("stamped.pdf")
    try PDFOutputTests.run(
      ExternalCheckers.qpdf, [layered.path, "--overlay", stamp.path, "--", stamped.path])
    for (input, figures) in [(layered, 1), (stamped, 0)] {
      let name = input.lastPathComponent
      let (checked, document, pdf) = try Self.tagged(
        [input.path], name: "redone-\(figures)", extra: ["--redo-ocr", "--figures"])
      #expect(checked.findings.isEmpty, "\(name): \(checked.findings)")
      #expect(document.pages.first?.figures.count == 1, "\(name): the model's figures")
      let tags = checked.structText.split(separator: "\n").filter {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix("Figure:")
      }
      #expect(tags.count == figures, "\(name): \(checked.structText)")
      let before = try PDFOutputTests.run(ExternalCheckers.pdftotext, [input.path, "-"])
      let after = try PDFOutputTests.run(ExternalCheckers.pdftotext, [pdf.path, "-"])
      for phrase in ["CONFIDENTIAL", "harbour"] {
        #expect(
          after.components(separatedBy: phrase).count
            == before.components(separatedBy: phrase).count, "\(name): \(phrase)")
      }
    }
  }

  /// The first page as Poppler renders it (gray, 100 dpi: PGM bytes).
  static func rendered(_ pdf: URL, in folder: URL, as name: String) throws -> Data {
    let prefix = folder.appendingPathComponent(name).path
    try PDFOutputTests.run(
      ExternalCheckers.pdftoppm,
      ["-gray", "-r", "100", "-f", "1", "-l", "1", "-singlefile", pdf.path, prefix])
    return try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm"))
  }

  /// A PDF with a page whose own text is kept (`Scans/scan.pdf`: a typed
  /// page among scans) is tagged too (issue 46 point 3): the kept page's
  /// content is marked in place (``MixedPDFTagsTests``); before, the whole
  /// file was left untagged.
  @Test(
    .enabled(if: checkersPresent, Comment(rawValue: absentMessage)),
    .enabled(
      if: PDFOutputTests.toolsPresent, Comment(rawValue: PDFOutputTests.absentMessage)))
  func aPDFWithKeptTextIsTaggedToo() throws {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("mixed.pdf")
    try PDFOutputTests.ocr([Fixtures.scans.appendingPathComponent("scan.pdf").path, "-o", pdf.path])
    try PDFOutputTests.expectValid(pdf)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Tagged:          yes"), "\(info)")
  }
}
