/// What OCR read in leaders (the rows of dots or dashes between a contents
/// entry and its page number) taken out of the words: "1.1 Scope
/// ----- cece eeeee 12" becomes "1.1 Scope 12".
///
/// A leader's marks are no text, but OCR reads them as junk words
/// ("-------", "nnn", "cece", "2-2-2202") or glues a few to the word
/// beside them ("Document......"). Where the leaders lie is found in the
/// image (ScanImaging's `Leaders`); here each glyph whose centre lies over
/// a leader (its span along the line, the line's words meeting it across)
/// goes, and a word keeps the glyphs left (split where a leader cut it);
/// a word without glyph boxes goes when half its width lies over a
/// leader. A line, paragraph or block left without words goes too; the
/// page's text and ranges are built from what is left (``Page``).
public enum LeaderWords {
  /// The blocks without what was read over the leaders.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - leaders: The leaders' boxes, in the same pixels.
  /// - Returns: The blocks with the leaders' junk taken out; `blocks`
  ///   unchanged when there are no leaders.
  /// - Complexity: O(*g* · *l*) in the page's glyphs and leaders.
  public static func removing(from blocks: [Block], leaders: [PixelRect]) -> [Block] {
    guard !leaders.isEmpty else { return blocks }
    return SliverNoise.replacingWords(in: blocks) { kept($0, leaders) }
  }

  /// The leader a box lies over: one it meets across (their vertical
  /// extents overlap) whose span along the line holds `x`.
  static func isOverLeader(x: Double, box: PixelRect, _ leaders: [PixelRect]) -> Bool {
    leaders.contains { leader in
      box.minY < leader.maxY && leader.minY < box.maxY && Double(leader.minX) <= x
        && x < Double(leader.maxX)
    }
  }

  /// What is left of a word: itself, nothing, or the runs of its glyphs
  /// that lie off the leaders, each a word.
  static func kept(_ word: Word, _ leaders: [PixelRect]) -> [Word] {
    guard
      leaders.contains(where: {
        word.bbox.minY < $0.maxY && $0.minY < word.bbox.maxY && word.bbox.minX < $0.maxX
          && $0.minX < word.bbox.maxX
      })
    else { return [word] }
    let glyphs = word.glyphs
    guard !glyphs.isEmpty, glyphs.map(\.text).joined() == word.text else {
      // No glyph boxes to go by: the word goes when half of it is leader.
      let over = leaders.reduce(0) { sum, leader in
        guard word.bbox.minY < leader.maxY, leader.minY < word.bbox.maxY else { return sum }
        return sum + max(0, min(word.bbox.maxX, leader.maxX) - max(word.bbox.minX, leader.minX))
      }
      return 2 * over >= word.bbox.width ? [] : [word]
    }
    var runs: [[Glyph]] = [[]]
    for glyph in glyphs {
      let centre = Double(glyph.bbox.minX + glyph.bbox.maxX) / 2
      if isOverLeader(x: centre, box: word.bbox, leaders) {
        if !(runs.last?.isEmpty ?? true) { runs.append([]) }
      } else {
        runs[runs.count - 1].append(glyph)
      }
    }
    let pieces = runs.filter { !$0.isEmpty }
    if pieces.count == 1, pieces[0].count == glyphs.count { return [word] }
    return pieces.compactMap { run in
      guard let box = PixelRect.union(run.map(\.bbox)) else { return nil }
      let text = run.map(\.text).joined()
      guard text.contains(where: { !$0.isWhitespace }) else { return nil }
      return Word(text: text, bbox: box, confidence: word.confidence, glyphs: run)
    }
  }
}
