import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// What a format keeps of a page, flattened for comparison: every element's
/// kind, box, range and text, in reading order.
struct Flattened: Equatable, CustomStringConvertible {
  var rows: [String]
  var description: String { rows.joined(separator: "\n") }

  /// With `boxes` false, only the boxes of upright elements are kept.
  init(_ page: Page, glyphs: Bool, boxes: Bool = true) {
    rows = []
    // PAGE writes whole pixels: on a page neither turned nor skewed (one in
    // perspective), a small glyph tilted by less than a pixel comes back
    // upright, with its box (the importer keeps quads on turned pages).
    func box(_ r: PixelRect, _ quad: Quad?) -> String {
      if boxes { return "\(r)" }
      guard let quad else { return "\(r)" }
      // Upright once rounded: PAGE carries the rounded corners, whose
      // extent comes back as the box.
      return roundsToABox(quad, on: page).map { "\($0)" } ?? "~"
    }
    for block in page.blocks {
      rows.append("block \(boxes ? "\(block.bbox)" : "~") \(block.range)")
      for paragraph in block.paragraphs {
        rows.append(" par \(boxes ? "\(paragraph.bbox)" : "~") \(paragraph.range)")
        for line in paragraph.lines {
          rows.append("  line \(box(line.bbox, line.quad)) \(line.range) \(line.text)")
          for word in line.words {
            rows.append("   word \(box(word.bbox, word.quad)) \(word.range) \(word.text)")
            guard glyphs else { continue }
            for glyph in word.glyphs {
              rows.append("    glyph \(box(glyph.bbox, glyph.quad)) \(glyph.range) \(glyph.text)")
            }
          }
        }
      }
    }
  }
}

/// PAGE and hOCR write whole pixels: on a page neither turned nor skewed
/// (one in perspective), a small element tilted by less than a pixel comes
/// back upright (the importers keep quads that are not their own box only
/// on turned pages). Its rounded corners' box, when that is what the
/// quad rounds to, else `nil`.
func roundsToABox(_ q: Quad, on page: Page) -> PixelRect? {
  guard page.orientation == 0, page.skew == 0 else { return nil }
  let xs = [q.topLeft.x, q.topRight.x, q.bottomRight.x, q.bottomLeft.x].map { $0.rounded() }
  let ys = [q.topLeft.y, q.topRight.y, q.bottomRight.y, q.bottomLeft.y].map { $0.rounded() }
  guard Set(xs).count == 2, Set(ys).count == 2, xs[0] == xs[3], ys[0] == ys[1],
    let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max()
  else { return nil }
  return PixelRect(minX: Int(minX), minY: Int(minY), maxX: Int(maxX), maxY: Int(maxY))
}

/// Encodes one page in `format` and decodes it again.
func roundTrip(_ page: Page, _ format: DocumentFormat) throws -> Page {
  let text = try format.encode(
    Document(pages: [page]), generator: Generator(name: "scantext", version: "test"))
  let document = try format.decode(Data(text.utf8))
  guard let back = document.pages.first, document.pages.count == 1 else {
    throw FixtureError("\(format): \(document.pages.count) pages back")
  }
  return back
}

