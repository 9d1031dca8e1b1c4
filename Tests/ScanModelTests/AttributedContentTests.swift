import Testing

@testable import ScanModel

@Suite("Accessibility attributed content and language tags")
struct AttributedContentTests {
  let page = HeadingFixtures.archive

  /// Each run as (text, role, heading level, low confidence).
  private func described(_ content: AttributedContent?) -> [String] {
    guard let content else { return ["nil"] }
    return content.runs.map { run in
      let a = run.attributes
      var parts = [content.text(of: run).map { "\"\($0)\"" } ?? "?", a.role?.rawValue ?? "-"]
      if let level = a.headingLevel { parts.append("h\(level)") }
      if a.isLowConfidence { parts.append("low \(Int(a.confidence ?? -1))") }
      return parts.joined(separator: " ")
    }
  }

  @Test func headingLineIsOneRunWithItsLevelAndLanguage() throws {
    let content = try #require(page.attributedContent(forLineNumber: 0))
    #expect(content.text == "Notes from the Archive")
    #expect(content.range == page.line(number: 0)?.range)
    #expect(described(content) == ["\"Notes from the Archive\" heading h1"])
    #expect(content.runs.map(\.attributes.language) == ["en"])
    #expect(described(page.attributedContent(forLineNumber: 5)) == ["\"Units\" heading h3"])
    #expect(described(page.attributedContent(forLineNumber: 9)) == ["\"12\" pageNumber"])
    #expect(page.attributedContent(forLineNumber: page.lineCount) == nil)
    #expect(page.attributedContent(forLineNumber: -1) == nil)
  }

