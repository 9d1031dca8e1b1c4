import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The geometry repair on a curled page read as it is (no step acts): its
/// lines slope differently, and cutting them apart must not cut their
/// words to slivers (issue 29).
@Suite("Sloped lines: the repair keeps words whole")
struct SlopedLinesRepairTests {
  /// Develop seed `photo-1002` (`Tools/families/photo.py`): curled by 138
  /// px, in perspective, edges out of view, on a light table; no step acts
  /// and its lines, read as they are, slope by 2–6.5°. The repair cut them
  /// apart level, between their bounding boxes, and left "your" 11 of its
  /// 32 pixels (`[555, 218, 649, 229]` against the truth's `[555, 221, 645,
  /// 253]`): 78 of 111 truth words matched (word recall 0.7027, Tesseract's
  /// 0.8378). Cut in the longer line's frame where both lines lie, and at
  /// an angle to the other line, "your" keeps 22 pixels and 87 match.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func aCurledPageReadAsItIsKeepsItsWordsWhole() throws {
    let (path, truth) = try FamilyPage.make("photo", seed: 1002)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(page.preprocessing.isEmpty, "\(page.preprocessing)")
    #expect(page.verify().passed, "\(page.verify().violations.prefix(3))")
    let your = try #require(page.words.first { $0.text == "your" })
    #expect(your.bbox.height >= 32 / 2, "\"your\" \(your.bbox)")
    #expect(page.evaluate(against: truth).wordRecall >= 0.78)
  }
}
