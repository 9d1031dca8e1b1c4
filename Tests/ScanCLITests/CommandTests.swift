import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// Runs the command in-process and captures its output.
func scantext(_ arguments: [String], input: [String] = []) -> (
  code: Int32, stdout: String, stderr: String
) {
  let captured = CapturedIO(input: input)
  let code = ScanText.main(arguments, io: captured.io)
  return (code, captured.stdout, captured.stderr)
}

/// A ScanText JSON document of the clean sample scan, written once.
enum CleanModel {
  static let path: String = {
    let folder = (try? Fixtures.temporaryFolder()) ?? FileManager.default.temporaryDirectory
    let url = folder.appendingPathComponent("clean.json")
    if let page = try? RecognizedScans.page("clean.png") {
      let json = DocumentJSON.encode(Document(pages: [page]), generator: ScanText.generator)
      try? json.write(to: url, atomically: true, encoding: .utf8)
    }
    return url.path
  }()

  static var page: Page {
    get throws { try RecognizedScans.page("clean.png") }
  }
}

@Suite("Commands")
struct CommandTests {
  @Test func helpAndVersion() {
    let help = scantext(["--help"])
    #expect(help.code == 0)
    #expect(help.stdout.hasPrefix("OVERVIEW: Turn scanned pages into text"))
    for sub in ["ocr", "text", "rects", "hit", "boundary", "lines", "query", "verify", "eval"] {
      #expect(help.stdout.contains("\n  \(sub) "), "root help lists \(sub)")
      let subHelp = scantext([sub, "--help"])
      #expect(subHelp.code == 0)
      #expect(subHelp.stdout.contains("USAGE: scantext \(sub)"))
    }
    let version = scantext(["--version"])
    #expect(version.code == 0)
    // The version, then the libraries loaded (CommandLineFormTests).
    #expect(version.stdout.hasPrefix("\(ScanText.version)\ntesseract "))
    #expect(CommandLineTool.lint(ScanText.self).isEmpty)
  }

  /// Every command reads and checks all its arguments before it touches a
  /// file: a bad value is a usage error even when the output cannot be
  /// written or the model is missing.
  @Test func argumentsAreCheckedBeforeAnyFile() {
    let missing = "/nonexistent-dir/missing.json"
    let unwritable = "/nonexistent-dir/out"
    for arguments in [
      ["convert", missing, unwritable + ".json", "--psm", "99"],
      ["draw", missing, "-o", unwritable + ".png", "--psm", "99"],
      ["draw", missing, "-o", unwritable + ".png", "--pages", "0"],
      ["draw", missing, "-o", unwritable + ".png", "--page", "1"],
      ["ocr", missing, "-o", unwritable + ".docx"],
      ["ocr", missing, "-o", unwritable + ".json", "--timeout", "0"],
      ["ocr", missing, "-o", unwritable + ".json", "--page-threads", "0"],
      ["text", missing, "--dpi", "0"],
      ["eval", missing, "--truth", missing, "--lang", "eng+"],
      ["verify", missing, "--max-pixels", "0"],
      ["query", missing, "--psm", "14"],
    ] {
      let result = scantext(arguments)
      #expect(result.code == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("\nUsage: scantext \(arguments[0])"), "\(arguments)")
    }
  }

