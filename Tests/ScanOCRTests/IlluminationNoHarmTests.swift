import CScanOCR
import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The illumination step's contrast stretch acts only on a page whose ink
/// is not dark (issue 29: no harm on pages nobody tuned for).
@Suite("Illumination: no harm")
struct IlluminationNoHarmTests {
  /// A page of white paper with a grain (one pixel in 40 darker by up to
  /// 47 levels) and `inkShare` of its area black ink, or, with `ink`, the
  /// whole text block in that gray.
  static func page(inkShare: Double, ink: UInt32 = 0, paper: UInt32 = 255) throws
    -> LeptonicaImage
  {
    try OCRLibraries.load()
    let (width, height) = (800, 1000)
    let image = LeptonicaImage(
      taking: try #require(scantext_pixCreate(Int32(width), Int32(height), 8)))
    var state: UInt32 = 12345
    let inkRows = Int(Double(height) * inkShare)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_664_525 &+ 1_013_904_223
        let grain = state >> 24
        var value = grain < 7 ? paper - min(paper, 20 + grain * 4) : paper
        if y >= 100, y < 100 + inkRows { value = ink }
        scantext_pixSetPixel(image.pix, Int32(x), Int32(y), value)
      }
    }
    return image
  }

  /// Black ink on 0.3 % of a grainy white page is full contrast: its 1st
  /// percentile is the paper's grain, its darkest thousandth the ink.
  @Test func littleBlackInkOnGrainyPaperIsNotStretched() throws {
    let measured = try #require(Preprocessor.measureIllumination(try Self.page(inkShare: 0.003)))
    #expect(measured.decision == nil, "range \(measured.range.map(String.init) ?? "nil")")
  }

  /// Gray ink on gray paper (a faded page) is still stretched, however
  /// much of it there is.
  @Test func grayInkOnGrayPaperIsStretched() throws {
    for share in [0.003, 0.05] {
      let page = try Self.page(inkShare: share, ink: 135, paper: 200)
      let measured = try #require(Preprocessor.measureIllumination(page))
      #expect(measured.decision == .contrastStretched, "ink share \(share)")
    }
  }

  /// A small table alone on a letter page (develop seed `tables-1084`,
  /// `Tools/generate/families/tables.py`): black ink on 0.29 % of the page, white
  /// paper with a grain. Before the contrast measure took the ink from the
  /// darkest thousandth of the page, the 1st percentile (the grain, 216)
  /// made it a low-contrast page, the stretch turned the grain into
  /// speckle, and it read CER 0.78 against 0 for Tesseract.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func aSmallTableOnWhitePaperReadsAsTesseractReadsIt() throws {
    let (path, truth) = try FamilyPage.make("tables", seed: 1084)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = try #require(
      try OCREngine(options: RecognitionOptions(preprocessing: .none)).recognize(
        contentsOf: path
      ).first)
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(!page.preprocessing.contains("contrast"), "\(page.preprocessing)")
    let (t, s) = (plain.evaluate(against: truth), page.evaluate(against: truth))
    #expect(s.cer <= t.cer + 0.005, "CER \(s.cer) against Tesseract's \(t.cer)")
    #expect(s.wordRecall >= t.wordRecall - 0.01, "recall \(s.wordRecall) against \(t.wordRecall)")
  }
}

/// A page of a page family (`Tools/generate/make-family`), generated into a
/// temporary folder, and its truth.
enum FamilyPage {
  static func make(_ family: String, seed: Int) throws -> (path: String, truth: Page) {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    let (status, output) = try ExternalCheckers.run(
      python, [generator, family, "--seeds", "\(seed)", "--out", folder.path])
    try #require(status == 0, "make-family failed: \(output)")
    let stem = folder.appendingPathComponent("\(family)-\(seed)").path
    let truth = try #require(
      try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
        .pages.first)
    let image = [".png", ".jpg"].map { stem + $0 }.first {
      FileManager.default.fileExists(atPath: $0)
    }
    return (try #require(image), truth)
  }
}

/// A faded page with noise: ink lifted to gray (black to 214 on paper
/// 255), blurred 1.2 px and given Gaussian noise σ 10, as
/// `docs/measurements/2026-12-07-second-look.md` makes its faded develop
/// pages. Stretched as it was, its noise became ink: `faded-small-print`
/// read CER 2.2 (Tesseract reads nothing, 0.98) at 2.3 × Tesseract's time.
@Suite("Illumination: faded and noisy pages")
struct FadedNoisyPageTests {
  /// Makes the faded page of the committed sample `Scans/small-print.png`
  /// into a temporary folder.
  static func fadedSmallPrint() throws -> (path: String, truth: Page, folder: URL) {
    let folder = try Fixtures.temporaryFolder()
    let source = Fixtures.scans.appendingPathComponent("small-print.png").path
    let path = folder.appendingPathComponent("faded-small-print.png").path
    try GeneratedImages.run(
      """
      import sys
      import numpy as np
      from PIL import Image, ImageFilter
      im = Image.open(sys.argv[1]).convert("L")
      a = np.asarray(im.filter(ImageFilter.GaussianBlur(1.2)), dtype=np.float64)
      a = 255 - (255 - a) * 0.16
      a += np.random.default_rng(7).normal(0, 10, a.shape)
      Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(sys.argv[2], dpi=(300, 300))
      """, [source, path])
    let truthPath = Fixtures.scans.appendingPathComponent("small-print.truth.json").path
    let truth = try #require(
      try DocumentJSON.decode(String(contentsOfFile: truthPath, encoding: .utf8)).pages.first)
    return (path, truth, folder)
  }

  /// The page is averaged before its contrast is stretched, and reads its
  /// text: the first sentence's words, CER under 0.05.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func aFadedNoisyPageIsAveragedAndReads() throws {
    let (path, truth, folder) = try Self.fadedSmallPrint()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = try #require(Preprocessor.gray(try PhotoPageTests.decode(path)))
    let measured = try #require(Preprocessor.measureIllumination(image))
    #expect(measured.decision == .contrastStretched)
    #expect(
      measured.smoothsNoise,
      "range \(String(describing: measured.range)), noise \(String(describing: measured.noise))")
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    let text = page.text
    for word in ["coffee", "depends", "fresh", "beans", "water", "grind"] {
      #expect(text.contains(word), "\(word) not in \(text.prefix(200))")
    }
    let score = page.evaluate(against: truth)
    #expect(score.cer < 0.05, "CER \(score.cer)")
  }

  /// A low-contrast page without noise (the committed sample) is stretched
  /// as before, not averaged.
  @Test func aCleanLowContrastPageIsNotAveraged() throws {
    try OCRLibraries.load()
    let path = Fixtures.scans.appendingPathComponent("low-contrast.png").path
    let image = try #require(Preprocessor.gray(try PhotoPageTests.decode(path)))
    let measured = try #require(Preprocessor.measureIllumination(image))
    #expect(measured.decision == .contrastStretched)
    #expect(!measured.smoothsNoise, "noise \(String(describing: measured.noise))")
  }
}
