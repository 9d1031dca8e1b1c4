import ScanModel

extension PDFTextPage {
  /// Blocks and paragraphs of a PDF page's lines (Poppler's GLib API gives
  /// lines only), found on the page turned upright by recursive cuts along
  /// the white space between them, as a reader sees a page's regions:
  ///
  /// 1. **Rows**: a band of white space across the region at least the
  ///    page's usual gap between the lines of a paragraph plus half a line
  ///    (the median gap from a line to the next one below it in its
  ///    column, and the median line height) cuts it into rows, read top
  ///    to bottom: a title, the paragraphs of a column, a part set in
  ///    columns, a note under it.
  /// 2. **Columns**: where no row cut applies, a band of white space down
  ///    the whole region at least half a line wide, with text at least two
  ///    ems wide on each side (not a column of bullets or line numbers),
  ///    cuts it into columns, read left to right.
  /// 3. A row cut is not made where it would cut through columns: when the
  ///    text above and below it both stand on each side of a band that
  ///    runs down the whole region (paragraph breaks that happen to line up
  ///    in two columns), or when one of them stands on one side only and
  ///    has a line at least 90 % as wide as the other's column on that
  ///    side (the end of a long column beside a short one). A short line
  ///    on one side stays a row of its own (a note after the columns).
  /// 4. What no cut divides is a run of lines in one region; its lines are
  ///    read row by row (lines whose middles fall within the first line of
  ///    a row are side by side), and a new paragraph starts at a line read
  ///    in another direction, set in type more than 15 % larger or smaller,
  ///    starting with a bullet or a list number (`•`, `1.`, `a)`, `(iv)`),
  ///    or indented by at least an em after a line that ends at least an
  ///    em short of the region's right edge (a first-line indent).
  ///
  /// Rows that are not divided further form one block (a column's
  /// paragraphs); each column is its own block.
  ///
  /// Poppler's own order is kept nowhere: it follows the page's drawing
  /// order and block guesses, and on a page with a heading, two columns and
  /// a short line after them (the test page of `PDFTextTests`) it reads
  /// that line between the two columns, and on the same page turned by
  /// `/Rotate` it starts with the right column; this layout reads both in
  /// the HTML's order.
  struct Layout {
    let lines: [TextLine]
    /// Each line's box, upright.
    let boxes: [Rect]
    /// The white space between rows that separates them.
    let rowGap: Double
    /// The white space down a region that separates columns.
    let columnGap: Double
    /// The page's usual em (the median line's font size).
    let em: Double

    init(lines: [TextLine]) {
      self.lines = lines
      let boxes = lines.map(\.box)
      self.boxes = boxes
      let height = PDFTextPage.median(boxes.map(\.height))
      let sizes = lines.map(\.size).filter { $0 > 0 }
      em = sizes.isEmpty ? height / 1.15 : PDFTextPage.median(sizes)
      // The gap from each line to the nearest line below it that it
      // overlaps across.
      var gaps: [Double] = []
      for (i, a) in boxes.enumerated() {
        var nearest = Double.infinity
        for (j, b) in boxes.enumerated() where j != i {
          guard min(a.maxX, b.maxX) > max(a.minX, b.minX), b.minY > a.minY else { continue }
          nearest = min(nearest, b.minY - a.maxY)
        }
        if nearest.isFinite { gaps.append(max(0, nearest)) }
      }
      rowGap = PDFTextPage.median(gaps) + height / 2
      columnGap = height / 2
    }

    /// The page's blocks: each a list of paragraphs, each a list of line
    /// indices, in reading order.
    func blocks() -> [[[Int]]] {
      blocks(of: cut(Array(lines.indices)))
    }

    indirect enum Node {
      case leaf([Int])
      case rows([Node])
      case columns([Node])
    }

    func blocks(of node: Node) -> [[[Int]]] {
      switch node {
      case .leaf(let items): return [paragraphs(items)]
      case .columns(let children): return children.flatMap(blocks(of:))
      case .rows(let children):
        var out: [[[Int]]] = []
        var run: [[Int]] = []
        for child in children {
          if case .leaf(let items) = child {
            run += paragraphs(items)
          } else {
            if !run.isEmpty { out.append(run) }
            run = []
            out += blocks(of: child)
          }
        }
        if !run.isEmpty { out.append(run) }
        return out
      }
    }

