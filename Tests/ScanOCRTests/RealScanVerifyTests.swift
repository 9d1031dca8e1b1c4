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

/// No word read in the reader's layout starts or ends with a space
/// (``ScanModel/WordEnds``): Tesseract's LSTM reads a space glyph before
/// `derer`, `Gleidhivie:` and `Ote` on `fleming-jaeger-1719-0117.jpg`,
/// which put two spaces into the page's text where the page has one gap.
@Suite("Real scans: words without spaces at their ends")
struct RealScanWordEndsTests {
  @Test(
    "No word read by default has a space at its ends",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: RealScans.images)
  func noWordHasASpaceAtItsEnds(_ image: String) throws {
    for page in try RealScans.pages(image) {
      let words = page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
      let spaced = words.map(\.text).filter {
        $0.first?.isWhitespace == true || $0.last?.isWhitespace == true
      }
      #expect(spaced.isEmpty, "\(image): \(spaced)")
      #expect(!page.text.contains("  "), "\(image): two spaces in one gap")
    }
  }
}
