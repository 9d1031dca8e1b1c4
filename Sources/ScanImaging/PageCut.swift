import ScanModel

/// A straight cut through a page's paper, across its whole width or its
/// whole height, along which the page's two parts can be recognised apart,
/// side by side: it crosses no ink, so no letter, line or picture is cut.
///
/// Found from the page's ink profiles (``cut(rowInk:columnInk:minimumGap:minimumGutter:)``):
/// a full-height gutter between columns when there is one (each part then
/// holds whole columns, as the page's own layout reads them), else a
/// blank band between lines across the whole width; in either case the
/// one that shares the ink most evenly between the parts, since
/// recognition's work follows the ink.
public struct PageCut: Hashable, Sendable {
  /// Which way the cut runs.
  public enum Direction: Hashable, Sendable {
    /// Along a row: the parts are the top and the bottom.
    case acrossRows
    /// Along a column: the parts are the left and the right.
    case acrossColumns
  }

  /// Which way the cut runs.
  public var direction: Direction
  /// The first row (or column) of the second part.
  public var position: Int

  /// Creates a cut.
  /// - Parameters:
  ///   - direction: Which way the cut runs.
  ///   - position: The first row (or column) of the second part.
  public init(_ direction: Direction, at position: Int) {
    self.direction = direction
    self.position = position
  }

  /// The two parts of a `width` × `height` page, the first (top or left)
  /// first.
  /// - Complexity: O(1).
  public func parts(width: Int, height: Int) -> [PixelRect] {
    switch direction {
    case .acrossRows:
      return [
        PixelRect(minX: 0, minY: 0, maxX: width, maxY: position),
        PixelRect(minX: 0, minY: position, maxX: width, maxY: height),
      ]
    case .acrossColumns:
      return [
        PixelRect(minX: 0, minY: 0, maxX: position, maxY: height),
        PixelRect(minX: position, minY: 0, maxX: width, maxY: height),
      ]
    }
  }

  /// Whether a column gutter runs across a band cut: a run of columns at
  /// least three times `minimumGap` wide (a cut's gutter), blank (no more
  /// than `minimumGap` ink pixels) both in the rows just above the cut and
  /// in those just below it, with ink on both sides of it. Such a cut goes
  /// through columns of text that go on below it, whose blocks the page's
  /// own layout reads one column after the other: read in parts, the
  /// columns above the cut would be read before those below (cardinal-1's
  /// left column cut under its right column's end read its last lines
  /// after the section under both).
  ///
  /// - Parameters:
  ///   - above: The ink pixels of each column in the rows just above the
  ///     cut.
  ///   - below: The same in the rows just below it (as many columns).
  ///   - minimumGap: The least height of a blank band between lines, in
  ///     pixels (as for ``cut(rowInk:columnInk:minimumGap:minimumGutter:)``).
  /// - Complexity: O(*n*) in the columns.
  public static func gutterCrosses(above: [Int], below: [Int], minimumGap: Int) -> Bool {
    let gap = max(1, minimumGap)
    let count = min(above.count, below.count)
    let inked = (0..<count).filter { above[$0] + below[$0] > gap }
    guard let first = inked.first, let last = inked.last else { return false }
    var run = 0
    for x in first...last {
      if above[x] <= gap, below[x] <= gap {
        run += 1
        if run >= 3 * gap { return true }
      } else {
        run = 0
      }
    }
    return false
  }

  /// The share of the ink either part must hold at least: a cut that
  /// leaves one part with less would keep one core waiting on the other
  /// for most of the page.
  public static let minimumShare = 0.35

