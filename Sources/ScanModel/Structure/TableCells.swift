/// The ruling lines of a table's grid, found on the page image (the
/// preprocessing's rules step), in original-image pixels.
public struct TableGrid: Hashable, Sendable {
  /// The boxes of the horizontal rules.
  public var horizontalRules: [PixelRect]
  /// The boxes of the vertical rules.
  public var verticalRules: [PixelRect]

  /// Creates a grid from its rules.
  public init(horizontalRules: [PixelRect], verticalRules: [PixelRect]) {
    self.horizontalRules = horizontalRules
    self.verticalRules = verticalRules
  }

  /// The box around every rule: the table.
  public var bounds: PixelRect? { PixelRect.union(horizontalRules + verticalRules) }

  /// The cell a point lies in: the number of horizontal rules above it and
  /// of vertical rules left of it.
  func cell(of point: Point) -> Cell {
    Cell(
      row: horizontalRules.count { Double($0.minY + $0.maxY) / 2 < point.y },
      column: verticalRules.count { Double($0.minX + $0.maxX) / 2 < point.x })
  }

  /// Whether a box sits in a cell of this grid: a horizontal rule above
  /// and one below it run across its centre, and at least three vertical
  /// rules run across its centre's height, one left of it and one right of
  /// it (a row of two cells or more: a box drawn round a sidebar is not a
  /// table).
  public func encloses(_ box: PixelRect) -> Bool {
    let c = box.center
    let across = horizontalRules.filter { Double($0.minX) <= c.x && c.x <= Double($0.maxX) }
    guard across.contains(where: { $0.maxY <= box.minY + 2 }),
      across.contains(where: { $0.minY >= box.maxY - 2 })
    else { return false }
    let row = verticalRules.filter { Double($0.minY) <= c.y && c.y <= Double($0.maxY) }
    return row.count >= 3 && row.contains { $0.maxX <= box.minX + 2 }
      && row.contains { $0.minX >= box.maxX - 2 }
  }

  struct Cell: Equatable {
    var row: Int
    var column: Int
  }
}

/// Table cells from a table's ruling lines.
///
/// Tesseract reads a ruled table column by column and makes one paragraph
/// of a column's cells ("Item / Flour / Water …"). Where the page has a
/// table grid (``TableGrid``, found by the rules step when horizontal and
/// vertical rules cross at least 20 times), every paragraph most of whose
/// lines sit in a cell (``TableGrid/encloses(_:)``: rules above, below,
/// left and right, in a row of two cells or more) is split at the rules:
/// the lines whose centres fall in one cell make one paragraph with the
/// role ``ParagraphRole/tableCell``. Rules elsewhere on the page (column
/// rules, frames round a photo or a sidebar) make no cells.
/// Without a grid (no rules, `--no-rules`, `--no-preprocess`) no paragraph
/// is a table cell: a grid of cells without rules is not told from columns.
public enum TableCells {
  /// The blocks with the paragraphs inside a table split into cells.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - grids: The page's table grids.
  /// - Complexity: O(*l* · *r*) in the lines and the rules.
  public static func splitting(_ blocks: [Block], grids: [TableGrid]) -> [Block] {
    guard !grids.isEmpty else { return blocks }
    return blocks.map { block in
      var b = block
      b.paragraphs = block.paragraphs.flatMap { paragraph -> [Paragraph] in
        let grid = grids.first { grid in
          2 * paragraph.lines.count { grid.encloses($0.bbox) } > paragraph.lines.count
        }
        guard let grid else { return [paragraph] }
        return cells(of: paragraph, in: grid)
      }
      return b
    }
  }

  /// A paragraph's lines grouped by the cell their centres lie in.
  static func cells(of paragraph: Paragraph, in grid: TableGrid) -> [Paragraph] {
    var out: [Paragraph] = []
    var lines: [TextLine] = []
    var current: TableGrid.Cell?
    func close() {
      guard let box = PixelRect.union(lines.map(\.bbox)) else { return }
      out.append(Paragraph(bbox: box, lines: lines, role: .tableCell))
      lines = []
    }
    for line in paragraph.lines {
      let cell = grid.cell(of: line.bbox.center)
      if let current, current != cell { close() }
      lines.append(line)
      current = cell
    }
    close()
    return out
  }
}
