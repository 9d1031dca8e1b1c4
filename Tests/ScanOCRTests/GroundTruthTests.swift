import Foundation
import ScanFormats
import ScanImaging
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
  /// text. `Tools/check/check-scans.py` checks the last three in the brightest
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
    // page counts, 9 pixels in from its edges (as `Tools/check/check-scans.py`).
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
    let c = try Self.pageOutline(image)
    // A spread's fold is a shadow, not print (as `Tools/check/check-scans.py`).
    let fold = try Self.recordedPoints(image, "fold")
    return { x, y in
      if let fold, Self.encloses(fold, x, y) { return false }
      // Inside the outline, and 9 pixels or more from every edge.
      for i in c.indices {
        let a = c[i]
        let b = c[(i + 1) % c.count]
        let d = Point(x: b.x - a.x, y: b.y - a.y)
        let t = max(
          0, min(1, ((x - a.x) * d.x + (y - a.y) * d.y) / max(1e-9, d.x * d.x + d.y * d.y)))
        if distance(Point(x: x, y: y), Point(x: a.x + d.x * t, y: a.y + d.y * t)) < 9 {
          return false
        }
      }
      return Self.encloses(c, x, y)
    }
  }

  /// Whether a polygon encloses a point: an odd number of its edges cross
  /// the horizontal ray to the point's right.
  static func encloses(_ polygon: [Point], _ x: Double, _ y: Double) -> Bool {
    var inside = false
    for i in polygon.indices {
      let a = polygon[i]
      let b = polygon[(i + 1) % polygon.count]
      if (a.y > y) != (b.y > y), x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) {
        inside.toggle()
      }
    }
    return inside
  }

  /// The photographed page's edge in the photo, clockwise from the
  /// top-left: its recorded outline on a curled page (whose edges bend),
  /// else its four corners.
  static func pageOutline(_ image: String) throws -> [Point] {
    try recordedPoints(image, "outline") ?? PhotoPageTests.trueCorners(image)
  }

  /// Points the generator recorded for a photo (`generator.photo[key]`),
  /// or `nil` when it recorded none.
  static func recordedPoints(_ image: String, _ key: String) throws -> [Point]? {
    let url = Fixtures.scans.appendingPathComponent(Fixtures.stem(image) + ".truth.json")
    let truth = try JSONValue(parsing: String(contentsOf: url, encoding: .utf8))
    guard let points = truth["generator"]?["photo"]?[key]?.arrayValue else { return nil }
    return try points.map { value in
      let xy = (value.arrayValue ?? []).compactMap(\.doubleValue)
      try #require(xy.count == 2)
      return Point(x: xy[0], y: xy[1])
    }
  }
}