/// Checks that `back` keeps what `format` carries of `page`.
func expectKept(
  _ page: Page, _ back: Page, _ format: DocumentFormat, _ name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(back.text == page.text, "\(name) \(format): text", sourceLocation: sourceLocation)
  #expect(back.width == page.width && back.height == page.height, sourceLocation: sourceLocation)
  if format != .tsv {
    #expect(back.orientation == page.orientation, sourceLocation: sourceLocation)
    #expect(
      abs(back.skew - page.skew) <= 0.005, "\(name) \(format): skew", sourceLocation: sourceLocation
    )
  }
  // TSV has no glyphs; ALTO writes glyphs only when each is one character.
  let glyphs = format != .tsv && format != .alto
  // PAGE has one polygon per element: a tilted element's box comes back
  // as its corners' extent (checked below), and blocks and paragraphs
  // grow to hold it.
  let exactBoxes = format != .page || page.words.allSatisfy { $0.quad == nil }
  let a = Flattened(page, glyphs: glyphs, boxes: exactBoxes)
  let b = Flattened(back, glyphs: glyphs, boxes: exactBoxes)
  if !exactBoxes {
    // What PAGE carries of a tilted element: its corners (a curved
    // line's polygon), whose extent comes back as its box.
    func carried(_ box: PixelRect, _ quad: Quad?, _ polygon: [Point]? = nil) -> PixelRect {
      polygon.map { Rect(bounding: $0).enclosingPixelRect }
        ?? quad.map { $0.boundingRect.enclosingPixelRect } ?? box
    }
    var pairs: [(PixelRect, PixelRect)] = Array(
      zip(page.lines.map { carried($0.bbox, $0.quad, $0.polygon) }, back.lines.map(\.bbox)))
    pairs += Array(zip(page.words.map { carried($0.bbox, $0.quad) }, back.words.map(\.bbox)))
    for (r1, r2) in pairs {
      let dx = max(abs(r1.minX - r2.minX), abs(r1.maxX - r2.maxX))
      let dy = max(abs(r1.minY - r2.minY), abs(r1.maxY - r2.maxY))
      let worst = max(dx, dy)
      #expect(worst <= 1, "\(name) \(format): box \(r1) came back as \(r2)")
    }
  }
  if a != b {
    let first = zip(a.rows, b.rows).first { $0 != $1 }
    Issue.record(
      "\(name) \(format): \(a.rows.count) vs \(b.rows.count) elements; first difference: \(first.map { "\($0.0) → \($0.1)" } ?? "count")",
      sourceLocation: sourceLocation)
  }
  if format != .tsv {
    #expect(back.lines.map { $0.baseline == nil } == page.lines.map { $0.baseline == nil })
  }
  // Quads: hOCR and PAGE keep whole pixels, ALTO two decimals.
  let tolerance = format == .alto ? 0.006 : 0.51
  if format != .tsv {
    for (w1, w2) in zip(page.words, back.words) {
      guard let q1 = w1.quad else {
        #expect(w2.quad == nil, "\(name) \(format): \(w2.text) got a quad")
        continue
      }
      guard let q2 = w2.quad else {
        if format == .alto || roundsToABox(q1, on: page) == nil {
          Issue.record(
            "\(name) \(format): \(w1.text) lost its quad", sourceLocation: sourceLocation)
        }
        continue
      }
      let worst = zip(q1.corners, q2.corners).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max()
      #expect(
        (worst ?? 0) <= tolerance, "\(name) \(format): \(w1.text) quad moved by \(worst ?? 0)")
    }
  }
  // Confidences: hOCR keeps whole percents, the others the model's two decimals.
  let confidenceTolerance = format == .hocr ? 0.5 : 0.005
  for (w1, w2) in zip(page.words, back.words) {
    if let c1 = w1.confidence, let c2 = w2.confidence {
      #expect(abs(c1 - c2) <= confidenceTolerance, "\(name) \(format): \(w1.text) confidence")
    } else {
      #expect(w1.confidence == nil && w2.confidence == nil)
    }
  }
}

@Suite("Standard formats on the sample and real pages")
struct StandardFormatTests {
  static let formats: [DocumentFormat] = [.hocr, .alto, .page, .tsv]

  @Test("Every recognised sample page round-trips", arguments: Fixtures.scanImages)
  func samplePageRoundTrips(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    for format in Self.formats {
      expectKept(page, try roundTrip(page, format), format, image)
    }
  }

  @Test("Every ground-truth page round-trips", arguments: Fixtures.scanImages)
  func truthRoundTrips(_ image: String) throws {
    let page = try Fixtures.truth(image)
    for format in Self.formats {
      expectKept(page, try roundTrip(page, format), format, image)
    }
  }

