import Foundation
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Every real scan and photo in `../shared/scans` keeps the geometry
/// contract: `verify` finds no violation, with default preprocessing and
/// with none.
@Suite("Real scans: verify passes")
struct RealScanVerifyTests {
  static let modes: [(String, Preprocessing)] = [("default", .default), ("none", [])]

  @Test(
    "Every real page passes verify, with and without preprocessing",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: RealScans.images)
  func verifyPasses(_ image: String) throws {
    for (name, preprocessing) in Self.modes {
      let pages = try RealScans.pages(image, preprocessing: preprocessing)
      #expect(!pages.isEmpty, "\(image) (\(name)): no page")
      for page in pages {
        let report = page.verify()
        #expect(
          report.passed,
          "\(image) (\(name) preprocessing): \(report.violations.count) violations, first: \(report.violations.prefix(3).map(\.description))"
        )
      }
    }
  }
}
