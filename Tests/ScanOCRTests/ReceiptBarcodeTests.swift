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

  /// Whether the venv has segno (a QR encoder) beside Pillow.
  static let segno: Bool = {
    guard let python = GeneratedImages.python,
      let (status, _) = try? ExternalCheckers.run(python, ["-c", "import segno"])
    else { return false }
    return status == 0
  }()

  /// A label page: two lines of text, a real QR code (upright, or turned
  /// 20°) under them, and a line beside it.
  static let qrLabel = """
    import sys, segno
    from PIL import Image, ImageDraw, ImageFont
    out, degrees = sys.argv[1], float(sys.argv[2])
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 40)
    page = Image.new("L", (1700, 1400), 255)
    d = ImageDraw.Draw(page)
    d.text((150, 150), "Parcel for Rosalind Franklin", font=font, fill=0)
    d.text((150, 230), "Delivery window Tuesday morning", font=font, fill=0)
    qr = segno.make_qr("https://example.org/track/8841-2231-77", error="m")
    qr.save("/tmp/_qr.png", scale=12, border=0)
    code = Image.open("/tmp/_qr.png").convert("L")
    code = code.rotate(degrees, expand=True, fillcolor=255, resample=Image.NEAREST)
    page.paste(code, (150, 450))
    d.text((900, 600), "Scan to follow it", font=font, fill=0)
    page.save(out, dpi=(300, 300))
    """

  @Test(
    .enabled(
      if: segno,
      "segno not in .build/tools-venv (run Tools/install/install-dependencies.sh): QR test skipped")
  )
  func aQRCodeIsAFigureAndNoText() throws {
    let folder = try Fixtures.temporaryFolder()
    let engine = try OCREngine(options: RecognitionOptions())
    for degrees in [0, 20] {
      let path = folder.appendingPathComponent("label-\(degrees).png").path
      try GeneratedImages.run(
        Self.qrLabel.replacingOccurrences(of: "/tmp/_qr.png", with: path + ".qr.png"),
        [path, String(degrees)])
      let page = try #require(try engine.recognize(contentsOf: path).first)
      let code = try #require(
        page.figures.first { $0.alternativeText == "QR code" }, "\(degrees)°: \(page.figures)")
      #expect(page.figures.count == 1, "\(degrees)°: \(page.figures)")
      // The code's place on the page: pasted at (150, 450).
      #expect(
        abs(code.bbox.minX - 150) <= 4 && abs(code.bbox.minY - 450) <= 4,
        "\(degrees)°: \(code.bbox)")
      let words = page.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      #expect(
        words.allSatisfy { $0.bbox.intersection(code.bbox) == nil },
        "\(degrees)°: \(words.map(\.text))")
      for line in [
        "Parcel for Rosalind Franklin", "Delivery window Tuesday morning", "Scan to follow it",
      ] {
        #expect(page.text.contains(line), "\(degrees)°: \(page.text)")
      }
    }
  }
}
