/// Tables without a grid of rules (not ruled, or ruled only across) found
/// from the whitespace their columns leave, and read from Tesseract's own
/// words cell by cell, row by row.
///
/// Tesseract's page layout reads such a table column by column, or a row
/// at a time into lines that run across the columns: its words are right,
/// their order is not (reading-order CER 0.33 on the unruled pages of the
/// `tables` family's checking seeds 9000–9039). The cells here hold exactly
/// the words Tesseract read, so nothing of a cell can be lost: only the
/// order changes, and every word is in one cell or outside the table.
///
/// The evidence, from how tables and prose behave (measured on the
/// `tables` family's develop seeds 1000–1049 and on the `columns`,
/// `headings` and `misc` develop seeds 1000–1019):
///
/// 1. **Segments**: a line breaks where the space between two words is
///    wider than the page's median word height *h* (a space between words
///    of running text is about a third of it, a justified line's widest
///    well under one; the gap between two table columns is at least the
///    cells' padding, about 1.3 *h* on the generated tables).
/// 2. **Rows**: segments whose baselines lie within 0.3 *h* of each other.
/// 3. **Runs**: consecutive rows, less than 2.5 *h* apart, that keep the
///    columns apart: the x-extents of their segments, merged where they
///    overlap (or lie closer than *h* / 2), are the columns, and a row that
///    would merge two columns (a line of the paragraph above or below,
///    which runs across the whole width) ends the run, unless it keeps
///    most of the gaps (`keepsMostGaps`). The table's
///    columns come from the segments that keep the gaps most rows keep
///    (`crossesKeptGap`).
/// 4. **Columns of a table**: a column joins the table's columns left of it
///    when at least 70 % of the segments of the one with fewer segments (it
///    or those columns together) sit on the baseline of a segment of the
///    other (within 0.15 *h*): cells of a
///    row stand on one baseline. Prose beside a table has its own line
///    pitch and meets the table's baselines only by chance (a table
///    beside a column of text is cut at the text). At least two of the
///    table's columns must be short (half their entries, a row's words in
///    the column, one or two words, and fewer than a third lines of three
///    words or more that fill the column's width): two columns of running
///    text on a page keep their baselines in step, but their lines are
///    longer and fill their width; a list has one short column, its
///    markers, beside long items.
/// 5. **No prose**: no Tesseract paragraph that holds part of the table
///    has a line elsewhere that runs over a gap between its columns, and
///    at least three rows fill two columns or more.
/// 6. **Rows of the table**: a row whose segments lie only in columns the
///    row above also fills, fewer than all of them, within 2.1 *h* of it
///    (the pitch of a cell's lines; a new table row is further down by
///    the cells' padding), and keep their columns' alignment
///    (`columnAlignments(_:columns:h:range:)`), continues the cells of
///    that row (a cell of several lines). At least three table rows.
///
/// 7. **No listing**: most rows that tell their face are set at a fixed
///    pitch while the page's text is not (`isListing(_:h:pageFaces:)`):
///    a code listing's lines leave columns too, and are no table.
///
/// The first two rows of a run may hold a header cell that spans columns
/// (a group title over two columns): the columns come from the rows below
/// them, and a header segment that runs over a column gap makes one cell
/// spanning those columns.
public enum AlignedTables {
  /// The tables on a page found from aligned whitespace, as lattices of
  /// cells whose boxes meet halfway between the columns and rows (so every
  /// word of the table lies in exactly one cell). A line called a running
  /// head that lines up with a table's columns directly above it is the
  /// table's header row (`AlignedTables.withHeaderRow`).
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels, with roles.
  ///   - excluding: Boxes already read as tables (ruled grids): their words
  ///     take no part.
  /// - Returns: The tables, top to bottom.
  /// - Complexity: O(*w* log *w* + *r* · *s*) in the words, rows and segments.
  public static func tables(in blocks: [Block], excluding: [PixelRect] = []) -> [RuledTable] {
    let found = tablesWithoutFurniture(in: blocks, excluding: excluding)
    let paragraphs = blocks.flatMap(\.paragraphs)
    let heights = paragraphs.flatMap(\.lines).flatMap(\.words).map(\.bbox.height).sorted()
    guard !heights.isEmpty else { return found }
    let h = Double(heights[heights.count / 2])
    let heads = paragraphs.filter { $0.role == .header }.flatMap(\.lines)
    let words = paragraphs.filter { $0.role != .header }.flatMap(\.lines).flatMap(\.words)
    return found.map { table in
      let row = heads.filter { isHeaderLine($0, of: table, h: h) }
      return withHeaderRow(row, of: table, words: words, h: h) ?? table
    }
  }

  /// Whether a line the role rule calls a running head
  /// (``ParagraphRole/header``) may be part of a table's header row: it
  /// lies directly above the table (its top above the table's, its foot no
  /// more than 2.5 *h* over it, the distance of the table's own rows; no
  /// word's middle in a cell), within its width, and each of its segments
  /// (``segments(of:h:)``) lies over one of the table's columns.
  static func isHeaderLine(_ line: TextLine, of table: RuledTable, h: Double) -> Bool {
    guard let bounds = table.bounds, line.bbox.minY < bounds.minY,
      Double(bounds.minY - line.bbox.maxY) <= 2.5 * h,
      line.words.allSatisfy({ $0.bbox.center.y < Double(bounds.minY) }),
      Double(line.bbox.minX) >= Double(bounds.minX) - h,
      Double(line.bbox.maxX) <= Double(bounds.maxX) + h
    else { return false }
    return segments(of: [(line, 0)], h: h).allSatisfy {
      column(of: table, over: $0.box, slack: h / 2) != nil
    }
  }

