import Testing

@testable import ScanModel

// MARK: - Helpers

/// The words `WordSegmentation` finds in `token`, as strings.
private func words(in token: String) -> [String] {
  WordSegmentation.wordRanges(in: token[...]).map { token[utf16: $0] }
}

/// The sentences `SentenceSegmentation` finds in `text`, without the
/// whitespace that follows each.
private func sentences(in text: String) -> [String] {
  let starts = SentenceSegmentation.sentenceStarts(in: text)
  let ends = starts.dropFirst() + [text.utf16.count]
  return zip(starts, ends).map { start, end in
    var sentence = text[utf16: start..<end][...]
    while sentence.last?.isWhitespace == true { sentence = sentence.dropLast() }
    return String(sentence)
  }
}

private func expectWords(
  _ token: String, _ expected: [String],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    words(in: token) == expected, "in \(token.debugDescription)",
    sourceLocation: sourceLocation)
}

private func expectSentences(
  _ text: String, _ expected: [String],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    sentences(in: text) == expected, "in \(text.debugDescription)",
    sourceLocation: sourceLocation)
}

extension String {
  /// The text at a range of UTF-16 offsets.
  fileprivate subscript(utf16 range: Range<Int>) -> String {
    let lower = String.Index(utf16Offset: range.lowerBound, in: self)
    let upper = String.Index(utf16Offset: range.upperBound, in: self)
    return String(self[lower..<upper])
  }

  /// The characters of the string keyed by their UTF-16 offset; the keys are
  /// the `Character` boundaries (except `endIndex`).
  fileprivate var charactersByUTF16Offset: [Int: Character] {
    var characters: [Int: Character] = [:]
    var offset = 0
    for character in self {
      characters[offset] = character
      offset += character.utf16.count
    }
    return characters
  }
}

// MARK: - Sample pages

/// Page texts in the shape the OCR produces: single spaces, a line break after
/// each line, an empty line after each paragraph.
private enum SamplePage: String, CaseIterable, Sendable {
  case english, european, unicode, long

  var text: String {
    switch self {
    case .english: Self.englishText
    case .european: Self.europeanText
    case .unicode: Self.unicodeText
    case .long: Self.longText
    }
  }

  private static let englishText = """
    The (quick) [brown] {fox} jumps! Over the $43,456.78 <lazy> #90 dog
    & duck/goose, as 12.5% of E-mail from spammer@example.com is spam.
    Mr. J. R. Smith, Ph.D., met Dr. Jones at 10:30 a.m. on Jan. 5, i.e. on
    a Monday. They talked about well-known e-mail tricks, U.S.A. law, etc.
    Then they left... "Why?" she asked. "Because." He didn't know.

    1. Introduction

    See Fig. 3 and Eq. 4 (cf. Smith et al. 2020). The results-section is
    short—very short. It's 3.14 times longer than the rock'n'roll one, approx.
    1,250 words. Was it worth it? Yes! No. 5 was better; no. It wasn't.

    IV. Results and Discussion

    The end.

    """

  private static let europeanText = """
    Der „schnelle“ braune Fuchs springt über den faulen Hund. Größe und
    Straße sind Wörter, z.B. in Köln. Über Nacht änderte sich alles.

    Le renard brun «rapide» saute par-dessus le chien paresseux. C’est
    l’été ! La volpe marrone rapida salta sopra il cane pigro.

    ¿Qué tal? ¡Muy bien! El zorro marrón rápido salta sobre el perro.
    A raposa marrom rápida salta sobre o cão preguiçoso. Ωμέγα και άλφα.

    """

  private static let unicodeText = """
    Café and cafe\u{301} look alike. Naïve co\u{308}operation 👍🏽 works.
    Emoji 😀 are not words. 𝒜lgebra uses 𝒜 signs. 1️⃣ is a keycap.

    東京タワーは高い。大阪も大きい。「本当？」はい。

    यह एक वाक्य है। वह दूसरा है। مرحبا بالعالم؟ نعم.

    """

