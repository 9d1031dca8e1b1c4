/// Splits OCR words into the words a reader sees.
///
/// Tesseract's words are runs of text between spaces, so they carry punctuation
/// (`(word).`), joined compounds (`word—word`, `and/or`) and symbols (`$`,
/// `%`). This type finds the words inside such a token with a small,
/// dictionary-free rule set in the spirit of Unicode UAX #29, written with the
/// standard library only (no ICU, no Foundation).
///
/// ## What is a word
///
/// A word is a maximal run of *word characters*, optionally held together by
/// single *joiners*:
///
/// - **Word characters** are Unicode letters and numbers
///   (`Character.isLetter`, `Character.isNumber`): `Größe`, `naïve`, `café`
///   (also spelled with a combining accent), `東京`, `٣`. Emoji, including
///   keycap digits such as `1️⃣`, are not word characters. A run of CJK
///   characters is one word: there is no dictionary to split it further.
/// - **Joiners** keep a word whole when exactly one of them sits between two
///   word characters:
///   - hyphens, apostrophes, full stops, the underscore and the middle dot join
///     any word characters: `e-mail`, `well-known`, `can't`, `can’t`,
///     `U.S.A`, `3.14`, `l·l`;
///   - commas and colons join digits only: `1,250`, `43,456.78`, `10:30`.
/// - Everything else separates words and is never part of one: leading and
///   trailing punctuation and symbols (`"(word)."` → `word`, `“Quoted”` →
///   `Quoted`, `Dr.` → `Dr`, `$43,456.78` → `43,456.78`, `12.5%` → `12.5`),
///   em and en dashes (`word—word`), slashes (`and/or`), and doubled joiners
///   such as an ellipsis (`word...word`) or `--`.
///
/// A token without letters or digits (`—`, `&`, `...`) has no words.
/// Grapheme clusters are never split.
enum WordSegmentation {
  /// Returns the ranges of the words in one OCR token.
  ///
  /// ```swift
  /// WordSegmentation.wordRanges(in: "(well-known)")  // [1..<11]
  /// WordSegmentation.wordRanges(in: "and/or")        // [0..<3, 4..<6]
  /// ```
  ///
  /// - Parameter token: One OCR word, normally without spaces. A space is
  ///   treated like any other separator.
  /// - Returns: The word ranges, in UTF-16 code units relative to the start of
  ///   `token`, in increasing order and non-overlapping. Every range starts and
  ///   ends with a letter or a number.
  /// - Complexity: O(*n*), where *n* is the length of `token`.
  static func wordRanges(in token: Substring) -> [Range<Int>] {
    // Most tokens are ASCII letters and digits alone: one word, found
    // without breaking the token into grapheme clusters (which was most of
    // this function's cost on a dense page).
    func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
      (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0x30 && b <= 0x39
    }
    if !token.isEmpty, token.utf8.allSatisfy(isASCIILetterOrDigit) {
      return [0..<token.utf8.count]
    }
    var ranges: [Range<Int>] = []
    // The word being built, and the class of its last word character.
    var wordStart = 0
    var wordEnd = 0
    var lastKind: WordCharacterKind?
    // What sits right before the current character: the current word's last
    // character (`touchesWord`), or a single joiner right after it (`bridge`).
    var touchesWord = false
    var bridge: Joiner?
    var offset = 0

    for character in token {
      let length = character.utf16.count
      defer { offset += length }

      switch CharacterRole(character) {
      case .word(let kind):
        let continuesWord: Bool
        if let lastKind {
          continuesWord = touchesWord || bridge?.joins(lastKind, kind) == true
        } else {
          continuesWord = false
        }
        if !continuesWord {
          if lastKind != nil { ranges.append(wordStart..<wordEnd) }
          wordStart = offset
        }
        wordEnd = offset + length
        lastKind = kind
        touchesWord = true
        bridge = nil
      case .joiner(let joiner):
        bridge = touchesWord ? joiner : nil
        touchesWord = false
      case .separator:
        bridge = nil
        touchesWord = false
      }
    }
    if lastKind != nil { ranges.append(wordStart..<wordEnd) }
    return ranges
  }
}

// MARK: - Character classes

/// Whether a word character is a letter or a number; some joiners only join
/// numbers.
private enum WordCharacterKind {
  case letter
  case number
}

/// A character that keeps a word whole when it appears once between two word
/// characters.
private enum Joiner {
  /// Hyphens, apostrophes, full stops, underscore, middle dot: `e-mail`,
  /// `can't`, `U.S.A`, `3.14`.
  case any
  /// Commas and colons: `1,250`, `10:30`.
  case numbers

  func joins(_ before: WordCharacterKind, _ after: WordCharacterKind) -> Bool {
    switch self {
    case .any: true
    case .numbers: before == .number && after == .number
    }
  }
}

private enum CharacterRole {
  case word(WordCharacterKind)
  case joiner(Joiner)
  case separator

  init(_ character: Character) {
    // Most OCR text is ASCII: classify it by its byte, without comparing
    // strings.
    if let ascii = character.asciiValue {
      switch ascii {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        self = .word(.letter)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .word(.number)
      case UInt8(ascii: "-"), UInt8(ascii: "'"), UInt8(ascii: "."), UInt8(ascii: "_"):
        self = .joiner(.any)
      case UInt8(ascii: ","), UInt8(ascii: ":"): self = .joiner(.numbers)
      default: self = .separator
      }
      return
    }
    switch character {
    // Hyphens (also non-breaking, soft and the Fraktur double hyphen ⸗),
    // apostrophes (OCR reads ’ and ‘ for '), full stops, the one dot leader, underscore, middle dot and
    // hyphenation point.
    case "-", "\u{2010}", "\u{2011}", "\u{2E17}", "\u{00AD}", "'", "\u{2018}", "\u{2019}",
      "\u{FF07}", ".", "\u{FF0E}", "\u{2024}", "_", "\u{00B7}", "\u{2027}":
      self = .joiner(.any)
    // Comma, colon, Arabic decimal and thousands separators, fraction slash,
    // fullwidth comma.
    case ",", ":", "\u{066B}", "\u{066C}", "\u{2044}", "\u{FF0C}":
      self = .joiner(.numbers)
    default:
      if character.isEmojiSequence {
        self = .separator
      } else if character.isLetter {
        self = .word(.letter)
      } else if character.isNumber {
        self = .word(.number)
      } else {
        self = .separator
      }
    }
  }
}

extension Character {
  /// Whether this character is drawn as an emoji although it starts with a
  /// letter or digit, as keycaps (`1️⃣`) do.
  fileprivate var isEmojiSequence: Bool {
    unicodeScalars.count > 1
      && unicodeScalars.contains { $0 == "\u{FE0F}" || $0 == "\u{20E3}" }
  }
}
