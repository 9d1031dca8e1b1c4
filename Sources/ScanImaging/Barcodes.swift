import ScanModel

/// One-dimensional barcodes (EAN, UPC, Code 39, Code 128 …), found among a
/// binarised page's ink components: a barcode is a figure, not text, and
/// what OCR reads in its bars is junk ("| |||| 1 Il", some 70 characters
/// on a till receipt).
///
/// A barcode is printed as parallel bars of one height, side by side:
/// each bar a module or a few wide (the narrowest element of the
/// symbology; EAN and Code 128 bars are 1–4 modules, Code 39's 1 or 3),
/// the spaces between them as narrow, the whole as tall as a good fraction
/// of its length so that a scanner's line crosses every bar. So its bars
/// are tall, thin components whose tops and bottoms line up, many of them
/// (the shortest symbols have more than a dozen: Code 128 with one
/// character 13, UPC-E 17, EAN-8 22, EAN-13 30), each within a bar's
/// height of the next, and set far denser than letters: a line of type
/// places a glyph about every half to whole of its height, so even a line
/// of capital I's, whose tops and bottoms line up too, has about one
/// stroke per its height of length; a barcode's bars come every two to
/// four modules, a dozen or more per bar height. And every symbology
/// sets bars of at least two widths (EAN's 1–4 modules, Code 39's narrow
/// and wide), where a row of like strokes (a line of "l", hatching, a
/// rule's ticks) has one.
///
/// Digits printed under the bars (the human-readable line) are shorter
/// than the bars and below them: they are not bars, and stay text.
package enum Barcodes {
  /// The fewest bars a barcode has: a Code 128 symbol of one character
  /// (start, character, check, stop) has 13.
  package static let minimumBars = 12

  /// The fewest bars per bar height of length: four. Type gives about one
  /// to two full-height strokes (a monospace line of capital I's 1.2); the
  /// densest is a proportional sans serif's "lllll", about 3.2. A full
  /// EAN-13 has about 22, a Code 39 symbol 10 or more.
  package static let minimumDensity = 4.0

  /// A bar is at least this many times as tall as it is wide (a 4-module
  /// bar of a symbol as tall as 12 modules; real symbols are far taller).
  static let barAspect = 3

  /// The shortest bar considered, in pixels (specks and rules' ends are
  /// shorter).
  static let minimumBarHeight = 8

  /// The barcodes among a page's ink components.
  /// - Parameter components: The boxes of a binarised page's connected
  ///   components, in its pixels.
  /// - Returns: Each barcode's box (its bars' extent, down to the foot of
  ///   most of them), top to bottom.
  /// - Complexity: O(*n* log *n* + *n* · *g*) in the components and the
  ///   open groups of bars.
  package static func find(in components: [PixelRect]) -> [PixelRect] {
    let bars = components.filter {
      $0.width >= 1 && $0.height >= minimumBarHeight && $0.height >= barAspect * $0.width
    }
    .sorted { ($0.minX, $0.minY) < ($1.minX, $1.minY) }
    guard bars.count >= minimumBars else { return [] }
    // Groups of bars whose tops line up (within a twentieth of their
    // height: print and binarisation fray an edge by a pixel or two) and
    // bottoms (within a quarter: EAN's and UPC's guard bars reach five
    // modules below the others, a sixth of a symbol cut to 30 modules
    // high), each within a bar height of the
    // previous one.
    struct Group {
      var top: Int
      var bottom: Int
      var box: PixelRect
      var bottoms: [Int]
      var narrowest: Int
      var widest: Int
    }
    var groups: [Group] = []
    var open: [Int] = []
    for bar in bars {
      let match = open.firstIndex { i in
        let g = groups[i]
        let height = g.bottom - g.top
        return abs(bar.minY - g.top) <= max(2, height / 20)
          && abs(bar.maxY - g.bottom) <= max(2, height / 4)
          && bar.minX - g.box.maxX <= g.bottom - g.top
      }
      if let match {
        let i = open[match]
        groups[i].box = groups[i].box.union(bar)
        groups[i].bottoms.append(bar.maxY)
        groups[i].narrowest = min(groups[i].narrowest, bar.width)
        groups[i].widest = max(groups[i].widest, bar.width)
      } else {
        groups.append(
          Group(
            top: bar.minY, bottom: bar.maxY, box: bar, bottoms: [bar.maxY], narrowest: bar.width,
            widest: bar.width))
        open.append(groups.count - 1)
      }
      // Groups the scan has passed (more than a bar height behind) close.
      open.removeAll { i in
        bar.minX - groups[i].box.maxX > groups[i].bottom - groups[i].top
      }
    }
    return groups.filter { g in
      let height = Double(g.bottom - g.top)
      return g.bottoms.count >= minimumBars && g.widest >= 2 * g.narrowest
        && Double(g.bottoms.count) * height >= minimumDensity * Double(g.box.width)
    }
    .map { g in
      // Down to most bars' foot: the guard bars reaching lower stand
      // beside the human-readable digits, which are text.
      PixelRect(
        minX: g.box.minX, minY: g.box.minY, maxX: g.box.maxX,
        maxY: g.bottoms.sorted()[g.bottoms.count / 2])
    }
    .sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
  }
}
