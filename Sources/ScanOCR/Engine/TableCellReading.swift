import CScanOCR
import Foundation
import ScanModel

extension OCREngine {
  /// Reads every cell of the page's ruled tables on its own: Tesseract
  /// restricted to the cell's box (`TessBaseAPISetRectangle`) as one block
  /// of text (PSM 6), on the page with its rules removed.
  ///
  /// Why: Tesseract's page layout reads a ruled table's rows as lines that
  /// cross the column rules, and at the scale of a whole line it loses what
  /// a cell read alone keeps: on a generated 4-column table it read "2.2"
  /// as "22" and took the paragraph above for part of the table. Read alone,
  /// a cell is one short block with paper round it, which Tesseract reads as
  /// a reader does. The readings replace Tesseract's words in the cells
  /// only when they read no fewer confident words (``TableCells/composing(_:reading:ink:)``).
  ///
  /// Only in the reader's layout, and only when the recognised image has
  /// the original's pixels (no crop, turn, deskew or dewarp moved them):
  /// the tables' rules are measured in the original's pixels, and a
  /// table on a moved page keeps Tesseract's reading split at its rules
  /// (``TableCells/splitting(_:grids:)``).
  /// - Returns: One reading per table, in the order of the page's grids.
  func readTableCells(
    _ prepared: PreparedImage, mapper: ElementMapper, index: Int, path: String, started: Date
  ) throws(OCRError) -> [TableCells.Reading] {
    guard options.layout == .reading, mapper.isIdentity else { return [] }
    let tables = prepared.tables.flatMap(\.tables)
    guard !tables.isEmpty else { return [] }
    scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
    scantext_TessBaseAPISetImage2(api, prepared.image.pix)
    if let dpi = options.dpi {
      scantext_TessBaseAPISetSourceResolution(api, Int32(prepared.resolution ?? dpi))
    }
    defer { scantext_TessBaseAPIClear(api) }
    var readings: [TableCells.Reading] = []
    for table in tables {
      var cellLines: [[TextLine]] = []
      for cell in table.cells {
        try checkDeadline(started, path: path, page: index)
        let box = cell.box
        scantext_TessBaseAPISetRectangle(
          api, Int32(box.minX), Int32(box.minY), Int32(box.width), Int32(box.height))
        // A cell Tesseract cannot read leaves the table as Tesseract read it.
        guard scantext_TessBaseAPIRecognize(api, nil) == 0 else { break }
        // A cell's reading is repaired as the page's is: lines Tesseract
        // read overlapping inside a cell (Korean cells of normal_4pages
        // p2, a line box over two lines of type) are cut apart, so their
        // selections cover their words and do not overlap.
        let blocks = GeometryRepair.repair(ResultReader.read(api).blocks)
        let lines = blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
        cellLines.append(readTurnedCell(prepared, cell: box, upright: lines) ?? lines)
      }
      if cellLines.count == table.cells.count {
        readings.append(TableCells.Reading(table: table, cellLines: cellLines))
      }
    }
    return readings
  }

  /// A cell taller than wide whose ink is one line set turned (a column's
  /// header set upward over a narrow column), read turned
  /// (``readTurned(_:crop:resolution:)``): its line when it reads
  /// confidently and word-like, and the cell's upright reading is junk or
  /// less confident; else `nil`. Leaves Tesseract as it found it (the page,
  /// one block).
  private func readTurnedCell(_ prepared: PreparedImage, cell: PixelRect, upright: [TextLine])
    -> [TextLine]?
  {
    guard cell.height > cell.width else { return nil }
    let words = upright.flatMap(\.words)
    defer {
      scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
      scantext_TessBaseAPISetImage2(api, prepared.image.pix)
      if let dpi = options.dpi {
        scantext_TessBaseAPISetSourceResolution(api, Int32(prepared.resolution ?? dpi))
      }
    }
    guard let turned = readTurned(prepared.image, crop: cell, resolution: prepared.resolution)
    else { return nil }
    if !words.isEmpty, !SecondLook.isJunk(words.map(\.text)),
      Self.meanConfidence(words) >= Self.meanConfidence(turned.line.words)
    {
      return nil
    }
    return [turned.line]
  }
}
