/// One accuracy metric of an OCR page against its ground truth, by its
/// stable name (the raw value), as a thresholds file refers to it.
///
/// Throughout, a page's *string* is the text of its words in reading order
/// joined by single spaces (lines, paragraphs and blocks are joined by a
/// single space too: whitespace collapsed); the OCR page's *aligned string*
/// is the same with its words put in the truth's order: each OCR word takes
/// the place of the truth word its box overlaps the most (a word
/// overlapping none stays right after the OCR word read before it; words
/// at one place keep their OCR order), so that recognition errors and
/// reading-order errors are told apart. Words are *equal* when their texts agree after
/// lowercasing and keeping only letters and digits (`Character.isLetter`
/// or `Character.isNumber`), so `"Smith,"` equals `"smith"`.
public enum EvaluationMetric: String, CaseIterable, Sendable, Hashable {
  /// Character error rate (`cer`), lower is better: the Levenshtein
  /// distance between the OCR page's aligned string (the order it reads
  /// its blocks in does not count: see ``readingOrderCER``) and the truth
  /// string, counted in
  /// grapheme clusters (compared by canonical equivalence), divided by the
  /// number of grapheme clusters in the truth string. It can exceed 1 when
  /// the OCR text is longer than the truth. With an empty truth string it is
  /// 0 if the OCR string is empty too, else 1.
  case cer
  /// Word error rate (`wer`), lower is better: the Levenshtein distance
  /// between the whitespace-separated words of the OCR aligned string and of the
  /// truth string (each word compared exactly), divided by the number of
  /// truth words. Empty truth: as ``cer``.
  case wer
  /// Word recall (`wordRecall`), higher is better: the share of truth words
  /// matched by an OCR word whose box has an intersection over union of at
  /// least 0.5 with the truth word's box and whose text is equal (see the
  /// type's discussion). Candidate pairs are matched greedily by decreasing
  /// IoU, so each OCR word and each truth word is matched at most once.
  /// 1 when the truth has no words.
  case wordRecall
  /// Mean IoU (`meanIoU`), higher is better: the mean intersection over
  /// union of the boxes of the word pairs matched for ``wordRecall``. 1 when
  /// the truth has no words; 0 when it has words but none was matched.
  case meanIoU
  /// Line cover (`lineCover`), higher is better: for each truth line, the
  /// OCR line whose box overlaps the truth line's box by the largest area
  /// (the first in reading order on a tie) is selected as a whole, and the
  /// cover is the share of the truth line's box covered by the union of that
  /// selection's rectangles (`Page.selectionRects(for:)`, their `bounds`);
  /// a truth line that no OCR line overlaps covers 0. The metric is the mean
  /// over the truth lines; 1 when the truth has no lines.
  case lineCover
  /// Line bleed (`lineBleed`), lower is better: for each truth line with a
  /// matched OCR line (as for ``lineCover``), the share of the area of that
  /// line's selection (the union of its rectangles) that lies on the boxes
  /// of *other* truth lines and outside the truth line's own box. The
  /// metric is the mean over the truth lines that have a matched OCR line;
  /// 0 when none has.
  case lineBleed
  /// Hit rate (`hitRate`), higher is better: the share of truth words
  /// whose box centre, hit-tested on the OCR page with `Page.word(at:)`,
  /// lands on an OCR word with equal text. 1 when the truth has no words.
  case hitRate
  /// Heading precision (`headingPrecision`), higher is better: the share of
  /// the OCR page's heading paragraphs (``ParagraphRole/heading``) that are
  /// truth headings. A paragraph *is* a paragraph of the other page when
  /// most of its words matched for ``wordRecall`` lie in that paragraph
  /// (paragraphs with no matched word count as wrong). 1 when the OCR page
  /// has no headings.
  case headingPrecision
  /// Heading recall (`headingRecall`), higher is better: the share of the
  /// truth's headings that are heading paragraphs on the OCR page (matched
  /// as for ``headingPrecision``). 1 when the truth has no headings.
  case headingRecall
  /// Heading level accuracy (`headingLevelAccuracy`), higher is better: of
  /// the truth headings found (``headingRecall``), the share whose OCR
  /// heading has the same level. 1 when none was found.
  case headingLevelAccuracy
  /// Role accuracy (`roleAccuracy`), higher is better: of the truth
  /// paragraphs with a matched word, the share whose OCR paragraph (the one
  /// holding most of its matched words) has the same ``ParagraphRole``.
  /// 1 when no truth paragraph has a matched word.
  case roleAccuracy
  /// Reading-order character error rate (`readingOrderCER`), lower is
  /// better: as ``cer``, with the OCR string in the OCR page's own reading
  /// order. Its excess over ``cer`` is what the reading order costs.
  case readingOrderCER

