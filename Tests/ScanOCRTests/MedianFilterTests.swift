import CScanOCR
import Foundation
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The despeckling median (``Preprocessor/median3x3(_:)``) is Leptonica's
/// `pixMedianFilter(_, 3, 3)` made fast: it must give the same pixels, or
/// every reading of a speckled page would change.
@Suite("3×3 median filter")
struct MedianFilterTests {
  /// Whether two 8-bit images have the same size and pixels.
  static func samePixels(_ a: LeptonicaImage, _ b: LeptonicaImage) -> (Bool, String) {
    guard a.width == b.width, a.height == b.height else {
      return (false, "\(a.width)×\(a.height) against \(b.width)×\(b.height)")
    }
    var p: UInt32 = 0
    var q: UInt32 = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        _ = scantext_pixGetPixel(a.pix, Int32(x), Int32(y), &p)
        _ = scantext_pixGetPixel(b.pix, Int32(x), Int32(y), &q)
        if p != q { return (false, "pixel (\(x), \(y)): \(p) against \(q)") }
      }
    }
    return (true, "")
  }

  static func leptonicaMedian(_ image: LeptonicaImage) throws -> LeptonicaImage {
    LeptonicaImage(taking: try #require(scantext_pixMedianFilter(image.pix, 3, 3)))
  }

  /// A gray image of random pixels (fixed seed), with salt and pepper.
  static func noise(width: Int, height: Int, seed: UInt64) throws -> LeptonicaImage {
    let image = LeptonicaImage(
      taking: try #require(scantext_pixCreate(Int32(width), Int32(height), 8)))
    let words = Int(scantext_pixGetWpl(image.pix)) * height
    let data = try #require(scantext_pixGetData(image.pix))
    var state = seed
    for i in 0..<words {
      // xorshift64: reproducible, no Foundation randomness.
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      var word = UInt32(truncatingIfNeeded: state)
      if state % 7 == 0 { word |= 0xFF00_FF00 }  // some white
      if state % 11 == 0 { word &= 0x00FF_00FF }  // some black
      data[i] = word
    }
    return image
  }

  @Test(arguments: [(1, 1), (1, 7), (7, 1), (2, 2), (3, 5), (13, 9), (64, 3), (333, 121)])
  func randomImagesGiveLeptonicasPixels(size: (Int, Int)) throws {
    try OCRLibraries.load()
    let image = try Self.noise(width: size.0, height: size.1, seed: UInt64(size.0 * 1000 + size.1))
    let ours = try #require(Preprocessor.median3x3(image))
    let (same, why) = Self.samePixels(ours, try Self.leptonicaMedian(image))
    #expect(same, "\(size.0)×\(size.1): \(why)")
  }

  @Test func theSpeckledSamplePageGivesLeptonicasPixels() throws {
    try OCRLibraries.load()
    let path = Fixtures.scans.appendingPathComponent("speckle.png").path
    let original = try #require(
      try ImageReader.decodePages(ImageReader.readBytes(path), path: path, maxPixels: .max).first)
    let gray = try #require(Preprocessor.gray(original))
    let ours = try #require(Preprocessor.median3x3(gray))
    let (same, why) = Self.samePixels(ours, try Self.leptonicaMedian(gray))
    #expect(same, "\(why)")
    #expect(scantext_pixGetXRes(ours.pix) == scantext_pixGetXRes(gray.pix))
  }

  @Test func otherDepthsAreRefused() throws {
    try OCRLibraries.load()
    let binary = LeptonicaImage(taking: try #require(scantext_pixCreate(10, 10, 1)))
    #expect(Preprocessor.median3x3(binary) == nil)
  }
}
