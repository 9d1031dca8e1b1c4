/// Words that are noise, not text: a "word" Tesseract read in a thin streak
/// of ink set across the page's lines (a facing page's margin, the edge of
/// a page, a rule or the gutter's shadow in a photo).
///
/// A word is such a sliver when, in the page's upright frame (its
/// ``Page/orientation`` turned back), it has two characters or more, its
/// ink is more than twice as tall as wide, it is thinner than half the
/// page's text height (the median height of its confidently read words
/// laid along the lines: confidence 60 or more, at least two letters or
/// digits, at least as wide as tall; five or more of them, else nothing is
/// dropped), and its confidence is below 50. Text set vertically is as
/// thick as its letters are tall; a streak thinner than half the text's
/// height holds no letter set across it, and Tesseract's low confidence
/// says so too.
///
/// Measured (2026-12-05) on every real scan in `../shared/scans`, the
/// samples in `Scans/` and develop seeds 1000–1004 of every family: the
/// rule drops 21 words on `boston-cooking-a` (the facing page's margin:
/// `enc` in a 15 × 125 pixel streak, `ceaptenacte` in 1 × 82, confidence
/// 0–44), 5 on `linguistics-thesis-a` (a rule and the binding: `sore`,
/// `eos`, a 37-letter word in 15 × 273), 3 on `fleming-jaeger` (3–4 pixels
/// wide), 1 on `bengel-abriss` (the page's edge) and 1 on `dibco11-pr3`,
/// and no word on any other page. The columns family's words set
/// vertically (24 pixels thick at a text height of 23–32) stay.
public enum SliverNoise {
  /// Whether a word is a sliver of noise, by the rule above.
  /// - Parameters:
  ///   - word: The word, its box in the page's pixels.
  ///   - textHeight: The page's text height (`textHeight(of:orientation:)`).
  ///   - turned: Whether the page's lines run down the image (orientation
  ///     90 or 270).
  public static func isSliver(_ word: Word, textHeight: Int, turned: Bool) -> Bool {
    let (across, along) = size(of: word, turned: turned)
    return word.text.count >= 2 && along > 2 * across && 2 * across < textHeight
      && (word.confidence ?? 0) < 50
  }

  /// The page's text height: the median height, in the page's upright
  /// frame, of its confidently read words laid along the lines; `nil` when
  /// fewer than five.
  public static func textHeight(of blocks: [Block], turned: Bool) -> Int? {
    var heights: [Int] = []
    for block in blocks {
      for paragraph in block.paragraphs {
        for line in paragraph.lines {
          for word in line.words
          where ScanConventions.isConfidentText(word.text, confidence: word.confidence) {
            let (across, along) = size(of: word, turned: turned)
            if across >= along { heights.append(along) }
          }
        }
      }
    }
    guard heights.count >= 5 else { return nil }
    heights.sort()
    return heights[heights.count / 2]
  }

  /// The blocks without their slivers of noise; a line, paragraph or block
  /// left without words goes too. The page's text and ranges are built from
  /// what is left (``Page``).
  /// - Parameters:
  ///   - blocks: A page's blocks, in its pixels.
  ///   - orientation: The page's orientation in degrees (0, 90, 180, 270).
  /// - Complexity: O(*n* log *n*) in the page's words.
  public static func removing(from blocks: [Block], orientation: Int) -> [Block] {
    let turned = orientation % 180 == 90
    guard let height = textHeight(of: blocks, turned: turned) else { return blocks }
    return replacingWords(in: blocks) {
      isSliver($0, textHeight: height, turned: turned) ? [] : [$0]
    }
  }

  /// The blocks with each word replaced by what `replacement` makes of it
  /// (itself, nothing, or pieces); a line, paragraph or block left without
  /// words goes too. The one walk the word-dropping repairs
  /// (``SliverNoise``, ``LeaderWords``) share.
  /// - Complexity: O(*w*) calls of `replacement` in the page's words.
  static func replacingWords(in blocks: [Block], _ replacement: (Word) -> [Word]) -> [Block] {
    var out: [Block] = []
    for var block in blocks {
      block.paragraphs = block.paragraphs.compactMap { paragraph in
        var paragraph = paragraph
        paragraph.lines = paragraph.lines.compactMap { line in
          var line = line
          line.words = line.words.flatMap(replacement)
          return line.words.isEmpty ? nil : line
        }
        return paragraph.lines.isEmpty ? nil : paragraph
      }
      if !block.paragraphs.isEmpty { out.append(block) }
    }
    return out
  }

  /// A word's ink (width, height) in the page's upright frame.
  private static func size(of word: Word, turned: Bool) -> (across: Int, along: Int) {
    let w = word.bbox.maxX - word.bbox.minX
    let h = word.bbox.maxY - word.bbox.minY
    return turned ? (h, w) : (w, h)
  }
}