  @Test("ALTO and PAGE exports of every sample page validate against the official schemas")
  func exportsValidateAgainstSchemas() throws {
    guard ExternalCheckers.xmllint != nil, ExternalCheckers.schemas != nil else {
      print(ExternalCheckers.schemaAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var alto: [URL] = []
    var page: [URL] = []
    let generator = Generator(name: "scantext", version: "test")
    for image in Fixtures.scanImages {
      let document = Document(pages: [try RecognizedScans.page(image)])
      let a = folder.appendingPathComponent(Fixtures.stem(image) + ".alto.xml")
      try Data(DocumentFormat.alto.encode(document, generator: generator).utf8).write(to: a)
      alto.append(a)
      let p = folder.appendingPathComponent(Fixtures.stem(image) + ".page.xml")
      try Data(DocumentFormat.page.encode(document, generator: generator).utf8).write(to: p)
      page.append(p)
    }
    // Two pages in one ALTO file.
    let two = folder.appendingPathComponent("two.alto.xml")
    let pair = Document(pages: [
      try RecognizedScans.page("clean.png"),
      try RecognizedScans.page("skew-plus7.png").withIndex(1),
    ])
    try Data(DocumentFormat.alto.encode(pair, generator: generator).utf8).write(to: two)
    alto.append(two)
    #expect(try ExternalCheckers.validate(alto, schema: "alto-4-4.xsd") == "")
    #expect(try ExternalCheckers.validate(page, schema: "page-2019-07-15.xsd") == "")
  }

  @Test("hOCR exports pass hocr-check", arguments: Fixtures.scanImages)
  func hocrExportsPassHocrCheck(_ image: String) throws {
    guard ExternalCheckers.hocrCheck != nil else {
      print(ExternalCheckers.hocrAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(Fixtures.stem(image) + ".hocr")
    let document = Document(pages: [try RecognizedScans.page(image)])
    let text = try DocumentFormat.hocr.encode(
      document, generator: Generator(name: "scantext", version: "test"))
    try Data(text.utf8).write(to: file)
    // The axis-aligned boxes of tilted lines overlap their neighbours (as
    // the truth's do): on skewed pages hocr-check's line-overlap test fails
    // by nature, so that one test is allowed there (and on a photo in
    // perspective, whose lines tilt in the photo).
    let page = try RecognizedScans.page(image)
    var failures = try ExternalCheckers.checkHOCR(file)
    if page.skew != 0 || page.perspective != nil {
      failures = failures.split(separator: "\n").filter {
        !$0.hasSuffix("mostly_nonoverlapping/line")
      }
      .joined(separator: "\n")
    }
    #expect(failures == "", "\(image)")
  }

  @Test("The real ground truth (PAGE and ALTO v2) imports, verifies and round-trips")
  func realGroundTruth() throws {
    guard let folder = RealScans.folder else {
      print(RealScans.absentMessage)
      return
    }
    let pageURL = folder.appendingPathComponent("ocrd/kant-0017.page.xml")
    let altoURL = folder.appendingPathComponent("ocrd/kant-0017.alto.xml")
    let fromPAGE = try #require(
      try DocumentFormat.page.decode(Data(contentsOf: pageURL)).pages.first)
    let fromALTO = try #require(
      try DocumentFormat.alto.decode(Data(contentsOf: altoURL)).pages.first)
    #expect(fromPAGE.width == 1457 && fromPAGE.height == 2083)
    #expect(fromPAGE.words.count == 161)
    #expect(fromPAGE.lineCount == 24)
    #expect(fromPAGE.blocks.count == 11)
    #expect(fromPAGE.language == "deu")
    #expect(fromPAGE.text.hasPrefix("Berliniſche Monatsſchrift .\n\n1784 .\n"))
    // Region types become roles: five headings, the catch-word and the
    // signature mark are page furniture at the foot (footer).
    let roles = fromPAGE.blocks.flatMap { $0.paragraphs.map(\.role) }
    #expect(roles.filter { $0 == .heading }.count == 5)
    #expect(roles.filter { $0 == .footer }.count == 2)
    #expect(roles.filter { $0 == .body }.count == 4)
    // Both files hold the same transcription and the same word boxes.
    #expect(fromALTO.text == fromPAGE.text)
    #expect(fromALTO.words.map(\.bbox) == fromPAGE.words.map(\.bbox))
    let first = try #require(fromPAGE.words.first)
    #expect(first.bbox == PixelRect(minX: 114, minY: 368, maxX: 442, maxY: 437))
    for page in [fromPAGE, fromALTO] {
      let report = page.verify()
      #expect(report.violations.isEmpty, "\(report.violations.prefix(5))")
      for format in Self.formats {
        expectKept(page, try roundTrip(page, format), format, "kant-0017")
      }
    }
  }
}
