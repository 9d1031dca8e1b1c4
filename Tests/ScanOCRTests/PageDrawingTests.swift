import CScanOCR
import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

@Suite("Drawing pages")
struct PageDrawingTests {
  /// A 300×120 page with a confident word and an unsure one.
  static var page: Page {
    let sure = Word(
      text: "sure", bbox: PixelRect(minX: 20, minY: 30, maxX: 120, maxY: 70), confidence: 95)
    let unsure = Word(
      text: "unsure", bbox: PixelRect(minX: 150, minY: 30, maxX: 280, maxY: 70), confidence: 30)
    let line = TextLine(
      bbox: PixelRect(minX: 20, minY: 30, maxX: 280, maxY: 70), words: [sure, unsure])
    return Page(
      width: 300, height: 120,
      blocks: [Block(bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])])
  }

  /// The drawing decoded again: (r, g, b) at a pixel.
  struct Pixels {
    let image: LeptonicaImage
    init(_ png: Data) throws {
      let source = try ImageSource(png, path: "drawing.png", maxPixels: 100_000_000)
      image = try source.decode(page: 0)
    }
    subscript(x: Int, y: Int) -> (Int, Int, Int) {
      var value: UInt32 = 0
      _ = scantext_pixGetPixel(image.pix, Int32(x), Int32(y), &value)
      return (Int(value >> 24), Int((value >> 16) & 0xFF), Int((value >> 8) & 0xFF))
    }
  }

  @Test func boxesAreDrawnWhereTheModelSays() throws {
    let png = try PageDrawing().png(of: Self.page, imageData: nil)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let pixels = try Pixels(png)
    #expect(pixels.image.width == 300 && pixels.image.height == 120)
    // The word box's edges are blue (0, 90, 255); its inside and the
    // margin are white.
    #expect(pixels[70, 30] == (0, 90, 255))
    #expect(pixels[70, 69] == (0, 90, 255))
    #expect(pixels[20, 50] == (0, 90, 255))
    #expect(pixels[70, 50] == (255, 255, 255))
    #expect(pixels[5, 100] == (255, 255, 255))
    // The unsure word is filled with red.
    let (r, g, b) = pixels[215, 50]
    #expect(r == 255 && g < 200 && b < 200, "\((r, g, b))")
  }

  @Test func layersCanBeChosen() throws {
    let png = try PageDrawing(layers: [.words]).png(of: Self.page, imageData: nil)
    let pixels = try Pixels(png)
    #expect(pixels[215, 50] == (255, 255, 255))
    #expect(pixels[150, 50] == (0, 90, 255))
    let none = try Pixels(PageDrawing(layers: []).png(of: Self.page, imageData: nil))
    #expect(none[70, 30] == (255, 255, 255))
    // A higher threshold highlights the confident word too.
    let strict = try Pixels(
      PageDrawing(layers: [.confidence], lowConfidence: 99).png(of: Self.page, imageData: nil))
    #expect(strict[70, 50].0 == 255 && strict[70, 50].1 < 200)
  }

  @Test func paragraphsAreOutlinedInTheColourOfTheirRole() throws {
    func paragraph(_ text: String, _ box: PixelRect, _ role: ParagraphRole) -> Block {
      let line = TextLine(bbox: box, words: [Word(text: text, bbox: box)])
      return Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line], role: role)])
    }
    let page = Page(
      width: 300, height: 120,
      blocks: [
        paragraph("Title", PixelRect(minX: 20, minY: 10, maxX: 200, maxY: 40), .heading),
        paragraph("text", PixelRect(minX: 20, minY: 60, maxX: 280, maxY: 100), .body),
      ])
    let pixels = try Pixels(PageDrawing(layers: [.roles]).png(of: page, imageData: nil))
    // Two pixels outside each paragraph's box (a 1-pixel stroke here).
    #expect(pixels[100, 8] == (200, 0, 60))
    #expect(pixels[201, 25] == (200, 0, 60))
    #expect(pixels[150, 58] == (150, 150, 150))
    #expect(pixels[150, 101] == (150, 150, 150))
    #expect(pixels[100, 25] == (255, 255, 255))
    #expect(PageDrawing.color(of: .caption) == (0, 150, 150))
    // Every role has a colour of its own.
    let colours = ParagraphRole.allCases.map { PageDrawing.color(of: $0) }
    #expect(Set(colours.map { "\($0)" }).count == ParagraphRole.allCases.count)
  }

  @Test func drawsOnTheImageAtItsSize() throws {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let page = try RecognizedScans.page("clean.png")
    let png = try PageDrawing().png(
      of: page, imageData: try OCREngine.readImageFile(path), imagePath: path)
    let pixels = try Pixels(png)
    #expect(pixels.image.width == page.width && pixels.image.height == page.height)
    let word = try #require(page.words.first)
    #expect(
      pixels[Int(word.bbox.center.x), word.bbox.minY] == (
        0, 90, 255
      ))
    // An image of another size is refused.
    let other = Fixtures.scans.appendingPathComponent("dpi-100.png").path
    let error = #expect(throws: DrawingError.self) {
      try PageDrawing().png(
        of: page, imageData: try OCREngine.readImageFile(other), imagePath: other)
    }
    #expect(error?.description.contains("but the page is 1275×1650") == true)
  }
}

