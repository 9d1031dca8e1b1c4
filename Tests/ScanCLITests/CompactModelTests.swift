import Dispatch
import Foundation
import ScanModel
import ScanTestSupport
import Synchronization
import Testing

@testable import ScanFormats
@testable import ScanService

/// The compact model and paged documents (issue 32): byte-exact round trips
/// with JSON on every sample and real page, damaged files refused with the
/// page named, pages decoded on first use and bounded in memory, and the
/// JSON reader that indexes pages without parsing the whole file.
@Suite("Compact model")
struct CompactModelTests {
  static let generator = Generator(name: "scantext", version: "test", details: ["tesseract": "5"])

  /// A document of `pages` as the JSON `scantext` writes and as a compact
  /// model, both in a fresh folder.
  static func files(_ pages: [Page]) throws -> (json: String, stm: String) {
    let folder = try Fixtures.temporaryFolder()
    let document = Document(pages: pages.enumerated().map { $1.withIndex($0) })
    let json = folder.appendingPathComponent("doc.json").path
    let stm = folder.appendingPathComponent("doc.stm").path
    try Data(DocumentJSON.encode(document, generator: generator).utf8).write(
      to: URL(fileURLWithPath: json))
    try CompactModel.encode(document, generator: generator).write(to: URL(fileURLWithPath: stm))
    return (json, stm)
  }

