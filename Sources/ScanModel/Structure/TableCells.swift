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
        guard paragraph.cell == nil else { return [paragraph] }
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

extension TableCells {
  /// A ruled table read cell by cell: each cell's lines, recognised within
  /// the cell's box alone (empty when the cell holds no text).
  public struct Reading: Hashable, Sendable {
    /// The table whose cells were read.
    public var table: RuledTable
    /// Each cell's lines, in the order of ``RuledTable/cells``.
    public var cellLines: [[TextLine]]

    /// Creates a reading of a table's cells.
    public init(table: RuledTable, cellLines: [[TextLine]]) {
      self.table = table
      self.cellLines = cellLines
    }
  }

  /// The blocks with a table read cell by cell in place of what Tesseract
  /// read inside its cells.
  ///
  /// Every word whose centre lies in one of the table's cells leaves its
  /// line (a line that keeps words elsewhere shrinks to them; one that
  /// keeps none goes, and so do paragraphs and blocks left empty). The
  /// cells, row by row and left to right, become one block of
  /// ``ParagraphRole/tableCell`` paragraphs carrying their place
  /// (``Paragraph/cell``, header rows told by ``TableHeader``), put where the first word Tesseract read in the
  /// table was (else before the first block below the table's top). Text
  /// outside the cells is never a cell.
  ///
  /// The no-harm rule: the cells' reading replaces Tesseract's only when it
  /// reads at least as many words at confidence ≥
  /// ``ScanConventions/lowConfidenceThreshold`` as Tesseract read in the
  /// cells; otherwise this returns `nil` (and the caller keeps Tesseract's
  /// reading).
  /// - Parameters:
  ///   - blocks: The page's blocks, in the pixels the table's boxes are in.
  ///   - reading: The table and its cells' lines.
  ///   - ink: The page image's measures of the table's type and rules,
  ///     for its header rows (``TableHeader/rowCount(_:weights:rules:)``);
  ///     `nil` when the image is not looked at.
  /// - Returns: The blocks, or `nil` when the cells read worse.
  /// - Complexity: O(*w* · *c*) in the page's words and the table's cells.
  public static func composing(
    _ blocks: [Block], reading: Reading, ink: TableInk? = nil
  ) -> [Block]? {
    let table = reading.table
    guard let bounds = table.bounds else { return nil }
    let threshold = ScanConventions.lowConfidenceThreshold
    var replacedConfident = 0
    // Tesseract's own words in each cell, line by line.
    var own = Array(repeating: [TextLine](), count: table.cells.count)
    var firstTouched: Int?
    var out: [Block] = []
    func append(_ block: Block, _ paragraphs: [Paragraph]) {
      guard let box = PixelRect.union(paragraphs.map(\.bbox)) else { return }
      var b = block
      b.paragraphs = paragraphs
      b.bbox = box
      out.append(b)
    }
    for block in blocks {
      // The block's paragraphs before the first one that read part of the
      // table, and from there on: the table goes between them.
      var before: [Paragraph] = []
      var after: [Paragraph] = []
      var touched = false
      for paragraph in block.paragraphs {
        // A paragraph's lines above its first line in the table stay
        // before the table (a shop's name over a receipt's rows, read in
        // one paragraph with the first row: develop `receipts` 1005).
        var lines: [TextLine] = []
        var linesBefore: [TextLine] = []
        for line in paragraph.lines {
          let inside = line.words.filter { table.cell(at: $0.bbox.center) != nil }
          guard !inside.isEmpty else {
            lines.append(line)
            continue
          }
          if !touched {
            linesBefore = lines
            lines = []
          }
          touched = true
          replacedConfident += inside.count { ($0.confidence ?? 0) >= threshold }
          for k in table.cells.indices {
            let words = inside.filter { AlignedTables.contains(table.cells[k].box, $0.bbox.center) }
            if !words.isEmpty, var cut = trimming(line, to: words) {
              cut.words = cut.words.map(WordEnds.trimmed)
              own[k].append(cut)
            }
          }
          lines += remainders(of: line) { table.cell(at: $0.bbox.center) != nil }
        }
        if let box = PixelRect.union(linesBefore.map(\.bbox)) {
          var p = paragraph
          p.lines = linesBefore
          p.bbox = box
          before.append(p)
        }
        guard let box = PixelRect.union(lines.map(\.bbox)) else { continue }
        var p = paragraph
        p.lines = lines
        p.bbox = box
        if touched { after.append(p) } else { before.append(p) }
      }
      append(block, before)
      if touched, firstTouched == nil { firstTouched = out.count }
      append(block, after)
    }
    var cells: [Paragraph] = []
    var cellConfident = 0
    for (k, (cell, read)) in zip(table.cells, reading.cellLines).enumerated() {
      // The no-harm rule weighs the cells read alone: a table they read
      // worse stays Tesseract's as a whole, not cell by cell.
      cellConfident += read.reduce(0) { $0 + $1.words.count { ($0.confidence ?? 0) >= threshold } }
      let lines =
        keepsTesseract(own[k], over: read)
        ? own[k].sorted { ($0.bbox.minY, $0.bbox.minX) < ($1.bbox.minY, $1.bbox.minX) } : read
      guard let box = PixelRect.union(lines.map(\.bbox)) else { continue }
      cells.append(Paragraph(bbox: box, lines: lines, role: .tableCell, cell: cell.position))
    }
    // The rows that label the columns are header cells (``TableHeader``).
    let placed = cells.indices.filter { cells[$0].cell != nil }
    let header = TableHeader.marking(
      placed.compactMap { k in
        cells[k].cell.map {
          ($0, cells[k].lines.flatMap(\.words).map(\.text).joined(separator: " "))
        }
      },
      weights: ink.map { ink in
        placed.map { k in
          let known = cells[k].lines.flatMap(\.words).compactMap {
            TypeWeight.measure($0, stroke: ink.strokeWidth($0))?.weight
          }
          return known.isEmpty ? nil : RoleDetection.median(known)
        }
      },
      rules: ink?.ruledRows(placed.compactMap { k in cells[k].cell.map { ($0, cells[k].bbox) } }))
    for (k, position) in zip(placed, header) { cells[k].cell = position }
    guard cellConfident >= replacedConfident, let box = PixelRect.union(cells.map(\.bbox)) else {
      return nil
    }
    var at = firstTouched ?? out.firstIndex { $0.bbox.minY >= bounds.minY } ?? out.count
    // Columns are read left to right: text beside the table, wholly right
    // of it at its height, comes after the table even where Tesseract read
    // that text first (its lines ran across the table's rows into the
    // text, and the text, cut from them, was read as one column before
    // the table: develop `tables-1032`, a 2 × 3 grid beside a paragraph,
    // reading-order CER 0.204 against Tesseract's 0.160). Never before
    // text wholly above the table.
    if let beside = out.firstIndex(where: { isBeside($0.bbox, rightOf: bounds) }), beside < at {
      let above = out.lastIndex { $0.bbox.maxY <= bounds.minY } ?? -1
      at = min(at, max(beside, above + 1))
    }
    out.insert(Block(bbox: box, paragraphs: cells), at: at)
    return out
  }