  @Test func lowConfidenceWordsAreRunsOfTheirOwn() throws {
    let line = try #require(page.attributedContent(forLineNumber: 2))
    #expect(line.text == "Each ledger is photographed")
    #expect(described(line) == ["\"Each ledger is \" body", "\"photographed\" body low 41"])
    #expect(line.runs.map { line.localOffsets(of: $0) } == [0..<15, 15..<27])
    // A word without a confidence ("lamps.") is never low.
    #expect(
      described(page.attributedContent(forLineNumber: 3))
        == ["\"under \" body", "\"two\" body low 12", "\" lamps.\" body"])
    // The threshold is strict and can be moved.
    #expect(
      described(page.attributedContent(forLineNumber: 2, lowConfidenceThreshold: 41))
        == ["\"Each ledger is photographed\" body"])
    #expect(
      described(page.attributedContent(forLineNumber: 3, lowConfidenceThreshold: 10))
        == ["\"under two lamps.\" body"])
    #expect(
      described(page.attributedContent(forLineNumber: 6, lowConfidenceThreshold: 95))
        == [
          "\"Some\" body low 90", "\" \" body", "\"numbers\" body low 90", "\" \" body",
          "\"are\" body low 90", "\" \" body", "\"precise.\" body low 90",
        ])
  }

  @Test func rangesAcrossLinesAndParagraphs() throws {
    let start = page.offset(of: "ledger")
    let end = page.offset(of: "two") + 3
    let within = page.attributedContent(in: page.range(start..<end))
    #expect(
      described(within) == [
        "\"ledger is \" body", "\"photographed\" body low 41", "\"\nunder \" body",
        "\"two\" body low 12",
      ])
    let across = page.attributedContent(
      in: page.range(page.offset(of: "Ledgers")..<(page.offset(of: "Each") + 4)))
    #expect(described(across) == ["\"Ledgers\" heading h2", "\"\n\n\" -", "\"Each\" body"])
    let empty = try #require(page.attributedContent(in: page.range(5..<5)))
    #expect(empty.text.isEmpty && empty.runs.isEmpty)
    #expect(page.attributedContent(in: page.range(0..<(page.endPosition.offset + 1))) == nil)
  }

  @Test func pageContentRunsCoverTheTextInReadingOrder() {
    let content = page.attributedPageContent()
    #expect(content.text == page.pageContent)
    #expect(content.range == page.documentRange)
    #expect(content.runs.map { content.text(of: $0) ?? "?" }.joined() == page.text)
    #expect(content.runs.first?.range.lowerBound == page.startPosition)
    #expect(content.runs.last?.range.upperBound == page.endPosition)
    for (a, b) in zip(content.runs, content.runs.dropFirst()) {
      #expect(a.range.upperBound == b.range.lowerBound)
      #expect(a.attributes != b.attributes)
    }
    let lines = described(content)
    // A two-line heading is one run, its line break included.
    #expect(lines.contains("\"Numbers and\nUnits\" heading h3"))
    #expect(lines.first == "\"Notes from the Archive\" heading h1")
    #expect(lines.last == "\"\n\" -")
    #expect(PageFixtures.page([]).attributedPageContent().runs.isEmpty)
  }

  /// Ranges all over the page, on one block and on a block per paragraph:
  /// the runs cover the range, differ from their neighbours, and each
  /// offset has the attributes of the paragraph and word that hold it.
  @Test(arguments: [false, true])
  func everyRangeHasTheAttributesOfItsOffsets(blockPerParagraph: Bool) throws {
    let page = HeadingFixtures.page(
      HeadingFixtures.paragraphs, language: "deu+eng",
      confidences: ["photographed": 41, "two": 12, "Units": 5, "12": nil],
      blockPerParagraph: blockPerParagraph)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    let words = Array(page.words)
    let expected = (0..<page.endPosition.offset).map { k -> AccessibilityTextAttributes in
      let p = paragraphs.first { $0.range.offsets.contains(k) }
      let w = words.first { $0.range.offsets.contains(k) }
      let low = w?.confidence.map { $0 < 60 } ?? false
      return AccessibilityTextAttributes(
        language: "de", role: p?.role, headingLevel: p?.headingLevel, isLowConfidence: low,
        confidence: low ? w?.confidence : nil)
    }
    let end = page.endPosition.offset
    // Plain comparisons in the loops (some 6,000 ranges); an issue names
    // the first offending range.
    var failures: [String] = []
    for s in 0...end {
      // Every range up to 32 units long (longer than any line), and every
      // range to the end of the page.
      for e in Array(s...min(end, s + 32)) + (s + 32 < end ? [end] : []) {
        let content = try #require(page.attributedContent(in: page.range(s..<e)))
        if content.text != page.text(in: page.range(s..<e)) {
          failures.append("text of \(s)..<\(e)")
        }
        var cursor = s
        var previous: AccessibilityTextAttributes?
        for run in content.runs {
          if run.range.lowerBound.offset != cursor || run.range.isEmpty
            || run.attributes == previous
          {
            failures.append("run \(run.range.offsets) of \(s)..<\(e)")
          }
          for k in run.range.offsets where run.attributes != expected[k] {
            failures.append("offset \(k) in \(s)..<\(e): \(run.attributes) != \(expected[k])")
          }
          previous = run.attributes
          cursor = run.range.upperBound.offset
        }
        if cursor != e { failures.append("runs of \(s)..<\(e) end at \(cursor)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func languageComesFromThePageAsBCP47() {
    func language(_ l: String?) -> String? {
      let page = HeadingFixtures.page([(.body, nil, ["Wort"])], language: l)
      return page.attributedContent(forLineNumber: 0)?.runs.first?.attributes.language
    }
    #expect(language("eng") == "en")
    #expect(language("deu") == "de")
    #expect(language("eng+deu") == "en")
    #expect(language("deu+eng") == "de")
    #expect(language(nil) == nil)
    #expect(language("osd") == nil)
    let page = HeadingFixtures.page([(.body, nil, ["Wort"])], language: "deu+eng+deu")
    #expect(page.languageTags == ["de", "en"])
    #expect(page.accessibilityLanguage == "de")
  }

  @Test func tesseractCodesMapToBCP47Tags() {
    let expected: [String: String?] = [
      "eng": "en", "deu": "de", "fra": "fr", "chi_sim": "zh-Hans", "chi_tra": "zh-Hant",
      "deu_latf": "de-Latf", "frk": "de-Latf", "srp_latn": "sr-Latn", "jpn_vert": "ja",
      "ger": "de", "DEU": "de", "en": "en", "ceb": "ceb", "grc": "grc", "osd": nil, "equ": nil,
      "": nil, "e1g": nil, "script/Latin": nil, "engl": nil,
    ]
    for (code, tag) in expected {
      #expect(LanguageTags.bcp47(forTesseractCode: code) == tag, "\(code)")
    }
    #expect(LanguageTags.bcp47Tags(forLanguages: "eng+deu") == ["en", "de"])
    #expect(LanguageTags.bcp47Tags(forLanguages: "eng+osd") == ["en"])
    #expect(LanguageTags.bcp47Tags(forLanguages: " eng + fra ") == ["en", "fr"])
    #expect(LanguageTags.bcp47Tags(forLanguages: "").isEmpty)
  }
}
