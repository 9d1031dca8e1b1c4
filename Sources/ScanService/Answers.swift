import ScanFormats
import ScanModel

/// JSON shapes of query answers, shared by the single-shot commands and the
/// `query` protocol.
package enum Answers {
  package static func range(_ r: TextRange) -> JSONValue { DocumentJSON.range(r) }

  package static func rects(_ rects: [SelectionRect]) -> JSONValue {
    .object([
      "rects": .array(
        rects.map {
          var o: [String: JSONValue] = [
            "bbox": DocumentJSON.box($0.bounds), "quad": DocumentJSON.quad($0.quad),
            "containsStart": .bool($0.containsStart), "containsEnd": .bool($0.containsEnd),
            "line": .number(Double($0.lineNumber)), "range": range($0.range),
            "isVertical": .bool($0.isVertical),
            "writingDirection": .string($0.writingDirection.rawValue),
            "rect": DocumentJSON.box($0.rect), "transform": transform($0.transform),
          ]
          if let p = $0.polygon { o["polygon"] = DocumentJSON.points(p) }
          return .object(o)
        })
    ])
  }

  package static func caret(_ caret: CaretRect?) -> JSONValue {
    guard let caret else {
      return .object([
        "bbox": .null, "quad": .null, "line": .null, "rect": .null, "transform": .null,
        "width": .null,
      ])
    }
    return .object([
      "bbox": DocumentJSON.box(caret.bounds), "quad": DocumentJSON.quad(caret.quad),
      "line": .number(Double(caret.lineNumber)),
      "rect": DocumentJSON.box(caret.rect), "transform": transform(caret.transform),
      "width": DocumentJSON.number(caret.width),
    ])
  }

  package static func word(_ word: Word?) -> JSONValue {
    guard let word else { return .null }
    return .object([
      "text": .string(word.text), "range": range(word.range), "bbox": DocumentJSON.box(word.bbox),
    ])
  }

  package static func hit(_ page: Page, _ point: Point) -> JSONValue {
    .object([
      "position": .number(Double(page.closestPosition(to: point).offset)),
      "line": page.lineNumber(at: point).map { .number(Double($0)) } ?? .null,
      "character": page.characterRange(at: point).map(range) ?? .null,
      "word": word(page.word(at: point)),
      "tokenizerWord": tokenizerWord(page, point),
    ])
  }

  package static func line(_ page: Page, _ n: Int) -> JSONValue {
    guard let line = page.line(number: n), let frame = page.frame(forLineNumber: n),
      let quad = page.quad(forLineNumber: n)
    else { return .null }
    var o: [String: JSONValue] = [
      "line": .number(Double(n)), "text": .string(line.text), "range": range(line.range),
      "bbox": DocumentJSON.box(line.bbox), "frame": DocumentJSON.box(frame),
      "quad": DocumentJSON.quad(quad),
    ]
    if let polygon = line.polygon { o["polygon"] = DocumentJSON.points(polygon) }
    // The paragraph's role, and for a heading its level.
    if let role = page.role(forLineNumber: n) { o["role"] = .string(role.rawValue) }
    if let level = page.headingLevel(forLineNumber: n) { o["level"] = .number(Double(level)) }
    return .object(o)
  }

  /// Every line of the page: `scantext lines` and the `lines` request.
  package static func lines(_ page: Page) -> JSONValue {
    .object(["lines": .array((0..<page.lineCount).map { line(page, $0) })])
  }

  /// The tokenizer at a position: the enclosing unit (`enclosing`), the
  /// next boundary in the direction (`position`), and whether the position
  /// is at a boundary or within a unit. `scantext boundary` and the
  /// `boundary` request.
  package static func boundary(
    _ page: Page, _ p: TextPosition, _ g: TextGranularity, _ d: TextDirection
  ) -> JSONValue {
    .object([
      "enclosing": page.rangeEnclosingPosition(p, with: g, inDirection: d).map(range) ?? .null,
      "position": page.position(from: p, toBoundary: g, inDirection: d).map {
        .number(Double($0.offset))
      } ?? .null,
      "atBoundary": .bool(page.isPosition(p, atBoundary: g, inDirection: d)),
      "withinUnit": .bool(page.isPosition(p, withinTextUnit: g, inDirection: d)),
    ])
  }

  /// Checks a range against the page, with a message for scripts.
  package static func checked(_ r: Range<Int>, in page: Page) throws -> TextRange {
    let range = TextRange(offsets: r)
    guard page.contains(range) else {
      throw ServiceError.outsidePage(
        "range \(r.lowerBound):\(r.upperBound) is outside the page text (0:\(page.endPosition.offset))"
      )
    }
    return range
  }

  package static func checked(position p: Int, in page: Page) throws -> TextPosition {
    let position = TextPosition(offset: p)
    guard page.contains(position) else {
      throw ServiceError.outsidePage(
        "position \(p) is outside the page text (0...\(page.endPosition.offset))")
    }
    return position
  }
}
