import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanCLI

/// Issue 30 points 3 and 4: the searchable PDF's text layer as three
/// readers take it out (Poppler's `pdftotext`, PyMuPDF, pdfminer.six),
/// measured by `Tools/check/pdf-layer-readers` against the model's own JSON.
@Suite("PDF layer readers")
struct PDFLayerReadersTests {
  /// The Python that runs the measuring tool and whether it has the two
  /// Python readers: the tools venv's when it has PyMuPDF and pdfminer.six,
  /// else the system's (`pdftotext` only: the tool needs nothing else for it).
  static let python: (path: String, allReaders: Bool)? = {
    let venv = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/python").path
    if FileManager.default.isExecutableFile(atPath: venv),
      let (status, _) = try? ExternalCheckers.run(venv, ["-c", "import pymupdf, pdfminer"]),
      status == 0
    {
      return (venv, true)
    }
    for path in ["/usr/bin/python3", "/usr/local/bin/python3"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return (path, false)
    }
    return nil
  }()

  static var toolsPresent: Bool { ExternalCheckers.pdftotext != nil && python != nil }

  /// `image` recognised to a model (`-o page.json`) and written as a
  /// searchable PDF from it (`convert page.json page.pdf --image`).
  static func modelAndPDF(_ image: String, folder: URL) throws -> (json: URL, pdf: URL) {
    let name = URL(fileURLWithPath: image).deletingPathExtension().lastPathComponent
    let json = folder.appendingPathComponent(name + ".json")
    let pdf = folder.appendingPathComponent(name + ".pdf")
    let ocr = scantext(["ocr", image, "-o", json.path, "-q"])
    #expect(ocr.code == 0, "\(image): \(ocr.stderr)")
    let convert = scantext(["convert", json.path, pdf.path, "--image", image])
    #expect(convert.code == 0, "\(image): \(convert.stderr)")
    return (json, pdf)
  }

