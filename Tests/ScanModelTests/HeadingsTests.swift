import Testing

@testable import ScanModel

/// Pages with paragraph roles, built on ``PageFixtures``.
enum HeadingFixtures {
  /// A page of `paragraphs` (role, heading level, lines), in one block, or
  /// one block per paragraph; words in `confidences` get that confidence
  /// (the others 90), and lines listed in `quads` get a quad.
  static func page(
    _ paragraphs: [(ParagraphRole, Int?, [String])], language: String? = "eng",
    confidences: [String: Double?] = [:], blockPerParagraph: Bool = false,
    tilted: Bool = false
  ) -> Page {
    let base = PageFixtures.page(paragraphs.map(\.2))
    var built: [Paragraph] = []
    for (k, var paragraph) in (base.blocks.first?.paragraphs ?? []).enumerated() {
      paragraph.role = paragraphs[k].0
      paragraph.headingLevel = paragraphs[k].1
      for l in paragraph.lines.indices {
        for w in paragraph.lines[l].words.indices {
          if let c = confidences[paragraph.lines[l].words[w].text] {
            paragraph.lines[l].words[w].confidence = c
          }
        }
        if tilted {
          // A line turned a little: its outline is a sloped quad.
          let r = paragraph.lines[l].bbox.rect
          paragraph.lines[l].quad = Quad(
            topLeft: Point(x: r.minX, y: r.minY + 4), topRight: Point(x: r.maxX, y: r.minY - 4),
            bottomRight: Point(x: r.maxX, y: r.maxY - 4),
            bottomLeft: Point(x: r.minX, y: r.maxY + 4)
          )
        }
      }
      built.append(paragraph)
    }
    let blocks =
      blockPerParagraph
      ? built.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
      : base.blocks.map { Block(bbox: $0.bbox, paragraphs: built) }
    return Page(width: 1000, height: 1000, dpi: 300, language: language, blocks: blocks)
  }

  /// Headings of levels 1 to 4 (one skipped, one of two lines) among body
  /// text, and a page number.
  static let paragraphs: [(ParagraphRole, Int?, [String])] = [
    (.heading, 1, ["Notes from the Archive"]),
    (.heading, 2, ["Scanning the Ledgers"]),
    (.body, nil, ["Each ledger is photographed", "under two lamps."]),
    (.heading, 3, ["Numbers and", "Units"]),
    (.body, nil, ["Some numbers are precise."]),
    (.heading, 2, ["Closing Remarks"]),
    (.heading, 4, ["A Footnote on Ink"]),
    (.pageNumber, nil, ["12"]),
  ]

  static let archive = page(
    paragraphs, confidences: ["photographed": 41, "two": 12, "lamps.": nil])
}

@Suite("Headings, outline and the headings rotor")
struct HeadingsTests {
  let page = HeadingFixtures.archive

