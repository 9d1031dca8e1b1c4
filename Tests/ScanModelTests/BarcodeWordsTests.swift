import Testing

@testable import ScanModel

/// ``BarcodeWords``: what OCR read in a barcode's bars goes, the digits
/// printed under them and the text around stay.
@Suite("Words read in barcodes")
struct BarcodeWordsTests {
  static func word(_ text: String, _ box: PixelRect) -> Word {
    Word(text: text, bbox: box, confidence: 40)
  }

  /// One block, a line for each list of words.
  static func blocks(_ lines: [[Word]]) -> [Block] {
    let textLines = lines.compactMap { words in
      PixelRect.union(words.map(\.bbox)).map { TextLine(bbox: $0, words: words) }
    }
    let box =
      PixelRect.union(textLines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: textLines)])]
  }

  /// A barcode 100–385 × 180–360, as ``Barcodes`` would find it.
  static let barcode = PixelRect(minX: 100, minY: 180, maxX: 385, maxY: 360)

  @Test func junkReadInTheBarsGoesTheDigitsUnderThemStay() {
    let page = Self.blocks([
      [Self.word("ORDER", PixelRect(minX: 60, minY: 40, maxX: 160, maxY: 70))],
      // "Ii | |" read over the bars; "1" mostly over them, half out.
      [
        Self.word("Ii", PixelRect(minX: 110, minY: 185, maxX: 150, maxY: 350)),
        Self.word("|", PixelRect(minX: 200, minY: 185, maxX: 206, maxY: 350)),
        Self.word("1", PixelRect(minX: 370, minY: 200, maxX: 400, maxY: 340)),
      ],
      // The human-readable digits just under the bars.
      [Self.word("006381", PixelRect(minX: 110, minY: 362, maxX: 240, maxY: 392))],
    ])
    let kept = BarcodeWords.removing(from: page, barcodes: [Self.barcode])
    let lines = kept.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
    // The line of junk goes with its words.
    #expect(lines == [["ORDER"], ["006381"]])
    #expect(BarcodeWords.removing(from: page, barcodes: []) == page)
  }
}
