import Foundation
import ScanImaging
import ScanModel
import Testing

/// The bow of a page's sides (``SideStraightness``) on gray pixels made
/// here: a plane's straight edges bow by a fraction of a pixel, a curled
/// edge by its sag; a side out of view is not measured.
@Suite("Page sides: straight or bowed")
struct SideStraightnessTests {
  /// A page (200) on a table (60), 300 × 400 pixels at (50, 40), its top
  /// and bottom edges sagging by `sag` pixels at their middle (a parabola
  /// through the corners), with a few lines of print.
  static func page(sag: Double, width: Int = 400, height: Int = 480) -> GrayPixels {
    var values = [UInt8](repeating: 60, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let t = (Double(x) - 50) / 300
        let drop = 4 * sag * t * (1 - t)
        let top = 40 + drop
        let bottom = 440 + drop
        let yc = Double(y) + 0.5
        let xc = Double(x) + 0.5
        if xc >= 50, xc < 350, yc >= top, yc < bottom { values[y * width + x] = 200 }
      }
    }
    for line in stride(from: 80, to: 400, by: 24) {
      for y in line..<(line + 3) {
        for x in stride(from: 80, to: 320, by: 3) { values[y * width + x] = 30 }
      }
    }
    return GrayPixels(width: width, height: height, values: values)
  }

  static let corners = [
    Point(x: 50, y: 40), Point(x: 350, y: 40), Point(x: 350, y: 440), Point(x: 50, y: 440),
  ]

  @Test func aFlatPagesSidesDoNotBow() throws {
    let bows = SideStraightness.bows(Self.corners, in: Self.page(sag: 0))
    #expect(bows.count == 4)
    for bow in bows {
      let bow = try #require(bow)
      #expect(bow < 0.3, "\(bow)")
    }
  }

  @Test func aCurledPagesTopAndBottomBowByTheirSag() throws {
    let bows = SideStraightness.bows(Self.corners, in: Self.page(sag: 6))
    // Top and bottom sag by 6 pixels; the sides across the curl stay
    // straight.
    for i in [0, 2] {
      let bow = try #require(bows[i])
      #expect(abs(bow - 6) <= 1, "side \(i): \(bow)")
    }
    for i in [1, 3] {
      let bow = try #require(bows[i])
      #expect(bow < 0.5, "side \(i): \(bow)")
    }
  }

  @Test func aSideOutOfViewIsNotMeasured() {
    // The image ends 2 pixels above the page's bottom edge.
    let image = Self.page(sag: 0, height: 438)
    let bows = SideStraightness.bows(Self.corners, in: image)
    #expect(bows[2] == nil, "\(String(describing: bows[2]))")
    #expect(bows[0] != nil)
  }
}
