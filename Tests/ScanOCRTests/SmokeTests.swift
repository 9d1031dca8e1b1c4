import Foundation
import ScanModel
import ScanOCR
import Testing

@Suite struct SmokeTests {
  @Test(arguments: ["tesseract-test/phototest.tif", "tesseract-test/eurotext.tif", "ocrmypdf/linn.png", "ocrmypdf/skew-1.png"])
  func sample(_ name: String) throws {
    let engine = try OCREngine()
    let start = Date()
    let pages = try engine.recognize(contentsOf: "/work/shared/scans/" + name)
    let t = Date().timeIntervalSince(start)
    let report = pages[0].verify()
    print(name, "time", t, "lines", pages[0].lineCount, "checks", report.checks, "violations", report.violations.count)
    for v in report.violations.prefix(8) { print("  ", v) }
  }
}