  /// The metric's stable name, such as `cer` or `wordRecall`.
  public var name: String { rawValue }

  /// Whether a higher value is better (`false`: lower is better, for
  /// ``cer``, ``wer``, ``lineBleed`` and ``readingOrderCER``).
  public var higherIsBetter: Bool {
    switch self {
    case .cer, .wer, .lineBleed, .readingOrderCER: false
    case .wordRecall, .meanIoU, .lineCover, .hitRate, .headingPrecision, .headingRecall,
      .headingLevelAccuracy, .roleAccuracy:
      true
    }
  }
}

/// The raw sums behind the evaluation metrics of one page or of many.
///
/// Every metric is a ratio of two of these sums, so the totals of a document
/// are the sums added up (``+(_:_:)``) and their ratios: a document's CER is
/// the sum of its pages' edit distances over the sum of their truth lengths,
/// not a mean of the pages' CERs. See ``EvaluationMetric`` for the
/// definitions.
public struct EvaluationTally: Sendable, Hashable {
  /// Grapheme clusters in the truth string (the ``EvaluationMetric/cer`` denominator).
  public var truthCharacters = 0
  /// Grapheme clusters in the OCR string.
  public var ocrCharacters = 0
  /// The character-level edit distance (the ``EvaluationMetric/cer`` numerator).
  public var characterErrors = 0
  /// The character-level edit distance of the OCR string in its own
  /// reading order (the ``EvaluationMetric/readingOrderCER`` numerator).
  public var readingOrderCharacterErrors = 0
  /// Whitespace-separated words of the truth string (the
  /// ``EvaluationMetric/wer`` denominator); normally equal to ``truthWords``.
  public var truthTokens = 0
  /// The word-level edit distance (the ``EvaluationMetric/wer`` numerator).
  public var wordErrors = 0
  /// Words of the truth pages.
  public var truthWords = 0
  /// Words of the OCR pages.
  public var ocrWords = 0
  /// Truth words matched for ``EvaluationMetric/wordRecall``.
  public var matchedWords = 0
  /// The sum of the IoUs of the matched word pairs.
  public var matchedIoU = 0.0
  /// Truth words whose centre hits an equal OCR word (``EvaluationMetric/hitRate``).
  public var hitWords = 0
  /// Lines of the truth pages.
  public var truthLines = 0
  /// Lines of the OCR pages.
  public var ocrLines = 0
  /// The sum of the truth lines' covers (``EvaluationMetric/lineCover``).
  public var lineCoverSum = 0.0
  /// Truth lines that some OCR line overlaps (the ``EvaluationMetric/lineBleed`` denominator).
  public var matchedLines = 0
  /// The sum of the matched truth lines' bleeds.
  public var lineBleedSum = 0.0
  /// Heading paragraphs of the OCR pages (the ``EvaluationMetric/headingPrecision`` denominator).
  public var ocrHeadings = 0
  /// OCR headings that are truth headings.
  public var correctHeadings = 0
  /// Heading paragraphs of the truth pages (the ``EvaluationMetric/headingRecall`` denominator).
  public var truthHeadings = 0
  /// Truth headings that are OCR headings.
  public var foundHeadings = 0
  /// Found truth headings whose OCR heading has the same level.
  public var headingLevelsRight = 0
  /// Truth paragraphs with a matched word (the ``EvaluationMetric/roleAccuracy`` denominator).
  public var rolesCompared = 0
  /// Those whose OCR paragraph has the same role.
  public var rolesRight = 0

  /// An empty tally (all zero).
  public init() {}

  /// Both tallies added field by field.
  /// - Complexity: O(1).
  public static func + (a: EvaluationTally, b: EvaluationTally) -> EvaluationTally {
    var t = a
    t += b
    return t
  }

  /// Adds `b` to `a` field by field.
  /// - Complexity: O(1).
  public static func += (a: inout EvaluationTally, b: EvaluationTally) {
    a.truthCharacters += b.truthCharacters
    a.ocrCharacters += b.ocrCharacters
    a.characterErrors += b.characterErrors
    a.readingOrderCharacterErrors += b.readingOrderCharacterErrors
    a.truthTokens += b.truthTokens
    a.wordErrors += b.wordErrors
    a.truthWords += b.truthWords
    a.ocrWords += b.ocrWords
    a.matchedWords += b.matchedWords
    a.matchedIoU += b.matchedIoU
    a.hitWords += b.hitWords
    a.truthLines += b.truthLines
    a.ocrLines += b.ocrLines
    a.lineCoverSum += b.lineCoverSum
    a.matchedLines += b.matchedLines
    a.lineBleedSum += b.lineBleedSum
    a.ocrHeadings += b.ocrHeadings
    a.correctHeadings += b.correctHeadings
    a.truthHeadings += b.truthHeadings
    a.foundHeadings += b.foundHeadings
    a.headingLevelsRight += b.headingLevelsRight
    a.rolesCompared += b.rolesCompared
    a.rolesRight += b.rolesRight
  }

