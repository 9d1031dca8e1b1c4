import ScanFormats
import ScanModel
import Testing

/// Export and import of the ScanText JSON format.
@Suite struct DocumentJSONTests {
  // MARK: Round trip and determinism

  @Test func roundTrip() throws {
    let documents = [
      Samples.document, Document(pages: []), Document(pages: [Samples.emptyPage]),
      Document(pages: [Samples.rotatedPage, Samples.uprightPage]),
    ]
    for document in documents {
      let text = DocumentJSON.encode(document, generator: Samples.generator)
      let decoded = try DocumentJSON.decode(text)
      #expect(decoded == document)
      // Equal pages have equal text and ranges; check a few directly too.
      for (a, b) in zip(decoded.pages, document.pages) {
        #expect(a.text == b.text)
        #expect(a.words.map(\.range) == b.words.map(\.range))
        #expect(a.words.flatMap(\.glyphs).map(\.range) == b.words.flatMap(\.glyphs).map(\.range))
      }
      #expect(DocumentJSON.encode(decoded, generator: Samples.generator) == text)
    }
  }

  @Test func roundTripKeepsTheGenerator() throws {
    let value = DocumentJSON.value(of: Samples.document, generator: Samples.generator)
    #expect(DocumentJSON.generator(of: value) == Samples.generator)
    #expect(
      DocumentJSON.generator(of: try JSONValue(parsing: #"{"version": 1, "pages": []}"#)) == nil)
  }

  @Test func encodingIsDeterministic() throws {
    let a = DocumentJSON.encode(Samples.document, generator: Samples.generator)
    let b = DocumentJSON.encode(Samples.document, generator: Samples.generator)
    #expect(a == b)
    // Rebuilding the same document (fresh dictionaries, fresh hash seeds per
    // dictionary instance) gives the same text.
    let rebuilt = Document(pages: Samples.document.pages.map { $0 })
    #expect(DocumentJSON.encode(rebuilt, generator: Samples.generator) == a)
    #expect(a.hasSuffix("}\n"))
    #expect(!a.hasSuffix("\n\n"))
  }

  @Test func keysAreSorted() throws {
    let text = DocumentJSON.encode(Samples.document, generator: Samples.generator)
    // Within each object (a run of lines one level deeper than its opening
    // `{`), the keys come in sorted order.
    var keysAt: [Int: [String]] = [:]
    var count = 0
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      let depth = (line.count - trimmed.count) / 2
      if trimmed.hasPrefix("\""), let colon = trimmed.firstRange(of: "\": ") {
        let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<colon.lowerBound])
        if let last = keysAt[depth]?.last { #expect(last < key, "'\(last)' before '\(key)'") }
        keysAt[depth, default: []].append(key)
        count += 1
      }
      if trimmed.hasSuffix("{") { keysAt[depth + 1] = [] }
    }
    #expect(count > 100)
    #expect(text.contains(#""bbox": [100, 100, 160, 120],"#))
  }

  @Test func confidencesAndCoordinatesAreRoundedToTwoDecimals() throws {
    let word = Word(
      text: "ab", bbox: Samples.box(0, 0, 20, 10),
      quad: Samples.quad([(0.123, 0), (20.005, 0.994), (19.996, 10), (0, 10.001)]),
      confidence: 91.23456,
      glyphs: [
        Glyph(text: "a", bbox: Samples.box(0, 0, 9, 10), confidence: 99.999),
        Glyph(text: "b", bbox: Samples.box(10, 0, 20, 10), confidence: 0.004),
      ])
    let page = Page(
      width: 20, height: 10, skew: 0.3333333,
      blocks: [
        Block(
          bbox: Samples.box(0, 0, 20, 10),
          paragraphs: [
            Paragraph(
              bbox: Samples.box(0, 0, 20, 10),
              lines: [
                TextLine(
                  bbox: Samples.box(0, 0, 20, 10),
                  baseline: Samples.baseline(0.5, 8.125, 20, 8.8751), words: [word])
              ])
          ])
      ])
    let text = DocumentJSON.encode(Document(pages: [page]), generator: Samples.generator)
    #expect(text.contains(#""confidence": 91.23,"#))
    #expect(text.contains(#""confidence": 100,"#))
    #expect(text.contains(#""confidence": 0,"#))
    #expect(text.contains(#""skew": 0.33,"#))
    #expect(text.contains(#""baseline": [0.5, 8.13, 20, 8.88],"#))
    #expect(text.contains(#""quad": [[0.12,0], [20.01,0.99], [20,10], [0,10]],"#))
    #expect(!text.contains("91.234"))
    let decoded = try #require(try DocumentJSON.decode(text).pages.first?.words.first)
    #expect(decoded.confidence == 91.23)
    #expect(decoded.glyphs.map(\.confidence) == [100, 0])
    #expect(DocumentJSON.rounded(91.23456) == 91.23)
    #expect(DocumentJSON.rounded(-0.004) == 0)
  }

