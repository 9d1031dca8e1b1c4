import CScanOCR
import Foundation
import ScanImaging
import ScanModel

extension OCREngine {
  /// The least confidence (0–100) of a page number read on its own.
  static let folioConfidence = 60.0

  /// The page numbers Tesseract's reading left out, read on their own: a
  /// second look at the page's top and bottom bands (those of
  /// ``ScanModel/RoleDetection``'s page-number rule), where ink standing
  /// alone as a folio does (``ScanImaging/FolioInk``) is read by Tesseract
  /// restricted to it (`TessBaseAPISetRectangle`) as one line of text
  /// (PSM 7), and kept when every word reads with confidence
  /// (``folioConfidence``) and the whole reads as a page number ("27",
  /// "- 4 -", "xi").
  ///
  /// Why: Tesseract's layout analysis drops a small number standing alone
  /// at a page's foot as noise (docling's `picture_classification` and
  /// `code_and_formula` pages at 300 dpi: their "1" and "2" came out of
  /// no reading); read alone, it is one short line with paper round it.
  ///
  /// Only in the reader's layout, on a page that is no photo (no crop,
  /// perspective or dewarp: its bands are the image's).
  /// - Parameters:
  ///   - prepared: The recognised image.
  ///   - blocks: Tesseract's reading of it, in its pixels.
  /// - Returns: One block per page number found, in the recognised
  ///   image's pixels (the block passes map it back as they do the rest).
  func readFolios(_ prepared: PreparedImage, blocks: [Block]) -> [Block] {
    guard options.layout == .reading, prepared.crop == nil, prepared.perspective == nil,
      !prepared.dewarped
    else { return [] }
    let words = blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      .filter { $0.text.contains { $0.isLetter || $0.isNumber } }
    let heights = words.map { Double($0.bbox.height) }.sorted()
    guard !heights.isEmpty else { return [] }
    let lineHeight = heights[heights.count / 2]
    let image = prepared.image
    let band = Int((Double(image.height) * RoleDetection.pageNumberBand).rounded(.down))
    guard band > 0 else { return [] }
    var found: [PixelRect] = []
    for atTop in [true, false] {
      let box = PixelRect(
        minX: 0, minY: atTop ? 0 : image.height - band, maxX: image.width,
        maxY: atTop ? band : image.height)
      guard let clipped = Preprocessor.clip(image, box), let ink = Self.ink(clipped) else {
        continue
      }
      let components = Preprocessor.componentBoxes(ink).map {
        PixelRect(
          minX: $0.minX + box.minX, minY: $0.minY + box.minY, maxX: $0.maxX + box.minX,
          maxY: $0.maxY + box.minY)
      }
      found += FolioInk.candidates(
        components: components, words: words.map(\.bbox), band: box, atTop: atTop,
        lineHeight: lineHeight)
    }
    guard !found.isEmpty else { return [] }
    scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
    scantext_TessBaseAPISetImage2(api, image.pix)
    if let dpi = options.dpi {
      scantext_TessBaseAPISetSourceResolution(api, Int32(prepared.resolution ?? dpi))
    }
    defer { scantext_TessBaseAPIClear(api) }
    var out: [Block] = []
    for ink in found {
      // Paper round the ink: the glyphs' sides and a line's spacing.
      let pad = Int(lineHeight * 0.75)
      let x0 = max(0, ink.minX - pad)
      let y0 = max(0, ink.minY - pad)
      let x1 = min(image.width, ink.maxX + pad)
      let y1 = min(image.height, ink.maxY + pad)
      scantext_TessBaseAPISetRectangle(api, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
      guard scantext_TessBaseAPIRecognize(api, nil) == 0 else { continue }
      let read = ResultReader.read(api).blocks
      let readWords = read.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      guard read.count == 1, read[0].paragraphs.count == 1, read[0].paragraphs[0].lines.count == 1,
        !readWords.isEmpty,
        readWords.allSatisfy({ ($0.confidence ?? 0) >= Self.folioConfidence }),
        TextCues.isPageNumber(readWords.map(\.text).joined(separator: " "))
      else { continue }
      out += read
    }
    return out
  }
}
