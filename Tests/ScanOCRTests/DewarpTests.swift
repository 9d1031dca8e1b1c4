import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

@Suite("Dewarping curled text lines")
struct DewarpTests {
  @Test("A point of the dewarped page maps back up by the disparity, read as Leptonica spreads it")
  func disparityMapsPointsBack() {
    // Samples 8 px apart: v = 0, 8 on the first row, 4, 12 on the second,
    // that is v = x + y / 2, which bilinear reading and the linear
    // extension beyond the samples (Leptonica's slope border) keep.
    let field = Disparity(step: 8, columns: 2, rows: 2, values: [0, 8, 4, 12])
    #expect(field.source(of: Point(x: 0, y: 0)) == Point(x: 0, y: 0))
    #expect(field.source(of: Point(x: 8, y: 0)) == Point(x: 8, y: -8))
    #expect(field.shift(at: Point(x: 4, y: 4)) == 6)
    #expect(field.source(of: Point(x: 4, y: 20)) == Point(x: 4, y: 6))
    #expect(field.shift(at: Point(x: 100, y: 100)) == 150)
    #expect(field.shift(at: Point(x: -5, y: -5)) == -7.5)
    // One sample: the same shift everywhere.
    #expect(
      Disparity(step: 30, columns: 1, rows: 1, values: [3]).shift(at: Point(x: 70, y: 9)) == 3)
  }

  @Test(
    "No sample page is dewarped (the curled photo is too small for the halved model)",
    arguments: Fixtures.scanImages)
  func flatPagesAreLeftAlone(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    #expect(!page.preprocessing.contains("dewarp"), "\(image): \(page.preprocessing)")
  }

  @Test(
    "Real flat scans are never dewarped; the curled cookbook photo is, and reads better",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func realPages() throws {
    for image in RealScans.images where image != "ocrd/boston-cooking-a.jpg" {
      for page in try RealScans.pages(image) {
        #expect(!page.preprocessing.contains("dewarp"), "\(image): \(page.preprocessing)")
      }
    }
    let image = "ocrd/boston-cooking-a.jpg"
    let dewarped = try #require(try RealScans.pages(image).first)
    var steps = Preprocessing.default
    steps.remove(.dewarp)
    let curled = try #require(try RealScans.pages(image, preprocessing: steps).first)
    #expect(dewarped.preprocessing == ["orientation", "dewarp"])
    #expect(!curled.preprocessing.contains("dewarp"))
    func confident(_ page: Page) -> Int {
      page.words.filter { ($0.confidence ?? 0) >= 80 }.count
    }
    // 296 words at confidence >= 80 without dewarping, 332 with.
    #expect(confident(dewarped) >= confident(curled) + 25, "\(confident(dewarped))")
    // Every box is in the photo's pixels and the selection geometry holds.
    #expect(dewarped.verify().violations.isEmpty)
    // The same words sit where they sat without dewarping: the mapping
    // back through the disparity lands on the photo's text (words read
    // once in each reading; lines are 69 px apart there). Measured: 81 of
    // 99 within 30 px, median 13 px; with the disparity's sign turned, 68
    // and 20.5 px.
    func once(_ page: Page) -> [String: PixelRect] {
      let counts = Dictionary(page.words.map { ($0.text, 1) }, uniquingKeysWith: +)
      return Dictionary(
        page.words.filter { $0.text.count >= 4 && counts[$0.text] == 1 }.map { ($0.text, $0.bbox) },
        uniquingKeysWith: { a, _ in a })
    }
    let before = once(curled)
    var matched = 0
    var near = 0
    for (text, box) in once(dewarped) {
      guard let old = before[text] else { continue }
      matched += 1
      let a = box.rect
      let b = old.rect
      let dx = abs((a.minX + a.maxX) - (b.minX + b.maxX)) / 2
      let dy = abs((a.minY + a.maxY) - (b.minY + b.maxY)) / 2
      if max(dx, dy) < 30 { near += 1 }
    }
    #expect(matched >= 80)
    #expect(Double(near) >= 0.75 * Double(matched), "\(near) of \(matched)")
  }
}