  @Test func usageErrorsExit64() {
    let unknown = scantext(["ocr", "--frobnicate", "x.png"])
    #expect(unknown.code == 64)
    #expect(unknown.stderr.hasPrefix("Error: Unknown option '--frobnicate'"))
    #expect(unknown.stderr.contains("\nUsage: scantext ocr [<options>] <images> ..."))
    #expect(unknown.stderr.contains("See 'scantext ocr --help' for more information."))
    #expect(scantext(["ocr"]).code == 64)
    #expect(scantext(["frob"]).code == 64)
    #expect(
      scantext(["ocr", "x.png", "--psm", "99"]).stderr.hasPrefix(
        "Error: '--psm' must be between 0 and 13"))
    #expect(
      scantext(["ocr", "x.png", "--page-threads", "0"]).stderr.hasPrefix(
        "Error: '--page-threads' must be 1 or more"))
    #expect(scantext(["ocr", "x.png", "--psm", "abc"]).code == 64)
    #expect(scantext(["text", "m.json", "--range", "5:2"]).code == 64)
    #expect(scantext(["text", "m.json", "--range", "1:2", "--line", "3"]).code == 64)
    #expect(scantext(["hit", "m.json", "--point", "1"]).code == 64)
    #expect(
      scantext(["boundary", "m.json", "--position", "1", "--granularity", "phrase"]).code == 64)
  }

  @Test func textOfRangesRectsAndLines() throws {
    let page = try CleanModel.page
    let model = CleanModel.path
    #expect(scantext(["text", model]).stdout == page.text)
    let range = scantext(["text", model, "--range", "4:11"])
    #expect(range.code == 0)
    #expect(range.stdout == (page.text(in: TextRange(offsets: 4..<11)) ?? "") + "\n")
    let line = try #require(page.line(number: 2))
    #expect(scantext(["text", model, "--line", "2"]).stdout == line.text + "\n")
    let b = line.bbox
    #expect(
      scantext(["text", model, "--rect", "\(b.minX),\(b.minY),\(b.maxX),\(b.maxY)"]).stdout == line
        .text + "\n")
  }

  @Test func outOfRangeInputIsAnErrorNotAClamp() throws {
    let model = CleanModel.path
    let end = try CleanModel.page.endPosition.offset
    let past = scantext(["text", model, "--range", "0:\(end + 1)"])
    #expect(past.code == 1)
    #expect(past.stderr == "Error: range 0:\(end + 1) is outside the page text (0:\(end))\n")
    #expect(
      scantext(["text", model, "--line", "999"]).stderr.hasPrefix("Error: there is no line 999"))
    #expect(scantext(["rects", model, "--range", "0:\(end + 5)"]).code == 1)
    #expect(
      scantext(["boundary", model, "--position", "\(end + 1)", "--granularity", "word"]).code == 1)
    let page = scantext(["lines", model, "--pages", "3"])
    #expect(page.code == 1)
    #expect(
      page.stderr == "Error: \(model): --pages asks for page 3, but the document has 1 page\n")
  }

  @Test func rectsHitBoundaryAndLinesAreJSON() throws {
    let page = try CleanModel.page
    let model = CleanModel.path
    let line = try #require(page.line(number: 0))
    let rects = try JSONValue(
      parsing: scantext([
        "rects", model, "--range",
        "\(line.range.lowerBound.offset):\(line.range.upperBound.offset)",
      ]).stdout)
    let first = try #require(rects["rects"]?.arrayValue?.first)
    #expect(first["bbox"] == DocumentJSON.box(line.bbox.rect))
    #expect(first["containsStart"] == .bool(true))
    #expect(first["quad"]?.arrayValue?.count == 4)

    let word = try #require(line.words.first)
    let c = word.bbox.center
    let hit = try JSONValue(parsing: scantext(["hit", model, "--point", "\(c.x),\(c.y)"]).stdout)
    #expect(hit["word"]?["text"] == .string(word.text))
    #expect(hit["line"] == .number(0))

    let boundary = try JSONValue(
      parsing: scantext(["boundary", model, "--position", "1", "--granularity", "word"]).stdout)
    #expect(boundary["enclosing"] == DocumentJSON.range(TextRange(offsets: 0..<3)))
    #expect(boundary["position"] == .number(3))
    #expect(boundary["withinUnit"] == .bool(true))

    let lines = try JSONValue(parsing: scantext(["lines", model]).stdout)
    #expect(lines["lines"]?.arrayValue?.count == page.lineCount)
    #expect(lines["lines"]?.arrayValue?.first?["text"] == .string(line.text))
  }

  @Test(
    "Selection rects and lines of a curved line carry its polygon",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func curvedLinesAnswerWithPolygons() throws {
    let page = try #require(try RealScans.pages("ocrd/boston-cooking-a.jpg").first)
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = folder.appendingPathComponent("boston.json")
    try DocumentJSON.encode(Document(pages: [page]), generator: ScanText.generator)
      .write(to: model, atomically: true, encoding: .utf8)
    let line = try #require(page.line(number: 5))
    let word = line.words[2]
    let rects = try JSONValue(
      parsing: scantext([
        "rects", model.path, "--range",
        "\(word.range.lowerBound.offset):\(word.range.upperBound.offset)",
      ]).stdout)
    let rect = try #require(rects["rects"]?.arrayValue?.first)
    let polygon = try #require(page.selectionRects(for: word.range).first?.polygon)
    #expect(rect["polygon"] == DocumentJSON.points(polygon))
    #expect((rect["polygon"]?.arrayValue?.count ?? 0) >= 4)
    let lines = try JSONValue(parsing: scantext(["lines", model.path]).stdout)
    let entry = try #require(lines["lines"]?.arrayValue?[5])
    #expect(entry["polygon"] == DocumentJSON.points(try #require(line.polygon)))
  }

  /// Each answer has one JSON shape: a single-shot command prints what the
  /// query protocol answers to the same request.
  @Test func singleShotCommandsAnswerAsTheProtocol() throws {
    let page = try CleanModel.page
    let model = CleanModel.path
    let c = try #require(page.line(number: 1)?.words.first).bbox.center
    var pairs: [([String], String)] = [
      (["rects", model, "--range", "2:30"], #"{"op":"rects","range":[2,30]}"#),
      (["hit", model, "--point", "\(c.x),\(c.y)"], "{\"op\":\"hit\",\"point\":[\(c.x),\(c.y)]}"),
      (["lines", model], #"{"op":"lines"}"#),
    ]
    for granularity in ["character", "word", "sentence", "line", "paragraph", "document"] {
      for direction in ["forward", "backward"] {
        for position in [0, 1, 3, 4, 40, page.endPosition.offset] {
          pairs.append(
            (
              [
                "boundary", model, "--position", "\(position)", "--granularity", granularity,
                "--direction", direction,
              ],
              #"{"op":"boundary","position":\#(position),"granularity":"\#(granularity)","direction":"\#(direction)"}"#
            ))
        }
      }
    }
    let answers = scantext(["query", model], input: pairs.map(\.1)).stdout.split(separator: "\n")
    #expect(answers.count == pairs.count)
    for ((arguments, request), answer) in zip(pairs, answers) {
      let single = scantext(arguments)
      #expect(single.code == 0, "\(arguments)")
      #expect(
        try JSONValue(parsing: single.stdout) == JSONValue(parsing: String(answer)), "\(request)")
    }
  }

  @Test func queryProtocolAnswersEveryLine() throws {
    let page = try CleanModel.page
    let word = try #require(page.line(number: 1)?.words.first)
    let c = word.bbox.center
    let requests = [
      #"{"op":"text","range":[0,3],"id":7}"#,
      #"{"op":"rects","range":[0,3]}"#,
      #"{"op":"caret","position":2}"#,
      "{\"op\":\"hit\",\"point\":[\(c.x),\(c.y)]}",
      #"{"op":"enclosing","position":1,"granularity":"word","direction":"forward"}"#,
      #"{"op":"boundary","position":1,"granularity":"word","direction":"backward"}"#,
      "{\"op\":\"line\",\"point\":[\(c.x),\(c.y)]}",
      #"{"op":"lineContent","line":1}"#,
      "not json",
      #"{"op":"fly"}"#,
      #"{"op":"text","range":[5,2]}"#,
      #"{"op":"caret","position":100000}"#,
      #"{"op":"text","range":[0,3],"page":4}"#,
      #"{"op":"enclosing","position":1,"granularity":"phrase"}"#,
    ]
    let result = scantext(["query", CleanModel.path], input: requests)
    #expect(result.code == 0)
    let answers = try result.stdout.split(separator: "\n").map {
      try JSONValue(parsing: String($0))
    }
    #expect(answers.count == requests.count)
    #expect(answers[0] == .object(["text": .string("The"), "id": .number(7)]))
    #expect(answers[1]["rects"]?.arrayValue?.count == 1)
    #expect(answers[2]["bbox"]?.arrayValue?.count == 4)
    #expect(answers[3]["word"]?["text"] == .string(word.text))
    #expect(answers[3]["line"] == .number(1))
    #expect(answers[4]["range"] == .array([.number(0), .number(3)]))
    #expect(answers[5]["position"] == .number(0))
    #expect(answers[6]["line"] == .number(1))
    #expect(answers[7]["text"] == .string(page.content(forLineNumber: 1) ?? ""))
    for k in 8..<answers.count {
      #expect(answers[k]["error"]?.stringValue != nil, "request \(requests[k]) gets an error")
    }
    #expect(answers[9]["error"]?.stringValue?.hasPrefix("unknown op 'fly'") == true)
    #expect(answers[10]["error"]?.stringValue?.contains("inverted") == true)
  }

  @Test func verifyPassesOnTheCleanPageAndFailsOnBrokenGeometry() throws {
    let ok = scantext(["verify", CleanModel.path])
    #expect(ok.code == 0)
    #expect(
      ok.stdout.hasSuffix(": 1 page, \(try CleanModel.page.verify().checks) checks, 0 violations\n")
    )
    // Move one word far below its line.
    var json = try String(contentsOfFile: CleanModel.path, encoding: .utf8)
    let page = try CleanModel.page
    let word = try #require(page.line(number: 0)?.words.first)
    let box = DocumentJSON.box(word.bbox).serialized()
      .replacingOccurrences(of: ",", with: ", ")
    let moved =
      "[\(word.bbox.minX), \(word.bbox.minY + 400), \(word.bbox.maxX), \(word.bbox.maxY + 400)]"
    #expect(json.contains(box))
    if let r = json.range(of: box) { json.replaceSubrange(r, with: moved) }
    let broken = try Fixtures.temporaryFolder().appendingPathComponent("broken.json")
    try json.write(to: broken, atomically: true, encoding: .utf8)
    let bad = scantext(["verify", broken.path, "--json"])
    #expect(bad.code == 1)
    let report = try JSONValue(parsing: bad.stdout)
    #expect(report["passed"] == .bool(false))
    let kinds = Set(report["violations"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? [])
    #expect(kinds.contains("wordOutsideLine"))
    // Pages are named from 1, in JSON and in text.
    #expect(report["violations"]?.arrayValue?.allSatisfy { $0["page"] == .number(1) } == true)
    let text = scantext(["verify", broken.path])
    #expect(text.stdout.hasPrefix("page 1, "))
  }

  @Test func badModelFilesAreClearErrors() throws {
    let folder = try Fixtures.temporaryFolder()
    let notJSON = folder.appendingPathComponent("notes.json")
    try "hello".write(to: notJSON, atomically: true, encoding: .utf8)
    let r = scantext(["text", notJSON.path])
    #expect(r.code == 1)
    #expect(
      r.stderr.hasPrefix("Error: \(notJSON.path): not a ScanText document: invalid JSON at byte 0"))
    let wrong = folder.appendingPathComponent("wrong.json")
    try #"{"version": 1, "pages": [{"width": 10}]}"#.write(
      to: wrong, atomically: true, encoding: .utf8)
    #expect(
      scantext(["text", wrong.path]).stderr
        == "Error: \(wrong.path): not a ScanText document: pages[0]: missing key 'blocks'\n")
  }
}