  /// A sample page (`Scans/`) recognised and written as a searchable PDF
  /// (``modelAndPDF(_:folder:)``): its model's first page and the PDF.
  static func samplePage(_ image: String) throws -> (page: Page, pdf: URL) {
    let (json, pdf) = try modelAndPDF(
      Fixtures.scans.appendingPathComponent(image).path, folder: try Fixtures.temporaryFolder())
    return (try #require(try DocumentJSON.decode(Data(contentsOf: json)).pages.first), pdf)
  }

  /// For each reader: the model's words it finds whole on their ink (same
  /// text, IoU >= 0.5 with the word's box) and the model's words, page 1.
  static func found(pdf: URL, json: URL) throws -> [String: (found: Int, words: Int)] {
    let python = try #require(python)
    let tool = Fixtures.packageRoot.appendingPathComponent("Tools/check/pdf_layer_readers.py").path
    let (status, output) = try ExternalCheckers.run(
      python.path, [tool, "--pdf", pdf.path, json.path])
    #expect(status == 0, "\(output)")
    // One JSON line: {"reader": [[found, words, pieces], ...]}; the tool
    // says on stderr (joined here) which readers are missing.
    let line = output.split(separator: "\n").first { $0.hasPrefix("{") } ?? ""
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [[Int]]])
    return object.compactMapValues { pages in
      pages.first.map { (found: $0[0], words: $0[1]) }
    }
  }

  /// `Scans/clean.png` turned by ±8° (Pillow, white corners, the same
  /// resolution), made once.
  static let skewed: Result<URL, FixtureError>? = GeneratedImages.folder(
    """
    import sys
    from PIL import Image
    im = Image.open(sys.argv[1])
    for a in (8, -8):
        im.convert("L").rotate(a, resample=Image.BICUBIC, expand=True, fillcolor=255).save(
            f"{sys.argv[2]}/clean-skew{a:+d}.png", dpi=im.info.get("dpi", (300, 300)))
    """,
    { [Fixtures.scans.appendingPathComponent("clean.png").path, $0.path] })

  /// Pages skewed by ±8°, turned by 90°, 180° and 270° and a curled photo:
  /// every reader finds at least 99 % of the model's words whole, each on
  /// its ink. Before, with each word's text matrix rotated along its
  /// slanted baseline, Poppler cut slanted words into letters (63 of 136
  /// words whole at +8°, 94 of 139 on `photo-curl.jpg`).
  @Test(arguments: [
    "skew:+8", "skew:-8", "rotated-90.png", "rotated-180.png", "rotated-270.png",
    "photo-curl.jpg",
  ])
  func everyReaderFindsTheWordsWholeOnTheirInk(page: String) throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let image: String
    if page.hasPrefix("skew:") {
      guard let skewed = Self.skewed else {
        print(GeneratedImages.absentMessage)
        return
      }
      image = try skewed.get().appendingPathComponent("clean-skew\(page.dropFirst(5)).png").path
    } else {
      image = Fixtures.scans.appendingPathComponent(page).path
    }
    let folder = try Fixtures.temporaryFolder()
    let (json, pdf) = try Self.modelAndPDF(image, folder: folder)
    let readers = try Self.found(pdf: pdf, json: json)
    var expected = ["pdftotext"]
    if Self.python?.allReaders == true { expected += ["pymupdf", "pdfminer"] }
    for reader in expected {
      let result = try #require(readers[reader], "\(page): no result from \(reader)")
      #expect(result.words > 20, "\(page): \(result.words) words recognised")
      #expect(
        Double(result.found) >= 0.99 * Double(result.words),
        "\(page): \(reader) finds \(result.found) of \(result.words) words whole on their ink")
    }
  }

  /// The real photos (`../shared/scans`): every reader finds at least 99 %
  /// of the words whole on their ink, but for one known shortfall (still
  /// held to its measured floor). Before, pdfminer.six read the 30 noise
  /// words set vertically in `boston-cooking-a`'s facing-page margin letter
  /// by letter (356 of 386), and Poppler dropped the glyphs of a 37-letter
  /// "word" read in a rule of `linguistics-thesis-a` (0.07 pt apart) as
  /// duplicates. A word across the page's lines is sheared where that
  /// leaves Poppler's box as it was, and a word whose glyphs Poppler would
  /// drop is written along its long side; the slivers of noise that neither
  /// could help (21 on `boston-cooking-a`, 5 on `linguistics-thesis-a`:
  /// pdfminer 365 of 386 and 80 of 82) are no longer words
  /// (``ScanModel/SliverNoise``). PyMuPDF found 436 of 442 while a word
  /// hyphenated at a line's end was a `Span` whose `/ActualText` was the
  /// joined word: MuPDF spread its letters over both parts (`fry-` came out
  /// `fry`); the breaking hyphen is now a `Span` of its own, its
  /// `/ActualText` the soft hyphen, and MuPDF keeps both parts whole.

  @Test(
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: ["ocrd/boston-cooking-a.jpg", "ocrd/linguistics-thesis-a.jpg"])
  func everyReaderFindsTheWordsOfRealPhotos(image: String) throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let (json, pdf) = try Self.modelAndPDF(RealScans.path(image), folder: folder)
    let readers = try Self.found(pdf: pdf, json: json)
    var expected = ["pdftotext"]
    if Self.python?.allReaders == true { expected += ["pymupdf", "pdfminer"] }
    for reader in expected {
      let result = try #require(readers[reader], "\(image): no result from \(reader)")
      #expect(result.words > 50, "\(image): \(result.words) words recognised")
      let message = "\(image): \(reader) finds \(result.found) of \(result.words) words whole"
      #expect(Double(result.found) >= 0.99 * Double(result.words), "\(message)")
    }
  }

  /// A page built in code: four lines of horizontal words, three words set
  /// vertically in the right margin (reading down, 30 px thick, glyphs 18 px
  /// apart), a 37-letter "word" read in a vertical rule (15 × 273 px, a
  /// flat baseline: glyphs 0.4 px apart), a word Tesseract read with a
  /// space before it (` §`, as on `bengel-abriss`) and two words of
  /// distinct letters squeezed flat (`the` in 4 × 61 px, as recognition
  /// left it on `dibco11-pr3`; `ruled` in 6 × 120). Every reader finds
  /// every word whole on its ink. Before, pdfminer.six read the three
  /// vertical words letter by letter, Poppler dropped the rule's glyphs as
  /// duplicates, the space, spread over the ink with the `§`, pushed the
  /// `§` into the right half of its box (IoU 0.5 or less, for every
  /// reader), and the squeezed words, turned along their long side like
  /// the rule, were read letter by letter by pdfminer.six.
  @Test func wordsAcrossThePageAndGlyphsTooCloseAreFoundWhole() throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
      PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }
    var lines: [TextLine] = []
    for row in 0..<4 {
      let y = 200 + 60 * row
      let words = ["alpha", "beta", "gamma", "delta"].enumerated().map { k, text in
        Word(text: text, bbox: box(100 + 150 * k, y, 220 + 150 * k, y + 30))
      }
      lines.append(TextLine(bbox: box(100, y, 670, y + 30), words: words))
    }
    let section = [
      Word(text: " §", bbox: box(100, 440, 118, 476)),
      Word(text: "12", bbox: box(130, 440, 170, 470)),
      Word(text: "the", bbox: box(200, 430, 204, 491)),
      Word(text: "ruled", bbox: box(240, 400, 246, 520)),
    ]
    lines.append(TextLine(bbox: box(100, 400, 246, 520), words: section))
    var margin: [TextLine] = []
    for (k, text) in ["margin", "noise", "words"].enumerated() {
      let y0 = 200 + 160 * k
      let y1 = y0 + 18 * text.count
      // Reading down: the baseline runs from the top-left corner of the
      // box's left side down it.
      let quad = Quad(
        topLeft: Point(x: 1180, y: Double(y0)), topRight: Point(x: 1180, y: Double(y1)),
        bottomRight: Point(x: 1150, y: Double(y1)), bottomLeft: Point(x: 1150, y: Double(y0)))
      let word = Word(text: text, bbox: box(1150, y0, 1180, y1), quad: quad)
      margin.append(TextLine(bbox: word.bbox, quad: quad, words: [word]))
    }
    let rule = Word(text: String(repeating: "l", count: 37), bbox: box(1000, 700, 1015, 973))
    let page = Page(
      width: 1275, height: 1650, dpi: 300,
      blocks: [
        Block(
          bbox: box(100, 200, 670, 520),
          paragraphs: [Paragraph(bbox: box(100, 200, 670, 520), lines: lines)]),
        Block(
          bbox: box(1150, 200, 1180, 610),
          paragraphs: [Paragraph(bbox: box(1150, 200, 1180, 610), lines: margin)]),
        Block(
          bbox: rule.bbox,
          paragraphs: [
            Paragraph(bbox: rule.bbox, lines: [TextLine(bbox: rule.bbox, words: [rule])])
          ]),
      ])
    let folder = try Fixtures.temporaryFolder()
    let image = try PDFImages.stream(
      page: 0, ofFile: Fixtures.scans.appendingPathComponent("clean.png").path)
    let pdf = folder.appendingPathComponent("page.pdf")
    try SearchablePDF.data(
      pages: [SearchablePDF.PageInput(page: page, image: image)],
      font: PDFImages.glyphlessFont(), title: nil, producer: "test"
    ).write(to: pdf)
    let json = folder.appendingPathComponent("page.json")
    try Data(
      DocumentJSON.encode(
        Document(pages: [page]), generator: Generator(name: "test", version: "0")
      ).utf8
    ).write(to: json)
    let readers = try Self.found(pdf: pdf, json: json)
    var expected = ["pdftotext"]
    if Self.python?.allReaders == true { expected += ["pymupdf", "pdfminer"] }
    for reader in expected {
      let result = try #require(readers[reader], "no result from \(reader)")
      #expect(result.words == 24)
      #expect(result.found == result.words, "\(reader) finds \(result.found) of \(result.words)")
    }
  }

  /// Runs `command` (a shell pipeline reading the PDF as `$1`, the phrase
  /// as `$2`) and says whether grep found the phrase.
  /// For each plain-text extractor the tool runs (`pdftotext`,
  /// `pdftotext-raw`, and `pdfminer`, `pymupdf` when the venv has them):
  /// the page's `readingOrderCER` against the model (`scantext eval`) and
  /// the model's words its text holds whole, page 1
  /// (`Tools/check/pdf_layer_readers.py --order`).
  /// One extractor's plain text measured against the model.
  typealias PlainText = (readingOrderCER: Double, whole: Int, words: Int)

  static func plainText(pdf: URL, json: URL) throws -> [String: PlainText] {
    let python = try #require(python)
    let tool = Fixtures.packageRoot.appendingPathComponent("Tools/check/pdf_layer_readers.py").path
    let (status, output) = try ExternalCheckers.run(
      python.path,
      [tool, "--order", "--scantext", Fixtures.executable.path, "--pdf", pdf.path, json.path])
    #expect(status == 0, "\(output)")
    let line = output.split(separator: "\n").first { $0.hasPrefix("{") } ?? ""
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [[Double]]])
    return object.compactMapValues { pages in
      pages.first.flatMap {
        $0.count == 3 ? (readingOrderCER: $0[0], whole: Int($0[1]), words: Int($0[2])) : nil
      }
    }
  }

  /// The extractors every run measures, and a note naming those left out.
  static var plainTextExtractors: [String] {
    guard python?.allReaders == true else {
      print("PyMuPDF or pdfminer.six is absent from the tools venv: only pdftotext is checked")
      return ["pdftotext", "pdftotext-raw"]
    }
    return ["pdftotext", "pdftotext-raw", "pdfminer", "pymupdf"]
  }

  /// Issue 46 point 5: every common extractor's plain text of a page of
  /// columns comes out in the model's reading order (`readingOrderCER` at
  /// most 0.01). Before, each word was set in its ink's height, so no two
  /// words of a line had one font size and Poppler built no block past a
  /// word or two: `pdftotext`'s default output read the columns line
  /// across line (0.603 on `article.png`, 0.630 on `two-columns.png`).
  /// A paragraph's words now share a size (``SearchablePDF`` `sharedSize`).
  @Test(arguments: ["article.png", "two-columns.png"])
  func everyExtractorReadsColumnsInReadingOrder(image: String) throws {
    guard let texts = try Self.extractorTexts(of: image) else { return }
    for extractor in Self.plainTextExtractors {
      let result = try #require(texts[extractor], "\(image): no result from \(extractor)")
      #expect(result.words > 100, "\(image): \(result.words) words recognised")
      #expect(
        result.readingOrderCER <= 0.01,
        "\(image): \(extractor) reads with readingOrderCER \(result.readingOrderCER)")
    }
  }

  /// Issue 46 point 5: on a skewed page and a curled photo every
  /// extractor's plain text holds at least 95 % of the model's words whole
  /// (each a token of its own). Poppler puts a space between two words only
  /// where their boxes lie apart, and the upright boxes of neighbouring
  /// slanted words touch ("Pumpa", "intorim,"): `pdftotext` holds 84 of 88
  /// words of `skew-plus7.png` and 133 of 139 of `photo-curl.jpg`. Drawing
  /// such words narrower kept them all whole but cost `pdftotext`'s reading
  /// order on five real scans (measured, not kept: commit 035b1ed), so
  /// the goal of 99 % is not held here.
  @Test(arguments: ["skew-plus7.png", "photo-curl.jpg"])
  func everyExtractorKeepsSlantedWordsWhole(image: String) throws {
    guard let texts = try Self.extractorTexts(of: image) else { return }
    for extractor in Self.plainTextExtractors {
      let result = try #require(texts[extractor], "\(image): no result from \(extractor)")
      #expect(result.words > 50, "\(image): \(result.words) words recognised")
      #expect(
        Double(result.whole) >= 0.95 * Double(result.words),
        "\(image): \(extractor)'s text holds \(result.whole) of \(result.words) words whole")
    }
  }

  /// Each plain-text extractor's reading of the searchable PDF of a
  /// sample page, or `nil` (with a message) when Poppler's tools are absent.
  static func extractorTexts(of image: String) throws -> [String: PlainText]? {
    guard toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return nil
    }
    let folder = try Fixtures.temporaryFolder()
    let (json, pdf) = try modelAndPDF(
      Fixtures.scans.appendingPathComponent(image).path, folder: folder)
    return try plainText(pdf: pdf, json: json)
  }

  static func grepFinds(_ command: String, pdf: URL, phrase: String) throws -> Bool {
    let tool = try #require(ExternalCheckers.pdftotext)
    let (status, _) = try ExternalCheckers.run(
      "/bin/sh", ["-c", command, "sh", pdf.path, phrase, tool])
    return status == 0
  }

  /// Point 4: a phrase of five words across a line break is found by grep
  /// in `pdftotext`'s output, lines joined by spaces: in content order
  /// (`-raw`, the layer's lines in the model's reading order) for a plain
  /// break; for a hyphenated one ("recog-" + "nition") in Poppler's
  /// reading order, which joins a word hyphenated at a line's end. Every
  /// break between two lines of three words or more on
  /// `justified-hyphenated.png` (upright) and `skew-plus7.png` (skewed).
  @Test(arguments: ["justified-hyphenated.png", "skew-plus7.png"])
  func aPhraseAcrossALineBreakIsFoundByGrep(image: String) throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let (page, pdf) = try Self.samplePage(image)
    var plain = 0
    var hyphenated = 0
    for paragraph in page.blocks.flatMap(\.paragraphs) {
      let lines = paragraph.lines.map { $0.words.map(\.text).filter { !$0.isEmpty } }
      for (a, b) in zip(lines, lines.dropFirst()) where a.count >= 3 && b.count >= 3 {
        let last = a[a.count - 1]
        if last.count > 1, last.hasSuffix("-") {
          let phrase = (a[(a.count - 3)..<(a.count - 1)] + [last.dropLast() + b[0]] + b[1..<3])
            .joined(separator: " ")
          #expect(
            try Self.grepFinds(
              #""$3" "$1" - | tr '\n' ' ' | grep -F -q -- "$2""#, pdf: pdf, phrase: phrase),
            "\(image): '\(phrase)' not found")
          hyphenated += 1
        } else {
          let phrase = (a.suffix(3) + b.prefix(2)).joined(separator: " ")
          #expect(
            try Self.grepFinds(
              #""$3" -raw "$1" - | tr '\n' ' ' | grep -F -q -- "$2""#, pdf: pdf, phrase: phrase),
            "\(image): '\(phrase)' not found")
          plain += 1
        }
      }
    }
    #expect(plain >= 5, "\(image): \(plain) plain line breaks")
    if image == "justified-hyphenated.png" {
      #expect(hyphenated >= 1, "\(image): no hyphenated line break")
    }
  }

  /// Point 4: copying a heading gives its text. A viewer copies what lies
  /// in the selection; selecting a heading's box (Poppler's `pdftotext -x
  /// -y -W -H`, PyMuPDF's `get_text(clip:)`) gives the heading's words and
  /// nothing of the running head above it or the text below: on
  /// `article.png` (a running head, a title) and `headings.png` (three
  /// headings between paragraphs). In the tags, the heading's element holds
  /// the same text and the running head is an artifact
  /// (`TaggedPDFTests.articleStructure`).
  @Test(arguments: ["article.png", "headings.png"])
  func aHeadingCopiesAsItsText(image: String) throws {
    guard Self.toolsPresent, let pdftotext = ExternalCheckers.pdftotext else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let (page, pdf) = try Self.samplePage(image)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    let headings = paragraphs.filter { $0.role == .heading }
    #expect(!headings.isEmpty, "\(image): no heading")
    if image == "article.png" {
      #expect(paragraphs.contains { $0.role == .header }, "\(image): no running head")
    }
    let scale = 72 / Double(PageResolution.resolution(of: page))
    func words(_ text: String) -> String {
      text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    var rects: [[Int]] = []
    for heading in headings {
      let text = heading.lines.flatMap(\.words).map(\.text).joined(separator: " ")
      // The selection: the heading's box in points, whole points outward.
      let box = heading.bbox
      let x0 = Int((Double(box.minX) * scale).rounded(.down))
      let y0 = Int((Double(box.minY) * scale).rounded(.down))
      let x1 = Int((Double(box.maxX) * scale).rounded(.up))
      let y1 = Int((Double(box.maxY) * scale).rounded(.up))
      rects.append([x0, y0, x1, y1])
      let (status, copied) = try ExternalCheckers.run(
        pdftotext,
        ["-x", "\(x0)", "-y", "\(y0)", "-W", "\(x1 - x0)", "-H", "\(y1 - y0)", pdf.path, "-"])
      #expect(status == 0)
      #expect(words(copied) == words(text), "\(image): Poppler copies '\(copied)' for '\(text)'")
    }
    guard let python = Self.python, python.allReaders else { return }
    let script = """
      import pymupdf, sys, json
      page = pymupdf.open(sys.argv[1])[0]
      for r in json.loads(sys.argv[2]):
          print(' '.join(page.get_text('text', clip=pymupdf.Rect(*r)).split()))
      """
    let list =
      "["
      + rects.map { "[\($0.map(String.init).joined(separator: ","))]" }
      .joined(separator: ",") + "]"
    let (status, output) = try ExternalCheckers.run(python.path, ["-c", script, pdf.path, list])
    #expect(status == 0, "\(output)")
    let copied = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (k, heading) in headings.enumerated() {
      let text = heading.lines.flatMap(\.words).map(\.text).joined(separator: " ")
      #expect(
        k < copied.count && copied[k] == words(text),
        "\(image): PyMuPDF copies '\(k < copied.count ? copied[k] : "")' for '\(text)'")
    }
  }
}
