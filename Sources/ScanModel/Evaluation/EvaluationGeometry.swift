/// Geometry helpers for the evaluation: a uniform grid over boxes for
/// candidate lookups, and exact areas of unions of rectangles.
enum EvaluationGeometry {
  /// A uniform grid over pixel boxes that answers "which boxes may intersect
  /// this box" by visiting only the cells the query covers.
  ///
  /// The cell size is the median of the boxes' larger sides, grown until the
  /// grid has at most about four cells per box. A box spanning more than
  /// ``maxCellsPerBox`` cells (an oversized OCR box) is kept in a separate
  /// list that every query checks, so building stays O(*n*).
  struct Grid {
    static let maxCellsPerBox = 64

    private let boxes: [PixelRect]
    private let originX: Int
    private let originY: Int
    private let cell: Int
    private let columns: Int
    private let rows: Int
    /// Compressed cell lists: the boxes of cell `c` are
    /// `items[cellStart[c]..<cellStart[c + 1]]`.
    private let cellStart: [Int]
    private let items: [Int]
    private let oversized: [Int]

    /// Builds the grid; empty boxes are left out (they intersect nothing).
    /// - Complexity: O(*n* log *n*) for the median, O(*n*) otherwise.
    init(_ boxes: [PixelRect]) {
      self.boxes = boxes
      let live = boxes.indices.filter { !boxes[$0].isEmpty }
      guard let bounds = PixelRect.union(live.map { boxes[$0] }) else {
        (originX, originY, cell, columns, rows) = (0, 0, 1, 0, 0)
        (cellStart, items, oversized) = ([0], [], [])
        return
      }
      let sides = live.map { max(boxes[$0].width, boxes[$0].height) }.sorted()
      var cell = max(1, sides[sides.count / 2])
      let limit = 4 * live.count + 16
      func count(_ extent: Int, _ cell: Int) -> Int { (extent + cell - 1) / cell }
      while count(bounds.width, cell) * count(bounds.height, cell) > limit { cell *= 2 }
      let columns = count(bounds.width, cell)
      let rows = count(bounds.height, cell)
      self.originX = bounds.minX
      self.originY = bounds.minY
      self.cell = cell
      self.columns = columns
      self.rows = rows

      var perCell = [Int](repeating: 0, count: columns * rows + 1)
      var oversized: [Int] = []
      var placed: [(box: Int, cells: (Range<Int>, Range<Int>))] = []
      for i in live {
        let span = Self.cells(of: boxes[i], originX: bounds.minX, originY: bounds.minY, cell: cell)
        if span.0.count * span.1.count > Self.maxCellsPerBox {
          oversized.append(i)
          continue
        }
        placed.append((i, span))
        for r in span.1 { for c in span.0 { perCell[r * columns + c + 1] += 1 } }
      }
      for c in 0..<(columns * rows) { perCell[c + 1] += perCell[c] }
      var fill = perCell
      var items = [Int](repeating: 0, count: perCell[columns * rows])
      for (i, span) in placed {
        for r in span.1 {
          for c in span.0 {
            items[fill[r * columns + c]] = i
            fill[r * columns + c] += 1
          }
        }
      }
      self.cellStart = perCell
      self.items = items
      self.oversized = oversized
    }

    /// The column and row ranges of the cells `box` touches (not clamped).
    private static func cells(
      of box: PixelRect, originX: Int, originY: Int, cell: Int
    ) -> (Range<Int>, Range<Int>) {
      let c0 = floorDiv(box.minX - originX, cell)
      let c1 = floorDiv(box.maxX - 1 - originX, cell) + 1
      let r0 = floorDiv(box.minY - originY, cell)
      let r1 = floorDiv(box.maxY - 1 - originY, cell) + 1
      return (c0..<max(c0, c1), r0..<max(r0, r1))
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
      a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// The indices of the boxes that share at least one pixel with `box`,
    /// in increasing order.
    /// - Complexity: O(*c* + *k* log *k*) in the cells `box` covers and the
    ///   boxes found there, plus the oversized boxes.
    func boxes(intersecting box: PixelRect) -> [Int] {
      guard !box.isEmpty, columns > 0 else { return [] }
      let span = Self.cells(of: box, originX: originX, originY: originY, cell: cell)
      // A box partly or wholly outside the grid touches fewer (or no) cells.
      let c0 = max(span.0.lowerBound, 0)
      let r0 = max(span.1.lowerBound, 0)
      let cols = c0..<max(c0, min(span.0.upperBound, columns))
      let rowRange = r0..<max(r0, min(span.1.upperBound, rows))
      var found: [Int] = []
      if !cols.isEmpty, !rowRange.isEmpty {
        for r in rowRange {
          for c in cols {
            for k in cellStart[r * columns + c]..<cellStart[r * columns + c + 1]
            where boxes[items[k]].intersection(box) != nil {
              found.append(items[k])
            }
          }
        }
      }
      for i in oversized where boxes[i].intersection(box) != nil { found.append(i) }
      found.sort()
      var unique: [Int] = []
      unique.reserveCapacity(found.count)
      for i in found where unique.last != i { unique.append(i) }
      return unique
    }
  }

  /// The overlap of two rectangles, or `nil` when it has no area.
  static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
    let r = Rect(
      minX: max(a.minX, b.minX), minY: max(a.minY, b.minY),
      maxX: min(a.maxX, b.maxX), maxY: min(a.maxY, b.maxY))
    return r.maxX > r.minX && r.maxY > r.minY ? r : nil
  }

  /// The exact area of the union of `rects`, by a sweep over the distinct
  /// x-coordinates: in each vertical slab, the covered y-intervals are
  /// merged and their lengths summed.
  /// - Complexity: O(*k*² log *k*) in the number of rectangles.
  static func unionArea(_ rects: [Rect]) -> Double {
    let live = rects.filter { $0.maxX > $0.minX && $0.maxY > $0.minY }
    guard !live.isEmpty else { return 0 }
    if live.count == 1 { return live[0].area }
    var xs = live.flatMap { [$0.minX, $0.maxX] }
    xs.sort()
    var area = 0.0
    var intervals: [(Double, Double)] = []
    for i in 0..<(xs.count - 1) {
      let x0 = xs[i]
      let x1 = xs[i + 1]
      guard x1 > x0 else { continue }
      intervals.removeAll(keepingCapacity: true)
      for r in live where r.minX <= x0 && r.maxX >= x1 { intervals.append((r.minY, r.maxY)) }
      guard !intervals.isEmpty else { continue }
      intervals.sort { $0.0 < $1.0 }
      var covered = 0.0
      var (lo, hi) = intervals[0]
      for (a, b) in intervals.dropFirst() {
        if a > hi {
          covered += hi - lo
          (lo, hi) = (a, b)
        } else {
          hi = max(hi, b)
        }
      }
      covered += hi - lo
      area += covered * (x1 - x0)
    }
    return area
  }
}
