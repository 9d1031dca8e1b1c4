import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The sample scans' ground truth follows the pixels: every truth word box
/// holds ink, and little ink lies outside all of them.
@Suite("Ground truth of the sample scans")
struct GroundTruthTests {
  /// Pages whose degradation deliberately puts ink (noise, specks, shadow,
  /// stamps, coloured paper dark in luminance, a table's rules) outside the
  /// text. `Tools/check-scans.py` checks the last three in the brightest
  /// channel and without the rules.
  static let noisy: Set<String> = [
    "noise-gaussian.png", "speckle.png", "uneven-light.png", "blur-jpeg.jpg",
    "color-stamp.png", "color-paper.jpg", "ruled-table.png",
  ]

  @Test("Truth boxes hold the ink", arguments: Fixtures.scanImages)
  func truthBoxesHoldTheInk(_ image: String) throws {
    let pixels = try GrayPixels.read(Fixtures.scans.appendingPathComponent(image).path)
    let truth = try Fixtures.truth(image)
    #expect(pixels.width == truth.width && pixels.height == truth.height)
    // Ink: clearly darker than the paper around it.
    let threshold: UInt8 = image == "low-contrast.png" ? 170 : 128
    var covered = [Bool](repeating: false, count: pixels.width * pixels.height)
    for word in truth.words {
      let b = word.bbox
      var ink = 0
      for y in max(0, b.minY)..<min(pixels.height, b.maxY) {
        for x in max(0, b.minX)..<min(pixels.width, b.maxX) {
          covered[y * pixels.width + x] = true
          if pixels[x, y] < threshold { ink += 1 }
        }
      }
      #expect(ink >= 10, "\(image): truth word \"\(word.text)\" \(b) holds \(ink) ink pixels")
    }
    guard !Self.noisy.contains(image) else { return }
    // On a photo, the table round the page is dark but not ink: only the
    // page counts, 9 pixels in from its edges (as `Tools/check-scans.py`).
    let onPage = try Self.pageTest(image)
    var inside = 0
    var outside = 0
    for (i, v) in pixels.values.enumerated() where v < threshold {
      guard onPage(Double(i % pixels.width) + 0.5, Double(i / pixels.width) + 0.5) else {
        continue
      }
      if covered[i] { inside += 1 } else { outside += 1 }
    }
    let share = Double(outside) / Double(max(1, inside + outside))
    #expect(
      share < 0.01, "\(image): \(outside) ink pixels (\(share * 100)%) lie outside every truth box")
  }

  /// Whether a point lies on the page: everywhere on a scan; on a photo,
  /// inside the page's corners (clockwise from the top-left), 9 pixels in.
  static func pageTest(_ image: String) throws -> (Double, Double) -> Bool {
    guard image.hasPrefix("photo-") else { return { _, _ in true } }
    let c = try PhotoPageTests.trueCorners(image)
    return { x, y in
      (0..<4).allSatisfy { i in
        let a = c[i]
        let b = c[(i + 1) % 4]
        let length = distance(a, b)
        // Clockwise on the screen: the page lies to the right of each edge.
        let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
        return cross / length >= 9
      }
    }
  }
}
