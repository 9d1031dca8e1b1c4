import ScanFormats
import ScanModel

/// One op of the `scantext query` protocol: its name, the members its
/// request takes, what it answers, and the function that answers it.
///
/// ``all`` is the one list of ops: ``QueryService`` dispatches through it,
/// the unknown-op error and `scantext query --help` list it, and a test
/// checks that the README's query table names the same ops in the same
/// order. A new op is one row here (plus its answer function and its
/// README row).
package struct QueryOp: Sendable {
  /// The value of the request's `"op"`.
  package let name: String
  /// The request's other members as `--help` shows them (`"range":[s,e]`),
  /// empty when it takes none.
  package let arguments: String
  /// What the op answers, in one line.
  package let summary: String
  /// Whether the op answers about the document, not a page: no page is
  /// read for it (``answer`` gets ``QueryService/noPage``).
  package var aboutDocument = false
  /// Answers a request about a page of the service's document.
  package let answer: @Sendable (QueryService, JSONValue, Page) throws -> JSONValue

  /// The request as `--help` shows it: `{"op":"caret","position":p}`.
  package var request: String {
    "{\"op\":\"\(name)\"" + (arguments.isEmpty ? "" : "," + arguments) + "}"
  }
}

extension QueryOp {
  /// Every op, in the order `--help`, the unknown-op error and the README
  /// list them.
  package static let all: [QueryOp] = [
    QueryOp(
      name: "text", arguments: "\"range\":[s,e] or \"rect\":[x0,y0,x1,y1], \"spoken\":b",
      summary: "the text of a range (as spoken, with \"spoken\":true) or of a rectangle"
    ) { service, request, page in try service.textAnswer(request, page) },
    QueryOp(
      name: "rects", arguments: "\"range\":[s,e]",
      summary: "the selection rectangles of a range, one per line"
    ) { service, request, page in
      Answers.rects(page.selectionRects(for: try service.range(request, page)))
    },
    QueryOp(
      name: "caret", arguments: "\"position\":p", summary: "the caret rectangle at a position"
    ) { service, request, page in
      Answers.caret(page.caretRect(for: try service.position(request, page)))
    },
    QueryOp(
      name: "firstRect", arguments: "\"range\":[s,e]",
      summary: "the upright rectangle of a range's first line (UITextInput's firstRect(for:))"
    ) { service, request, page in
      .object([
        "rect": page.firstRect(for: try service.range(request, page)).map(DocumentJSON.box) ?? .null
      ])
    },
    QueryOp(
      name: "hit", arguments: "\"point\":[x,y]",
      summary: "the position, character, word and line at a point"
    ) { service, request, page in Answers.hit(page, try service.point(request)) },
    QueryOp(
      name: "enclosing", arguments: "\"position\":p,\"granularity\":g,\"direction\":d",
      summary: "the range of the unit enclosing a position"
    ) { service, request, page in
      let (p, g, d) = try service.boundaryArguments(request, page)
      return .object([
        "range": page.rangeEnclosingPosition(p, with: g, inDirection: d).map(Answers.range) ?? .null
      ])
    },
    QueryOp(
      name: "boundary", arguments: "\"position\":p,\"granularity\":g,\"direction\":d",
      summary: "the next unit boundary from a position, and whether it is at one"
    ) { service, request, page in
      let (p, g, d) = try service.boundaryArguments(request, page)
      return Answers.boundary(page, p, g, d)
    },
    QueryOp(
      name: "line", arguments: "\"point\":[x,y]", summary: "the number of the line at a point"
    ) { service, request, page in
      .object([
        "line": page.lineNumber(at: try service.point(request)).map { .number(Double($0)) } ?? .null
      ])
    },
    QueryOp(
      name: "lineContent", arguments: "\"line\":i",
      summary: "a line's text, range, boxes and paragraph role"
    ) { service, request, page in try service.lineContentAnswer(request, page) },
    QueryOp(name: "lines", arguments: "", summary: "every line, as lineContent") { _, _, page in
      Answers.lines(page)
    },
    QueryOp(name: "pages", arguments: "", summary: "the number of pages", aboutDocument: true) {
      service, _, _ in .object(["pages": .number(Double(service.document.pageCount))])
    },
    QueryOp(name: "headings", arguments: "", summary: "the headings in reading order") {
      _, _, page in Answers.headings(page)
    },
    QueryOp(name: "outline", arguments: "", summary: "the headings nested by level") {
      _, _, page in Answers.outline(page)
    },
    QueryOp(
      name: "nextHeading", arguments: "\"position\":p",
      summary: "the first heading starting at or after a position"
    ) { service, request, page in try service.headingAnswer(request, page, forward: true) },
    QueryOp(
      name: "previousHeading", arguments: "\"position\":p",
      summary: "the last heading ending at or before a position"
    ) { service, request, page in try service.headingAnswer(request, page, forward: false) },
    QueryOp(
      name: "attributedContent", arguments: "\"line\":i or \"range\":[s,e], \"below\":c",
      summary: "runs of equal accessibility attributes (language, role, low confidence)"
    ) { service, request, page in try service.attributedContentAnswer(request, page) },
    QueryOp(
      name: "find", arguments: "\"query\":q,\"caseInsensitive\":b,\"diacriticInsensitive\":b",
      summary: "every match in the page text, with its selection rectangles"
    ) { service, request, page in try service.findAnswer(request, page) },
    QueryOp(
      name: "uncertain", arguments: "\"below\":c, \"position\":p,\"direction\":d",
      summary: "the words below a confidence, or the next or previous one from a position"
    ) { service, request, page in try service.uncertainAnswer(request, page) },
    QueryOp(
      name: "position", arguments: "\"from\":p,\"direction\":d,\"offset\":n",
      summary: "the position n characters away in a screen direction"
    ) { service, request, page in try service.positionAnswer(request, page) },
    QueryOp(
      name: "farthest", arguments: "\"range\":[s,e],\"direction\":d",
      summary: "the end of a range farthest in a screen direction"
    ) { service, request, page in try service.farthestAnswer(request, page) },
    QueryOp(
      name: "extend", arguments: "\"position\":p,\"direction\":d",
      summary: "the character range from a position one step in a screen direction"
    ) { service, request, page in try service.extendAnswer(request, page) },
    QueryOp(
      name: "compare", arguments: "\"position\":p,\"other\":q",
      summary: "the order of two positions"
    ) { service, request, page in try service.compareAnswer(request, page) },
    QueryOp(
      name: "writingDirection", arguments: "\"position\":p,\"direction\":d",
      summary: "the base writing direction at a position"
    ) { service, request, page in try service.writingDirectionAnswer(request, page) },
    QueryOp(
      name: "model", arguments: "",
      summary: "the page's model as the JSON format holds it (an item of its \"pages\")"
    ) { _, _, page in .object(["page": DocumentJSON.value(of: page)]) },
  ]

  /// ``all`` by name.
  package static let named: [String: QueryOp] = Dictionary(
    all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The answer to an op that is not in ``all``.
  package static func unknown(_ name: String) -> String {
    let names = all.map(\.name)
    return "unknown op '\(name)' (expected "
      + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") + ")"
  }

  /// The list of requests for `scantext query --help`, one line each.
  package static var help: String {
    all.map { "\($0.request): \($0.summary)." }.joined(separator: "\n")
  }
}