  /// JSON → compact → JSON gives the same bytes, and the pages read back
  /// from either equal the pages written (doubles bit for bit).
  static func checkRoundTrip(_ pages: [Page], _ name: String) throws {
    let document = Document(pages: pages.enumerated().map { $1.withIndex($0) })
    let json = DocumentJSON.encode(document, generator: generator)
    let fromJSON = try DocumentJSON.decode(json)
    let compact = CompactModel.encode(fromJSON, generator: generator)
    let back = try CompactModel.decode(compact)
    #expect(back == fromJSON, "\(name)")
    #expect(DocumentJSON.encode(back, generator: generator) == json, "\(name): JSON bytes differ")
    // The unrounded pages too (the engine's, before any JSON).
    let direct = try CompactModel.decode(CompactModel.encode(document, generator: generator))
    #expect(direct == document, "\(name): a page read back differs from the page written")
    #expect(
      zip(direct.pages, document.pages).allSatisfy { a, b in
        a.words.map(\.quad) == b.words.map(\.quad) && a.skew.bitPattern == b.skew.bitPattern
      }, "\(name)")
    #expect(CompactModel.encode(back, generator: generator) == compact, "\(name): not stable")
  }

  @Test(arguments: Fixtures.scanImages)
  func samplePagesRoundTrip(_ image: String) throws {
    try Self.checkRoundTrip([try RecognizedScans.page(image)], image)
    try Self.checkRoundTrip([try Fixtures.truth(image)], image + " truth")
  }

  @Test(
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: RealScans.images)
  func realPagesRoundTrip(_ image: String) throws {
    try Self.checkRoundTrip(try RealScans.pages(image), image)
  }

  /// The command line: `convert` both ways gives the same bytes, and `ocr`
  /// writes the compact model `convert` makes from its JSON.
  /// A nested list's levels go through JSON (`"level"` beside role
  /// `listItem`, written from 2 on) and the compact model and come back.
  @Test func listLevelsRoundTrip() throws {
    func item(_ text: String, y: Int, level: Int) -> Paragraph {
      let box = PixelRect(minX: 10 + 20 * level, minY: y, maxX: 300, maxY: y + 20)
      return Paragraph(
        bbox: box, lines: [TextLine(bbox: box, words: [Word(text: text, bbox: box)])],
        role: .listItem, listLevel: level)
    }
    let paragraphs = [
      item("Ropes", y: 10, level: 1), item("long", y: 40, level: 2),
      item("short", y: 70, level: 3),
    ]
    let page = Page(
      width: 400, height: 200,
      blocks: [
        Block(bbox: PixelRect(minX: 0, minY: 0, maxX: 400, maxY: 100), paragraphs: paragraphs)
      ])
    try Self.checkRoundTrip([page], "nested list")
    let json = DocumentJSON.encode(Document(pages: [page]), generator: Self.generator)
    #expect(json.components(separatedBy: "\"level\"").count == 3)
    let back = try DocumentJSON.decode(json)
    #expect(back.pages[0].blocks[0].paragraphs.map(\.listLevel) == [1, 2, 3])
  }

  @Test func convertRoundTripsByteForByte() throws {
    let folder = try Fixtures.temporaryFolder()
    let images = ["clean.png", "headings.png", "skew-plus7.png"].map {
      Fixtures.scans.appendingPathComponent($0).path
    }
    let json = folder.appendingPathComponent("doc.json").path
    let stm = folder.appendingPathComponent("doc.stm").path
    let direct = folder.appendingPathComponent("direct.stm").path
    let back = folder.appendingPathComponent("back.json").path
    for arguments in [
      ["ocr"] + images + ["-o", json, "-q"], ["convert", json, stm], ["convert", stm, back],
      ["ocr"] + images + ["-o", direct, "-q"],
    ] {
      let run = try ScanTextRun.run(arguments)
      try #require(run.code == 0, "\(arguments): \(run.stderr)")
    }
    let jsonBytes = try Data(contentsOf: URL(fileURLWithPath: json))
    #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == jsonBytes)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: direct))
        == Data(contentsOf: URL(fileURLWithPath: stm)))
    let stmSize = try Data(contentsOf: URL(fileURLWithPath: stm)).count
    #expect(stmSize * 5 < jsonBytes.count, "compact \(stmSize) B, JSON \(jsonBytes.count) B")
    // Every command that takes a model takes it.
    let text = try ScanTextRun.run(["text", stm, "--pages", "2"])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(!text.stdout.isEmpty)
    let fromJSON = try ScanTextRun.run(["text", json, "--pages", "2"])
    #expect(text.stdout == fromJSON.stdout)
    let verify = try ScanTextRun.run(["verify", stm])
    #expect(verify.code == 0, "\(verify.stdout)\(verify.stderr)")
  }

  /// A page is decoded on first use, and no more than the bound are kept,
  /// the least recently used dropped first; the pages are those of the
  /// whole document, from any thread.
  @Test func pagesAreDecodedOnFirstUseAndBounded() throws {
    let pages = try ["clean.png", "headings.png", "article.png", "two-columns.png"].map {
      try RecognizedScans.page($0)
    }
    let (json, stm) = try Self.files(pages)
    let whole = try DocumentJSON.decode(String(contentsOfFile: json, encoding: .utf8))
    for path in [json, stm] {
      let document = try Document.open(path: path, maxPagesInMemory: 2)
      #expect(document.pageCount == 4)
      #expect(document.pagesInMemory == 0)
      #expect(document.generator == Self.generator)
      #expect(try document.page(at: 2) == whole.pages[2])
      #expect(document.pagesInMemory == 1)
      _ = try document.page(at: 0)
      _ = try document.page(at: 2)
      _ = try document.page(at: 3)
      #expect(document.pagesInMemory == 2)
      #expect(try document.document() == whole)
      let mismatches = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 64) { i in
        let n = (i * 7) % 4
        if (try? document.page(at: n)) != whole.pages[n] {
          mismatches.add(1, ordering: .relaxed)
        }
      }
      #expect(mismatches.load(ordering: .relaxed) == 0, "\(path)")
      #expect(document.pagesInMemory <= 2)
      #expect(throws: DocumentFormatError.self) { try document.page(at: 4) }
    }
  }

  /// Every truncation and every changed byte of a compact model is an
  /// error (never a crash, never a document that differs from the one
  /// written); a change inside a page names that page, and the others
  /// still read.
  @Test func damagedFilesAreRefusedNamingThePage() throws {
    let pages = try ["clean.png", "headings.png"].map { try RecognizedScans.page($0) }
    let document = Document(pages: pages.enumerated().map { $1.withIndex($0) })
    let bytes = [UInt8](CompactModel.encode(document, generator: Self.generator))
    let original = try CompactModel.decode(Data(bytes))
    for cut in stride(from: 0, to: bytes.count, by: 13) {
      #expect(throws: (any Error).self, "cut at \(cut)") {
        try CompactModel.decode(Data(bytes[..<cut]))
      }
    }
    var namedPages = Set<String>()
    for position in stride(from: 0, to: bytes.count, by: 3) {
      var changed = bytes
      changed[position] ^= 0x5A
      do {
        let read = try CompactModel.decode(Data(changed))
        Issue.record("a change at byte \(position) was read: same=\(read == original)")
      } catch let error as DocumentFormatError {
        if error.path.hasPrefix("page ") {
          namedPages.insert(error.path)
          #expect(error.reason.contains("checksum"), "\(error)")
        }
      }
    }
    #expect(namedPages == ["page 1", "page 2"])
    // Opened page by page, the undamaged page still reads.
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("damaged.stm").path
    var changed = bytes
    let header = CompactModel.header(generator: Self.generator).count
    changed[header + 40] ^= 0x01
    try Data(changed).write(to: URL(fileURLWithPath: path))
    let paged = try PagedDocument.open(path: path)
    #expect(throws: DocumentFormatError.self) { try paged.page(at: 0) }
    #expect(try paged.page(at: 1) == original.pages[1])
    let run = try ScanTextRun.run(["text", path])
    #expect(run.code != 0)
    #expect(run.stderr.contains("damaged.stm") && run.stderr.contains("page 1"), "\(run.stderr)")
    #expect(run.stderr.contains("checksum"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    let second = try ScanTextRun.run(["text", path, "--pages", "2"])
    #expect(second.code == 0, "\(second.stderr)")
    #expect(second.stdout == original.pages[1].text)
  }

  /// A file of another version is refused with both versions named, and
  /// a truncated one says so; neither crashes the command.
  @Test func otherVersionsAndTruncatedFilesAreRefused() throws {
    let page = try RecognizedScans.page("clean.png")
    var bytes = [UInt8](CompactModel.encode(Document(pages: [page]), generator: Self.generator))
    let folder = try Fixtures.temporaryFolder()
    let truncated = folder.appendingPathComponent("truncated.stm").path
    try Data(bytes.dropLast(100)).write(to: URL(fileURLWithPath: truncated))
    bytes[8] = 2
    let later = folder.appendingPathComponent("later.stm").path
    try Data(bytes).write(to: URL(fileURLWithPath: later))
    let notCompact = folder.appendingPathComponent("text.stm").path
    try Data("hello".utf8).write(to: URL(fileURLWithPath: notCompact))
    for (path, message) in [
      (later, "compact model version 2; this scantext reads version 1"),
      (truncated, "truncated"), (notCompact, "not a compact ScanText model"),
    ] {
      for command in [["text", path], ["query", path]] {
        let run = try ScanTextRun.run(command, stdin: "{\"op\":\"pages\"}\n")
        #expect(run.code != 0, "\(command)")
        #expect(run.stderr.contains(path) && run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(command): \(run.stdout)")
      }
    }
  }

  /// `query` opens a model without reading its pages: a damaged page is
  /// an error answer naming it, and the session goes on.
  @Test func queryAnswersPageByPage() throws {
    let pages = try ["clean.png", "headings.png"].map { try RecognizedScans.page($0) }
    let (_, stm) = try Self.files(pages)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stm)))
    bytes[CompactModel.header(generator: Self.generator).count + 10] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: stm))
    let run = try ScanTextRun.run(
      ["query", stm, "--max-pages-in-memory", "1"],
      stdin: """
        {"op":"pages"}
        {"op":"text","page":0}
        {"op":"text","page":1,"range":[0,9]}
        {"op":"text","page":2}

        """)
    #expect(run.code == 0, "\(run.stderr)")
    let answers = run.stdout.split(separator: "\n").map(String.init)
    try #require(answers.count == 4, "\(run.stdout)")
    #expect(answers[0] == "{\"pages\":2}")
    #expect(answers[1].contains("page 1") && answers[1].contains("checksum"), "\(answers[1])")
    let expected = String(pages[1].text.utf16.prefix(9)) ?? ""
    #expect(answers[2] == "{\"text\":\"\(expected)\"}")
    #expect(answers[3].contains("there is no page 2"))
    let bad = try ScanTextRun.run(["query", stm, "--max-pages-in-memory", "0"], stdin: "")
    #expect(bad.code == 64 && bad.stderr.contains("at least 1"), "\(bad.stderr)")
  }

  /// The JSON reader finds the pages without parsing the document whole:
  /// members in any order, strings holding brackets, quotes and escapes,
  /// and reads each page as the whole-document reader does; structure
  /// errors around the pages are refused at once, errors inside a page
  /// name it when it is read.
  @Test func jsonPagesAreFoundWithoutParsingTheWhole() throws {
    let page = Page(
      width: 100, height: 50,
      blocks: [
        Block(
          bbox: PixelRect(minX: 0, minY: 0, maxX: 90, maxY: 20),
          paragraphs: [
            Paragraph(
              bbox: PixelRect(minX: 0, minY: 0, maxX: 90, maxY: 20),
              lines: [
                TextLine(
                  bbox: PixelRect(minX: 0, minY: 0, maxX: 90, maxY: 20),
                  words: [
                    Word(text: "[{\"}]\\", bbox: PixelRect(minX: 0, minY: 0, maxX: 40, maxY: 20)),
                    Word(text: "é😀", bbox: PixelRect(minX: 50, minY: 0, maxX: 90, maxY: 20)),
                  ])
              ])
          ])
      ])
    let pageJSON = DocumentJSON.value(of: page.withIndex(0)).serialized()
    let page1JSON = DocumentJSON.value(of: page.withIndex(1)).serialized()
    let folder = try Fixtures.temporaryFolder()
    func open(_ text: String) throws -> PagedDocument {
      let path = folder.appendingPathComponent("\(UUID().uuidString).json").path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return try PagedDocument.open(path: path)
    }
    let reordered = try open(
      " {\"pages\" : [ \(pageJSON) ,\n\(page1JSON)], \"note\": \"]}[{\\\"\", \"version\": 1}\n")
    #expect(reordered.pageCount == 2)
    #expect(try reordered.page(at: 1).text == "[{\"}]\\ é😀\n")
    let whole = try DocumentJSON.decode(
      "{\"pages\": [\(pageJSON), \(page1JSON)], \"version\": 1}")
    #expect(try reordered.document() == whole)
    #expect(try open("{\"version\": 1, \"pages\": []}").pageCount == 0)
    for (bad, reason) in [
      ("{\"version\": 2, \"pages\": []}", "unsupported version 2"),
      ("{\"pages\": []}", "missing key 'version'"),
      ("{\"version\": 1}", "missing key 'pages'"),
      ("{\"version\": 1, \"pages\": [] , \"pages\": []}", "repeated"),
      ("{\"version\": 1, \"pages\": [\(pageJSON)]} x", "unexpected text after the value"),
      ("{\"version\": 1, \"pages\": [\(pageJSON)", "unexpected end of input"),
      ("{\"version\": 1, \"pages\": [\(pageJSON) \(pageJSON)]}", "expected ',' or ']'"),
      ("[1]", "a ScanText document is a JSON object"),
    ] {
      #expect(throws: DocumentFormatError.self, "\(bad)") { try open(bad) }
      do {
        _ = try open(bad)
      } catch {
        #expect("\(error)".contains(reason), "\(error)")
      }
    }
    let damaged = try open(
      "{\"version\": 1, \"pages\": [\(pageJSON), {\"width\": 1, \"height\": tru}]}")
    #expect(try damaged.page(at: 0).text == whole.pages[0].text)
    do {
      _ = try damaged.page(at: 1)
      Issue.record("a damaged page was read")
    } catch {
      #expect("\(error)".hasPrefix("pages[1]: invalid JSON"), "\(error)")
    }
  }
}

