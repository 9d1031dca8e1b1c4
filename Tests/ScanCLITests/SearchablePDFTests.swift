import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

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

  /// The words of page 1 of a PDF with their boxes, from `pdftotext -bbox`.
  static func placedWords(_ pdf: URL, dpi: Int) throws -> [PlacedWord] {
    let tool = try #require(ExternalCheckers.pdftotext)
    let (status, output) = try ExternalCheckers.run(
      tool, ["-bbox", "-f", "1", "-l", "1", pdf.path, "-"])
    #expect(status == 0, "\(output)")
    let pattern = try NSRegularExpression(
      pattern:
        #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>"#)
    let ns = output as NSString
    let scale = Double(dpi) / 72
    return pattern.matches(in: output, range: NSRange(location: 0, length: ns.length)).map { m in
      PlacedWord(
        text: unescape(ns.substring(with: m.range(at: 5))),
        box: (1...4).map { (Double(ns.substring(with: m.range(at: $0))) ?? 0) * scale })
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
    var found = try Self.placedWords(pdf, dpi: page.dpi ?? 300)
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
    // Content order is the reading order.
    let (_, raw) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftotext), ["-raw", pdf.path, "-"])
    let rawWords = raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\u{0C}" }).map(
      String.init)
    #expect(rawWords == expected.map(\.text), "\(image): text order")
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
    for piece in try Self.placedWords(pdf, dpi: page.dpi ?? 300) {
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
}
