import ScanModel

extension DocumentJSON {
  /// A page encoded once as ScanText JSON: the text of its item of
  /// `pages` exactly as the JSON output writes it (pretty, sorted keys, at
  /// its indent), with the places of its `image` and `index` values.
  ///
  /// A page is encoded this way on the worker that recognised it, for the
  /// recognition cache, which stores this text; the JSON output then writes
  /// the same text instead of encoding the page a second time. The two
  /// values that change between the worker and the output are written
  /// afresh from the page when it is written: `index` (the page's place in
  /// the output document) and `image` (a cached page read under another
  /// file name). Every other member is the page's as encoded, so the page
  /// written must be the page encoded but for those two (`write(_:to:)`
  /// checks only them).
  public struct PageText: Sendable, Equatable {
    /// The page's item of `pages`, without the separator before it.
    public let text: String
    /// Where the value of `image` is in ``text`` (UTF-8 offsets).
    package let image: Range<Int>
    /// Where the value of `index` is in ``text`` (UTF-8 offsets).
    package let index: Range<Int>

    /// Encodes `page`.
    /// - Complexity: O(*n*) in the page's elements.
    public init(_ page: Page) {
      var out = ""
      var marks: [String: Range<Int>] = [:]
      DocumentJSON.write(page, to: &out, marking: ["image", "index"], at: &marks)
      text = out
      // Every page has both members (`null` for no image).
      image = marks["image"] ?? 0..<0
      index = marks["index"] ?? 0..<0
    }

    /// A page's text read back (from a cache entry), checked against the
    /// page decoded from it: `nil` unless the two places hold that page's
    /// `image` and `index`, in that order, inside the text.
    /// - Complexity: O(1) but for the two values compared.
    package init?(text: String, image: Range<Int>, index: Range<Int>, of page: Page) {
      let utf8 = text.utf8
      guard image.lowerBound >= 0, image.upperBound <= index.lowerBound,
        index.upperBound <= utf8.count
      else { return nil }
      func slice(_ range: Range<Int>) -> Substring.UTF8View {
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return utf8[start..<utf8.index(start, offsetBy: range.count)]
      }
      var expectedImage = ""
      DocumentJSON.image(of: page).write(to: &expectedImage, pretty: true, indent: 0)
      var expectedIndex = ""
      DocumentJSON.int(page.index).write(to: &expectedIndex, pretty: true, indent: 0)
      guard slice(image).elementsEqual(expectedImage.utf8),
        slice(index).elementsEqual(expectedIndex.utf8)
      else { return nil }
      self.text = text
      self.image = image
      self.index = index
    }

    /// Appends the text to `out`, with `page`'s `image` and `index`.
    /// - Complexity: O(*n*) in the text's length (a copy).
    func write(_ page: Page, to out: inout String) {
      let utf8 = text.utf8
      let imageStart = utf8.index(utf8.startIndex, offsetBy: image.lowerBound)
      let imageEnd = utf8.index(imageStart, offsetBy: image.count)
      let indexStart = utf8.index(imageEnd, offsetBy: index.lowerBound - image.upperBound)
      let indexEnd = utf8.index(indexStart, offsetBy: index.count)
      out.reserveCapacity(out.utf8.count + utf8.count + 16)
      out += text[..<imageStart]
      DocumentJSON.image(of: page).write(to: &out, pretty: true, indent: 0)
      out += text[imageEnd..<indexStart]
      DocumentJSON.int(page.index).write(to: &out, pretty: true, indent: 0)
      out += text[indexEnd...]
    }
  }
}
