import ScanFormats
import ScanModel
import Testing

/// Every way a document can fail to decode names the JSON path and the reason.
@Suite struct DocumentDecodingErrorTests {
  static let good = DocumentJSON.value(
    of: DocumentJSONTests.goldenDocument, generator: Samples.generator)
  static let line: [JSONPathStep] = ["pages", 0, "blocks", 0, "paragraphs", 0, "lines", 0]
  static let linePath = "pages[0].blocks[0].paragraphs[0].lines[0]"

  /// Decodes `value` (through its JSON text) and returns the format error.
  func formatError(_ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation)
    -> DocumentFormatError?
  {
    #expect(throws: DocumentFormatError.self, sourceLocation: sourceLocation) {
      try DocumentJSON.decode(value)
    }
    // The text entry point reports the same error.
    return #expect(throws: DocumentFormatError.self, sourceLocation: sourceLocation) {
      try DocumentJSON.decode(value.serialized(pretty: true))
    }
  }

  @Test func rolesAndHeadingLevelsRoundTrip() throws {
    let paragraph: [JSONPathStep] = ["pages", 0, "blocks", 0, "paragraphs", 0]
    let heading = Self.good.setting(paragraph + ["role"], to: json(#""heading""#))
      .setting(paragraph + ["level"], to: json("3"))
    let decoded = try DocumentJSON.decode(heading)
    let p = try #require(decoded.pages.first?.blocks.first?.paragraphs.first)
    #expect(p.role == .heading)
    #expect(p.headingLevel == 3)
    #expect(DocumentJSON.value(of: decoded, generator: Samples.generator) == heading)
    // A heading without a level is level 1; a paragraph without a role is body.
    let bare = try DocumentJSON.decode(
      Self.good.setting(paragraph + ["role"], to: json(#""heading""#)).removing(
        paragraph + ["level"]))
    #expect(bare.pages.first?.blocks.first?.paragraphs.first?.headingLevel == 1)
    let plain = try DocumentJSON.decode(
      Self.good.removing(paragraph + ["role"]).removing(paragraph + ["level"]))
    #expect(plain.pages.first?.blocks.first?.paragraphs.first?.role == .body)
  }

  @Test func theUnmodifiedDocumentDecodes() throws {
    let decoded = try DocumentJSON.decode(Self.good)
    #expect(DocumentJSON.value(of: decoded, generator: Samples.generator) == Self.good)
  }

  @Test(arguments: [
    (Self.good.removing(["pages", 0, "width"]), "pages[0]", "missing key 'width'"),
    (Self.good.removing(["pages", 0, "height"]), "pages[0]", "missing key 'height'"),
    (Self.good.removing(["pages", 0, "blocks"]), "pages[0]", "missing key 'blocks'"),
    (Self.good.removing(["pages"]), "", "missing key 'pages'"),
    (Self.good.removing(["version"]), "", "missing key 'version'"),
    (
      Self.good.removing(["pages", 0, "blocks", 0, "paragraphs", 0, "bbox"]),
      "pages[0].blocks[0].paragraphs[0]", "missing key 'bbox'"
    ),
    (Self.good.removing(Self.line + ["words"]), Self.linePath, "missing key 'words'"),
    (
      Self.good.removing(Self.line + ["words", 1, "text"]), Self.linePath + ".words[1]",
      "missing key 'text'"
    ),
    (
      Self.good.removing(Self.line + ["words", 0, "glyphs", 1, "bbox"]),
      Self.linePath + ".words[0].glyphs[1]", "missing key 'bbox'"
    ),
  ])
  func missingKey(document: JSONValue, path: String, reason: String) throws {
    let error = try #require(formatError(document))
    #expect(error == DocumentFormatError(path: path, reason: reason))
    #expect(error.description == (path.isEmpty ? reason : "\(path): \(reason)"))
  }

  @Test(arguments: [
    (
      Self.good.setting(["pages", 0, "width"], to: json(#""wide""#)), "pages[0]",
      "'width' must be an integer"
    ),
    (
      Self.good.setting(["pages", 0, "height"], to: json("50.5")), "pages[0]",
      "'height' must be an integer"
    ),
    (
      Self.good.setting(["pages", 0, "index"], to: json("null")), "pages[0]",
      "'index' must be an integer"
    ),
    (
      Self.good.setting(["pages", 0, "skew"], to: json(#""0.5""#)), "pages[0]",
      "'skew' must be a number"
    ),
    (
      Self.good.setting(["pages", 0, "text"], to: json("7")), "pages[0]", "'text' must be a string"
    ),
    (Self.good.setting(["pages"], to: json("{}")), "", "'pages' must be an array"),
    (Self.good.setting(["pages", 0], to: json("[]")), "pages[0]", "expected an object"),
    (Self.good.setting(["version"], to: json(#""1""#)), "", "'version' must be an integer"),
    (json("[]"), "", "expected an object"),
    (
      Self.good.setting(["pages", 0, "blocks", 0], to: json("3")), "pages[0].blocks[0]",
      "expected an object"
    ),
    (
      Self.good.setting(Self.line + ["words"], to: json(#""Hi""#)), Self.linePath,
      "'words' must be an array"
    ),
    (
      Self.good.setting(Self.line + ["words", 0, "text"], to: json("5")),
      Self.linePath + ".words[0]", "'text' must be a string"
    ),
    (
      Self.good.setting(Self.line + ["words", 0, "confidence"], to: json(#""91""#)),
      Self.linePath + ".words[0]", "'confidence' must be a number"
    ),
    (
      Self.good.setting(Self.line + ["words", 0, "glyphs", 0, "confidence"], to: json("true")),
      Self.linePath + ".words[0].glyphs[0]", "'confidence' must be a number"
    ),
    // Out of the model's 0...100 (1e300 made the hOCR writer trap).
    (
      Self.good.setting(Self.line + ["words", 0, "confidence"], to: json("1e300")),
      Self.linePath + ".words[0]", "'confidence' must be a number from 0 to 100"
    ),
    (
      Self.good.setting(Self.line + ["words", 0, "glyphs", 0, "confidence"], to: json("-1")),
      Self.linePath + ".words[0].glyphs[0]", "'confidence' must be a number from 0 to 100"
    ),
    (
      Self.good.setting(Self.line + ["words", 0, "glyphs"], to: json("{}")),
      Self.linePath + ".words[0]", "'glyphs' must be an array"
    ),
    (
      Self.good.setting(Self.line + ["baseline"], to: json("[10, 36.5, 80]")),
      Self.linePath, "'baseline' must be an array of 4 numbers"
    ),
    (
      Self.good.setting(Self.line + ["baseline"], to: json(#"[10, 36.5, 80, "36"]"#)),
      Self.linePath, "'baseline' must be an array of 4 numbers"
    ),
    (
      Self.good.setting(
        Self.line + ["words", 1, "quad"], to: json("[[36, 18.5], [80, 18], [80, 40]]")),
      Self.linePath + ".words[1]", "'quad' must be four [x, y] points"
    ),
    (
      Self.good.setting(Self.line + ["words", 1, "quad", 2], to: json("[80, 40, 1]")),
      Self.linePath + ".words[1]", "'quad' must be an array of 2 numbers"
    ),
    (
      Self.good.setting(Self.line + ["range"], to: json(#""0-8""#)),
      Self.linePath, "'range' must be [start, end] integers"
    ),
    (
      Self.good.setting(["pages", 0, "blocks", 0, "paragraphs", 0, "role"], to: json(#""title""#)),
      "pages[0].blocks[0].paragraphs[0]",
      #"unknown role "title" (known: heading, body, caption, header, footer, pageNumber, footnote, listItem, marginalia, tableCell)"#
    ),
    (
      Self.good.removing(["pages", 0, "blocks", 0, "paragraphs", 0, "role"]),
      "pages[0].blocks[0].paragraphs[0]", #""level" without "role": "heading""#
    ),
    (
      Self.good.setting(["pages", 0, "blocks", 0, "paragraphs", 0, "role"], to: json(#""body""#))
        .setting(["pages", 0, "blocks", 0, "paragraphs", 0, "level"], to: json("2")),
      "pages[0].blocks[0].paragraphs[0]", #""level" is only for headings and list items"#
    ),
    (
      Self.good.setting(
        ["pages", 0, "blocks", 0, "paragraphs", 0, "role"], to: json(#""heading""#)
      )
      .setting(["pages", 0, "blocks", 0, "paragraphs", 0, "level"], to: json("7")),
      "pages[0].blocks[0].paragraphs[0]", "heading level 7 is not 1-6"
    ),
  ])
  func wrongType(document: JSONValue, path: String, reason: String) throws {
    let error = try #require(formatError(document))
    #expect(error == DocumentFormatError(path: path, reason: reason))
  }

  @Test(
    arguments: [
      (Self.line + ["words", 0, "bbox"], "[10, 20, 30]", Self.linePath + ".words[0]"),
      (Self.line + ["words", 0, "bbox"], "[10, 20, 30, 40, 50]", Self.linePath + ".words[0]"),
      (Self.line + ["words", 0, "bbox"], "[10, 20, 30.5, 40]", Self.linePath + ".words[0]"),
      (Self.line + ["words", 0, "bbox"], #""10 20 30 40""#, Self.linePath + ".words[0]"),
      (Self.line + ["bbox"], "[10, 18, 80]", Self.linePath),
      (["pages", 0, "blocks", 0, "bbox"], "[]", "pages[0].blocks[0]"),
      (
        Self.line + ["words", 0, "glyphs", 1, "bbox"], "[1, 2, 3]",
        Self.linePath + ".words[0].glyphs[1]"
      ),
    ] as [([JSONPathStep], String, String)])
  func malformedBox(at location: [JSONPathStep], box: String, path: String) throws {
    let error = try #require(formatError(Self.good.setting(location, to: json(box))))
    #expect(error.path == path)
    #expect(error.reason == "'bbox' must be [x0, y0, x1, y1] integers")
    #expect(error.description == "\(path): 'bbox' must be [x0, y0, x1, y1] integers")
  }

  @Test func invertedBox() throws {
    let error = try #require(
      formatError(
        Self.good.setting(Self.line + ["words", 1, "bbox"], to: json("[80, 18, 36, 40]"))))
    #expect(error.path == Self.linePath + ".words[1]")
    #expect(error.reason == "'bbox' [80, 18, 36, 40] has x1 < x0 or y1 < y0")
  }

  @Test(
    arguments: [
      (
        Self.line + ["words", 1, "range"], "[2, 8]", Self.linePath + ".words[1]", "[2, 8]", "[3, 8]"
      ),
      (Self.line + ["range"], "[0, 9]", Self.linePath, "[0, 9]", "[0, 8]"),
      (["pages", 0, "blocks", 0, "range"], "[1, 8]", "pages[0].blocks[0]", "[1, 8]", "[0, 8]"),
      (
        ["pages", 0, "blocks", 0, "paragraphs", 0, "range"], "[0, 10]",
        "pages[0].blocks[0].paragraphs[0]", "[0, 10]", "[0, 8]"
      ),
      (
        Self.line + ["words", 0, "glyphs", 1, "range"], "[0, 1]",
        Self.linePath + ".words[0].glyphs[1]", "[0, 1]", "[1, 2]"
      ),
    ] as [([JSONPathStep], String, String, String, String)])
  func rangeThatDoesNotMatchTheText(
    at location: [JSONPathStep], range: String, path: String, found: String, expected: String
  ) throws {
    let error = try #require(formatError(Self.good.setting(location, to: json(range))))
    #expect(error.path == path)
    #expect(error.reason == "'range' \(found) does not match the page text (expected \(expected))")
  }

  @Test func lineTextThatDoesNotMatchItsWords() throws {
    let error = try #require(
      formatError(Self.good.setting(Self.line + ["text"], to: .string("Hi there"))))
    #expect(error.path == Self.linePath)
    #expect(error.reason == #"'text' "Hi there" does not match its words "Hi thére""#)
    #expect(
      error.description
        == #"\#(Self.linePath): 'text' "Hi there" does not match its words "Hi thére""#)
  }

  @Test func pageTextThatDoesNotMatchItsWords() throws {
    let error = try #require(
      formatError(Self.good.setting(["pages", 0, "text"], to: .string("Hi thére\n\n"))))
    #expect(error.path == "pages[0]")
    #expect(error.reason == "'text' does not match the words joined as Tesseract joins them")
  }

  @Test func errorsNameTheRightPage() throws {
    let twoPages = Self.good.updating(["pages"]) { pages in
      .array((pages?.arrayValue ?? []) + (pages?.arrayValue ?? []))
    }
    #expect(try DocumentJSON.decode(twoPages).pages.count == 2)
    let error = try #require(
      formatError(
        twoPages.removing([
          "pages", 1, "blocks", 0, "paragraphs", 0, "lines", 0, "words", 0, "text",
        ])))
    #expect(error.path == "pages[1].blocks[0].paragraphs[0].lines[0].words[0]")
  }

  @Test(arguments: [2, 0, -1])
  func unsupportedVersion(version: Int) throws {
    let error = try #require(
      formatError(Self.good.setting(["version"], to: .number(Double(version)))))
    #expect(error.path == "")
    #expect(error.reason == "unsupported version \(version) (this tool reads version 1)")
    #expect(error.description == "unsupported version \(version) (this tool reads version 1)")
  }

  @Test(arguments: [
    (#"{"version": 1, "pages": [}"#, 25, "unexpected character"),
    (#"{"version": 1, "pages": []"#, 26, "unexpected end of input"),
    (#"{"version": 1, "pages": [],}"#, 27, "expected a key"),
    (#"{"version": 1 "pages": []}"#, 14, "expected ',' or '}'"),
    ("", 0, "unexpected end of input"),
    (#"{"version": 1, "pages": []} x"#, 28, "unexpected text after the value"),
    (#"{"version": 01}"#, 14, "leading zero in number"),
  ])
  func invalidJSON(text: String, offset: Int, reason: String) throws {
    let error = #expect(throws: JSONParseError.self) { try DocumentJSON.decode(text) }
    #expect(error?.reason == reason)
    #expect(error?.offset == offset)
    #expect(error?.description == "invalid JSON at byte \(offset): \(reason)")
  }

  @Test func invalidJSONOffsetIsInBytesNotCharacters() throws {
    // "é" is two UTF-8 bytes: the stray comma is at byte 6, character 5.
    let error = #expect(throws: JSONParseError.self) { try DocumentJSON.decode(#"["é",,]"#) }
    #expect(error?.offset == 6)
    let error2 = #expect(throws: JSONParseError.self) { try DocumentJSON.decode(#"["éé" x]"#) }
    #expect(error2?.offset == 8)
  }

  @Test func optionalMembersMayBeMissingOrNull() throws {
    // As in ground truth: no confidences, glyphs, quads, baselines, ranges,
    // text, dpi, image, orientation, skew, language or index.
    var value = Self.good
    for path: [JSONPathStep] in [
      ["pages", 0, "dpi"], ["pages", 0, "image"], ["pages", 0, "orientation"],
      ["pages", 0, "skew"],
      ["pages", 0, "language"], ["pages", 0, "text"], ["pages", 0, "index"],
      ["pages", 0, "blocks", 0, "range"],
      ["pages", 0, "blocks", 0, "paragraphs", 0, "range"], Self.line + ["range"],
      Self.line + ["text"],
      Self.line + ["baseline"], Self.line + ["words", 0, "glyphs"],
      Self.line + ["words", 0, "confidence"],
      Self.line + ["words", 1, "quad"], Self.line + ["words", 1, "range"], ["generator"],
    ] {
      value = value.removing(path)
    }
    let page = try #require(try DocumentJSON.decode(value).pages.first)
    #expect(page.text == "Hi thére\n")
    #expect(page.dpi == nil && page.image == nil && page.language == nil)
    #expect(page.orientation == 0 && page.skew == 0 && page.index == 0)
    #expect(page.words.map(\.confidence) == [nil, nil])
    #expect(page.words[0].glyphs.isEmpty)
    #expect(page.words[1].quad == nil)
    #expect(page.lines.first?.baseline == nil)

    var nulls = Self.good
    for path: [JSONPathStep] in [
      ["pages", 0, "dpi"], ["pages", 0, "image"], ["pages", 0, "skew"], ["pages", 0, "text"],
      Self.line + ["baseline"], Self.line + ["range"], Self.line + ["words", 0, "glyphs"],
      Self.line + ["words", 1, "quad"], Self.line + ["words", 0, "confidence"],
    ] {
      nulls = nulls.setting(path, to: .null)
    }
    let page2 = try #require(try DocumentJSON.decode(nulls).pages.first)
    #expect(page2.text == "Hi thére\n")
    #expect(page2.words[0].glyphs.isEmpty && page2.words[0].confidence == nil)
  }

  // MARK: Decoder bugs found by these tests, now fixed

  @Test func emptyChildrenAreRejectedNotATrap() async {
    await #expect(processExitsWith: .success) {
      let good = DocumentJSON.value(
        of: DocumentJSONTests.goldenDocument, generator: Samples.generator)
      let emptyParagraph = json(#"{"bbox": [0, 0, 1, 1], "lines": []}"#)
      let bad = good.updating(["pages", 0, "blocks", 0, "paragraphs"]) { paragraphs in
        .array([emptyParagraph] + (paragraphs?.arrayValue ?? []))
      }
      #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(bad) }
    }
  }

  @Test func wrongTypesOfOptionalPageMembersAreReported() {
    let page: [JSONPathStep] = ["pages", 0]
    let cases: [(JSONValue, String)] = [
      (Self.good.setting(page + ["dpi"], to: .string("300")), "'dpi' must be an integer"),
      (Self.good.setting(page + ["image"], to: .number(1)), "'image' must be a string"),
      (Self.good.setting(page + ["language"], to: .bool(true)), "'language' must be a string"),
      (
        Self.good.setting(page + ["orientation"], to: .number(45)),
        "'orientation' must be 0, 90, 180 or 270"
      ),
    ]
    for (document, reason) in cases {
      #expect(throws: DocumentFormatError(path: "pages[0]", reason: reason)) {
        try DocumentJSON.decode(document)
      }
    }
  }

  @Test func textMustMatchCodeUnitForCodeUnit() {
    // Ranges are UTF-16 offsets, so a canonically equivalent but differently
    // normalised text ("e" + U+0301 instead of "é") does not match them.
    let nfd = Self.good.setting(["pages", 0, "text"], to: .string("Hi the\u{301}re\n"))
    #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(nfd) }
  }
}
