/// Finds where sentences start in the text of a page.
///
/// The rules follow Unicode UAX #29 sentence boundaries loosely, with
/// abbreviation handling on top. They use the standard library only (no ICU,
/// no Foundation). A *word* here is a run of non-whitespace characters, as
/// the page text puts them.
///
/// ## What ends a sentence
///
/// - **A paragraph break** (an empty or whitespace-only line, that is two or
///   more line breaks with only whitespace between them, or U+2029) always
///   ends a sentence, even without punctuation, so headings and list items
///   separated by empty lines are sentences of their own. A single line break
///   is like a space: sentences run across lines.
/// - **A terminal** (`.` `!` `?` `…`, also `‼` `‽` `⁇` `⁈` `⁉` `।` `॥` `؟`) at the
///   end of a word, optionally followed by closing quotes and brackets
///   (`end.”`, `(see above.)`), ends a sentence when the next word starts with
///   an uppercase or uncased letter (`Then`, `東京`), a number, or an opening
///   quote or bracket (`“`, `(`, `„`, `«`, `¿`). Before a lowercase letter or
///   anything else (a dash, a symbol) the sentence goes on: `"Wait," he said`,
///   `"What?" she asked`, `page 5. and`.
/// - **Ideographic terminals** (`。` `｡` `！` `？`) end a sentence wherever they
///   stand, even inside a word, as CJK text puts no space after them.
///
/// A full stop after an abbreviation does not end a sentence, whatever follows:
/// - single letters and dotted initials: `J. Smith`, `U.S. Army`, `e.g.`,
///   `i.e.`, `z.B.` (so `… in the U.S. They …` is one sentence);
/// - common abbreviations in any case: `vs.`, `cf.`, `al.`, `approx.`, `ca.`,
///   `fig.`, `eq.`, `vol.`, `pp.`, `ed.`, `ch.`, `sec.`, `ref.`, `resp.`,
///   `incl.`, `esp.`, `viz.`, `ibid.`, `Ph.D.`;
/// - titles, company suffixes and months when capitalized (a lowercase `no.`
///   ends a sentence, `No. 5` does not): `Mr.`, `Mrs.`, `Ms.`, `Dr.`,
///   `Prof.`, `St.`, `Mt.`, `Jr.`, `Sr.`, `Rev.`, `Gen.`, `Col.`, `Capt.`,
///   `Lt.`, `Sgt.`, `Gov.`, `Sen.`, `Rep.`, `Hon.`, `No.`, `Nos.`, `Nr.`,
///   `Inc.`, `Ltd.`, `Co.`, `Corp.`, `Bros.`, `Jan.` … `Dec.` (without `May`).
///
/// `etc.` is *not* in the list: it usually ends a sentence, so it follows the
/// terminal rule (`… cats, dogs, etc. The end` breaks; `etc. and more` does
/// not). A number with a full stop follows the terminal rule too
/// (`in 2020. The` breaks, `page 5. and` does not), except that a list marker
/// (`1.`, `2.1.`, `iv.`, `IV.`) that is the first word of a sentence does not
/// end it: `1. Introduction` is one sentence.
enum SentenceSegmentation {
  /// Returns the offsets at which the sentences of a page text start.
  ///
  /// The starts partition the text: the first sentence starts at 0 (even if
  /// the text begins with whitespace), and each later sentence starts at the
  /// first non-whitespace character after the end of the previous one. The
  /// whitespace after a sentence belongs to it.
  ///
  /// ```swift
  /// SentenceSegmentation.sentenceStarts(in: "Hi Mr. Smith. Bye.")  // [0, 14]
  /// ```
  ///
  /// - Parameter text: A page text: words separated by single spaces, `"\n"`
  ///   after each line and an empty line (`"\n\n"`) after each paragraph. Any
  ///   other whitespace is accepted as well.
  /// - Returns: The sentence starts in UTF-16 code units, strictly increasing:
  ///   `[]` for empty text, `[0]` for whitespace-only text.
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  static func sentenceStarts(in text: String) -> [Int] {
    guard !text.isEmpty else { return [] }
    var starts = [0]
    var sentenceStart = 0  // offset of the first word of the current sentence
    var previousWord: (text: Substring, offset: Int)?
    var word: (start: String.Index, offset: Int)?  // the word being read
    var lineBreaksBeforeWord = 0
    var afterIdeographicTerminal = false
    var index = text.startIndex
    var offset = 0

    while index < text.endIndex {
      let character = text[index]
      let nextIndex = text.index(after: index)
      defer {
        index = nextIndex
        offset += character.utf16.count
      }

      if character.isWhitespace {
        if let current = word {
          previousWord = (text[current.start..<index], current.offset)
          word = nil
          lineBreaksBeforeWord = 0
          afterIdeographicTerminal = false
        }
        if character.isNewline {
          lineBreaksBeforeWord += character == "\u{2029}" ? 2 : 1
        }
        continue
      }

      if word == nil {
        word = (index, offset)
        if let previous = previousWord {
          if lineBreaksBeforeWord >= 2
            || endsSentence(
              previous.text, isFirstWord: previous.offset == sentenceStart,
              before: character)
          {
            starts.append(offset)
            sentenceStart = offset
          }
        } else {
          sentenceStart = offset  // the first word; 0 is already a start
        }
      } else if afterIdeographicTerminal && !character.isClosingPunctuation
        && !character.isIdeographicTerminal
      {
        starts.append(offset)
        sentenceStart = offset
      }

      if character.isIdeographicTerminal {
        afterIdeographicTerminal = true
      } else if !character.isClosingPunctuation {
        afterIdeographicTerminal = false
      }
    }
    return starts
  }

