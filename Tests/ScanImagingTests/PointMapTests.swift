import Foundation
import ScanImaging
import ScanModel
import Testing

/// One map from the recognised image back to the original, composed from
/// the steps' own maps in the order they ran.
@Suite("The page's point map")
struct PointMapTests {
  let crop = ImageTransform.undoCrop(x: 40, y: 25)
  let turn = ImageTransform.undoQuarterTurns(1, width: 300, height: 200)
  let rotation = ImageTransform.undoRotation(degrees: 2.5, width: 200, height: 300)
  let scale = ImageTransform.undoScale(1.5)
  let field = Disparity(step: 8, columns: 2, rows: 2, values: [0, 8, 4, 12])

  @Test func projectiveStepsBecomeTheirProductInTheOrderTheyRan() {
    let map = PointMap(.projective(crop)).composed(after: .projective(turn))
      .composed(after: .projective(rotation))
    // One piece, bit for bit the product the steps make one after another.
    #expect(map.pieces == [.projective(crop.composed(after: turn).composed(after: rotation))])
    #expect(map.projective == crop.composed(after: turn).composed(after: rotation))
    let p = Point(x: 17.25, y: 80.5)
    let stepByStep = crop.apply(turn.apply(rotation.apply(p)))
    #expect(abs(map.apply(p).x - stepByStep.x) < 1e-9 && abs(map.apply(p).y - stepByStep.y) < 1e-9)
    #expect(!map.isIdentity && !map.bends && !map.splitsSpread && !map.hasPerspective)
  }

  @Test func aDisparityStaysBetweenTheProjectiveMapsAroundIt() {
    let map = PointMap(.projective(rotation)).composed(after: .dewarp(field))
      .composed(after: .projective(scale))
    #expect(map.pieces == [.projective(rotation), .dewarp(field), .projective(scale)])
    #expect(map.projective == nil && map.bends)
    let p = Point(x: 9, y: 30)
    #expect(map.apply(p) == rotation.apply(field.source(of: scale.apply(p))))
  }

  @Test func aSpreadGoesBackPageByPageAfterTheLaterSteps() {
    let sheet = SheetMap(
      split: 100, left: .undoCrop(x: 5, y: 5), right: .undoCrop(x: 50, y: 0))
    let map = PointMap(.sheet(sheet)).composed(after: .projective(.identity))
      .composed(after: .projective(.undoScale(0.5)))
    #expect(map.splitsSpread && map.projective == nil)
    // Twice the size back, then the page each side of the split.
    #expect(map.apply(Point(x: 10, y: 10)) == Point(x: 25, y: 25))
    #expect(map.apply(Point(x: 80, y: 10)) == Point(x: 210, y: 20))
  }

  @Test func theIdentityMapsEveryPointToItself() {
    #expect(PointMap.identity.isIdentity && PointMap.identity.projective == .identity)
    #expect(PointMap.identity.apply(Point(x: 3, y: 4)) == Point(x: 3, y: 4))
    #expect(PointMap(.projective(.identity)).isIdentity)
    let perspective = ImageTransform(a: 1, e: 1, g: 0.001)
    #expect(PointMap(.projective(perspective)).hasPerspective)
  }
}
