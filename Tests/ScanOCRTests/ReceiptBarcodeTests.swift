import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Issue 48 point 4 on the `receipts` family: the barcode at a receipt's
/// foot is a figure ("Barcode"), not text; what OCR read in its bars is
/// gone, and every printed line above it stays.
@Suite("Receipt barcodes")
struct ReceiptBarcodeTests {
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func aReceiptsBarcodeIsAFigureAndNoText() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    let seeds = [1000, 1003]
    let (status, output) = try ExternalCheckers.run(
      python,
      [
        generator, "receipts", "--seeds", seeds.map(String.init).joined(separator: ","), "--out",
        folder.path,
      ])
    try #require(status == 0, "make-family failed: \(output)")
    let engine = try OCREngine(options: RecognitionOptions())
    for seed in seeds {
      let stem = folder.appendingPathComponent("receipts-\(seed)").path
      let page = try #require(try engine.recognize(contentsOf: stem + ".png").first)
      let truth = try #require(
        try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
          .pages.first)
      let printed = truth.blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
      let foot = try #require(printed.map(\.bbox.maxY).max())
      // One figure, the barcode under the last printed line.
      #expect(page.figures.count == 1, "receipts-\(seed): \(page.figures)")
      let barcode = try #require(page.figures.first)
      #expect(barcode.alternativeText == "Barcode")
      #expect(barcode.bbox.minY > foot, "receipts-\(seed): \(barcode.bbox) under \(foot)")
      #expect(barcode.bbox.width > page.width / 3, "receipts-\(seed): \(barcode.bbox)")
      // No word read in it; the page ends with the receipt's last word
      // (OCR may cut its line: receipts-1003's "THANK YOU" and "FOR
      // SHOPPING" are two, with or without the barcode found).
      let words = page.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      let inside = words.filter { $0.bbox.intersection(barcode.bbox) != nil }
      #expect(inside.isEmpty, "receipts-\(seed): \(inside.map(\.text))")
      let lastWord = try #require(truth.text.split(whereSeparator: \.isWhitespace).last)
      #expect(
        page.text.split(whereSeparator: \.isWhitespace).last == lastWord, "receipts-\(seed)")
    }
  }
}
