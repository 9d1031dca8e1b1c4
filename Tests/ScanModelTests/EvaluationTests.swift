import Foundation
import ScanFormats
import Testing

@testable import ScanModel

// MARK: - Helpers

/// A word box: 10 px per character, 20 px high.
private func word(_ text: String, x: Int, y: Int) -> Word {
  Word(text: text, bbox: PixelRect(minX: x, minY: y, maxX: x + 10 * text.count, maxY: y + 20))
}

/// A line of words at `y`, starting at x = 10 with 10 px gaps; its box is
/// the union of its words' boxes.
private func line(_ texts: [String], y: Int) -> TextLine {
  var x = 10
  var words: [Word] = []
  for t in texts {
    let w = word(t, x: x, y: y)
    words.append(w)
    x = w.bbox.maxX + 10
  }
  return line(words)
}

private func line(_ words: [Word]) -> TextLine {
  TextLine(
    bbox: PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0),
    words: words)
}

/// A page of one block and one paragraph holding `lines`.
private func page(_ lines: [TextLine], index: Int = 0) -> Page {
  let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
  return Page(
    index: index, width: 800, height: 600,
    blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: lines)])])
}

/// A page whose line `k` holds `texts[k]`, lines 40 px apart from y = 10.
private func page(_ texts: [[String]], index: Int = 0) -> Page {
  page(texts.enumerated().map { line($1, y: 10 + 40 * $0) }, index: index)
}

private let sample: [[String]] = [["The", "quick", "brown", "fox"], ["jumps", "over"]]

/// The textbook O(n·m) Levenshtein distance.
private func naiveDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
  if a.isEmpty { return b.count }
  var row = Array(0...b.count)
  for i in 1...a.count {
    var diagonal = row[0]
    row[0] = i
    for j in stride(from: 1, through: b.count, by: 1) {
      let above = row[j]
      row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.count]
}

/// A deterministic pseudo-random generator (SplitMix64).
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

