import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// The shared helpers of the query protocol tests.

/// Writes `pages` (indexed in order) as a ScanText document and returns its path.
func model(_ pages: [Page]) throws -> String {
  let url = try Fixtures.temporaryFolder().appendingPathComponent("pages.json")
  let document = Document(pages: pages.enumerated().map { $1.withIndex($0) })
  let json = DocumentJSON.encode(document, generator: ScanText.generator)
  try json.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

/// Writes one page as a ScanText document and returns its path.
func model(_ page: Page) throws -> String { try model([page]) }

/// The answers of `scantext query MODEL` to `requests`, one per request;
/// the session must exit 0 with nothing on standard error.
func query(_ path: String, _ requests: [String]) throws -> [JSONValue] {
  let result = scantext(["query", path], input: requests)
  #expect(result.code == 0)
  #expect(result.stderr.isEmpty)
  let answers = try result.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
  #expect(answers.count == requests.count)
  return answers
}

/// A `[start, end]` answer as a range, or `nil` if it is not one.
func offsets(_ v: JSONValue?) -> Range<Int>? {
  guard let a = v?.arrayValue, a.count == 2, let s = a[0].intValue, let e = a[1].intValue, s <= e
  else { return nil }
  return s..<e
}
