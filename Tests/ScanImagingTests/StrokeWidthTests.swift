import ScanImaging
import ScanModel
import Testing

/// ``StrokeWidth``: the mean stroke width of the ink in a box.
@Suite("Stroke width")
struct StrokeWidthTests {
  /// Three vertical stems and a bar across them, `stem` pixels thick.
  static func letter(stem: Int) -> InkFittingTests.PackedGray {
    InkFittingTests.image { x, y in
      guard (8..<32).contains(y), (10..<50).contains(x) else { return nil }
      let inStem = [10, 25, 40].contains { (($0)..<($0 + stem)).contains(x) }
      let inBar = (18..<(18 + stem)).contains(y)
      return inStem || inBar ? InkFittingTests.ink : nil
    }
  }

  @Test func boldStemsMeasureThickerThanRegularOnes() throws {
    let box = PixelRect(minX: 5, minY: 5, maxX: 55, maxY: 35)
    let regular = Self.letter(stem: 3)
    let bold = Self.letter(stem: 5)
    let thin = try #require(StrokeWidth.of(box, in: regular.view))
    let thick = try #require(StrokeWidth.of(box, in: bold.view))
    #expect(abs(thin - 3) < 0.5, "\(thin)")
    #expect(abs(thick - 5) < 0.8, "\(thick)")
  }

  @Test func aBoxWithoutInkOrOutsideTheImageHasNoStrokes() {
    let page = Self.letter(stem: 3)
    #expect(StrokeWidth.of(PixelRect(minX: 0, minY: 0, maxX: 8, maxY: 5), in: page.view) == nil)
    #expect(StrokeWidth.of(PixelRect(minX: 70, minY: 50, maxX: 90, maxY: 60), in: page.view) == nil)
  }
}
