/// Where a table cell sits in its table: its first row and column,
/// counted from 0 at the top left, and how many rows and columns it spans
/// (a merged header cell spans several columns; the cells beside it may
/// span its row and the one below).
public struct TableCellPosition: Hashable, Sendable {
  /// The cell's first row, from 0 at the top.
  public var row: Int
  /// The cell's first column, from 0 at the left.
  public var column: Int
  /// How many rows the cell spans (at least 1).
  public var rowSpan: Int
  /// How many columns the cell spans (at least 1).
  public var columnSpan: Int
  /// Whether the cell heads its column or row (a `<th>` in HTML, a `TH`
  /// in a tagged PDF) rather than holding data.
  public var isHeader: Bool

  /// Creates a cell position; spans below 1 count as 1.
  /// - Parameters:
  ///   - row: The cell's first row, from 0.
  ///   - column: The cell's first column, from 0.
  ///   - rowSpan: How many rows it spans.
  ///   - columnSpan: How many columns it spans.
  ///   - isHeader: Whether the cell is a header cell.
  public init(
    row: Int, column: Int, rowSpan: Int = 1, columnSpan: Int = 1, isHeader: Bool = false
  ) {
    self.row = row
    self.column = column
    self.rowSpan = max(1, rowSpan)
    self.columnSpan = max(1, columnSpan)
    self.isHeader = isHeader
  }
}

/// A table whose cells its ruling lines enclose: the cells' places and
/// their boxes inside the rules, in original-image pixels.
public struct RuledTable: Hashable, Sendable {
  /// One cell: its place and its box between the rules round it (the
  /// rules left out).
  public struct Cell: Hashable, Sendable {
    /// The cell's place in the table.
    public var position: TableCellPosition
    /// The inside of the cell, within its rules.
    public var box: PixelRect
  }

  /// The rows and columns of the table's lattice (the rules' places).
  public var rows: Int
  /// The number of columns.
  public var columns: Int
  /// The cells the rules enclose, row by row, left to right.
  public var cells: [Cell]

  /// The box round every cell.
  public var bounds: PixelRect? { PixelRect.union(cells.map(\.box)) }

  /// The cell whose box holds a point, if any.
  /// - Complexity: O(*c*) in the cells.
  public func cell(at point: Point) -> Cell? {
    cells.first { cell in
      Double(cell.box.minX) <= point.x && point.x < Double(cell.box.maxX)
        && Double(cell.box.minY) <= point.y && point.y < Double(cell.box.maxY)
    }
  }
}

extension TableGrid {
  /// The tables whose cells the grid's rules enclose.
  ///
  /// Rules that touch make one table (a rule elsewhere on the page, under
  /// a heading or round a photo, stays out of it). A table's rules, each
  /// kind clustered by its centre line, give the lattice of its rows and
  /// columns (and its open sides: a table ruled between its columns, not
  /// round them, ends where its row rules end); two neighbouring lattice places are one cell when no rule
  /// separates them (a merged header cell). The lattice places that reach
  /// the table's outside without crossing a rule (an unruled corner) are no
  /// cell. A table counts only when the evidence is that of a table, not of
  /// a page's column rules or a frame: at least two rows and two columns,
  /// every cell a rectangle, and most cells plain cells of one place
  /// (`RuledTable/mostlyPlainCells(single:cells:places:)`: column rules
  /// and article rules on a magazine page make a lattice of a few large
  /// merged regions).
  /// - Complexity: O(*r*² + *l* · *r*) in the rules *r* and lattice places *l*.
  public var tables: [RuledTable] {
    connectedRuleGroups().compactMap {
      RuledTable(horizontal: $0.horizontal, vertical: $0.vertical)
    }
  }

  /// The rules grouped by touching: a horizontal and a vertical rule touch
  /// when their boxes, grown by the thicker one's thickness, meet.
  func connectedRuleGroups() -> [(horizontal: [PixelRect], vertical: [PixelRect])] {
    let rules = horizontalRules + verticalRules
    var sets = DisjointSets(count: rules.count)
    let h = horizontalRules.count
    for i in 0..<h {
      for j in h..<rules.count {
        let reach = max(3, rules[i].height, rules[j].width)
        let grown = PixelRect(
          minX: rules[i].minX - reach, minY: rules[i].minY - reach,
          maxX: rules[i].maxX + reach, maxY: rules[i].maxY + reach)
        if grown.intersection(rules[j]) != nil { sets.join(i, j) }
      }
    }
    var groups: [Int: (horizontal: [PixelRect], vertical: [PixelRect])] = [:]
    var order: [Int] = []
    for i in rules.indices {
      let r = sets.root(i)
      if groups[r] == nil {
        groups[r] = ([], [])
        order.append(r)
      }
      if i < h {
        groups[r]?.horizontal.append(rules[i])
      } else {
        groups[r]?.vertical.append(rules[i])
      }
    }
    return order.compactMap { groups[$0] }
  }
}

