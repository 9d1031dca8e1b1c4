import ScanArguments
import ScanFormats
import ScanModel

/// The query protocol for the fuzzers (`Tools/check/Fuzz`).
@_spi(Fuzzing) public enum QueryFuzzing {
  /// The longest request line answered, in bytes.
  public static var maxRequestBytes: Int { QueryService.maxRequestBytes }

  /// A function answering request lines about `document` as `scantext
  /// query` does.
  public static func answerer(_ document: Document) -> @Sendable (InputLine) -> String {
    let service = QueryService(document: PagedDocument(pages: document.pages))
    return { service.answer($0) }
  }
}

/// Answers the `scantext query` protocol: one JSON request per line, one
/// JSON answer per line. A bad request gets `{"error": "..."}`; it never
/// ends the session.
package struct QueryService: Sendable {
  /// The document asked about: a page is read (decoded from a compact
  /// model or a JSON file) when a request first names it.
  package let document: PagedDocument
  /// The document's file, named in the error of a page that cannot be read.
  package let path: String

  /// Answers requests about `document`, read from `path`.
  package init(document: PagedDocument, path: String = "") {
    self.document = document
    self.path = path
  }

  /// What an op about the whole document (``QueryOp/aboutDocument``) gets
  /// for a page: no page is read for it.
  static let noPage = Page(width: 0, height: 0, blocks: [])

  /// The longest request line answered, in bytes (requests are tiny; a
  /// longer line gets an error answer and is never held in memory).
  package static let maxRequestBytes = 1 << 20

  /// Answers the requests on `io`'s standard input, one per line, each
  /// answer a line on standard output, flushed as it is made, until the
  /// input ends.
  package func serve(_ io: CommandIO) {
    while let input = io.readLine(limit: Self.maxRequestBytes) {
      io.print(answer(input))
      io.flush()
    }
  }

  /// The answer to one line read from standard input. A line that is too
  /// long or not valid UTF-8 gets an error answer without an `id` (an id
  /// that is not valid UTF-8 cannot be echoed faithfully, and is never
  /// echoed repaired).
  package func answer(_ input: InputLine) -> String {
    switch input {
    case .text(let line):
      return answer(line)
    case .tooLong:
      return JSONValue.object([
        "error": .string("the request is longer than \(Self.maxRequestBytes) bytes")
      ]).serialized()
    case .invalidUTF8:
      return JSONValue.object(["error": .string("the request is not valid UTF-8")]).serialized()
    }
  }

  /// The answer to one request line, as compact JSON (no newline).
  package func answer(_ line: String) -> String {
    // Every line gets an answer line, a blank one too: clients pair
    // answers with requests by line.
    if line.allSatisfy(\.isWhitespace) {
      return JSONValue.object([
        "error": .string("empty request: one JSON object per line, such as {\"op\":\"text\"}")
      ]).serialized()
    }
    let request: JSONValue
    do {
      request = try JSONValue(parsing: line)
    } catch {
      return JSONValue.object(["error": .string("\(error)")]).serialized()
    }
    var answer: JSONValue
    do {
      answer = try respond(to: request)
    } catch {
      answer = .object(["error": .string("\(error)")])
    }
    if let id = request["id"], case .object(var o) = answer {
      o["id"] = id
      answer = .object(o)
    }
    return answer.serialized()
  }

  struct RequestError: Error, CustomStringConvertible {
    package var description: String
  }

  private func respond(to request: JSONValue) throws -> JSONValue {
    guard case .object = request else {
      throw RequestError(description: "a request must be a JSON object")
    }
    guard let op = request["op"]?.stringValue else {
      throw RequestError(description: "missing \"op\"")
    }
    let pageIndex = try int(request, "page", default: 0)
    guard (0..<document.pageCount).contains(pageIndex) else {
      throw RequestError(
        description: "there is no page \(pageIndex) (the document has \(document.pageCount))")
    }
    guard let queryOp = QueryOp.named[op] else {
      throw RequestError(description: QueryOp.unknown(op))
    }
    if queryOp.aboutDocument { return try queryOp.answer(self, request, Self.noPage) }
    let page: Page
    do {
      page = try DocumentFiles.page(pageIndex, of: document, path: path)
    } catch {
      throw RequestError(description: error.description)
    }
    return try queryOp.answer(self, request, page)
  }

  /// `{"op":"text","range":[s,e]}` (with `"spoken":true`, the text as a
  /// screen reader says it: hyphenated words joined) or
  /// `{"op":"text","rect":[x0,y0,x1,y1]}` → `{"text":…}`.
  func textAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    if request["rect"] != nil {
      return .object(["text": .string(page.text(in: try rect(request)))])
    }
    let r = try range(request, page)
    let text = try flag(request, "spoken") ? page.spokenText(in: r) : page.text(in: r)
    return .object(["text": .string(text ?? "")])
  }

  /// `{"op":"lineContent","line":i}` → the line (``Answers/line(_:_:)``).
  func lineContentAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let n = try int(request, "line", default: nil)
    guard page.line(number: n) != nil else {
      throw RequestError(description: "there is no line \(n) (the page has \(page.lineCount))")
    }
    return Answers.line(page, n)
  }

  package func int(_ r: JSONValue, _ key: String, default value: Int?) throws -> Int {
    guard let v = r[key] else {
      if let value { return value }
      throw RequestError(description: "missing \"\(key)\"")
    }
    guard let n = v.intValue else {
      throw RequestError(description: "\"\(key)\" must be an integer")
    }
    return n
  }

  package func numbers(_ r: JSONValue, _ key: String, count: Int) throws -> [Double] {
    guard let a = r[key]?.arrayValue, a.count == count else {
      throw RequestError(description: "\"\(key)\" must be an array of \(count) numbers")
    }
    let n = a.compactMap(\.doubleValue).filter(\.isFinite)
    guard n.count == count else {
      throw RequestError(description: "\"\(key)\" must be an array of \(count) numbers")
    }
    return n
  }

  /// The request's `"range"`: `[start, end]` UTF-16 offsets inside the
  /// page text. Every op that takes a range reads it here.
  package func range(_ r: JSONValue, _ page: Page) throws -> TextRange {
    guard let a = r["range"]?.arrayValue, a.count == 2, let s = a[0].intValue, let e = a[1].intValue
    else { throw RequestError(description: "\"range\" must be [start, end] integers") }
    guard s <= e else { throw RequestError(description: "\"range\" [\(s), \(e)] is inverted") }
    let range = TextRange(offsets: s..<e)
    guard page.contains(range) else {
      throw RequestError(
        description:
          "\"range\" [\(s), \(e)] is outside the page text [0, \(page.endPosition.offset)]")
    }
    return range
  }

  /// A position of the request (`"position"`, or `key`): an integer
  /// offset inside the page text. Every op that takes a position reads it here.
  package func position(_ r: JSONValue, _ page: Page, key: String = "position") throws
    -> TextPosition
  {
    let p = TextPosition(offset: try int(r, key, default: nil))
    guard page.contains(p) else {
      throw RequestError(
        description:
          "\"\(key)\" \(p.offset) is outside the page text [0, \(page.endPosition.offset)]")
    }
    return p
  }

  package func point(_ r: JSONValue) throws -> Point {
    let n = try numbers(r, "point", count: 2)
    return Point(x: n[0], y: n[1])
  }

  package func rect(_ r: JSONValue) throws -> Rect {
    let n = try numbers(r, "rect", count: 4)
    guard n[0] <= n[2], n[1] <= n[3] else {
      throw RequestError(
        description: "\"rect\" must be [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1")
    }
    return Rect(minX: n[0], minY: n[1], maxX: n[2], maxY: n[3])
  }

  func boundaryArguments(_ r: JSONValue, _ page: Page) throws -> (
    TextPosition, TextGranularity, TextDirection
  ) {
    let p = try position(r, page)
    guard let gName = r["granularity"]?.stringValue, let g = TextGranularity(rawValue: gName) else {
      throw RequestError(
        description:
          "\"granularity\" must be one of character, word, sentence, paragraph, line, document")
    }
    let dName = r["direction"]?.stringValue ?? "forward"
    guard let d = TextDirection(name: dName) else {
      throw RequestError(
        description: "\"direction\" must be one of forward, backward, left, right, up, down")
    }
    return (p, g, d)
  }
}
