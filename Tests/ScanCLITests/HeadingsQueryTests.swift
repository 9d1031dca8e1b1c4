import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// The generated headings sample's truth: a ScanText document whose
/// paragraphs carry roles (headings of levels 1, 2 and 3, body text).
private let truthPath = Fixtures.scans.appendingPathComponent("headings.truth.json").path

@Suite("Query protocol and outline command: headings")
struct HeadingsQueryTests {
  @Test func headingsAnswerTextLevelRangeLinesAndRects() throws {
    let page = try Fixtures.truth("headings.png")
    let answers = try query(truthPath, [#"{"op":"headings","id":"h"}"#])
    #expect(answers[0]["id"] == .string("h"))
    let headings = try #require(answers[0]["headings"]?.arrayValue)
    #expect(
      headings.map { $0["text"]?.stringValue } == [
        "Notes from the Archive", "Scanning the Ledgers", "Numbers and Units",
      ])
    #expect(headings.map { $0["level"]?.intValue } == [1, 2, 3])
    #expect(headings.map { offsets($0["range"]) } == page.headings.map(\.range.offsets))
    #expect(offsets(headings[0]["range"]) == 0..<22)
    #expect(offsets(headings[1]["range"]) == 24..<44)
    #expect(headings.map { offsets($0["lines"]) } == page.headings.map(\.lineNumbers))
    for (answer, heading) in zip(headings, page.headings) {
      #expect(answer["bbox"] == DocumentJSON.box(heading.frame))
      #expect(answer["quads"] == .array(heading.quads.map(DocumentJSON.quad)))
      let rects = try #require(answer["rects"]?.arrayValue)
      let expected = page.selectionRects(for: heading.range)
      #expect(rects.count == expected.count)
      #expect(rects.map { offsets($0["range"]) } == expected.map(\.range.offsets))
      #expect(rects.first?["containsStart"] == .bool(true))
    }
  }

  @Test func outlineAnswerNestsHeadingsByLevel() throws {
    let answers = try query(truthPath, [#"{"op":"outline"}"#])
    let outline = try #require(answers[0]["outline"]?.arrayValue)
    #expect(outline.count == 1)
    #expect(outline[0]["text"] == .string("Notes from the Archive"))
    #expect(outline[0]["level"] == .number(1))
    let second = try #require(outline[0]["children"]?.arrayValue)
    #expect(second.map { $0["text"]?.stringValue } == ["Scanning the Ledgers"])
    let third = try #require(second[0]["children"]?.arrayValue)
    #expect(third.map { $0["text"]?.stringValue } == ["Numbers and Units"])
    #expect(third[0]["level"] == .number(3))
    #expect(third[0]["children"] == .array([]))
    #expect(offsets(third[0]["range"]) != nil)
  }

  @Test func nextAndPreviousHeadingFromAPosition() throws {
    let page = try Fixtures.truth("headings.png")
    let end = page.endPosition.offset
    let answers = try query(
      truthPath,
      [
        #"{"op":"nextHeading","position":0}"#,
        #"{"op":"nextHeading","position":1}"#,
        #"{"op":"nextHeading","position":44}"#,
        "{\"op\":\"nextHeading\",\"position\":\(end)}",
        "{\"op\":\"previousHeading\",\"position\":\(end)}",
        #"{"op":"previousHeading","position":44}"#,
        #"{"op":"previousHeading","position":43}"#,
        #"{"op":"previousHeading","position":0}"#,
      ])
    #expect(answers[0]["heading"]?["text"] == .string("Notes from the Archive"))
    #expect(answers[1]["heading"]?["text"] == .string("Scanning the Ledgers"))
    #expect(answers[2]["heading"]?["text"] == .string("Numbers and Units"))
    #expect(answers[2]["heading"]?["level"] == .number(3))
    #expect(answers[3]["heading"] == .null)
    #expect(answers[4]["heading"]?["text"] == .string("Numbers and Units"))
    #expect(answers[5]["heading"]?["text"] == .string("Scanning the Ledgers"))
    #expect(answers[6]["heading"]?["text"] == .string("Notes from the Archive"))
    #expect(answers[7]["heading"] == .null)
  }

  @Test func lineAnswersCarryRoleAndLevel() throws {
    let page = try Fixtures.truth("headings.png")
    let answers = try query(
      truthPath,
      [#"{"op":"lines"}"#, #"{"op":"lineContent","line":0}"#, #"{"op":"lineContent","line":2}"#])
    let lines = try #require(answers[0]["lines"]?.arrayValue)
    #expect(lines.count == page.lineCount)
    #expect(
      lines.map { $0["role"]?.stringValue }
        == (0..<page.lineCount).map {
          page.role(forLineNumber: $0)?.rawValue
        })
    #expect(lines.prefix(3).map { $0["role"]?.stringValue } == ["heading", "heading", "body"])
    #expect(lines.prefix(3).map { $0["level"]?.intValue } == [1, 2, nil])
    // The existing fields stay.
    for key in ["line", "text", "range", "bbox", "frame", "quad"] {
      #expect(lines[0][key] != nil, "\(key)")
    }
    #expect(answers[1]["role"] == .string("heading"))
    #expect(answers[1]["level"] == .number(1))
    #expect(answers[1]["text"] == .string("Notes from the Archive"))
    #expect(answers[2]["role"] == .string("body"))
    #expect(answers[2]["level"] == nil)
    // The single-shot command answers the same.
    let single = scantext(["lines", truthPath])
    #expect(single.code == 0)
    #expect(try JSONValue(parsing: single.stdout) == answers[0])
  }

  @Test func attributedContentAnswersRuns() throws {
    let answers = try query(
      truthPath,
      [
        #"{"op":"attributedContent","line":0}"#,
        #"{"op":"attributedContent","range":[15,30]}"#,
        #"{"op":"attributedContent","line":2,"below":101}"#,
      ])
    let heading = try #require(answers[0]["runs"]?.arrayValue)
    #expect(heading.count == 1)
    #expect(heading[0]["text"] == .string("Notes from the Archive"))
    #expect(heading[0]["language"] == .string("en"))
    #expect(heading[0]["role"] == .string("heading"))
    #expect(heading[0]["level"] == .number(1))
    #expect(heading[0]["lowConfidence"] == .bool(false))
    let across = try #require(answers[1]["runs"]?.arrayValue)
    #expect(answers[1]["text"] == .string("Archive\n\nScanni"))
    #expect(across.map { $0["text"]?.stringValue } == ["Archive", "\n\n", "Scanni"])
    #expect(across.map { $0["role"] } == [.string("heading"), .null, .string("heading")])
    #expect(across.map { $0["level"]?.intValue } == [1, nil, 2])
    #expect(across.map { offsets($0["range"]) } == [15..<22, 22..<24, 24..<30])
    // Ground truth has no confidences: nothing is ever low.
    let body = try #require(answers[2]["runs"]?.arrayValue)
    #expect(body.map { $0["lowConfidence"] } == [.bool(false)])
  }

  @Test func badHeadingRequestsGetErrorsAndTheSessionGoesOn() throws {
    let answers = try query(
      truthPath,
      [
        #"{"op":"nextHeading"}"#,
        #"{"op":"previousHeading","position":"x"}"#,
        #"{"op":"nextHeading","position":100000}"#,
        #"{"op":"attributedContent"}"#,
        #"{"op":"attributedContent","line":99}"#,
        #"{"op":"attributedContent","range":[5,2]}"#,
        #"{"op":"attributedContent","line":0,"below":"low"}"#,
        #"{"op":"headings","page":3}"#,
        #"{"op":"headings"}"#,
      ])
    let errors = answers.prefix(8).map { $0["error"]?.stringValue ?? "" }
    #expect(errors[0] == "missing \"position\"")  // the protocol's one message for a missing field
    #expect(errors[1] == "\"position\" must be an integer")
    #expect(errors[2].hasPrefix("\"position\" 100000 is outside the page text"))
    #expect(errors[3] == "give one of \"line\" and \"range\"")
    #expect(errors[4].hasPrefix("there is no line 99"))
    #expect(errors[5] == "\"range\" [5, 2] is inverted")
    #expect(errors[6].hasPrefix("\"below\" must be a number"))
    #expect(errors[7].hasPrefix("there is no page 3"))
    #expect(answers[8]["headings"]?.arrayValue?.count == 3)
    let unknown = try query(truthPath, [#"{"op":"toc"}"#])
    #expect(unknown[0]["error"]?.stringValue?.contains("headings, outline") == true)
  }

  @Test func outlineCommandPrintsTheTreeIndented() throws {
    let r = scantext(["outline", truthPath])
    #expect(r.code == 0)
    #expect(r.stderr.isEmpty)
    #expect(
      r.stdout == """
        Notes from the Archive
          Scanning the Ledgers
            Numbers and Units

        """)
    let json = scantext(["outline", truthPath, "--json"])
    #expect(json.code == 0)
    let answer = try JSONValue(parsing: json.stdout)
    let query = try query(truthPath, [#"{"op":"outline"}"#])
    #expect(answer == query[0])
    #expect(answer["outline"]?.arrayValue?.first?["text"] == .string("Notes from the Archive"))
  }

  @Test func outlineOfAPageWithoutHeadingsIsEmpty() throws {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("plain.json").path
    let body = TextLine(
      bbox: PixelRect(minX: 10, minY: 10, maxX: 50, maxY: 30),
      words: [Word(text: "plain", bbox: PixelRect(minX: 10, minY: 10, maxX: 50, maxY: 30))])
    let page = Page(
      width: 100, height: 100,
      blocks: [Block(bbox: body.bbox, paragraphs: [Paragraph(bbox: body.bbox, lines: [body])])])
    try DocumentJSON.encode(Document(pages: [page]), generator: ScanText.generator)
      .write(toFile: path, atomically: true, encoding: .utf8)
    let r = scantext(["outline", path])
    #expect(r.code == 0)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.isEmpty)
    #expect(
      try JSONValue(parsing: scantext(["outline", path, "--json"]).stdout)["outline"] == .array([]))
  }

  @Test func outlineCommandErrorsNameTheFile() throws {
    let missing = "/nonexistent-dir/missing.json"
    let r = scantext(["outline", missing])
    #expect(r.code == 1)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.hasPrefix("Error: \(missing): no such file"))
    let folder = try Fixtures.temporaryFolder()
    let notJSON = folder.appendingPathComponent("notes.json")
    try "hello".write(to: notJSON, atomically: true, encoding: .utf8)
    let bad = scantext(["outline", notJSON.path])
    #expect(bad.code == 1)
    #expect(bad.stderr.hasPrefix("Error: \(notJSON.path): not a ScanText document"))
    let page = scantext(["outline", truthPath, "--pages", "2"])
    #expect(page.code == 1)
    #expect(page.stderr.hasPrefix("Error: \(truthPath): --pages asks for page 2"))
    let usage = scantext(["outline"])
    #expect(usage.code == 64)
    #expect(usage.stderr.hasPrefix("Error: "))
    #expect(scantext(["outline", truthPath, "--frobnicate"]).code == 64)
  }

  @Test func helpListsTheOutlineCommandAndTheOps() {
    let root = scantext(["--help"])
    #expect(root.stdout.contains("\n  outline "))
    let help = scantext(["outline", "--help"])
    #expect(help.code == 0)
    #expect(help.stdout.contains("USAGE: scantext outline"))
    #expect(help.stdout.contains("--json"))
    let queryHelp = scantext(["query", "--help"]).stdout
    for op in ["headings", "outline", "nextHeading", "previousHeading", "attributedContent"] {
      #expect(queryHelp.contains(op), "\(op)")
    }
  }

  /// End to end: the generated sample image, recognised, lists its
  /// headings in their tree.
  @Test func outlineOfTheHeadingsScan() throws {
    let image = Fixtures.scans.appendingPathComponent("headings.png").path
    let r = scantext(["outline", image, "--no-cache"])
    #expect(r.code == 0)
    #expect(
      r.stdout == """
        Notes from the Archive
          Scanning the Ledgers
            Numbers and Units

        """)
  }
}
