import CScanOCR
import Foundation
import ScanImaging
import ScanModel

extension OCREngine {
  /// The least confidence (0–100) of a word read from ink a row's layout
  /// left out (``readRowInk(_:blocks:)``): below it Tesseract read the
  /// ink as no letters it knows.
  static let rowInkConfidence = 30.0

  /// The cells Tesseract's reading of an enlarged page left out of its
  /// rows, read on their own and put in their row's line: ink standing on
  /// the row of a line it read, a column's gap away from every word
  /// (``ScanImaging/RowInk``), read by Tesseract restricted to it
  /// (`TessBaseAPISetRectangle`) as one line of text (PSM 7). What it
  /// reads is kept when it is one line, every word of which holds a
  /// letter or a figure and reads with confidence ``rowInkConfidence`` or
  /// more; its words join the line on their row, where they stand (the
  /// line then runs over the column's gap, as Tesseract reads a table's
  /// row when it reads it at all).
  ///
  /// Why: Tesseract's layout analysis drops short text standing apart
  /// in small type as noise; a table cut out of a web page (PubTabNet's
  /// crops, read enlarged) lost whole columns of short cells: "Rate" and
  /// its percentages in `PMC5679144_002_01`, so no table was found. Read
  /// as lines of their own, such cells would be blocks at the page's side
  /// (the role rule's marginalia), no part of a table.
  ///
  /// Only in the reader's layout, on a page read enlarged (the upscale
  /// step: small text, or a low resolution), neither cut from a photo
  /// nor straightened (its rows are the image's).
  /// - Parameters:
  ///   - prepared: The recognised image.
  ///   - blocks: Tesseract's reading of it, in its pixels.
  /// - Returns: The blocks with the words read added to their lines.
  func readRowInk(_ prepared: PreparedImage, blocks: [Block]) -> [Block] {
    guard options.layout == .reading, prepared.crop == nil, prepared.perspective == nil,
      !prepared.dewarped, prepared.applied.contains(where: { $0.step == .upscale })
    else { return blocks }
    var places: [(block: Int, paragraph: Int, line: Int)] = []
    for (b, block) in blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        places += paragraph.lines.indices.map { (b, p, $0) }
      }
    }
    let lines = places.map { blocks[$0.block].paragraphs[$0.paragraph].lines[$0.line] }
    let words = lines.flatMap(\.words).filter { $0.text.contains { $0.isLetter || $0.isNumber } }
    let heights = words.map { Double($0.bbox.height) }.sorted()
    guard !heights.isEmpty else { return blocks }
    let lineHeight = heights[heights.count / 2]
    let image = prepared.image
    // Small type is drawn in grays: measured as the small-text rule does.
    guard
      let ink = scantext_pixConvertTo1(image.pix, Self.smallTextInk).map(
        LeptonicaImage.init(taking:))
    else { return blocks }
    let found = RowInk.candidates(
      components: Preprocessor.componentBoxes(ink), lines: lines.map(\.bbox),
      words: lines.flatMap(\.words).map(\.bbox), lineHeight: lineHeight)
    guard !found.isEmpty else { return blocks }
    scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
    scantext_TessBaseAPISetImage2(api, image.pix)
    if let dpi = options.dpi {
      scantext_TessBaseAPISetSourceResolution(api, Int32(prepared.resolution ?? dpi))
    }
    defer { scantext_TessBaseAPIClear(api) }
    var out = blocks
    for (group, line) in found {
      // Paper round the ink: the glyphs' sides and a line's spacing, less
      // than the column's gap (no word read beside it comes in).
      let pad = Int(lineHeight / 2)
      let x0 = max(0, group.minX - pad)
      let y0 = max(0, group.minY - pad)
      let x1 = min(image.width, group.maxX + pad)
      let y1 = min(image.height, group.maxY + pad)
      scantext_TessBaseAPISetRectangle(api, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
      guard scantext_TessBaseAPIRecognize(api, nil) == 0 else { continue }
      let read = ResultReader.read(api).blocks
      let readWords = read.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      guard read.count == 1, read[0].paragraphs.count == 1, read[0].paragraphs[0].lines.count == 1,
        !readWords.isEmpty,
        readWords.allSatisfy({
          ($0.confidence ?? 0) >= Self.rowInkConfidence
            && $0.text.contains { $0.isLetter || $0.isNumber }
        })
      else { continue }
      let place = places[line]
      Self.add(readWords, to: &out[place.block], paragraph: place.paragraph, line: place.line)
    }
    return out
  }

  /// `block` with `words` in its line (left to right), the boxes of the
  /// line, its paragraph and the block grown to hold them and the
  /// line's baseline drawn on across them.
  static func add(_ words: [Word], to block: inout Block, paragraph p: Int, line l: Int) {
    var line = block.paragraphs[p].lines[l]
    let box = words.reduce(line.bbox) { $0.union($1.bbox) }
    if let base = line.baseline, base.end.x != base.start.x {
      let slope = (base.end.y - base.start.y) / (base.end.x - base.start.x)
      func at(_ x: Double) -> Point { Point(x: x, y: base.start.y + slope * (x - base.start.x)) }
      line.baseline = Baseline(
        start: at(min(base.start.x, Double(box.minX))), end: at(max(base.end.x, Double(box.maxX))))
    }
    line.words = (line.words + words).sorted { $0.bbox.minX < $1.bbox.minX }
    line.bbox = box
    block.paragraphs[p].lines[l] = line
    block.paragraphs[p].bbox = block.paragraphs[p].bbox.union(box)
    block.bbox = block.bbox.union(box)
  }
}
