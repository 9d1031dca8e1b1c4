/// A hyphen at the end of a line that joins the line's last word with the
/// first word of the next line of the same paragraph (`recog-` + `nition`).
///
/// The page text keeps the hyphen and the line break, so no offset changes;
/// the tokenizer's `.word` unit, ``Page/find(_:options:)`` and
/// ``Page/spokenText(in:)`` treat the two parts as one word. ``kind`` tells
/// a hyphen that only breaks the word (dropped when the word is spoken) from
/// one that belongs to it (`e-mail`, `well-known`; kept).
///
/// See ``Dehyphenation`` for when a line-end hyphen joins two lines and how
/// its kind is decided.
public struct HyphenBreak: Hashable, Sendable {
  /// What a line-end hyphen is.
  public enum Kind: String, Hashable, Sendable {
    /// The hyphen was inserted to break the word at the line end
    /// (`recog-` / `nition`): the word is `recognition`.
    case wordBreak
    /// The hyphen belongs to the word and stays when it is joined
    /// (`e-` / `mail`): the word is `e-mail`.
    case compound
  }

  /// The hyphen character at the end of the line, in the page text.
  public var hyphen: TextRange
  /// Everything between the two parts of the word: the hyphen and the line
  /// break, and the space before a hyphen read as a word of its own
  /// (`Men -⏎ſchen` in ground truths that tokenize punctuation). It ends at
  /// the continuation, the first character of the next line.
  public var gap: TextRange
  /// The start of the continuation: the first character of the next line.
  public var continuation: TextPosition { gap.upperBound }
  /// The whole joined word, from its first character on the first line to
  /// its last one on the next (the tokenizer's `.word` unit). A word broken
  /// over three lines has one break per line end, all with the same word.
  public var word: TextRange
  /// Whether the hyphen breaks the word or belongs to it.
  public var kind: Kind

  /// Creates a break (pages find their own: ``Page/hyphenBreaks``).
  public init(hyphen: TextRange, gap: TextRange, word: TextRange, kind: Kind) {
    self.hyphen = hyphen
    self.gap = gap
    self.word = word
    self.kind = kind
  }
}

/// Finds the words hyphenated at line ends and decides whether each hyphen
/// breaks its word or belongs to it.
///
/// ## When two lines join
///
/// The last OCR word of a line and the first OCR word of the next line of
/// the *same paragraph* form one word when:
/// - the last word ends with a hyphen mark: `-` (U+002D), `‐` (U+2010),
///   `⸗` (U+2E17, the Fraktur double hyphen), the soft hyphen U+00AD or `¬`
///   (U+00AC, which Fraktur ground truths such as the DTA's use for a
///   line-end hyphen);
/// - a letter or digit stands right before the mark (a dash such as `—`
///   never joins). A mark that is a word of its own joins only when its box
///   touches the box of the word before it (a gap of at most a fifth of the
///   line's thickness), as in ground truths that tokenize punctuation
///   (`Men` `-` / `ſchen`); a spaced `-` used as a dash does not; and
/// - the next line starts with a letter or digit (not with a quote, a
///   bracket or a dash).
///
/// Lines of different paragraphs or blocks never join, and the last line of
/// the page has nothing to join.
///
/// ## Breaking hyphen or part of the word
///
/// The first rule that applies decides. *Before* is the word part ending at
/// the hyphen (`recog`), *after* the part starting the next line (`nition`).
/// 1. A soft hyphen or `¬` only ever marks a break: **word break**.
/// 2. *Before* already holds a hyphen (`state-of-the-` / `art`,
///    `mother-in-` / `law`): a hyphenated compound, broken at one of its
///    own hyphens: **compound**.
/// 3. A digit on either side (`COVID-` / `19`, `3-` / `D`): **compound**.
/// 4. *Before* is a single letter (`e-` / `mail`, `x-` / `ray`): typesetters
///    leave at least two letters at a line end, so **compound**.
/// 5. *After* starts with an uppercase letter: **word break** when both
///    parts are all capitals of two letters or more (`RECOG-` / `NITION`,
///    text set in capitals), else **compound** (`Jean-` / `Paul`,
///    `anti-` / `Nazi`, `Donau-` / `Dampfschiff`).
/// 6. *Before* ends with an uppercase letter and *after* starts with a
///    lowercase one (`MS-` / `dos`): ambiguous, **compound**.
/// 7. *Before* is one of the prefixes that usually form hyphenated
///    compounds: `all`, `co`, `cross`, `ex`, `half`, `ill`, `non`, `self`,
///    `well` (any case): ambiguous (`well-` / `known`, but also `ex-` /
///    `ample`), **compound**.
/// 8. Otherwise (a lowercase or caseless letter on both sides, as in
///    `recog-` / `nition` or `Men-` / `ſchen`): **word break**.
///
/// Where a case is ambiguous the rules keep the hyphen: a spoken `ex-ample`
/// is still understood, a spoken `wellknown` is not. ``Page/find(_:options:)``
/// does not depend on the kind: at any line-end hyphen the query may have
/// the hyphen or not.
public enum Dehyphenation {
  /// The prefixes of rule 7, lowercased.
  static let compoundPrefixes: Set<String> = [
    "all", "co", "cross", "ex", "half", "ill", "non", "self", "well",
  ]

