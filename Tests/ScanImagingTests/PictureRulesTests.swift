import Testing

@testable import ScanImaging

/// The rules the picture finder clears before it looks for pictures
/// (``PictureRegions``' grid of ink cells): runs long enough whose ink is
/// thin across them at every cell, and nothing of a thick mass of ink.
@Suite("Rules in the picture finder's grid")
struct PictureRulesTests {
  /// A grid from rows of `#` (ink) and `.` (paper).
  static func grid(_ rows: [String]) -> PictureRegions.Grid {
    PictureRegions.Grid(
      width: rows[0].count, height: rows.count, cells: rows.flatMap { $0.map { $0 == "#" } })
  }

  static func picture(_ cells: [Bool], width: Int) -> [String] {
    stride(from: 0, to: cells.count, by: width).map {
      String(cells[$0..<$0 + width].map { $0 ? "#" : "." })
    }
  }

  @Test("A thin run long enough is a rule, across and down; a thick block and a short run are not")
  func rulesAreLongThinRuns() {
    let grid = Self.grid([
      "..........",
      ".########.",
      "..........",
      "#.....###.",
      "#.....###.",
      "#.....###.",
      "#.....###.",
      "#.........",
      ".###......",
    ])
    let rules = grid.rules(length: 5, thickness: 1)
    #expect(
      Self.picture(rules, width: grid.width) == [
        "..........",
        ".########.",
        "..........",
        "#.........",
        "#.........",
        "#.........",
        "#.........",
        "#.........",
        "..........",
      ])
    // Two cells thick is thin enough with a thickness of 2; the block's
    // rows and columns (three cells) are not.
    let thick = Self.grid([
      "........",
      "######..",
      "######..",
      "........",
    ])
    #expect(
      Self.picture(thick.rules(length: 5, thickness: 2), width: thick.width) == [
        "........",
        "######..",
        "######..",
        "........",
      ])
    #expect(thick.rules(length: 5, thickness: 1).allSatisfy { !$0 })
  }
}