  /// The table with `lines` (``isHeaderLine(_:of:h:)``) as its header
  /// row, when their segments lie over two columns or more and at least
  /// half of them; `nil` otherwise.
  ///
  /// Why: the role rule tells a running head from its place (the page's
  /// top band) and the space that sets it apart; a table that fills a
  /// crop (PubTabNet's `PMC4682394_003_00`: "Presenting complaints  N
  /// *Pulse  *BP …" over its columns) has its header row there, and it
  /// was left out of the table. A running head is set apart from what
  /// follows and does not break where the columns below it break.
  ///
  /// The header row labels the columns one by one, so it shows where they
  /// are: two header segments over one column of the body are two columns
  /// the body joined (Tesseract read their cells as one stretch of words,
  /// `9964 (30.6)` and `9645 (30.6)` under "*Pulse" and "*BP"), and the
  /// column is split in the gap between them, where no word of the body
  /// lies across (``splitting(_:column:at:)``). The first row below
  /// continues the header cells when it fills only columns the header
  /// fills, fewer than all, within 2.1 *h* of it (a header cell of two
  /// lines, "N" over "(% of total sample …)"), as a row continues the row
  /// above in ``lattice(_:columns:h:)``; else the header is a row of its
  /// own.
  /// - Parameters:
  ///   - lines: The header lines above the table.
  ///   - table: A table found from aligned whitespace.
  ///   - words: The words of the page outside `lines`.
  ///   - h: The page's median word height.
  /// - Complexity: O(*c* · *w*) in the table's cells and the words.
  static func withHeaderRow(
    _ lines: [TextLine], of table: RuledTable, words: [Word], h: Double
  ) -> RuledTable? {
    guard let bounds = table.bounds, let top = lines.map(\.bbox.minY).min() else { return nil }
    let heads = segments(of: lines.map { ($0, 0) }, h: h)
    guard Set(heads.compactMap { column(of: table, over: $0.box, slack: h / 2) }).count >= 2
    else { return nil }
    let inside = words.filter { table.cell(at: $0.bbox.center) != nil }
    var out = table
    // Columns split where two header segments over one column leave a
    // gap no word of the body lies across; right to left, so the
    // columns left of a split keep their numbers.
    for k in (0..<table.columns).reversed() {
      let over = heads.filter { column(of: table, over: $0.box, slack: h / 2) == k }
        .sorted { $0.box.minX < $1.box.minX }
      for (a, b) in zip(over, over.dropFirst()).reversed() {
        let across = inside.filter { word in
          word.bbox.maxX > a.box.maxX && word.bbox.minX < b.box.minX
            && out.cells.contains {
              $0.position.column == k && $0.position.columnSpan == 1
                && contains($0.box, word.bbox.center)
            }
        }
        if let x = freeMiddle(from: a.box.maxX, to: b.box.minX, leaving: across.map(\.bbox)) {
          out = splitting(out, column: k, at: x)
        }
      }
    }
    let over = Set(heads.compactMap { column(of: out, over: $0.box, slack: h / 2) })
    guard over.count >= 2, 2 * over.count >= out.columns else { return nil }
    var edges: [(low: Int, high: Int)] = []
    for k in 0..<out.columns {
      let boxes = out.cells.filter { $0.position.column == k && $0.position.columnSpan == 1 }
        .map(\.box)
      guard let low = boxes.map(\.minX).min(), let high = boxes.map(\.maxX).max() else {
        return nil
      }
      edges.append((low, high))
    }
    let left = min(bounds.minX, (lines.map(\.bbox.minX).min() ?? bounds.minX) - 2)
    let right = max(bounds.maxX, (lines.map(\.bbox.maxX).max() ?? bounds.maxX) + 2)
    func widened(_ cell: RuledTable.Cell) -> RuledTable.Cell {
      var c = cell
      if c.position.column == 0 { c.box.minX = min(c.box.minX, left) }
      if c.position.column + c.position.columnSpan == out.columns {
        c.box.maxX = max(c.box.maxX, right)
      }
      return c
    }
    // The first row continues the header cells (a header cell of two lines).
    let firstRow = out.cells.filter { $0.position.row == 0 }
    let filled = Set(
      firstRow.filter { cell in inside.contains { contains(cell.box, $0.bbox.center) } }
        .flatMap { $0.position.column..<($0.position.column + $0.position.columnSpan) })
    let baseline = { (line: TextLine) in
      line.baseline.map { ($0.start.y + $0.end.y) / 2 } ?? Double(line.bbox.maxY)
    }
    let below = words.filter { word in firstRow.contains { contains($0.box, word.bbox.center) } }
    let headBaseline = lines.map(baseline).max() ?? Double(top)
    let firstBaseline = below.map { Double($0.bbox.maxY) }.min() ?? .infinity
    if filled.isSubset(of: over), filled.count < out.columns,
      firstBaseline - headBaseline <= 2.1 * h
    {
      out.cells = out.cells.map { cell in
        var c = cell
        if c.position.row == 0 { c.box.minY = top - 2 }
        return widened(c)
      }
      return out
    }
    // Group titles over the first row (``headerTitles(_:under:extents:h:)``),
    // placed against the columns' extents in the rows under it.
    let extents = (0..<out.columns).map { k -> ClosedRange<Int> in
      let boxes = inside.filter { word in
        out.cells.contains {
          $0.position.row >= 1 && $0.position.column == k && $0.position.columnSpan == 1
            && contains($0.box, word.bbox.center)
        }
      }.map(\.bbox)
      guard let low = boxes.map(\.minX).min(), let high = boxes.map(\.maxX).max() else {
        return edges[k].low...edges[k].high
      }
      return low...high
    }
    func range(_ box: PixelRect) -> ClosedRange<Int> {
      let over = extents.indices.filter {
        extents[$0].lowerBound <= box.maxX && box.minX <= extents[$0].upperBound
      }
      if let a = over.first, let b = over.last { return a...b }
      let nearest =
        extents.indices.min {
          abs(extents[$0].lowerBound - box.minX) < abs(extents[$1].lowerBound - box.minX)
        } ?? 0
      return nearest...nearest
    }
    var titles = headerTitles(
      heads.map { ($0.box, range($0.box)) }, under: filled, extents: extents, h: h)
    // A header beside the titles spans the first row too, down over its
    // empty cell in that column.
    let down = Set((0..<out.columns).filter { !filled.contains($0) })
    if firstRow.contains(where: { cell in
      let columns = Set(cell.position.column..<(cell.position.column + cell.position.columnSpan))
      return !columns.isDisjoint(with: down) && !columns.isSubset(of: down)
    }) {
      titles = []
    }
    let firstBottom = firstRow.map(\.box.maxY).max() ?? bounds.minY
    out.rows += 1
    var header: [RuledTable.Cell] = []
    var k = 0
    while k < out.columns {
      let span = titles.first { $0.contains(k) } ?? k...k
      let spansDown = !titles.isEmpty && down.contains(k)
      header.append(
        RuledTable.Cell(
          position: TableCellPosition(
            row: 0, column: k, rowSpan: spansDown ? 2 : 1, columnSpan: span.count),
          box: PixelRect(
            minX: edges[span.lowerBound].low, minY: top - 2, maxX: edges[span.upperBound].high,
            maxY: spansDown ? firstBottom : bounds.minY)))
      k = span.upperBound + 1
    }
    let body = out.cells.filter { cell in
      titles.isEmpty || cell.position.row != 0 || !down.contains(cell.position.column)
    }
    out.cells =
      (header
      + body.map { cell in
        var moved = cell
        moved.position.row += 1
        return moved
      }).map(widened)
    return out
  }

  /// The middle of the widest stretch of `low..<high` that no box of
  /// `boxes` lies across, at least one pixel wide; `nil` when there is none.
  static func freeMiddle(from low: Int, to high: Int, leaving boxes: [PixelRect]) -> Int? {
    var free = [(low, high)]
    for box in boxes {
      free = free.flatMap { a, b -> [(Int, Int)] in
        guard box.maxX > a, box.minX < b else { return [(a, b)] }
        return [(a, box.minX), (box.maxX, b)].filter { $0.0 < $0.1 }
      }
    }
    guard let widest = free.max(by: { $0.1 - $0.0 < $1.1 - $1.0 }) else { return nil }
    return (widest.0 + widest.1) / 2
  }

  /// A table with column `k` split at `x`: its cells one column wide cut
  /// there, the cells spanning it one column wider, the columns right of
  /// it one further right.
  static func splitting(_ table: RuledTable, column k: Int, at x: Int) -> RuledTable {
    var out = table
    out.columns += 1
    out.cells = table.cells.flatMap { cell -> [RuledTable.Cell] in
      var c = cell
      let p = cell.position
      if p.column > k {
        c.position.column += 1
        return [c]
      }
      guard p.column + p.columnSpan > k else { return [c] }
      guard p.columnSpan == 1 else {
        c.position.columnSpan += 1
        return [c]
      }
      var right = c
      c.box.maxX = x
      right.box.minX = x
      right.position.column += 1
      return [c, right]
    }
    return out
  }

