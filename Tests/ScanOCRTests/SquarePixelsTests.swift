import Foundation
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A fax page (200 × 100 dpi) is recognised on square pixels and its boxes
/// are mapped back to the original.
@Suite("Non-square resolution")
struct SquarePixelsTests {
  /// A sample page as a fax would store it: 2/3 of its resolution across,
  /// 1/3 down (`clean.png`, 300 dpi, becomes 200 × 100 dpi), and its truth
  /// mapped the same way.
  static func faxPage(_ source: String, dpi: Int) throws -> (path: String, truth: Page) {
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("fax.png").path
    let sx = 2.0 / 3
    let sy = 1.0 / 3
    try ImageWriter.writeScaledPNG(
      Fixtures.scans.appendingPathComponent(source).path, to: path, scaleX: sx, scaleY: sy,
      xres: dpi * 2 / 3, yres: dpi / 3)
    let truth = try Fixtures.truth(source)
    func scaled(_ r: PixelRect) -> PixelRect {
      PixelRect(
        minX: Int((Double(r.minX) * sx).rounded()), minY: Int((Double(r.minY) * sy).rounded()),
        maxX: Int((Double(r.maxX) * sx).rounded()), maxY: Int((Double(r.maxY) * sy).rounded()))
    }
    let blocks = truth.blocks.map { block in
      Block(
        bbox: scaled(block.bbox),
        paragraphs: block.paragraphs.map { paragraph in
          Paragraph(
            bbox: scaled(paragraph.bbox),
            lines: paragraph.lines.map { line in
              TextLine(
                bbox: scaled(line.bbox),
                words: line.words.map { Word(text: $0.text, bbox: scaled($0.bbox)) })
            })
        })
    }
    let page = Page(
      width: Int((Double(truth.width) * sx).rounded()),
      height: Int((Double(truth.height) * sy).rounded()), blocks: blocks)
    return (path, page)
  }

  /// Word recall counts a word only with the right text and a box that
  /// overlaps the truth's (IoU ≥ 0.5) in the fax's own pixels.
  static func readings(_ source: String, dpi: Int) throws -> (
    plain: PageEvaluation, square: PageEvaluation, page: Page
  ) {
    let (path, truth) = try faxPage(source, dpi: dpi)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let plain = try #require(
      try OCREngine(options: RecognitionOptions(preprocessing: .none)).recognize(
        contentsOf: path
      ).first)
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    #expect(page.width == truth.width && page.height == truth.height)
    for word in page.words {
      #expect(word.bbox.maxX <= page.width && word.bbox.maxY <= page.height)
    }
    return (plain.evaluate(against: truth), page.evaluate(against: truth), page)
  }

  @Test func faxAt200By100DPIIsReadWithBoxesInTheOriginal() throws {
    // Measured: 136 of 136 words either way at this size, so the test
    // checks that rescaling keeps every word and maps every box back.
    let (plain, square, _) = try Self.readings("clean.png", dpi: 300)
    #expect(square.wordRecall >= 0.95, "square pixels: \(square.metrics)")
    #expect(square.cer <= plain.cer, "square \(square.cer), as stored \(plain.cer)")
    #expect(square.wordRecall >= plain.wordRecall)
  }

  @Test func faxAt100By50DPIIsReadOnlyOnSquarePixels() throws {
    // `dpi-150.png` stored at 100 × 50 dpi: plain Tesseract reads no word
    // of it; on square pixels (100 dpi) it reads most.
    let (plain, square, _) = try Self.readings("dpi-150.png", dpi: 150)
    #expect(plain.wordRecall < 0.1, "as stored: \(plain.metrics)")
    #expect(square.wordRecall >= 0.75, "square pixels: \(square.metrics)")
    #expect(square.cer < plain.cer)
  }

  @Test func squarePixelsTransformMapsBack() {
    let t = ImageTransform.undoScale(x: 1, y: 2)
    let p = t.apply(Point(x: 10, y: 40))
    #expect(p.x == 10 && p.y == 20)
  }
}
