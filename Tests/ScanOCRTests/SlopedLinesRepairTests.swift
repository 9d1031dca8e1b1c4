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
  /// Develop seed `photo-1002` (`Tools/generate/families/photo.py`): curled by 138
  /// px, in perspective, edges out of view, on a light table; no step acts
  /// and its lines, read as they are, slope by 2–6.5°. The repair cut them
  /// apart level, between their bounding boxes or in one line's frame over
  /// the other's whole length, and cut words to slivers ("your" 11 of its
  /// truth's 32 pixels, "under" and "any" 6 and 4 of 28 and 29): 71 of the
  /// 84 words read right met their truth box, word recall 0.7027 against
  /// Tesseract's 0.8378. Now 82 do, none is under a third of its truth's
  /// height, and recall is 0.8198 (two words, "as" and "believed", still
  /// lose their tops to the line above).
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func aCurledPageReadAsItIsKeepsItsWordsWhole() throws {
    let (path, truth) = try FamilyPage.make("photo", seed: 1002)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(page.preprocessing.isEmpty, "\(page.preprocessing)")
    #expect(page.verify().passed, "\(page.verify().violations.prefix(3))")
    // Each truth word read with its text: the OCR word of that text over
    // it (overlapping it along the line, its middle within the truth's
    // height) that matches it best.
    let words = Array(page.words)
    var read = 0
    var matched = 0
    for t in truth.words {
      let candidates = words.filter { w in
        w.text == t.text && min(w.bbox.maxX, t.bbox.maxX) > max(w.bbox.minX, t.bbox.minX)
          && abs((w.bbox.minY + w.bbox.maxY) - (t.bbox.minY + t.bbox.maxY)) < 2 * t.bbox.height
      }
      guard
        let best = candidates.max(by: {
          $0.bbox.intersectionOverUnion(t.bbox) < $1.bbox.intersectionOverUnion(t.bbox)
        })
      else { continue }
      read += 1
      if best.bbox.intersectionOverUnion(t.bbox) >= 0.5 { matched += 1 }
      #expect(
        3 * best.bbox.height >= t.bbox.height, "\"\(t.text)\" \(best.bbox), truth \(t.bbox)")
    }
    #expect(read >= 80 && Double(matched) >= 0.95 * Double(read), "\(matched) of \(read)")
    #expect(page.evaluate(against: truth).wordRecall >= 0.81)
  }
}