  /// An error count over a truth length; with no truth, 0 for no errors, else 1.
  private static func errorRate(_ errors: Int, _ length: Int) -> Double {
    length > 0 ? Double(errors) / Double(length) : (errors == 0 ? 0 : 1)
  }

  /// ``EvaluationMetric/cer``: `characterErrors / truthCharacters`.
  public var cer: Double { Self.errorRate(characterErrors, truthCharacters) }
  /// ``EvaluationMetric/readingOrderCER``: `readingOrderCharacterErrors / truthCharacters`.
  public var readingOrderCER: Double {
    Self.errorRate(readingOrderCharacterErrors, truthCharacters)
  }
  /// ``EvaluationMetric/wer``: `wordErrors / truthTokens`.
  public var wer: Double { Self.errorRate(wordErrors, truthTokens) }
  /// ``EvaluationMetric/wordRecall``: `matchedWords / truthWords`.
  public var wordRecall: Double {
    truthWords > 0 ? Double(matchedWords) / Double(truthWords) : 1
  }
  /// ``EvaluationMetric/meanIoU``: `matchedIoU / matchedWords`.
  public var meanIoU: Double {
    matchedWords > 0 ? matchedIoU / Double(matchedWords) : (truthWords == 0 ? 1 : 0)
  }
  /// ``EvaluationMetric/lineCover``: `lineCoverSum / truthLines`.
  public var lineCover: Double { truthLines > 0 ? lineCoverSum / Double(truthLines) : 1 }
  /// ``EvaluationMetric/lineBleed``: `lineBleedSum / matchedLines`.
  public var lineBleed: Double { matchedLines > 0 ? lineBleedSum / Double(matchedLines) : 0 }
  /// ``EvaluationMetric/hitRate``: `hitWords / truthWords`.
  public var hitRate: Double { truthWords > 0 ? Double(hitWords) / Double(truthWords) : 1 }
  /// ``EvaluationMetric/headingPrecision``: `correctHeadings / ocrHeadings`.
  public var headingPrecision: Double {
    ocrHeadings > 0 ? Double(correctHeadings) / Double(ocrHeadings) : 1
  }
  /// ``EvaluationMetric/headingRecall``: `foundHeadings / truthHeadings`.
  public var headingRecall: Double {
    truthHeadings > 0 ? Double(foundHeadings) / Double(truthHeadings) : 1
  }
  /// The harmonic mean of ``headingPrecision`` and ``headingRecall`` (0
  /// when both are 0).
  public var headingF1: Double {
    let p = headingPrecision
    let r = headingRecall
    return p + r > 0 ? 2 * p * r / (p + r) : 0
  }
  /// ``EvaluationMetric/headingLevelAccuracy``: `headingLevelsRight / foundHeadings`.
  public var headingLevelAccuracy: Double {
    foundHeadings > 0 ? Double(headingLevelsRight) / Double(foundHeadings) : 1
  }
  /// ``EvaluationMetric/roleAccuracy``: `rolesRight / rolesCompared`.
  public var roleAccuracy: Double {
    rolesCompared > 0 ? Double(rolesRight) / Double(rolesCompared) : 1
  }

  /// The value of one metric.
  /// - Parameter metric: The metric.
  /// - Complexity: O(1).
  public func value(of metric: EvaluationMetric) -> Double {
    switch metric {
    case .cer: cer
    case .wer: wer
    case .wordRecall: wordRecall
    case .meanIoU: meanIoU
    case .lineCover: lineCover
    case .lineBleed: lineBleed
    case .hitRate: hitRate
    case .headingPrecision: headingPrecision
    case .headingRecall: headingRecall
    case .headingLevelAccuracy: headingLevelAccuracy
    case .roleAccuracy: roleAccuracy
    case .readingOrderCER: readingOrderCER
    }
  }

  /// Every metric by its stable name, in `EvaluationMetric/allCases`
  /// order: `cer`, `wer`, `wordRecall`, `meanIoU`, `lineCover`,
  /// `lineBleed`, `hitRate`, `headingPrecision`, `headingRecall`,
  /// `headingLevelAccuracy`, `roleAccuracy`, `readingOrderCER`.
  /// - Complexity: O(1).
  public var metrics: [(name: String, value: Double)] {
    EvaluationMetric.allCases.map { ($0.name, value(of: $0)) }
  }
}

