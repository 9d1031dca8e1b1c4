import ScanImaging
import ScanModel
import Testing

/// ``ListMarkerInk``: a list marker OCR did not read, left of its line.
@Suite("List marker ink")
struct ListMarkerInkTests {
  static let paper: UInt8 = 240
  static let ink: UInt8 = 20

  /// A 200 × 60 page: a line of "text" (stems) from x = 100, y 20–40, and
  /// whatever `mark` draws to its left.
  static func page(paper: UInt8 = paper, _ mark: (Int, Int) -> UInt8?)
    -> InkFittingTests
    .PackedGray
  {
    var values = [UInt8](repeating: paper, count: 200 * 60)
    for y in 0..<60 {
      for x in 0..<200 {
        if let v = mark(x, y) { values[y * 200 + x] = v }
        if (20..<40).contains(y), x >= 100, x < 190, x % 8 < 3 { values[y * 200 + x] = ink }
      }
    }
    return InkFittingTests.PackedGray(width: 200, height: 60, values: values)
  }

  static let line = PixelRect(minX: 100, minY: 20, maxX: 190, maxY: 40)

  @Test func aBulletLeftOfTheLineIsFound() throws {
    let bullet = Self.page { x, y in (70..<78).contains(x) && (26..<34).contains(y) ? Self.ink : nil
    }
    let mark = try #require(ListMarkerInk.marker(leftOf: Self.line, in: bullet.view))
    #expect(mark == PixelRect(minX: 70, minY: 26, maxX: 78, maxY: 34))
  }

  @Test func anOpenCheckBoxIsFound() {
    let box = Self.page { x, y in
      guard (66..<84).contains(x), (21..<39).contains(y) else { return nil }
      return x == 66 || x == 83 || y == 21 || y == 38 ? Self.ink : nil
    }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: box.view) != nil)
  }

  @Test func aWhiteBoxOnTintedPaperIsFound() {
    // The legal-aid survey's check boxes: white squares on blue paper.
    let box = Self.page(paper: 212) { x, y in
      (66..<84).contains(x) && (21..<39).contains(y) ? 255 : nil
    }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: box.view) != nil)
  }

  @Test func blankPaperTwoGlyphsOrATallCapAreNoMarker() {
    let blank = Self.page { _, _ in nil }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: blank.view) == nil)
    // Two glyphs apart: the end of a word, not one marker.
    let two = Self.page { x, y in
      ((60..<66).contains(x) || (80..<86).contains(x)) && (24..<36).contains(y) ? Self.ink : nil
    }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: two.view) == nil)
    // A drop cap reaching down over two lines is taller than a marker.
    let cap = Self.page { x, y in (60..<90).contains(x) && (5..<58).contains(y) ? Self.ink : nil }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: cap.view) == nil)
    // Ink that runs on out of the strip: a word of the column to the left.
    let word = Self.page { x, y in (40..<80).contains(x) && (24..<36).contains(y) ? Self.ink : nil }
    #expect(ListMarkerInk.marker(leftOf: Self.line, in: word.view) == nil)
  }

  /// A line whose box runs past the image's right edge (a model's line,
  /// not the engine's) reads no pixel outside the image.
  @Test func aLinePastTheImagesEdgeHasNoMarker() {
    let blank = Self.page { _, _ in nil }
    let outside = PixelRect(minX: 250, minY: 20, maxX: 300, maxY: 40)
    #expect(ListMarkerInk.marker(leftOf: outside, in: blank.view) == nil)
  }
}
