/// The text units of ``Page``'s tokenizer, as `UITextGranularity`.
public enum TextGranularity: String, Sendable, CaseIterable {
  /// Grapheme clusters: a whole user-perceived character, such as "é" made
  /// of two scalars or an emoji. Spaces and newlines are characters too.
  case character
  /// Words as a reader sees them: the OCR words, without leading or trailing
  /// punctuation, with internal hyphens, apostrophes and decimal points kept
  /// (`e-mail`, `can't`, `3.14`), and split at dashes and slashes. A word
  /// hyphenated at a line end is one word that holds both parts, the hyphen
  /// and the line break (`recog-⏎nition`; see ``Page/hyphenBreaks``).
  case word
  /// Sentences, which may run across line breaks; a paragraph break always
  /// ends one. Abbreviations and initials do not end a sentence.
  case sentence
  /// Paragraphs as the OCR engine found them.
  case paragraph
  /// Lines as the OCR engine found them, without their trailing `\n`.
  case line
  /// The whole page text.
  case document
}

/// A direction in the text's storage order.
public enum TextStorageDirection: String, Sendable {
  case forward
  case backward
}

/// A direction on screen.
public enum TextLayoutDirection: String, Sendable {
  case right
  case left
  case up
  case down
}

/// A tokenizer direction: storage (`UITextStorageDirection`) or layout
/// (`UITextLayoutDirection`).
///
/// Layout directions are screen directions, as the user sees the original
/// image (whatever the page's ``Page/orientation``): the page compares
/// each with the reading frame of the caret's line. One along the line
/// means forward or backward: on upright left-to-right text `right` is
/// `forward` and `left` is `backward`; on right-to-left text (see
/// ``Page/baseWritingDirection(for:in:)``) the reverse; on a page turned
/// by 90°, whose lines read down the image, `down` is `forward`. One across
/// the lines (`up` and `down` on an upright page, `left` and `right` on a
/// turned one) moves to the previous or next line keeping the caret's
/// position along the line, as a text view does, in
/// ``Page/position(from:toBoundary:inDirection:)`` for the character, word
/// and line granularities; everywhere else it means `backward` (toward the
/// previous line) or `forward` (toward the next).
public enum TextDirection: Hashable, Sendable {
  case storage(TextStorageDirection)
  case layout(TextLayoutDirection)

  /// Storage order forward.
  public static let forward = TextDirection.storage(.forward)
  /// Storage order backward.
  public static let backward = TextDirection.storage(.backward)

  /// Parses `forward`, `backward`, `right`, `left`, `up` or `down`.
  public init?(name: String) {
    if let s = TextStorageDirection(rawValue: name) {
      self = .storage(s)
    } else if let l = TextLayoutDirection(rawValue: name) {
      self = .layout(l)
    } else {
      return nil
    }
  }
}

extension Page {
  /// The range of the unit of `granularity` that encloses `position`
  /// (`UITextInputTokenizer.rangeEnclosingPosition(_:with:inDirection:)`).
  ///
  /// Forward, the unit holding the character after `position`
  /// (`start <= position < end`); backward, the unit holding the character
  /// before it (`start < position <= end`). `nil` when there is no such unit.
  ///
  /// Separators belong to no unit but `.character` and `.document` (UIKit
  /// leaves this undocumented; this is ScanText's rule): spaces and
  /// punctuation outside a word belong to no `.word`; the space or newline
  /// between two sentences to no `.sentence` (but to its `.line` or
  /// `.paragraph`); the `\n` after a line to no `.line`; the empty line
  /// between paragraphs (`\n\n`) to no word, sentence, line or paragraph.
  /// At the edge of a separator the enclosing unit is the one on the text
  /// side. Also `nil` past either end of the text, on an empty page, and
  /// when `position` is outside the page text.
  /// - Complexity: O(log *n*) in the units of the page (for `.character`,
  ///   plus the length of one word).
  public func rangeEnclosingPosition(
    _ position: TextPosition, with granularity: TextGranularity,
    inDirection direction: TextDirection
  ) -> TextRange? {
    guard contains(position) else { return nil }
    let p = position.offset
    let unit: Range<Int>?
    switch storageDirection(direction, at: p) {
    case .forward: unit = unitRange(containing: p, granularity)
    case .backward: unit = p > 0 ? unitRange(containing: p - 1, granularity) : nil
    }
    return unit.map { TextRange(offsets: $0) }
  }

