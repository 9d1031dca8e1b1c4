import ScanArguments
import ScanModel
import ScanOCR

/// Parsers for the values of `--range`, `--rect`, `--point`.
enum ValueParsers {
  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  /// `S:E` with 0 <= S <= E.
  @Sendable static func range(_ s: String) throws -> Range<Int> {
    let parts = s.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
      throw Invalid(description: "expected START:END, such as 0:40")
    }
    guard a >= 0, b >= a else { throw Invalid(description: "expected 0 <= START <= END") }
    return a..<b
  }

  /// `X0,Y0,X1,Y1` with X0 <= X1 and Y0 <= Y1.
  @Sendable static func rect(_ s: String) throws -> Rect {
    let n = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard n.count == 4, let x0 = n[0], let y0 = n[1], let x1 = n[2], let y1 = n[3],
      [x0, y0, x1, y1].allSatisfy(\.isFinite)
    else { throw Invalid(description: "expected X0,Y0,X1,Y1, such as 0,0,400,200") }
    guard x0 <= x1, y0 <= y1 else { throw Invalid(description: "expected X0 <= X1 and Y0 <= Y1") }
    return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  /// `X,Y`.
  @Sendable static func point(_ s: String) throws -> Point {
    let n = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard n.count == 2, let x = n[0], let y = n[1], x.isFinite, y.isFinite else {
      throw Invalid(description: "expected X,Y, such as 120,40")
    }
    return Point(x: x, y: y)
  }
}

extension TextGranularity: ArgumentValue {}

extension PageLayoutOrder: ArgumentValue {}

/// A direction as typed on the command line.
enum DirectionName: String, CaseIterable, ArgumentValue {
  case forward, backward, left, right, up, down

  var direction: TextDirection { TextDirection(name: rawValue) ?? .forward }
}

/// The pages to read, as `--pages` takes them: numbers from 1 and
/// ranges, joined by commas (`2-5`, `1,3,7-`, `-3`).
struct PageSelection: ArgumentValue, Equatable {
  /// Each item's first and last page; `nil` last: to the end.
  var items: [(first: Int, last: Int?)]

  init?(argument: String) {
    guard let selection = try? Self.parse(argument) else { return nil }
    self = selection
  }

  private init(items: [(first: Int, last: Int?)]) {
    self.items = items
  }

  /// Reads `2-5`, `1,3,7-`, `-3`, saying what is wrong with a bad value.
  @Sendable static func parse(_ argument: String) throws -> PageSelection {
    let expected = "expected page numbers from 1 and ranges, such as 2-5 or 1,3,7-"
    var items: [(first: Int, last: Int?)] = []
    for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
      let ends = part.split(separator: "-", omittingEmptySubsequences: false)
      let numbers = ends.map { $0.isEmpty ? nil : Int($0) }
      guard (1...2).contains(ends.count),
        zip(ends, numbers).allSatisfy({ $0.isEmpty || $1 != nil }),
        numbers.contains(where: { $0 != nil })
      else { throw ValueParsers.Invalid(description: expected) }
      if numbers.contains(where: { ($0 ?? 1) < 1 }) {
        throw ValueParsers.Invalid(
          description:
            "pages are counted from 1 (the first page is 1, as in tesseract and pdftotext)")
      }
      let first = numbers[0] ?? 1
      let last = ends.count == 1 ? first : numbers[1]
      if let last, last < first {
        throw ValueParsers.Invalid(description: "\(first)-\(last) runs backwards")
      }
      items.append((first, last))
    }
    return PageSelection(items: items)
  }

  static func == (a: PageSelection, b: PageSelection) -> Bool {
    a.items.elementsEqual(b.items) { $0.first == $1.first && $0.last == $1.last }
  }

  var defaultValueDescription: String {
    items.map { "\($0.first)-\($0.last.map(String.init) ?? "")" }.joined(separator: ",")
  }

  /// The pages selected (from 0, ascending, each once) of a document of
  /// `count` pages.
  /// - Throws: ``CLIError`` when a page named is past the end.
  func pages(of count: Int, path: String) throws -> [Int] {
    var chosen = Set<Int>()
    for item in items {
      let last = item.last ?? count
      if max(item.first, last) > count {
        throw CLIError(
          "\(path): --pages asks for page \(max(item.first, last)), but the document has \(count) page\(count == 1 ? "" : "s")"
        )
      }
      for n in item.first...last { chosen.insert(n - 1) }
    }
    return chosen.sorted()
  }
}
