extension Page {
  /// Measures this OCR page against its ground truth: CER, WER, word
  /// recall, mean IoU, line cover, line bleed and hit rate (see
  /// ``EvaluationMetric`` for the exact definitions), with the counts behind
  /// them.
  ///
  /// Only words, lines and their boxes are used: glyphs, confidences,
  /// baselines and quads of the truth are ignored (skewed words are compared
  /// by their axis-aligned boxes). Every metric is defined for empty pages
  /// on either side; nothing divides by zero.
  ///
  /// - Parameter truth: The ground-truth page, in the same pixel coordinates.
  /// - Returns: The page's evaluation; its ``PageEvaluation/index`` is
  ///   `truth.index`.
  /// - Complexity: O(*n* · ⌈*m*/64⌉) for the edit distances, where *n* and
  ///   *m* are the lengths of the two strings; O((*w* + *v*) log(*w* + *v*))
  ///   for the words, with candidate pairs found through a grid, for *w*
  ///   truth and *v* OCR words of evenly sized boxes; and O(*l* · *k*²
  ///   log *k*) for the lines, where *k* is the number of truth lines an OCR
  ///   line's selection touches.
  public func evaluate(against truth: Page) -> PageEvaluation {
    PageEvaluation(
      index: truth.index, pairing: .paired, tally: EvaluationRun(ocr: self, truth: truth).tally())
  }
}

/// Measures every page of `document` against the page at the same position
/// in `truth` (pages are paired by their position in ``Document/pages``,
/// not by their `index`).
///
/// A truth page without an OCR page is evaluated as an empty OCR page
/// (``PagePairing/missingInOCR``); an OCR page without a truth page is
/// evaluated against an empty truth page (``PagePairing/missingInTruth``).
/// Both count in the totals.
///
/// - Parameters:
///   - document: The OCR document.
///   - truth: The ground-truth document.
/// - Returns: One ``PageEvaluation`` per position present in either
///   document, and the totals (ratios of summed counts, not means of
///   per-page ratios).
/// - Complexity: The sum of ``Page/evaluate(against:)`` over the pages.
public func evaluate(_ document: Document, against truth: Document) -> EvaluationSummary {
  let count = max(document.pages.count, truth.pages.count)
  var pages: [PageEvaluation] = []
  pages.reserveCapacity(count)
  for i in 0..<count {
    let ocrPage = document.pages.indices.contains(i) ? document.pages[i] : nil
    let truthPage = truth.pages.indices.contains(i) ? truth.pages[i] : nil
    switch (ocrPage, truthPage) {
    case (let o?, let t?):
      pages.append(PageEvaluation(index: i, pairing: .paired, tally: o.evaluate(against: t).tally))
    case (nil, let t?):
      let empty = Page(index: t.index, width: t.width, height: t.height, blocks: [])
      pages.append(
        PageEvaluation(index: i, pairing: .missingInOCR, tally: empty.evaluate(against: t).tally))
    case (let o?, nil):
      let empty = Page(index: o.index, width: o.width, height: o.height, blocks: [])
      pages.append(
        PageEvaluation(index: i, pairing: .missingInTruth, tally: o.evaluate(against: empty).tally))
    case (nil, nil):
      continue
    }
  }
  return EvaluationSummary(pages: pages)
}

/// The text of a word for matching: lowercased, letters and digits only.
func evaluationMatchKey(_ text: String) -> String {
  String(text.lowercased().filter { $0.isLetter || $0.isNumber })
}

/// One evaluation of an OCR page against a truth page.
private struct EvaluationRun {
  let ocr: Page
  let truth: Page
  let ocrWords: Page.Words
  let truthWords: Page.Words
  let ocrLines: Page.Lines
  let truthLines: Page.Lines

  init(ocr: Page, truth: Page) {
    self.ocr = ocr
    self.truth = truth
    ocrWords = ocr.words
    truthWords = truth.words
    ocrLines = ocr.lines
    truthLines = truth.lines
  }

  func tally() -> EvaluationTally {
    var t = EvaluationTally()
    t.truthWords = truthWords.count
    t.ocrWords = ocrWords.count
    t.truthLines = truthLines.count
    t.ocrLines = ocrLines.count
    countEdits(into: &t)
    matchWords(into: &t)
    hitTest(into: &t)
    coverLines(into: &t)
    return t
  }

  // MARK: CER and WER

