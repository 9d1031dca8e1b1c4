import CScanOCR
import ScanModel

/// Small ruled grids: tables whose rules cross fewer than
/// ``Preprocessor/minimumRuleCrossings`` times (2 columns of 3–5 rows,
/// 3 columns under a merged header, 2 × 2).
extension Preprocessor {
  /// What one cell of a candidate small grid holds: the glyph-sized pieces
  /// of ink inside it, away from its rules.
  struct GridCellInk: Equatable {
    /// The cell's inside, within its rules.
    var box: PixelRect
    /// The pieces of ink inside the cell as tall as a letter
    /// (``glyphHeights(_:)``) and no wider than the cell.
    var glyphs: [PixelRect]
    /// Every other piece of ink inside the cell (specks, rules' bleed,
    /// solid areas).
    var others: Int
  }

  /// The heights a letter's ink may have at a resolution: from 1/40 inch
  /// (the x-height of 6-point type) to 1/3 inch (a capital of 24 points).
  static func glyphHeights(_ resolution: Int?) -> ClosedRange<Int> {
    let dpi = resolution ?? 300
    return max(4, dpi / 40)...max(8, dpi / 3)
  }

  /// The tables a page's rules make (``TableGrid/tables``), each with the
  /// ink of every cell; the rules given as the measurement found them.
  static func gridCandidates(
    _ found: RuleMeasurement, ink: LeptonicaImage, resolution: Int?
  ) -> [(table: RuledTable, cells: [GridCellInk])] {
    let grid = TableGrid(
      horizontalRules: componentBoxes(found.horizontal) + found.heavyHorizontal,
      verticalRules: componentBoxes(found.vertical))
    let margin = Int(ruleThickness(resolution))
    let heights = glyphHeights(resolution)
    return grid.tables.map { table in
      let cells = table.cells.map { cell -> GridCellInk in
        let inner = PixelRect(
          minX: cell.box.minX + margin, minY: cell.box.minY + margin,
          maxX: cell.box.maxX - margin, maxY: cell.box.maxY - margin)
        guard !inner.isEmpty, let clipped = clip(ink, inner) else {
          return GridCellInk(box: cell.box, glyphs: [], others: 0)
        }
        var glyphs: [PixelRect] = []
        var others = 0
        for piece in componentBoxes(clipped) {
          if heights.contains(piece.height), piece.width < inner.width {
            glyphs.append(
              PixelRect(
                minX: piece.minX + inner.minX, minY: piece.minY + inner.minY,
                maxX: piece.maxX + inner.minX, maxY: piece.maxY + inner.minY))
          } else {
            others += 1
          }
        }
        return GridCellInk(box: cell.box, glyphs: glyphs, others: others)
      }
      return (table, cells)
    }
  }
}

extension Preprocessor {
  /// Whether a grid with fewer than ``minimumRuleCrossings`` crossings is a
  /// table's, told from what its cells hold. Few crossings are no sign of
  /// a table by themselves: a page's frame, the edges of a book, a box
  /// round a paragraph, underlines and a stamp's frame make some too
  /// (`kant-0017` 17, `boston-cooking-a` 12). A small table shows itself
  /// otherwise, in what a reader sees of it:
  ///
  /// - its rules close every cell: the lattice of the rules' lines has no
  ///   place open to the outside (``RuledTable``'s own evidence, two rows
  ///   and two columns or more, every cell a rectangle, holds first);
  /// - every cell holds text: ink as tall as a letter
  ///   (``glyphHeights(_:)``), and at least twice as many such pieces in
  ///   the table as other pieces (specks, dots, bleed of the rules);
  /// - a row is as tall as its text and a margin: no taller than the
  ///   tallest text of its cells and three letter heights (the table's
  ///   median), a cell over several rows no taller than its own text and
  ///   three letter heights per row (a form's field has a small label in a
  ///   tall box waiting for the entry).
  ///
  /// Measured (develop pages `tables` 1000–1099, the candidate grids of
  /// the rules of every page of `Scans/` and the real scans): the eight
  /// fully ruled develop grids under 20 crossings (2 × 3, 2 × 5, 3 × 3
  /// and 3 columns under a merged header; 12–18 crossings) have every
  /// cell closed and holding letters, the tallest row 187 pixels round
  /// 143 of text (three lines; its one-line cells hold 42–43); the merged
  /// header cells spanning two rows 145–157 round 29–43, letters 25–30
  /// pixels tall (the median). `kant-0017` and `boston-cooking-a` make no
  /// candidate at all (their rules' lattice is no rectangle of cells),
  /// nor does any other page but `c02-22-embedded-000.jpg`, whose 2 × 3
  /// "grid" of 3-pixel cells holds no ink.
  static func isSmallTable(_ table: RuledTable, cells: [GridCellInk]) -> Bool {
    let area = table.cells.map { $0.position.rowSpan * $0.position.columnSpan }.reduce(0, +)
    guard area == table.rows * table.columns, cells.count == table.cells.count,
      cells.allSatisfy({ !$0.glyphs.isEmpty })
    else { return false }
    let glyphs = cells.map(\.glyphs.count).reduce(0, +)
    let others = cells.map(\.others).reduce(0, +)
    guard glyphs >= 2 * others else { return false }
    let heights = cells.flatMap { $0.glyphs.map(\.height) }.sorted()
    guard !heights.isEmpty else { return false }
    let letter = heights[heights.count / 2]
    // A row is as tall as its tallest text (a cell of three lines makes
    // its one-line neighbours as tall); a cell over several rows is
    // measured against its own text.
    var rowText: [Int: (height: Int, text: Int)] = [:]
    for (cell, ink) in zip(table.cells, cells) {
      let text = PixelRect.union(ink.glyphs)?.height ?? 0
      if cell.position.rowSpan == 1 {
        let row = rowText[cell.position.row]
        rowText[cell.position.row] = (
          max(row?.height ?? 0, cell.box.height), max(row?.text ?? 0, text)
        )
      } else if cell.box.height > text + 3 * letter * cell.position.rowSpan {
        return false
      }
    }
    return rowText.values.allSatisfy { $0.height <= $0.text + 3 * letter }
  }