  // MARK: Golden output

  static var goldenDocument: Document {
    let hi = Word(
      text: "Hi", bbox: Samples.box(10, 20, 30, 40), confidence: 91.23456,
      glyphs: [
        Glyph(text: "H", bbox: Samples.box(10, 20, 19, 40), confidence: 95),
        Glyph(text: "i", bbox: Samples.box(21, 20, 30, 40), confidence: 87.5),
      ])
    let there = Word(
      text: "thére", bbox: Samples.box(36, 18, 80, 40),
      quad: Samples.quad([(36, 18.5), (80, 18), (80, 40), (36, 40.25)]), confidence: nil)
    let line = TextLine(
      bbox: Samples.box(10, 18, 80, 40), baseline: Samples.baseline(10, 36.5, 80, 36),
      words: [hi, there])
    let page = Page(
      index: 0, image: "tiny.png", width: 100, height: 50, dpi: 72, orientation: 0, skew: 0,
      language: "eng",
      blocks: [
        Block(
          bbox: Samples.box(10, 18, 80, 40),
          paragraphs: [
            Paragraph(
              bbox: Samples.box(10, 18, 80, 40), lines: [line], role: .heading, headingLevel: 2)
          ])
      ])
    return Document(pages: [page])
  }

  static let golden = #"""
    {
      "generator": {
        "name": "scantext",
        "tesseract": "5.3.0",
        "version": "0.1.0"
      },
      "pages": [
        {
          "blocks": [
            {
              "bbox": [10, 18, 80, 40],
              "paragraphs": [
                {
                  "bbox": [10, 18, 80, 40],
                  "level": 2,
                  "lines": [
                    {
                      "baseline": [10, 36.5, 80, 36],
                      "bbox": [10, 18, 80, 40],
                      "range": [0, 8],
                      "text": "Hi thére",
                      "words": [
                        {
                          "bbox": [10, 20, 30, 40],
                          "confidence": 91.23,
                          "glyphs": [
                            {
                              "bbox": [10, 20, 19, 40],
                              "confidence": 95,
                              "range": [0, 1],
                              "text": "H"
                            },
                            {
                              "bbox": [21, 20, 30, 40],
                              "confidence": 87.5,
                              "range": [1, 2],
                              "text": "i"
                            }
                          ],
                          "range": [0, 2],
                          "text": "Hi"
                        },
                        {
                          "bbox": [36, 18, 80, 40],
                          "confidence": null,
                          "glyphs": [],
                          "quad": [[36,18.5], [80,18], [80,40], [36,40.25]],
                          "range": [3, 8],
                          "text": "thére"
                        }
                      ]
                    }
                  ],
                  "range": [0, 8],
                  "role": "heading"
                }
              ],
              "range": [0, 8]
            }
          ],
          "dpi": 72,
          "height": 50,
          "image": "tiny.png",
          "index": 0,
          "language": "eng",
          "orientation": 0,
          "skew": 0,
          "text": "Hi thére\n",
          "width": 100
        }
      ],
      "version": 1
    }

