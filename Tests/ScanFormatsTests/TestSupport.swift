import Foundation
import ScanFormats
import ScanModel
import Testing

/// Files of the package, found from this source file's path.
enum PackageFiles {
  /// The package root: three levels up from `Tests/ScanFormatsTests/TestSupport.swift`.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let schemaURL = root.appending(path: "Schemas/scantext-document.schema.json")

  static func text(of url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
  }

  /// The document schema, parsed.
  static func schema() throws -> JSONValue {
    try JSONValue(parsing: text(of: schemaURL))
  }

  /// A validator for the document schema.
  static func validator() throws -> JSONSchemaValidator {
    try JSONSchemaValidator(schema: schema())
  }

  /// The ground-truth documents `Scans/*.truth.json`, sorted by name.
  static func truthFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: root.appending(path: "Scans"), includingPropertiesForKeys: nil
    )
    .filter { $0.lastPathComponent.hasSuffix(".truth.json") }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }
}

/// A step in a path into a `JSONValue`: an object key or an array index.
enum JSONPathStep: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case key(String)
  case index(Int)
  init(stringLiteral value: String) { self = .key(value) }
  init(integerLiteral value: Int) { self = .index(value) }
}

extension JSONValue {
  /// The value with the member at `path` replaced by `change(old)`; a `nil`
  /// result removes the member. Paths that do not exist are left alone.
  func updating(_ path: [JSONPathStep], _ change: (JSONValue?) -> JSONValue?) -> JSONValue {
    updating(path[...], change)
  }

  private func updating(_ path: ArraySlice<JSONPathStep>, _ change: (JSONValue?) -> JSONValue?)
    -> JSONValue
  {
    guard let step = path.first else { return change(self) ?? .null }
    let rest = path.dropFirst()
    switch (self, step) {
    case (.object(var o), .key(let k)):
      o[k] = rest.isEmpty ? change(o[k]) : o[k]?.updating(rest, change)
      return .object(o)
    case (.array(var a), .index(let i)) where a.indices.contains(i):
      if !rest.isEmpty {
        a[i] = a[i].updating(rest, change)
      } else if let v = change(a[i]) {
        a[i] = v
      } else {
        a.remove(at: i)
      }
      return .array(a)
    default:
      return self
    }
  }

  func setting(_ path: [JSONPathStep], to value: JSONValue) -> JSONValue {
    updating(path) { _ in value }
  }

  func removing(_ path: [JSONPathStep]) -> JSONValue {
    updating(path) { _ in nil }
  }

  /// The value at `path`, if any.
  func at(_ path: [JSONPathStep]) -> JSONValue? {
    var node: JSONValue? = self
    for step in path {
      switch step {
      case .key(let k): node = node?[k]
      case .index(let i):
        guard let a = node?.arrayValue, a.indices.contains(i) else { return nil }
        node = a[i]
      }
    }
    return node
  }
}

/// SplitMix64: a small seeded generator so property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Hand-built documents covering what the exporter can write.
enum Samples {
  static let generator = Generator(
    name: "scantext", version: "0.1.0",
    details: ["tesseract": "5.3.0", "psm": "3"])

