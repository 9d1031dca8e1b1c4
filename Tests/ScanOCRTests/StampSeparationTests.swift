import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Issue 48 point 2 on the `stamp` family: a rubber stamp pressed lightly
/// over black text on tinted paper (JPEG) is separated by colour, and the
/// words under it are read from the neutral layer; against the same page
/// read without the colour step (`--no-colour`), which loses them.
@Suite("Text under a stamp")
struct StampSeparationTests {
  /// The words of the truth whose boxes lie in a stamp's box, and the
  /// share of them that the reading has at the same place (a word of the
  /// same text whose box overlaps).
  static func readUnderStamps(_ page: Page, truth: Page, stamps: [PixelRect]) -> (Int, Double) {
    let truthWords = truth.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
    let under = truthWords.filter { w in stamps.contains { $0.intersection(w.bbox) != nil } }
    let read = page.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
    func bare(_ s: String) -> String { s.filter { $0.isLetter || $0.isNumber } }
    let found = under.filter { w in
      read.contains { $0.bbox.intersection(w.bbox) != nil && bare($0.text) == bare(w.text) }
    }
    return (under.count, under.isEmpty ? 1 : Double(found.count) / Double(under.count))
  }

  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func theWordsUnderAStampAreRead() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    let seed = 1002
    let (status, output) = try ExternalCheckers.run(
      python, [generator, "stamp", "--seeds", String(seed), "--out", folder.path])
    try #require(status == 0, "make-family failed: \(output)")
    let stem = folder.appendingPathComponent("stamp-\(seed)").path
    let json = try String(contentsOfFile: stem + ".truth.json", encoding: .utf8)
    let truth = try #require(try DocumentJSON.decode(json).pages.first)
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let generatorInfo = try #require(object?["generator"] as? [String: Any])
    let boxes = try #require(generatorInfo["stampBoxes"] as? [[Int]])
    let stamps = boxes.map { PixelRect(minX: $0[0], minY: $0[1], maxX: $0[2], maxY: $0[3]) }

    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: stem + ".jpg").first)
    let plain = try #require(
      try OCREngine(
        options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting([.colour]))
      ).recognize(contentsOf: stem + ".jpg").first)
    #expect(page.preprocessing.contains("colour: saturated colour suppressed"))
    let (count, with) = Self.readUnderStamps(page, truth: truth, stamps: stamps)
    let (_, without) = Self.readUnderStamps(plain, truth: truth, stamps: stamps)
    #expect(count >= 20, "\(count) words under the stamps")
    #expect(with >= 0.9, "read under the stamps: \(with), without the step \(without)")
    #expect(with > without, "\(with) \(without)")
    let evaluation = page.evaluate(against: truth)
    let plainEvaluation = plain.evaluate(against: truth)
    #expect(evaluation.cer < plainEvaluation.cer, "\(evaluation.cer) \(plainEvaluation.cer)")
  }

  /// A colour page without a stamp reads as before: black text on cream,
  /// mottled paper with its first lines printed in blue (coloured print
  /// standing alone is text). Its colours hold saturated ink (the blue),
  /// but none of it over the print, so the page is read in luminance.
  @Test func aTintedPageWithColouredPrintIsReadAsBefore() throws {
    try OCRLibraries.load()
    let gray = try GrayPixels.read(Fixtures.scans.appendingPathComponent("clean.png").path)
    let truth = try Fixtures.truth("clean.png")
    let blue = truth.lines.prefix(4).map(\.bbox)
    let pix = try #require(scantext_pixCreate(Int32(gray.width), Int32(gray.height), 32))
    let image = LeptonicaImage(taking: pix)
    let data = try #require(scantext_pixGetData(pix))
    let words = Int(scantext_pixGetWpl(pix))
    for y in 0..<gray.height {
      for x in 0..<gray.width {
        let v = Double(gray[x, y]) / 255
        let mottle = Double((x / 40 + y / 40) % 5) - 2
        let inBlue = blue.contains {
          $0.minX <= x && x < $0.maxX && $0.minY - 6 <= y && y < $0.maxY + 6
        }
        let ink: (Double, Double, Double) = inBlue ? (40, 60, 170) : (30, 30, 30)
        func channel(_ paper: Double, _ ink: Double) -> UInt32 {
          UInt32(max(0, min(255, (ink + (paper + mottle - ink) * v).rounded())))
        }
        data[y * words + x] =
          channel(240, ink.0) << 24 | channel(232, ink.1) << 16 | channel(210, ink.2) << 8
      }
    }
    scantext_pixSetResolution(pix, 300, 300)
    let separation = try #require(Preprocessor.measureColour(image)?.separation)
    #expect(separation.holdsSaturatedInk, "the blue print counts: \(separation.share)")
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("blue-lines.png").path
    #expect(scantext_pixWrite(path, image.pix, Int32(IFF_PNG)) == 0)
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let plain = try #require(
      try OCREngine(
        options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting([.colour]))
      ).recognize(contentsOf: path).first)
    #expect(!page.preprocessing.contains { $0.hasPrefix("colour") }, "\(page.preprocessing)")
    #expect(page.text == plain.text)
    #expect(page.evaluate(against: truth).wordRecall >= 0.99)
  }
}