    """#

  @Test func goldenOutput() throws {
    let text = DocumentJSON.encode(
      Self.goldenDocument,
      generator: Generator(name: "scantext", version: "0.1.0", details: ["tesseract": "5.3.0"]))
    #expect(text == Self.golden)
    if text != Self.golden {
      // Print the first difference to make a format change easy to review.
      let a = text.split(separator: "\n", omittingEmptySubsequences: false)
      let b = Self.golden.split(separator: "\n", omittingEmptySubsequences: false)
      if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
        Issue.record("line \(i + 1): got \(a[i]) expected \(b[i])")
      }
    }
    #expect(try DocumentJSON.decode(Self.golden).pages.first?.words.first?.confidence == 91.23)
  }
}

/// The page's provenance fields: where its words and resolution came from,
/// and the orientation tag its image had.
@Suite struct PageProvenanceJSONTests {
  /// A page's figures (regions that hold pictures) are written as
  /// `"figures"` and read back; a document without the member (every older
  /// one) reads as a page without figures and writes none.
  @Test func figuresRoundTripAndOldDocumentsReadWithout() throws {
    let plain = Samples.uprightPage()
    let figures = [
      Figure(bbox: PixelRect(minX: 10, minY: 20, maxX: 110, maxY: 90), alternativeText: "A ship"),
      Figure(
        bbox: PixelRect(minX: 0, minY: 100, maxX: 50, maxY: 150),
        quad: Quad(
          topLeft: Point(x: 2, y: 100), topRight: Point(x: 50, y: 104),
          bottomRight: Point(x: 48, y: 150), bottomLeft: Point(x: 0, y: 146))),
    ]
    let page = Page(
      width: plain.width, height: plain.height, dpi: plain.dpi, blocks: plain.blocks,
      figures: figures)
    let text = DocumentJSON.encode(Document(pages: [page]), generator: Samples.generator)
    #expect(text.contains(#""figures": ["#))
    #expect(text.contains(#""alt": "A ship""#))
    let decoded = try DocumentJSON.decode(text)
    #expect(decoded.pages.first?.figures == figures)
    #expect(decoded.pages == [page])
    let old = DocumentJSON.encode(Document(pages: [plain]), generator: Samples.generator)
    #expect(!old.contains(#""figures""#))
    #expect(try DocumentJSON.decode(old).pages.first?.figures == [])
  }

  @Test func sourceResolutionAndOrientationTagRoundTrip() throws {
    let page = Samples.uprightPage(source: .pdfText, dpiSource: .estimated, exifOrientation: 6)
    let text = DocumentJSON.encode(Document(pages: [page]), generator: Samples.generator)
    #expect(text.contains(#""source": "pdf-text""#))
    #expect(text.contains(#""dpiSource": "estimated""#))
    #expect(text.contains(#""exifOrientation": 6"#))
    let decoded = try DocumentJSON.decode(text)
    #expect(decoded.pages.first?.source == .pdfText)
    #expect(decoded.pages.first?.dpiSource == .estimated)
    #expect(decoded.pages.first?.exifOrientation == 6)
    #expect(decoded.pages == [page])
  }

  /// A page's typed steps go out as the strings pages have always
  /// written, and come back as records of the same step and decision.
  @Test func stepsRoundTripAsTheirStrings() throws {
    let steps = [
      StepRecord(.perspective, measurement: 4.2, decision: .twoPages, seconds: 0.1),
      StepRecord(.colour, measurement: 0.03, decision: .channel(0), seconds: 0.02),
      StepRecord(.illumination, decision: .contrastStretched),
      StepRecord(.rules, measurement: 36),
      StepRecord(.orientation, measurement: 2, decision: .turned(.detection)),
      StepRecord(.deskew, measurement: 1.8),
    ]
    let p = Samples.uprightPage
    let page = Page(
      index: p.index, image: p.image, width: p.width, height: p.height, dpi: p.dpi,
      orientation: 180, skew: p.skew, language: p.language, blocks: p.blocks, steps: steps)
    let json = DocumentJSON.value(of: Document(pages: [page]), generator: Samples.generator)
    let strings = [
      "perspective: two pages", "colour: red channel", "contrast", "rules", "orientation",
      "deskew",
    ]
    #expect(
      json["pages"]?.arrayValue?.first?["preprocessing"] == .array(strings.map(JSONValue.string)))
    let text = DocumentJSON.encode(Document(pages: [page]), generator: Samples.generator)
    let decoded = try #require(try DocumentJSON.decode(text).pages.first)
    #expect(decoded == page)
    #expect(decoded.preprocessing == page.preprocessing)
    #expect(
      decoded.steps == steps.map { StepRecord(recorded: $0.recorded) ?? StepRecord(.crop) })
    #expect(decoded.steps.allSatisfy { $0.measurement == nil && $0.seconds == nil })
  }

  @Test func aRecognisedPageWritesNoSource() throws {
    let text = DocumentJSON.encode(
      Document(pages: [Samples.uprightPage]), generator: Samples.generator)
    #expect(!text.contains(#""source""#))
    #expect(!text.contains(#""exifOrientation""#))
    #expect(try DocumentJSON.decode(text).pages.first?.source == .ocr)
  }

  @Test func badValuesAreRefusedWithTheirKey() throws {
    let good = DocumentJSON.encode(
      Document(pages: [Samples.uprightPage]), generator: Samples.generator)
    for (key, value, message) in [
      ("source", #""scanner""#, "'source' must be one of ocr, pdf-text"),
      ("dpiSource", #""guess""#, "'dpiSource' must be one of tag, estimated, option, pdf"),
      ("exifOrientation", "9", "'exifOrientation' must be between 1 and 8"),
      (
        "preprocessing", #"["deskew", "Sharpen: more"]"#,
        #"'preprocessing' holds "Sharpen: more", which is no preprocessing step's record"#
      ),
      ("preprocessing", "[1]", "'preprocessing' must hold strings"),
    ] {
      let bad = good.replacingOccurrences(
        of: #""index": 0,"#, with: #""index": 0, "\#(key)": \#(value),"#)
      #expect(bad != good)
      #expect(throws: (any Error).self) { try DocumentJSON.decode(bad) }
      do {
        _ = try DocumentJSON.decode(bad)
      } catch {
        #expect(String(describing: error).contains(message), "\(error)")
      }
    }
  }
}
