import ScanModel

/// A small, fast, seedable generator (SplitMix64), so every run builds the
/// same document and asks the same queries.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform `Int` in `range`.
  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
  /// A uniform `Double` in `range`.
  mutating func double(_ range: Range<Double>) -> Double { Double.random(in: range, using: &self) }
  /// `true` with probability `p`.
  mutating func chance(_ p: Double) -> Bool { double(0..<1) < p }
}

/// Builds pages that look like a 300 dpi US-letter scan as Tesseract reports
/// it: ~40 text lines per column, paragraphs of 3–8 lines separated by a gap,
/// ragged right, words of ~5 glyphs whose boxes follow letter shapes
/// (x-height, ascenders, descenders, narrow and wide letters); every other
/// page has two columns.
enum SyntheticDocument {
  static let pageWidth = 2550
  static let pageHeight = 3300
  static let marginX = 225
  static let marginTop = 200
  static let marginBottom = 200
  static let columnGap = 100
  static let linePitch = 70
  static let paragraphGap = 35
  static let xHeight = 34
  static let ascent = 50
  static let descent = 16
  static let space = 24

  /// Letters in rough English frequency; capitals, digits and accents are
  /// added separately.
  private static let letters = Array(
    "eeeeeeettttttaaaaaoooooiiiiinnnnnssssshhhhrrrrdddllluuccmmwwffggyyppbbvkjxqz")

  /// The element tree of page `index` and its glyph count.
  static func blocks(page index: Int, seed: UInt64) -> (blocks: [Block], glyphs: Int) {
    var rng = SeededGenerator(seed: seed &+ UInt64(index) &* 0x1000_0001)
    let twoColumns = index % 2 == 1
    let usable = pageWidth - 2 * marginX
    let columnWidth = twoColumns ? (usable - columnGap) / 2 : usable
    let columns = twoColumns ? 2 : 1
    var blocks: [Block] = []
    var glyphCount = 0
    for c in 0..<columns {
      let left = marginX + c * (columnWidth + columnGap)
      let right = left + columnWidth
      var top = marginTop
      var paragraphs: [Paragraph] = []
      while true {
        let lineCount = rng.int(3...8)
        guard top + linePitch <= pageHeight - marginBottom else { break }
        var lines: [TextLine] = []
        for l in 0..<lineCount {
          guard top + linePitch <= pageHeight - marginBottom else { break }
          let baselineY = top + ascent + 2
          // The last line of a paragraph is short; the first is indented.
          let indent = l == 0 ? 60 : 0
          let limit =
            l == lineCount - 1 ? left + Int(Double(columnWidth) * rng.double(0.3..<0.9)) : right
          var x = left + indent
          var words: [Word] = []
          while true {
            let (word, width, glyphs) = makeWord(x: x, baselineY: baselineY, rng: &rng)
            if x + width > limit, !words.isEmpty { break }
            words.append(word)
            glyphCount += glyphs
            x += width + space + rng.int(-3...3)
            if x >= limit { break }
          }
          let bbox = PixelRect.union(words.map(\.bbox))!
          lines.append(
            TextLine(
              bbox: bbox,
              baseline: Baseline(
                start: Point(x: Double(bbox.minX), y: Double(baselineY)),
                end: Point(x: Double(bbox.maxX), y: Double(baselineY))),
              words: words))
          top += linePitch
        }
        if lines.isEmpty { break }
        paragraphs.append(Paragraph(bbox: PixelRect.union(lines.map(\.bbox))!, lines: lines))
        top += paragraphGap
      }
      blocks.append(Block(bbox: PixelRect.union(paragraphs.map(\.bbox))!, paragraphs: paragraphs))
    }
    return (blocks, glyphCount)
  }

  /// A word starting at `x` on a baseline: its glyphs laid out left to right.
  private static func makeWord(x: Int, baselineY: Int, rng: inout SeededGenerator)
    -> (word: Word, width: Int, glyphs: Int)
  {
    var characters: [Character] = []
    let length = max(1, min(12, Int((rng.double(0..<1) * 4 + rng.double(0..<1) * 4).rounded()) + 1))
    if rng.chance(0.04) {
      for _ in 0..<min(length, 4) { characters.append(Character(String(rng.int(0...9)))) }
    } else {
      for i in 0..<length {
        var ch = letters[rng.int(0..<letters.count)]
        if i == 0, rng.chance(0.12) { ch = Character(ch.uppercased()) }
        if ch == "e", rng.chance(0.03) { ch = "é" }
        characters.append(ch)
      }
      if rng.chance(0.10) {
        characters.append(",")
      } else if rng.chance(0.07) {
        characters.append(".")
      }
    }
    var glyphs: [Glyph] = []
    glyphs.reserveCapacity(characters.count)
    var pen = x
    for ch in characters {
      let advance = advanceWidth(ch) + rng.int(-2...2)
      let bearing = max(1, advance / 12)
      let (above, below) = verticalExtent(ch)
      let bbox = PixelRect(
        minX: pen + bearing, minY: baselineY - above + rng.int(-1...1),
        maxX: pen + advance - bearing, maxY: baselineY + below + rng.int(0...1))
      glyphs.append(Glyph(text: String(ch), bbox: bbox, confidence: rng.double(80..<99.9)))
      pen += advance
    }
    let text = String(characters)
    let bbox = PixelRect.union(glyphs.map(\.bbox))!
    let word = Word(text: text, bbox: bbox, confidence: rng.double(75..<99), glyphs: glyphs)
    return (word, bbox.maxX - x, glyphs.count)
  }

  private static func advanceWidth(_ ch: Character) -> Int {
    switch ch {
    case "i", "j", "l", ".", ",", "'": 16
    case "f", "t", "r": 22
    case "m", "w", "M", "W": 54
    case _ where ch.isUppercase: 44
    case _ where ch.isNumber: 34
    default: 34
    }
  }

  /// Pixels above and below the baseline.
  private static func verticalExtent(_ ch: Character) -> (Int, Int) {
    switch ch {
    case ".": (8, 0)
    case ",": (8, 10)
    case "g", "p", "q", "y": (xHeight, descent)
    case "j": (ascent - 6, descent)
    case "b", "d", "f", "h", "k", "l", "t", "é": (ascent, 0)
    case "i": (ascent - 8, 0)
    case _ where ch.isUppercase || ch.isNumber: (ascent, 0)
    default: (xHeight, 0)
    }
  }
}
