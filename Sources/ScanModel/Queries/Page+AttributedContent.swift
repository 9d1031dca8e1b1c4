/// What a screen reader should know about a run of text: the attributes
/// UIKit puts in `accessibilityAttributedContent(forLineNumber:)`
/// (`UIAccessibilitySpeechAttributeLanguage`,
/// `UIAccessibilityTextAttributeHeadingLevel`), the paragraph's role, and
/// whether the OCR is unsure of the word.
public struct AccessibilityTextAttributes: Hashable, Sendable {
  /// The language to speak the text in, as a BCP-47 tag (`en`, `de`):
  /// the page's primary recognition language
  /// (``Page/accessibilityLanguage``), or `nil` when it is unknown.
  public var language: String?
  /// The role of the paragraph the text belongs to; `nil` for the line
  /// breaks between two paragraphs, which belong to neither.
  public var role: ParagraphRole?
  /// For the text of a heading, its level (1 to 6); `nil` otherwise.
  public var headingLevel: Int?
  /// Whether the text is a word whose recognition confidence is below the
  /// threshold asked for (a word to spell out, or to mark as uncertain).
  public var isLowConfidence: Bool
  /// For a low-confidence word, its confidence in 0...100; `nil` otherwise.
  public var confidence: Double?

  /// Creates attributes.
  public init(
    language: String? = nil, role: ParagraphRole? = nil, headingLevel: Int? = nil,
    isLowConfidence: Bool = false, confidence: Double? = nil
  ) {
    self.language = language
    self.role = role
    self.headingLevel = headingLevel
    self.isLowConfidence = isLowConfidence
    self.confidence = confidence
  }
}

/// A run of text whose accessibility attributes are all the same.
public struct AttributedRun: Hashable, Sendable {
  /// The run's range in the page text (UTF-16 offsets).
  public var range: TextRange
  /// The run's attributes.
  public var attributes: AccessibilityTextAttributes

  /// Creates a run.
  public init(range: TextRange, attributes: AccessibilityTextAttributes) {
    self.range = range
    self.attributes = attributes
  }
}

/// Text with its accessibility attribute runs: a line's, an element's or
/// the page's (what `NSAttributedString` carries for
/// `UIAccessibilityReadingContent`).
///
/// The runs cover ``range`` without gaps or overlaps, in text order, and two
/// neighbouring runs never have the same attributes. Their ranges are page
/// offsets, like every range of the page; ``localOffsets(of:)`` gives the
/// offsets in ``text`` (an `NSRange` into the attributed string).
public struct AttributedContent: Hashable, Sendable {
  /// The confidence below which a word is low-confidence unless a query
  /// says otherwise: ``ScanConventions/lowConfidenceThreshold`` (60), as
  /// elsewhere in ScanText.
  public static let defaultLowConfidenceThreshold = ScanConventions.lowConfidenceThreshold

  /// The text (``Page/text(in:)-(TextRange)`` of ``range``).
  public var text: String
  /// The text's range in the page text.
  public var range: TextRange
  /// The attribute runs, covering ``range``.
  public var runs: [AttributedRun]

  /// Creates attributed content.
  public init(text: String, range: TextRange, runs: [AttributedRun]) {
    self.text = text
    self.range = range
    self.runs = runs
  }

  /// A run's UTF-16 offsets in ``text`` (its page range moved to start at
  /// the start of ``range``).
  /// - Complexity: O(1).
  public func localOffsets(of run: AttributedRun) -> Range<Int> {
    let start = range.lowerBound.offset
    return (run.range.lowerBound.offset - start)..<(run.range.upperBound.offset - start)
  }

  /// The text of one run, or `nil` for a run outside ``range``.
  /// - Complexity: O(*k*) in the length of ``text``.
  public func text(of run: AttributedRun) -> String? {
    let local = localOffsets(of: run)
    let units = text.utf16
    guard local.lowerBound >= 0, local.upperBound <= units.count else { return nil }
    let from = units.index(units.startIndex, offsetBy: local.lowerBound)
    let to = units.index(units.startIndex, offsetBy: local.upperBound)
    return String(units[from..<to])
  }
}

