import ScanFormats
import ScanModel

/// The `find` and `uncertain` ops of the query protocol.
extension QueryService {
  /// `{"op":"find","query":"recognition","caseInsensitive":true,"diacriticInsensitive":false}`
  /// → `{"matches":[{"range":[s,e],"text":"recog-\nnition","rects":[…]}]}`.
  func findAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    guard let query = request["query"]?.stringValue else {
      throw RequestError(description: "\"query\" must be a string")
    }
    var options: FindOptions = []
    if try flag(request, "caseInsensitive") { options.insert(.caseInsensitive) }
    if try flag(request, "diacriticInsensitive") { options.insert(.diacriticInsensitive) }
    let matches = page.find(query, options: options).map { match -> JSONValue in
      .object([
        "range": Answers.range(match.range), "text": .string(page.text(in: match.range) ?? ""),
        "rects": Answers.rects(match.rects)["rects"] ?? .array([]),
      ])
    }
    return .object(["matches": .array(matches)])
  }

  /// `{"op":"uncertain","below":60}` → `{"words":[…]}`; with
  /// `"position":p` (and `"direction":"forward"` or `"backward"`) →
  /// `{"word":… or null}`, the next or previous uncertain word.
  func uncertainAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    guard let below = request["below"]?.doubleValue, below.isFinite else {
      throw RequestError(description: "\"below\" must be a number (a confidence, 0 to 100)")
    }
    guard request["position"] != nil else {
      if request["direction"] != nil {
        throw RequestError(description: "\"direction\" needs a \"position\"")
      }
      return .object([
        "words": .array(page.words(withConfidenceBelow: below).map { uncertainWord($0, page) })
      ])
    }
    let position = try position(request, page)
    let word: Word?
    switch request["direction"]?.stringValue ?? (request["direction"] == nil ? "forward" : "") {
    case "forward": word = page.nextUncertainWord(after: position, threshold: below)
    case "backward": word = page.previousUncertainWord(before: position, threshold: below)
    default: throw RequestError(description: "\"direction\" must be forward or backward")
    }
    return .object(["word": word.map { uncertainWord($0, page) } ?? .null])
  }

  /// A word with what a rotor needs: text, range, box, outline, confidence
  /// and line number.
  private func uncertainWord(_ word: Word, _ page: Page) -> JSONValue {
    .object([
      "text": .string(word.text), "range": Answers.range(word.range),
      "bbox": DocumentJSON.box(word.bbox), "quad": DocumentJSON.quad(word.corners),
      "confidence": word.confidence.map(DocumentJSON.number) ?? .null,
      "line": page.lineNumber(containing: word.range.lowerBound).map { .number(Double($0)) }
        ?? .null,
    ])
  }

  /// An optional boolean member, `false` when absent.
  package func flag(_ request: JSONValue, _ key: String) throws -> Bool {
    guard let v = request[key] else { return false }
    guard let b = v.boolValue else {
      throw RequestError(description: "\"\(key)\" must be true or false")
    }
    return b
  }
}