@Suite("Progress")
struct ProgressTests {
  func run(_ arguments: [String], terminal: Bool) -> (code: Int32, stderr: String) {
    let captured = CapturedIO()
    let base = captured.io
    let io = CommandIO(
      writeOutput: { base.write($0) }, writeError: { base.writeError($0) }, readLine: { nil },
      errorIsTerminal: terminal)
    let code = ScanText.main(arguments, io: io)
    return (code, captured.stderr)
  }

  @Test func progressOnlyOnATerminalAndNotWhenQuiet() throws {
    let model = CleanModel.path
    let shown = run(["ocr", model, model, model], terminal: true)
    #expect(shown.code == 0)
    #expect(shown.stderr.contains("3/3 images"))
    #expect(shown.stderr.contains("/s, "))
    #expect(run(["ocr", model, model, model], terminal: false).stderr.isEmpty)
    #expect(run(["ocr", model, model, model, "--quiet"], terminal: true).stderr.isEmpty)
  }

  /// One PDF is read page by page: its pages are counted, even alone
  /// (nothing was shown for a 200-page PDF before).
  @Test func aPDFCountsItsPages() throws {
    guard PDFInputTests.popplerPresent else {
      print(PDFInputTests.absentMessage)
      return
    }
    let text = "<< /Length 44 >>\nstream\nBT /F1 24 Tf 20 100 Td (Hello there) Tj ET\nendstream"
    let page =
      "/Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 6 0 R >> >>"
    let pdf = PDFInputTests.handWritten([
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
      "<< \(page) /Contents 5 0 R >>", "<< \(page) /Contents 5 0 R >>", text,
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ])
    let url = try Fixtures.temporaryFolder().appendingPathComponent("two.pdf")
    try pdf.write(to: url)
    let shown = run(["ocr", url.path, "--skip-text", "--no-cache"], terminal: true)
    #expect(shown.code == 0)
    #expect(shown.stderr.contains("2/2 pages"), "\(shown.stderr)")
  }
}

