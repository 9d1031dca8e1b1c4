import Foundation
import ScanFormats
import ScanModel
import Testing

/// The exporter's output and the ground-truth files against
/// `Schemas/scantext-document.schema.json`.
@Suite struct DocumentSchemaTests {
  /// The schema with the keys the exporter always writes made required too
  /// (the published schema leaves them optional for ground-truth files).
  static func exportSchema() throws -> JSONValue {
    var schema = try PackageFiles.schema()
    let alsoRequired: [(String, [String])] = [
      ("block", ["range"]), ("paragraph", ["range"]), ("word", ["confidence", "glyphs"]),
      ("page", ["image", "orientation", "skew"]),
    ]
    for (def, keys) in alsoRequired {
      schema = schema.updating(["$defs", .key(def), "required"]) { old in
        .array((old?.arrayValue ?? []) + keys.map(JSONValue.string))
      }
    }
    // The exporter's generator only holds strings.
    schema = schema.setting(
      ["$defs", "generator", "additionalProperties"], to: json(#"{"type": "string"}"#)
    )
    .setting(["$defs", "generator", "properties", "version"], to: json(#"{"type": "string"}"#))
    return schema
  }

  func expectValid(
    _ value: JSONValue, _ validator: JSONSchemaValidator, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let errors = validator.validate(value)
    #expect(
      errors.isEmpty, "\(what): \(errors.prefix(5).map(\.description))",
      sourceLocation: sourceLocation)
  }

  /// A page read from a PDF: its `"pdf"` record.
  static let pdfPage = Samples.uprightPage(
    pdf: PDFPageSource(
      page: 3, width: 612, height: 792, pixelToPoint: [0.24, 0, 0, 0.240096, 0, 0],
      hasText: true, nativeImage: false))

  /// The `"pdf"` record reads back as written (six decimals in the map);
  /// a bad one is refused with its path.
  @Test func pdfSourceRoundTrips() throws {
    let text = DocumentJSON.encode(Document(pages: [Self.pdfPage]), generator: Samples.generator)
    #expect(text.contains("0.240096"))
    let decoded = try DocumentJSON.decode(text)
    #expect(decoded.pages.first?.pdf == Self.pdfPage.pdf)
    let bad = text.replacingOccurrences(
      of: #""page"\s*:\s*3"#, with: #""page": 0"#, options: .regularExpression)
    #expect(bad != text)
    #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(bad) }
    do {
      _ = try DocumentJSON.decode(bad)
    } catch {
      #expect(String(describing: error).contains("pages[0].pdf: 'page' must be 1 or more"))
    }
  }

  @Test func exportedDocumentsValidate() throws {
    let validator = try PackageFiles.validator()
    let strict = try JSONSchemaValidator(schema: Self.exportSchema())
    let documents: [(String, Document)] = [
      ("sample", Samples.document),
      ("upright", Document(pages: [Samples.uprightPage])),
      ("empty page", Document(pages: [Samples.emptyPage])),
      ("rotated", Document(pages: [Samples.rotatedPage])),
      ("no pages", Document(pages: [])),
      ("pdf page", Document(pages: [Self.pdfPage])),
    ]
    for (name, document) in documents {
      let text = DocumentJSON.encode(document, generator: Samples.generator)
      let value = try JSONValue(parsing: text)
      expectValid(value, validator, name)
      expectValid(value, strict, "\(name) (export profile)")
    }
  }

  @Test func theExportProfileIsStricter() throws {
    // Ground truth lacks confidences, glyphs and block ranges: it passes the
    // published schema but not the export profile, so the profile checks something.
    let strict = try JSONSchemaValidator(schema: Self.exportSchema())
    let file = try #require(try PackageFiles.truthFiles().first)
    let errors = strict.validate(try JSONValue(parsing: PackageFiles.text(of: file)))
    #expect(errors.contains { $0.reason == "missing required property 'confidence'" })
    #expect(errors.contains { $0.path == "/pages/0/blocks/0" && $0.reason.contains("'range'") })
    #expect(errors.contains { $0.path == "/generator/fonts" })
  }

  @Test func theSampleCoversWhatTheSchemaDescribes() throws {
    let value = DocumentJSON.value(of: Samples.document, generator: Samples.generator)
    let page0 = try #require(value.at(["pages", 0]))
    #expect(page0.at(["blocks"])?.arrayValue?.count == 2)
    #expect(page0.at(["blocks", 0, "paragraphs"])?.arrayValue?.count == 2)
    #expect(page0.at(["blocks", 0, "paragraphs", 0, "lines", 1, "baseline"]) == .null)
    #expect(
      page0.at(["blocks", 0, "paragraphs", 0, "lines", 0, "words", 0, "glyphs"])?.arrayValue?.count
        == 6)
    #expect(
      page0.at(["blocks", 0, "paragraphs", 1, "lines", 0, "words", 0, "confidence"]) == .null)
    #expect(value.at(["pages", 1, "dpi"]) == .null)
    #expect(value.at(["pages", 1, "image"]) == .null)
    #expect(value.at(["pages", 1, "blocks"]) == .array([]))
    #expect(value.at(["pages", 1, "language"]) == nil)
    #expect(
      value.at(["pages", 2, "blocks", 0, "paragraphs", 0, "lines", 0, "quad"])?.arrayValue?.count
        == 4)
    #expect(
      value.at(["pages", 2, "blocks", 0, "paragraphs", 0, "lines", 0, "words", 1, "quad"]) != nil)
    #expect(value.at(["pages", 0, "blocks", 0, "paragraphs", 0, "lines", 0, "quad"]) == nil)
  }

  @Test func schemaRejectsWhatTheExporterNeverWrites() throws {
    let validator = try PackageFiles.validator()
    let good = DocumentJSON.value(of: Samples.document, generator: Samples.generator)
    let line: [JSONPathStep] = ["pages", 0, "blocks", 0, "paragraphs", 0, "lines", 0]
    let word = line + ["words", 0]
    let cases: [(JSONValue, String, String)] = [
      (good.setting(["version"], to: json("2")), "/version", "2 is not the constant 1"),
      (good.removing(["generator"]), "", "missing required property 'generator'"),
      (good.setting(["generator", "name"], to: json("3")), "/generator/name", "expected string"),
      (good.removing(["pages", 0, "dpi"]), "/pages/0", "missing required property 'dpi'"),
      (
        good.setting(["pages", 0, "dpi"], to: json("299.5")), "/pages/0/dpi",
        "expected integer or null"
      ),
      (
        good.setting(["pages", 0, "orientation"], to: json("45")), "/pages/0/orientation",
        "is not one of"
      ),
      (
        good.setting(["pages", 0, "image"], to: json("1")), "/pages/0/image",
        "expected string or null"
      ),
      (good.setting(["pages", 0, "skew"], to: json(#""0""#)), "/pages/0/skew", "expected number"),
      (
        good.setting(["pages", 0, "blocks", 0, "bbox"], to: json("[1, 2, 3]")),
        "/pages/0/blocks/0/bbox", "at least 4"
      ),
      (
        good.setting(["pages", 0, "blocks", 0, "bbox"], to: json("[1, 2, 3, 4, 5]")),
        "/pages/0/blocks/0/bbox/4", "no item"
      ),
      (
        good.setting(line + ["bbox", 2], to: json("3.5")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/bbox/2", "expected integer"
      ),
      (
        good.setting(line + ["range"], to: json("[0]")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/range", "at least 2"
      ),
      (
        good.setting(line + ["range", 0], to: json("-1")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/range/0", "less than the minimum"
      ),
      (
        good.setting(line + ["baseline"], to: json("[1, 2, 3]")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/baseline", "at least 4"
      ),
      (
        good.removing(line + ["baseline"]), "/pages/0/blocks/0/paragraphs/0/lines/0",
        "missing required property 'baseline'"
      ),
      (
        good.setting(line + ["quad"], to: json("[[1, 2], [3, 4], [5, 6]]")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/quad", "at least 4"
      ),
      (
        good.setting(line + ["quad"], to: json("[[1, 2], [3, 4], [5, 6], [7]]")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/quad/3", "at least 2"
      ),
      (
        good.setting(line + ["words"], to: json("[]")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/words", "at least 1"
      ),
      (
        good.setting(word + ["confidence"], to: json("100.5")),
        "/pages/0/blocks/0/paragraphs/0/lines/0/words/0/confidence", "more than the maximum"
      ),
      (
        good.setting(word + ["confidence"], to: json(#""high""#)),
        "/pages/0/blocks/0/paragraphs/0/lines/0/words/0/confidence", "expected number or null"
      ),
      (
        good.removing(word + ["glyphs", 0, "confidence"]),
        "/pages/0/blocks/0/paragraphs/0/lines/0/words/0/glyphs/0",
        "missing required property 'confidence'"
      ),
      (
        good.setting(word + ["glyphs", 0, "text"], to: .null),
        "/pages/0/blocks/0/paragraphs/0/lines/0/words/0/glyphs/0/text", "expected string"
      ),
    ]
    for (bad, path, reason) in cases {
      let errors = validator.validate(bad)
      #expect(
        errors.contains { $0.path == path && $0.reason.contains(reason) },
        "expected '\(reason)' at '\(path)', got \(errors)")
    }
  }

  @Test func extraKeysAreAllowedEverywhere() throws {
    let validator = try PackageFiles.validator()
    var value = DocumentJSON.value(of: Samples.document, generator: Samples.generator)
    let line: [JSONPathStep] = ["pages", 2, "blocks", 0, "paragraphs", 0, "lines", 0]
    for path: [JSONPathStep] in [
      [], ["generator"], ["pages", 2], ["pages", 2, "blocks", 0],
      ["pages", 2, "blocks", 0, "paragraphs", 0],
      line, line + ["words", 0], line + ["words", 0, "glyphs", 0],
    ] {
      value = value.setting(path + ["x-note"], to: json(#"{"any": [1, null, "thing"]}"#))
    }
    #expect(validator.validate(value) == [])
    #expect(try DocumentJSON.decode(value) == Samples.document)
  }

  @Test func truthFilesValidateAndDecode() throws {
    let validator = try PackageFiles.validator()
    let files = try PackageFiles.truthFiles()
    #expect(files.count >= 20)
    for file in files {
      let text = try PackageFiles.text(of: file)
      let value = try JSONValue(parsing: text)
      expectValid(value, validator, file.lastPathComponent)
      let document = try DocumentJSON.decode(text)
      let page = try #require(document.pages.first, "\(file.lastPathComponent) has no page")
      #expect(document.pages.count == 1)
      #expect(page.text == value.at(["pages", 0, "text"])?.stringValue)
      #expect(!page.words.isEmpty)
      #expect(
        page.image == file.lastPathComponent.replacing(".truth.json", with: ".png")
          || page.image == file.lastPathComponent.replacing(".truth.json", with: ".jpg"))
      // Exporting the truth again gives a document that validates and reads back the same.
      let reexported = DocumentJSON.encode(document, generator: Samples.generator)
      expectValid(
        try JSONValue(parsing: reexported), validator, "\(file.lastPathComponent) re-exported")
      #expect(try DocumentJSON.decode(reexported) == document)
    }
  }
}
