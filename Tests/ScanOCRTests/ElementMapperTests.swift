import ScanImaging
import ScanModel
import Testing

@testable import ScanOCR

/// Tesseract's boxes mapped back into the original image's pixels.
@Suite("Mapping recognised boxes back to the original image")
struct ElementMapperTests {
  @Test func mappedBoxesHoldTheirCornersAndQuadsKeepReadingOrder() {
    let mapper = ElementMapper(
      map: PointMap(.projective(.undoQuarterTurns(1, width: 200, height: 100))), width: 200,
      height: 100)
    // A word box in the turned (100 × 200) image.
    let box = PixelRect(minX: 10, minY: 20, maxX: 50, maxY: 30)
    #expect(mapper.box(box) == PixelRect(minX: 20, minY: 50, maxX: 30, maxY: 90))
    let quad = mapper.quad(box)
    // The reading frame's top-left maps to the original's (x = 20, y = 90).
    #expect(quad?.topLeft == Point(x: 20, y: 90))
    #expect(quad?.topRight == Point(x: 20, y: 50))
  }
}
