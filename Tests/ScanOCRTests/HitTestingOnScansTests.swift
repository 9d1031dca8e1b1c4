import ScanModel
import ScanTestSupport
import Testing

/// Hit testing on recognised sample pages, at the points where it once
/// went wrong.
@Suite("Hit testing on the sample scans")
struct HitTestingOnScansTests {
  /// The distance from `point` to line `n`'s selection band.
  static func distance(_ page: Page, _ n: Int, _ point: Point) -> Double {
    guard
      let rect = page.selectionRects(for: page.line(number: n)?.range ?? page.documentRange)
        .first
    else { return .infinity }
    return rect.bounds.distance(to: point)
  }

  @Test(
    "A tap lands on the nearest line, not on a line level with it in another column",
    arguments: [
      ("two-columns.png", Point(x: 140, y: 740)),
      ("three-columns.png", Point(x: 600, y: 207)),
      ("three-columns.png", Point(x: 700, y: 210)),
    ])
  func nearestLine(_ image: String, _ point: Point) throws {
    let page = try RecognizedScans.page(image)
    let chosen = try #require(page.nearestLineNumber(to: point))
    let best = (0..<page.lineCount).map { Self.distance(page, $0, point) }.min() ?? 0
    #expect(
      abs(Self.distance(page, chosen, point) - best) < 1e-6,
      "\(image) \(point): line \(chosen) at \(Self.distance(page, chosen, point)) px, nearest at \(best) px"
    )
    let position = page.closestPosition(to: point)
    #expect(page.caretRect(for: position)?.lineNumber == chosen)
  }

  @Test func aTapBelowTheTextIsTheEndOfTheText() throws {
    let page = try RecognizedScans.page("clean.png")
    #expect(page.closestPosition(to: Point(x: 1270, y: 1640)) == page.endPosition)
  }
}