  /// The column of a table a box lies over: within the column's cells
  /// (those one column wide) but `slack`, the table's outer edges open (a
  /// header wider than its column runs past the table's side). `nil` when
  /// it lies over none or over more than one.
  /// - Complexity: O(*c*) in the table's cells.
  static func column(of table: RuledTable, over box: PixelRect, slack: Double) -> Int? {
    let found = (0..<table.columns).filter { k in
      let boxes = table.cells.filter { $0.position.column == k && $0.position.columnSpan == 1 }
        .map(\.box)
      guard let low = boxes.map(\.minX).min(), let high = boxes.map(\.maxX).max() else {
        return false
      }
      return (k == 0 || Double(box.minX) >= Double(low) - slack)
        && (k == table.columns - 1 || Double(box.maxX) <= Double(high) + slack)
    }
    return found.count == 1 ? found.first : nil
  }

  /// The tables on a page found from aligned whitespace, page furniture
  /// taking no part, and marginalia only where they are columns of a
  /// table found without them (`marginalColumns(_:beside:lines:h:)`).
  static func tablesWithoutFurniture(in blocks: [Block], excluding: [PixelRect]) -> [RuledTable] {
    var lines: [(line: TextLine, paragraph: Int)] = []
    var margins: [(line: TextLine, paragraph: Int)] = []
    for (p, paragraph) in blocks.flatMap(\.paragraphs).enumerated() {
      guard paragraph.cell == nil, paragraph.role != .tableCell,
        !paragraph.role.isPageFurniture
      else { continue }
      for line in paragraph.lines {
        let c = line.bbox.center
        if excluding.contains(where: { contains($0, c) }) { continue }
        if paragraph.role == .marginalia {
          margins.append((line, p))
        } else {
          lines.append((line, p))
        }
      }
    }
    let found = tables(from: lines)
    guard !found.isEmpty, !margins.isEmpty else { return found }
    let heights = lines.flatMap(\.line.words).map(\.bbox.height).sorted()
    let h = Double(heights[heights.count / 2])
    let joining = marginalColumns(margins, beside: found, lines: lines, h: h)
    guard !joining.isEmpty else { return found }
    // Read again with those columns: kept when every table found before
    // lies within one found now with more columns.
    let again = tables(from: lines + joining, measuredOn: lines)
    let keeps = found.allSatisfy { old in
      guard let bounds = old.bounds else { return false }
      return again.contains { new in
        guard let box = new.bounds else { return false }
        return new.columns > old.columns && box.intersection(bounds) == bounds
      }
    }
    return keeps ? again : found
  }

  /// The lines the role rule calls marginalia that are a column of one of
  /// `tables` (read from `lines`): lines beside the table (left of its
  /// left edge or right of its right, within its top and bottom), each
  /// standing on the baseline of a line in the table (within 0.15 *h*,
  /// never under 1.5 px), in columns (lines whose extents overlap) of at
  /// least three such lines. They join the page's lines and the tables
  /// are found again; a column joins a table only as rule 4 of
  /// ``AlignedTables`` lets any column join.
  ///
  /// Why: the role rule calls a narrow block at the page's side a margin
  /// note, from its place and width; a crop that is all table
  /// (PubTabNet's `PMC1626454_002_00`, twelve columns) has its last
  /// columns of short numbers there, read by Tesseract as blocks of their
  /// own, and the table lost them. A margin note has its own lines and
  /// pitch; a table's column stands on the rows of the table beside it,
  /// cell by cell, as the table's own columns do (rule 4 of
  /// ``AlignedTables``).
  /// - Complexity: O(*m* · *l*) in the marginal lines and the tables' lines.
  static func marginalColumns(
    _ margins: [(line: TextLine, paragraph: Int)], beside tables: [RuledTable],
    lines: [(line: TextLine, paragraph: Int)], h: Double
  ) -> [(line: TextLine, paragraph: Int)] {
    let slack = max(0.15 * h, 1.5)
    func baseline(_ line: TextLine) -> Double {
      line.baseline.map { ($0.start.y + $0.end.y) / 2 } ?? Double(line.bbox.maxY)
    }
    var joining: [(line: TextLine, paragraph: Int)] = []
    for table in tables {
      guard let bounds = table.bounds else { continue }
      let rows = lines.filter { entry in
        entry.line.words.contains { word in table.cell(at: word.bbox.center) != nil }
      }.map { baseline($0.line) }
      let beside = margins.filter { margin in
        let box = margin.line.bbox
        let c = box.center
        guard Double(bounds.minY) <= c.y, c.y < Double(bounds.maxY),
          box.minX >= bounds.maxX || box.maxX <= bounds.minX
        else { return false }
        let own = baseline(margin.line)
        return rows.contains { abs($0 - own) <= slack }
      }
      var columns: [(span: ClosedRange<Int>, members: [Int])] = []
      for (i, margin) in beside.enumerated() {
        let span = margin.line.bbox.minX...margin.line.bbox.maxX
        if let k = columns.firstIndex(where: { $0.span.overlaps(span) }) {
          columns[k].span =
            min(
              columns[k].span.lowerBound, span.lowerBound)...max(
              columns[k].span.upperBound, span.upperBound)
          columns[k].members.append(i)
        } else {
          columns.append((span, [i]))
        }
      }
      for column in columns where column.members.count >= 3 {
        joining += column.members.map { beside[$0] }
      }
    }
    return joining
  }

  /// The tables the lines hold (the steps of ``AlignedTables``), with
  /// `measured`'s median word height (default: the lines' own).
  static func tables(
    from lines: [(line: TextLine, paragraph: Int)],
    measuredOn measured: [(line: TextLine, paragraph: Int)]? = nil
  ) -> [RuledTable] {
    let heights = (measured ?? lines).flatMap(\.line.words).map(\.bbox.height).sorted()
    guard heights.count >= 6 else { return [] }
    let h = Double(heights[heights.count / 2])
    guard h > 0 else { return [] }
    let pitch = FixedPitch.pitch(lines.map(\.line))
    let gap = columnGap(h: h, pitch: pitch)
    let all = segments(of: lines, h: h, gap: gap)
    let rows = Self.rows(of: all, h: h, joiningWithin: pitch == nil ? nil : gap)
    var byParagraph: [Int: [Segment]] = [:]
    for segment in all { byParagraph[segment.paragraph, default: []].append(segment) }
    let faces = FixedPitch.counts(lines.lazy.flatMap(\.line.words))
    var tables: [RuledTable] = []
    var i = 0
    while i < rows.count {
      var run = [rows[i]]
      var columns = merged(rows[i].segments.map(\.span), slack: h / 2)
      var j = i + 1
      while j < rows.count {
        let row = rows[j]
        guard Double(row.top - run[run.count - 1].bottom) <= 2.5 * h else { break }
        let grown = merged(columns + row.segments.map(\.span), slack: h / 2)
        guard grown.count >= columns.count || keepsMostGaps(row, columns: columns, h: h)
        else { break }
        run.append(row)
        columns = grown
        j += 1
      }
      guard let table = table(run, h: h, byParagraph: byParagraph, pageFaces: faces) else {
        i += 1
        continue
      }
      if let k = lastHeadRowBesideTheTable(table, in: run) {
        // The run is read again from the row under it.
        i += k + 1
        continue
      }
      guard let end = firstRowPastTheSides(of: table, in: run, h: h) else {
        tables.append(table)
        i = j
        continue
      }
      // The table ends above that row; the rows from it on are read
      // again as the start of another run.
      if let above = Self.table(
        Array(run[..<end]), h: h, byParagraph: byParagraph, pageFaces: faces)
      {
        tables.append(above)
        i += end
      } else {
        i += 1
      }
    }
    return tables
  }

