import ScanImaging
import ScanModel
import Testing

/// Where a page is cut to be recognised on two cores (issue 47).
@Suite("Cutting a page for recognition side by side")
struct PageCutTests {
  /// A profile of `length` entries, `ink` in each of `inked` and 0 elsewhere.
  func profile(_ length: Int, inked: [Range<Int>], ink: Int = 50) -> [Int] {
    var p = [Int](repeating: 0, count: length)
    for range in inked { for i in range { p[i] = ink } }
    return p
  }

  /// A column of text: lines 30 px high with 10 px between them, from row
  /// 100 to 900, over 1000 rows; every column of 100...900 inked.
  var column: (rows: [Int], columns: [Int]) {
    let lines = stride(from: 100, to: 900, by: 40).map { $0..<($0 + 30) }
    return (profile(1000, inked: lines), profile(1000, inked: [100..<900]))
  }

  @Test func aColumnIsCutBetweenItsMiddleLines() throws {
    let (rows, columns) = column
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    // Lines start at 100 + 40k; the blank band nearest the middle of the
    // ink is 490..<500 (10 lines above it, 10 below).
    #expect(cut == PageCut(.acrossRows, at: 495))
    #expect(
      cut.parts(width: 1000, height: 1000) == [
        PixelRect(minX: 0, minY: 0, maxX: 1000, maxY: 495),
        PixelRect(minX: 0, minY: 495, maxX: 1000, maxY: 1000),
      ])
  }

  @Test func twoColumnsAreCutAtTheirGutter() throws {
    let (rows, _) = column
    // Columns 100..<480 and 520..<900: a gutter of 40 px.
    let columns = profile(1000, inked: [100..<480, 520..<900])
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    #expect(cut == PageCut(.acrossColumns, at: 500))
    #expect(
      cut.parts(width: 1000, height: 800)[1] == PixelRect(minX: 500, minY: 0, maxX: 1000, maxY: 800)
    )
  }

  @Test func aNarrowGapBetweenColumnsIsNotAGutter() throws {
    // 6 px between a table's columns: narrower than three line gaps.
    let (rows, _) = column
    let columns = profile(1000, inked: [100..<497, 503..<900])
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    #expect(cut.direction == .acrossRows)
  }

  @Test func specksDoNotCloseABlankBand() throws {
    var (rows, columns) = column
    rows[494] = 2  // a speck in the band
    rows[495] = 3
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    // Through the band's emptiest row nearest its middle.
    #expect(cut == PageCut(.acrossRows, at: 496))
  }

  @Test func theWidestGapIsPreferredToTheMostEvenOne() throws {
    // Two sections: 8 lines, an 80 px gap (a heading's space), 12 lines.
    let lines =
      stride(from: 100, to: 420, by: 40).map { $0..<($0 + 30) }
      + stride(from: 490, to: 970, by: 40).map { $0..<($0 + 30) }
    let rows = profile(1000, inked: lines)
    let columns = profile(1000, inked: [100..<900])
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    // 8 of 20 lines above (0.4): the section break at 410..<490, not a
    // line gap nearer the middle of the ink.
    #expect(cut == PageCut(.acrossRows, at: 450))
  }

  @Test func aBandWithInkInEveryRowIsNotCut() throws {
    var (rows, columns) = column
    for y in 490..<500 { rows[y] = 1 }  // a faint stroke through the band
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    #expect(cut.position != 495)
    #expect((450..<460).contains(cut.position) || (530..<540).contains(cut.position))
  }

  @Test func aLineOfSmallTypeAcrossAGutterClosesIt() throws {
    let (rows, _) = column
    // A footnote's line runs under both columns: 12 ink pixels in each
    // column of the gutter.
    var columns = profile(1000, inked: [100..<480, 520..<900])
    for x in 480..<520 { columns[x] = 12 }
    let cut = try #require(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3))
    #expect(cut.direction == .acrossRows)
  }

  @Test func noCutLeavesEitherPartWithTooLittleInk() {
    // A heading, a wide gap, then one dense block: the only gap leaves 10 %
    // of the ink above it.
    var dense = profile(1000, inked: [100..<130])
    for i in 200..<700 { dense[i] = 54 }
    let columns = profile(1000, inked: [100..<900])
    #expect(PageCut.cut(rowInk: dense, columnInk: columns, minimumGap: 3) == nil)
  }

  @Test func aBlankPageOrMarginsAloneAreNotCut() {
    let blank = [Int](repeating: 0, count: 500)
    #expect(PageCut.cut(rowInk: blank, columnInk: blank, minimumGap: 3) == nil)
    // Ink from top to bottom with blank margins only.
    let rows = profile(500, inked: [50..<450])
    let columns = profile(500, inked: [50..<450])
    #expect(PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3) == nil)
  }

  /// Two columns above a band and going on below it: a gutter crosses.
  @Test func aGutterOfColumnsGoingOnCrossesTheBand() {
    let columns =
      [Int](repeating: 40, count: 450) + [Int](repeating: 0, count: 30)
      + [Int](repeating: 40, count: 450)
    #expect(PageCut.gutterCrosses(above: columns, below: columns, minimumGap: 3))
  }

  /// The left column going on under the right column's end (cardinal-1):
  /// the gutter is blank below as above.
  @Test func aColumnGoingOnUnderTheOthersEndCrosses() {
    let above =
      [Int](repeating: 40, count: 450) + [Int](repeating: 0, count: 30)
      + [Int](repeating: 40, count: 450)
    let below = [Int](repeating: 40, count: 450) + [Int](repeating: 0, count: 480)
    #expect(PageCut.gutterCrosses(above: above, below: below, minimumGap: 3))
  }

  /// Full-width lines above two columns (linn's list of features), or a
  /// paragraph's short last line above a centred heading: no gutter runs
  /// through both bands.
  @Test func fullWidthTextOnOneSideDoesNotCross() {
    let full = [Int](repeating: 40, count: 930)
    let columns =
      [Int](repeating: 40, count: 450) + [Int](repeating: 0, count: 30)
      + [Int](repeating: 40, count: 450)
    #expect(!PageCut.gutterCrosses(above: full, below: columns, minimumGap: 3))
    #expect(!PageCut.gutterCrosses(above: columns, below: full, minimumGap: 3))
    let shortLine = [Int](repeating: 40, count: 400) + [Int](repeating: 0, count: 530)
    let heading =
      [Int](repeating: 0, count: 300) + [Int](repeating: 40, count: 330)
      + [Int](repeating: 0, count: 300)
    #expect(!PageCut.gutterCrosses(above: shortLine, below: heading, minimumGap: 3))
  }

  /// tables-9003: a borderless table's columns 50 pixels apart at 300 dpi
  /// are no gutter when a gutter must be 60 (a fifth of an inch); the
  /// table is cut across its rows or not at all, never between columns.
  @Test func aTablesColumnsAreNoGutter() {
    let rows = (0..<1000).map { $0 % 50 < 30 ? 60 : 0 }
    let columns =
      [Int](repeating: 40, count: 400) + [Int](repeating: 0, count: 50)
      + [Int](repeating: 40, count: 400)
    #expect(
      PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3)?.direction == .acrossColumns)
    #expect(
      PageCut.cut(rowInk: rows, columnInk: columns, minimumGap: 3, minimumGutter: 60)?.direction
        != .acrossColumns)
  }
}
