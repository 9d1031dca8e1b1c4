import ScanFormats
import ScanModel

/// JSON shapes of headings, the outline and attributed content, shared by
/// the query protocol and `scantext outline`.
extension Answers {
  /// A heading: `{"text","level","range","lines":[first, end],"bbox",
  /// "quads":[…],"rects":[…]}` (`rects` as the `rects` answer).
  package static func heading(_ heading: Heading, _ page: Page) -> JSONValue {
    .object([
      "text": .string(heading.text), "level": .number(Double(heading.level)),
      "range": range(heading.range),
      "lines": .array([
        .number(Double(heading.lineNumbers.lowerBound)),
        .number(Double(heading.lineNumbers.upperBound)),
      ]),
      "bbox": DocumentJSON.box(heading.frame),
      "quads": .array(heading.quads.map(DocumentJSON.quad)),
      "rects": rects(page.selectionRects(for: heading.range))["rects"] ?? .array([]),
    ])
  }

  /// `{"headings":[…]}`: every heading of the page in reading order.
  package static func headings(_ page: Page) -> JSONValue {
    .object(["headings": .array(page.headings.map { heading($0, page) })])
  }

  /// `{"outline":[…]}`: the headings nested by level, each node a heading
  /// with its `children`.
  package static func outline(_ page: Page) -> JSONValue {
    func node(_ n: OutlineNode) -> JSONValue {
      guard case .object(var o) = heading(n.heading, page) else { return .null }
      o["children"] = .array(n.children.map(node))
      return .object(o)
    }
    return .object(["outline": .array(page.outline.map(node))])
  }

  /// `{"text","range","runs":[{"range","text","language","role","level",
  /// "lowConfidence","confidence"}]}`; `level` only in runs of headings,
  /// `confidence` only in low-confidence runs, `role` null between
  /// paragraphs.
  package static func attributed(_ content: AttributedContent) -> JSONValue {
    .object([
      "text": .string(content.text), "range": range(content.range),
      "runs": .array(
        content.runs.map { run in
          var o: [String: JSONValue] = [
            "range": range(run.range), "text": .string(content.text(of: run) ?? ""),
            "language": run.attributes.language.map(JSONValue.string) ?? .null,
            "role": run.attributes.role.map { .string($0.rawValue) } ?? .null,
            "lowConfidence": .bool(run.attributes.isLowConfidence),
          ]
          if let level = run.attributes.headingLevel { o["level"] = .number(Double(level)) }
          if let c = run.attributes.confidence { o["confidence"] = DocumentJSON.number(c) }
          return .object(o)
        }),
    ])
  }
}

/// The `headings`, `outline`, `nextHeading`, `previousHeading` and
/// `attributedContent` ops of the query protocol.
extension QueryService {
  /// `{"op":"nextHeading","position":p}` → `{"heading":… or null}`, the
  /// first heading starting at or after `p`; `previousHeading`, the last
  /// one ending at or before it.
  func headingAnswer(_ request: JSONValue, _ page: Page, forward: Bool) throws -> JSONValue {
    let position = try position(request, page)
    let heading =
      forward ? page.nextHeading(after: position) : page.previousHeading(before: position)
    return .object(["heading": heading.map { Answers.heading($0, page) } ?? .null])
  }

  /// `{"op":"attributedContent","line":i}` or `{…,"range":[s,e]}`, with an
  /// optional `"below":60` (the low-confidence threshold) →
  /// ``Answers/attributed(_:)``.
  func attributedContentAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    var threshold = AttributedContent.defaultLowConfidenceThreshold
    if let below = request["below"] {
      guard let b = below.doubleValue, b.isFinite else {
        throw RequestError(description: "\"below\" must be a number (a confidence, 0 to 100)")
      }
      threshold = b
    }
    switch (request["line"], request["range"]) {
    case (let line?, nil):
      guard let n = line.intValue else {
        throw RequestError(description: "\"line\" must be an integer")
      }
      guard
        let content = page.attributedContent(forLineNumber: n, lowConfidenceThreshold: threshold)
      else {
        throw RequestError(description: "there is no line \(n) (the page has \(page.lineCount))")
      }
      return Answers.attributed(content)
    case (nil, _?):
      let r = try range(request, page)
      guard let content = page.attributedContent(in: r, lowConfidenceThreshold: threshold) else {
        throw RequestError(description: "\"range\" \(r.offsets) has no content")
      }
      return Answers.attributed(content)
    default:
      throw RequestError(description: "give one of \"line\" and \"range\"")
    }
  }
}
