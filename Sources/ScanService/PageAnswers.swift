import ScanArguments
import ScanFormats
import ScanModel

/// How the single-shot commands answer for several pages (a multi-page
/// TIFF or PDF, a document of several pages, or those `--pages` selects):
/// each page read and answered one at a time, the output held in a
/// temporary file until the last (``HeldOutput``), so memory does not grow
/// with the document and a failure prints nothing but its error.
extension Recognizer {
  /// The separator of pages in plain text.
  package static let pageSeparator = "\u{0C}"

  /// `body` on each page of `path` ``pdfPages`` selects (every page by
  /// default), one at a time in order, with its number from 1 and whether
  /// there are several; with several pages, an error names its page.
  /// - Throws: ``ServiceError``; with several pages, one from `body` has
  ///   its message start with the page (`page 2: …`).
  package func eachNamedPage(
    _ path: String, _ body: (_ number: Int, _ page: Page, _ several: Bool) throws -> Void
  ) throws {
    try eachPage(path) { number, page, several in
      do {
        try body(number, page, several)
      } catch let error as ServiceError where several {
        throw ServiceError.other("page \(number): \(error.message)")
      }
    }
  }

  /// Prints each page's answer to `io`'s standard output: for one page the
  /// answer alone, exactly as the query protocol gives it; for several, a
  /// JSON array of them in page order, each with its `"page"` number (from
  /// 1).
  /// - Throws: ``ServiceError`` from `answer`; with several pages its
  ///   message starts with the page (`page 2: …`).
  package func printAnswers(
    _ path: String, io: CommandIO, _ answer: (Page) throws -> JSONValue
  ) throws {
    let out = HeldOutput(io: io)
    var written = 0
    var alone = false
    try eachNamedPage(path) { number, page, several in
      let answer = try answer(page)
      guard several else {
        try out.print(answer.serialized(pretty: true))
        alone = true
        return
      }
      var numbered = answer
      if case .object(var o) = answer {
        o["page"] = .number(Double(number))
        numbered = .object(o)
      }
      // As `JSONValue.array(answers).serialized(pretty: true)` writes it.
      try out.write((written == 0 ? "[\n  " : ",\n  ") + numbered.serialized(prettyAtDepth: 1))
      written += 1
    }
    if !alone { try out.print(written > 0 ? "\n]" : "[]") }
    try out.release()
  }

  /// Prints the text of each page, joined as ScanText joins the pages of a
  /// text export (and the `tesseract` command its pages): a form feed
  /// between pages.
  /// - Throws: ``ServiceError`` from `text`, naming its page when there
  ///   are several.
  package func printTexts(_ path: String, io: CommandIO, _ text: (Page) throws -> String) throws {
    let out = HeldOutput(io: io)
    var first = true
    try eachNamedPage(path) { _, page, _ in
      let text = try text(page)
      try out.write(first ? text : Self.pageSeparator + text)
      first = false
    }
    try out.release()
  }

  /// Prints each page's heading tree, a heading a line, indented two
  /// spaces a level.
  /// - Throws: ``ServiceError`` when a page cannot be read.
  package func printOutlines(_ path: String, io: CommandIO) throws {
    let out = HeldOutput(io: io)
    func show(_ nodes: [OutlineNode], depth: Int) throws {
      for node in nodes {
        try out.print(String(repeating: "  ", count: depth) + node.heading.text)
        try show(node.children, depth: depth + 1)
      }
    }
    try eachNamedPage(path) { _, page, _ in try show(page.outline, depth: 0) }
    try out.release()
  }

  /// Checks the selection geometry of every page of `path` and prints the
  /// report: a line per violation and a summary line, or the report as
  /// JSON. Pages are read and checked one at a time; the text report's
  /// lines wait in a temporary file, the JSON report keeps the violations
  /// (no more than it prints).
  /// - Parameters:
  ///   - tolerance: Pixels a box may stick out of the box that should hold
  ///     it.
  ///   - json: Whether to print the report as JSON.
  /// - Returns: Whether every check passed.
  /// - Throws: ``ServiceError`` when a page cannot be read.
  package func printVerification(
    _ path: String, tolerance: Double, json: Bool, io: CommandIO
  ) throws -> Bool {
    var violations: [(page: Int, violation: Violation)] = []
    var checks = 0
    var count = 0
    var pages = 0
    let out = HeldOutput(io: io)
    try eachPage(path) { number, page, _ in
      let report = page.verify(tolerance: tolerance)
      pages += 1
      checks += report.checks
      count += report.violations.count
      if json {
        violations += report.violations.map { (number, $0) }
      } else {
        for v in report.violations {
          try out.print("page \(number), \(v.element): \(v.kind.rawValue): \(v.detail)")
        }
      }
    }
    if json {
      let report = JSONValue.object([
        "passed": .bool(count == 0), "checks": .number(Double(checks)),
        "pages": .number(Double(pages)),
        "violations": .array(
          violations.map { number, v in
            .object([
              "kind": .string(v.kind.rawValue), "page": .number(Double(number)),
              "element": .string(v.element), "detail": .string(v.detail),
            ])
          }),
      ])
      try out.print(report.serialized(pretty: true))
    } else {
      try out.print(
        "\(path): \(pages) page\(pages == 1 ? "" : "s"), \(checks) checks, \(count) violation\(count == 1 ? "" : "s")"
      )
    }
    try out.release()
    return count == 0
  }

  /// The document `query` answers for: a document is opened, not read (a
  /// page is decoded when a request first names it); a PDF too (a page is
  /// read from its text or recognised when a request first names it, no
  /// other page with it), unless ``pdfPages`` selects pages; anything
  /// else is read whole.
  /// - Parameter maxPagesInMemory: The most pages kept (the default when
  ///   `nil`).
  /// - Throws: ``ServiceError`` when the input cannot be read.
  package func queryDocument(_ path: String, maxPagesInMemory: Int?) throws -> PagedDocument {
    if InputFiles.isDocument(path) && pdfPages == nil {
      try DocumentFiles.open(path, maxPagesInMemory: maxPagesInMemory)
    } else if InputFiles.kind(path) == .pdf && pdfPages == nil {
      try openPDF(path, maxPagesInMemory: maxPagesInMemory)
    } else {
      PagedDocument(pages: try document(path).pages)
    }
  }
}

/// What `text` prints of each page.
package enum PageText: Sendable {
  /// The whole page's text.
  case page
  /// The text of a range of UTF-16 offsets, and a newline.
  case range(Range<Int>)
  /// The words mostly inside a rectangle, and a newline.
  case rect(Rect)
  /// One line, by its reading-order number, and a newline.
  case line(Int)

  /// This part of `page`'s text.
  /// - Throws: ``ServiceError`` for a range outside the page or a line it
  ///   does not have.
  package func text(of page: Page) throws -> String {
    switch self {
    case .range(let r):
      return (page.text(in: try Answers.checked(r, in: page)) ?? "") + "\n"
    case .rect(let rect):
      return page.text(in: rect) + "\n"
    case .line(let n):
      guard let text = page.content(forLineNumber: n) else {
        throw ServiceError.other(
          "there is no line \(n) (the page has \(page.lineCount) lines, numbered from 0)")
      }
      return text + "\n"
    case .page:
      return page.text
    }
  }
}
