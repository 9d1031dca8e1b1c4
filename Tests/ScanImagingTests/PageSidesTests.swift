import Foundation
import ScanImaging
import ScanModel
import Testing

/// Pages found by their straight sides (``PageEdges``) on gray pixels made
/// here: a side against a facing page is found at its seam; a seam with
/// print beyond it, a printed frame, a slope of light and a rule are no
/// sides. (The photos are in ScanOCRTests' `PageEdgesTests`.)
@Suite("Page sides on gray pixels")
struct PageSidesTests {
  /// A small gray image: a table (60) above, to the right and below a
  /// page (200), its left side against a facing page (210) with a 2-pixel
  /// shadow (120) between them at x = 58.
  static func facingPage(inkBeyond: Bool) -> GrayPixels {
    let w = 400
    let h = 500
    var values = [UInt8](repeating: 60, count: w * h)
    for y in 40..<460 {
      for x in 0..<340 {
        values[y * w + x] = x < 58 ? 210 : x < 60 ? 120 : 200
      }
      // Print on the facing page: a dark mark every 12 rows.
      if inkBeyond && y % 12 < 3 {
        for x in 20..<30 { values[y * w + x] = 40 }
      }
    }
    // A few lines of print on the page.
    for line in stride(from: 80, to: 420, by: 30) {
      for y in line..<(line + 4) {
        for x in stride(from: 90, to: 300, by: 3) { values[y * w + x] = 30 }
      }
    }
    return GrayPixels(width: w, height: h, values: values)
  }

  @Test func aSideAgainstABlankFacingPageIsFoundAtItsSeam() throws {
    let outline = try #require(PageEdges.find(in: Self.facingPage(inkBeyond: false)))
    let expected = [
      Point(x: 60, y: 40), Point(x: 340, y: 40), Point(x: 340, y: 460), Point(x: 60, y: 460),
    ]
    for (found, true_) in zip(outline.corners, expected) {
      #expect(distance(found, true_) <= 2, "corner \(found) against \(true_)")
    }
  }

  /// A dark line with print beyond it may be a printed rule or a text's
  /// margin as well as a seam: not a side.
  @Test func aSeamWithPrintBeyondItIsNotASide() {
    #expect(PageEdges.find(in: Self.facingPage(inkBeyond: true)) == nil)
  }

  /// A scan with a thick printed frame round its text and a page number in
  /// the margin outside it: the frame's inner edge is a step, but paper
  /// lies beyond it, so it is no side and nothing is cut away.
  @Test func aThickPrintedFrameIsNoSide() {
    let w = 400
    let h = 500
    var values = [UInt8](repeating: 235, count: w * h)
    for y in 30..<470 {
      for x in 30..<370 where x < 45 || x >= 355 || y < 45 || y >= 455 {
        values[y * w + x] = 25
      }
    }
    // Text inside, a page number below the frame.
    for line in stride(from: 80, to: 420, by: 30) {
      for y in line..<(line + 4) {
        for x in stride(from: 90, to: 300, by: 3) { values[y * w + x] = 30 }
      }
    }
    for y in 480..<486 { for x in 195..<205 { values[y * w + x] = 30 } }
    #expect(PageEdges.find(in: GrayPixels(width: w, height: h, values: values)) == nil)
  }

  /// A page whose light falls off toward one edge (3 % a pixel) has no
  /// step there, and print or a thin rule is no step either.
  @Test func aSlopeOfLightOrARuleIsNoSide() {
    let w = 300
    let h = 400
    var values = [UInt8](repeating: 220, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        values[y * w + x] = UInt8(max(40, min(220, 40 + 6 * x)))
      }
      // A printed rule down the page and a text line's worth of ink.
      values[y * w + 150] = 20
      values[y * w + 151] = 20
    }
    for x in 20..<280 where x % 4 != 0 {
      for y in 200..<206 { values[y * w + x] = 30 }
    }
    #expect(PageEdges.find(in: GrayPixels(width: w, height: h, values: values)) == nil)
  }
}