  /// Whether `position` is at a boundary of `granularity` in `direction`
  /// (`UITextInputTokenizer.isPosition(_:atBoundary:inDirection:)`):
  /// forward, whether a unit ends there; backward, whether a unit starts
  /// there.
  ///
  /// The start and the end of the text are boundaries of every granularity
  /// in both directions (they bound the document, as in UIKit, where
  /// `isPosition(_:atBoundary: .character, …)` holds at both ends of the
  /// text); so is every position of an empty page. Inside the text, every
  /// grapheme-cluster boundary is a `.character` boundary in both
  /// directions, including those around spaces and newlines. `false` for a
  /// position outside the page text.
  /// - Complexity: O(log *n*) in the units of the page.
  public func isPosition(
    _ position: TextPosition, atBoundary granularity: TextGranularity,
    inDirection direction: TextDirection
  ) -> Bool {
    guard contains(position) else { return false }
    let p = position.offset
    if p == 0 || p == layout.length { return true }
    switch storageDirection(direction, at: p) {
    case .forward: return p > 0 && unitRange(containing: p - 1, granularity)?.upperBound == p
    case .backward: return unitRange(containing: p, granularity)?.lowerBound == p
    }
  }

  /// Whether `position` is inside a unit of `granularity`
  /// (`UITextInputTokenizer.isPosition(_:withinTextUnit:inDirection:)`):
  /// forward, whether the character after it belongs to a unit; backward,
  /// whether the character before it does. `false` outside the page text.
  /// - Complexity: O(log *n*) in the units of the page.
  public func isPosition(
    _ position: TextPosition, withinTextUnit granularity: TextGranularity,
    inDirection direction: TextDirection
  ) -> Bool {
    rangeEnclosingPosition(position, with: granularity, inDirection: direction) != nil
  }

  /// The next boundary of `granularity` from `position` in `direction`
  /// (`UITextInputTokenizer.position(from:toBoundary:inDirection:)`).
  ///
  /// Forward, the nearest unit end after `position` (from inside a word, the
  /// end of that word; from its end, the end of the next one); backward, the
  /// nearest unit start before it. A screen direction across the lines
  /// (`up` and `down` on an upright page; see ``TextDirection``) with the
  /// character, word and line granularities moves to the previous or next
  /// line, to the caret stop nearest the caret's position along the line;
  /// past the first or last line it goes to the start or end of the page. `nil` when there is
  /// no further boundary (at the end going forward, at the start going
  /// backward) or when `position` is outside the page text.
  /// - Complexity: O(log *n*) in the units of the page (plus the words of
  ///   one line for `up` and `down`).
  public func position(
    from position: TextPosition, toBoundary granularity: TextGranularity,
    inDirection direction: TextDirection
  ) -> TextPosition? {
    guard contains(position) else { return nil }
    let p = position.offset
    if case .layout(let l) = direction, case .across(let s) = screenMove(l, at: p),
      [.character, .word, .line].contains(granularity)
    {
      return verticalMove(from: position, down: s == .forward)
    }
    switch storageDirection(direction, at: p) {
    case .forward:
      return nextUnitEnd(after: p, granularity).map(TextPosition.init(offset:))
    case .backward:
      return previousUnitStart(before: p, granularity).map(TextPosition.init(offset:))
    }
  }

  // MARK: Units

  private func units(_ granularity: TextGranularity) -> UnitList {
    switch granularity {
    case .word: .ranges(layout.readerWords)
    case .sentence: .ranges(layout.sentences)
    case .paragraph: .ranges(layout.paragraphRanges)
    case .line: .lines
    case .document: .ranges(layout.length > 0 ? [0..<layout.length] : [])
    case .character: .characters
    }
  }

  private enum UnitList {
    case ranges([Range<Int>])
    case lines
    case characters
  }