@Suite("Query protocol robustness")
struct QueryFuzzTests {
  @Test func everyRequestGetsOneJSONAnswer() throws {
    let service = QueryService(document: PagedDocument(pages: [try CleanModel.page]))
    let ops = [
      "text", "rects", "caret", "hit", "enclosing", "boundary", "line", "lineContent", "lines",
      "pages", "x", "",
    ]
    let values = [
      "0", "-1", "3", "1e400", "-9223372036854775808", "9223372036854775807", "null", "true",
      "\"a\"", "[]", "[1]", "[5,2]", "[0,40]", "[1e300,1e300]", "[-1,-1,1e9,1e9]", "{}",
    ]
    let keys = [
      "range", "rect", "point", "position", "granularity", "direction", "line", "page", "id",
    ]
    var state: UInt64 = 42
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    for _ in 0..<3000 {
      var members = ["\"op\":\"\(ops[next(ops.count)])\""]
      for _ in 0..<next(4) {
        let key = keys[next(keys.count)]
        let value =
          key == "granularity"
          ? "\"\(["word", "line", "character", "sentence", "zz"][next(5)])\""
          : key == "direction"
            ? "\"\(["forward", "up", "down", "left", "no"][next(5)])\"" : values[next(values.count)]
        members.append("\"\(key)\":\(value)")
      }
      let request = "{" + members.joined(separator: ",") + "}"
      let answer = service.answer(request)
      #expect(!answer.contains("\n"))
      #expect(throws: Never.self) { _ = try JSONValue(parsing: answer) }
    }
  }
}

