import Testing

@testable import ScanModel

/// Running heads and feet are printed in the margins outside the text
/// block (issue 44 point 1, 2026-12-07): a short line in the top or
/// bottom band with text of the block beside it, starting higher or ending
/// lower, is part of the block, not its furniture.
@Suite("Running heads and feet lie outside the text block")
struct FurnitureRolesTests {
  typealias R = RoleDetectionTests

  /// A code listing starting in the page's top margin, and a stray sign
  /// and number read right of its third line as a paragraph of their own
  /// (docling redp5110 p16's ". 5"): no running head or page number (a
  /// note beside the text, here); the same at the foot beside a listing
  /// ending in the bottom margin: no running foot.
  @Test func aShortLineBesideTheTextBlockIsNoHeadOrFoot() throws {
    let listing = (0..<12).map { "WHEN GROUP_FOR_USER ( SESSION_USER , 'ADMIN' ) = \($0)" }
    let found = R.roles([
      R.paragraph(listing, x: 100, y: 60, size: 20),
      R.paragraph([". 5"], x: 720, y: 110, size: 14),
      R.paragraph(R.body, x: 100, y: 500, size: 20),
      R.paragraph(R.body, x: 100, y: 700, size: 20),
      R.paragraph(listing, x: 100, y: 1060, size: 20),
      R.paragraph([". 7"], x: 720, y: 1300, size: 14),
    ])
    let furniture: Set<ParagraphRole> = [.header, .footer, .pageNumber]
    let head = try #require(found[". 5"]?.0)
    let foot = try #require(found[". 7"]?.0)
    #expect(!furniture.contains(head), "\(found)")
    #expect(!furniture.contains(foot), "\(found)")
    // The listing's lines are no heading either.
    #expect(found.values.filter { $0.0 == .heading }.isEmpty, "\(found)")
  }

  /// The text block starting below the head and ending above the foot:
  /// the head and the foot are furniture, though a logo's lettering
  /// beside them stands taller in the band.
  @Test func aHeadAndAFootOutsideTheTextBlockAreFurniture() {
    let found = R.roles([
      R.paragraph(["THE HARBOUR BOOK"], x: 100, y: 60, size: 16),
      R.paragraph(["HARBOUR", "PRESS"], x: 760, y: 40, size: 24),
      R.paragraph(R.body, x: 100, y: 300, size: 20),
      R.paragraph(R.body, x: 100, y: 500, size: 20),
      R.paragraph(R.body, x: 100, y: 700, size: 20),
      R.paragraph(["Printed at the harbour, 1901."], x: 100, y: 1300, size: 16),
      R.paragraph(["HARBOUR", "PRESS"], x: 760, y: 1290, size: 24),
    ])
    #expect(found["THE HARBOUR BOOK"]?.0 == .header, "\(found)")
    #expect(found["Printed at the harbour, 1901."]?.0 == .footer, "\(found)")
  }
}
