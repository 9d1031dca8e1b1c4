import Foundation
import ScanFormats
import ScanModel
import Testing

/// A page built through the public initialisers may carry any number: the
/// writers must write it, not trap converting it to an integer. Before,
/// a word confidence of 1e300 (accepted by the JSON reader too) made
/// `scantext convert doc.json out.hocr` die with "Illegal instruction".
@Suite("Writers and extreme numbers")
struct ExtremeNumbersTests {
  static func page(confidence: Double, corner: Double) -> Page {
    let box = PixelRect(minX: 10, minY: 10, maxX: 60, maxY: 30)
    let quad = Quad(
      topLeft: Point(x: 10, y: 10), topRight: Point(x: corner, y: 10),
      bottomRight: Point(x: corner, y: 30), bottomLeft: Point(x: 10, y: 30))
    let glyph = Glyph(text: "a", bbox: box, quad: quad, confidence: confidence)
    let word = Word(text: "a", bbox: box, quad: quad, confidence: confidence, glyphs: [glyph])
    let line = TextLine(bbox: box, quad: quad, words: [word])
    return Page(
      width: 100, height: 100,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
  }

  /// hOCR's `x_wconf` and the accessible HTML's description are whole
  /// percentages: the confidence clamped to 0...100 (NaN: 0).
  @Test(arguments: [(1e300, 100), (-1e300, 0), (Double.nan, 0), (Double.infinity, 100), (250, 100)])
  func confidencesOutOfRange(_ confidence: Double, percent: Int) throws {
    let document = Document(pages: [Self.page(confidence: confidence, corner: 60)])
    let hocr = try DocumentFormat.hocr.encode(document, generator: Samples.generator)
    #expect(hocr.contains("x_wconf \(percent);") || hocr.contains("x_wconf \(percent)'"))
    for format in [DocumentFormat.json, .alto, .page, .tsv, .text] {
      #expect(!(try format.encode(document, generator: Samples.generator)).isEmpty)
    }
    // Below the threshold (only -1e300 here): described as uncertain, 0 %.
    let html = AccessibleHTML(image: .none, lowConfidenceThreshold: 101).html(
      for: document.pages[0])
    #expect(html.contains("confidence 0 %") == (confidence < 101))
  }

  /// A quad corner far beyond any image is written as the largest whole
  /// number the writers keep (10^15), not a trap.
  @Test func coordinatesBeyondAnyImage() throws {
    let document = Document(pages: [Self.page(confidence: 90, corner: 1e300)])
    for format in [DocumentFormat.json, .hocr, .alto, .page, .tsv, .text] {
      #expect(!(try format.encode(document, generator: Samples.generator)).isEmpty)
    }
    let hocr = try DocumentFormat.hocr.encode(document, generator: Samples.generator)
    #expect(hocr.contains("1000000000000000"))
  }
}
