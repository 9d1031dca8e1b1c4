import Foundation

/// How ``Page/find(_:options:)`` compares the query with the page text.
public struct FindOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  /// Creates options from their raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Letters match whatever their case, by Unicode case folding
  /// (`Straße` matches `STRASSE`, `ſ` matches `s`).
  public static let caseInsensitive = FindOptions(rawValue: 1 << 0)
  /// Letters match whatever their diacritics: marks are removed after
  /// canonical decomposition (`é` matches `e`, `uͤ` matches `u`).
  public static let diacriticInsensitive = FindOptions(rawValue: 1 << 1)
}

/// One match of ``Page/find(_:options:)``.
public struct FindMatch: Hashable, Sendable {
  /// The matched range of the page text; it starts and ends on grapheme
  /// cluster boundaries.
  public var range: TextRange
  /// The selection rectangles of ``range``, one per line
  /// (``Page/selectionRects(for:)``).
  public var rects: [SelectionRect]
}

extension Page {
  /// The places where `query` occurs in the page text, in text order, with
  /// their selection rectangles (the `UITextSearching` / find-in-page
  /// operation).
  ///
  /// Matching works on whole grapheme clusters: a match never starts or
  /// ends inside one, so `e` does not match the `e` of an `é` written with a
  /// combining accent (unless ``FindOptions/diacriticInsensitive`` is set),
  /// and `👍` does not match `👍🏽`. Both sides are compared in canonical
  /// decomposition, so a precomposed `é` matches a decomposed one.
  ///
  /// - A run of whitespace in the query (spaces, tabs, newlines) matches a
  ///   run of whitespace in the page: a space, a line break or a paragraph
  ///   break, so `character recognition` finds the two words on two lines.
  /// - At a word hyphenated at a line end (``hyphenBreaks``) the hyphen and
  ///   the line break may be left out or typed as `-`: `recognition` and
  ///   `recog-nition` find `recog-⏎nition`, `email` and `e-mail` find
  ///   `e-⏎mail`.
  /// - The hyphens `‐` (U+2010) and `‑` (U+2011) match `-`; a soft hyphen
  ///   (U+00AD) inside a line is ignored.
  ///
  /// Matches do not overlap: after a match, the search goes on at its end.
  /// A query that is empty after folding has no matches.
  ///
  /// ```swift
  /// page.find("recognition", options: .caseInsensitive)
  /// // [FindMatch(range: 44..<58, rects: [line 0 "recog-", line 1 "nition"])]
  /// ```
  ///
  /// - Parameters:
  ///   - query: The text to find.
  ///   - options: Case and diacritic insensitivity.
  /// - Returns: The matches in text order.
  /// - Complexity: O(*n* · *m*) in the length of the page text and of the
  ///   query in the worst case, O(*n* + *m*) for ordinary text; plus the
  ///   selection rectangles of each match.
  public func find(_ query: String, options: FindOptions = []) -> [FindMatch] {
    findRanges(query, options: options).map {
      FindMatch(range: $0, rects: selectionRects(for: $0))
    }
  }

  /// The ranges of ``find(_:options:)``, without rectangles.
  /// - Complexity: As ``find(_:options:)``.
  public func findRanges(_ query: String, options: FindOptions = []) -> [TextRange] {
    let needle = SearchText(query: query, options: options)
    guard !needle.keys.isEmpty else { return [] }
    let haystack = SearchText(page: self, options: options)
    var ranges: [TextRange] = []
    var k = 0
    let keys = haystack.keys
    while k < keys.count {
      if haystack.startsUnit(k), keys[k] != SearchText.optionalHyphen,
        let end = haystack.match(needle.keys, at: k)
      {
        ranges.append(
          TextRange(offsets: haystack.offset(ofKey: k)..<haystack.endOffset(ofKey: end)))
        k = max(end, k + 1)
      } else {
        k += 1
      }
    }
    return ranges
  }
}

/// A text folded for search: a flat array of keys (Unicode scalar values,
/// or the two markers below), each mapped back to the grapheme cluster of
/// the page text it comes from.
struct SearchText {
  /// A run of whitespace.
  static let whitespace: Int32 = -1
  /// A line-end hyphen with its line break: matches a `-` or nothing.
  static let optionalHyphen: Int32 = -2
  static let hyphen = Int32(UInt8(ascii: "-"))