  /// The indices of the rows of `run` from the table's first row down
  /// (the rows above it, a caption or prose the table was trimmed of,
  /// are not its head rows).
  static func rowsFromItsTop(of run: [Row], in bounds: PixelRect) -> [Int] {
    run.indices.filter { run[$0].bottom > bounds.minY }
  }

  /// The last of the table's first two rows in `run` that is one segment
  /// over a side of `table` whose middle lies outside it: a caption over
  /// the table, not a row of it. A header row labels columns (two or more
  /// segments); a title over columns is centred over them, or starts at
  /// the first, and its middle lies over them. (A caption centred over a
  /// table whose columns right of a page's column gutter Tesseract read
  /// as a block of their own, so that only the left columns were found:
  /// made a cell, the caption was cut in two at their side. A header row
  /// whose group title lies over columns not found, PubTabNet's
  /// `PMC3519711_003_00`, stays the table's.)
  /// - Complexity: O(*s*) in the two rows' segments.
  static func lastHeadRowBesideTheTable(_ table: RuledTable, in run: [Row]) -> Int? {
    guard let bounds = table.bounds else { return nil }
    return rowsFromItsTop(of: run, in: bounds).prefix(2).last { k in
      run[k].segments.count == 1
        && run[k].segments.contains {
          let middle = ($0.box.minX + $0.box.maxX) / 2
          return $0.box.minX < bounds.maxX && $0.box.maxX > bounds.minX
            && (middle < bounds.minX || middle >= bounds.maxX)
        }
    }
  }

  /// The first row of `run` below the table's first two (which may hold a header
  /// wider than the columns under it) with a segment over the table that
  /// reaches past its side by more than *h* (prose wholly beside the
  /// table, which a table is cut at, does not count): a line of prose under or between
  /// tables, not a row. A table is as wide as its widest row, so only a
  /// segment over the gaps most rows keep (a cell spanning columns,
  /// ``crossesKeptGap(_:row:in:)``) can reach past it, and a cell
  /// spanning columns lies over them; made a cell, such a line was cut
  /// in two at the table's side (a form's two columns of labels and
  /// boxes, run on through the paragraph under them, whose first line
  /// was read as two paragraphs).
  /// - Complexity: O(*s*) in the run's segments.
  static func firstRowPastTheSides(of table: RuledTable, in run: [Row], h: Double) -> Int? {
    guard let bounds = table.bounds else { return nil }
    return rowsFromItsTop(of: run, in: bounds).dropFirst(2).first { k in
      run[k].segments.contains {
        $0.box.minX < bounds.maxX && $0.box.maxX > bounds.minX
          && (Double($0.box.minX) < Double(bounds.minX) - h
            || Double($0.box.maxX) > Double(bounds.maxX) + h)
      }
    }
  }

  /// A table read from the words Tesseract read inside its cells: each
  /// cell's lines, cut down to the words whose centres lie in it, top to
  /// bottom.
  /// - Complexity: O(*l* · *c*) in the page's lines and the table's cells.
  public static func reading(of table: RuledTable, in blocks: [Block]) -> TableCells.Reading {
    let lines = blocks.flatMap(\.paragraphs).flatMap(\.lines)
    let cellLines = table.cells.map { cell -> [TextLine] in
      lines.compactMap { line -> TextLine? in
        let words = line.words.filter { contains(cell.box, $0.bbox.center) }
        guard !words.isEmpty, var cut = TableCells.trimming(line, to: words) else { return nil }
        cut.words = cut.words.map(WordEnds.trimmed)
        return cut
      }.sorted { ($0.bbox.minY, $0.bbox.minX) < ($1.bbox.minY, $1.bbox.minX) }
    }
    return TableCells.Reading(table: table, cellLines: cellLines)
  }

  /// Whether a point lies in a box (half-open).
  static func contains(_ box: PixelRect, _ p: Point) -> Bool {
    Double(box.minX) <= p.x && p.x < Double(box.maxX) && Double(box.minY) <= p.y
      && p.y < Double(box.maxY)
  }

  /// Words of one line with no gap wider than *h* between them.
  struct Segment {
    var words: [Word]
    var box: PixelRect
    var baseline: Double
    /// The index of the Tesseract paragraph its line is in.
    var paragraph: Int
    var span: ClosedRange<Int> { box.minX...box.maxX }
  }

  /// Segments on one baseline.
  struct Row {
    var baseline: Double
    var segments: [Segment]
    var top: Int { segments.map(\.box.minY).min() ?? 0 }
    var bottom: Int { segments.map(\.box.maxY).max() ?? 0 }
  }

  /// The narrowest space between two words that may part a table's
  /// columns (step 1): wider than the page's median word height *h*, and
  /// on a page set in a fixed-pitch face (a receipt, a typewritten page)
  /// wider than one space too. There a space is one advance, and the gap
  /// between two words' ink an advance and the glyphs' side bearings,
  /// 1.2–1.4 advances, more than *h* (`receipts-9101`: 17–19 px between
  /// the words of "202 Mill Road", *h* = 16, advance 14.4); two spaces,
  /// the least a column is set apart by, leave two advances or more.
  /// - Parameters:
  ///   - h: The page's median word height.
  ///   - pitch: The advance of the page's fixed-pitch face
  ///     (``FixedPitch/pitch(_:)``), `nil` on a page set in a
  ///     proportional face.
  static func columnGap(h: Double, pitch: Double?) -> Double {
    max(h, 1.9 * (pitch ?? 0))
  }

  static func segments(
    of lines: [(line: TextLine, paragraph: Int)], h: Double, gap: Double? = nil
  ) -> [Segment] {
    let gap = gap ?? h
    var out: [Segment] = []
    for (line, paragraph) in lines {
      let baseline =
        line.baseline.map { ($0.start.y + $0.end.y) / 2 } ?? Double(line.bbox.maxY)
      var words: [Word] = []
      func close() {
        guard let box = PixelRect.union(words.map(\.bbox)) else { return }
        out.append(Segment(words: words, box: box, baseline: baseline, paragraph: paragraph))
        words = []
      }
      for word in line.words.sorted(by: { $0.bbox.minX < $1.bbox.minX }) {
        if let last = words.last, Double(word.bbox.minX - last.bbox.maxX) > gap { close() }
        words.append(word)
      }
      close()
    }
    return out
  }

  /// Segments on one baseline (within 0.3 *h*), top to bottom, each
  /// row's left to right; with `joiningWithin`, those of a row no further
  /// apart joined (``joined(_:gap:)``).
  ///
  /// Only on a page set at a fixed pitch: joined within *h* on every page,
  /// the lines of a proportional listing set close (camelot
  /// `tabula/m27.pdf`, "EXPRESSJET AIRLINES INC" against "WILL ROGERS
  /// AIRPORT") lost their columns: 12 → 5 of 291 cells right.
  static func rows(of segments: [Segment], h: Double, joiningWithin gap: Double? = nil) -> [Row] {
    var rows: [Row] = []
    for segment in segments.sorted(by: { $0.baseline < $1.baseline }) {
      if let last = rows.last, abs(segment.baseline - last.baseline) <= 0.3 * h {
        rows[rows.count - 1].segments.append(segment)
      } else {
        rows.append(Row(baseline: segment.baseline, segments: [segment]))
      }
    }
    for i in rows.indices {
      rows[i].segments.sort { $0.box.minX < $1.box.minX }
      if let gap { rows[i].segments = joined(rows[i].segments, gap: gap) }
    }
    return rows
  }