  /// A long page (over 10,000 UTF-16 code units) built from the others.
  private static let longText: String = {
    var text = ""
    var index = 0
    while text.utf16.count < 12_000 {
      text += [englishText, europeanText, unicodeText][index % 3]
      text += "Paragraph \(index) ends here with no. \(index). Next one.\n\n"
      index += 1
    }
    return text
  }()
}

// MARK: - Words

@Suite("Word segmentation")
private struct WordSegmentationTests {
  @Test func leadingAndTrailingPunctuationIsNotPartOfAWord() {
    expectWords("word,", ["word"])
    expectWords("(word).", ["word"])
    expectWords("“Quoted”", ["Quoted"])
    expectWords("end.", ["end"])
    expectWords("Dr.", ["Dr"])
    expectWords("\"Hello!\"", ["Hello"])
    expectWords("[brown]", ["brown"])
    expectWords("<lazy>", ["lazy"])
    expectWords("#90", ["90"])
    expectWords("„schnelle“", ["schnelle"])
    expectWords("«rapide»", ["rapide"])
    expectWords("¿Qué?", ["Qué"])
    expectWords("-word-", ["word"])
    expectWords("'tis", ["tis"])
    expectWords("students'", ["students"])
  }

  @Test func rangesAreRelativeToTheToken() {
    #expect(WordSegmentation.wordRanges(in: "(word).") == [1..<5])
    #expect(WordSegmentation.wordRanges(in: "(well-known)") == [1..<11])
    #expect(WordSegmentation.wordRanges(in: "and/or") == [0..<3, 4..<6])
    let line = "say (hello), please"
    let token = line.split(separator: " ")[1]
    #expect(WordSegmentation.wordRanges(in: token) == [1..<6])
  }

  @Test func internalJoinersKeepAWordWhole() {
    expectWords("e-mail", ["e-mail"])
    expectWords("E-mail", ["E-mail"])
    expectWords("well-known", ["well-known"])
    expectWords("Donau⸗Dampfſchiff", ["Donau⸗Dampfſchiff"])
    expectWords("non\u{2011}breaking", ["non\u{2011}breaking"])
    expectWords("can't", ["can't"])
    expectWords("can’t", ["can’t"])
    expectWords("rock'n'roll", ["rock'n'roll"])
    expectWords("U.S.A.", ["U.S.A"])
    expectWords("e.g.,", ["e.g"])
    expectWords("3.14", ["3.14"])
    expectWords("1,250", ["1,250"])
    expectWords("1,250,000.", ["1,250,000"])
    expectWords("$43,456.78", ["43,456.78"])
    expectWords("12.5%", ["12.5"])
    expectWords("10:30", ["10:30"])
    expectWords("COVID-19", ["COVID-19"])
    expectWords("snake_case", ["snake_case"])
    expectWords("col·lecció", ["col·lecció"])
  }

  @Test func commasAndColonsJoinOnlyNumbers() {
    expectWords("a,b", ["a", "b"])
    expectWords("1,a", ["1", "a"])
    expectWords("Note:this", ["Note", "this"])
    expectWords("ratio:2", ["ratio", "2"])
  }

  @Test func dashesSlashesAndEllipsesSplitWords() {
    expectWords("word—word", ["word", "word"])
    expectWords("word–word", ["word", "word"])
    expectWords("state—of—the-art", ["state", "of", "the-art"])
    expectWords("and/or", ["and", "or"])
    expectWords("duck/goose,", ["duck", "goose"])
    expectWords("1/2", ["1", "2"])
    expectWords("word...word", ["word", "word"])
    expectWords("word…word", ["word", "word"])
    expectWords("well--known", ["well", "known"])
    expectWords("spammer@example.com", ["spammer", "example.com"])
  }

  @Test func tokensWithoutLettersOrDigitsHaveNoWords() {
    for token in ["", "—", "&", "...", "…", "%", "“”", "()", "😀", "1️⃣", "#️⃣"] {
      expectWords(token, [])
    }
  }

  @Test func unicodeLettersAndNumbersAreWordCharacters() {
    expectWords("Größe", ["Größe"])
    expectWords("Straße,", ["Straße"])
    expectWords("naïve", ["naïve"])
    expectWords("café.", ["café"])
    expectWords("Ωμέγα", ["Ωμέγα"])
    expectWords("l’été", ["l’été"])
    // Arabic-Indic digits with the Arabic decimal separator.
    expectWords("١٢٣٫٥", ["١٢٣٫٥"])
    expectWords("Ⅻ.", ["Ⅻ"])
  }