  var keys: [Int32] = []
  /// For each key, the index of its unit in `units`.
  private var unitOfKey: [Int32] = []
  /// The UTF-16 range of each unit in the page text.
  private var units: [Range<Int>] = []

  /// The folded query.
  init(query: String, options: FindOptions) {
    var inSpace = false
    for c in query {
      if c.isWhitespace {
        if !inSpace { keys.append(Self.whitespace) }
        inSpace = true
        continue
      }
      inSpace = false
      keys += Self.fold(c, options)
    }
  }

  /// The folded page text.
  init(page: Page, options: FindOptions) {
    let text = page.text
    let breaks = page.hyphenBreaks
    var nextBreak = 0
    var offset = 0
    keys.reserveCapacity(text.utf16.count)
    unitOfKey.reserveCapacity(text.utf16.count)
    var index = text.startIndex
    while index < text.endIndex {
      let c = text[index]
      let length = c.utf16.count
      while nextBreak < breaks.count, breaks[nextBreak].gap.lowerBound.offset < offset {
        nextBreak += 1
      }
      if nextBreak < breaks.count, breaks[nextBreak].gap.lowerBound.offset == offset {
        // The hyphen is one unit; the rest of the gap (a line break, a
        // space before a hyphen read as a word) belongs to no unit: a match
        // across it covers it.
        let b = breaks[nextBreak]
        nextBreak += 1
        append([Self.optionalHyphen], b.hyphen.offsets)
        while index < text.endIndex, offset < b.continuation.offset {
          offset += text[index].utf16.count
          index = text.index(after: index)
        }
        continue
      }
      if c.isWhitespace {
        if let last = units.last, last.upperBound == offset, keys.last == Self.whitespace {
          units[units.count - 1] = last.lowerBound..<(offset + length)
        } else {
          append([Self.whitespace], offset..<(offset + length))
        }
      } else {
        append(Self.fold(c, options), offset..<(offset + length))
      }
      offset += length
      index = text.index(after: index)
    }
  }

  private mutating func append(_ folded: [Int32], _ range: Range<Int>) {
    let u = Int32(clamping: units.count)
    units.append(range)
    for key in folded {
      keys.append(key)
      unitOfKey.append(u)
    }
  }

  /// Whether key `k` is the first of its unit.
  func startsUnit(_ k: Int) -> Bool { k == 0 || unitOfKey[k] != unitOfKey[k - 1] }

  /// Whether a match may end before key `k` (the end of a unit).
  private func endsUnit(_ k: Int) -> Bool {
    k == keys.count || k == 0 || unitOfKey[k] != unitOfKey[k - 1]
  }

  func offset(ofKey k: Int) -> Int { units[Int(unitOfKey[k])].lowerBound }

  /// The end offset of a match whose last key is before `k`.
  func endOffset(ofKey k: Int) -> Int { units[Int(unitOfKey[k - 1])].upperBound }

  /// The key index after a match of `needle` starting at key `k`, or `nil`.
  /// An optional hyphen matches a `-` in the needle or nothing.
  func match(_ needle: [Int32], at k: Int) -> Int? {
    var q = 0
    var p = k
    while q < needle.count {
      guard p < keys.count else { return nil }
      let key = keys[p]
      if key == Self.optionalHyphen {
        if needle[q] == Self.hyphen, let end = match(Array(needle[(q + 1)...]), at: p + 1) {
          return end
        }
        p += 1
        continue
      }
      guard key == needle[q] else { return nil }
      q += 1
      p += 1
    }
    return endsUnit(p) ? p : nil
  }

  /// The search keys of one grapheme cluster.
  static func fold(_ c: Character, _ options: FindOptions) -> [Int32] {
    if let ascii = c.asciiValue {
      if options.contains(.caseInsensitive), ascii >= 0x41, ascii <= 0x5A {
        return [Int32(ascii + 0x20)]
      }
      return [Int32(ascii)]
    }
    switch c {
    case "\u{2010}", "\u{2011}": return [hyphen]
    case "\u{00AD}": return []
    default: break
    }
    var s = String(c)
    var foundation: String.CompareOptions = []
    if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
    if !foundation.isEmpty { s = s.folding(options: foundation, locale: nil) }
    return s.decomposedStringWithCanonicalMapping.unicodeScalars.map { Int32($0.value) }
  }
}
