import Testing

@testable import ScanModel

/// List items as lists are set (``RoleDetection/splittingListItems(_:listMarker:)``
/// and the list rule of ``RoleDetection``): markers read, misread or not
/// read at all, items read as one paragraph, nesting.
struct ListItemsTests {
  typealias R = RoleDetectionTests

  /// A line whose first word is followed by a gap of `gap` pixels (the
  /// other words a normal space apart).
  static func line(_ text: String, x: Int, y: Int, size: Int, gap: Int) -> TextLine {
    let plain = R.line(text, x: x, y: y, size: size)
    var words = plain.words
    let shift = gap - size / 2
    for i in words.indices.dropFirst() {
      words[i].bbox = PixelRect(
        minX: words[i].bbox.minX + shift, minY: words[i].bbox.minY,
        maxX: words[i].bbox.maxX + shift, maxY: words[i].bbox.maxY)
    }
    let box = words.dropFirst().reduce(words[0].bbox) { $0.union($1.bbox) }
    return TextLine(bbox: box, words: words)
  }

  static func paragraph(_ lines: [TextLine]) -> Paragraph {
    Paragraph(bbox: PixelRect.union(lines.map(\.bbox)) ?? lines[0].bbox, lines: lines)
  }

  /// The page's paragraphs (their text) and roles, after the list split
  /// and the roles, with `marked` lines showing a marker in the image.
  static func read(
    _ paragraphs: [Paragraph], marked: Set<Int> = [], width: Int = 1000, height: Int = 1400
  ) -> [(text: String, role: ParagraphRole, level: Int?)] {
    let blocks = paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let marker: (TextLine) -> Bool = { marked.contains($0.bbox.minY) }
    let split = RoleDetection.splittingListItems(blocks, listMarker: marker)
    let roles = RoleDetection.assigningRoles(
      to: split, pageWidth: width, pageHeight: height, orientation: 0, listMarker: marker)
    return roles.flatMap(\.paragraphs).map {
      (
        $0.lines.flatMap { $0.words.map(\.text) }.joined(separator: " "), $0.role,
        $0.listLevel
      )
    }
  }

  static let body = R.paragraph(R.body, x: 200, y: 200, size: 20)

  @Test func aBulletReadAsALetterBeforeATabIsAListItem() {
    let found = Self.read([
      Self.body,
      Self.paragraph([
        Self.line("e IBM introduced the tape in 1964", x: 200, y: 400, size: 20, gap: 24)
      ]),
      Self.paragraph([Self.line("» Wang followed with its own", x: 200, y: 440, size: 20, gap: 24)]
      ),
      // A word space after it: a one-letter word of the sentence.
      Self.paragraph([Self.line("y Luego vino el barco grande", x: 200, y: 520, size: 20, gap: 10)]
      ),
      Self.body.shifted(y: 400),
    ])
    #expect(found[1].role == .listItem)
    #expect(found[2].role == .listItem)
    #expect(found[3].role != .listItem)
  }

  @Test func itemsReadAsOneParagraphAreSplitAtEachNextMarker() {
    let items = Self.paragraph([
      R.line("1. Pack the ropes and the nets.", x: 200, y: 400, size: 20),
      R.line("2. Load the boat at the pier.", x: 200, y: 424, size: 20),
      R.line("3. Leave before the tide turns", x: 200, y: 448, size: 20),
      R.line("and wait at the harbour.", x: 230, y: 472, size: 20),
    ])
    let found = Self.read([Self.body, items, Self.body.shifted(y: 400)])
    #expect(
      found.map(\.text).dropFirst().prefix(3) == [
        "1. Pack the ropes and the nets.", "2. Load the boat at the pier.",
        "3. Leave before the tide turns and wait at the harbour.",
      ])
    #expect(found.dropFirst().prefix(3).allSatisfy { $0.role == .listItem })
  }

  @Test func aNumberThatDoesNotCountOnDoesNotSplit() {
    // "2010." at a line's start is a year, not the item after "1.".
    let item = Self.paragraph([
      R.line("1. The harbour was rebuilt in", x: 200, y: 400, size: 20),
      R.line("2010. It was opened in spring.", x: 200, y: 424, size: 20),
    ])
    let found = Self.read([Self.body, item, Self.body.shifted(y: 400)])
    #expect(found[1].text == "1. The harbour was rebuilt in 2010. It was opened in spring.")
    #expect(found[1].role == .listItem)
  }

  @Test func markersOnlyInTheImageMakeItemsAndSplitThem() {
    // Check boxes OCR dropped: the lines at y 400 and 424 show one, the
    // paragraph below the list does not.
    let boxes = Self.paragraph([
      R.line("Yes at the national level", x: 240, y: 400, size: 20),
      R.line("Yes at the regional level", x: 240, y: 424, size: 20),
    ])
    let found = Self.read([Self.body, boxes, Self.body.shifted(y: 400)], marked: [400, 424])
    #expect(
      found.map(\.text) == [
        R.body.joined(separator: " "), "Yes at the national level", "Yes at the regional level",
        R.body.joined(separator: " "),
      ])
    #expect(found[1].role == .listItem && found[2].role == .listItem)
    #expect(found[3].role == .body)
  }

  @Test func nestedItemsHaveTheirLevelsFromTheirIndents() {
    let found = Self.read([
      Self.body,
      R.paragraph(["• Ropes and nets"], x: 200, y: 400, size: 20),
      R.paragraph(["– the long ropes"], x: 240, y: 424, size: 20),
      R.paragraph(["– the short ropes"], x: 240, y: 448, size: 20),
      R.paragraph(["• Lanterns"], x: 200, y: 472, size: 20),
      Self.body.shifted(y: 400),
    ])
    #expect(found[1...4].map(\.role) == Array(repeating: .listItem, count: 4))
    #expect(found[1...4].map(\.level) == [1, 2, 2, 1])
    #expect(found[0].level == nil)
  }

  @Test func aNumberedSentenceIsAnItemEvenInLargerOrBoldType() {
    // The body is set at 20 px; the step at 26 px (a page whose running
    // text is a smaller code listing makes its prose look larger).
    let found = Self.read([
      Self.body,
      R.paragraph(
        ["1. Run the SQL statements that are shown in Example 3-10."], x: 200, y: 400, size: 26),
      R.paragraph(["2. The Harbour"], x: 200, y: 500, size: 26),
      Self.body.shifted(y: 400),
    ])
    #expect(found[1].role == .listItem)
    #expect(found[2].role == .heading)
  }
}

extension Paragraph {
  /// The paragraph moved down by `y` pixels.
  func shifted(y: Int) -> Paragraph {
    func move(_ r: PixelRect) -> PixelRect {
      PixelRect(minX: r.minX, minY: r.minY + y, maxX: r.maxX, maxY: r.maxY + y)
    }
    return Paragraph(
      bbox: move(bbox),
      lines: lines.map { line in
        TextLine(
          bbox: move(line.bbox),
          words: line.words.map { Word(text: $0.text, bbox: move($0.bbox)) })
      })
  }
}