  /// A row's segments, sorted left to right, with those no more than
  /// `gap` apart joined: a line breaks only at a wider space (step 1),
  /// whether or not Tesseract read the words as one line. Tesseract's own
  /// layout splits lines at tab stops it guesses: on `receipts-9101` (a
  /// receipt in a fixed-pitch face) it read "202 Mill Road" and "TEL 701
  /// 2326" as six lines, one word each, a space apart, whose places
  /// matched letter for letter, and they made three columns of a table
  /// over the receipt's items and prices.
  /// - Complexity: O(*s*) in the row's segments.
  static func joined(_ segments: [Segment], gap: Double) -> [Segment] {
    var out: [Segment] = []
    for segment in segments {
      if let last = out.last, Double(segment.box.minX - last.box.maxX) <= gap {
        out[out.count - 1].words += segment.words
        out[out.count - 1].box = last.box.union(segment.box)
      } else {
        out.append(segment)
      }
    }
    return out
  }

  /// Whether a row that runs over gaps between the columns found so far
  /// still keeps most of them: it runs over at most a third of the gaps,
  /// and has three segments or more. Such a row stays in the run.
  ///
  /// Why: a column boundary is a gap that runs through most rows, not
  /// every row. Two cells of a row set close, or read by Tesseract as one
  /// word across the gap (`eh (aT (93)` over two columns of PubTabNet's
  /// `PMC4682394_003_00`, letters 6 px high), join two columns in that
  /// row only, as a header over two columns joins them in the header
  /// rows (`Male` beside `95% CI` in `PMC5402779_004_00`); ending the run
  /// there cut tables into pieces too short to be tables, or cut off
  /// their header. A line of prose runs over every gap (one or two
  /// segments), and so still ends the run. Which segments run over a
  /// gap most rows keep is decided once the run is whole
  /// (``crossesKeptGap(_:row:in:)``).
  /// - Complexity: O(*s* · *c*) in the row's segments and the columns.
  static func keepsMostGaps(_ row: Row, columns: [ClosedRange<Int>], h: Double) -> Bool {
    guard columns.count >= 2, row.segments.count >= 3 else { return false }
    let gaps = zip(columns, columns.dropFirst()).map { ($0.upperBound, $1.lowerBound) }
    let crossed = gaps.count { gap in
      row.segments.contains { segment in
        Double(segment.span.lowerBound) <= Double(gap.0) + h / 2
          && Double(segment.span.upperBound) >= Double(gap.1) - h / 2
      }
    }
    return crossed >= 1 && 3 * crossed <= gaps.count
  }

  /// Whether a segment runs over a gap between columns that most rows
  /// keep: of the other rows of the run with a segment over its extent,
  /// more than half have two segments or more there (and at least two
  /// such rows). Such segments take no part in finding the columns; they
  /// become cells spanning the columns they lie over.
  /// - Parameters:
  ///   - segment: A segment of the run.
  ///   - row: The index of its row in `run`.
  ///   - run: The run's rows.
  /// - Complexity: O(*s*) in the run's segments.
  static func crossesKeptGap(_ segment: Segment, row: Int, in run: [Row]) -> Bool {
    var over = 0
    var breaking = 0
    for (i, other) in run.enumerated() where i != row {
      let count = other.segments.count { $0.span.overlaps(segment.span) }
      if count >= 1 { over += 1 }
      if count >= 2 { breaking += 1 }
    }
    return over >= 2 && 2 * breaking > over
  }

  /// Extents merged where they overlap or lie within `slack`.
  static func merged(_ spans: [ClosedRange<Int>], slack: Double) -> [ClosedRange<Int>] {
    var out: [ClosedRange<Int>] = []
    for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = out.last, Double(span.lowerBound) <= Double(last.upperBound) + slack {
        out[out.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
      } else {
        out.append(span)
      }
    }
    return out
  }

