import Foundation
import ScanModel

extension Page {
  /// The page without the recognised words that lie on text the PDF page
  /// shows itself (`--redo-ocr` on a page with both visible text and an
  /// earlier invisible layer: recognition reads the visible text's ink
  /// too, and that text is kept as the page has it, so its recognised
  /// twin would be text twice in the searchable PDF).
  ///
  /// A word goes when the boxes of visible text cover at least half of its
  /// box: recognition of the same ink gives a word whose box mostly
  /// coincides with the text's, while a word of the scan beside it at most
  /// touches it. Lines, paragraphs and blocks left without words go; a line
  /// that loses words keeps its baseline and its box shrinks to the words
  /// it keeps.
  ///
  /// - Parameter visible: The boxes of the characters the page shows, in
  ///   points on the displayed page (origin top-left, y down: the space of
  ///   ``PDFPageSource/pixelToPoint``).
  /// - Returns: The page, everything but its words as it was.
  /// - Complexity: O(*w* · *c*) in the words and the boxes.
  func droppingWords(coveredBy visible: [Rect]) -> Page {
    guard let map = pdf?.pixelToPoint, map.count == 6, !visible.isEmpty else { return self }
    func points(_ r: PixelRect) -> Rect {
      let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)].map {
        x, y in
        Point(
          x: map[0] * Double(x) + map[2] * Double(y) + map[4],
          y: map[1] * Double(x) + map[3] * Double(y) + map[5])
      }
      return Rect(bounding: corners)
    }
    func covered(_ word: Word) -> Bool {
      let box = points(word.bbox)
      let area = (box.maxX - box.minX) * (box.maxY - box.minY)
      guard area > 0 else { return false }
      var shared = 0.0
      for v in visible {
        let w = min(box.maxX, v.maxX) - max(box.minX, v.minX)
        let h = min(box.maxY, v.maxY) - max(box.minY, v.minY)
        if w > 0, h > 0 { shared += w * h }
      }
      return min(shared, area) >= area / 2
    }
    var changed = false
    let kept = blocks.map { block in
      var block = block
      block.paragraphs = block.paragraphs.map { paragraph in
        var paragraph = paragraph
        paragraph.lines = paragraph.lines.map { line in
          var line = line
          let words = line.words.filter { !covered($0) }
          guard words.count != line.words.count else { return line }
          changed = true
          line.words = words
          if let first = words.first {
            line.bbox = words.dropFirst().reduce(first.bbox) { $0.union($1.bbox) }
            line.quad = nil
            line.polygon = nil
          }
          return line
        }
        return paragraph
      }
      return block
    }
    guard changed else { return self }
    return Page(
      index: index, image: image, width: width, height: height, dpi: dpi,
      orientation: orientation, skew: skew, language: language, blocks: kept,
      steps: steps, crop: crop, perspective: perspective, pdf: pdf,
      source: source, dpiSource: dpiSource, exifOrientation: exifOrientation, figures: figures)
  }
}

extension PDFDocument {
  /// The boxes of the characters page `index` (from 0) shows, its
  /// invisible text left out (Poppler reads invisible text too): the page
  /// alone without its invisible text (``PDFEditor/visibleTextPage(_:)``),
  /// read by Poppler. In points on the displayed page, origin top-left.
  /// - Throws: ``OCRError`` naming the file.
  func visibleTextBoxes(page index: Int) throws(OCRError) -> [Rect] {
    let visible = try PDFDocument(
      data: PDFEditor(
        data: Data(), path: path, font: Data(), countingPages: true, borrowed: fileBytes
      ).visibleTextPage(index), path: path)
    guard let text = try visible.text(page: 0) else { return [] }
    return text.characters.filter { !$0.scalar.properties.isWhitespace }.map(\.box)
  }
}
