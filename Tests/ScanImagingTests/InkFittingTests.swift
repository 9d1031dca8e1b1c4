import Foundation
import ScanImaging
import ScanModel
import Testing

/// Boxes of words read in a straightened image fitted to their ink in the
/// original (``InkFitting``): the upright box around a tilted quad takes in
/// its empty corners; the ink's own box does not.
@Suite("Ink fitting of tilted boxes")
struct InkFittingTests {
  static let paper: UInt8 = 240
  static let ink: UInt8 = 20

  /// 8-bit gray pixels packed as Leptonica packs them (four to a 32-bit
  /// word, the first in the high byte), owned for as long as their view.
  final class PackedGray {
    let words: UnsafeMutablePointer<UInt32>
    let view: GrayView

    init(width: Int, height: Int, values: [UInt8]) {
      let perLine = (width + 3) / 4
      words = .allocate(capacity: perLine * height)
      words.initialize(repeating: 0, count: perLine * height)
      for y in 0..<height {
        for x in 0..<width {
          words[y * perLine + x / 4] |= UInt32(values[y * width + x]) << UInt32(24 - 8 * (x % 4))
        }
      }
      view = GrayView(
        data: words, wordsPerLine: perLine, width: width, height: height, isRGB: false)
    }

    deinit { words.deallocate() }
  }

  /// A white 60 × 40 image with `fill` dark pixels.
  static func image(_ fill: (Int, Int) -> UInt8?) -> PackedGray {
    var values = [UInt8](repeating: paper, count: 60 * 40)
    for y in 0..<40 {
      for x in 0..<60 { if let v = fill(x, y) { values[y * 60 + x] = v } }
    }
    return PackedGray(width: 60, height: 40, values: values)
  }

  /// The square of half-side `half` about (30, 20) turned by `degrees`, and
  /// the pixel box around it (as ``ElementMapper`` rounds it).
  static func turnedSquare(half: Double, degrees: Double, dx: Double = 0) -> (Quad, PixelRect) {
    let a = degrees * Double.pi / 180
    func corner(_ u: Double, _ v: Double) -> Point {
      Point(x: 30 + dx + u * cos(a) - v * sin(a), y: 20 + u * sin(a) + v * cos(a))
    }
    let q = Quad(
      topLeft: corner(-half, -half), topRight: corner(half, -half),
      bottomRight: corner(half, half), bottomLeft: corner(-half, half))
    let r = q.boundingRect
    return (
      q,
      PixelRect(
        minX: Int(r.minX.rounded()), minY: Int(r.minY.rounded()), maxX: Int(r.maxX.rounded()),
        maxY: Int(r.maxY.rounded()))
    )
  }

  static func blocks(box: PixelRect, quad: Quad?) -> [Block] {
    let glyph = Glyph(text: "o", bbox: box, quad: quad)
    let word = Word(text: "o", bbox: box, quad: quad, glyphs: [glyph])
    let line = TextLine(bbox: box, quad: quad, words: [word])
    return [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])]
  }

  static func word(_ blocks: [Block]) throws -> Word {
    try #require(blocks.first?.paragraphs.first?.lines.first?.words.first)
  }

  /// Ink in [20, 40) × [10, 30) inside a quad turned 5° around it (its
  /// corners 1.3 px beyond the ink's): the mapped box is 2 px too large on
  /// each side; the fitted glyph and word boxes are the ink's.
  @Test func aTiltedBoxShrinksToItsInk() throws {
    let image = Self.image { x, y in
      (20..<40).contains(x) && (10..<30).contains(y) ? Self.ink : nil
    }
    let (quad, box) = Self.turnedSquare(half: 10.9, degrees: 5)
    #expect(box == PixelRect(minX: 18, minY: 8, maxX: 42, maxY: 32))
    let fitted = GeometryRepair.fittingWordBoxesToGlyphs(
      InkFitting.fitting(Self.blocks(box: box, quad: quad), to: image.view))
    let word = try Self.word(fitted)
    let ink = PixelRect(minX: 20, minY: 10, maxX: 40, maxY: 30)
    #expect(word.glyphs.map(\.bbox) == [ink])
    #expect(word.bbox == ink)
    // The outline stays the mapped one: the selection geometry holds the ink.
    #expect(word.quad == quad)
  }

  /// A blurred edge counts as ink where it is more than half-way from the
  /// paper to the ink (a stroke's edge lies where its coverage is one half):
  /// a ring at gray 110 is ink, one further out at 150 is not.
  @Test func aBlurredEdgeIsInkPastHalfWay() throws {
    let image = Self.image { x, y in
      if (22..<38).contains(x) && (12..<28).contains(y) { return Self.ink }
      if (21..<39).contains(x) && (11..<29).contains(y) { return 110 }
      if (20..<40).contains(x) && (10..<30).contains(y) { return 150 }
      return nil
    }
    let (quad, box) = Self.turnedSquare(half: 10.9, degrees: 5)
    let word = try Self.word(
      GeometryRepair.fittingWordBoxesToGlyphs(
        InkFitting.fitting(Self.blocks(box: box, quad: quad), to: image.view)))
    #expect(word.bbox == PixelRect(minX: 21, minY: 11, maxX: 39, maxY: 29))
  }

  /// A quad that is not its ink's outline (a box Tesseract misplaced: the
  /// ink lies across its right side, and it reaches nowhere near its left)
  /// keeps its boxes rather than shrinking to the sliver of ink inside it.
  @Test func aMisplacedBoxKeepsItsBox() throws {
    let image = Self.image { x, y in
      (20..<40).contains(x) && (10..<30).contains(y) ? Self.ink : nil
    }
    let (quad, box) = Self.turnedSquare(half: 10.9, degrees: 5, dx: -14)
    let word = try Self.word(InkFitting.fitting(Self.blocks(box: box, quad: quad), to: image.view))
    #expect(word.bbox == box)
    #expect(word.glyphs.map(\.bbox) == [box])
  }

  /// Upright boxes (no quad) are Tesseract's own ink boxes: left alone, and
  /// the image is not even read.
  @Test func uprightBoxesAreLeftAlone() throws {
    let image = Self.image { x, y in
      (20..<40).contains(x) && (10..<30).contains(y) ? Self.ink : nil
    }
    let box = PixelRect(minX: 18, minY: 8, maxX: 42, maxY: 32)
    let word = try Self.word(InkFitting.fitting(Self.blocks(box: box, quad: nil), to: image.view))
    #expect(word.bbox == box)
  }

  /// No contrast in the box (nothing printed to measure): boxes kept.
  @Test func aBoxWithoutInkKeepsItsBox() throws {
    let image = Self.image { x, y in (20..<40).contains(x) && (10..<30).contains(y) ? 225 : nil
    }
    let (quad, box) = Self.turnedSquare(half: 10.9, degrees: 5)
    let word = try Self.word(InkFitting.fitting(Self.blocks(box: box, quad: quad), to: image.view))
    #expect(word.bbox == box)
  }
}

extension InkFittingTests {
  /// A page read as it is keeps Tesseract's boxes, which are its ink's,
  /// even where the repair gave a sloped line's words quads: before, kant's
  /// and every sloped page's glyph boxes were cut to those quads.
  @Test func boxesNotMappedAreLeftAlone() throws {
    let image = Self.image { x, y in
      (20..<40).contains(x) && (10..<30).contains(y) ? Self.ink : nil
    }
    let (quad, box) = Self.turnedSquare(half: 10.9, degrees: 5)
    let blocks = Self.blocks(box: box, quad: quad)
    #expect(InkFitting.fitting(blocks, to: image.view, mapped: false) == blocks)
  }
}