  private func countEdits(into t: inout EvaluationTally) {
    let ocrString = ocrWords.map(\.text).joined(separator: " ")
    let alignedString = alignedOCRWords().map(\.text).joined(separator: " ")
    let truthString = truthWords.map(\.text).joined(separator: " ")
    t.truthCharacters = truthString.count
    t.ocrCharacters = ocrString.count
    t.readingOrderCharacterErrors = EvaluationEditDistance.distance(ocrString, truthString)
    t.characterErrors =
      alignedString == ocrString
      ? t.readingOrderCharacterErrors
      : EvaluationEditDistance.distance(alignedString, truthString)
    let ocrTokens = alignedString.split(whereSeparator: \.isWhitespace)
    let truthTokens = truthString.split(whereSeparator: \.isWhitespace)
    t.truthTokens = truthTokens.count
    t.wordErrors = EvaluationEditDistance.distance(ocrTokens, truthTokens)
  }

  /// The OCR words in the truth's order (see ``EvaluationMetric``): each
  /// takes the index of the truth word its box overlaps the most; a word
  /// overlapping none keeps the index of the word read before it.
  private func alignedOCRWords() -> [Word] {
    guard !truthWords.isEmpty, ocrWords.count > 1 else { return Array(ocrWords) }
    let grid = EvaluationGeometry.Grid(truthWords.map(\.bbox))
    var keys: [Int] = []
    keys.reserveCapacity(ocrWords.count)
    var previous = -1
    for word in ocrWords {
      var best: (index: Int, area: Int)?
      for j in grid.boxes(intersecting: word.bbox) {
        let area = word.bbox.intersection(truthWords[j].bbox)?.area ?? 0
        if area > 0, area > (best?.area ?? 0) || (area == best?.area && j < (best?.index ?? j)) {
          best = (j, area)
        }
      }
      previous = best?.index ?? previous
      keys.append(previous)
    }
    return ocrWords.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
      .map { ocrWords[$0] }
  }

  // MARK: Word recall and mean IoU

  private func matchWords(into t: inout EvaluationTally) {
    guard !truthWords.isEmpty, !ocrWords.isEmpty else {
      compareRoles([], into: &t)
      return
    }
    let grid = EvaluationGeometry.Grid(ocrWords.map(\.bbox))
    let ocrKeys = ocrWords.map { evaluationMatchKey($0.text) }
    var pairs: [(truth: Int, ocr: Int, iou: Double)] = []
    for (i, word) in truthWords.enumerated() {
      let key = evaluationMatchKey(word.text)
      for j in grid.boxes(intersecting: word.bbox) where ocrKeys[j] == key {
        let iou = word.bbox.intersectionOverUnion(ocrWords[j].bbox)
        if iou >= 0.5 { pairs.append((i, j, iou)) }
      }
    }
    pairs.sort {
      $0.iou != $1.iou
        ? $0.iou > $1.iou : ($0.truth != $1.truth ? $0.truth < $1.truth : $0.ocr < $1.ocr)
    }
    var truthUsed = [Bool](repeating: false, count: truthWords.count)
    var ocrUsed = [Bool](repeating: false, count: ocrWords.count)
    var matched: [(truth: Int, ocr: Int)] = []
    for pair in pairs where !truthUsed[pair.truth] && !ocrUsed[pair.ocr] {
      truthUsed[pair.truth] = true
      ocrUsed[pair.ocr] = true
      t.matchedWords += 1
      t.matchedIoU += pair.iou
      matched.append((pair.truth, pair.ocr))
    }
    compareRoles(matched, into: &t)
  }

  // MARK: Roles and headings

  /// A paragraph of a page, by its place in the element tree.
  private struct ParagraphKey: Hashable {
    var block: Int
    var paragraph: Int
  }

  private static func paragraphKey(_ page: Page, word: Int) -> ParagraphKey {
    let entry = page.layout.words[word]
    return ParagraphKey(block: entry.block, paragraph: entry.paragraph)
  }

  private static func paragraph(_ page: Page, _ key: ParagraphKey) -> Paragraph {
    page.blocks[key.block].paragraphs[key.paragraph]
  }

  /// For each paragraph of one page, the paragraph of the other page that
  /// holds most of its matched words (the first in reading order on a tie).
  private static func majority(_ votes: [ParagraphKey: [ParagraphKey: Int]]) -> [ParagraphKey:
    ParagraphKey]
  {
    votes.mapValues { counts in
      counts.max { a, b in
        a.value != b.value
          ? a.value < b.value
          : (a.key.block, a.key.paragraph) > (b.key.block, b.key.paragraph)
      }?.key ?? ParagraphKey(block: 0, paragraph: 0)
    }
  }