  /// The unit with `start <= offset < end`.
  func unitRange(containing offset: Int, _ granularity: TextGranularity) -> Range<Int>? {
    guard offset >= 0, offset < layout.length else { return nil }
    switch units(granularity) {
    case .characters:
      return characterRange(containing: offset)
    case .lines:
      guard let n = layout.lineNumber(containing: offset) else { return nil }
      let r = layout.lines[n].range
      return r.contains(offset) ? r : nil
    case .ranges(let ranges):
      guard let i = Self.lastRange(in: ranges, startingAtOrBefore: offset) else { return nil }
      return ranges[i].contains(offset) ? ranges[i] : nil
    }
  }

  private func nextUnitEnd(after p: Int, _ granularity: TextGranularity) -> Int? {
    guard p < layout.length else { return nil }
    switch units(granularity) {
    case .characters:
      return characterRange(containing: p)?.upperBound
    case .lines:
      return Self.nextEnd(after: p, count: layout.lines.count) { layout.lines[$0].range }
    case .ranges(let ranges):
      return Self.nextEnd(after: p, count: ranges.count) { ranges[$0] }
    }
  }

  private func previousUnitStart(before p: Int, _ granularity: TextGranularity) -> Int? {
    guard p > 0 else { return nil }
    switch units(granularity) {
    case .characters:
      return characterRange(containing: min(p, layout.length) - 1)?.lowerBound
    case .lines:
      guard
        let i = LayoutSearch.lastIndex(
          count: layout.lines.count, atOrBefore: p - 1, { layout.lines[$0].range.lowerBound })
      else { return nil }
      return layout.lines[i].range.lowerBound
    case .ranges(let ranges):
      guard let i = Self.lastRange(in: ranges, startingAtOrBefore: p - 1) else { return nil }
      return ranges[i].lowerBound
    }
  }

  private static func nextEnd(after p: Int, count: Int, _ range: (Int) -> Range<Int>) -> Int? {
    let i = LayoutSearch.lastIndex(count: count, atOrBefore: p, { range($0).lowerBound })
    if let i, range(i).upperBound > p { return range(i).upperBound }
    let next = (i ?? -1) + 1
    return next < count ? range(next).upperBound : nil
  }

  static func lastRange(in ranges: [Range<Int>], startingAtOrBefore offset: Int) -> Int? {
    LayoutSearch.lastIndex(count: ranges.count, atOrBefore: offset, { ranges[$0].lowerBound })
  }

  /// The grapheme cluster holding the code unit at `offset`. Inside an OCR
  /// word it follows the word's characters; elsewhere (spaces, newlines)
  /// every code unit is a character.
  func characterRange(containing offset: Int) -> Range<Int>? {
    guard offset >= 0, offset < layout.length else { return nil }
    if let w = layout.wordIndex(containing: offset), layout.words[w].range.upperBound > offset {
      let entry = layout.words[w]
      var start = entry.range.lowerBound
      for c in word(at: entry).text {
        let end = start + c.utf16.count
        if offset < end { return start..<end }
        start = end
      }
    }
    return offset..<(offset + 1)
  }

  func verticalMove(from position: TextPosition, down: Bool) -> TextPosition? {
    let p = position.offset
    guard let n = layout.caretLineNumber(for: p) else {
      return down ? (p < layout.length ? endPosition : nil) : (p > 0 ? startPosition : nil)
    }
    let target = down ? n + 1 : n - 1
    guard layout.lines.indices.contains(target) else {
      if down { return p < layout.length ? endPosition : nil }
      return p > 0 ? startPosition : nil
    }
    let from = layout.lines[n].frame
    let caret = from.point(
      u: layout.caretU(line: n, offset: p), v: (from.bandTop + from.bandBottom) / 2)
    let u = layout.lines[target].frame.local(caret).u
    guard let stop = layout.nearestStop(line: target, u: u) else { return nil }
    return TextPosition(offset: layout.stopOffset(stop))
  }
}

/// Binary searches over sorted keys.
enum LayoutSearch {
  /// The last index `i` in `0..<count` with `key(i) <= value`, for keys that
  /// never decrease.
  static func lastIndex(count: Int, atOrBefore value: Int, _ key: (Int) -> Int) -> Int? {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if key(mid) <= value { lo = mid + 1 } else { hi = mid }
    }
    return lo > 0 ? lo - 1 : nil
  }
}
