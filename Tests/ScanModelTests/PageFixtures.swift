@testable import ScanModel

/// Builds pages with synthetic geometry: every character 10 px wide and
/// 20 px high, one 10 px gap between words, lines 30 px apart, paragraphs
/// 60 px apart, starting at (100, 100).
enum PageFixtures {
  /// `paragraphs` is a list of paragraphs, each a list of lines.
  static func page(
    _ paragraphs: [[String]], glyphs: Bool = true, origin: Point = Point(x: 100, y: 100)
  ) -> Page {
    var y = Int(origin.y)
    var built: [Paragraph] = []
    for paragraph in paragraphs {
      var lines: [TextLine] = []
      for text in paragraph {
        var x = Int(origin.x)
        var words: [Word] = []
        for token in text.split(separator: " ") {
          var gs: [Glyph] = []
          let start = x
          for c in token {
            gs.append(
              Glyph(
                text: String(c), bbox: PixelRect(minX: x, minY: y, maxX: x + 10, maxY: y + 20),
                confidence: 90))
            x += 10
          }
          words.append(
            Word(
              text: String(token), bbox: PixelRect(minX: start, minY: y, maxX: x, maxY: y + 20),
              confidence: 90, glyphs: glyphs ? gs : []))
          x += 10
        }
        let box =
          PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        lines.append(
          TextLine(
            bbox: box,
            baseline: Baseline(
              start: Point(x: Double(box.minX), y: Double(y + 16)),
              end: Point(x: Double(box.maxX), y: Double(y + 16))), words: words))
        y += 30
      }
      y += 30
      built.append(
        Paragraph(
          bbox: PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0),
          lines: lines))
    }
    let block = Block(
      bbox: PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0),
      paragraphs: built)
    return Page(width: 1000, height: 1000, dpi: 300, blocks: paragraphs.isEmpty ? [] : [block])
  }

  /// "The quick brown fox." / "Dr. Smith can't e-mail 3.14 people." // "Second paragraph here."
  static let sample = page([
    ["The quick brown fox.", "Dr. Smith can't e-mail 3.14 people."],
    ["Second paragraph, here!"],
  ])
}

extension Page {
  func pos(_ offset: Int) -> TextPosition { TextPosition(offset: offset) }
  func range(_ r: Range<Int>) -> TextRange { TextRange(offsets: r) }
  /// The offset of the first occurrence of `needle` in the page text.
  func offset(of needle: String) -> Int {
    let units = Array(text.utf16)
    let n = Array(needle.utf16)
    for i in 0...(units.count - n.count) where Array(units[i..<(i + n.count)]) == n { return i }
    return -1
  }
}
