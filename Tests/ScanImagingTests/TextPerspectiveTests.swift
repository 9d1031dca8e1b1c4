import Foundation
import ScanModel
import Testing

@testable import ScanImaging

/// The perspective of a page measured from its text (``TextPerspective``)
/// on synthetic columns: lines of words on a flat page, photographed
/// through a known homography.
@Suite("Text perspective")
struct TextPerspectiveTests {
  /// A justified column on the page: 16 lines 40 px apart, words 60 px
  /// wide every 80 px from x = 100 to 880, each paragraph's first line
  /// indented by 80 px, its last line ending before x = 500.
  static func column(ragged: Bool = false) -> [[(x0: Double, x1: Double, y: Double)]] {
    (0..<16).map { k in
      let y = 100 + 40 * Double(k)
      let first = k % 4 == 0
      let last = k % 4 == 3
      let start = first ? 180.0 : 100
      // A ragged line ends anywhere within a long word of the margin.
      let end = last ? 500.0 : ragged ? 900 - Double((k * 37) % 5) * 40 : 900
      return stride(from: start, to: end - 1, by: 80).map { (x0: $0, x1: $0 + 60, y: y) }
    }
  }

  /// The column's lines as the photo shows them through `t` (page to
  /// photo), each word's height 30 px on the page.
  static func samples(
    _ t: ImageTransform, bend: Double = 0, ragged: Bool = false
  ) -> [TextLineSample] {
    column(ragged: ragged).map { words in
      // A curled page lifts each line by `bend` px toward its right end.
      func lift(_ x: Double) -> Double { bend * ((x - 100) / 800) * ((x - 100) / 800) }
      func at(_ x: Double, _ y: Double) -> Point { t.apply(Point(x: x, y: y - lift(x))) }
      return TextLineSample(
        centres: words.map { at(($0.x0 + $0.x1) / 2, $0.y) },
        start: at(words[0].x0, words[0].y),
        end: at(words[words.count - 1].x1, words[0].y), height: 30)
    }
  }

  /// A page photographed with its right side 12 % shorter than its left
  /// (the camera nearer the left edge), and turned 2°.
  static let keystone: ImageTransform = {
    let page = [
      Point(x: 0, y: 0), Point(x: 1000, y: 0), Point(x: 1000, y: 800), Point(x: 0, y: 800),
    ]
    let turn = 2 * Double.pi / 180
    let photo = [
      Point(x: 50, y: 40), Point(x: 1050, y: 88), Point(x: 1050, y: 792),
      Point(x: 50, y: 840),
    ].map { p in
      Point(x: cos(turn) * p.x - sin(turn) * p.y + 40, y: sin(turn) * p.x + cos(turn) * p.y)
    }
    return ImageTransform.projective(from: page, to: photo) ?? .identity
  }()

  @Test func aTurnedPageSeenSquareOnIsClearAndSquare() throws {
    let turn = 3 * Double.pi / 180
    let t = ImageTransform(
      a: cos(turn), b: -sin(turn), c: 60, d: sin(turn), e: cos(turn), f: 20)
    let m = try #require(TextPerspective.measure(Self.samples(t)))
    #expect(m.isClear, "\(m)")
    #expect(m.cornerAngleDeviation < 0.2, "\(m.cornerAngleDeviation)")
    #expect(abs(m.slopeChange) < 1e-3, "\(m.slopeChange)")
  }

  @Test func aKeystonedPagesTextBlockLiesOnItsTrueCorners() throws {
    let m = try #require(TextPerspective.measure(Self.samples(Self.keystone)))
    #expect(m.isClear, "\(m)")
    #expect(m.leftShare >= 0.75 && m.rightShare >= 0.75, "\(m.leftShare) \(m.rightShare)")
    // The first and last lines' centres (y 100 and 700) and the margins
    // (x 100 and 880, the last word's end), through the homography.
    let truth = [
      Point(x: 100, y: 100), Point(x: 880, y: 100), Point(x: 880, y: 700), Point(x: 100, y: 700),
    ].map(Self.keystone.apply)
    for (found, expected) in zip(m.corners, truth) {
      #expect(distance(found, expected) < 2, "\(found) against \(expected)")
    }
    let square = PageOutline(corners: truth, paper: 0, background: 0).cornerAngleDeviation
    #expect(abs(m.cornerAngleDeviation - square) < 0.2)
    #expect(m.cornerAngleDeviation >= 1.5)
  }

  @Test func raggedTextHasNoRightMargin() throws {
    let m = try #require(TextPerspective.measure(Self.samples(Self.keystone, ragged: true)))
    #expect(m.rightShare < TextPerspective.minimumMarginShare, "\(m.rightShare)")
    #expect(!m.isClear)
  }

  @Test func curledLinesAreNoPerspective() throws {
    // Lines rising by 100 px toward the spine (the photo family curls its
    // pages by 40–220): not straight lines. A milder curl passes for
    // straight (25 px: 0.06 word heights off a line); such a page is the
    // dewarp step's, and the no-harm rule keeps the better reading.
    let m = try #require(TextPerspective.measure(Self.samples(Self.keystone, bend: 100)))
    #expect(m.straightness > TextPerspective.maximumStraightness, "\(m.straightness)")
    #expect(!m.isClear, "\(m)")
  }

  @Test func tooFewLinesMeasureNothing() {
    let few = Array(Self.samples(.identity).prefix(TextPerspective.minimumLines - 1))
    #expect(TextPerspective.measure(few) == nil)
  }

  @Test func theStraighteningQuadHoldsThePhoto() throws {
    let m = try #require(TextPerspective.measure(Self.samples(Self.keystone)))
    let quad = try #require(m.straighteningQuad(width: 1100, height: 900))
    // Every corner of the photo lies inside the quadrilateral (convex,
    // clockwise in image coordinates: every cross product positive).
    for p in [
      Point(x: 0, y: 0), Point(x: 1100, y: 0), Point(x: 1100, y: 900), Point(x: 0, y: 900),
    ] {
      for i in 0..<4 {
        let a = quad[i]
        let b = quad[(i + 1) % 4]
        #expect((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= -1e-6, "\(p) \(quad)")
      }
    }
  }

  @Test func theProjectiveMapTakesFourPointsToFour() throws {
    let from = [
      Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10),
    ]
    let to = [
      Point(x: 1, y: 2), Point(x: 12, y: 1), Point(x: 11, y: 13), Point(x: 0, y: 9),
    ]
    let t = try #require(ImageTransform.projective(from: from, to: to))
    for (p, q) in zip(from, to) { #expect(distance(t.apply(p), q) < 1e-9) }
    let line = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 0, y: 5)]
    #expect(ImageTransform.projective(from: line, to: to) == nil)
  }
}
