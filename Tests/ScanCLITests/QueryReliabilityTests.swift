import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

/// The query protocol on hostile requests (issue 9 point 6): every bad
/// line gets an error answer and the session goes on.
@Suite("Reliability: query protocol")
struct QueryReliabilityTests {
  let model: String

  init() throws {
    let folder = try Fixtures.temporaryFolder()
    let page = try RecognizedScans.page("clean.png")
    model = folder.appendingPathComponent("clean.json").path
    try DocumentJSON.encode(Document(pages: [page]), generator: Generator(name: "t", version: "0"))
      .write(toFile: model, atomically: false, encoding: .utf8)
  }

  func answers(_ lines: [[UInt8]]) -> [String] {
    let captured = CapturedIO(inputBytes: lines)
    let code = ScanText.main(["query", model], io: captured.io)
    #expect(code == 0)
    return captured.stdout.split(separator: "\n").map(String.init)
  }

  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func overLongLineGetsAnErrorAndTheSessionGoesOn() {
    let long =
      bytes("{\"op\":\"pages\",\"x\":\"") + [UInt8](repeating: 0x61, count: 1 << 20)
      + bytes("\"}")
    let out = answers([long, bytes("{\"op\":\"pages\",\"id\":2}")])
    #expect(
      out == ["{\"error\":\"the request is longer than 1048576 bytes\"}", "{\"id\":2,\"pages\":1}"])
  }

  /// An empty or blank line gets an answer line like any other (issue 27,
  /// point 8): it was skipped, and a client that pairs answers with
  /// requests by line waited for an answer that never came.
  @Test func blankLineGetsAnAnswer() {
    let out = answers([bytes(""), bytes("  \t"), bytes("{\"op\":\"pages\",\"id\":3}")])
    let error =
      #"{"error":"empty request: one JSON object per line, such as {\"op\":\"text\"}"}"#
    #expect(out == [error, error, "{\"id\":3,\"pages\":1}"])
  }

  @Test func invalidUTF8IsRefusedNotRepaired() {
    let bad = bytes("{\"op\":\"pages\",\"id\":\"a") + [0xFF, 0xFE] + bytes("\"}")
    let out = answers([bad, bytes("{\"op\":\"pages\",\"id\":\"é\"}")])
    #expect(
      out == ["{\"error\":\"the request is not valid UTF-8\"}", "{\"id\":\"é\",\"pages\":1}"])
  }

  @Test func duplicateKeysAreRefused() {
    let out = answers([bytes("{\"op\":\"pages\",\"op\":\"lines\"}")])
    #expect(out == ["{\"error\":\"invalid JSON at byte 14: duplicate key \\\"op\\\"\"}"])
  }

  @Test func nonFiniteNumbersAreRefused() {
    let out = answers([
      bytes("{\"op\":\"hit\",\"point\":[1e999,5]}"),
      bytes("{\"op\":\"text\",\"rect\":[0,0,-1e999,5]}"),
      bytes("{\"op\":\"hit\",\"point\":[10,5]}"),
    ])
    #expect(out.count == 3)
    #expect(out[0] == "{\"error\":\"invalid JSON at byte 21: number out of range\"}")
    #expect(out[1] == "{\"error\":\"invalid JSON at byte 25: number out of range\"}")
    #expect(!out[2].contains("error"))
  }

  @Test func standardInputReaderLimitsLinesInTheExecutable() throws {
    // The same through the real standard input: a 3 MB line is skipped
    // without being held, the next request is answered.
    let long = String(repeating: "x", count: 3 << 20)
    let r = try ScanTextRun.run(
      ["query", model], stdin: "\(long)\n{\"op\":\"pages\",\"id\":1}\n", timeout: 60)
    #expect(r.code == 0)
    #expect(
      r.stdout
        == "{\"error\":\"the request is longer than 1048576 bytes\"}\n{\"id\":1,\"pages\":1}\n")
  }

  /// `query` on a PDF reads a page when a request names it, no other
  /// (issue 45, point 2): a born-digital page is answered although the
  /// scanned page before it cannot be recognised (no traineddata for
  /// `--lang`), whose requests get the error. Before, every page was read
  /// first and the session ended at the first failure.
  @Test func queryOfAPDFReadsOnlyThePagesAskedFor() {
    let pdf = Fixtures.scans.appendingPathComponent("scan.pdf").path
    let r = scantext(
      ["query", pdf, "--lang", "xxx"],
      input: [
        #"{"op":"text","page":2,"range":[0,7]}"#, #"{"op":"pages"}"#, #"{"op":"text","page":0}"#,
      ])
    #expect(r.code == 0, "\(r.stderr)")
    let answers = r.stdout.split(separator: "\n").map(String.init)
    #expect(answers.count == 3)
    #expect(answers.first == #"{"text":"Minutes"}"#)
    #expect(answers.dropFirst().first == #"{"pages":3}"#)
    #expect(answers.last?.contains("unknown language 'xxx'") == true)
  }
}
