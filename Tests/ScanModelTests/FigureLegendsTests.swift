import Testing

@testable import ScanModel

/// A picture's unnumbered legend (set right under or over it, within its
/// width) becomes its caption; running text and headings near a picture
/// keep their roles.
struct FigureLegendsTests {
  /// The roles of `paragraphs` (each its own block) with a figure at
  /// 100–500 × 100–600, by their first line's text.
  static func roles(_ paragraphs: [Paragraph]) -> [String: ParagraphRole] {
    let blocks = paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    let figure = Figure(bbox: PixelRect(minX: 100, minY: 100, maxX: 500, maxY: 600))
    var out: [String: ParagraphRole] = [:]
    for block in FigureLegends.marking(blocks, figures: [figure]) {
      for p in block.paragraphs {
        out[p.lines[0].words.map(\.text).joined(separator: " ")] = p.role
      }
    }
    return out
  }

  @Test func aLegendUnderAPictureIsItsCaption() {
    let legend = RoleDetectionTests.paragraph(["THEY TIP-TOED ALONG."], x: 200, y: 615, size: 14)
    let over = RoleDetectionTests.paragraph(["The old mill."], x: 220, y: 70, size: 14)
    let text = RoleDetectionTests.paragraph(
      Array(RoleDetectionTests.body.prefix(2)), x: 100, y: 660, size: 14)
    let roles = Self.roles([legend, over, text])
    #expect(roles["THEY TIP-TOED ALONG."] == .caption)
    #expect(roles["The old mill."] == .caption)
    // Running text under the legend: farther off and wider than the picture.
    #expect(roles[RoleDetectionTests.body[0]] == .body)
  }

  @Test func textBesideOrFarFromAPictureKeepsItsRole() {
    // Wider than the picture (running text under it).
    let wide = RoleDetectionTests.paragraph(
      [RoleDetectionTests.body[0]], x: 60, y: 610, size: 14)
    // Within its width but five lines below it.
    let far = RoleDetectionTests.paragraph(["A line far below."], x: 150, y: 680, size: 14)
    // A heading under a headpiece keeps its role.
    var heading = RoleDetectionTests.paragraph(["Vorrede"], x: 250, y: 60, size: 24)
    heading.role = .heading
    // Beside the picture (overlapping it down the page).
    let beside = RoleDetectionTests.paragraph(["Beside it."], x: 300, y: 590, size: 14)
    let roles = Self.roles([wide, far, heading, beside])
    #expect(roles[RoleDetectionTests.body[0]] == .body)
    #expect(roles["A line far below."] == .body)
    #expect(roles["Vorrede"] == .heading)
    #expect(roles["Beside it."] == .body)
  }
}