  @Test func headingsListTextLevelRangeAndLines() throws {
    let headings = page.headings
    #expect(
      headings.map(\.text) == [
        "Notes from the Archive", "Scanning the Ledgers", "Numbers and Units", "Closing Remarks",
        "A Footnote on Ink",
      ])
    #expect(headings.map(\.level) == [1, 2, 3, 2, 4])
    #expect(
      headings.map { page.text(in: $0.range) } == [
        "Notes from the Archive", "Scanning the Ledgers", "Numbers and\nUnits", "Closing Remarks",
        "A Footnote on Ink",
      ])
    #expect(headings.map(\.lineNumbers) == [0..<1, 1..<2, 4..<6, 7..<8, 8..<9])
    let two = headings[2]
    #expect(two.range.lowerBound.offset == page.offset(of: "Numbers"))
    #expect(two.quads == [page.quad(forLineNumber: 4), page.quad(forLineNumber: 5)])
    let first = try #require(page.frame(forLineNumber: 4))
    let second = try #require(page.frame(forLineNumber: 5))
    #expect(two.frame.minY == first.minY && two.frame.maxY == second.maxY)
    #expect(two.frame.maxX == max(first.maxX, second.maxX))
  }

  @Test func lineRolesAndLevels() {
    #expect(
      (0..<page.lineCount).map { page.role(forLineNumber: $0) } == [
        .heading, .heading, .body, .body, .heading, .heading, .body, .heading, .heading,
        .pageNumber,
      ])
    #expect(
      (0..<page.lineCount).map { page.headingLevel(forLineNumber: $0) } == [
        1, 2, nil, nil, 3, 3, nil, 2, 4, nil,
      ])
    #expect(page.role(forLineNumber: page.lineCount) == nil)
    #expect(page.role(forLineNumber: -1) == nil)
    #expect(page.headingLevel(forLineNumber: 99) == nil)
  }

  @Test func outlineNestsByLevel() {
    let outline = page.outline
    #expect(outline.map(\.heading.text) == ["Notes from the Archive"])
    let top = outline[0].children
    #expect(top.map(\.heading.text) == ["Scanning the Ledgers", "Closing Remarks"])
    #expect(top[0].children.map(\.heading.text) == ["Numbers and Units"])
    #expect(top[0].children[0].children.isEmpty)
    // Level 4 right under level 2: the skipped level nests as one step.
    #expect(top[1].children.map(\.heading.text) == ["A Footnote on Ink"])
  }

  @Test func outlineTreeOfUnusualLevelOrders() {
    func h(_ text: String, _ level: Int) -> Heading {
      Heading(
        text: text, level: level, range: TextRange(offsets: 0..<0), lineNumbers: 0..<0, quads: [],
        frame: Rect(minX: 0, minY: 0, maxX: 0, maxY: 0))
    }
    func shape(_ nodes: [OutlineNode]) -> String {
      nodes.map { n in
        n.children.isEmpty ? n.heading.text : "\(n.heading.text)(\(shape(n.children)))"
      }.joined(separator: " ")
    }
    #expect(OutlineNode.tree([]).isEmpty)
    // A page that starts below its top level: each is at the top.
    #expect(shape(OutlineNode.tree([h("a", 2), h("b", 1), h("c", 2)])) == "a b(c)")
    #expect(shape(OutlineNode.tree([h("a", 3), h("b", 3), h("c", 3)])) == "a b c")
    #expect(shape(OutlineNode.tree([h("a", 1), h("b", 2), h("c", 3), h("d", 1)])) == "a(b(c)) d")
    #expect(shape(OutlineNode.tree([h("a", 1), h("b", 3), h("c", 2)])) == "a(b c)")
  }

  @Test func rotorStepsThroughHeadingsBothWays() {
    var texts: [String] = []
    var p = page.startPosition
    while let h = page.nextHeading(after: p) {
      texts.append(h.text)
      p = h.range.upperBound
    }
    #expect(texts == page.headings.map(\.text))
    texts = []
    p = page.endPosition
    while let h = page.previousHeading(before: p) {
      texts.append(h.text)
      p = h.range.lowerBound
    }
    #expect(texts == page.headings.reversed().map(\.text))
    // From inside a heading, next skips it and previous goes before it.
    let inside = page.pos(page.offset(of: "Units"))
    #expect(page.nextHeading(after: inside)?.text == "Closing Remarks")
    #expect(page.previousHeading(before: inside)?.text == "Scanning the Ledgers")
    #expect(page.nextHeading(after: page.pos(page.offset(of: "12"))) == nil)
    #expect(page.previousHeading(before: page.startPosition) == nil)
    #expect(page.nextHeading(after: page.pos(-1)) == nil)
    #expect(page.previousHeading(before: page.pos(page.endPosition.offset + 1)) == nil)
  }

  /// The rotor against its definition, at every position, on a page of one
  /// block and on one of a block per paragraph.
  @Test(arguments: [false, true])
  func rotorMatchesTheHeadingsListEverywhere(blockPerParagraph: Bool) {
    let page = HeadingFixtures.page(
      HeadingFixtures.paragraphs, blockPerParagraph: blockPerParagraph)
    let headings = page.headings
    #expect(headings.count == 5)
    for offset in 0...page.endPosition.offset {
      let p = page.pos(offset)
      #expect(
        page.nextHeading(after: p) == headings.first { $0.range.lowerBound >= p },
        "next at \(offset)")
      #expect(
        page.previousHeading(before: p) == headings.last { $0.range.upperBound <= p },
        "previous at \(offset)")
    }
  }

  @Test func pagesWithoutHeadings() {
    let plain = PageFixtures.sample
    #expect(plain.headings.isEmpty)
    #expect(plain.outline.isEmpty)
    #expect(plain.nextHeading(after: plain.startPosition) == nil)
    #expect(plain.previousHeading(before: plain.endPosition) == nil)
    let empty = PageFixtures.page([])
    #expect(empty.headings.isEmpty)
    #expect(empty.nextHeading(after: empty.startPosition) == nil)
    #expect(empty.previousHeading(before: empty.startPosition) == nil)
    #expect(empty.role(forLineNumber: 0) == nil)
  }

  @Test func headingOutlinesFollowTiltedLines() throws {
    let page = HeadingFixtures.page(HeadingFixtures.paragraphs, tilted: true)
    let heading = try #require(page.headings.first)
    let quad = try #require(page.quad(forLineNumber: 0))
    #expect(heading.quads == [quad])
    // Not upright: the path is the tilted outline, the frame its bounds.
    #expect(quad.topLeft.y != quad.topRight.y)
    #expect(heading.frame == quad.boundingRect)
    #expect(page.frame(forLineNumber: 0) == quad.boundingRect)
  }
}
