import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

/// The reading order through the query protocol, on the generated page
/// made for it (running head, spanning title, three columns with a
/// caption, footnotes, footer, page number).
@Suite("Query protocol: reading order")
struct ReadingOrderQueryTests {
  static let article = Fixtures.scans.appendingPathComponent("article.png").path

  /// The `lines` answer of `scantext query IMAGE` with `options`.
  static func lines(_ options: [String]) throws -> [JSONValue] {
    let result = scantext(["query", article] + options, input: [#"{"op":"lines"}"#])
    #expect(result.code == 0, "\(result.stderr)")
    let answer = try JSONValue(parsing: String(result.stdout.split(separator: "\n")[0]))
    return try #require(answer["lines"]?.arrayValue)
  }

  @Test func linesComeInReadingOrderWithTheirRoles() throws {
    let lines = try Self.lines([])
    let roles = lines.compactMap { $0["role"]?.stringValue }
    #expect(roles.count == lines.count)
    #expect(roles.first == "header")
    #expect(lines.first?["text"] == .string("The Harbour Quarterly, Autumn Number"))
    #expect(roles[1] == "heading")
    #expect(lines[1]["level"] == .number(1))
    #expect(Array(roles.suffix(4)) == ["footnote", "footnote", "footer", "pageNumber"])
    #expect(lines.last?["text"] == .string("17"))
    // Ranges follow the order: each line starts after the one before.
    let starts = lines.compactMap { $0["range"]?.arrayValue?.first?.intValue }
    #expect(starts == starts.sorted())
    #expect(Set(starts).count == starts.count)
    // The caption ends the third column, before the footnotes.
    let caption = try #require(roles.firstIndex(of: "caption"))
    #expect(caption < roles.firstIndex(of: "footnote") ?? -1)
  }

  @Test func tesseractsOrderReadsTheFootnotesBetweenTheColumns() throws {
    let lines = try Self.lines(["--layout", "tesseract"])
    let roles = lines.compactMap { $0["role"]?.stringValue }
    let footer = try #require(roles.firstIndex(of: "footer"))
    #expect(footer < roles.count - 2, "Tesseract's order has more text after the footer")
    #expect(Set(roles) == Set(try Self.lines([]).compactMap { $0["role"]?.stringValue }))
  }
}
