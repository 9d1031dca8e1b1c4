import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Issue 48 point 2 on the `misc` family's stamped pages: a rubber stamp
/// whose violet is too pale for the saturation bar is separated by
/// colour, and the words under it are read from the neutral layer;
/// against the same page read without the colour step (`--no-colour`),
/// which reads the stamp's strokes into the words.
@Suite("Text under a stamp")
struct StampSeparationTests {
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func theWordsUnderAStampAreRead() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    // A violet ENTERED stamp with a date over the body text (develop half).
    let seed = 1000
    let (status, output) = try ExternalCheckers.run(
      python, [generator, "misc", "--seeds", String(seed), "--out", folder.path])
    try #require(status == 0, "make-family failed: \(output)")
    let stem = folder.appendingPathComponent("misc-\(seed)").path
    let json = try String(contentsOfFile: stem + ".truth.json", encoding: .utf8)
    let truth = try #require(try DocumentJSON.decode(json).pages.first)

    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: stem + ".png").first)
    let plain = try #require(
      try OCREngine(
        options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting([.colour]))
      ).recognize(contentsOf: stem + ".png").first)
    #expect(page.preprocessing.contains("colour: stamps over the text separated"))
    let evaluation = page.evaluate(against: truth)
    let plainEvaluation = plain.evaluate(against: truth)
    #expect(
      evaluation.cer < 0.7 * plainEvaluation.cer, "\(evaluation.cer) \(plainEvaluation.cer)")
    #expect(evaluation.wordRecall > plainEvaluation.wordRecall)
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

  /// Three lines of black stems (4 pixels wide, every 14) at 300 dpi,
  /// with `colour` giving a pixel's coloured ink, if any, by its place
  /// and whether a stem lies there (black under a stamp stays black).
  static func stems(_ colour: (Int, Int, Bool) -> (UInt32, UInt32, UInt32)?) throws
    -> LeptonicaImage
  {
    let (width, height) = (600, 420)
    let pix = try #require(scantext_pixCreate(Int32(width), Int32(height), 32))
    let image = LeptonicaImage(taking: pix)
    let data = try #require(scantext_pixGetData(pix))
    let words = Int(scantext_pixGetWpl(pix))
    for y in 0..<height {
      for x in 0..<width {
        let line = [100, 200, 300].contains { $0 <= y && y < $0 + 40 }
        let stem = line && x >= 50 && x < 550 && (x - 50) % 14 < 4
        var rgb: (UInt32, UInt32, UInt32) = stem ? (20, 20, 20) : (250, 250, 250)
        if let c = colour(x, y, stem), !stem { rgb = c }
        data[y * words + x] = rgb.0 << 24 | rgb.1 << 16 | rgb.2 << 8
      }
    }
    scantext_pixSetResolution(pix, 300, 300)
    return image
  }

  /// A violet ring pressed over the lines is a stamp over the text: its
  /// strokes are cut by the stems, and the neutral layer takes it out
  /// while the stems stay. The same stems with synthetic sub-pixel
  /// fringes (orange on the left of each stem, blue on the right) are no
  /// stamp. (That second half passes with the one-ink rule off too:
  /// another rule turns these synthetic fringes away; the real
  /// screenshots of `redp5110_sampled` p14 are guarded by
  /// `RealDocumentRolesTests`.)
  @Test func aStampIsOneInkAndFringesAreNot() throws {
    try OCRLibraries.load()
    let ring = try Self.stems { x, y, _ in
      let r = (Double((x - 300) * (x - 300) + (y - 220) * (y - 220))).squareRoot()
      return abs(r - 150) < 5 ? (120, 40, 160) : nil
    }
    let fringed = try Self.stems { x, y, _ in
      let line = [100, 200, 300].contains { $0 <= y && y < $0 + 40 }
      guard line, x >= 48, x < 556 else { return nil }
      switch (x - 50 + 14) % 14 {
      case 12, 13: return (230, 120, 40)
      case 4, 5: return (40, 120, 230)
      default: return nil
      }
    }
    let ringSeparation = try #require(Preprocessor.measureColour(ring)?.separation)
    let layer = try #require(Preprocessor.neutralLayer(ring, ringSeparation))
    // The ring's pixels between the lines became paper; the stems stayed.
    var value: UInt32 = 0
    #expect(scantext_pixGetPixel(layer.pix, 300, 70, &value) == 0)
    #expect(value > 200, "the ring at the top: \(value)")
    #expect(scantext_pixGetPixel(layer.pix, 302, 110, &value) == 0)
    #expect(value < 60, "a stem: \(value)")
    let fringeSeparation = try #require(Preprocessor.measureColour(fringed)?.separation)
    #expect(Preprocessor.neutralLayer(fringed, fringeSeparation) == nil)
  }
}