extension RuledTable {
  /// Rules of one kind on one line of the lattice: their centre and the
  /// half of the thickest one.
  struct RuleLine {
    var center: Double
    var halfThickness: Int
    var rules: [PixelRect]
    /// An open side of the table: no rule, where the rules across end.
    var isEdge = false
  }

  /// The lines with the table's open sides added: where the rules across
  /// them reach further than a quarter of the median gap between the
  /// lines beyond the first or last line (a table ruled between its
  /// columns but not round them: its outer columns lie between the last
  /// column rule and the ends of the row rules).
  static func withOpenSides(_ lines: [RuleLine], from low: Int?, to high: Int?) -> [RuleLine] {
    guard lines.count >= 2, let first = lines.first, let last = lines.last, let low, let high
    else { return lines }
    let gaps = zip(lines, lines.dropFirst()).map { $1.center - $0.center }.sorted()
    let reach = max(4, gaps[gaps.count / 2] / 4)
    var out = lines
    if first.center - Double(low) > reach {
      out.insert(RuleLine(center: Double(low), halfThickness: 0, rules: [], isEdge: true), at: 0)
    }
    if Double(high) - last.center > reach {
      out.append(RuleLine(center: Double(high), halfThickness: 0, rules: [], isEdge: true))
    }
    return out
  }

  /// Clusters rules by their centre across (`across` gives a rule's extent
  /// across it): centres closer than twice the thickest rule are one line.
  static func lines(_ rules: [PixelRect], across: (PixelRect) -> (Int, Int)) -> [RuleLine] {
    let sorted = rules.sorted { across($0).0 + across($0).1 < across($1).0 + across($1).1 }
    var out: [RuleLine] = []
    for rule in sorted {
      let (low, high) = across(rule)
      let center = Double(low + high) / 2
      let thickness = high - low
      if var last = out.last,
        center - last.center <= Double(max(4, 2 * max(thickness, 2 * last.halfThickness)))
      {
        last.rules.append(rule)
        last.halfThickness = max(last.halfThickness, (thickness + 1) / 2)
        last.center =
          last.rules.map { Double(across($0).0 + across($0).1) / 2 }.reduce(0, +)
          / Double(last.rules.count)
        out[out.count - 1] = last
      } else {
        out.append(RuleLine(center: center, halfThickness: (thickness + 1) / 2, rules: [rule]))
      }
    }
    return out
  }

  /// Whether a lattice's cells are those of a table: most of its cells
  /// (at least half) are plain cells of one place, and they fill at least
  /// a quarter of its places. A table's spanning cells are its exceptions
  /// (a header over columns, a group's label down its rows, a note across
  /// a row), however many places each covers: camelot's `row_span_1.pdf`
  /// and `column_span_2.pdf` have most of their places in spanning cells
  /// and were no tables when half the places had to be plain cells. Column
  /// and article rules on a magazine page make a lattice of a few large
  /// merged regions (few cells, most of them merged).
  static func mostlyPlainCells(single: Int, cells: Int, places: Int) -> Bool {
    2 * single >= cells && 4 * single >= places
  }

