import Testing

@testable import ScanModel

@Suite("Find")
struct FindTests {
  func found(
    _ page: Page, _ query: String, _ options: FindOptions = []
  ) -> [String] {
    page.findRanges(query, options: options).map { page.text(in: $0) ?? "?" }
  }

  @Test func findsAcrossAHyphenBreakWithRects() throws {
    let page = PageFixtures.page([["Optical character recog-", "nition works."]])
    let matches = page.find("recognition")
    #expect(matches.map(\.range.offsets) == [18..<31])
    let m = try #require(matches.first)
    #expect(m.rects.map(\.lineNumber) == [0, 1])
    #expect(m.rects == page.selectionRects(for: m.range))
    // With the hyphen typed, and the parts on their own.
    #expect(page.findRanges("recog-nition").map(\.offsets) == [18..<31])
    #expect(page.findRanges("recog").map(\.offsets) == [18..<23])
    #expect(page.findRanges("recog-").map(\.offsets) == [18..<24])
    #expect(page.findRanges("nition").map(\.offsets) == [25..<31])
    #expect(found(page, "character recognition works") == ["character recog-\nnition works"])
    #expect(found(page, "recog nition").isEmpty)
  }

  @Test func aSpaceMatchesAnyWhitespaceRun() {
    let page = PageFixtures.page([["one two", "three"], ["four"]])
    #expect(found(page, "two three") == ["two\nthree"])
    #expect(found(page, "three four") == ["three\n\nfour"])
    #expect(found(page, "two  \t three") == ["two\nthree"])
    #expect(found(page, "twothree").isEmpty)
  }

  @Test func caseAndDiacritics() {
    let page = PageFixtures.page([["Straße café cafe\u{301} Menſchen Unmu\u{364}ndigkeit"]])
    #expect(found(page, "strasse").isEmpty)
    #expect(found(page, "STRASSE", .caseInsensitive) == ["Straße"])
    #expect(found(page, "straße", .caseInsensitive) == ["Straße"])
    // Canonically equivalent forms match each other.
    #expect(found(page, "café") == ["café", "cafe\u{301}"])
    #expect(found(page, "cafe").isEmpty)
    #expect(found(page, "cafe", .diacriticInsensitive) == ["café", "cafe\u{301}"])
    #expect(found(page, "CAFE", [.caseInsensitive, .diacriticInsensitive]).count == 2)
    #expect(found(page, "menschen", .caseInsensitive) == ["Menſchen"])
    #expect(found(page, "unmundigkeit", [.caseInsensitive, .diacriticInsensitive]).count == 1)
    #expect(found(page, "Unmu\u{364}ndigkeit") == ["Unmu\u{364}ndigkeit"])
  }

  @Test func neverSplitsAGraphemeCluster() {
    let page = PageFixtures.page([["cafe\u{301} 👍🏽 👍 a👨‍👩‍👧b"]])
    // "e" is the first scalar of "é" (decomposed): no match inside it.
    #expect(found(page, "cafe").isEmpty)
    #expect(found(page, "👍") == ["👍"])
    #expect(found(page, "👍🏽") == ["👍🏽"])
    #expect(found(page, "👨").isEmpty)
    #expect(found(page, "a👨‍👩‍👧b") == ["a👨‍👩‍👧b"])
    for r in page.findRanges("👍") + page.findRanges("e\u{301}") {
      #expect(
        page.rangeEnclosingPosition(r.lowerBound, with: .character, inDirection: .forward)?
          .lowerBound == r.lowerBound)
    }
  }

  @Test func matchesDoNotOverlapAndEmptyQueriesFindNothing() {
    let page = PageFixtures.page([["aaaa ‐x"]])
    #expect(page.findRanges("aa").map(\.offsets) == [0..<2, 2..<4])
    #expect(page.findRanges("").isEmpty)
    #expect(page.findRanges("\u{AD}").isEmpty)
    // U+2010 matches "-".
    #expect(found(page, "-x") == ["‐x"])
    #expect(PageFixtures.page([]).findRanges("a").isEmpty)
  }

  @Test func compoundBreaksMatchWithOrWithoutTheHyphen() {
    let page = PageFixtures.page([["send an e-", "mail now"]])
    #expect(found(page, "e-mail") == ["e-\nmail"])
    #expect(found(page, "email") == ["e-\nmail"])
    #expect(found(page, "an e-mail now") == ["an e-\nmail now"])
  }
}