  /// The table a run of rows holds, if the evidence is a table's.
  /// - Parameters:
  ///   - found: The run's rows.
  ///   - h: The page's median word height.
  ///   - byParagraph: The page's segments by Tesseract paragraph.
  ///   - pageFaces: How many of the page's words are set at a fixed pitch
  ///     and how many in a proportional face (``FixedPitch/counts(_:)``).
  static func table(
    _ found: [Row], h: Double, byParagraph: [Int: [Segment]],
    pageFaces: (fixed: Int, proportional: Int) = (0, 0)
  ) -> RuledTable? {
    guard found.count >= 3 else { return nil }
    // The columns from the segments that keep the gaps most rows keep
    // (``crossesKeptGap(_:row:in:)``), from the rows under the first two
    // (a header cell may span columns there) unless those hold fewer.
    let crossing = found.indices.map { i in
      found[i].segments.map { crossesKeptGap($0, row: i, in: found) }
    }
    // A first or last row all of whose segments run over kept gaps, one
    // of them over the first column, is a line of prose or a caption
    // next to the table, not a row of it: a title over columns never
    // lies over the row labels' column, which has its own header.
    let firstColumn = merged(
      zip(found, crossing).flatMap { row, flags in
        zip(row.segments, flags).filter { !$0.1 }.map(\.0.span)
      }, slack: h / 2
    ).first
    func isBesideTheTable(_ i: Int) -> Bool {
      guard let firstColumn else { return false }
      return crossing[i].allSatisfy { $0 }
        && found[i].segments.contains { $0.span.overlaps(firstColumn) }
    }
    var low = 0
    var high = found.count
    while low < high, isBesideTheTable(low) { low += 1 }
    while high > low, isBesideTheTable(high - 1) { high -= 1 }
    let run = Array(found[low..<high])
    guard run.count >= 3 else { return nil }
    let spans = zip(run, crossing[low..<high]).map { row, flags in
      zip(row.segments, flags).filter { !$0.1 }.map(\.0.span)
    }
    let all = merged(spans.flatMap { $0 }, slack: h / 2)
    let body = run.count >= 5 ? merged(spans.dropFirst(2).flatMap { $0 }, slack: h / 2) : all
    let headerSpansAreTitles = run.prefix(2).allSatisfy { row in
      row.segments.allSatisfy { segment in
        segment.words.count <= 2 || body.count { $0.overlaps(segment.span) } <= 1
      }
    }
    let columns = body.count > all.count && headerSpansAreTitles ? body : all
    guard columns.count >= 2 else { return nil }
    // A segment's column: the first it lies over (within h / 2). A
    // segment over a gap most rows keep may start left of its first
    // column's other cells (`= 19S I =— 39 (OS)` 4 px left of its
    // column in `PMC4682394_003_00`): it is still the table's.
    func column(of segment: Segment) -> Int? {
      columns.firstIndex {
        Double($0.lowerBound) - h / 2 <= Double(segment.box.maxX)
          && Double(segment.box.minX) <= Double($0.upperBound) + h / 2
      }
    }
    var bySegments = Array(repeating: [Segment](), count: columns.count)
    for row in run {
      for segment in row.segments {
        guard let k = column(of: segment) else { continue }
        bySegments[k].append(segment)
      }
    }
    // A column's entry in a row: the words of its segments there (a
    // justified line of prose may break into segments at its widest
    // spaces; its entry is still the whole line).
    //
    // A short column: at least half its entries hold one or two words
    // (a name, a number, a year, a status), and fewer than a third are
    // lines of three words or more that fill 80 % of the column's width. A
    // column of prose fills its width line after line: the narrow columns
    // of the `columns` family hold three or four words a line (three words
    // a line was taken for cells there on develop seeds 1003, 1005, 1010).
    // Entries of two words that fill the width are no sign of prose: a
    // table's column is as wide as its widest entry, so a column of names
    // of two words ("Sown sorghum", "Stored clover") fills its width in
    // most rows. Counting them as prose lost develop `tables` 1013 (4 of
    // 9 entries) and 1064 (2 of 5), both read as Tesseract's lines.
    //
    // A sign between two numbers (``signsBetweenNumbers(_:)``) is no
    // word: "0.39 ± 0.063", a value and its error, is two words, as
    // "9964 (30.6)" is.
    func isShort(_ segments: [Segment], in column: ClosedRange<Int>) -> Bool {
      var entries: [(baseline: Double, words: Int, span: ClosedRange<Int>)] = []
      for segment in segments {
        let words = segment.words.count - signsBetweenNumbers(segment.words)
        if let i = entries.firstIndex(where: { abs($0.baseline - segment.baseline) <= 0.3 * h }) {
          entries[i].words += words
          entries[i].span =
            min(
              entries[i].span.lowerBound, segment.span.lowerBound)...max(
              entries[i].span.upperBound, segment.span.upperBound)
        } else {
          entries.append((segment.baseline, words, segment.span))
        }
      }
      let width = Double(column.upperBound - column.lowerBound)
      let full = entries.count { $0.words >= 3 && Double($0.span.count) >= 0.8 * width }
      return !entries.isEmpty && 2 * entries.count { $0.words <= 2 } >= entries.count
        && 3 * full < entries.count
    }
    func aligned(_ a: [Segment], _ b: [Segment]) -> Bool {
      let (few, many) = a.count <= b.count ? (a, b) : (b, a)
      guard few.count >= 2 else { return false }
      // Within 0.15 h, and never under 1.5 px: a line's baseline is
      // whole pixels of the original, and small type read enlarged comes
      // back to it rounded (PubTabNet's crops: h = 5 px).
      let slack = max(0.15 * h, 1.5)
      let hits = few.count { s in many.contains { abs($0.baseline - s.baseline) <= slack } }
      return 10 * hits >= 7 * few.count
    }
    // Chains of neighbouring columns that stand on common baselines: a
    // column joins the chain left of it when it stands on the baselines
    // of the chain's columns together (a sparse column, a p-value only on
    // a group's first row, stands on its rows' labels, not on the sparse
    // column beside it: PubTabNet's `PMC4840965_004_00`).
    var chains: [[Int]] = [[0]]
    for k in 1..<columns.count {
      let chain = chains[chains.count - 1].flatMap { bySegments[$0] }
      if aligned(chain, bySegments[k]) {
        chains[chains.count - 1].append(k)
      } else {
        chains.append([k])
      }
    }
    let best =
      chains.filter { chain in
        chain.count >= 2 && chain.count { isShort(bySegments[$0], in: columns[$0]) } >= 2
      }
      .max { $0.count < $1.count }
    guard let best, let first = best.first, let last = best.last else { return nil }
    let kept = Array(columns[first...last])
    let segments = best.flatMap { bySegments[$0] }.sorted { $0.baseline < $1.baseline }
    // Cells of a row stand side by side: at least three rows fill two
    // columns or more (the last lines of a justified paragraph, split at
    // their widest spaces, do that once or twice).
    var filledRows = 0
    var seen: [Double] = []
    for segment in segments where !seen.contains(where: { abs($0 - segment.baseline) <= 0.3 * h }) {
      seen.append(segment.baseline)
      let row = segments.filter { abs($0.baseline - segment.baseline) <= 0.3 * h }
      let filled = Set(row.compactMap { s in kept.firstIndex { $0.overlaps(s.span) } })
      if filled.count >= 2 { filledRows += 1 }
    }
    guard filledRows >= 3 else { return nil }
    // Prose is no table: no Tesseract paragraph that holds a segment of
    // the table runs over a gap between its columns elsewhere (a
    // paragraph's lines split where justified spaces are widest, beside
    // its full lines).
    let gaps = zip(kept, kept.dropFirst()).map {
      ($0.upperBound + 1)...max($0.upperBound + 1, $1.lowerBound - 1)
    }
    let tableTop = segments.map(\.box.minY).min() ?? 0
    let tableBottom = segments.map(\.box.maxY).max() ?? 0
    for p in Set(segments.map(\.paragraph)) {
      let crossing = (byParagraph[p] ?? []).contains { other in
        other.words.count > 2 && gaps.contains { gap in other.span.overlaps(gap) }
          && (other.box.maxY <= tableTop || other.box.minY >= tableBottom
            || segments.allSatisfy { $0.box != other.box })
      }
      if crossing { return nil }
    }
    if isListing(segments, h: h, pageFaces: pageFaces) { return nil }
    return lattice(segments, columns: kept, h: h)
  }

  /// Whether a word is a sign standing alone: every character one of
  /// `±`, `∓`, `+`, `−`, `-`, `–`, `—`, `=`, `×`, `<`, `>`, `≤`, `≥`,
  /// `~`.
  static func isSign(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { "±∓+−-–—=×<>≤≥~".contains($0) }
  }

  /// How many of `words` are signs standing alone (``isSign(_:)``)
  /// between two words with digits. A table sets a value and its error,
  /// or a range, with the sign between two numbers ("0.12 ± 0.016",
  /// PubTabNet's `PMC5198506_004_00`); OCR reads the sign as a word of
  /// its own, and the cell then looked like three words of prose. A sign
  /// elsewhere (a dash in a sentence, a screenshot's menu marks) counts.
  static func signsBetweenNumbers(_ words: [Word]) -> Int {
    guard words.count >= 3 else { return 0 }
    return (1..<(words.count - 1)).count { i in
      isSign(words[i].text) && words[i - 1].text.contains(where: \.isNumber)
        && words[i + 1].text.contains(where: \.isNumber)
    }
  }