/// `draw` rasterised every line and box point by point, however far off
/// the image: a word's quad at ±10,000,000 pixels took seconds and
/// hundreds of megabytes each (issue 45). Everything is clipped to the
/// image and a margin first.
@Suite("Drawing far outside the page")
struct DrawingClipTests {
  @Test func segmentsAreClippedToTheVisibleRectangle() throws {
    let visible = Rect(minX: 0, minY: 0, maxX: 100, maxY: 50)
    let across = try #require(
      PageDrawing.clipped(from: Point(x: -1e7, y: 25), to: Point(x: 1e7, y: 25), within: visible))
    #expect(across.0 == Point(x: 0, y: 25) && across.1 == Point(x: 100, y: 25))
    #expect(
      PageDrawing.clipped(from: Point(x: -1e7, y: -5), to: Point(x: 1e7, y: -5), within: visible)
        == nil)
    #expect(
      PageDrawing.clipped(from: Point(x: .nan, y: 0), to: Point(x: 1, y: 1), within: visible) == nil
    )
    let inside = try #require(
      PageDrawing.clipped(from: Point(x: 10, y: 10), to: Point(x: 20, y: 30), within: visible))
    #expect(inside.0 == Point(x: 10, y: 10) && inside.1 == Point(x: 20, y: 30))
    #expect(
      PageDrawing.clipped(
        PixelRect(minX: -10_000_000, minY: 5, maxX: 10_000_000, maxY: 9), to: visible)
        == PixelRect(minX: 0, minY: 5, maxX: 100, maxY: 9))
  }

  /// Quads at ±10^7 px were drawn over their whole extent (still drawing
  /// after 120 s); they are clipped to the page first. (No time limit: it
  /// counts from when the test is scheduled and expired on a loaded
  /// machine while the test waited for a thread.)
  @Test func wordsFarOffThePageAreDrawnClippedToThePage() throws {
    let far = 10_000_000.0
    let words = (0..<40).map { i in
      Word(
        text: "w\(i)",
        bbox: PixelRect(minX: -10_000_000, minY: -10_000_000, maxX: 10_000_000, maxY: 10_000_000),
        quad: Quad(
          topLeft: Point(x: -far, y: -far), topRight: Point(x: far, y: -far),
          bottomRight: Point(x: far, y: far), bottomLeft: Point(x: -far, y: far)),
        confidence: 20)
    }
    let box = PixelRect(minX: 10, minY: 10, maxX: 290, maxY: 110)
    let line = TextLine(bbox: box, words: words)
    let page = Page(
      width: 300, height: 120,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    let png = try PageDrawing().png(of: page, imageData: nil)
    let pixels = try PageDrawingTests.Pixels(png)
    #expect(pixels.image.width == 300 && pixels.image.height == 120)
  }
}