  @Test func combiningMarksStayWithTheirLetter() {
    let token = "(cafe\u{301})"
    #expect(WordSegmentation.wordRanges(in: token[...]) == [1..<6])
    expectWords(token, ["cafe\u{301}"])
    expectWords("co\u{308}operation", ["co\u{308}operation"])
    // A combining mark with no base letter is a character of its own.
    expectWords("\u{301}word", ["word"])
  }

  @Test func cjkRunsAreOneWordAndCJKPunctuationSplits() {
    expectWords("東京タワー", ["東京タワー"])
    expectWords("「東京」。", ["東京"])
    expectWords("東京、大阪", ["東京", "大阪"])
    expectWords("서울", ["서울"])
  }

  @Test func emojiAreNotWords() {
    expectWords("a😀b", ["a", "b"])
    expectWords("👍🏽yes", ["yes"])
    expectWords("1️⃣2", ["2"])
  }

  @Test func offsetsCountUTF16CodeUnits() {
    #expect(WordSegmentation.wordRanges(in: "😀word") == [2..<6])
    #expect(WordSegmentation.wordRanges(in: "👍🏽yes") == [4..<7])
    // U+1D49C MATHEMATICAL SCRIPT CAPITAL A is a letter outside the BMP.
    #expect(WordSegmentation.wordRanges(in: "(𝒜bc)") == [1..<5])
    #expect(WordSegmentation.wordRanges(in: "𝒜—b") == [0..<2, 3..<4])
  }

  @Test(arguments: SamplePage.allCases)
  func wordRangesAreOrderedAndCoverEveryLetterAndDigit(page: SamplePage) {
    for token in page.text.split(whereSeparator: \.isWhitespace) {
      let text = String(token)
      let ranges = WordSegmentation.wordRanges(in: token)
      let characters = text.charactersByUTF16Offset
      var previousEnd = 0
      for range in ranges {
        #expect(range.lowerBound >= previousEnd, "in \(text)")
        #expect(!range.isEmpty && range.upperBound <= text.utf16.count)
        #expect(characters[range.lowerBound] != nil)
        #expect(
          range.upperBound == text.utf16.count
            || characters[range.upperBound] != nil)
        let word = text[utf16: range]
        #expect(
          word.first.map { $0.isLetter || $0.isNumber } == true, "\(word)")
        #expect(word.last.map { $0.isLetter || $0.isNumber } == true, "\(word)")
        previousEnd = range.upperBound
      }
      // Every letter or digit that is not an emoji is inside some word.
      var offset = 0
      for character in text {
        if (character.isLetter || character.isNumber)
          && character.unicodeScalars.count == 1
        {
          #expect(
            ranges.contains { $0.contains(offset) }, "\(character) in \(text)")
        }
        offset += character.utf16.count
      }
    }
  }
}

// MARK: - Sentences

@Suite("Sentence segmentation")
private struct SentenceSegmentationTests {
  @Test func emptyAndWhitespaceOnlyText() {
    #expect(SentenceSegmentation.sentenceStarts(in: "") == [])
    #expect(SentenceSegmentation.sentenceStarts(in: " \n\n ") == [0])
    #expect(SentenceSegmentation.sentenceStarts(in: "Hello") == [0])
  }

