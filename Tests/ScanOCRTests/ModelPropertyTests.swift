import ScanModel
import ScanTestSupport
import Testing

/// Properties of the text model that must hold on every recognised sample scan.
@Suite("Model properties on the sample scans")
struct ModelPropertyTests {
  @Test(
    "The enclosing word of a position inside a word is that word (or its hyphenated whole)",
    arguments: Fixtures.scanImages)
  func enclosingWord(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    let units = Array(page.text.utf16)
    for word in page.words {
      for p in word.range.offsets {
        guard let scalar = Unicode.Scalar(units[p]),
          scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        else { continue }
        let r = try #require(
          page.rangeEnclosingPosition(TextPosition(offset: p), with: .word, inDirection: .forward),
          "\(image): no word at \(p) in \"\(word.text)\"")
        #expect(r.lowerBound.offset <= p && p < r.upperBound.offset)
        // Within the OCR word, unless it is a word hyphenated at a line end,
        // which holds both parts.
        let joined = page.hyphenBreaks.first { $0.word == r }
        #expect(
          (word.range.lowerBound <= r.lowerBound && r.upperBound <= word.range.upperBound)
            || joined != nil)
        // The same reader word from every position inside it.
        #expect(page.rangeEnclosingPosition(r.lowerBound, with: .word, inDirection: .forward) == r)
      }
    }
  }

  @Test(
    "Stepping to a boundary and back returns to the unit's start", arguments: Fixtures.scanImages)
  func steppingBack(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    for g in [TextGranularity.character, .word, .sentence, .line, .paragraph, .document] {
      var p = page.startPosition
      var steps = 0
      while let e = page.position(from: p, toBoundary: g, inDirection: .forward) {
        #expect(e > p, "\(image) \(g): no progress from \(p)")
        let unit = try #require(page.rangeEnclosingPosition(e, with: g, inDirection: .backward))
        #expect(unit.upperBound == e)
        #expect(page.position(from: e, toBoundary: g, inDirection: .backward) == unit.lowerBound)
        #expect(page.isPosition(e, atBoundary: g, inDirection: .forward))
        #expect(page.isPosition(unit.lowerBound, atBoundary: g, inDirection: .backward))
        p = e
        steps += 1
        if steps > 100_000 { break }
      }
      #expect(steps > 0)
    }
  }

  @Test("Consecutive ranges concatenate to the page text", arguments: Fixtures.scanImages)
  func consecutiveRanges(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    let n = page.endPosition.offset
    var joined = ""
    var s = 0
    var step = 1
    while s < n {
      let e = min(n, s + step)
      joined += page.text(in: TextRange(offsets: s..<e)) ?? "<nil>"
      s = e
      step = step % 13 + 1
    }
    #expect(joined == page.text)
  }

  @Test(
    "Each line's selection covers its words and stays clear of the next line",
    arguments: Fixtures.scanImages)
  func lineSelections(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    for n in 0..<page.lineCount {
      let line = try #require(page.line(number: n))
      let rects = page.selectionRects(for: line.range)
      #expect(rects.count == 1)
      #expect(page.content(forLineNumber: n) == line.text)
      // The first word's centre hits this line.
      if let first = line.words.first {
        #expect(
          page.lineNumber(at: first.corners.boundingRect.center) == n
            || page.word(at: first.corners.boundingRect.center) != nil)
      }
    }
  }
}