  /// Whether a cell keeps Tesseract's own words rather than its reading
  /// alone: both hold as many words, their texts differ, and Tesseract's
  /// least confident word there is more confident than the reading's.
  ///
  /// Why: a cell read alone is most often right where the page's reading
  /// is not (decimals and signs at a line's scale), but not always: on
  /// develop `tables-1055` three cells read alone `97.10`, `976.94`,
  /// `9.43` at confidence 62–70 where the page's reading had `57.10`,
  /// `576.94`, `5.43` at 83–97 (word recall 0.906 against Tesseract's 1);
  /// on `tables-1012` `941.791` (72) against `541.791` (96). On the 61
  /// fully ruled develop pages of 1000–1099 (1958 cells; the page's
  /// reading taken from `--layout tesseract`), the two differ in 31 cells:
  /// this picks the page's words in those 4 (all right) and in none of
  /// the 24 the reading alone reads right (the page's misreadings there,
  /// `2003.`, `Code’`, `_Teasel`, `+307`, come with a word under 48). A
  /// cell whose words the two count differently keeps its reading alone
  /// (a line of the page's reading ran across cells, or joined words).
  static func keepsTesseract(_ own: [TextLine], over read: [TextLine]) -> Bool {
    let mine = own.flatMap(\.words)
    let alone = read.flatMap(\.words)
    guard !mine.isEmpty, mine.count == alone.count, mine.map(\.text) != alone.map(\.text) else {
      return false
    }
    let least = { (words: [Word]) in words.map { $0.confidence ?? 0 }.min() ?? 0 }
    return least(mine) > least(alone)
  }

  /// Whether a box lies wholly right of a table's box and shares some of
  /// its height (text beside the table).
  static func isBeside(_ box: PixelRect, rightOf table: PixelRect) -> Bool {
    box.minX >= table.maxX && box.minY < table.maxY && box.maxY > table.minY
  }

  /// What a line keeps of its words outside a table: one line per run of
  /// words no taken word interrupts (`taken` tells the table's).
  ///
  /// Why: a line Tesseract read across the table's edge on both sides (a
  /// list item's marker left of the cells, its end right of them,
  /// docling's `redp5110` p12) kept as one line spans the cells taken
  /// from it, and its selection overlaps theirs (`verify`:
  /// `selectionsOverlap`). Each side is its own line, whose box is its
  /// words'.
  /// - Complexity: O(*w*) in the line's words.
  static func remainders(of line: TextLine, taken: (Word) -> Bool) -> [TextLine] {
    var runs: [[Word]] = [[]]
    for word in line.words {
      if taken(word) {
        if !(runs.last?.isEmpty ?? true) { runs.append([]) }
      } else {
        runs[runs.count - 1].append(word)
      }
    }
    return runs.filter { !$0.isEmpty }.compactMap { trimming(line, to: $0) }
  }

  /// A line cut down to some of its words (`nil` when none is left): its
  /// box theirs, its baseline cut to their extent.
  static func trimming(_ line: TextLine, to words: [Word]) -> TextLine? {
    guard words.count < line.words.count else { return line }
    guard let box = PixelRect.union(words.map(\.bbox)) else { return nil }
    let baseline = line.baseline.map { b -> Baseline in
      let dx = b.end.x - b.start.x
      func at(_ x: Double) -> Point {
        Point(
          x: x, y: dx == 0 ? b.start.y : b.start.y + (b.end.y - b.start.y) * (x - b.start.x) / dx)
      }
      return Baseline(start: at(Double(box.minX)), end: at(Double(box.maxX)))
    }
    return TextLine(bbox: box, baseline: baseline, words: words)
  }
}