    /// A region cut into rows, else columns, else kept whole (rules 1–3).
    func cut(_ items: [Int]) -> Node {
      guard items.count > 1 else { return .leaf(items) }
      let gutters = gaps(items, across: false, atLeast: columnGap).filter { gutter in
        let (left, right) = sides(items, of: gutter, across: false)
        return width(left) >= 2 * em && width(right) >= 2 * em
      }
      let rows = gaps(items, across: true, atLeast: rowGap).filter { gap in
        !gutters.contains { cutsThroughColumns(items, row: gap, gutter: $0) }
      }
      if !rows.isEmpty {
        return .rows(split(items, at: rows, across: true).map(cut))
      }
      if !gutters.isEmpty {
        return .columns(split(items, at: gutters, across: false).map(cut))
      }
      return .leaf(items)
    }

    /// The bands of white space at least `minimum` wide between the
    /// items: across the region (between rows) or down it (between
    /// columns), as (start, end) pairs in order.
    func gaps(_ items: [Int], across: Bool, atLeast minimum: Double) -> [(Double, Double)] {
      let spans = items.map {
        across ? (boxes[$0].minY, boxes[$0].maxY) : (boxes[$0].minX, boxes[$0].maxX)
      }
      .sorted { $0.0 < $1.0 }
      var out: [(Double, Double)] = []
      guard var end = spans.first?.1 else { return [] }
      for span in spans.dropFirst() {
        if span.0 - end >= minimum { out.append((end, span.0)) }
        end = max(end, span.1)
      }
      return out
    }

    /// The items before and after a gap.
    func sides(_ items: [Int], of gap: (Double, Double), across: Bool) -> ([Int], [Int]) {
      let before = items.filter { (across ? boxes[$0].maxY : boxes[$0].maxX) <= gap.0 }
      let after = items.filter { (across ? boxes[$0].minY : boxes[$0].minX) >= gap.1 }
      return (before, after)
    }

    func width(_ items: [Int]) -> Double {
      guard let first = items.first else { return 0 }
      let minX = items.reduce(boxes[first].minX) { min($0, boxes[$1].minX) }
      let maxX = items.reduce(boxes[first].maxX) { max($0, boxes[$1].maxX) }
      return maxX - minX
    }

    /// Rule 3: whether cutting `items` at the row gap would cut through
    /// the columns on each side of `gutter`.
    func cutsThroughColumns(_ items: [Int], row: (Double, Double), gutter: (Double, Double)) -> Bool
    {
      let (above, below) = sides(items, of: row, across: true)
      let a = sides(above, of: gutter, across: false)
      let b = sides(below, of: gutter, across: false)
      let aBoth = !a.0.isEmpty && !a.1.isEmpty
      let bBoth = !b.0.isEmpty && !b.1.isEmpty
      if aBoth && bBoth { return true }
      guard aBoth != bBoth else { return false }
      // One part stands on one side: it continues that side's column when
      // it has a line that spans the column (both edges within a tenth of
      // its width), the column being that side's lines beside the other
      // side's (not a title above them).
      let (both, one) = aBoth ? (a, b) : (b, a)
      let (side, other, part) = one.0.isEmpty ? (both.1, both.0, one.1) : (both.0, both.1, one.0)
      let top = other.map { boxes[$0].minY }.min() ?? 0
      let bottom = other.map { boxes[$0].maxY }.max() ?? 0
      let column = side.filter { boxes[$0].maxY > top && boxes[$0].minY < bottom }
      guard let first = column.first else { return false }
      let minX = column.reduce(boxes[first].minX) { min($0, boxes[$1].minX) }
      let maxX = column.reduce(boxes[first].maxX) { max($0, boxes[$1].maxX) }
      let slack = (maxX - minX) / 10
      return part.contains {
        abs(boxes[$0].minX - minX) <= slack && abs(boxes[$0].maxX - maxX) <= slack
      }
    }

    /// The items split at gaps, in order.
    func split(_ items: [Int], at gaps: [(Double, Double)], across: Bool) -> [[Int]] {
      var parts = Array(repeating: [Int](), count: gaps.count + 1)
      for i in items {
        let start = across ? boxes[i].minY : boxes[i].minX
        let k = gaps.lastIndex { start >= $0.1 }.map { $0 + 1 } ?? 0
        parts[k].append(i)
      }
      return parts.filter { !$0.isEmpty }
    }