  /// Whether a table's segments are a code listing set apart from the
  /// page's text: most of its rows that tell their face (``FixedPitch``)
  /// are set at a fixed pitch, at least two of them, while the rest of
  /// the page is set in a proportional face (at least four of its words
  /// tell so, and at most a third of those telling are fixed-pitch).
  ///
  /// Why: a listing's lines share their indentation and, in a fixed-pitch
  /// face, the places of their spaces; a run of lines with a common
  /// prefix (`VERIFY_GROUP_FOR_USER (CURRENT_USER, 'JANE', 'MGR')` three
  /// times, `redp5110_sampled` p12 of the docling set) or keywords set
  /// in a column of their own (`SELECT`, `FROM`, `WHERE` beside their
  /// clauses, p8) leaves the gaps of a table's columns, and its short
  /// words make short columns. Its text is one line of code after
  /// another, not cells: a table's cells are set in the document's type,
  /// a listing in the fixed-pitch type of code. A page set at a fixed
  /// pitch throughout (typewritten) says nothing about its tables, and
  /// neither does a crop that is all table.
  /// - Parameters:
  ///   - segments: The table's segments.
  ///   - h: The page's median word height.
  ///   - pageFaces: The faces of the page's words, the table's included.
  /// - Complexity: O(*s*²) in the table's segments.
  static func isListing(
    _ segments: [Segment], h: Double, pageFaces: (fixed: Int, proportional: Int)
  ) -> Bool {
    let own = FixedPitch.counts(segments.lazy.flatMap(\.words))
    let fixed = pageFaces.fixed - own.fixed
    let proportional = pageFaces.proportional - own.proportional
    guard proportional >= 4, 3 * fixed <= fixed + proportional else { return false }
    var fixedRows = 0
    var proportionalRows = 0
    var seen: [Double] = []
    for segment in segments where !seen.contains(where: { abs($0 - segment.baseline) <= 0.3 * h }) {
      seen.append(segment.baseline)
      let row = FixedPitch.counts(
        segments.lazy.filter { abs($0.baseline - segment.baseline) <= 0.3 * h }.flatMap(\.words))
      if row.fixed > row.proportional { fixedRows += 1 }
      if row.proportional > row.fixed { proportionalRows += 1 }
    }
    return fixedRows >= 2 && fixedRows > proportionalRows
  }

  /// The cells of a table from its segments and columns.
  static func lattice(_ segments: [Segment], columns: [ClosedRange<Int>], h: Double) -> RuledTable?
  {
    func columnRange(of segment: Segment) -> ClosedRange<Int> {
      // The columns the segment lies over (a header spanning columns).
      let over = columns.indices.filter {
        columns[$0].lowerBound <= segment.box.maxX && segment.box.minX <= columns[$0].upperBound
      }
      let nearest =
        columns.indices.min {
          abs(columns[$0].lowerBound - segment.box.minX)
            < abs(columns[$1].lowerBound - segment.box.minX)
        } ?? 0
      guard let a = over.first, let b = over.last else { return nearest...nearest }
      return a...b
    }
    // Visual rows, then table rows: a row continues the one above when it
    // fills only columns that one fills (fewer than all) within 2.1 h.
    var visual: [Row] = []
    for segment in segments {
      if let last = visual.last, abs(segment.baseline - last.baseline) <= 0.3 * h {
        visual[visual.count - 1].segments.append(segment)
      } else {
        visual.append(Row(baseline: segment.baseline, segments: [segment]))
      }
    }
    let alignments = columnAlignments(visual, columns: columns, h: h, range: columnRange(of:))
    var tableRows: [[Row]] = []
    var previous: (baseline: Double, filled: Set<Int>)?
    for row in visual {
      let filled = Set(row.segments.flatMap { Array(columnRange(of: $0)) })
      let keepsAlignment = row.segments.allSatisfy { segment in
        let range = columnRange(of: segment)
        return range.count > 1 || alignments[range.lowerBound].holds(for: segment.box, h: h)
      }
      if let p = previous, filled.count < columns.count, filled.isSubset(of: p.filled),
        row.baseline - p.baseline <= 2.1 * h, !tableRows.isEmpty, keepsAlignment
      {
        tableRows[tableRows.count - 1].append(row)
      } else {
        tableRows.append([row])
      }
      previous = (row.baseline, filled)
    }
    guard tableRows.count >= 3 else { return nil }
    // Boundaries halfway between columns and between rows; the outer ones
    // just outside the text.
    var xs = [columns[0].lowerBound - 2]
    for k in 0..<(columns.count - 1) {
      xs.append((columns[k].upperBound + columns[k + 1].lowerBound) / 2)
    }
    xs.append(columns[columns.count - 1].upperBound + 2)
    func top(_ rows: [Row]) -> Int { rows.map(\.top).min() ?? 0 }
    func bottom(_ rows: [Row]) -> Int { rows.map(\.bottom).max() ?? 0 }
    var ys = [top(tableRows[0]) - 2]
    for i in 0..<(tableRows.count - 1) {
      ys.append((bottom(tableRows[i]) + top(tableRows[i + 1])) / 2)
    }
    ys.append(bottom(tableRows[tableRows.count - 1]) + 2)
    guard zip(ys, ys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
    // Group titles over the header's second row, placed against the
    // columns' extents in the body (a title does not widen them there).
    var titles: [ClosedRange<Int>] = []
    if tableRows.count >= 3 {
      let body = tableRows.dropFirst(2).flatMap { $0 }.flatMap(\.segments)
      let extents = columns.indices.map { k -> ClosedRange<Int> in
        let boxes = body.filter { columnRange(of: $0) == k...k }.map(\.box)
        guard let low = boxes.map(\.minX).min(), let high = boxes.map(\.maxX).max() else {
          return columns[k]
        }
        return low...high
      }
      titles = headerTitles(
        tableRows[0].flatMap(\.segments).map { ($0.box, columnRange(of: $0)) },
        under: Set(tableRows[1].flatMap(\.segments).flatMap { Array(columnRange(of: $0)) }),
        extents: extents, h: h)
    }
    let underTitles = Set(titles.flatMap { Array($0) })
    // A segment over several columns in a row makes one cell spanning them.
    var cells: [RuledTable.Cell] = []
    for (i, rows) in tableRows.enumerated() {
      var spans: [ClosedRange<Int>] = []
      for segment in rows.flatMap(\.segments) {
        let range = columnRange(of: segment)
        if range.count > 1 { spans.append(range) }
      }
      if i == 0 { spans.append(contentsOf: titles) }
      let spanning = merged(spans, slack: 0)
      var j = 0
      while j < columns.count {
        let span = spanning.first { $0.contains(j) } ?? j...j
        // Beside a group title, a header cell spans both header rows; the
        // second header row has cells under the titles only.
        let rowSpan = !titles.isEmpty && i == 0 && !underTitles.contains(j) ? 2 : 1
        if i != 1 || titles.isEmpty || underTitles.contains(j) {
          cells.append(
            RuledTable.Cell(
              position: TableCellPosition(
                row: i, column: j, rowSpan: rowSpan, columnSpan: span.count),
              box: PixelRect(
                minX: xs[j], minY: ys[i], maxX: xs[span.upperBound + 1], maxY: ys[i + rowSpan])))
        }
        j = span.upperBound + 1
      }
    }
    return RuledTable(rows: tableRows.count, columns: columns.count, cells: cells)
  }

  /// How a column's cells are set: flush left, flush right or centred on
  /// a common edge or axis (within *h* / 2), or none of these.
  enum ColumnAlignment: Equatable {
    case left(Int)
    case right(Int)
    case centre(Int)
    case none

    /// Whether a segment keeps the column's alignment.
    func holds(for box: PixelRect, h: Double) -> Bool {
      switch self {
      case .left(let x): Double(abs(box.minX - x)) <= h / 2
      case .right(let x): Double(abs(box.maxX - x)) <= h / 2
      case .centre(let x): Double(abs((box.minX + box.maxX) / 2 - x)) <= h / 2
      case .none: true
      }
    }
  }

  /// Each column's alignment, from the rows that fill every column (the
  /// table's rows proper; a cell's second line or a title over the table
  /// fills fewer): the edge (left, then right) or axis that at least 70 %
  /// of their segments in the column share with their median's within
  /// *h* / 2; `none` with fewer than three such rows.
  ///
  /// Why: the lines of one cell are set as the column's cells are (a
  /// wrapped cell's lines share its left edge in a column set flush left),
  /// so a line under a cell that leaves the column's alignment is a row of
  /// its own: a receipt's indented quantity line ("3 @ 12.44") under its
  /// item, an indented sub-item under a row label (develop `receipts`
  /// 1001, 1002, 1005 read the quantity before the item's price, reading
  /// order CER 0.05–0.23 against Tesseract's 0.01–0.02).
  /// - Complexity: O(*s* log *s*) in the segments.
  static func columnAlignments(
    _ rows: [Row], columns: [ClosedRange<Int>], h: Double,
    range: (Segment) -> ClosedRange<Int>
  ) -> [ColumnAlignment] {
    var boxes = [[PixelRect]](repeating: [], count: columns.count)
    for row in rows {
      let ranges = row.segments.map(range)
      guard Set(ranges.flatMap { Array($0) }).count == columns.count else { continue }
      for (segment, r) in zip(row.segments, ranges) where r.count == 1 {
        boxes[r.lowerBound].append(segment.box)
      }
    }
    return boxes.map { inColumn in
      guard inColumn.count >= 3 else { return .none }
      func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
      func shared(_ value: (PixelRect) -> Int) -> Int? {
        let m = median(inColumn.map(value))
        let near = inColumn.filter { Double(abs(value($0) - m)) <= h / 2 }.count
        return 10 * near >= 7 * inColumn.count ? m : nil
      }
      if let x = shared(\.minX) { return .left(x) }
      if let x = shared(\.maxX) { return .right(x) }
      if let x = shared({ ($0.minX + $0.maxX) / 2 }) { return .centre(x) }
      return .none
    }
  }

  /// The columns each group title in a table's header spans, when its
  /// first two rows show them clearly; empty otherwise. The second row
  /// (the titles' sub-headers) fills some columns (`second`) but not all;
  /// a column it does not fill is the first row's (a header there spans
  /// both header rows) unless neither row fills it (a sub-header not
  /// read). Each run of neighbouring columns under titles (filled by the
  /// second row or by neither, at least one by the second) lies under
  /// one or more segments of the first row (the titles), none of which
  /// reaches out of it. A title spans the
  /// columns it lies over, and both columns of a gap between columns it
  /// lies across (``spanned(_:range:extents:h:)``); a column of the run it
  /// leaves uncovered belongs to the title left of it (a title set flush
  /// left over its columns), or to the first when none is left of it. At
  /// least one title spans two columns or more.
  ///
  /// Why: a title is set over the columns it groups, centred over the union
  /// of their extents or flush left with the first, and its sub-headers
  /// label the columns one by one under it (the generated tables' group
  /// titles, develop `tables` 1014, 1047, 1064; PubTabNet's
  /// `PMC5402779_004_00`: "Male" and "Female" centred each over "%" and
  /// "95% CI", "Variable" beside them over both header rows). A title
  /// centred over two columns stands over the gap between them, so it
  /// lies across that gap ("Male" reaches 2 px into "95% CI"'s column and
  /// not at all into "%"'s): the columns a title overlaps are not those it
  /// spans. A body row with an empty cell has no title over its filled
  /// columns (each of its neighbours' headers lies over one column, and
  /// its row label is filled), and stays a row of its own.
  /// - Parameters:
  ///   - first: The first row's segments: each one's box and the columns
  ///     it lies over.
  ///   - second: The columns the second row fills.
  ///   - extents: Each column's extent in the body (the rows under the
  ///     header's two), where a title does not widen it.
  ///   - h: The page's median word height.
  static func headerTitles(
    _ first: [(box: PixelRect, range: ClosedRange<Int>)], under second: Set<Int>,
    extents: [ClosedRange<Int>], h: Double
  ) -> [ClosedRange<Int>] {
    guard !second.isEmpty, second.count < extents.count else { return [] }
    let filled = Set(first.flatMap { Array($0.range) })
    // A column neither row fills (a sub-header OCR did not read, the
    // "%" under "Male") lies under a title as its neighbours do.
    let under = (0..<extents.count).filter { !filled.contains($0) || second.contains($0) }
    // The runs of neighbouring columns under titles, each holding a
    // column the second row fills.
    var runs: [ClosedRange<Int>] = []
    for k in under {
      if let last = runs.last, last.upperBound + 1 == k {
        runs[runs.count - 1] = last.lowerBound...k
      } else {
        runs.append(k...k)
      }
    }
    runs = runs.filter { run in run.contains { second.contains($0) } }
    let ordered = first.sorted { $0.box.minX < $1.box.minX }
    var titles: [ClosedRange<Int>] = []
    for run in runs {
      let own = ordered.filter { $0.range.overlaps(run) }.map {
        spanned($0.box, range: $0.range, extents: extents, h: h)
      }
      guard !own.isEmpty, own.allSatisfy({ $0.clamped(to: run) == $0 }),
        zip(own, own.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound })
      else { return [] }
      for (n, span) in own.enumerated() {
        let low = n == 0 ? run.lowerBound : span.lowerBound
        let high = n + 1 < own.count ? own[n + 1].lowerBound - 1 : run.upperBound
        titles.append(low...high)
      }
    }
    return titles.contains { $0.count >= 2 } ? titles : []
  }

