import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Reading order on a page of numbered boxes (issue 44 point 4): four
/// numbered panels, two across and two down, typeset by Pillow at 300 dpi
/// and read by OCR. Tesseract reads the two columns one after the other
/// (1, 3, 2, 4); the reader's order is the numbers'.
struct NumberedGridOrderTests {
  /// The page: a title, then "1." and "2." across the top, "3." and "4."
  /// below, each a bold numbered title over three lines of text (the
  /// right column set a little lower, as boxes of unequal text are).
  static let script = """
    import sys
    from PIL import Image, ImageDraw, ImageFont
    fonts = "/usr/share/fonts/truetype/dejavu/"
    im = Image.new("L", (2550, 3300), 255)
    d = ImageDraw.Draw(im)
    d.text((200, 200), "Before you travel", font=ImageFont.truetype(fonts + "DejaVuSans-Bold.ttf", 64), fill=0)
    title = ImageFont.truetype(fonts + "DejaVuSans-Bold.ttf", 44)
    body = ImageFont.truetype(fonts + "DejaVuSerif.ttf", 36)
    panels = [
        ("1. Check your passport", ["Make sure it is valid for six", "months after the day you", "plan to come home again."]),
        ("2. Book your tickets", ["Trains and ferries fill up in", "summer, so book them a few", "weeks before you leave."]),
        ("3. Pack light", ["One bag that you can carry", "up the stairs of a station", "is all you will need."]),
        ("4. Tell your bank", ["Your card may be stopped if", "it is used abroad without a", "word to the bank first."]),
    ]
    for (head, lines), (x, y) in zip(panels, [(200, 500), (1400, 530), (200, 1000), (1400, 1030)]):
        d.text((x, y), head, font=title, fill=0)
        for k, line in enumerate(lines):
            d.text((x, y + 120 + 60 * k), line, font=body, fill=0)
    im.save(sys.argv[1], dpi=(300, 300))
    """

  static let fontsPresent = FileManager.default.fileExists(
    atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")

  @Test(
    .enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"),
    .enabled(if: fontsPresent, "DejaVu fonts not installed: the numbered grid page is skipped"))
  func numberedBoxesAreReadInNumberOrder() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("grid.png").path
    try GeneratedImages.run(Self.script, [path])
    let page = try #require(try OCREngine().recognize(contentsOf: path).first)
    let titles = page.text.split(separator: "\n").filter { $0.first?.isNumber == true }
    #expect(
      titles == [
        "1. Check your passport", "2. Book your tickets", "3. Pack light", "4. Tell your bank",
      ], "\(page.text)")
    // Each box's text follows its title.
    let text = page.text
    let order = ["1. Check", "Make sure", "2. Book", "Trains and", "3. Pack", "One bag", "4. Tell"]
      .compactMap { text.range(of: $0)?.lowerBound }
    #expect(order.count == 7 && order == order.sorted(), "\(text)")
    // Tesseract's own order (kept where asked for) reads by columns.
    let engine = try #require(
      try OCREngine(options: RecognitionOptions(layout: .tesseract)).recognize(contentsOf: path)
        .first)
    #expect(
      engine.text.split(separator: "\n").filter { $0.first?.isNumber == true } == [
        "1. Check your passport", "3. Pack light", "2. Book your tickets", "4. Tell your bank",
      ], "\(engine.text)")
  }
}