    /// A region's lines, row by row, split into paragraphs (rule 4).
    func paragraphs(_ items: [Int]) -> [[Int]] {
      var rows: [[Int]] = []
      for i in items.sorted(by: { boxes[$0].minY < boxes[$1].minY }) {
        let middle = (boxes[i].minY + boxes[i].maxY) / 2
        if let first = rows.last?.first, middle >= boxes[first].minY, middle <= boxes[first].maxY {
          rows[rows.count - 1].append(i)
        } else {
          rows.append([i])
        }
      }
      rows = rows.map { $0.sorted { boxes[$0].minX < boxes[$1].minX } }
      let left = items.map { boxes[$0].minX }.min() ?? 0
      let right = items.map { boxes[$0].maxX }.max() ?? 0
      var out: [[Int]] = []
      var previous: [Int] = []
      var previousSplit = false
      for row in rows {
        var split = false
        for (k, i) in row.enumerated() {
          let starts: Bool
          if k > 0 {
            // Side by side: apart when half a line or more lies between.
            starts =
              lines[row[k - 1]].direction != lines[i].direction
              || boxes[i].minX - boxes[row[k - 1]].maxX >= columnGap
            split = split || starts
          } else {
            starts =
              previous.isEmpty || previousSplit
              || startsParagraph(row, after: previous, left: left, right: right)
          }
          if starts { out.append([i]) } else { out[out.count - 1].append(i) }
        }
        previous = row
        previousSplit = split
      }
      return out
    }

    /// Whether a row starts a paragraph after the row above it (rule 4; a
    /// row whose lines stand apart, such as a running head and its page
    /// number, is a paragraph of its own).
    func startsParagraph(_ row: [Int], after above: [Int], left: Double, right: Double) -> Bool {
      guard let b = row.first, let a = above.first, let end = above.last else { return true }
      if lines[a].direction != lines[b].direction { return true }
      let (sa, sb) = (lines[a].size, lines[b].size)
      if sa > 0, sb > 0, abs(sa - sb) > 0.15 * max(sa, sb) { return true }
      if let first = lines[b].words.first?.text, Self.startsListItem(first) { return true }
      let emA = sa > 0 ? sa : em
      let emB = sb > 0 ? sb : em
      // Set in from the region's edge, not where the row above starts, and
      // the row above short.
      return boxes[b].minX - left >= emB && abs(boxes[b].minX - boxes[a].minX) >= emB / 2
        && boxes[end].maxX <= right - emA
    }

    /// Whether a line's first word is a bullet or a list number: `•`,
    /// `1.`, `12)`, `a.`, `iv)`, `(c)`.
    static func startsListItem(_ word: String) -> Bool {
      if word.count == 1, "•◦▪‣⁃●○■□".contains(word) { return true }
      var core = Substring(word)
      if core.first == "(", core.last == ")" {
        core = core.dropFirst().dropLast()
      } else if core.last == "." || core.last == ")" {
        core = core.dropLast()
      } else {
        return false
      }
      guard !core.isEmpty else { return false }
      if core.allSatisfy({ $0.isASCII && $0.isNumber }) { return core.count <= 2 }
      if core.count == 1, let c = core.first, c.isASCII, c.isLetter { return true }
      return core.count <= 4 && core.allSatisfy { "ivxIVX".contains($0) }
    }

    /// Where two lines of a column overlap across by less than half the
    /// shorter one (their fonts' ascent and descent reach past the line
    /// spacing), both are cut at the middle of the overlap, glyphs
    /// included. Lines read in other directions are left as they are.
    static func trimOverlaps(_ lines: inout [TextLine]) {
      var boxes = lines.map(\.box)
      let starts = boxes.map(\.minY)
      let order = lines.indices.filter { lines[$0].direction == 0 }.sorted {
        boxes[$0].minY < boxes[$1].minY
      }
      for (k, i) in order.enumerated() {
        for j in order[(k + 1)...] {
          guard starts[j] < boxes[i].maxY else { break }
          let (a, b) = (boxes[i], boxes[j])
          let overlap = a.maxY - b.minY
          guard min(a.maxX, b.maxX) > max(a.minX, b.minX), overlap > 0,
            overlap < 0.5 * min(a.height, b.height), b.maxY > a.maxY
          else { continue }
          let cut = (a.maxY + b.minY) / 2
          clip(&lines[i], below: cut)
          clip(&lines[j], above: cut)
          boxes[i] = lines[i].box
          boxes[j] = lines[j].box
        }
      }
    }

    static func clip(_ line: inout TextLine, below cut: Double? = nil, above top: Double? = nil) {
      for w in line.words.indices {
        for g in line.words[w].glyphs.indices {
          var r = line.words[w].glyphs[g].box
          if let cut, r.minY < cut { r.maxY = min(r.maxY, cut) }
          if let top, r.maxY > top { r.minY = max(r.minY, top) }
          line.words[w].glyphs[g].box = r
        }
      }
    }
  }
}
