/// Tables whose rows are joined by leaders: a contents page, a list of
/// figures, a price list. Each row is an entry, a leader (a row of dots or
/// dashes), and what the leader leads to (a page number, a price), set
/// flush at the measure's end.
///
/// A leader is a typesetter's mark for a table of two columns whose
/// entries are too far apart for the eye to cross the gap unaided: it
/// joins a row's two cells. A reader reads such a page row by row, entry
/// then number, and a table-reading tool holds it as a table of two
/// columns (the docling set's `redp5110_sampled` p2, its contents: 42 rows
/// of 2 cells). The aligned-whitespace tables (``AlignedTables``) miss it:
/// its entries are long, no column of short cells, and the page reads as
/// one paragraph of lines.
///
/// The evidence:
///
/// 1. **Rows**: a line with words on both sides of a leader that lies on
///    it (its middle within the line's height, between two of its words).
/// 2. **Runs**: rows less than 2.5 *h* apart (*h* the page's median word
///    height), the right cells ending at one edge (within *h*): the
///    numbers are set flush right. At least three rows.
/// 3. **Columns**: the entries left of the leaders, the numbers right of
///    them; the boundary between them lies right of every entry and left
///    of every number.
public enum LeaderTables {
  /// The tables on a page whose rows are joined by leaders.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels, with roles.
  ///   - leaders: The leaders' boxes, in the same pixels.
  ///   - excluding: Boxes already read as tables: their lines take no part.
  /// - Returns: The tables, top to bottom, as lattices of two columns.
  /// - Complexity: O(*l* · *d*) in the page's lines and leaders.
  public static func tables(
    in blocks: [Block], leaders: [PixelRect], excluding: [PixelRect] = []
  ) -> [RuledTable] {
    guard !leaders.isEmpty else { return [] }
    var lines: [TextLine] = []
    for paragraph in blocks.flatMap(\.paragraphs) {
      guard paragraph.cell == nil, paragraph.role != .tableCell,
        !paragraph.role.isPageFurniture
      else { continue }
      for line in paragraph.lines
      where !excluding.contains(where: { AlignedTables.contains($0, line.bbox.center) }) {
        lines.append(line)
      }
    }
    let heights = lines.flatMap(\.words).map(\.bbox.height).sorted()
    guard !heights.isEmpty else { return [] }
    let h = Double(heights[heights.count / 2])
    let rows = lines.compactMap { row(of: $0, leaders: leaders) }
      .sorted { $0.box.minY < $1.box.minY }
    var tables: [RuledTable] = []
    var run: [Row] = []
    func close() {
      if run.count >= 3, let table = lattice(run) { tables.append(table) }
      run = []
    }
    for row in rows {
      if let last = run.last {
        let apart = Double(row.box.minY - last.box.maxY) <= 2.5 * h
        let flush = Double(abs(row.right.maxX - last.right.maxX)) <= h
        if !apart || !flush { close() }
      }
      run.append(row)
    }
    close()
    return tables
  }

  /// A line joined by a leader: its words left and right of it.
  struct Row {
    var left: PixelRect
    var right: PixelRect
    var box: PixelRect
  }

  /// The line as a row, when a leader lies on it between two of its words.
  static func row(of line: TextLine, leaders: [PixelRect]) -> Row? {
    let box = line.bbox
    let words = line.words.sorted { $0.bbox.minX < $1.bbox.minX }
    for leader in leaders {
      let middle = Double(leader.minY + leader.maxY) / 2
      guard Double(box.minY) <= middle, middle < Double(box.maxY) else { continue }
      let x = Double(leader.minX + leader.maxX) / 2
      let left = words.filter { $0.bbox.center.x < x }.map(\.bbox)
      let right = words.filter { $0.bbox.center.x >= x }.map(\.bbox)
      guard let l = PixelRect.union(left), let r = PixelRect.union(right),
        l.maxX <= leader.maxX, r.minX >= leader.minX
      else { continue }
      return Row(left: l, right: r, box: box)
    }
    return nil
  }

  /// The cells of a run of rows: two columns split right of every entry
  /// and left of every number, rows split halfway between lines; `nil`
  /// when an entry reaches over a number.
  static func lattice(_ run: [Row]) -> RuledTable? {
    guard let entries = run.map(\.left.maxX).max(), let numbers = run.map(\.right.minX).min(),
      entries < numbers, let low = run.map(\.left.minX).min(),
      let high = run.map(\.right.maxX).max()
    else { return nil }
    let split = (entries + numbers) / 2
    var ys = [run[0].box.minY - 2]
    for (a, b) in zip(run, run.dropFirst()) { ys.append((a.box.maxY + b.box.minY) / 2) }
    ys.append(run[run.count - 1].box.maxY + 2)
    guard zip(ys, ys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
    let xs = [low - 2, split, high + 2]
    var cells: [RuledTable.Cell] = []
    for i in run.indices {
      for j in 0..<2 {
        cells.append(
          RuledTable.Cell(
            position: TableCellPosition(row: i, column: j),
            box: PixelRect(minX: xs[j], minY: ys[i], maxX: xs[j + 1], maxY: ys[i + 1])))
      }
    }
    return RuledTable(rows: run.count, columns: 2, cells: cells)
  }
}

extension TableCells {
  /// The blocks with every table whose rows are joined by leaders
  /// (``LeaderTables/tables(in:leaders:excluding:)``) read as its cells,
  /// row by row, from Tesseract's own words.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels, with roles.
  ///   - leaders: The leaders' boxes, in the same pixels.
  ///   - excluding: Boxes already read as tables.
  /// - Complexity: O(*w* · *c*) in the page's words and the tables' cells.
  public static func composingLeadered(
    _ blocks: [Block], leaders: [PixelRect], excluding: [PixelRect] = []
  ) -> [Block] {
    LeaderTables.tables(in: blocks, leaders: leaders, excluding: excluding).reduce(blocks) {
      blocks, table in
      guard let composed = composing(blocks, reading: AlignedTables.reading(of: table, in: blocks)),
        let bounds = table.bounds
      else { return blocks }
      // Every row is an entry joined to its number: none labels the
      // columns (``TableHeader`` takes front matter's roman page numbers
      // for words, and the rows over them for a header).
      return composed.map { block in
        var out = block
        for p in out.paragraphs.indices where out.paragraphs[p].role == .tableCell {
          guard AlignedTables.contains(bounds, out.paragraphs[p].bbox.center) else { continue }
          out.paragraphs[p].cell?.isHeader = false
        }
        return out
      }
    }
  }
}