  /// The small tables (``isSmallTable(_:cells:)``) of a page whose rules
  /// cross fewer than ``minimumRuleCrossings`` times; none on a page whose
  /// rules already make a grid.
  static func smallTables(
    _ found: RuleMeasurement, ink: LeptonicaImage, resolution: Int?
  ) -> [RuledTable] {
    guard !found.formGrid, found.crossings > 0 else { return [] }
    return gridCandidates(found, ink: ink, resolution: resolution).filter {
      isSmallTable($0.table, cells: $0.cells)
    }.map(\.table)
  }

  /// The measurement with only the rules round `tables` (each table's
  /// bounds grown by three rule thicknesses): the rules step removes a
  /// small table's rules and leaves every other rule of the page (a
  /// heading's underline, a frame) as it is. `nil` when Leptonica fails.
  static func restricted(
    _ found: RuleMeasurement, to tables: [RuledTable], resolution: Int?
  ) -> RuleMeasurement? {
    let reach = 3 * Int(ruleThickness(resolution))
    guard
      let area = scantext_pixCreate(
        scantext_pixGetWidth(found.horizontal.pix), scantext_pixGetHeight(found.horizontal.pix),
        1)
    else { return nil }
    let mask = LeptonicaImage(taking: area)
    for table in tables {
      guard let b = table.bounds,
        let box = scantext_boxCreate(
          Int32(b.minX - reach), Int32(b.minY - reach), Int32(b.width + 2 * reach),
          Int32(b.height + 2 * reach))
      else { return nil }
      var owned: UnsafeMutablePointer<Box>? = box
      defer { scantext_boxDestroy(&owned) }
      guard scantext_pixSetInRectArbitrary(mask.pix, box, 1) == 0 else { return nil }
    }
    guard let h = scantext_pixAnd(nil, found.horizontal.pix, mask.pix),
      let v = scantext_pixAnd(nil, found.vertical.pix, mask.pix)
    else { return nil }
    let horizontal = LeptonicaImage(taking: h)
    let vertical = LeptonicaImage(taking: v)
    var hCount: Int32 = 0
    var vCount: Int32 = 0
    guard scantext_pixCountPixels(horizontal.pix, &hCount, nil) == 0,
      scantext_pixCountPixels(vertical.pix, &vCount, nil) == 0
    else { return nil }
    var out = found
    out.horizontal = horizontal
    out.vertical = vertical
    out.heavyHorizontal = found.heavyHorizontal.filter { rule in
      tables.contains { table in
        table.bounds.map {
          rule.minX >= $0.minX - reach && rule.maxX <= $0.maxX + reach
            && rule.minY >= $0.minY - reach && rule.maxY <= $0.maxY + reach
        } ?? false
      }
    }
    out.horizontalPixels = Int(hCount)
    out.verticalPixels = Int(vCount)
    out.smallTables = tables
    return out
  }
}
