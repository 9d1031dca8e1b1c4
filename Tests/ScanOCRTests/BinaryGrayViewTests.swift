import CScanOCR
import Foundation
import ScanImaging
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Stroke widths, list markers, ink fitting and figure finding read a
/// 1-bit page's pixels where they are (issue 47: its 8-bit gray copy was
/// 8.4 MB on a 300 dpi page); they must read the values the copy held, or
/// every black-and-white page's roles and figures would change.
@Suite("1-bit pages read in place")
struct BinaryGrayViewTests {
  /// Whether `view` reads every pixel of `image` as its 8-bit copy
  /// (`pixConvertTo8`) does, without colour.
  static func readsAsGrayCopy(_ image: LeptonicaImage) throws -> Bool {
    let view = try #require(GrayView(image))
    #expect(view.isBinary)
    let gray = LeptonicaImage(taking: try #require(scantext_pixConvertTo8(image.pix, 0)))
    let copy = try #require(GrayView(gray))
    for y in 0..<image.height {
      for x in 0..<image.width where view.value(x, y) != copy.value(x, y) {
        Issue.record("pixel (\(x), \(y)): \(view.value(x, y)) against \(copy.value(x, y))")
        return false
      }
    }
    return view.colour(0, 0) == nil
  }

  @Test func aPatternAcrossWordEdgesReadsAsItsGrayCopy() throws {
    try OCRLibraries.load()
    // 70 px wide: rows span three 32-bit words, the last one partly.
    let pix = try #require(scantext_pixCreate(70, 9, 1))
    for y in 0..<9 {
      for x in 0..<70 where (x * 7 + y * 3) % 5 < 2 || x == 31 || x == 32 || x == 69 {
        _ = scantext_pixSetPixel(pix, Int32(x), Int32(y), 1)
      }
    }
    #expect(try Self.readsAsGrayCopy(LeptonicaImage(taking: pix)))
  }

  @Test(
    "a real black-and-white page reads as its gray copy",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func realPage() throws {
    let folder = try #require(RealScans.folder)
    let path = folder.appendingPathComponent("tesseract-test/eurotext.tif").path
    let data = try ImageReader.readBytes(path)
    let page = try #require(try ImageReader.decodePages(data, path: path, maxPixels: .max).first)
    #expect(scantext_pixGetDepth(page.pix) == 1)
    #expect(try Self.readsAsGrayCopy(page))
  }
}
