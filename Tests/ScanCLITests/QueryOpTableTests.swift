import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// The query ops live in one table (``QueryOp/all``): dispatch, the
/// unknown-op error, `query --help` and the table of `docs/query-protocol.md`
/// follow it.
@Suite("Query op table")
struct QueryOpTableTests {
  /// The ops the "Query protocol" table (`docs/query-protocol.md`) names, in
  /// order of first appearance (`"op":"name"` in its request column).
  static func readmeOps() throws -> [String] {
    let lines = try Documentation.read("docs/query-protocol.md").components(separatedBy: "\n")
    let heading = try #require(lines.firstIndex(of: "# Query protocol"))
    let table = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
    var ops: [String] = []
    for row in table.dropFirst(2) {
      let request = row.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
      for match in request.matches(of: /"op":"([A-Za-z]+)"/) {
        let name = String(match.output.1)
        if !ops.contains(name) { ops.append(name) }
      }
    }
    return ops
  }

  @Test func readmeTableListsExactlyTheOpsInOrder() throws {
    let names = QueryOp.all.map(\.name)
    #expect(Set(names).count == names.count, "op names are unique")
    #expect(try Self.readmeOps() == names)
  }

  @Test func helpListsEveryOpWithItsRequest() {
    let result = scantext(["query", "--help"])
    #expect(result.code == 0)
    // The help is wrapped at 80 columns: compare without line breaks.
    let help = result.stdout.replacingOccurrences(of: "\n", with: " ")
    for op in QueryOp.all {
      #expect(help.contains(op.request), "\(op.name) is in query --help")
    }
    #expect(help.contains(#"{"op":"writingDirection","position":p,"direction":d}"#))
  }

  @Test func unknownOpErrorListsEveryOp() throws {
    let path = try model(TypesetPage.page([["The quick brown fox."]], glyphs: true))
    let answers = try query(path, [#"{"op":"fly"}"#, #"{"op":"TEXT"}"#])
    let expected =
      "unknown op 'fly' (expected "
      + QueryOp.all.map(\.name).dropLast().joined(separator: ", ") + " or model)"
    #expect(answers[0]["error"]?.stringValue == expected)
    #expect(expected.contains("text, rects, caret, "))
    #expect(
      answers[1]["error"]?.stringValue?.hasPrefix("unknown op 'TEXT' (expected text,") == true)
  }

  @Test func everyOpInTheTableIsDispatched() throws {
    // Each op with a request that is valid on a one-line page: none gets
    // the unknown-op error, and each answers with its own member.
    let path = try model(TypesetPage.page([["The quick brown fox."]], glyphs: true))
    let requests: [String: (String, String)] = [
      "text": (#""range":[0,5]"#, "text"), "rects": (#""range":[0,5]"#, "rects"),
      "caret": (#""position":1"#, "bbox"), "firstRect": (#""range":[0,5]"#, "rect"),
      "hit": (#""point":[105,110]"#, "position"),
      "enclosing": (#""position":1,"granularity":"word","direction":"forward""#, "range"),
      "boundary": (#""position":1,"granularity":"word","direction":"forward""#, "atBoundary"),
      "line": (#""point":[105,110]"#, "line"), "lineContent": (#""line":0"#, "text"),
      "lines": ("", "lines"), "pages": ("", "pages"), "headings": ("", "headings"),
      "outline": ("", "outline"), "nextHeading": (#""position":0"#, "heading"),
      "previousHeading": (#""position":0"#, "heading"),
      "attributedContent": (#""line":0"#, "runs"), "find": (#""query":"quick""#, "matches"),
      "uncertain": (#""below":95"#, "words"),
      "position": (#""from":1,"direction":"right""#, "position"),
      "farthest": (#""range":[0,5],"direction":"left""#, "position"),
      "extend": (#""position":1,"direction":"right""#, "range"),
      "compare": (#""position":1,"other":2"#, "order"),
      "writingDirection": (#""position":1"#, "writingDirection"), "model": ("", "page"),
    ]
    #expect(Set(requests.keys) == Set(QueryOp.all.map(\.name)))
    let ops = QueryOp.all.map(\.name)
    let lines = ops.map { op in
      let arguments = requests[op]?.0 ?? ""
      return "{\"op\":\"\(op)\"" + (arguments.isEmpty ? "" : "," + arguments) + "}"
    }
    let answers = try query(path, lines)
    for (op, answer) in zip(ops, answers) {
      #expect(answer["error"] == nil, "\(op): \(answer.serialized())")
      #expect(answer[requests[op]?.1 ?? ""] != nil, "\(op): \(answer.serialized())")
    }
  }
}
