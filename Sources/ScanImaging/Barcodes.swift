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

extension Barcodes {
  /// The fewest pixels across a QR code's finder pattern (seven modules):
  /// two pixels a module at least (at one the modules blur together).
  static let minimumFinder = 14

  /// The most corner triples of finders a page's QR search weighs (a
  /// sheet of labels has a few dozen codes, each one triple).
  static let maximumCandidates = 4096

  /// QR codes among a page's ink components, at any angle.
  ///
  /// A QR code is made to be found: three of its corners carry a finder
  /// pattern, a dark ring seven modules across around a dark square three
  /// across, with a light module between them and a light separator
  /// outside, so each ring and each square is an ink component of its own,
  /// the square's box concentric with the ring's at three sevenths of its
  /// size, whatever the symbol's angle (a turned square's box stays
  /// square, and both boxes turn alike). The three finders are alike in
  /// size and stand at the corners of a square: the corner finder's two
  /// neighbours equally far from it, at a right angle, at least two
  /// finders' widths away (version 1's centres are 14 modules apart; a
  /// finder turned 45° has a box √2 × as wide, so 1.3 of its box's widths)
  /// and at most 25 (version 40's, 170). Between them lie the timing
  /// patterns and the data, ink spread over most of the square. Letters with a
  /// counter around a mark ("©", "®", "◉") or checked boxes are not three
  /// at a square's corners with a symbol's modules between them.
  ///
  /// Micro QR (one finder) and other matrix codes are not found.
  /// - Parameter components: The boxes of a binarised page's connected
  ///   components (8-connected), in its pixels.
  /// - Returns: Each QR code's box (its three finders and the fourth
  ///   corner), top to bottom.
  /// - Complexity: O(*n* log *n* + *f* · *k*²) in the components, the
  ///   finders and the (at most 64) finders considered beside each, with
  ///   at most ``maximumCandidates`` triples weighed, O(*n*) each.
  package static func qrCodes(in components: [PixelRect]) -> [PixelRect] {
    func isSquare(_ r: PixelRect) -> Bool {
      abs(r.width - r.height) <= Swift.max(2, Swift.max(r.width, r.height) / 5)
    }
    let squares = components.filter { $0.width >= 3 && isSquare($0) }
      .sorted { $0.minX + $0.maxX < $1.minX + $1.maxX }
    let centresX = squares.map { $0.minX + $0.maxX }
    // A finder: a square ring with a square about three sevenths its
    // size at its centre.
    var finders: [PixelRect] = []
    for ring in squares where ring.width >= minimumFinder {
      let size = Double(ring.width + ring.height) / 2
      let tolerance = Swift.max(2, Int(size / 7))  // twice a centre's, in doubled units
      let x2 = ring.minX + ring.maxX
      var i = lowerBound(centresX, x2 - tolerance)
      while i < squares.count, centresX[i] <= x2 + tolerance {
        let core = squares[i]
        i += 1
        let ratio = Double(core.width + core.height) / 2 / size
        if ratio >= 0.33, ratio <= 0.53,
          abs(core.minY + core.maxY - ring.minY - ring.maxY) <= tolerance,
          ring.contains(core)
        {
          finders.append(ring)
          break
        }
      }
    }
    guard finders.count >= 3 else { return [] }
    struct Finder {
      let box: PixelRect
      let x: Double
      let y: Double
      let size: Double
    }
    let marks = finders.map {
      Finder(
        box: $0, x: Double($0.minX + $0.maxX) / 2, y: Double($0.minY + $0.maxY) / 2,
        size: Double($0.width + $0.height) / 2)
    }
    var codes: [PixelRect] = []
    // Each candidate's modules are counted over the page's components:
    // a bounded number of times (a page of finder-like marks in a grid
    // would otherwise take the cube of their count).
    var counts = 0
    for a in marks where counts < maximumCandidates {
      // The finders alike in size within reach, nearest first.
      let near = marks.compactMap { b -> (Finder, Double)? in
        let d = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard b.size >= 0.8 * a.size, b.size <= 1.25 * a.size, d >= 1.3 * a.size,
          d <= 27 * a.size
        else { return nil }
        return (b, d)
      }
      .sorted { $0.1 < $1.1 }.prefix(64)
      for (j, (b, db)) in near.enumerated() {
        for (c, dc) in near.dropFirst(j + 1) {
          guard dc <= 1.18 * db else { break }  // sorted: no farther one is alike
          let dot = (b.x - a.x) * (c.x - a.x) + (b.y - a.y) * (c.y - a.y)
          guard abs(dot) <= 0.2 * db * dc else { continue }
          // The fourth corner, where the symbol has no finder.
          let dx = b.x + c.x - 2 * a.x
          let dy = b.y + c.y - 2 * a.y
          let half = PixelRect(
            minX: Int((a.x + dx - Double(a.box.width) / 2).rounded(.down)),
            minY: Int((a.y + dy - Double(a.box.height) / 2).rounded(.down)),
            maxX: Int((a.x + dx + Double(a.box.width) / 2).rounded(.up)),
            maxY: Int((a.y + dy + Double(a.box.height) / 2).rounded(.up)))
          let box = a.box.union(b.box).union(c.box).union(half)
          guard !codes.contains(where: { $0.intersection(box) != nil }),
            counts < maximumCandidates
          else { continue }
          counts += 1
          // A symbol's modules fill the space between its finders: ink
          // other than the finders spread over half the box's width and
          // height at least (its modules, 8-connected, join into a few
          // blobs and specks; turned 45°, they fill the box's middle
          // diamond).
          let finderParts = [a.box, b.box, c.box]
          let others = components.filter { m in
            box.contains(m) && !finderParts.contains { $0.contains(m) }
          }
          let spread = PixelRect.union(others)
          let filled =
            others.count >= 2
            && (spread.map { 2 * $0.width >= box.width && 2 * $0.height >= box.height } ?? false)
          if filled { codes.append(box) }
        }
      }
    }
    return codes.sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
  }

  /// The first index of a sorted array whose value is at least `value`.
  private static func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