private func expectPerfect(
  _ e: PageEvaluation, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(e.cer == 0, sourceLocation: sourceLocation)
  #expect(e.wer == 0, sourceLocation: sourceLocation)
  #expect(e.wordRecall == 1, sourceLocation: sourceLocation)
  #expect(abs(e.meanIoU - 1) < 1e-12, sourceLocation: sourceLocation)
  #expect(abs(e.lineCover - 1) < 1e-9, sourceLocation: sourceLocation)
  #expect(e.lineBleed < 1e-9, sourceLocation: sourceLocation)
  #expect(e.hitRate == 1, sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite struct EvaluationTests {
  @Test func ocrBoxesOutsideTheTruthsAreaDoNotCrash() {
    // OCR words far to the right of and below every truth box (a skewed
    // page read as garbage produced these once, and the word grid trapped).
    let truth = page(sample)
    let far = page(
      [line(["The"], y: 5000), line(["quick"], y: 10)].map { l in
        TextLine(
          bbox: l.bbox,
          words: l.words.map {
            Word(
              text: $0.text,
              bbox: PixelRect(
                minX: $0.bbox.minX + 9000, minY: $0.bbox.minY, maxX: $0.bbox.maxX + 9000,
                maxY: $0.bbox.maxY))
          })
      })
    let e = far.evaluate(against: truth)
    #expect(e.wordRecall == 0)
    #expect(e.hitRate == 0)
    #expect(e.lineCover == 0)
  }

  @Test func identicalPageIsPerfect() {
    let p = page(sample)
    let e = p.evaluate(against: p)
    expectPerfect(e)
    #expect(e.lineCover == 1)
    #expect(e.lineBleed == 0)
    #expect(e.truthWords == 6)
    #expect(e.ocrWords == 6)
    #expect(e.matchedWords == 6)
    #expect(e.truthLines == 2)
    #expect(e.tally.truthCharacters == 30)
    #expect(e.pairing == .paired)
  }

  @Test func substitutedWordGivesExactRates() {
    let truth = page(sample)
    let ocr = page([["The", "quick", "browm", "fox"], ["jumps", "over"]])
    let e = ocr.evaluate(against: truth)
    // "The quick brown fox jumps over": 30 graphemes, 6 words, one substitution.
    #expect(e.tally.characterErrors == 1)
    #expect(e.cer == 1.0 / 30)
    #expect(e.tally.wordErrors == 1)
    #expect(e.wer == 1.0 / 6)
    #expect(e.matchedWords == 5)
    #expect(e.wordRecall == 5.0 / 6)
    #expect(e.meanIoU == 1)
    #expect(e.hitRate == 5.0 / 6)
    #expect(e.lineCover == 1)
  }

  @Test func insertionsAndDeletionsCount() {
    let truth = page([["one", "two", "three"]])
    // "one two three" (13) → "one three four": delete "two " (4), insert " four" (5).
    let ocr = page([["one", "three", "four"]])
    let e = ocr.evaluate(against: truth)
    #expect(
      e.tally.characterErrors == naiveDistance(Array("one three four"), Array("one two three")))
    #expect(e.cer == Double(e.tally.characterErrors) / 13)
    #expect(e.tally.wordErrors == 2)
    #expect(e.wer == 2.0 / 3)
  }

  @Test func caseAndPunctuationAreIgnoredForMatching() {
    let truthLine = line(["Dr.", "Smith,", "can't"], y: 10)
    let truth = page([truthLine])
    // Same boxes, other spellings.
    let ocrWords = zip(["dr", "SMITH", "cant"], truthLine.words).map {
      Word(text: $0, bbox: $1.bbox)
    }
    let ocr = page([line(ocrWords)])
    let e = ocr.evaluate(against: truth)
    #expect(e.wordRecall == 1)
    #expect(e.hitRate == 1)
    #expect(e.cer > 0)
    #expect(e.wer == 1)
  }

  @Test func shiftedBoxesLowerRecallBelowHalfIoU() {
    let truth = page([["alpha", "beta"]])
    // "alpha" is 50 px wide at x = 10; "beta" 40 px at x = 70.
    let farAlpha = Word(text: "alpha", bbox: PixelRect(minX: 30, minY: 10, maxX: 80, maxY: 30))
    let farBeta = Word(text: "beta", bbox: PixelRect(minX: 90, minY: 10, maxX: 130, maxY: 30))
    let far = page([line([farAlpha, farBeta])]).evaluate(against: truth)
    // alpha: overlap 30·20 over union 70·20 = 3/7; beta: 20/60 = 1/3.
    #expect(far.matchedWords == 0)
    #expect(far.wordRecall == 0)
    #expect(far.meanIoU == 0)
    #expect(far.cer == 0)

    let nearAlpha = Word(text: "alpha", bbox: PixelRect(minX: 20, minY: 10, maxX: 70, maxY: 30))
    let beta = word("beta", x: 70, y: 10)
    let near = page([line([nearAlpha, beta])]).evaluate(against: truth)
    // alpha: 40/60 = 2/3 ≥ 0.5, beta unchanged.
    #expect(near.matchedWords == 2)
    #expect(near.wordRecall == 1)
    #expect(abs(near.meanIoU - (2.0 / 3 + 1) / 2) < 1e-12)
  }

  @Test func eachOCRWordMatchesOnce() {
    // Two truth "a" words; one OCR "a" overlapping both: the better IoU wins.
    let truth = page([
      line([
        Word(text: "a", bbox: PixelRect(minX: 10, minY: 10, maxX: 30, maxY: 30)),
        Word(text: "a", bbox: PixelRect(minX: 14, minY: 10, maxX: 34, maxY: 30)),
      ])
    ])
    let ocr = page([
      line([Word(text: "a", bbox: PixelRect(minX: 13, minY: 10, maxX: 33, maxY: 30))])
    ])
    let e = ocr.evaluate(against: truth)
    #expect(e.matchedWords == 1)
    #expect(e.wordRecall == 0.5)
    // IoU with the second truth word: 19/21.
    #expect(abs(e.meanIoU - 19.0 / 21) < 1e-12)
  }

  @Test func missingLineLowersCoverByItsShare() {
    let texts = [["one", "two"], ["three", "four"], ["five", "six"], ["seven", "eight"]]
    let truth = page(texts)
    var ocrLines = texts.enumerated().map { line($1, y: 10 + 40 * $0) }
    ocrLines.remove(at: 2)
    let e = page(ocrLines).evaluate(against: truth)
    #expect(e.truthLines == 4)
    #expect(e.lineCover == 0.75)
    #expect(e.lineBleed == 0)
    #expect(e.tally.matchedLines == 3)
    #expect(e.wordRecall == 0.75)
    #expect(e.hitRate == 0.75)
  }

  @Test func selectionSpanningTwoLinesBleeds() {
    // Truth: two lines 100 × 20 at y 10 and y 50. OCR: one line 100 × 60
    // covering both and the gap between them.
    let truth = page([
      line([Word(text: "upper", bbox: PixelRect(minX: 10, minY: 10, maxX: 110, maxY: 30))]),
      line([Word(text: "lower", bbox: PixelRect(minX: 10, minY: 50, maxX: 110, maxY: 70))]),
    ])
    let ocr = page([
      line([Word(text: "upper", bbox: PixelRect(minX: 10, minY: 10, maxX: 110, maxY: 70))])
    ])
    let e = ocr.evaluate(against: truth)
    #expect(e.lineCover == 1)
    // Each truth line: the 100 × 60 selection has 100 × 20 on the other line.
    #expect(abs(e.lineBleed - 1.0 / 3) < 1e-12)
    #expect(e.tally.matchedLines == 2)
  }

  @Test func partialSelectionCoversItsShare() {
    // The OCR line covers the left half of the truth line only.
    let truth = page([
      line([Word(text: "wide", bbox: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 20))])
    ])
    let ocr = page([
      line([Word(text: "wide", bbox: PixelRect(minX: 0, minY: 0, maxX: 100, maxY: 20))])
    ])
    let e = ocr.evaluate(against: truth)
    #expect(e.lineCover == 0.5)
    #expect(e.lineBleed == 0)
    // IoU exactly 0.5 still matches.
    #expect(e.wordRecall == 1)
    #expect(e.meanIoU == 0.5)
    #expect(e.hitRate == 1)
  }

  @Test func emptyOCRPageAgainstTruth() {
    let truth = page(sample)
    let empty = Page(width: 800, height: 600, blocks: [])
    let e = empty.evaluate(against: truth)
    #expect(e.cer == 1)
    #expect(e.wer == 1)
    #expect(e.wordRecall == 0)
    #expect(e.meanIoU == 0)
    #expect(e.lineCover == 0)
    #expect(e.lineBleed == 0)
    #expect(e.hitRate == 0)
    #expect(e.ocrWords == 0)
    #expect(e.truthWords == 6)
  }

  @Test func emptyTruthHasDefinedValues() {
    let empty = Page(width: 800, height: 600, blocks: [])
    let both = empty.evaluate(against: empty)
    expectPerfect(both)
    for (_, value) in both.metrics { #expect(value.isFinite) }

    let extra = page(sample).evaluate(against: empty)
    #expect(extra.cer == 1)
    #expect(extra.wer == 1)
    #expect(extra.wordRecall == 1)
    #expect(extra.meanIoU == 1)
    #expect(extra.lineCover == 1)
    #expect(extra.lineBleed == 0)
    #expect(extra.hitRate == 1)
    #expect(extra.tally.characterErrors == 30)
    for (_, value) in extra.metrics { #expect(value.isFinite) }
  }

  @Test func unicodeCountsGraphemes() {
    let truth = page([["café", "👍🏽"]])
    let e = page([["cafe", "👍🏽"]]).evaluate(against: truth)
    // "café 👍🏽" is 6 grapheme clusters (8 UTF-16 units, 11 scalars).
    #expect(e.tally.truthCharacters == 6)
    #expect(e.tally.characterErrors == 1)
    #expect(e.cer == 1.0 / 6)
    #expect(e.wer == 0.5)
    #expect(e.matchedWords == 1)  // "cafe" ≠ "café"; the emoji keys are both empty.

    // Canonically equivalent spellings are equal.
    let decomposed = page([["cafe\u{301}", "👍🏽"]]).evaluate(against: truth)
    #expect(decomposed.cer == 0)
    #expect(decomposed.wer == 0)
    #expect(decomposed.wordRecall == 1)

    // A skin-tone modifier changes one grapheme.
    let tone = page([["café", "👍"]]).evaluate(against: truth)
    #expect(tone.tally.characterErrors == 1)
  }

  @Test func documentTotalsAreRatiosOfSums() {
    let truth = Document(pages: [page(sample), page([["short", "page"]], index: 1)])
    let ocr = Document(pages: [
      page([["The", "quick", "browm", "fox"], ["jumps", "over"]]),
      page([["short", "page"]], index: 1),
    ])
    let summary = evaluate(ocr, against: truth)
    #expect(summary.pages.count == 2)
    #expect(summary.pages.map(\.index) == [0, 1])
    #expect(summary.pages[0].cer == 1.0 / 30)
    #expect(summary.pages[1].cer == 0)
    // 1 error over 30 + 10 truth characters, not the mean of 1/30 and 0.
    #expect(summary.total.cer == 1.0 / 40)
    #expect(summary.total.wer == 1.0 / 8)
    #expect(summary.total.wordRecall == 7.0 / 8)
    #expect(summary.total.truthLines == 3)
    #expect(summary.missingInOCR.isEmpty)
    #expect(summary.missingInTruth.isEmpty)
  }

  @Test func missingPagesAreReported() {
    let a = page(sample)
    let b = page([["short", "page"]], index: 1)
    let fewer = evaluate(Document(pages: [a]), against: Document(pages: [a, b]))
    #expect(fewer.pages.map(\.pairing) == [.paired, .missingInOCR])
    #expect(fewer.missingInOCR == [1])
    #expect(fewer.pages[1].cer == 1)
    #expect(fewer.pages[1].wordRecall == 0)
    #expect(fewer.total.cer == 10.0 / 40)
    #expect(fewer.total.wordRecall == 6.0 / 8)

    let more = evaluate(Document(pages: [a, b]), against: Document(pages: [a]))
    #expect(more.pages.map(\.pairing) == [.paired, .missingInTruth])
    #expect(more.missingInTruth == [1])
    #expect(more.pages[1].cer == 1)
    // The extra page's 10 characters count as errors over the 30 truth characters.
    #expect(more.total.cer == 10.0 / 30)
    #expect(more.total.wordRecall == 1)

    let none = evaluate(Document(pages: []), against: Document(pages: []))
    #expect(none.pages.isEmpty)
    #expect(none.total.cer == 0)
    #expect(none.total.wordRecall == 1)
  }

  @Test func readingOrderCostsOnlyTheReadingOrderCER() {
    // The same two paragraphs read the other way round: the words are all
    // right (CER 0), the order is not (reading-order CER > 0).
    let truth = PageFixtures.page([["Alpha beta gamma."], ["Delta epsilon."]])
    let swapped = Page(
      width: truth.width, height: truth.height,
      blocks: [
        Block(
          bbox: truth.blocks[0].paragraphs[1].bbox, paragraphs: [truth.blocks[0].paragraphs[1]]),
        Block(
          bbox: truth.blocks[0].paragraphs[0].bbox, paragraphs: [truth.blocks[0].paragraphs[0]]),
      ])
    #expect(swapped.text == "Delta epsilon.\n\nAlpha beta gamma.\n")
    let e = swapped.evaluate(against: truth)
    #expect(e.cer == 0)
    #expect(e.wer == 0)
    #expect(e.readingOrderCER > 0.5)
    #expect(e.value(of: .readingOrderCER) == e.readingOrderCER)
    // In the truth's order, both agree.
    let same = truth.evaluate(against: truth)
    #expect(same.cer == 0 && same.readingOrderCER == 0)
    // A misread word counts in both.
    let misread = PageFixtures.page([["Alpha beta gamna."], ["Delta epsilon."]])
    let m = misread.evaluate(against: truth)
    #expect(m.cer > 0 && m.cer == m.readingOrderCER)
  }

  @Test func metricNamesAreStable() {
    let e = page(sample).evaluate(against: page(sample))
    #expect(
      e.metrics.map(\.name) == [
        "cer", "wer", "wordRecall", "meanIoU", "lineCover", "lineBleed", "hitRate",
        "headingPrecision", "headingRecall", "headingLevelAccuracy", "roleAccuracy",
        "readingOrderCER",
      ])
    #expect(EvaluationMetric(rawValue: "lineBleed") == .lineBleed)
    #expect(
      EvaluationMetric.allCases.filter { !$0.higherIsBetter } == [
        .cer, .wer, .lineBleed, .readingOrderCER,
      ])
    for metric in EvaluationMetric.allCases {
      #expect(e.value(of: metric) == e.tally.value(of: metric))
    }
  }

  @Test func editDistanceMatchesTextbook() {
    var rng = SplitMix(state: 42)
    let lengths = [0, 1, 2, 63, 64, 65, 127, 128, 129, 200]
    for _ in 0..<60 {
      let n = lengths[Int(rng.next() % UInt64(lengths.count))]
      let m = lengths[Int(rng.next() % UInt64(lengths.count))]
      let alphabet = Int(rng.next() % 4) + 2
      let a = (0..<n).map { _ in Int(rng.next() % UInt64(alphabet)) }
      var b = (0..<m).map { _ in Int(rng.next() % UInt64(alphabet)) }
      if rng.next() % 3 == 0 { b = a + b.prefix(3) }  // shared prefix
      #expect(
        EvaluationEditDistance.distance(a, b) == naiveDistance(a, b), "n \(a.count) m \(b.count)")
    }
    #expect(EvaluationEditDistance.distance("kitten", "sitting") == 3)
    #expect(EvaluationEditDistance.distance("", "abc") == 3)
    #expect(EvaluationEditDistance.distance("abc", "") == 3)
  }

  @Test func editDistanceOfLongStrings() {
    let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 112)
    #expect(text.count > 5000)
    var changed = Array(text)
    for i in stride(from: 7, to: changed.count, by: 100) { changed[i] = "#" }
    let substitutions = (changed.count - 7 + 99) / 100
    #expect(EvaluationEditDistance.distance(String(changed), text) == substitutions)
    #expect(EvaluationEditDistance.distance(text, text) == 0)
    let a = String(repeating: "a", count: 5000)
    let b = String(repeating: "b", count: 4000)
    #expect(EvaluationEditDistance.distance(a, b) == 5000)
  }

  @Test func gridFindsTheSameBoxesAsBruteForce() {
    var rng = SplitMix(state: 7)
    func box(maxSize: Int) -> PixelRect {
      let x = Int(rng.next() % 1000) - 100
      let y = Int(rng.next() % 1000) - 100
      return PixelRect(
        minX: x, minY: y, maxX: x + Int(rng.next() % UInt64(maxSize)),
        maxY: y + Int(rng.next() % UInt64(maxSize)))
    }
    var boxes = (0..<300).map { _ in box(maxSize: 60) }
    boxes += (0..<5).map { _ in box(maxSize: 900) }  // oversized
    let grid = EvaluationGeometry.Grid(boxes)
    for _ in 0..<200 {
      let q = box(maxSize: 200)
      let expected = boxes.indices.filter { boxes[$0].intersection(q) != nil }
      #expect(grid.boxes(intersecting: q) == expected)
    }
    #expect(
      EvaluationGeometry.Grid([]).boxes(intersecting: PixelRect(minX: 0, minY: 0, maxX: 9, maxY: 9))
        .isEmpty)
  }

  @Test func unionAreaIsExact() {
    let rects = [
      Rect(minX: 0, minY: 0, maxX: 10, maxY: 10),
      Rect(minX: 5, minY: 5, maxX: 15, maxY: 15),
      Rect(minX: 20, minY: 0, maxX: 30, maxY: 2.5),
      Rect(minX: 1, minY: 1, maxX: 2, maxY: 2),  // inside the first
      Rect(minX: 3, minY: 3, maxX: 3, maxY: 8),  // empty
    ]
    #expect(EvaluationGeometry.unionArea(rects) == 100 + 100 - 25 + 25)
    #expect(EvaluationGeometry.unionArea([]) == 0)
  }

  @Test func cleanTruthAgainstItselfIsPerfect() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("Scans/clean.truth.json")
    let json = try String(contentsOf: url, encoding: .utf8)
    let truth = try DocumentJSON.decode(json)
    let summary = evaluate(truth, against: truth)
    #expect(summary.pages.count == 1)
    #expect(summary.total.truthWords > 100)
    #expect(summary.total.matchedWords == summary.total.truthWords)
    for page in summary.pages { expectPerfect(page) }
    #expect(summary.total.cer == 0)
    #expect(summary.total.wordRecall == 1)
    #expect(abs(summary.total.lineCover - 1) < 1e-9)
  }
}