  // MARK: - Rules

  /// Whether a sentence ends after `word` when the next word starts with
  /// `next` in the same paragraph.
  private static func endsSentence(
    _ word: Substring, isFirstWord: Bool, before next: Character
  ) -> Bool {
    var end = word.endIndex
    while end > word.startIndex,
      word[word.index(before: end)].isClosingPunctuation
    {
      end = word.index(before: end)
    }
    guard end > word.startIndex else { return false }
    let terminalIndex = word.index(before: end)
    let terminal = word[terminalIndex]

    if terminal.isIdeographicTerminal { return true }
    guard terminal.isSentenceTerminal else { return false }
    if terminal == "." {
      var body = word[..<terminalIndex]
      while let first = body.first, first.isOpeningPunctuation {
        body = body.dropFirst()
      }
      let isEllipsis = body.last == "."
      if !isEllipsis
        && (isAbbreviation(body) || (isFirstWord && isListMarker(body)))
      {
        return false
      }
    }
    return next.canStartSentence
  }

  /// Whether `body` (a word without its final full stop and opening
  /// punctuation) is an abbreviation.
  private static func isAbbreviation(_ body: Substring) -> Bool {
    guard let first = body.first else { return false }
    if isInitials(body) { return true }
    guard body.utf8.count <= 8 else { return false }
    let key = body.lowercased()
    return abbreviations.contains(key)
      || (first.hasUppercaseBase && capitalizedAbbreviations.contains(key))
  }

  /// Single letters separated by full stops: `J`, `U.S`, `e.g`.
  private static func isInitials(_ body: Substring) -> Bool {
    var expectsLetter = true
    for character in body {
      if expectsLetter ? !character.isLetter : character != "." { return false }
      expectsLetter.toggle()
    }
    return !expectsLetter
  }

  /// A list number without its final full stop: `1`, `2.1`, `iv`, `IV`.
  private static func isListMarker(_ body: Substring) -> Bool {
    guard let first = body.first else { return false }
    if first.isNumber {
      return body.utf8.count <= 8
        && body.allSatisfy { $0.isNumber || $0 == "." }
    }
    return body.utf8.count <= 5
      && (body.allSatisfy { "ivxlcdm".contains($0) }
        || body.allSatisfy { "IVXLCDM".contains($0) })
  }

  /// Abbreviations that never end a sentence, in lowercase; matched in any
  /// case.
  private static let abbreviations: Set<String> = [
    "vs", "cf", "al", "approx", "ca", "fig", "figs", "eq", "eqs", "vol",
    "vols", "pp", "ed", "eds", "ch", "sec", "ref", "refs", "resp", "incl",
    "esp", "viz", "ibid", "ph.d",
  ]

  /// Abbreviations that never end a sentence when capitalized (`No.`, not
  /// `no.`), in lowercase.
  private static let capitalizedAbbreviations: Set<String> = [
    "mr", "mrs", "ms", "messrs", "dr", "prof", "st", "mt", "jr", "sr", "rev",
    "gen", "col", "capt", "lt", "sgt", "gov", "sen", "rep", "hon", "no",
    "nos", "nr", "inc", "ltd", "co", "corp", "bros", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  ]
}

// MARK: - Character classes

extension Character {
  /// `.`, `!`, `?` and their relatives, which end a sentence before a space.
  fileprivate var isSentenceTerminal: Bool {
    switch self {
    case ".", "!", "?", "\u{2026}", "\u{203C}", "\u{203D}", "\u{2047}",
      "\u{2048}", "\u{2049}", "\u{0964}", "\u{0965}", "\u{061F}":
      true
    default:
      false
    }
  }

  /// `。`, `｡`, `！`, `？`: terminals of CJK text, which needs no space after
  /// them.
  fileprivate var isIdeographicTerminal: Bool {
    switch self {
    case "\u{3002}", "\u{FF61}", "\u{FF01}", "\u{FF1F}": true
    default: false
    }
  }

  /// Brackets and quotes that may follow a terminal: closing brackets, all
  /// quotation marks (German closes with `“`), `"` and `'`.
  fileprivate var isClosingPunctuation: Bool {
    if self == "\"" || self == "'" { return true }
    switch unicodeScalars.first?.properties.generalCategory {
    case .closePunctuation, .finalPunctuation, .initialPunctuation: return true
    default: return false
    }
  }

  /// Brackets and quotes that may open a sentence: opening brackets, all
  /// quotation marks (`»` opens in German), `"`, `'`, `¡` and `¿`.
  fileprivate var isOpeningPunctuation: Bool {
    switch self {
    case "\"", "'", "\u{00A1}", "\u{00BF}": return true
    default: break
    }
    switch unicodeScalars.first?.properties.generalCategory {
    case .openPunctuation, .initialPunctuation, .finalPunctuation: return true
    default: return false
    }
  }

  /// Whether a word starting with this character may start a sentence after
  /// a terminal: anything but a lowercase letter, a dash or a symbol.
  fileprivate var canStartSentence: Bool {
    if isLetter { return unicodeScalars.first?.properties.isLowercase == false }
    return isNumber || isOpeningPunctuation
  }

  /// Whether the base letter is uppercase (`Character.isUppercase` is also
  /// true for letters without case, such as `𝒜`).
  fileprivate var hasUppercaseBase: Bool {
    unicodeScalars.first?.properties.isUppercase == true
  }
}