  /// The columns a header's box spans by its place: those it lies over
  /// (`range`), and both columns of a gap between two columns (`extents`)
  /// it lies across with its middle between the two columns' middles,
  /// more than *h* / 2 from each. A title centred over two columns stands
  /// over the gap between them, its middle between theirs; a header wider
  /// than its column, centred over it, reaches into the gaps beside it
  /// with its middle on the column's.
  static func spanned(
    _ box: PixelRect, range: ClosedRange<Int>, extents: [ClosedRange<Int>], h: Double
  ) -> ClosedRange<Int> {
    let middle = Double(box.minX + box.maxX) / 2
    func axis(_ k: Int) -> Double { Double(extents[k].lowerBound + extents[k].upperBound) / 2 }
    let across = (0..<(extents.count - 1)).filter { k in
      box.maxX > extents[k].upperBound && box.minX < extents[k + 1].lowerBound
        && middle > axis(k) + h / 2 && middle < axis(k + 1) - h / 2
    }
    guard let k = across.first else { return range }
    return min(range.lowerBound, k)...max(range.upperBound, k + 1)
  }
}

extension TableCells {
  /// The blocks with every table found from aligned whitespace
  /// (``AlignedTables/tables(in:excluding:)``) read as its cells, row by
  /// row (``composing(_:reading:ink:)`` with Tesseract's own words: the same
  /// words, in a table's order).
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels, with roles.
  ///   - excluding: Boxes already read as tables (ruled grids).
  ///   - ink: The page image's measures of the tables' type and rules,
  ///     for their header rows (``composing(_:reading:ink:)``).
  /// - Complexity: O(*w* · *c*) in the page's words and the tables' cells.
  public static func composingAligned(
    _ blocks: [Block], excluding: [PixelRect] = [], ink: TableInk? = nil
  ) -> [Block] {
    AlignedTables.tables(in: blocks, excluding: excluding).reduce(blocks) { blocks, table in
      composing(blocks, reading: AlignedTables.reading(of: table, in: blocks), ink: ink) ?? blocks
    }
  }
}
