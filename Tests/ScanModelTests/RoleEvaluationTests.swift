import ScanModel
import Testing

/// Heading precision and recall, level accuracy and role accuracy in `eval`.
struct RoleEvaluationTests {
  /// One paragraph per entry, one word each, stacked down the page.
  static func page(_ paragraphs: [(String, ParagraphRole, Int?)]) -> Page {
    let blocks = paragraphs.enumerated().map { i, p in
      let box = PixelRect(minX: 10, minY: 10 + i * 40, maxX: 200, maxY: 40 + i * 40)
      return Block(
        bbox: box,
        paragraphs: [
          Paragraph(
            bbox: box, lines: [TextLine(bbox: box, words: [Word(text: p.0, bbox: box)])],
            role: p.1, headingLevel: p.2)
        ])
    }
    return Page(width: 300, height: 40 * paragraphs.count + 20, blocks: blocks)
  }

  @Test func headingsAndRolesAreCountedByParagraph() {
    let truth = Self.page([
      ("Title", .heading, 1), ("Intro", .body, nil), ("Section", .heading, 2),
      ("Text", .body, nil), ("7", .pageNumber, nil),
    ])
    let ocr = Self.page([
      ("Title", .heading, 1),  // found, right level
      ("Intro", .heading, 2),  // a false heading
      ("Section", .heading, 1),  // found, wrong level
      ("Text", .body, nil),
      ("7", .body, nil),  // the page number missed
    ])
    let e = ocr.evaluate(against: truth)
    #expect(e.tally.truthHeadings == 2 && e.tally.foundHeadings == 2)
    #expect(e.tally.ocrHeadings == 3 && e.tally.correctHeadings == 2)
    #expect(e.value(of: .headingRecall) == 1)
    #expect(abs(e.value(of: .headingPrecision) - 2.0 / 3) < 1e-12)
    #expect(e.value(of: .headingLevelAccuracy) == 0.5)
    #expect(e.value(of: .roleAccuracy) == 3.0 / 5)
    #expect(abs(e.tally.headingF1 - 0.8) < 1e-12)
  }

  @Test func unmatchedWordsLeaveAHeadingUnfound() {
    let truth = Self.page([("Title", .heading, 1), ("Text", .body, nil)])
    let ocr = Self.page([("Tit1e", .heading, 1), ("Text", .body, nil)])
    let e = ocr.evaluate(against: truth)
    #expect(e.value(of: .headingRecall) == 0)
    #expect(e.value(of: .headingPrecision) == 0)
    #expect(e.value(of: .headingLevelAccuracy) == 1)  // none found: nothing to get wrong
    #expect(e.value(of: .roleAccuracy) == 1)  // only "Text" compared
  }

  @Test func pagesWithoutHeadingsScorePerfectly() {
    let truth = Self.page([("Text", .body, nil)])
    let e = truth.evaluate(against: truth)
    for metric in [EvaluationMetric.headingPrecision, .headingRecall, .headingLevelAccuracy] {
      #expect(e.value(of: metric) == 1)
    }
    let empty = Page(width: 10, height: 10, blocks: []).evaluate(
      against: Self.page([("H", .heading, 1)]))
    #expect(empty.value(of: .headingRecall) == 0)
  }
}