  /// Whether `c` is a line-end hyphen mark.
  static func isHyphenMark(_ c: Character) -> Bool {
    c == "-" || c == "\u{2010}" || c == "\u{2E17}" || c == "\u{00AD}" || c == "\u{00AC}"
  }

  /// Hyphens inside a word part (rule 2).
  private static func isInnerHyphen(_ c: Character) -> Bool {
    c == "-" || c == "\u{2010}" || c == "\u{2011}" || c == "\u{2E17}"
  }

  /// Decides whether a line-end hyphen breaks its word or belongs to it.
  ///
  /// ```swift
  /// Dehyphenation.kind(mark: "-", before: "recog", after: "nition")  // .wordBreak
  /// Dehyphenation.kind(mark: "-", before: "e", after: "mail")        // .compound
  /// ```
  ///
  /// - Parameters:
  ///   - mark: The hyphen mark at the end of the line.
  ///   - before: The word part that ends at the mark (without it), as the
  ///     tokenizer's `.word` unit delimits it: `recog`, `state-of-the`.
  ///   - after: The word part that starts the next line: `nition`.
  /// - Returns: The kind, by the rules in the type's discussion.
  /// - Complexity: O(*n*) in the length of the two parts.
  public static func kind(mark: Character, before: Substring, after: Substring)
    -> HyphenBreak.Kind
  {
    if mark == "\u{00AD}" || mark == "\u{00AC}" { return .wordBreak }
    if before.contains(where: isInnerHyphen) { return .compound }
    guard let last = before.last, let first = after.first else { return .compound }
    if last.isNumber || first.isNumber { return .compound }
    if before.count == 1 { return .compound }
    if first.isUppercase {
      return isAllCapitals(before) && isAllCapitals(after) ? .wordBreak : .compound
    }
    if last.isUppercase { return .compound }
    if compoundPrefixes.contains(before.lowercased()) { return .compound }
    return .wordBreak
  }

  /// Whether every letter of `s` is uppercase, with at least two letters.
  private static func isAllCapitals(_ s: Substring) -> Bool {
    var letters = 0
    for c in s where c.isLetter {
      guard c.isUppercase else { return false }
      letters += 1
    }
    return letters >= 2
  }

  /// The hyphen breaks of a page's elements (with their ranges assigned),
  /// and the reader words with the parts of every hyphenated word joined.
  ///
  /// - Parameters:
  ///   - blocks: The page's blocks, ranges assigned.
  ///   - readerWords: The tokenizer's words, sorted, per OCR word.
  /// - Returns: The breaks in text order and the joined reader words.
  /// - Complexity: O(*w* + *l*) in the reader words and lines of the page.
  static func join(_ readerWords: [Range<Int>], blocks: [Block]) -> (
    words: [Range<Int>], breaks: [HyphenBreak]
  ) {
    var breaks: [HyphenBreak] = []
    for block in blocks {
      for paragraph in block.paragraphs {
        for (line, next) in zip(paragraph.lines, paragraph.lines.dropFirst()) {
          guard let first = next.words.first,
            let found = hyphenBreak(line.words, line.bbox, first)
          else { continue }
          breaks.append(found)
        }
      }
    }
    guard !breaks.isEmpty else { return (readerWords, []) }
    // The continuation that each gap (by its start) joins to.
    var joins: [Int: Int] = [:]
    for b in breaks { joins[b.gap.lowerBound.offset] = b.continuation.offset }
    var words: [Range<Int>] = []
    words.reserveCapacity(readerWords.count)
    for w in readerWords {
      if let current = words.last, joins[current.upperBound] == w.lowerBound {
        words[words.count - 1] = current.lowerBound..<w.upperBound
      } else {
        words.append(w)
      }
    }
    for i in breaks.indices {
      let h = breaks[i].gap.lowerBound.offset
      if let k = LayoutSearch.lastIndex(
        count: words.count, atOrBefore: h - 1, { words[$0].lowerBound }),
        words[k].upperBound > h
      {
        breaks[i].word = TextRange(offsets: words[k])
      }
    }
    return (words, breaks)
  }

