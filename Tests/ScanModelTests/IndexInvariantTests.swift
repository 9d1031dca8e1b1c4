import Testing

@testable import ScanModel

/// The R-tree against a brute-force scan, and the page index's invariants on
/// pages of every shape.
struct IndexInvariantTests {
  private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  private static func randomRect(_ rng: inout SplitMix, extent: Double = 2000) -> Rect {
    let x = Double.random(in: 0..<extent, using: &rng)
    let y = Double.random(in: 0..<extent, using: &rng)
    // Mostly line-like boxes, some tall, some points.
    let w = Double.random(in: 0..<600, using: &rng)
    let h = Bool.random(using: &rng) ? Double.random(in: 0..<60, using: &rng) : 0
    return Rect(minX: x, minY: y, maxX: x + w, maxY: y + h)
  }

  @Test(arguments: [0, 1, 2, 7, 8, 9, 63, 64, 65, 500, 3000])
  func rTreeAnswersLikeABruteForceScan(count: Int) {
    var rng = SplitMix(state: UInt64(count) &+ 17)
    let bounds = (0..<count).map { _ in Self.randomRect(&rng) }
    let tree = SpatialIndex(bounds)
    #expect(tree.invariantViolations() == [])
    #expect(tree.count == count)
    for _ in 0..<200 {
      let query = Self.randomRect(&rng, extent: 2400)
      var found: [Int] = []
      tree.forEachItem(intersecting: query) { found.append($0) }
      let expected = bounds.indices.filter {
        bounds[$0].minX <= query.maxX && query.minX <= bounds[$0].maxX
          && bounds[$0].minY <= query.maxY && query.minY <= bounds[$0].maxY
      }
      #expect(found.sorted() == expected, "query \(query)")

      let point = Point(
        x: Double.random(in: -200..<2600, using: &rng),
        y: Double.random(in: -200..<2600, using: &rng))
      let distance = { (i: Int) in bounds[i].distance(to: point) }
      // Many boxes tie at distance 0 (the point inside): the tie rule decides.
      let tieBreak = { (i: Int) in Double((i * 7919) % 1009) + Double(i) * 1e-6 }
      let nearest = tree.nearest(to: point, distance: distance, tieBreak: tieBreak)
      let reference = bounds.indices.min {
        (distance($0), tieBreak($0)) < (distance($1), tieBreak($1))
      }
      #expect(nearest == reference, "point \(point)")
    }
  }

  private static func randomPage(seed: UInt64) -> Page {
    var rng = SplitMix(state: seed)
    let texts = ["a", "word", "café", "cafe\u{301}", "x👍🏽y", "日本語", "", " ", "-", "ﬁne", "\u{301}"]
    var blocks: [Block] = []
    for _ in 0..<Int.random(in: 0...4, using: &rng) {
      var paragraphs: [Paragraph] = []
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        var lines: [TextLine] = []
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
          let x = Int.random(in: 0..<1500, using: &rng)
          let y = Int.random(in: 0..<2000, using: &rng)
          var words: [Word] = []
          var cursor = x
          for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let text = texts.randomElement(using: &rng) ?? "a"
            let width = Int.random(in: 0...80, using: &rng)
            let box = PixelRect(minX: cursor, minY: y, maxX: cursor + width, maxY: y + 30)
            let glyphs = text.map { c in Glyph(text: String(c), bbox: box) }
            words.append(Word(text: text, bbox: box, confidence: 90, glyphs: glyphs))
            cursor += width + Int.random(in: -20...20, using: &rng)
          }
          let lineBox = PixelRect(minX: x, minY: y, maxX: max(cursor, x), maxY: y + 30)
          lines.append(TextLine(bbox: lineBox, words: words))
        }
        paragraphs.append(
          Paragraph(bbox: PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1), lines: lines))
      }
      blocks.append(
        Block(bbox: PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1), paragraphs: paragraphs))
    }
    return Page(width: 2000, height: 2100, blocks: blocks)
  }

  @Test func pageIndexHoldsItsInvariantsOnPagesOfEveryShape() {
    for seed in UInt64(0)..<300 {
      let page = Self.randomPage(seed: seed)
      #expect(page.layout.invariantViolations() == [], "seed \(seed)")
      // The views agree with the element tree.
      let lines = page.blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
      #expect(Array(page.lines) == lines, "seed \(seed)")
      #expect(Array(page.words) == lines.flatMap(\.words), "seed \(seed)")
      #expect(page.lineCount == page.lines.count)
    }
  }

  @Test func nearestLineIsTheClosestLineOutline() {
    var rng = SplitMix(state: 99)
    for seed in UInt64(300)..<340 {
      let layout = Self.randomPage(seed: seed).layout
      for _ in 0..<50 {
        let point = Point(
          x: Double.random(in: 0..<2000, using: &rng), y: Double.random(in: 0..<2100, using: &rng))
        guard let found = layout.nearestLine(to: point) else {
          #expect(layout.lines.isEmpty)
          continue
        }
        let best = layout.lines.map { $0.frame.distance(to: point) }.min() ?? 0
        #expect(layout.lines[found].frame.distance(to: point) == best, "seed \(seed) \(point)")
      }
    }
  }
}