/// How a page of an evaluated document was paired with the truth.
public enum PagePairing: String, Sendable, Hashable {
  /// Both documents have the page.
  case paired
  /// The truth has the page but the OCR document does not; the page is
  /// evaluated as an empty OCR page (CER 1, recall 0).
  case missingInOCR
  /// The OCR document has the page but the truth does not; the page is
  /// evaluated against an empty truth page (its text counts as errors in
  /// the document's CER and WER).
  case missingInTruth
}

/// The accuracy of one OCR page against its ground truth: the metric values
/// and the counts behind them (see ``EvaluationMetric`` for the definitions).
public struct PageEvaluation: Sendable, Hashable {
  /// The page's position: its index in the document for
  /// ``evaluate(_:against:)``, the truth page's `index` for
  /// ``Page/evaluate(against:)``.
  public var index: Int
  /// Whether both documents had the page.
  public var pairing: PagePairing
  /// The sums behind the metrics.
  public var tally: EvaluationTally

  /// Creates an evaluation from its parts.
  /// - Parameters:
  ///   - index: The page's position.
  ///   - pairing: Whether both documents had the page.
  ///   - tally: The sums behind the metrics.
  public init(index: Int, pairing: PagePairing = .paired, tally: EvaluationTally) {
    self.index = index
    self.pairing = pairing
    self.tally = tally
  }

  /// Character error rate; lower is better (``EvaluationMetric/cer``).
  public var cer: Double { tally.cer }
  /// Character error rate in the page's reading order; lower is better
  /// (``EvaluationMetric/readingOrderCER``).
  public var readingOrderCER: Double { tally.readingOrderCER }
  /// Word error rate; lower is better (``EvaluationMetric/wer``).
  public var wer: Double { tally.wer }
  /// Share of truth words found; higher is better (``EvaluationMetric/wordRecall``).
  public var wordRecall: Double { tally.wordRecall }
  /// Mean IoU of the matched words; higher is better (``EvaluationMetric/meanIoU``).
  public var meanIoU: Double { tally.meanIoU }
  /// Mean share of each truth line covered by its OCR line's selection;
  /// higher is better (``EvaluationMetric/lineCover``).
  public var lineCover: Double { tally.lineCover }
  /// Mean share of each selection on other truth lines; lower is better
  /// (``EvaluationMetric/lineBleed``).
  public var lineBleed: Double { tally.lineBleed }
  /// Share of truth words whose centre hits an equal OCR word; higher is
  /// better (``EvaluationMetric/hitRate``).
  public var hitRate: Double { tally.hitRate }

  /// Words of the truth page.
  public var truthWords: Int { tally.truthWords }
  /// Words of the OCR page.
  public var ocrWords: Int { tally.ocrWords }
  /// Truth words matched by an OCR word.
  public var matchedWords: Int { tally.matchedWords }
  /// Lines of the truth page.
  public var truthLines: Int { tally.truthLines }

  /// The value of one metric.
  /// - Parameter metric: The metric.
  /// - Complexity: O(1).
  public func value(of metric: EvaluationMetric) -> Double { tally.value(of: metric) }

  /// Every metric by its stable name, in `EvaluationMetric/allCases` order.
  /// - Complexity: O(1).
  public var metrics: [(name: String, value: Double)] { tally.metrics }
}

/// The accuracy of a document: each page's evaluation and the totals.
public struct EvaluationSummary: Sendable, Hashable {
  /// One evaluation per page position present in either document, in order.
  public var pages: [PageEvaluation]
  /// The pages' tallies added up; its metrics are ratios of sums (for
  /// example the total CER is all edit distances over all truth lengths,
  /// and the total line cover the mean over all truth lines).
  public var total: EvaluationTally

  /// Creates a summary; ``total`` is the sum of the pages' tallies.
  /// - Parameter pages: The page evaluations.
  /// - Complexity: O(*n*) in the pages.
  public init(pages: [PageEvaluation]) {
    self.pages = pages
    self.total = pages.reduce(into: EvaluationTally()) { $0 += $1.tally }
  }

  /// The positions of the truth pages the OCR document lacks.
  public var missingInOCR: [Int] { pages.filter { $0.pairing == .missingInOCR }.map(\.index) }
  /// The positions of the OCR pages the truth lacks.
  public var missingInTruth: [Int] { pages.filter { $0.pairing == .missingInTruth }.map(\.index) }
}
