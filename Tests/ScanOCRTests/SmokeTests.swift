import Foundation
import ScanModel
import ScanOCR
import Testing

@Suite struct SmokeTests {
  @Test func phototest() throws {
    let engine = try OCREngine()
    let start = Date()
    let pages = try engine.recognize(contentsOf: "/work/shared/scans/tesseract-test/phototest.tif")
    print("time", Date().timeIntervalSince(start))
    print(pages[0].text)
    #expect(pages.count == 1)
  }
}