  /// The table one group of touching rules encloses; `nil` when it is no
  /// table (see ``TableGrid/tables``).
  init?(horizontal: [PixelRect], vertical: [PixelRect]) {
    let rowLines = Self.withOpenSides(
      Self.lines(horizontal) { ($0.minY, $0.maxY) }, from: vertical.map(\.minY).min(),
      to: vertical.map(\.maxY).max())
    let columnLines = Self.withOpenSides(
      Self.lines(vertical) { ($0.minX, $0.maxX) }, from: horizontal.map(\.minX).min(),
      to: horizontal.map(\.maxX).max())
    let rows = rowLines.count - 1
    let columns = columnLines.count - 1
    guard rows >= 2, columns >= 2 else { return nil }
    let midY = (0..<rows).map { (rowLines[$0].center + rowLines[$0 + 1].center) / 2 }
    let midX = (0..<columns).map { (columnLines[$0].center + columnLines[$0 + 1].center) / 2 }
    // A wall on column line k at row i; on row line k at column j.
    // An open side is a wall: the table's edge.
    func verticalWall(_ k: Int, _ i: Int) -> Bool {
      columnLines[k].isEdge
        || columnLines[k].rules.contains {
          Double($0.minY) <= midY[i] && midY[i] <= Double($0.maxY)
        }
    }
    func horizontalWall(_ k: Int, _ j: Int) -> Bool {
      rowLines[k].isEdge
        || rowLines[k].rules.contains { Double($0.minX) <= midX[j] && midX[j] <= Double($0.maxX) }
    }
    // Union-find over the lattice places; `outside` is one more node.
    let outside = rows * columns
    var sets = DisjointSets(count: outside + 1)
    func join(_ a: Int, _ b: Int) { sets.join(a, b) }
    func root(_ i: Int) -> Int { sets.root(i) }
    for i in 0..<rows {
      for j in 0...columns where !verticalWall(j, i) {
        join(j == 0 ? outside : i * columns + j - 1, j == columns ? outside : i * columns + j)
      }
    }
    for j in 0..<columns {
      for i in 0...rows where !horizontalWall(i, j) {
        join(i == 0 ? outside : (i - 1) * columns + j, i == rows ? outside : i * columns + j)
      }
    }
    var regions: [Int: [(Int, Int)]] = [:]
    for i in 0..<rows {
      for j in 0..<columns where root(i * columns + j) != root(outside) {
        regions[root(i * columns + j), default: []].append((i, j))
      }
    }
    var cells: [Cell] = []
    for places in regions.values {
      let top = places.map(\.0).min() ?? 0
      let bottom = places.map(\.0).max() ?? 0
      let left = places.map(\.1).min() ?? 0
      let right = places.map(\.1).max() ?? 0
      guard places.count == (bottom - top + 1) * (right - left + 1) else { return nil }
      let box = PixelRect(
        minX: Int(columnLines[left].center.rounded()) + columnLines[left].halfThickness + 1,
        minY: Int(rowLines[top].center.rounded()) + rowLines[top].halfThickness + 1,
        maxX: Int(columnLines[right + 1].center.rounded()) - columnLines[right + 1].halfThickness,
        maxY: Int(rowLines[bottom + 1].center.rounded()) - rowLines[bottom + 1].halfThickness)
      guard !box.isEmpty else { return nil }
      cells.append(
        Cell(
          position: TableCellPosition(
            row: top, column: left, rowSpan: bottom - top + 1, columnSpan: right - left + 1),
          box: box))
    }
    let single = cells.count { $0.position.rowSpan == 1 && $0.position.columnSpan == 1 }
    guard Self.mostlyPlainCells(single: single, cells: cells.count, places: rows * columns)
    else { return nil }
    cells.sort { ($0.position.row, $0.position.column) < ($1.position.row, $1.position.column) }
    self.rows = rows
    self.columns = columns
    self.cells = cells
  }
}

extension Block {
  /// For a table read cell by cell (every paragraph has its
  /// ``Paragraph/cell``), its rows and columns; `nil` for any other block.
  /// - Complexity: O(*p*) in the block's paragraphs.
  public var tableSize: (rows: Int, columns: Int)? {
    let cells = paragraphs.compactMap(\.cell)
    guard !cells.isEmpty, cells.count == paragraphs.count else { return nil }
    return (
      cells.map { $0.row + $0.rowSpan }.max() ?? 0,
      cells.map { $0.column + $0.columnSpan }.max() ?? 0
    )
  }
}

/// Union-find over `0..<count`, with path halving.
struct DisjointSets {
  private var parent: [Int]

  init(count: Int) { parent = Array(0..<count) }

  /// The representative of `i`'s set.
  mutating func root(_ i: Int) -> Int {
    var i = i
    while parent[i] != i {
      parent[i] = parent[parent[i]]
      i = parent[i]
    }
    return i
  }

  /// Joins the sets of `a` and `b`.
  mutating func join(_ a: Int, _ b: Int) { parent[root(a)] = root(b) }
}