  @Test func terminalsBeforeAnUppercaseLetterEndASentence() {
    expectSentences(
      "One. Two! Three? Four… Five‽ Six",
      ["One.", "Two!", "Three?", "Four…", "Five‽", "Six"])
    expectSentences("Really?! Yes.", ["Really?!", "Yes."])
    #expect(
      SentenceSegmentation.sentenceStarts(in: "Hi Mr. Smith. Bye.") == [0, 14])
  }

  @Test func theNextSentenceStartsAtTheNextNonSpaceCharacter() {
    #expect(SentenceSegmentation.sentenceStarts(in: "Go.   Now.") == [0, 6])
    #expect(SentenceSegmentation.sentenceStarts(in: "Go.\n Now.") == [0, 5])
  }

  @Test func closingQuotesAndBracketsStayWithTheSentence() {
    expectSentences(
      "He said “Go.” Then he left.", ["He said “Go.”", "Then he left."])
    expectSentences("(See above.) Next.", ["(See above.)", "Next."])
    expectSentences("It was \"done.\") Then.", ["It was \"done.\")", "Then."])
    expectSentences(
      "Er sagte „Hallo.“ Dann ging er.", ["Er sagte „Hallo.“", "Dann ging er."])
  }

  @Test func numbersAndOpeningPunctuationStartASentence() {
    expectSentences(
      "It ended. 2020 was long.", ["It ended.", "2020 was long."])
    expectSentences("Done. “Next” one.", ["Done.", "“Next” one."])
    expectSentences("Done. \"and\" more.", ["Done.", "\"and\" more."])
    expectSentences("Done. (An aside.)", ["Done.", "(An aside.)"])
    expectSentences("Hola. ¿Qué tal?", ["Hola.", "¿Qué tal?"])
  }

  @Test func lowercaseDashesAndSymbolsContinueTheSentence() {
    expectSentences("\"What?\" she asked.", ["\"What?\" she asked."])
    expectSentences("\"Wait!\" he said.", ["\"Wait!\" he said."])
    expectSentences("Wait... what happened?", ["Wait... what happened?"])
    expectSentences("It ended. — But then.", ["It ended. — But then."])
    expectSentences("It cost 5. $10 later.", ["It cost 5. $10 later."])
  }

  @Test func aTerminalNeedsWhitespaceAfterIt() {
    expectSentences("end.Next word", ["end.Next word"])
    expectSentences("It is 3.14 Pi.", ["It is 3.14 Pi."])
    expectSentences("Done.", ["Done."])
    expectSentences("Done. ", ["Done."])
  }

  @Test func commonAbbreviationsDoNotEndASentence() {
    expectSentences(
      "Mr. Smith met Mrs. Smith and Ms. Lee.",
      ["Mr. Smith met Mrs. Smith and Ms. Lee."])
    expectSentences(
      "Dr. Jones and Prof. Brown live in St. Louis.",
      ["Dr. Jones and Prof. Brown live in St. Louis."])
    expectSentences(
      "Us vs. Them. Fig. 3 shows it.", ["Us vs. Them.", "Fig. 3 shows it."])
    expectSentences(
      "See fig. 3 and cf. Smith et al. 2020.",
      ["See fig. 3 and cf. Smith et al. 2020."])
    expectSentences(
      "Apple Inc. Ltd. Corp. Sr. Jr. approx. 5.",
      ["Apple Inc. Ltd. Corp. Sr. Jr. approx. 5."])
    expectSentences(
      "On Jan. 5 and Feb. 6 we met.", ["On Jan. 5 and Feb. 6 we met."])
    expectSentences("(Dr. Who) came. Then.", ["(Dr. Who) came.", "Then."])
    expectSentences(
      "He has a Ph.D. In physics.", ["He has a Ph.D. In physics."])
  }

  @Test func capitalizedAbbreviationsMatchOnlyWhenCapitalized() {
    expectSentences("No. 5 is best.", ["No. 5 is best."])
    expectSentences("NO. 5 is best.", ["NO. 5 is best."])
    expectSentences("I said no. Then I left.", ["I said no.", "Then I left."])
    expectSentences("Go to the dr. Now.", ["Go to the dr.", "Now."])
    expectSentences("Cf. Smith. See.", ["Cf. Smith.", "See."])
  }

  @Test func initialsDoNotEndASentence() {
    expectSentences("J. Smith wrote it.", ["J. Smith wrote it."])
    expectSentences(
      "By J.R.R. Tolkien. Next.", ["By J.R.R. Tolkien.", "Next."])
    expectSentences("The U.S. Army won.", ["The U.S. Army won."])
    expectSentences("Fruit, e.g. apples.", ["Fruit, e.g. apples."])
    expectSentences("Cities, e.g. London.", ["Cities, e.g. London."])
    expectSentences("One, i.e. the first.", ["One, i.e. the first."])
    expectSentences("Spelled e. g. Rome.", ["Spelled e. g. Rome."])
  }

  @Test func etceteraEndsASentenceBeforeAnUppercaseWord() {
    expectSentences(
      "Cats, dogs, etc. The end.", ["Cats, dogs, etc.", "The end."])
    expectSentences(
      "Cats, dogs, etc. and more.", ["Cats, dogs, etc. and more."])
  }

  @Test func numbersWithAFullStop() {
    expectSentences(
      "It was in 2020. The year ended.", ["It was in 2020.", "The year ended."])
    expectSentences("See page 5. and on.", ["See page 5. and on."])
    expectSentences("1. Introduction", ["1. Introduction"])
    expectSentences("2.1. Methods", ["2.1. Methods"])
    expectSentences("IV. Results", ["IV. Results"])
    expectSentences(
      "See the list. 2. Second item. Third.",
      ["See the list.", "2. Second item.", "Third."])
    expectSentences("We counted 1. 2. Three.", ["We counted 1.", "2. Three."])
  }

  @Test func sentencesRunAcrossSingleLineBreaks() {
    expectSentences("The quick\nbrown fox.", ["The quick\nbrown fox."])
    expectSentences(
      "The lazy fox. The\nquick dog.", ["The lazy fox.", "The\nquick dog."])
    expectSentences("The end.\nNext line.", ["The end.", "Next line."])
    expectSentences("Mr.\nSmith came.", ["Mr.\nSmith came."])
  }

  @Test func aParagraphBreakAlwaysEndsASentence() {
    expectSentences("Heading\n\nBody text.", ["Heading", "Body text."])
    expectSentences("Mr.\n\nSmith", ["Mr.", "Smith"])
    expectSentences("one\n\ntwo\n\n\nthree\n", ["one", "two", "three"])
    expectSentences("blank line\n  \n\tindented", ["blank line", "indented"])
    expectSentences("Windows\r\n\r\nlines", ["Windows", "lines"])
    expectSentences("separator\u{2029}next", ["separator", "next"])
    #expect(SentenceSegmentation.sentenceStarts(in: "A\n\n  B") == [0, 5])
  }

  @Test func theFirstSentenceStartsAtZero() {
    #expect(
      SentenceSegmentation.sentenceStarts(in: "  Hello. World") == [0, 9])
    #expect(
      SentenceSegmentation.sentenceStarts(in: "\n\nTitle\n\nBody") == [0, 9])
    #expect(SentenceSegmentation.sentenceStarts(in: "\n\n1. Intro") == [0])
  }

  @Test func unicodeLettersDecideTheCase() {
    expectSentences(
      "Der Hund. Über den Berg.", ["Der Hund.", "Über den Berg."])
    expectSentences("Der Hund. über den Berg.", ["Der Hund. über den Berg."])
    expectSentences(
      "C’est l’été ! Très bien.", ["C’est l’été !", "Très bien."])
    expectSentences("Fin. 東京は大きい。", ["Fin.", "東京は大きい。"])
    expectSentences("यह है। वह है।", ["यह है।", "वह है।"])
    expectSentences("مرحبا؟ نعم.", ["مرحبا؟", "نعم."])
    expectSentences("Ende. Ǆemal", ["Ende.", "Ǆemal"])  // titlecase
  }

  @Test func ideographicTerminalsNeedNoSpace() {
    expectSentences("今日は晴れ。明日は雨。", ["今日は晴れ。", "明日は雨。"])
    expectSentences("「本当？」はい！次", ["「本当？」", "はい！", "次"])
    expectSentences("終わり。 Next", ["終わり。", "Next"])
    expectSentences("終わり。 next", ["終わり。", "next"])
  }

  @Test func offsetsCountUTF16CodeUnits() {
    #expect(
      SentenceSegmentation.sentenceStarts(in: "😀 Hi. 𝒜 is. Ok") == [0, 7, 14])
    #expect(
      SentenceSegmentation.sentenceStarts(in: "Cafe\u{301}. Yes") == [0, 7])
    expectSentences("Nice 😀. Next 👍🏽.", ["Nice 😀.", "Next 👍🏽."])
  }

  @Test func aLongPageIsSegmented() {
    let text = SamplePage.long.text
    #expect(text.utf16.count > 10_000)
    let starts = SentenceSegmentation.sentenceStarts(in: text)
    // Every paragraph starts a sentence.
    var paragraphStarts: [Int] = []
    var offset = 0
    var lineBreaks = 2
    for character in text {
      if character.isNewline {
        lineBreaks += 1
      } else if !character.isWhitespace {
        if lineBreaks >= 2 { paragraphStarts.append(offset) }
        lineBreaks = 0
      }
      offset += character.utf16.count
    }
    #expect(Set(paragraphStarts).isSubset(of: starts))
    #expect(starts.count > paragraphStarts.count)
  }

  @Test(arguments: SamplePage.allCases)
  func sentenceStartsAreOrderedAndAtNonWhitespace(page: SamplePage) {
    let text = page.text
    let starts = SentenceSegmentation.sentenceStarts(in: text)
    #expect(starts.first == 0)
    #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 })
    let characters = text.charactersByUTF16Offset
    var charactersByEnd: [Int: Character] = [:]
    for (offset, character) in characters {
      charactersByEnd[offset + character.utf16.count] = character
    }
    for start in starts.dropFirst() {
      // A start is on a character boundary, before a non-whitespace character
      // and after whitespace (or, in CJK text, after a terminal or a quote).
      #expect(characters[start].map { !$0.isWhitespace } == true, "at \(start)")
      let before = charactersByEnd[start]
      #expect(
        before.map { $0.isWhitespace || "。！？」".contains($0) } == true,
        "at \(start)")
    }
  }

  @Test func samplePagesSplitIntoTheExpectedSentences() {
    #expect(
      sentences(in: SamplePage.english.text) == [
        "The (quick) [brown] {fox} jumps!",
        """
        Over the $43,456.78 <lazy> #90 dog
        & duck/goose, as 12.5% of E-mail from spammer@example.com is spam.
        """,
        """
        Mr. J. R. Smith, Ph.D., met Dr. Jones at 10:30 a.m. on Jan. 5, i.e. on
        a Monday.
        """,
        "They talked about well-known e-mail tricks, U.S.A. law, etc.",
        "Then they left...",
        "\"Why?\" she asked.",
        "\"Because.\"",
        "He didn't know.",
        "1. Introduction",
        "See Fig. 3 and Eq. 4 (cf. Smith et al. 2020).",
        """
        The results-section is
        short—very short.
        """,
        """
        It's 3.14 times longer than the rock'n'roll one, approx.
        1,250 words.
        """,
        "Was it worth it?",
        "Yes!",
        "No. 5 was better; no.",
        "It wasn't.",
        "IV. Results and Discussion",
        "The end.",
      ])
    #expect(
      sentences(in: SamplePage.european.text) == [
        "Der „schnelle“ braune Fuchs springt über den faulen Hund.",
        "Größe und\nStraße sind Wörter, z.B. in Köln.",
        "Über Nacht änderte sich alles.",
        "Le renard brun «rapide» saute par-dessus le chien paresseux.",
        "C’est\nl’été !",
        "La volpe marrone rapida salta sopra il cane pigro.",
        "¿Qué tal?",
        "¡Muy bien!",
        "El zorro marrón rápido salta sobre el perro.",
        "A raposa marrom rápida salta sobre o cão preguiçoso.",
        "Ωμέγα και άλφα.",
      ])
    #expect(
      sentences(in: SamplePage.unicode.text) == [
        "Café and cafe\u{301} look alike.",
        "Naïve co\u{308}operation 👍🏽 works.",
        "Emoji 😀 are not words.",
        "𝒜lgebra uses 𝒜 signs.",
        "1️⃣ is a keycap.",
        "東京タワーは高い。",
        "大阪も大きい。",
        "「本当？」",
        "はい。",
        "यह एक वाक्य है।",
        "वह दूसरा है।",
        "مرحبا بالعالم؟",
        "نعم.",
      ])
  }
}