  private func compareRoles(_ matched: [(truth: Int, ocr: Int)], into t: inout EvaluationTally) {
    var truthVotes: [ParagraphKey: [ParagraphKey: Int]] = [:]
    var ocrVotes: [ParagraphKey: [ParagraphKey: Int]] = [:]
    for pair in matched {
      let tk = Self.paragraphKey(truth, word: pair.truth)
      let ok = Self.paragraphKey(ocr, word: pair.ocr)
      truthVotes[tk, default: [:]][ok, default: 0] += 1
      ocrVotes[ok, default: [:]][tk, default: 0] += 1
    }
    let truthToOCR = Self.majority(truthVotes)
    let ocrToTruth = Self.majority(ocrVotes)
    for (b, block) in truth.blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        let key = ParagraphKey(block: b, paragraph: p)
        let counterpart = truthToOCR[key].map { Self.paragraph(ocr, $0) }
        if let counterpart {
          t.rolesCompared += 1
          if counterpart.role == paragraph.role { t.rolesRight += 1 }
        }
        guard paragraph.role == .heading else { continue }
        t.truthHeadings += 1
        if let counterpart, counterpart.role == .heading {
          t.foundHeadings += 1
          if counterpart.headingLevel == paragraph.headingLevel { t.headingLevelsRight += 1 }
        }
      }
    }
    for (b, block) in ocr.blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() where paragraph.role == .heading {
        t.ocrHeadings += 1
        let key = ParagraphKey(block: b, paragraph: p)
        if let counterpart = ocrToTruth[key], Self.paragraph(truth, counterpart).role == .heading {
          t.correctHeadings += 1
        }
      }
    }
  }

  // MARK: Hit rate

  private func hitTest(into t: inout EvaluationTally) {
    guard !ocrLines.isEmpty else { return }
    for word in truthWords {
      if let hit = ocr.word(at: word.bbox.center),
        evaluationMatchKey(hit.text) == evaluationMatchKey(word.text)
      {
        t.hitWords += 1
      }
    }
  }

  // MARK: Line cover and bleed

  private func coverLines(into t: inout EvaluationTally) {
    guard !truthLines.isEmpty, !ocrLines.isEmpty else { return }
    let truthBoxes = truthLines.map(\.bbox)
    let ocrGrid = EvaluationGeometry.Grid(ocrLines.map(\.bbox))
    let truthGrid = EvaluationGeometry.Grid(truthBoxes)
    for (i, line) in truthLines.enumerated() {
      // The OCR line overlapping this truth line most (first on a tie).
      var best: (line: Int, overlap: Double)?
      for j in ocrGrid.boxes(intersecting: line.bbox) {
        let ocrLine = ocrLines[j]
        var overlap = Double(ocrLine.bbox.intersection(line.bbox)?.area ?? 0)
        if let polygon = ocrLine.polygon, overlap > 0 {
          // A line cut round a neighbour (its outline a polygon) overlaps
          // by its outline, not by the box that also holds that neighbour.
          overlap = ConvexPolygon.intersectionArea(polygon, Quad(line.bbox.rect).corners)
        }
        if overlap > (best?.overlap ?? 0) { best = (j, overlap) }
      }
      guard let best else { continue }
      t.matchedLines += 1
      let selection = ocr.selectionRects(for: ocrLines[best.line].range).map(\.bounds)
      let own = line.bbox.rect
      if line.bbox.area > 0 {
        let covered = EvaluationGeometry.unionArea(
          selection.compactMap { EvaluationGeometry.intersection($0, own) })
        t.lineCoverSum += min(1, covered / own.area)
      }
      let selectionArea = EvaluationGeometry.unionArea(selection)
      guard selectionArea > 0 else { continue }
      var onOthers: [Rect] = []
      for rect in selection {
        for k in truthGrid.boxes(intersecting: rect.enclosingPixelRect) where k != i {
          if let r = EvaluationGeometry.intersection(rect, truthBoxes[k].rect) {
            onOthers.append(r)
          }
        }
      }
      guard !onOthers.isEmpty else { continue }
      let othersArea = EvaluationGeometry.unionArea(onOthers)
      let alsoOwn = EvaluationGeometry.unionArea(
        onOthers.compactMap { EvaluationGeometry.intersection($0, own) })
      t.lineBleedSum += min(1, max(0, othersArea - alsoOwn) / selectionArea)
    }
  }
}
