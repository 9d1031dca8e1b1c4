import Foundation

@testable import ScanModel

extension PageFixtures {
  /// `page` with every box moved by `map`: glyphs, words and lines get the
  /// mapped corners as their quad (in their reading frame) when `quads` is
  /// set, and the bounds of those corners as their box. Ranges are
  /// reassigned when the page is rebuilt.
  static func mapped(
    _ page: Page, orientation: Int = 0, skew: Double = 0, quads: Bool = true,
    mirrored: Bool = false, _ map: (Point) -> Point
  ) -> Page {
    func quad(_ r: PixelRect) -> Quad {
      let q = Quad(r.rect)
      let m = Quad(
        topLeft: map(q.topLeft), topRight: map(q.topRight), bottomRight: map(q.bottomRight),
        bottomLeft: map(q.bottomLeft))
      return m
    }
    func box(_ q: Quad) -> PixelRect { q.boundingRect.enclosingPixelRect }
    let blocks = page.blocks.map { block -> Block in
      var block = block
      block.bbox = box(quad(block.bbox))
      block.paragraphs = block.paragraphs.map { paragraph -> Paragraph in
        var paragraph = paragraph
        paragraph.bbox = box(quad(paragraph.bbox))
        paragraph.lines = paragraph.lines.map { line -> TextLine in
          var line = line
          let q = quad(line.bbox)
          line.bbox = box(q)
          line.quad = quads ? q : nil
          if let b = line.baseline {
            line.baseline =
              mirrored
              ? Baseline(start: map(b.end), end: map(b.start))
              : Baseline(start: map(b.start), end: map(b.end))
          }
          line.words = line.words.map { word -> Word in
            var word = word
            let q = quad(word.bbox)
            word.bbox = box(q)
            word.quad = quads ? q : nil
            word.glyphs = word.glyphs.map { glyph -> Glyph in
              var glyph = glyph
              let q = quad(glyph.bbox)
              glyph.bbox = box(q)
              glyph.quad = quads ? q : nil
              return glyph
            }
            return word
          }
          return line
        }
        return paragraph
      }
      return block
    }
    return Page(
      width: page.width, height: page.height, dpi: page.dpi, orientation: orientation, skew: skew,
      blocks: blocks)
  }

  /// `paragraphs` laid out as ``page(_:glyphs:origin:)`` does, then the
  /// content turned clockwise by `degrees` about the page centre (500, 500),
  /// every element with its quad: orientation 90 for `degrees: 90`, a
  /// skewed page for a few degrees.
  static func turned(_ paragraphs: [[String]], degrees: Double) -> Page {
    let a = degrees * Double.pi / 180
    let quarter = Int((degrees / 90).rounded()) * 90
    let orientation = ((quarter % 360) + 360) % 360
    return mapped(
      page(paragraphs), orientation: orientation, skew: degrees - Double(quarter)
    ) { p in
      let x = p.x - 500
      let y = p.y - 500
      return Point(x: 500 + x * cos(a) - y * sin(a), y: 500 + x * sin(a) + y * cos(a))
    }
  }

  /// `paragraphs` of right-to-left text: laid out as
  /// ``page(_:glyphs:origin:)`` does, then mirrored (x → 1000 − x), so each
  /// line's words and each word's glyphs run from right to left in
  /// storage order. Upright boxes, no quads, as Tesseract reports Hebrew.
  static func rightToLeft(_ paragraphs: [[String]], origin: Point = Point(x: 100, y: 100))
    -> Page
  {
    mapped(page(paragraphs, origin: origin), quads: false, mirrored: true) {
      Point(x: 1000 - $0.x, y: $0.y)
    }
  }

  /// The blocks of several pages on one page (each page's own geometry).
  static func combined(_ pages: [Page]) -> Page {
    Page(width: 1000, height: 1000, dpi: 300, blocks: pages.flatMap(\.blocks))
  }
}
