import CScanOCR
import ScanModel

/// Converts Tesseract's result iterator into model values; every C string
/// and the iterator are freed before it returns.
enum ResultReader {
  /// What the recognition says about whether the page was upright.
  struct Signals {
    /// Words read, and words in blocks Tesseract found turned sideways or
    /// upside down.
    var words = 0
    var wordsNotUpright = 0
    var confidenceSum = 0.0
    /// Words of three or more characters, and those whose box is taller
    /// than wide: text running down the page.
    var longWords = 0
    var longWordsStanding = 0

    var meanConfidence: Double { words > 0 ? confidenceSum / Double(words) : 0 }

    /// Whether the page may be turned: Tesseract laid its text out sideways
    /// (its blocks say so, or most long words stand upright like columns:
    /// it reads a page turned by 90° well, but down the page), or read it
    /// with the low confidence of an upside-down page (about 40 against 95
    /// for a clean upright page on the sample scans).
    var suggestTurnedPage: Bool {
      words < 3 || wordsNotUpright * 2 > words || longWordsStanding * 2 > longWords
        || meanConfidence < 75
    }
  }

  static func read(_ api: OpaquePointer) -> (blocks: [Block], signals: Signals) {
    var signals = Signals()
    guard let results = scantext_TessBaseAPIGetIterator(api) else { return ([], signals) }
    defer { scantext_TessResultIteratorDelete(results) }
    guard let cursor = scantext_TessResultIteratorGetPageIterator(results) else {
      return ([], signals)
    }
    scantext_TessPageIteratorBegin(cursor)
    var blockUpright = true

    var blocks: [Block] = []
    var paragraphs: [Paragraph] = []
    var lines: [TextLine] = []
    var words: [Word] = []
    var glyphs: [Glyph] = []
    var blockBox = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    var paragraphBox = blockBox
    var line: TextLine?
    var word: Word?

    func finishWord() {
      guard var w = word else { return }
      w.glyphs = glyphs
      // Tesseract sometimes reads noise as a "word" of spaces; its own text
      // output leaves such words out, and so does the model.
      if !w.text.allSatisfy(\.isWhitespace) {
        words.append(w)
        signals.words += 1
        signals.confidenceSum += w.confidence ?? 0
        if !blockUpright { signals.wordsNotUpright += 1 }
        if w.text.count >= 3 {
          signals.longWords += 1
          if w.bbox.height > w.bbox.width { signals.longWordsStanding += 1 }
        }
      }
      word = nil
      glyphs = []
    }
    func finishLine() {
      finishWord()
      guard var l = line else { return }
      l.words = words
      // Tesseract's line box can cut off ascenders and descenders that its
      // word boxes hold; every box holds its children.
      l.bbox = PixelRect.union([l.bbox] + words.map(\.bbox)) ?? l.bbox
      if !words.isEmpty { lines.append(l) }
      line = nil
      words = []
    }
    func finishParagraph() {
      finishLine()
      if !lines.isEmpty {
        let box = PixelRect.union([paragraphBox] + lines.map(\.bbox)) ?? paragraphBox
        paragraphs.append(Paragraph(bbox: box, lines: lines))
      }
      lines = []
    }
    func finishBlock() {
      finishParagraph()
      if !paragraphs.isEmpty {
        let box = PixelRect.union([blockBox] + paragraphs.map(\.bbox)) ?? blockBox
        blocks.append(Block(bbox: box, paragraphs: paragraphs))
      }
      paragraphs = []
    }

    repeat {
      guard let symbolText = text(results, RIL_SYMBOL), let symbolBox = box(cursor, RIL_SYMBOL)
      else { continue }
      // Each start implies the ones below it (a block starts with a
      // paragraph, a line with a word), so the costly checks run only at
      // word starts: the result iterator answers a line, paragraph or block
      // question by copying itself and walking back to the line's start.
      let atWord = scantext_TessPageIteratorIsAtBeginningOf(cursor, RIL_WORD) != 0
      let atLine = atWord && scantext_TessPageIteratorIsAtBeginningOf(cursor, RIL_TEXTLINE) != 0
      let atParagraph = atLine && scantext_TessPageIteratorIsAtBeginningOf(cursor, RIL_PARA) != 0
      if atParagraph, scantext_TessPageIteratorIsAtBeginningOf(cursor, RIL_BLOCK) != 0 {
        finishBlock()
        blockBox = box(cursor, RIL_BLOCK) ?? symbolBox
        var orientation = ORIENTATION_PAGE_UP
        var direction = WRITING_DIRECTION_LEFT_TO_RIGHT
        var order = TEXTLINE_ORDER_TOP_TO_BOTTOM
        var angle: Float = 0
        scantext_TessPageIteratorOrientation(cursor, &orientation, &direction, &order, &angle)
        blockUpright = orientation == ORIENTATION_PAGE_UP
      }
      if atParagraph {
        finishParagraph()
        paragraphBox = box(cursor, RIL_PARA) ?? symbolBox
      }
      if atLine || line == nil {
        finishLine()
        line = TextLine(
          bbox: box(cursor, RIL_TEXTLINE) ?? symbolBox, baseline: baseline(cursor), words: [])
      }
      if atWord || word == nil {
        finishWord()
        word = Word(
          text: text(results, RIL_WORD) ?? "", bbox: box(cursor, RIL_WORD) ?? symbolBox,
          confidence: confidence(results, RIL_WORD))
      }
      glyphs.append(
        Glyph(text: symbolText, bbox: symbolBox, confidence: confidence(results, RIL_SYMBOL)))
    } while scantext_TessPageIteratorNext(cursor, RIL_SYMBOL) != 0
    finishBlock()
    return (blocks, signals)
  }

  private static func text(_ results: OpaquePointer, _ level: TessPageIteratorLevel) -> String? {
    guard let raw = scantext_TessResultIteratorGetUTF8Text(results, level) else { return nil }
    defer { scantext_TessDeleteText(raw) }
    return String(cString: raw)
  }

  private static func box(_ cursor: OpaquePointer, _ level: TessPageIteratorLevel) -> PixelRect? {
    var left: Int32 = 0
    var top: Int32 = 0
    var right: Int32 = 0
    var bottom: Int32 = 0
    guard scantext_TessPageIteratorBoundingBox(cursor, level, &left, &top, &right, &bottom) != 0
    else {
      return nil
    }
    return PixelRect(minX: Int(left), minY: Int(top), maxX: Int(right), maxY: Int(bottom))
  }

  private static func baseline(_ cursor: OpaquePointer) -> Baseline? {
    var x1: Int32 = 0
    var y1: Int32 = 0
    var x2: Int32 = 0
    var y2: Int32 = 0
    guard scantext_TessPageIteratorBaseline(cursor, RIL_TEXTLINE, &x1, &y1, &x2, &y2) != 0 else {
      return nil
    }
    return Baseline(
      start: Point(x: Double(x1), y: Double(y1)), end: Point(x: Double(x2), y: Double(y2)))
  }

  private static func confidence(_ results: OpaquePointer, _ level: TessPageIteratorLevel)
    -> Double
  {
    // Rounded to the export's precision, so a decoded export equals the model.
    ScanConventions.rounded(Double(scantext_TessResultIteratorConfidence(results, level)))
  }
}