extension CompactModelTests {
  /// The JSON reader reads the file a block at a time: a string, an escape
  /// or a page cut by a block's end reads the same whatever the block's
  /// size (a 2.3 GB document once ended early at a string that a block
  /// cut right after its last escaped quote).
  @Test func jsonPagesAreFoundWhateverTheBlockSize() throws {
    var pages: [Page] = []
    for (n, text) in ["a\\\"b", "\\\\", "\"]}", "x\\\\\"y", "plain"].enumerated() {
      let box = PixelRect(minX: 0, minY: 0, maxX: 10 + n, maxY: 10)
      pages.append(
        Page(
          index: n, width: 20, height: 20,
          blocks: [
            Block(
              bbox: box,
              paragraphs: [
                Paragraph(
                  bbox: box, lines: [TextLine(bbox: box, words: [Word(text: text, bbox: box)])])
              ])
          ]))
    }
    let json = DocumentJSON.encode(Document(pages: pages), generator: Self.generator)
    let data = Data(json.utf8)
    let whole = try DocumentJSON.decode(json)
    for blockSize in 1...97 {
      let index = try DocumentJSON.PageIndex(DataBytes(data), blockSize: blockSize)
      let read = try index.pages.enumerated().map {
        try DocumentJSON.page($0, of: DataBytes(data), span: $1)
      }
      #expect(read == whole.pages, "block size \(blockSize)")
    }
  }
}

