/// Legends: the unnumbered caption a book sets right under (or over) a
/// picture, within its width ("THEY TIP-TOED ALONG." under the engraving of
/// `c02-22-embedded-000.jpg`), which ``RoleDetection`` cannot tell from
/// running text by its words (its caption rule wants "Fig." or "Plate" and
/// a number) and the page's figures make plain.
///
/// A paragraph of running text (``ParagraphRole/body``) becomes a
/// ``ParagraphRole/caption`` when it has at most two lines, lies wholly
/// below or above a figure, no farther from it than three of its own line
/// heights, and within the figure's extent across (one line height of
/// slack each side): the nearest such paragraph on each side of each
/// figure. Running text beside or under a picture is wider than it or set
/// farther off; a heading under a headpiece keeps its role.
///
/// Measured (2026-12-05) on the three real pages with pictures: the
/// legend of `c02-22` (one line 146 px wide, 22 px under a figure 326 px
/// wide; its line 11 px high) becomes a caption; on `bengel-abriss` the
/// lines under the woodcut are wider than it (1193 against 660 px) and the
/// line over it reaches 127 px past it; on `indian-ferns` the title between
/// the ferns overlaps the upper fern's box and is wider than the lower.
public enum FigureLegends {
  /// The blocks with the legends of `figures` made captions.
  /// - Parameters:
  ///   - blocks: A page's blocks, in the page's pixels.
  ///   - figures: Its figures, in the same pixels.
  /// - Returns: `blocks`, the legends' roles changed to
  ///   ``ParagraphRole/caption``.
  /// - Complexity: O(*f* · *p*) in the figures and paragraphs.
  public static func marking(_ blocks: [Block], figures: [Figure]) -> [Block] {
    guard !figures.isEmpty else { return blocks }
    var out = blocks
    for figure in figures {
      let f = figure.bbox
      // The nearest legend below and above: (block, paragraph, gap).
      var below: (Int, Int, Int)?
      var above: (Int, Int, Int)?
      for (b, block) in blocks.enumerated() {
        for (p, paragraph) in block.paragraphs.enumerated()
        where paragraph.role == .body && (1...2).contains(paragraph.lines.count) {
          let box = paragraph.bbox
          let lineHeights = paragraph.lines.map { $0.bbox.maxY - $0.bbox.minY }
          let line = lineHeights.max() ?? 0
          guard line > 0, box.minX >= f.minX - line, box.maxX <= f.maxX + line else { continue }
          if box.minY >= f.maxY, box.minY - f.maxY <= 3 * line {
            let gap = box.minY - f.maxY
            if below.map({ gap < $0.2 }) ?? true { below = (b, p, gap) }
          } else if box.maxY <= f.minY, f.minY - box.maxY <= 3 * line {
            let gap = f.minY - box.maxY
            if above.map({ gap < $0.2 }) ?? true { above = (b, p, gap) }
          }
        }
      }
      for (b, p, _) in [below, above].compactMap({ $0 }) {
        out[b].paragraphs[p].role = .caption
      }
    }
    return out
  }
}
