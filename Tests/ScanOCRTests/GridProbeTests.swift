import CScanOCR
import Foundation
import ScanFormats
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// On request: the candidate ruled tables of a list of images and what
/// their cells hold, as the rules step measures them
/// (``Preprocessor/gridCandidates(_:ink:resolution:)``), to measure the
/// small-grid evidence on pages of every kind. `GRID_PROBE` names a file
/// of image paths, one a line; the report goes to `GRID_PROBE_OUT`
/// (default `grid-probe.txt` in the temporary folder). Each image is
/// measured as decoded, before the steps that precede the rules step.
@Suite("Grid probe")
struct GridProbeTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["GRID_PROBE"] != nil))
  func probe() throws {
    let list = try String(
      contentsOfFile: ProcessInfo.processInfo.environment["GRID_PROBE"] ?? "", encoding: .utf8)
    var out = ""
    for path in list.split(separator: "\n").map(String.init) {
      guard
        let image = try ImageReader.decodePages(
          ImageReader.readBytes(path), path: path, maxPixels: .max
        ).first,
        let ink = Preprocessor.gray(image).flatMap(Preprocessor.binarize),
        let found = Preprocessor.measureRules(binary: ink, resolution: image.resolution)
      else {
        out += "\(path)\tnone\n"
        continue
      }
      out += "\(path)\tcrossings \(found.crossings) accepted \(found.smallTables.count)\n"
      for (table, cells) in Preprocessor.gridCandidates(
        found, ink: ink, resolution: image.resolution)
      {
        let area = table.cells.map { $0.position.rowSpan * $0.position.columnSpan }.reduce(0, +)
        out +=
          "  table \(table.rows)x\(table.columns) cells \(table.cells.count) closed \(area == table.rows * table.columns) small \(Preprocessor.isSmallTable(table, cells: cells)) bounds \(table.bounds.map { "\($0)" } ?? "-")\n"
        for (cell, ink) in zip(table.cells, cells) {
          let hs = ink.glyphs.map(\.height).sorted()
          out +=
            "    \(cell.position.row),\(cell.position.column) span \(cell.position.rowSpan)x\(cell.position.columnSpan) box \(cell.box.width)x\(cell.box.height) glyphs \(ink.glyphs.count) others \(ink.others) h \(hs.first ?? 0)-\(hs.last ?? 0) union \(PixelRect.union(ink.glyphs).map { "\($0.width)x\($0.height)" } ?? "-")\n"
        }
      }
    }
    let report =
      ProcessInfo.processInfo.environment["GRID_PROBE_OUT"]
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("grid-probe.txt").path
    try out.write(toFile: report, atomically: true, encoding: .utf8)
  }
}