extension CompactModelTests {
  /// The `model` op gives a page's model as the JSON format holds it, the
  /// same from a compact model as from the JSON file.
  @Test func modelOpGivesThePageAsTheJSONHoldsIt() throws {
    let pages = try ["clean.png", "headings.png"].map { try RecognizedScans.page($0) }
    let (json, stm) = try Self.files(pages)
    let file = try JSONValue(parsing: String(contentsOfFile: json, encoding: .utf8))
    for path in [json, stm] {
      let run = try ScanTextRun.run(["query", path], stdin: "{\"op\":\"model\",\"page\":1}\n")
      #expect(run.code == 0, "\(run.stderr)")
      let answer = try JSONValue(parsing: run.stdout)
      #expect(answer["page"] == file["pages"]?.arrayValue?[1], "\(path)")
    }
  }
}

extension CompactModelTests {
  /// A page's figures (box, outline, alternative text) survive both ways.
  @Test func figuresRoundTrip() throws {
    let box = PixelRect(minX: 10, minY: 10, maxX: 60, maxY: 30)
    let line = TextLine(bbox: box, words: [Word(text: "Fig.", bbox: box)])
    let page = Page(
      width: 200, height: 200,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])],
      figures: [
        Figure(bbox: PixelRect(minX: 10, minY: 40, maxX: 190, maxY: 190)),
        Figure(
          bbox: PixelRect(minX: 0, minY: 0, maxX: 5, maxY: 5),
          quad: Quad(
            topLeft: Point(x: 0.5, y: 0), topRight: Point(x: 5, y: 0.25),
            bottomRight: Point(x: 4.75, y: 5), bottomLeft: Point(x: 0, y: 4.5)),
          alternativeText: "A woodcut: the town library"),
      ])
    try Self.checkRoundTrip([page], "figures")
    let back = try CompactModel.decode(
      CompactModel.encode(Document(pages: [page]), generator: Self.generator))
    #expect(back.pages.first?.figures == page.figures)
  }
}

extension CompactModelTests {
  /// JSON on standard input (and in the cache) is read a page at a time
  /// too: the same pages as from the file, and an error inside a page
  /// names it.
  @Test func jsonOnStandardInputIsReadPageByPage() throws {
    let pages = try ["clean.png", "headings.png"].map { try RecognizedScans.page($0) }
    let (json, _) = try Self.files(pages)
    let text = try String(contentsOfFile: json, encoding: .utf8)
    let fromFile = try ScanTextRun.run(["text", json])
    let fromInput = try ScanTextRun.run(["text", "-"], stdin: text)
    #expect(fromInput.code == 0, "\(fromInput.stderr)")
    #expect(fromInput.stdout == fromFile.stdout && !fromFile.stdout.isEmpty)
    #expect(
      try DocumentJSON.decodePageByPage(Data(text.utf8)) == DocumentJSON.decode(Data(text.utf8)))
    let damaged = text.replacingOccurrences(of: "\"width\"", with: "\"width\": tru, \"w\"")
    let run = try ScanTextRun.run(["text", "-"], stdin: damaged)
    #expect(run.code != 0)
    #expect(run.stderr.contains("pages[0]: invalid JSON"), "\(run.stderr)")
  }
}
