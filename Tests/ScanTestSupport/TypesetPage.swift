import ScanModel

/// Pages typeset in code, as a fixed-pitch printer would set them: every
/// character 10 px wide and 20 px high, words one space (10 px) apart,
/// lines 30 px apart with their baseline 16 px below their top, and
/// paragraphs one empty line apart, from (100, 100).
///
/// Leading spaces indent a line (10 px each). A `-` standing alone at the
/// end of a line is set against the word before, as ground truths that
/// tokenize punctuation have it (`Men` `-` / `ſchen`). All paragraphs
/// make one block.
public enum TypesetPage {
  /// The page of `paragraphs`, each a list of lines.
  /// - Parameter glyphs: Whether words get one glyph per character.
  public static func page(_ paragraphs: [[String]], glyphs: Bool = false) -> Page {
    var y = 100
    var built: [Paragraph] = []
    for lines in paragraphs {
      var textLines: [TextLine] = []
      for line in lines {
        var x = 100 + 10 * line.prefix { $0 == " " }.count
        let tokens = line.split(separator: " ")
        var words: [Word] = []
        for (i, token) in tokens.enumerated() {
          if i == tokens.count - 1, i > 0, token == "-" { x -= 10 }
          let box = PixelRect(minX: x, minY: y, maxX: x + 10 * token.count, maxY: y + 20)
          let letters = token.enumerated().map { k, c in
            Glyph(
              text: String(c),
              bbox: PixelRect(minX: x + 10 * k, minY: y, maxX: x + 10 * k + 10, maxY: y + 20),
              confidence: 95)
          }
          words.append(
            Word(text: String(token), bbox: box, confidence: 90, glyphs: glyphs ? letters : []))
          x = box.maxX + 10
        }
        let box =
          PixelRect.union(words.map(\.bbox))
          ?? PixelRect(minX: 100, minY: y, maxX: 101, maxY: y + 20)
        let baseline = Baseline(
          start: Point(x: Double(box.minX), y: Double(y + 16)),
          end: Point(x: Double(box.maxX), y: Double(y + 16)))
        textLines.append(TextLine(bbox: box, baseline: baseline, words: words))
        y += 30
      }
      y += 30
      if let box = PixelRect.union(textLines.map(\.bbox)) {
        built.append(Paragraph(bbox: box, lines: textLines))
      }
    }
    let box = PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return Page(width: 1000, height: 1000, blocks: [Block(bbox: box, paragraphs: built)])
  }
}
