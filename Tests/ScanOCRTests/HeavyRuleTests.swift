import CScanOCR
import ScanModel
import Testing

@testable import ScanOCR

/// A table's heavy rules (over and under its header row, 2 points: 8
/// pixels at 300 dpi) bound its cells, as its thin rules do, and stay on
/// the page.
struct HeavyRuleTests {
  /// A 1-bit page 1600 × 1100 with black rectangles.
  static func page(_ boxes: [PixelRect]) throws -> LeptonicaImage {
    try OCRLibraries.load()
    let image = LeptonicaImage(taking: try #require(scantext_pixCreate(1600, 1100, 1)))
    for b in boxes {
      var box = scantext_boxCreate(
        Int32(b.minX), Int32(b.minY), Int32(b.width), Int32(b.height))
      defer { scantext_boxDestroy(&box) }
      #expect(scantext_pixSetInRectArbitrary(image.pix, box, 1) == 0)
    }
    return image
  }

  /// Five column rules 4 px wide from y = 200 to 808; rules across at
  /// y = 200 and 300 (8 px, heavy) and 400–800 every 100 px (4 px); a
  /// solid bar 14 px thick under the table.
  static let heavy = [
    PixelRect(minX: 200, minY: 200, maxX: 1404, maxY: 208),
    PixelRect(minX: 200, minY: 300, maxX: 1404, maxY: 308),
  ]
  static var grid: [PixelRect] {
    let columns = [200, 500, 800, 1100, 1400].map {
      PixelRect(minX: $0, minY: 200, maxX: $0 + 4, maxY: 808)
    }
    let rows = [400, 500, 600, 700, 800].map {
      PixelRect(minX: 200, minY: $0, maxX: 1404, maxY: $0 + 4)
    }
    let bar = PixelRect(minX: 200, minY: 950, maxX: 1404, maxY: 964)
    return columns + rows + heavy + [bar]
  }

  @Test func heavyRulesOfAGridAreFoundAndNoSolidBar() throws {
    let ink = try Self.page(Self.grid)
    let found = try #require(Preprocessor.measureRules(binary: ink, resolution: 300))
    #expect(found.formGrid)
    #expect(found.heavyHorizontal == Self.heavy)
  }

  @Test func aHeaderRowBetweenHeavyRulesIsARowOfTheTable() throws {
    let ink = try Self.page(Self.grid)
    let found = try #require(Preprocessor.measureRules(binary: ink, resolution: 300))
    let gray = LeptonicaImage(taking: try #require(scantext_pixConvertTo8(ink.pix, 0)))
    let removed = try #require(Preprocessor.removeRules(gray, found, resolution: 300))
    let table = try #require(removed.grid.tables.first)
    // Six rows: the header row between the heavy rules, five below.
    #expect(table.rows == 6 && table.columns == 4)
    #expect(
      table.cells.filter { $0.position.row == 0 }.map(\.box.minY).allSatisfy { $0 >= 204 })
    // The heavy rules stay on the page: only the thin rules are removed.
    var value: UInt32 = 255
    #expect(scantext_pixGetPixel(removed.image.pix, 600, 204, &value) == 0)
    #expect(value == 0)
    #expect(scantext_pixGetPixel(removed.image.pix, 600, 402, &value) == 0)
    #expect(value == 255)
  }
}