@Suite("Evaluation command")
struct EvalCommandTests {
  let truth = Fixtures.scans.appendingPathComponent("clean.truth.json").path

  @Test func reportsEveryMetricPerPageAndInTotal() throws {
    let result = scantext(["eval", CleanModel.path, "--truth", truth, "--json"])
    #expect(result.code == 0)
    let report = try JSONValue(parsing: result.stdout)
    let total = try #require(report["total"])
    #expect(total["cer"] == .number(0))
    #expect(total["wer"] == .number(0))
    #expect(total["wordRecall"] == .number(1))
    #expect(total["hitRate"] == .number(1))
    #expect(total["truthWords"] == .number(136))
    let page = try #require(report["pages"]?.arrayValue?.first)
    #expect(page["pairing"] == .string("paired"))
    #expect(page["lineCover"]?.doubleValue ?? 0 > 0.99)

    let table = scantext(["eval", CleanModel.path, "--truth", truth])
    #expect(table.code == 0)
    let lines = table.stdout.split(separator: "\n")
    #expect(lines.first == "clean.json: 136 truth words, 136 matched")
    #expect(lines.dropFirst().first?.hasPrefix("page ") == true)
    #expect(lines.last?.hasPrefix("total ") == true)
    #expect(table.stdout.contains("wordRecall"))
  }

  @Test func aMissingOrBrokenTruthIsAnError() throws {
    #expect(scantext(["eval", CleanModel.path]).code == 64)
    let missing = scantext(["eval", CleanModel.path, "--truth", "/nonexistent/truth.json"])
    #expect(missing.code == 1)
    #expect(missing.stderr == "Error: /nonexistent/truth.json: no such file\n")
  }

  @Test func evaluatingAgainstItselfIsPerfect() throws {
    let result = scantext(["eval", truth, "--truth", truth, "--json"])
    let total = try #require(try JSONValue(parsing: result.stdout)["total"])
    #expect(total["cer"] == .number(0))
    #expect(total["meanIoU"] == .number(1))
    #expect(total["lineBleed"] == .number(0))
  }

  @Test func queryProtocolHitsAndRectsAsUIKit() throws {
    let page = try CleanModel.page
    let end0 = try #require(page.line(number: 0)?.range.upperBound.offset)
    let end6 = try #require(page.line(number: 6)?.range.upperBound.offset)
    let start7 = try #require(page.line(number: 7)?.range.lowerBound.offset)
    let requests = [
      #"{"op":"hit","point":[1270,1640]}"#,
      "{\"op\":\"rects\",\"range\":[\(end6),\(start7 + 1)]}",
      "{\"op\":\"caret\",\"position\":\(end6)}",
      "{\"op\":\"rects\",\"range\":[\(end0),\(end0 + 1)]}",
      #"{"op":"hit","point":[1e999,5]}"#,
    ]
    let result = scantext(["query", CleanModel.path], input: requests)
    #expect(result.code == 0)
    let answers = try result.stdout.split(separator: "\n").map {
      try JSONValue(parsing: String($0))
    }
    try #require(answers.count == requests.count)
    // Below the text: the end of the text.
    #expect(answers[0]["position"] == .number(Double(page.endPosition.offset)))
    // The start handle stands with the start caret, on line 6.
    let rects = answers[1]["rects"]?.arrayValue ?? []
    #expect(rects.first?["containsStart"] == .bool(true))
    #expect(rects.first?["line"] == answers[2]["line"])
    #expect(rects.first?["bbox"] == answers[2]["bbox"])
    #expect(rects.last?["line"] == .number(7))
    // A line break alone: one rect at the end of line 0.
    let breakRects = answers[3]["rects"]?.arrayValue ?? []
    #expect(breakRects.count == 1)
    #expect(breakRects.first?["line"] == .number(0))
    // A number too large for a Double is an error, not infinity.
    #expect(answers[4]["error"]?.stringValue != nil)
  }
}