  /// The break between the last word of a line and the first of the next,
  /// or `nil` when they do not join.
  private static func hyphenBreak(_ words: [Word], _ lineBox: PixelRect, _ first: Word)
    -> HyphenBreak?
  {
    guard let last = words.last, let mark = last.text.last, isHyphenMark(mark) else { return nil }
    let markLength = mark.utf16.count
    // The word holding the part before the hyphen, and that part's end.
    var word = last
    var stem = last.text.dropLast()
    if stem.isEmpty {
      // A hyphen read as a word of its own: it must touch the word before.
      guard words.count >= 2 else { return nil }
      word = words[words.count - 2]
      let thickness = min(lineBox.width, lineBox.height)
      guard gap(word.bbox, last.bbox) * 5 <= thickness else { return nil }
      stem = Substring(word.text)
    }
    let stemLength = stem.utf16.count
    guard let before = WordSegmentation.wordRanges(in: stem).last, before.upperBound == stemLength,
      let after = WordSegmentation.wordRanges(in: Substring(first.text)).first,
      after.lowerBound == 0
    else { return nil }
    let start = word.range.lowerBound.offset
    let hyphen = last.range.upperBound.offset - markLength
    let continuation = first.range.lowerBound.offset
    let kind = Self.kind(
      mark: mark, before: utf16Slice(stem, before), after: utf16Slice(Substring(first.text), after))
    return HyphenBreak(
      hyphen: TextRange(offsets: hyphen..<(hyphen + markLength)),
      gap: TextRange(offsets: (start + stemLength)..<continuation),
      word: TextRange(offsets: (start + before.lowerBound)..<(continuation + after.upperBound)),
      kind: kind)
  }

  /// The distance in pixels between two boxes (0 when they touch or overlap).
  private static func gap(_ a: PixelRect, _ b: PixelRect) -> Int {
    let dx = max(0, b.minX - a.maxX, a.minX - b.maxX)
    let dy = max(0, b.minY - a.maxY, a.minY - b.maxY)
    return Int((Double(dx * dx + dy * dy)).squareRoot().rounded(.up))
  }

  /// The part of `s` at UTF-16 offsets `r` (which fall on character
  /// boundaries, as word ranges do).
  private static func utf16Slice(_ s: Substring, _ r: Range<Int>) -> Substring {
    let u = s.utf16
    let from = u.index(u.startIndex, offsetBy: r.lowerBound)
    let to = u.index(u.startIndex, offsetBy: r.upperBound)
    return s[from..<to]
  }
}

extension Page {
  /// The words hyphenated at line ends, in text order (see
  /// ``Dehyphenation`` for the rules).
  /// - Complexity: O(1).
  public var hyphenBreaks: [HyphenBreak] { layout.hyphenBreaks }

  /// The text of `range` as it should be spoken or read aloud: the page
  /// text with every word hyphenated at a line end joined, or `nil` when
  /// the range lies outside the page text.
  ///
  /// A ``HyphenBreak/Kind/wordBreak`` hyphen and the line break after it
  /// (the whole ``HyphenBreak/gap``) are left out (`recog-⏎nition` →
  /// `recognition`); a ``HyphenBreak/Kind/compound`` gap becomes `-`
  /// (`e-⏎mail` → `e-mail`). A break is joined only when the range holds
  /// its whole gap; everything else is
  /// the page text unchanged, other line breaks included.
  ///
  /// ```swift
  /// page.text(in: range)        // "character recog-\nnition has"
  /// page.spokenText(in: range)  // "character recognition has"
  /// ```
  ///
  /// - Parameter range: A range of the page text.
  /// - Returns: The spoken text, or `nil` for a range outside the page.
  /// - Complexity: O(*k* + log *b*) in the length of the range and the
  ///   hyphen breaks of the page.
  public func spokenText(in range: TextRange) -> String? {
    guard contains(range) else { return nil }
    let breaks = layout.hyphenBreaks
    let s = range.lowerBound.offset
    let e = range.upperBound.offset
    var i =
      (LayoutSearch.lastIndex(
        count: breaks.count, atOrBefore: s - 1, { breaks[$0].gap.lowerBound.offset }) ?? -1)
      + 1
    var out = ""
    var cursor = s
    while i < breaks.count, breaks[i].gap.lowerBound.offset < e {
      let b = breaks[i]
      i += 1
      guard b.gap.lowerBound.offset >= s, b.continuation.offset <= e else { continue }
      out += text(in: TextRange(offsets: cursor..<b.gap.lowerBound.offset)) ?? ""
      if b.kind == .compound { out += "-" }
      cursor = b.continuation.offset
    }
    out += text(in: TextRange(offsets: cursor..<e)) ?? ""
    return out
  }

  /// The whole page text as it should be spoken: ``spokenText(in:)`` of
  /// the document range.
  /// - Complexity: O(*n*) in the length of the page text.
  public var spokenText: String { spokenText(in: documentRange) ?? text }
}
