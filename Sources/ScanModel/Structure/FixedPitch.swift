/// Type set at a fixed pitch (a typewriter's, a code listing's), told from
/// the glyph boxes Tesseract returns.
///
/// In a fixed-pitch face every character takes the same advance, so the
/// centres of a word's glyphs step evenly along the line; in a
/// proportional face an `i` and an `m` differ by more than twice, and the
/// steps of almost every word of four letters or more differ by a third
/// or more. Measured on `redp5110_sampled` p8 and p12 of the docling set
/// (300 dpi): the code lines' words step within 0.05–0.27 of their mean
/// step (one misread word, 0.77), the page's proportional words 22 % of
/// them within 0.3.
enum FixedPitch {
  /// The widest spread of a fixed-pitch word's glyph steps, as a share
  /// of their mean: Tesseract's glyph boxes are ink boxes, a few pixels
  /// off the advance.
  static let spread = 0.3

  /// Whether a word is set at a fixed pitch: the steps between its glyphs'
  /// centres differ by at most ``spread`` of their mean. `nil` when the
  /// word tells nothing: fewer than four glyphs, fewer than half of them
  /// letters (a proportional face's figures are set at one width too, so
  /// numbers step evenly in any face), or glyphs out of order.
  /// - Complexity: O(*g*) in the word's glyphs.
  static func isFixedPitch(_ word: Word) -> Bool? {
    step(of: word).map { $0.spread <= spread * $0.mean }
  }

  /// The mean step between a word's glyph centres and the steps' spread
  /// (largest less smallest), or `nil` when the word tells nothing (as
  /// ``isFixedPitch(_:)``).
  /// - Complexity: O(*g*) in the word's glyphs.
  static func step(of word: Word) -> (mean: Double, spread: Double)? {
    let glyphs = word.glyphs
    guard glyphs.count >= 4,
      2 * glyphs.count(where: { $0.text.contains(where: \.isLetter) }) >= glyphs.count
    else { return nil }
    let centres = glyphs.map { Double($0.bbox.minX + $0.bbox.maxX) / 2 }
    let steps = zip(centres, centres.dropFirst()).map { $1 - $0 }
    guard let low = steps.min(), let high = steps.max(), low > 0 else { return nil }
    let mean = steps.reduce(0, +) / Double(steps.count)
    return (mean, high - low)
  }

  /// The advance of the fixed-pitch face `lines` are mostly set in (the
  /// median step of their fixed-pitch words), or `nil` when most of the
  /// words that tell are proportional, fewer than four are fixed, or the
  /// spaces between words are not an advance wide.
  ///
  /// The spaces tell what the words alone cannot: the capitals of a
  /// proportional face are near one width, so words in capitals step
  /// evenly (`tabula/m27.pdf` of the camelot set, a listing in Arial
  /// capitals, looked fixed-pitch). In a fixed-pitch face a space is one
  /// advance, so the centres of the glyphs either side of it are two
  /// advances apart; in a proportional face a space is about a third of
  /// a capital's height, and they stand 1.3–1.5 capital widths apart.
  /// - Complexity: O(*g* + *f* log *f*) in the glyphs and the fixed-pitch
  ///   words.
  static func pitch(_ lines: [TextLine]) -> Double? {
    var steps: [Double] = []
    var proportional = 0
    for word in lines.lazy.flatMap(\.words) {
      guard let step = step(of: word) else { continue }
      if step.spread <= spread * step.mean { steps.append(step.mean) } else { proportional += 1 }
    }
    guard steps.count >= 4, steps.count > proportional else { return nil }
    steps.sort()
    let pitch = steps[steps.count / 2]
    // Across the spaces: glyph centre to glyph centre, in advances, for
    // words at most three advances apart (a space or two, not a column).
    var spaces: [Double] = []
    for line in lines {
      let words = line.words.filter { !$0.glyphs.isEmpty }.sorted { $0.bbox.minX < $1.bbox.minX }
      for (a, b) in zip(words, words.dropFirst()) {
        guard let last = a.glyphs.last?.bbox, let first = b.glyphs.first?.bbox else { continue }
        let across = Double(first.minX + first.maxX - last.minX - last.maxX) / 2 / pitch
        if across < 3 { spaces.append(across) }
      }
    }
    guard !spaces.isEmpty else { return nil }
    spaces.sort()
    let space = spaces[spaces.count / 2]
    return abs(space - 2) <= 2 * spread ? pitch : nil
  }

  /// How many of `words` are set at a fixed pitch, and how many in a
  /// proportional face (words that tell nothing left out).
  /// - Complexity: O(*g*) in the words' glyphs.
  static func counts<S: Sequence<Word>>(_ words: S) -> (fixed: Int, proportional: Int) {
    var out = (fixed: 0, proportional: 0)
    for word in words {
      switch isFixedPitch(word) {
      case true?: out.fixed += 1
      case false?: out.proportional += 1
      case nil: break
      }
    }
    return out
  }
}
