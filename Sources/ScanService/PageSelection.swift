import ScanModel

/// The pages to read, as `--pages` takes them: numbers from 1 and
/// ranges, joined by commas (`2-5`, `1,3,7-`, `-3`).
package struct PageSelection: Sendable, Equatable {
  /// Each item's first and last page; `nil` last: to the end.
  package var items: [(first: Int, last: Int?)]

  private init(items: [(first: Int, last: Int?)]) {
    self.items = items
  }

  /// A value `--pages` cannot take, and why.
  package struct Invalid: Error, CustomStringConvertible {
    package var description: String
  }

  /// Reads `2-5`, `1,3,7-`, `-3`, saying what is wrong with a bad value.
  @Sendable package static func parse(_ argument: String) throws -> PageSelection {
    let expected = "expected page numbers from 1 and ranges, such as 2-5 or 1,3,7-"
    var items: [(first: Int, last: Int?)] = []
    for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
      let ends = part.split(separator: "-", omittingEmptySubsequences: false)
      let numbers = ends.map { $0.isEmpty ? nil : Int($0) }
      guard (1...2).contains(ends.count),
        zip(ends, numbers).allSatisfy({ $0.isEmpty || $1 != nil }),
        numbers.contains(where: { $0 != nil })
      else { throw Invalid(description: expected) }
      if numbers.contains(where: { ($0 ?? 1) < 1 }) {
        throw Invalid(
          description:
            "pages are counted from 1 (the first page is 1, as in tesseract and pdftotext)")
      }
      let first = numbers[0] ?? 1
      let last = ends.count == 1 ? first : numbers[1]
      if let last, last < first {
        throw Invalid(description: "\(first)-\(last) runs backwards")
      }
      items.append((first, last))
    }
    return PageSelection(items: items)
  }

  package static func == (a: PageSelection, b: PageSelection) -> Bool {
    a.items.elementsEqual(b.items) { $0.first == $1.first && $0.last == $1.last }
  }

  /// The pages selected (from 0, ascending, each once) of a document of
  /// `count` pages.
  /// - Throws: ``ServiceError`` when a page named is past the end.
  package func pages(of count: Int, path: String) throws -> [Int] {
    var chosen = Set<Int>()
    for item in items {
      let last = item.last ?? count
      if max(item.first, last) > count {
        throw ServiceError.pageOutOfRange(path: path, page: max(item.first, last), count: count)
      }
      for n in item.first...last { chosen.insert(n - 1) }
    }
    return chosen.sorted()
  }
}
