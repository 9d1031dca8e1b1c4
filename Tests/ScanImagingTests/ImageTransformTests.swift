import Foundation
import ScanImaging
import ScanModel
import Testing

@Suite("Mapping recognised geometry back to the original image")
struct ImageTransformTests {
  func close(_ a: Point, _ b: Point, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "\(a) vs \(b)", sourceLocation: sourceLocation
    )
  }

  /// Where a point of the original lands after turning the image clockwise.
  func turned(_ p: Point, quarterTurns: Int, width: Double, height: Double) -> Point {
    switch quarterTurns % 4 {
    case 1: Point(x: height - p.y, y: p.x)
    case 2: Point(x: width - p.x, y: height - p.y)
    case 3: Point(x: p.y, y: width - p.x)
    default: p
    }
  }

  @Test func quarterTurnsRoundTrip() {
    let points = [
      Point(x: 0, y: 0), Point(x: 10, y: 3), Point(x: 199, y: 99), Point(x: 200, y: 100),
    ]
    for q in 0..<4 {
      let back = ImageTransform.undoQuarterTurns(q, width: 200, height: 100)
      for p in points { close(back.apply(turned(p, quarterTurns: q, width: 200, height: 100)), p) }
    }
  }

  @Test func rotationsRoundTrip() {
    for degrees in [-7.0, -1.5, 0.3, 2, 5] {
      let back = ImageTransform.undoRotation(degrees: degrees, width: 300, height: 200)
      let forward = ImageTransform.undoRotation(degrees: -degrees, width: 300, height: 200)
      for p in [Point(x: 0, y: 0), Point(x: 150, y: 100), Point(x: 290, y: 15)] {
        close(back.apply(forward.apply(p)), p)
      }
      // The centre stays put; clockwise means +x goes to +y.
      close(forward.apply(Point(x: 150, y: 100)), Point(x: 150, y: 100))
    }
    let clockwise = ImageTransform.undoRotation(degrees: -90, width: 300, height: 200)
    close(clockwise.apply(Point(x: 160, y: 100)), Point(x: 150, y: 110))
  }

  @Test func compositionAppliesTheInnerMapFirst() {
    let scale = ImageTransform.undoScale(2)
    let turn = ImageTransform.undoQuarterTurns(2, width: 100, height: 50)
    let both = turn.composed(after: scale)
    close(both.apply(Point(x: 20, y: 10)), turn.apply(scale.apply(Point(x: 20, y: 10))))
    #expect(scale.keepsBoxesUpright)
    #expect(!turn.keepsBoxesUpright)
    #expect(ImageTransform.identity.isIdentity)
  }
}