  /// The cut through the widest blank run that leaves each part at least
  /// ``minimumShare`` of the page's ink (the most even among equals), or
  /// `nil` when there is none. The widest gap is the likeliest to part
  /// blocks the page's own layout would part too (sections, a heading's
  /// space), rather than lines of one paragraph.
  ///
  /// A column gutter (a blank run of columns at least three times
  /// `minimumGap` wide, and at least `minimumGutter`) is preferred to a band between lines (at least `minimumGap`
  /// high). A row or a column counts as blank when it holds no more than
  /// `minimumGap` ink pixels (specks); a line of small type crossing it
  /// holds more. The cut goes through a row or column of the run without
  /// any ink, the one nearest its middle: a run with none is passed over
  /// (a cut through a speck's pixels is harmless, through the tail of a
  /// letter it is not).
  ///
  /// - Parameters:
  ///   - rowInk: The ink pixels of each row, top to bottom.
  ///   - columnInk: The ink pixels of each column, left to right.
  ///   - minimumGap: The least height of a blank band between lines, in
  ///     pixels.
  ///   - minimumGutter: The least width of a column gutter, in pixels, when
  ///     wider than three times `minimumGap` (a borderless table's columns
  ///     are further apart than that: 50 pixels at 300 dpi in the tables
  ///     family, whose page was cut between them).
  /// - Returns: The cut, through the blank run chosen.
  /// - Complexity: O(*w* + *h*) in the page's width and height.
  public static func cut(
    rowInk: [Int], columnInk: [Int], minimumGap: Int, minimumGutter: Int? = nil
  ) -> PageCut? {
    let gap = max(1, minimumGap)
    let gutter = max(3 * gap, minimumGutter ?? 0)
    if let x = blankRun(columnInk, tolerance: gap, minimumRun: gutter) {
      return PageCut(.acrossColumns, at: x)
    }
    if let y = blankRun(rowInk, tolerance: gap, minimumRun: gap) {
      return PageCut(.acrossRows, at: y)
    }
    return nil
  }

  /// The part of a page inside its dark borders (a scanner's black edge,
  /// the table a book lay on), in the frame of the profiles: the rows and
  /// columns within the outer twentieth of each side that are more than
  /// half ink, and everything outside them, are left out. Profiles of the
  /// part left, measured again, may show borders that the whole page's
  /// hid (a black edge along the side of a page with a black foot).
  /// - Parameters:
  ///   - rowInk: The ink pixels of each row, top to bottom.
  ///   - columnInk: The ink pixels of each column, left to right.
  /// - Complexity: O(*w* + *h*).
  public static func insideBorders(rowInk: [Int], columnInk: [Int]) -> PixelRect {
    func inner(_ profile: [Int], across length: Int) -> Range<Int> {
      let band = profile.count / 20
      let dark = { (i: Int) in 2 * profile[i] > length }
      let start = (0..<band).last(where: dark).map { $0 + 1 } ?? 0
      let end = ((profile.count - band)..<profile.count).first(where: dark) ?? profile.count
      return start..<max(start, end)
    }
    let rows = inner(rowInk, across: columnInk.count)
    let columns = inner(columnInk, across: rowInk.count)
    return PixelRect(
      minX: columns.lowerBound, minY: rows.lowerBound, maxX: columns.upperBound,
      maxY: rows.upperBound)
  }

  /// The empty entry nearest the middle of the longest blank run of
  /// `profile` (entries of at most `tolerance`, `minimumRun` long or more,
  /// with an empty entry) whose sides each hold at least ``minimumShare``
  /// of its sum; ties go to the more even run, then to the first.
  static func blankRun(_ profile: [Int], tolerance: Int, minimumRun: Int) -> Int? {
    let total = profile.reduce(0, +)
    guard total > 0 else { return nil }
    var best: (imbalance: Double, length: Int, middle: Int)?
    var before = 0  // ink before the current index
    var runStart: Int?
    var inkAtRunStart = 0
    func close(at end: Int) {
      guard let start = runStart, end - start >= minimumRun else { return }
      // The run itself holds at most specks: count them on the first side.
      let share = Double(inkAtRunStart) / Double(total)
      guard share >= minimumShare, share <= 1 - minimumShare else { return }
      let imbalance = abs(share - 0.5)
      let length = end - start
      if let b = best, b.length > length || (b.length == length && b.imbalance <= imbalance) {
        return
      }
      let middle = start + length / 2
      guard
        let empty = (start..<end).filter({ profile[$0] == 0 }).min(by: {
          abs($0 - middle) < abs($1 - middle)
        })
      else { return }
      best = (imbalance, length, empty)
    }
    for (i, ink) in profile.enumerated() {
      if ink <= tolerance {
        if runStart == nil {
          runStart = i
          inkAtRunStart = before
        }
      } else if runStart != nil {
        close(at: i)
        runStart = nil
      }
      before += ink
    }
    // A run reaching the page's end is its margin: no part beyond it.
    return best?.middle
  }
}
