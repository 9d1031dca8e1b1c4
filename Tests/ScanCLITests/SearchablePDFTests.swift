import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// `scantext ocr IMG -o out.pdf`: the image with an invisible text layer,
/// checked with Poppler's and qpdf's tools as a PDF viewer would read it.
@Suite("Searchable PDF output")
struct SearchablePDFTests {
  static var toolsPresent: Bool {
    ExternalCheckers.pdftotext != nil && ExternalCheckers.pdfimages != nil
      && ExternalCheckers.qpdf != nil
  }

  /// A word as `pdftotext -bbox` reports it, in image pixels.
  struct PlacedWord: Equatable {
    var text: String
    var box: [Double]
  }

  static func unescape(_ s: String) -> String {
    s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The words of page 1 of a PDF with their boxes, from `pdftotext -bbox`,
  /// in the pixels of `page`, the model of that PDF page. pdftotext gives
  /// boxes in the page as displayed: a page with `/Rotate` (a turned page
  /// shown upright) is turned back.
  static func placedWords(_ pdf: URL, page: Page, rotated: Bool = true) throws -> [PlacedWord] {
    let tool = try #require(ExternalCheckers.pdftotext)
    let (status, output) = try ExternalCheckers.run(
      tool, ["-bbox", "-f", "1", "-l", "1", pdf.path, "-"])
    #expect(status == 0, "\(output)")
    let pattern = try NSRegularExpression(
      pattern:
        #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>"#)
    let ns = output as NSString
    let scale = Double(PageResolution.resolution(of: page)) / 72
    // The unrotated page in pixels, and the turn a viewer gives it.
    let w = Double(page.width)
    let h = Double(page.height)
    let rotate = rotated && page.orientation % 360 != 0 ? 360 - page.orientation % 360 : 0
    func unrotated(_ x: Double, _ y: Double) -> (Double, Double) {
      switch rotate {
      case 90: return (y, h - x)
      case 180: return (w - x, h - y)
      case 270: return (w - y, x)
      default: return (x, y)
      }
    }
    return pattern.matches(in: output, range: NSRange(location: 0, length: ns.length)).map { m in
      let v = (1...4).map { (Double(ns.substring(with: m.range(at: $0))) ?? 0) * scale }
      let a = unrotated(v[0], v[1])
      let b = unrotated(v[2], v[3])
      return PlacedWord(
        text: unescape(ns.substring(with: m.range(at: 5))),
        box: [min(a.0, b.0), min(a.1, b.1), max(a.0, b.0), max(a.1, b.1)])
    }
  }

  /// The page as a viewer shows it lies on the layer (see
  /// ``RenderedPDFCheck``).
  static func expectLayerOnInk(
    _ pdf: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    guard RenderedPDFCheck.isAvailable else { return }
    for report in try RenderedPDFCheck.check(pdf) {
      #expect(report.passed, "\(name): \(report)", sourceLocation: sourceLocation)
    }
  }

  /// The model's words in reading order with the bounds of their outlines.
  static func modelWords(_ page: Page) -> [PlacedWord] {
    page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).filter { !$0.text.isEmpty }
      .map { word in
        let r = word.corners.boundingRect
        return PlacedWord(text: word.text, box: [r.minX, r.minY, r.maxX, r.maxY])
      }
  }

  static func writePDF(_ image: String, folder: URL) throws -> URL {
    let out = folder.appendingPathComponent(
      URL(fileURLWithPath: image).deletingPathExtension().lastPathComponent + ".pdf")
    let r = scantext(["ocr", image, "-o", out.path, "-q"])
    #expect(r.code == 0, "\(image): \(r.stderr)")
    return out
  }

  /// Upright and quarter-turned pages: every word of the model is where
  /// pdftotext finds it (within 2 px), the text comes out in the model's
  /// reading order (`pdftotext -raw`, content order), and qpdf finds no
  /// error.
  @Test(
    arguments: [
      "clean.png", "two-columns.png", "rotated-90.png", "rotated-180.png", "rotated-270.png",
      "blur-jpeg.jpg",
    ])
  func everyWordLiesOnItsBox(image: String) throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let path = Fixtures.scans.appendingPathComponent(image).path
    let pdf = try Self.writePDF(path, folder: folder)
    let (status, check) = try ExternalCheckers.run(
      try #require(ExternalCheckers.qpdf), ["--check", pdf.path])
    #expect(status == 0, "\(image): \(check)")
    let page = try RecognizedScans.page(image)
    let expected = Self.modelWords(page)
    var found = try Self.placedWords(pdf, page: page)
    #expect(
      found.count == expected.count, "\(image): \(found.count) words, model \(expected.count)")
    // pdftotext orders words its own way: match each model word to the
    // same text at the nearest box.
    var worst = 0.0
    for word in expected {
      let candidates = found.indices.filter { found[$0].text == word.text }
      guard
        let best = candidates.min(by: {
          zip(found[$0].box, word.box).map { abs($0 - $1) }.max() ?? 0
            < zip(found[$1].box, word.box).map { abs($0 - $1) }.max() ?? 0
        })
      else {
        Issue.record("\(image): '\(word.text)' is not in the PDF's text")
        continue
      }
      let deviation = zip(found[best].box, word.box).map { abs($0 - $1) }.max() ?? 0
      worst = max(worst, deviation)
      #expect(deviation <= 2, "\(image): '\(word.text)' at \(found[best].box), model \(word.box)")
      found.remove(at: best)
    }
    // Content order is the reading order. (Whitespace aside: in content
    // order, Poppler joins words whose boxes touch, "Pump" "a" on the page
    // turned by 180° and shown upright.)
    let (_, raw) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftotext), ["-raw", pdf.path, "-"])
    #expect(
      raw.filter { !$0.isWhitespace } == expected.map(\.text).joined(), "\(image): text order")
    try Self.expectLayerOnInk(pdf, image)
    try Self.expectCompressedAndSmall(pdf, image: path)
  }

  /// Every stream ScanText writes itself is compressed, and the image is
  /// the file's data: an image file's searchable PDF is within 10 % of
  /// the image file (the compressed text layer is 3–5 kB on these pages),
  /// 2 kB for the tags and 4 kB for PDF/A (the output intent's sRGB
  /// profile, 2.4 kB compressed; the identification and extension schema
  /// in the XMP, 1 kB).
  static func expectCompressedAndSmall(
    _ pdf: URL, image path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let bytes = try Data(contentsOf: pdf)
    let text = String(decoding: bytes, as: UTF8.self)
    // Each stream's dictionary: the line before its `stream` keyword.
    let dictionaries = text.components(separatedBy: ">>\nstream\n").dropLast().map {
      String($0.split(separator: "\n").last ?? "")
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    #expect(
      dictionaries.count == 7,
      "\(name): 7 streams (font, its 2 maps, content, image, XMP metadata, output intent profile)",
      sourceLocation: sourceLocation)
    // (The XMP packet is stored unfiltered, as readers scanning for it
    // expect.)
    for dictionary in dictionaries
    where !dictionary.contains("/Subtype /Image") && !dictionary.contains("/Type /Metadata") {
      #expect(
        dictionary.contains("/FlateDecode"), "\(name): \(dictionary.suffix(200))",
        sourceLocation: sourceLocation)
    }
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
    ).intValue
    // The tags (structure tree, parent tree, XMP: 1.0–1.2 kB on these
    // pages) and PDF/A's additions come on top, and the copies of the font
    // whose ascents keep the words of paragraphs set in one size on their
    // ink (`SearchablePDF.AscentFonts`: three objects, 0.55 kB, each; 7–9
    // on these pages).
    let copies = text.components(separatedBy: "/Type /FontDescriptor").count - 2
    #expect(
      bytes.count <= size + size / 10 + 2048 + 4096 + 600 * max(0, copies),
      "\(name): \(bytes.count) bytes, the image \(size)", sourceLocation: sourceLocation)
  }

  /// Skewed pages: Poppler cuts some words whose baseline is not level into
  /// pieces at glyph boundaries ("Remov" + "e"), so each piece is matched
  /// to the model word whose outline holds its centre: the pieces of every
  /// word spell it, in order along its line, and lie on its outline's box
  /// (within 2 px); no piece lies outside every word.
  @Test(arguments: ["skew-plus2.png", "skew-plus7.png", "skew-minus5.png"])
  func skewedWordsLieOnTheirOutlines(image: String) throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let pdf = try Self.writePDF(Fixtures.scans.appendingPathComponent(image).path, folder: folder)
    let page = try RecognizedScans.page(image)
    let words = page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).filter {
      !$0.text.isEmpty
    }
    #expect(words.contains { $0.quad != nil }, "\(image): the page was deskewed")
    func inside(_ p: Point, _ q: Quad) -> Bool {
      let c = q.corners
      let signs = (0..<4).map { i -> Double in
        let a = c[i]
        let b = c[(i + 1) % 4]
        return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
      }
      return signs.allSatisfy { $0 >= -1e-9 } || signs.allSatisfy { $0 <= 1e-9 }
    }
    var pieces: [[(along: Double, text: String, box: [Double])]] = Array(
      repeating: [], count: words.count)
    for piece in try Self.placedWords(pdf, page: page) {
      let centre = Point(x: (piece.box[0] + piece.box[2]) / 2, y: (piece.box[1] + piece.box[3]) / 2)
      guard let owner = words.firstIndex(where: { inside(centre, $0.corners) }) else {
        Issue.record("\(image): '\(piece.text)' at \(piece.box) lies on no word")
        continue
      }
      let q = words[owner].corners
      let along =
        (centre.x - q.topLeft.x) * (q.topRight.x - q.topLeft.x)
        + (centre.y - q.topLeft.y) * (q.topRight.y - q.topLeft.y)
      pieces[owner].append((along, piece.text, piece.box))
    }
    for (word, found) in zip(words, pieces) {
      let spelled = found.sorted { $0.along < $1.along }.map(\.text).joined()
      #expect(spelled == word.text, "\(image): '\(word.text)' reads '\(spelled)'")
      let r = word.corners.boundingRect
      for piece in found {
        let out =
          [
            r.minX - piece.box[0], r.minY - piece.box[1], piece.box[2] - r.maxX,
            piece.box[3] - r.maxY,
          ].max() ?? 0
        #expect(out <= 2, "\(image): '\(piece.text)' \(out) px outside '\(word.text)'")
      }
    }
  }

  /// A JPEG goes into the PDF byte for byte (no recompression); the page
  /// size follows the image's resolution.
  @Test func aJPEGIsEmbeddedUnchanged() throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let path = Fixtures.scans.appendingPathComponent("blur-jpeg.jpg").path
    let pdf = try Self.writePDF(path, folder: folder)
    let prefix = folder.appendingPathComponent("img").path
    let (status, output) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdfimages), ["-all", pdf.path, prefix])
    #expect(status == 0, "\(output)")
    let extracted = try Data(contentsOf: URL(fileURLWithPath: prefix + "-000.jpg"))
    #expect(extracted == (try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  /// Several images make one PDF with their pages in order; a model as
  /// input is refused (a PDF needs the images), with nothing written.
  @Test func pagesKeepTheirOrderAndModelsAreRefused() throws {
    guard Self.toolsPresent else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("two.pdf")
    let first = Fixtures.scans.appendingPathComponent("headings.png").path
    let second = Fixtures.scans.appendingPathComponent("clean.png").path
    let r = scantext(["ocr", first, second, "-o", out.path, "-q"])
    #expect(r.code == 0, "\(r.stderr)")
    let tool = try #require(ExternalCheckers.pdftotext)
    for (number, image) in [(1, "headings.png"), (2, "clean.png")] {
      let (_, text) = try ExternalCheckers.run(
        tool, ["-raw", "-f", "\(number)", "-l", "\(number)", out.path, "-"])
      let page = try RecognizedScans.page(image)
      let words = Self.modelWords(page).prefix(3).map(\.text)
      #expect(text.split(whereSeparator: \.isWhitespace).prefix(3).map(String.init) == words)
    }
    let refused = folder.appendingPathComponent("refused.pdf")
    let model = scantext(["ocr", CleanModel.path, "-o", refused.path, "-q"])
    #expect(model.code == 1)
    #expect(model.stderr.contains("a searchable PDF needs the page images"))
    #expect(!FileManager.default.fileExists(atPath: refused.path))
  }

  /// Bilevel pages (CCITT G4 in the PDF, as Leptonica encodes them) show
  /// black ink on white paper, not inverted: the page rendered by Poppler
  /// is mostly white. (They rendered inverted, mean gray 15–77, before.)
  @Test(arguments: ["ocrmypdf/typewriter.png", "tesseract-test/phototest.tif"])
  func bilevelPagesAreNotInverted(image: String) throws {
    guard Self.toolsPresent, let pdftoppm = ExternalCheckers.pdftoppm else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let pdf = try Self.writePDF(RealScans.path(image), folder: folder)
    let prefix = folder.appendingPathComponent("page").path
    let (status, output) = try ExternalCheckers.run(
      pdftoppm, ["-gray", "-r", "20", "-singlefile", pdf.path, prefix])
    #expect(status == 0, "\(output)")
    let pgm = try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm"))
    // P5 header: magic, size, maximum, then one byte per pixel.
    var newlines = 0
    var start = 0
    for (i, byte) in pgm.enumerated() where byte == 0x0A {
      newlines += 1
      if newlines == 3 {
        start = i + 1
        break
      }
    }
    let pixels = pgm[(pgm.startIndex + start)...]
    let mean = Double(pixels.reduce(0) { $0 + Int($1) }) / Double(max(1, pixels.count))
    #expect(mean > 150, "\(image): mean gray \(mean)")
  }

  /// `convert MODEL out.pdf --image IMG` makes the same text layer from a
  /// model; without an image to put in it, it says so and writes nothing.
  @Test func convertWritesAPDFFromAModel() throws {
    guard Self.toolsPresent, let pdftotext = ExternalCheckers.pdftotext else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("model.pdf")
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let r = scantext(["convert", CleanModel.path, out.path, "--image", image])
    #expect(r.code == 0, "\(r.stderr)")
    let (_, text) = try ExternalCheckers.run(pdftotext, ["-raw", out.path, "-"])
    let page = try RecognizedScans.page("clean.png")
    #expect(
      text.split(whereSeparator: \.isWhitespace).map(String.init)
        == Self.modelWords(page).map(\.text))
    let missing = folder.appendingPathComponent("missing.pdf")
    let refused = scantext(["convert", CleanModel.path, missing.path])
    #expect(refused.code == 1)
    #expect(refused.stderr.contains("clean.png: no such file"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }

  /// Whether the PDF tools, the rendered-page check and the real scans
  /// are all here; says which is not.
  static var realScanChecksCanRun: Bool {
    guard toolsPresent, RenderedPDFCheck.isAvailable else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return false
    }
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return false
    }
    return true
  }

  /// The page objects of a PDF ScanText wrote (they are not compressed):
  /// each page's `/MediaBox` and `/Rotate`.
  static func pageObjects(_ pdf: URL) throws -> [(mediaBox: [Double], rotate: Int?)] {
    let text = String(decoding: try Data(contentsOf: pdf), as: UTF8.self)
    let pattern = try NSRegularExpression(
      pattern: #"/Type /Page /Parent \d+ 0 R /MediaBox \[([\d. ]+)\]( /Rotate (\d+))?"#)
    let ns = text as NSString
    return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
      let box = ns.substring(with: m.range(at: 1)).split(separator: " ").compactMap {
        Double($0)
      }
      let rotate =
        m.range(at: 3).location == NSNotFound ? nil : Int(ns.substring(with: m.range(at: 3)))
      return (box, rotate)
    }
  }

  /// Writes the searchable PDF of recognised pages in this process (the
  /// real scans are recognised once per test process, see ``RealScans``).
  static func writePDF(
    pages: [Page], images: [String], folder: URL, name: String, keepRotation: Bool = false
  ) throws -> URL {
    let out = folder.appendingPathComponent(name)
    let output = try DocumentStream(
      format: .searchablePDF, path: out.path,
      settings: .scanText(dataPath: nil, keepRotation: keepRotation),
      images: PageFiles(
        maxPixels: 100_000_000, readsPDFs: pages.contains { $0.pdf != nil },
        pictures: HTMLPictures(outputPath: out.path)))
    for (n, (page, image)) in zip(pages, images).enumerated() {
      try output.write(page, from: PageOrigin(path: image, page: 0, number: n + 1))
    }
    try output.finish()
    return out
  }

  /// Pages found turned are shown upright: `/Rotate` turns the page back
  /// (its image and layer untouched: every word is still on its box) and
  /// the page as Poppler renders it lies on the layer as pdftotext finds
  /// it; with `--keep-rotation` the page stays as scanned.
  @Test(arguments: [
    ("ocrmypdf/cardinal-2.png", 270), ("ocrmypdf/cardinal-3.png", 180),
    ("ocrmypdf/cardinal-4.png", 90), ("tesseract-test/phototest-rotated-L.png", 90),
    ("tesseract-test/phototest-rotated-R.png", 270),
    ("tesseract-test/phototest-rotated-180.png", 180),
  ])
  func turnedPagesAreShownUpright(image: String, rotate: Int) throws {
    guard Self.realScanChecksCanRun else { return }
    let page = try #require(try RealScans.pages(image).first)
    #expect((360 - page.orientation) % 360 == rotate, "\(image): orientation \(page.orientation)")
    let folder = try Fixtures.temporaryFolder()
    let path = RealScans.path(image)
    let upright = try Self.writePDF(pages: [page], images: [path], folder: folder, name: "up.pdf")
    let kept = try Self.writePDF(
      pages: [page], images: [path], folder: folder, name: "kept.pdf", keepRotation: true)
    #expect(try Self.pageObjects(upright).map(\.rotate) == [rotate])
    #expect(try Self.pageObjects(kept).map(\.rotate) == [nil])
    for pdf in [upright, kept] {
      let (status, check) = try ExternalCheckers.run(
        try #require(ExternalCheckers.qpdf), ["--check", pdf.path])
      #expect(status == 0, "\(image): \(check)")
      try Self.expectLayerOnInk(pdf, "\(image) \(pdf.lastPathComponent)")
      let found = try Self.placedWords(pdf, page: page, rotated: pdf == upright)
      let expected = Self.modelWords(page)
      #expect(found.count == expected.count, "\(image)")
      var worst = 0.0
      for word in expected {
        let nearest =
          found.filter { $0.text == word.text }.map {
            zip(word.box, $0.box).map { abs($0 - $1) }.max() ?? 0
          }.min() ?? .infinity
        worst = max(worst, nearest)
      }
      #expect(worst <= 2, "\(image) \(pdf.lastPathComponent): a word \(worst) px from its box")
    }
    // Shown upright: a page turned by a quarter is shown with its sides
    // swapped (pdftoppm applies /Rotate).
    let prefix = folder.appendingPathComponent("shown").path
    _ = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftoppm),
      ["-gray", "-r", "10", "-singlefile", upright.path, prefix])
    let shown = try GrayImage(pgm: Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
    let quarter = rotate % 180 != 0
    #expect(
      (shown.width > shown.height)
        == (quarter ? page.height > page.width : page.width > page.height),
      "\(image): shown \(shown.width)×\(shown.height), the image \(page.width)×\(page.height)")
  }

  /// The rendered-page check fails a layer that is not on the ink: the
  /// same model's words turned sideways (a quarter turn about the page,
  /// stretched to fit it, as a layer made in the wrong frame would be), or
  /// moved down by half a line; the true layer passes.
  @Test func aSidewaysLayerFailsTheRenderedCheck() throws {
    guard Self.toolsPresent, RenderedPDFCheck.isAvailable else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let page = try RecognizedScans.page("clean.png")
    let image = try PDFImages.stream(
      page: 0, ofFile: Fixtures.scans.appendingPathComponent("clean.png").path)
    let w = Double(page.width)
    let h = Double(page.height)
    func moved(_ f: (Point) -> Point) -> Page {
      let blocks = page.blocks.map { block in
        var block = block
        block.paragraphs = block.paragraphs.map { paragraph in
          var paragraph = paragraph
          paragraph.lines = paragraph.lines.map { line in
            var line = line
            line.quad = nil
            line.words = line.words.map { word in
              let q = word.corners
              let turned = Quad(
                topLeft: f(q.topLeft), topRight: f(q.topRight), bottomRight: f(q.bottomRight),
                bottomLeft: f(q.bottomLeft))
              let r = turned.boundingRect
              return Word(
                text: word.text,
                bbox: PixelRect(
                  minX: Int(r.minX.rounded(.down)), minY: Int(r.minY.rounded(.down)),
                  maxX: Int(r.maxX.rounded(.up)), maxY: Int(r.maxY.rounded(.up))),
                quad: turned, confidence: word.confidence)
            }
            return line
          }
          return paragraph
        }
        return block
      }
      return Page(width: page.width, height: page.height, dpi: page.dpi, blocks: blocks)
    }
    // A quarter turn clockwise about the page, stretched back onto it.
    let sideways = moved { Point(x: (h - $0.y) * w / h, y: $0.x * h / w) }
    let lineHeight = page.lines.map { Double($0.bbox.maxY - $0.bbox.minY) }.sorted()[
      page.lines.count / 2]
    let shifted = moved { Point(x: $0.x, y: $0.y + lineHeight / 2) }
    let font = try PDFImages.glyphlessFont()
    let folder = try Fixtures.temporaryFolder()
    var reports: [String: RenderedPDFCheck.PageReport] = [:]
    for (name, layer) in [("true", page), ("sideways", sideways), ("shifted", shifted)] {
      let pdf = try SearchablePDF.data(
        pages: [
          SearchablePDF.PageInput(page: layer, image: image)
        ], font: font, title: nil, producer: "test")
      let url = folder.appendingPathComponent(name + ".pdf")
      try pdf.write(to: url)
      let report: RenderedPDFCheck.PageReport = try #require(try RenderedPDFCheck.check(url).first)
      reports[name] = report
    }
    #expect(reports["true"]?.passed == true, "\(String(describing: reports["true"]))")
    #expect(reports["sideways"]?.passed == false, "\(String(describing: reports["sideways"]))")
    #expect(reports["shifted"]?.passed == false, "\(String(describing: reports["shifted"]))")
  }

  /// A phone photo with EXIF orientation 6 (stored sideways, shown
  /// upright): its JPEG goes in byte for byte, drawn turned by the page's
  /// matrix; the page is the upright picture at the estimated resolution
  /// (the JFIF's 72 dpi is a default: the page would be 45 × 34 inches),
  /// and the text layer lies on the ink a viewer sees.
  @Test func anEXIFPhotoIsUprightInItsPDF() throws {
    guard Self.realScanChecksCanRun else { return }
    let image = RealScans.path("ocrd/boston-cooking-a.jpg")
    let page = try #require(try RealScans.pages("ocrd/boston-cooking-a.jpg").first)
    #expect(page.dpiSource == .estimated && page.exifOrientation == 6)
    let dpi = try #require(page.dpi)
    let folder = try Fixtures.temporaryFolder()
    let pdf = try Self.writePDF(pages: [page], images: [image], folder: folder, name: "photo.pdf")
    let objects = try Self.pageObjects(pdf)
    let box = try #require(objects.first?.mediaBox)
    #expect(objects.first?.rotate == nil)
    #expect(abs(box[2] - Double(page.width) * 72 / Double(dpi)) < 0.01)
    #expect(abs(box[3] - Double(page.height) * 72 / Double(dpi)) < 0.01)
    #expect(box[2] < box[3] && max(box[2], box[3]) <= 20 * 72)
    let prefix = folder.appendingPathComponent("img").path
    let (status, output) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdfimages), ["-all", pdf.path, prefix])
    #expect(status == 0, "\(output)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: prefix + "-000.jpg"))
        == Data(contentsOf: URL(fileURLWithPath: image)))
    try Self.expectLayerOnInk(pdf, "boston-cooking-a.jpg")
  }

  /// An image without a resolution tag gets a page of a sensible size:
  /// `linn.png` (a 300 dpi scan, untagged; it was recorded as 70 dpi, a
  /// 36 × 47 inch page) is estimated from its text.
  @Test func anUntaggedScanGetsALetterSizedPage() throws {
    guard Self.realScanChecksCanRun else { return }
    let page = try #require(try RealScans.pages("ocrmypdf/linn.png").first)
    #expect(page.dpiSource == .estimated)
    let dpi = try #require(page.dpi)
    #expect(abs(Double(dpi) - 300) <= 0.15 * 300, "linn.png: \(dpi) dpi")
    let folder = try Fixtures.temporaryFolder()
    let pdf = try Self.writePDF(
      pages: [page], images: [RealScans.path("ocrmypdf/linn.png")], folder: folder,
      name: "linn.pdf")
    let box = try #require(try Self.pageObjects(pdf).first?.mediaBox)
    // 8.5 × 11 inches within the estimate's error.
    #expect(abs(box[2] / 72 - 8.5) <= 1.3 && abs(box[3] / 72 - 11) <= 1.7, "\(box)")
    try Self.expectLayerOnInk(pdf, "linn.png")
  }
}