extension Page {
  /// A line's text with its accessibility attributes
  /// (`UIAccessibilityReadingContent.accessibilityAttributedContent(forLineNumber:)`):
  /// the language, the role and heading level of its paragraph, and the
  /// words below a confidence threshold.
  ///
  /// ```swift
  /// let content = page.attributedContent(forLineNumber: 0)
  /// content?.runs.map { ($0.attributes.headingLevel, content?.text(of: $0)) }
  /// // [(1, "Notes from the Archive")]
  /// ```
  ///
  /// - Parameters:
  ///   - number: A reading-order line number.
  ///   - lowConfidenceThreshold: Words with a confidence below this are
  ///     low-confidence runs; words without a confidence never are.
  /// - Returns: The content, or `nil` for a line number out of range.
  /// - Complexity: O(log *n* + *w*) in the lines of the page and the words
  ///   of the line.
  public func attributedContent(
    forLineNumber number: Int,
    lowConfidenceThreshold: Double = AttributedContent.defaultLowConfidenceThreshold
  ) -> AttributedContent? {
    guard let line = line(number: number) else { return nil }
    return attributedContent(in: line.range, lowConfidenceThreshold: lowConfidenceThreshold)
  }

  /// Any range's text with its accessibility attributes: an element's
  /// (a word, a paragraph, a heading) or a selection's. Line breaks inside
  /// a paragraph take its attributes; those between paragraphs have no
  /// role.
  ///
  /// - Parameters:
  ///   - range: A range of the page text.
  ///   - lowConfidenceThreshold: Words with a confidence below this are
  ///     low-confidence runs; words without a confidence never are.
  /// - Returns: The content, or `nil` for a range outside the page text.
  /// - Complexity: O(log *n* + *l* + *w*) in the lines of the page and the
  ///   lines and words the range touches.
  public func attributedContent(
    in range: TextRange,
    lowConfidenceThreshold: Double = AttributedContent.defaultLowConfidenceThreshold
  ) -> AttributedContent? {
    guard contains(range), let text = text(in: range) else { return nil }
    let s = range.lowerBound.offset
    let e = range.upperBound.offset
    let language = accessibilityLanguage
    let outside = AccessibilityTextAttributes(language: language)
    var runs: [AttributedRun] = []
    func append(_ r: Range<Int>, _ attributes: AccessibilityTextAttributes) {
      let clipped = max(r.lowerBound, s)..<max(min(r.upperBound, e), max(r.lowerBound, s))
      guard !clipped.isEmpty else { return }
      if let last = runs.last, last.attributes == attributes,
        last.range.upperBound.offset == clipped.lowerBound
      {
        runs[runs.count - 1].range =
          last.range.lowerBound..<TextPosition(offset: clipped.upperBound)
      } else {
        runs.append(AttributedRun(range: TextRange(offsets: clipped), attributes: attributes))
      }
    }
    var i = PageLayout.lastIndex(in: layout.lineStarts, atOrBefore: s) ?? 0
    var cursor = i < layout.lines.count ? layout.lines[i].range.lowerBound : e
    while i < layout.lines.count {
      let entry = layout.lines[i]
      let paragraph = blocks[entry.block].paragraphs[entry.paragraph]
      let base = AccessibilityTextAttributes(
        language: language, role: paragraph.role, headingLevel: paragraph.headingLevel)
      // The break before the line: inside its paragraph unless it starts one.
      append(cursor..<entry.range.lowerBound, entry.line > 0 ? base : outside)
      cursor = entry.range.lowerBound
      if cursor >= e { break }
      for w in entry.words {
        let ref = layout.words[w]
        append(cursor..<ref.range.lowerBound, base)
        var attributes = base
        if let c = word(at: ref).confidence, c < lowConfidenceThreshold {
          attributes.isLowConfidence = true
          attributes.confidence = c
        }
        append(ref.range, attributes)
        cursor = ref.range.upperBound
      }
      append(cursor..<entry.range.upperBound, base)
      cursor = entry.range.upperBound
      i += 1
    }
    // After the last line (or the range ended in the break before a line,
    // already added).
    if cursor < e { append(cursor..<e, outside) }
    return AttributedContent(text: text, range: range, runs: runs)
  }

  /// The whole page's text with its accessibility attributes, in reading
  /// order (`accessibilityAttributedPageContent()`); see
  /// ``attributedContent(in:lowConfidenceThreshold:)``.
  ///
  /// - Parameter lowConfidenceThreshold: Words with a confidence below this
  ///   are low-confidence runs.
  /// - Complexity: O(*n*) in the lines and words of the page.
  public func attributedPageContent(
    lowConfidenceThreshold: Double = AttributedContent.defaultLowConfidenceThreshold
  ) -> AttributedContent {
    attributedContent(in: documentRange, lowConfidenceThreshold: lowConfidenceThreshold)
      ?? AttributedContent(text: text, range: documentRange, runs: [])
  }
}
