import ScanImaging
import ScanModel
import Testing

/// ``Leaders``: rows of alike, evenly spaced marks standing alone on their
/// level, and what is not one.
@Suite("Leaders")
struct LeadersTests {
  /// `count` marks `size` px square from x = 400, `pitch` px apart, on
  /// baseline 500.
  static func row(_ count: Int, pitch: Int = 22, size: Int = 5, x: Int = 400, y: Int = 500)
    -> [PixelRect]
  {
    (0..<count).map { k in
      PixelRect(minX: x + k * pitch, minY: y - size, maxX: x + k * pitch + size, maxY: y)
    }
  }

  /// Words' letters (30 px high) left and right of the leader.
  static let words = [
    PixelRect(minX: 320, minY: 470, maxX: 350, maxY: 500),
    PixelRect(minX: 355, minY: 470, maxX: 380, maxY: 500),
    PixelRect(minX: 850, minY: 470, maxX: 870, maxY: 500),
  ]

  @Test func aRowOfDotsBetweenTwoWordsIsALeader() {
    let dots = Self.row(20)
    let runs = Leaders.runs(in: Self.words + dots, resolution: 300)
    #expect(runs == [Array(3..<23)])
  }

  @Test func dashesAtMidHeightAreALeader() {
    let dashes = (0..<12).map { k in
      PixelRect(minX: 400 + 30 * k, minY: 483, maxX: 412 + 30 * k, maxY: 486)
    }
    #expect(Leaders.runs(in: Self.words + dashes, resolution: 300).count == 1)
  }

  @Test func anEllipsisIsNoLeader() {
    #expect(Leaders.runs(in: Self.words + Self.row(3, pitch: 9), resolution: 300).isEmpty)
    #expect(Leaders.runs(in: Self.words + Self.row(4, pitch: 9), resolution: 300).isEmpty)
  }

  @Test func unevenMarksAreNoLeader() {
    // Pitches of 10, 30, 10, 30, ... px: specks of noise, not a leader.
    let specks = (0..<10).map { k in
      PixelRect(
        minX: 400 + 20 * k + (k % 2) * 10, minY: 495, maxX: 405 + 20 * k + (k % 2) * 10,
        maxY: 500)
    }
    #expect(Leaders.runs(in: specks, resolution: 300).isEmpty)
    // Marks of very different sizes.
    let mixed = (0..<10).map { k in
      PixelRect(minX: 400 + 22 * k, minY: 490 + (k % 2) * 8, maxX: 405 + 22 * k, maxY: 500)
    }
    #expect(Leaders.runs(in: mixed, resolution: 300).isEmpty)
  }

  @Test func dotsWithInkAboveOrBelowAreNoLeader() {
    // A dot-matrix letter's stroke, or a halftone: rows of dots over rows.
    let grid = (0..<4).flatMap { Self.row(10, y: 500 + 10 * $0) }
    #expect(Leaders.runs(in: grid, resolution: 300).isEmpty)
    // A dotted underline under a word.
    let underline = Self.row(10, size: 3, y: 510)
    let word = PixelRect(minX: 400, minY: 470, maxX: 600, maxY: 500)
    #expect(Leaders.runs(in: [word] + underline, resolution: 300).isEmpty)
  }

  /// Develop `columns-1003`: the letters of "cense" in a footnote's
  /// small type (15 px at 300 dpi) are alike, level and evenly spaced; they
  /// nearly touch, and are as tall as the letters beside them.
  @Test func lettersOfSmallTypeAreNoLeader() {
    let letters = (0..<5).map { k in
      PixelRect(minX: 1108 + 15 * k, minY: 2404, maxX: 1121 + 15 * k, maxY: 2419)
    }
    let before = [
      PixelRect(minX: 1082, minY: 2399, maxX: 1096, maxY: 2419),
      PixelRect(minX: 1098, minY: 2398, maxX: 1104, maxY: 2419),
    ]
    #expect(Leaders.runs(in: before + letters, resolution: 300).isEmpty)
    // Spaced apart, marks as tall as the text beside them are letters too.
    let spaced = (0..<6).map { k in
      PixelRect(minX: 1120 + 30 * k, minY: 2404, maxX: 1133 + 30 * k, maxY: 2419)
    }
    #expect(Leaders.runs(in: before + spaced, resolution: 300).isEmpty)
  }

  /// The steps of a slanting edge in a photo (`Scans/photo-flat.jpg`):
  /// 13 × 1 px pieces, evenly spaced, with no text beside them.
  @Test func aRowOfMarksLeadingFromNoTextIsNoLeader() {
    #expect(Leaders.runs(in: Self.row(8, pitch: 19, size: 1), resolution: 300).isEmpty)
    #expect(
      Leaders.runs(in: Self.row(8, pitch: 19, size: 1) + Self.words, resolution: 300).count == 1)
  }

  @Test func marksTooBigForALeaderAreNone() {
    // Round marks a tenth of an inch across at 300 dpi: bullets, letters.
    #expect(Leaders.runs(in: Self.row(10, pitch: 60, size: 30), resolution: 300).isEmpty)
  }
}
