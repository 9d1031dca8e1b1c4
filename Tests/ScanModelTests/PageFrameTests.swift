import Testing

@testable import ScanModel

/// A photographed page's own frame for the layout rules (issue 12).
struct PageFrameTests {
  @Test func cornersMapToThePagesRectangle() throws {
    let corners = Quad(
      topLeft: Point(x: 172, y: 148), topRight: Point(x: 1832, y: 196),
      bottomRight: Point(x: 1884, y: 1302), bottomLeft: Point(x: 116, y: 1266))
    let frame = PageFrame(
      box: PixelRect(minX: 116, minY: 148, maxX: 1884, maxY: 1302), corners: corners)
    let (w, h) = frame.size
    let map = try #require(frame.pointMap())
    let expected = [
      Point(x: 0, y: 0), Point(x: Double(w), y: 0), Point(x: Double(w), y: Double(h)),
      Point(x: 0, y: Double(h)),
    ]
    for (corner, target) in zip(
      [corners.topLeft, corners.topRight, corners.bottomRight, corners.bottomLeft], expected)
    {
      let mapped = map(corner)
      #expect(abs(mapped.x - target.x) < 1e-6 && abs(mapped.y - target.y) < 1e-6, "\(mapped)")
    }
    // The longer of each pair of opposite edges.
    #expect(w == 1768 && h == 1119, "\(w) × \(h)")
  }

  @Test func aBoxOnlyMovesTheOrigin() throws {
    let frame = PageFrame(box: PixelRect(minX: 40, minY: 60, maxX: 840, maxY: 1260))
    #expect(frame.size == (800, 1200))
    let map = try #require(frame.pointMap())
    #expect(map(Point(x: 40, y: 60)) == Point(x: 0, y: 0))
    #expect(map(Point(x: 140, y: 100)) == Point(x: 100, y: 40))
  }

  @Test func degenerateCornersGiveNoMap() {
    let p = Point(x: 10, y: 10)
    let frame = PageFrame(
      box: PixelRect(minX: 0, minY: 0, maxX: 20, maxY: 20),
      corners: Quad(topLeft: p, topRight: p, bottomRight: p, bottomLeft: p))
    #expect(frame.pointMap() == nil)
  }

  /// A page number near the foot of a page that stands in the middle of a
  /// large photo: far from the photo's edges, near the page's.
  @Test func rolesAreMeasuredFromThePagesEdges() {
    let body = RoleDetectionTests.paragraph(
      Array(repeating: "The ferry left the harbour at dawn and the sea was calm all", count: 6),
      x: 600, y: 700, size: 30)
    let number = RoleDetectionTests.paragraph(["24"], x: 900, y: 1900, size: 24)
    let blocks = [
      Block(bbox: body.bbox, paragraphs: [body]), Block(bbox: number.bbox, paragraphs: [number]),
    ]
    let inPhoto = RoleDetection.assigningRoles(
      to: blocks, pageWidth: 3000, pageHeight: 4000, orientation: 0)
    #expect(inPhoto[1].paragraphs[0].role != .pageNumber)
    let onPage = RoleDetection.assigningRoles(
      to: blocks, pageWidth: 3000, pageHeight: 4000, orientation: 0,
      page: PageFrame(box: PixelRect(minX: 500, minY: 500, maxX: 1900, maxY: 2000)))
    #expect(onPage[1].paragraphs[0].role == .pageNumber)
    #expect(onPage[0].paragraphs[0].role == .body)
  }
}