  static func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelRect {
    PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  static func quad(_ points: [(Double, Double)]) -> Quad {
    Quad(
      topLeft: Point(x: points[0].0, y: points[0].1),
      topRight: Point(x: points[1].0, y: points[1].1),
      bottomRight: Point(x: points[2].0, y: points[2].1),
      bottomLeft: Point(x: points[3].0, y: points[3].1))
  }

  static func baseline(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Baseline {
    Baseline(start: Point(x: x0, y: y0), end: Point(x: x1, y: y1))
  }

  /// Glyphs for each character of `text`, side by side from `x`, with the given confidences.
  static func glyphs(_ text: String, x: Int, y: Int, confidences: [Double?]) -> [Glyph] {
    text.enumerated().map { i, c in
      Glyph(
        text: String(c), bbox: box(x + 10 * i, y, x + 10 * i + 9, y + 20),
        confidence: confidences.indices.contains(i) ? confidences[i] : nil)
    }
  }

  /// An upright page: two blocks, several paragraphs, glyphs, Unicode text
  /// (emoji with modifiers, a flag, combining marks), a line without a
  /// baseline, a glyph whose text does not fit its word.
  static var uprightPage: Page { uprightPage() }

  /// ``uprightPage`` with the given provenance.
  static func uprightPage(
    pdf: PDFPageSource? = nil, source: PageTextSource = .ocr,
    dpiSource: ResolutionSource? = nil, exifOrientation: Int? = nil
  ) -> Page {
    let hello = Word(
      text: "Hello,", bbox: box(100, 100, 160, 120), confidence: 96.5,
      glyphs: glyphs("Hello,", x: 100, y: 100, confidences: [99, 98.25, 97, 96.5, 95.75, 90]))
    let world = Word(
      text: "wörld", bbox: box(170, 100, 220, 120), confidence: 88.12,
      glyphs: glyphs("wörld", x: 170, y: 100, confidences: [88, 87.5, nil, 89, 90]))
    let cafe = Word(
      text: "Cafe\u{301}", bbox: box(100, 130, 150, 150), confidence: 71.03,
      glyphs: glyphs("Cafe\u{301}", x: 100, y: 130, confidences: [70, 71, 72, 73]))
    let thumbs = Word(
      text: "👍🏽", bbox: box(160, 130, 180, 150), confidence: 0,
      glyphs: [Glyph(text: "👍🏽", bbox: box(160, 130, 180, 150), confidence: 0)])
    let flag = Word(text: "🇩🇪!", bbox: box(190, 130, 215, 150), confidence: 100)
    let paragraph1 = Paragraph(
      bbox: box(100, 100, 220, 150),
      lines: [
        TextLine(
          bbox: box(100, 100, 220, 120), baseline: baseline(100, 117.5, 220, 117.25),
          words: [hello, world]),
        TextLine(bbox: box(100, 130, 215, 150), baseline: nil, words: [cafe, thumbs, flag]),
      ])
    let quote = Word(
      text: "\"quoted\"\\tab\t", bbox: box(100, 200, 200, 220), confidence: nil)
    let paragraph2 = Paragraph(
      bbox: box(100, 200, 200, 220),
      lines: [TextLine(bbox: box(100, 200, 200, 220), words: [quote])])
    // The ligature glyph does not spell its word's text: it gets an empty range.
    let ligature = Word(
      text: "fish", bbox: box(600, 100, 640, 120), confidence: 93.4,
      glyphs: [
        Glyph(text: "ﬁ", bbox: box(600, 100, 615, 120), confidence: 60),
        Glyph(text: "s", bbox: box(616, 100, 627, 120), confidence: 95),
        Glyph(text: "h", bbox: box(628, 100, 640, 120), confidence: 95),
      ])
    let column2 = Block(
      bbox: box(600, 100, 640, 120),
      paragraphs: [
        Paragraph(
          bbox: box(600, 100, 640, 120),
          lines: [
            TextLine(
              bbox: box(600, 100, 640, 120), baseline: baseline(600, 118, 640, 118),
              words: [ligature])
          ])
      ])
    return Page(
      index: 0, image: "scan-001.png", width: 1000, height: 800, dpi: 300, orientation: 0,
      skew: 0.5, language: "eng+deu",
      blocks: [
        Block(bbox: box(100, 100, 220, 220), paragraphs: [paragraph1, paragraph2]), column2,
      ], pdf: pdf, source: source, dpiSource: dpiSource, exifOrientation: exifOrientation)
  }

  /// A page without any text, resolution or image name.
  static var emptyPage: Page {
    Page(index: 1, width: 640, height: 480, blocks: [])
  }

  /// A page whose content is turned 90° and skewed: lines and words carry quads.
  static var rotatedPage: Page {
    let w1 = Word(
      text: "Sideways", bbox: box(400, 100, 430, 260),
      quad: quad([(430, 100.5), (430.25, 260), (400, 259.75), (399.5, 100)]), confidence: 84.75,
      glyphs: glyphs("Sideways", x: 400, y: 100, confidences: [84, 85]))
    let w2 = Word(
      text: "text", bbox: box(400, 270, 430, 340),
      quad: quad([(430, 270), (430, 340), (400, 340), (400, 270)]), confidence: 12.5)
    let line = TextLine(
      bbox: box(399, 100, 431, 340),
      quad: quad([(430.5, 100), (431, 340), (399, 339.5), (399.25, 100.01)]),
      baseline: baseline(405.5, 100, 405, 340), words: [w1, w2])
    return Page(
      index: 2, image: "scan-003.tif", width: 600, height: 400, dpi: 150, orientation: 90,
      skew: -1.25, language: "eng",
      blocks: [
        Block(
          bbox: box(399, 100, 431, 340),
          paragraphs: [Paragraph(bbox: box(399, 100, 431, 340), lines: [line])])
      ])
  }

  static var document: Document { Document(pages: [uprightPage, emptyPage, rotatedPage]) }
}

/// Parses JSON text written in a test; records an issue when it is invalid.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
  do {
    return try JSONValue(parsing: text)
  } catch {
    Issue.record(error, "invalid JSON in the test", sourceLocation: sourceLocation)
    return .string("<invalid test JSON>")
  }
}
