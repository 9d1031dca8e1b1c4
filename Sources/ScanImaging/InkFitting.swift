import ScanModel

/// Fits the boxes of glyphs that came back through a map that turns them
/// (deskewing, perspective, dewarping) to their ink in the original image.
///
/// A glyph read in a straightened image comes back as a quad; the upright
/// box around that quad takes in its empty corners, and the straightening's
/// interpolation has spread each stroke by part of a pixel. Both make every
/// mapped box about a pixel too large on each side (on the generated photos
/// and skewed pages, word boxes measured 0.6–0.9 px larger per side than
/// their ink; mean IoU 0.89–0.94). A box in the original's pixels is the
/// box of the ink there, as it is on an upright page where Tesseract's box
/// is its ink's, so it is measured there:
///
/// - A pixel is ink when it lies more than half-way from the word's paper to
///   its ink: darker than the mean of the word's ink level (its box's 2nd
///   percentile) and paper level (its 90th; ink covers well under 90 % of a
///   word's box). Where a blurred stroke's edge falls, the ink's coverage is
///   one half: the rule finds the edge as a scan at that resolution would
///   show it sharp.
/// - A glyph's box becomes the box of the ink pixels whose centres lie inside
///   its mapped quad (not its box's corners, where the neighbouring glyphs'
///   or lines' ink may be) and inside its mapped box; it never grows, and a
///   glyph with no such ink keeps its box. A word without glyphs is fitted
///   the same way.
/// - Only a word whose ink reaches within ``edgeTolerance`` of each side of
///   its quad is fitted: otherwise its quad is not the outline of its ink.
/// - A word with too little contrast (ink and paper under ``minimumContrast``
///   apart: nothing printed there to measure) keeps its boxes.
///
/// The word's box then follows its glyphs'
/// (``GeometryRepair/fittingWordBoxesToGlyphs(_:)``). Quads, lines,
/// paragraphs and blocks keep their mapped outlines: they are the selection
/// geometry, which must hold the ink, and do. Boxes that stay upright (no
/// quad) and the boxes of a page recognised as it is are Tesseract's own ink
/// boxes and are left alone.
package enum InkFitting {
  /// Ink and paper levels closer than this (of 255) are no ink to fit to.
  package static let minimumContrast = 32

  /// How far inside each side of a word's mapped quad, in pixels, its ink
  /// must come for the quad to be its ink's outline (Tesseract's word box
  /// is tight around the ink it recognised; the straightening's
  /// interpolation and the threshold move a stroke's edge by about a
  /// pixel). A word whose box does not hold its ink that way (a box
  /// Tesseract misplaced, one the repair made) keeps its mapped boxes.
  /// Glyph boxes are not tested so: Tesseract's reach across the line
  /// (ascender to descender height), not just across their letter's ink.
  package static let edgeTolerance = 2.0

  /// `blocks` with every glyph that carries a quad fitted to its ink in
  /// `pixels` (the original's gray values), when they were `mapped` back
  /// from another image (the quads the repair gives the lines of a sloped
  /// page read as it is do not count: its boxes are Tesseract's, of the ink).
  ///
  /// - Complexity: O(*p*) in the pixels of the words' boxes.
  package static func fitting(_ blocks: [Block], to pixels: GrayView, mapped: Bool = true)
    -> [Block]
  {
    let turned =
      mapped
      && blocks.contains { b in
        b.paragraphs.contains { p in p.lines.contains { l in l.words.contains { $0.quad != nil } } }
      }
    guard turned else { return blocks }
    return blocks.updatingWords { word in
      guard let quad = word.quad, let threshold = pixels.inkThreshold(in: word.bbox),
        let ink = pixels.ink(in: word.bbox, quad: quad, below: threshold),
        ink.depths.allSatisfy({ $0 <= edgeTolerance })
      else { return }
      if word.glyphs.isEmpty { word.bbox = ink.box }
      for g in word.glyphs.indices {
        guard let quad = word.glyphs[g].quad,
          let ink = pixels.ink(in: word.glyphs[g].bbox, quad: quad, below: threshold)
        else { continue }
        word.glyphs[g].bbox = ink.box
      }
    }
  }
}

extension GrayView {
  package func clipped(_ r: PixelRect) -> PixelRect? {
    r.intersection(PixelRect(minX: 0, minY: 0, maxX: width, maxY: height))
  }

  /// The value half-way between the ink and the paper of `box` (see
  /// ``InkFitting``), or `nil` when they are too close.
  package func inkThreshold(in box: PixelRect) -> Int? {
    guard let r = clipped(box), !r.isEmpty else { return nil }
    var histogram = [Int](repeating: 0, count: 256)
    for y in r.minY..<r.maxY {
      for x in r.minX..<r.maxX { histogram[value(x, y)] += 1 }
    }
    let count = r.width * r.height
    func percentile(_ share: Double) -> Int {
      let rank = Int((Double(count - 1) * share).rounded())
      var seen = 0
      for v in 0..<256 {
        seen += histogram[v]
        if seen > rank { return v }
      }
      return 255
    }
    let ink = percentile(0.02)
    let paper = percentile(0.90)
    guard paper - ink >= InkFitting.minimumContrast else { return nil }
    return (ink + paper + 1) / 2
  }

  /// The box of the pixels of `box` darker than `threshold` whose centres
  /// lie inside `quad`, and how near each side of the quad (top, right,
  /// bottom, left as the quad names its corners) the nearest of them comes;
  /// `nil` when there are none.
  package func ink(in box: PixelRect, quad: Quad, below threshold: Int) -> (
    box: PixelRect, depths: [Double]
  )? {
    guard let r = clipped(box), !r.isEmpty else { return nil }
    let corners = quad.corners
    let doubleArea = (0..<4).reduce(0.0) { sum, i in
      let a = corners[i]
      let b = corners[(i + 1) % 4]
      return sum + a.x * b.y - b.x * a.y
    }
    guard doubleArea != 0 else { return nil }
    // Per side: a point, its unit normal pointing into the quad.
    let sides: [(x: Double, y: Double, nx: Double, ny: Double)] = (0..<4).map { i in
      let a = corners[i]
      let b = corners[(i + 1) % 4]
      let length = max(1e-9, ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
      let sign = doubleArea > 0 ? 1.0 : -1.0
      return (a.x, a.y, -(b.y - a.y) / length * sign, (b.x - a.x) / length * sign)
    }
    var nearest = [Double](repeating: .infinity, count: 4)
    var minX = Int.max
    var minY = Int.max
    var maxX = Int.min
    var maxY = Int.min
    for y in r.minY..<r.maxY {
      let py = Double(y) + 0.5
      for x in r.minX..<r.maxX where value(x, y) < threshold {
        let px = Double(x) + 0.5
        var depths = (0.0, 0.0, 0.0, 0.0)
        var inside = true
        for i in 0..<4 {
          let d = (px - sides[i].x) * sides[i].nx + (py - sides[i].y) * sides[i].ny
          if d < 0 {
            inside = false
            break
          }
          switch i {
          case 0: depths.0 = d
          case 1: depths.1 = d
          case 2: depths.2 = d
          default: depths.3 = d
          }
        }
        guard inside else { continue }
        nearest[0] = min(nearest[0], depths.0)
        nearest[1] = min(nearest[1], depths.1)
        nearest[2] = min(nearest[2], depths.2)
        nearest[3] = min(nearest[3], depths.3)
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
      }
    }
    guard minX <= maxX else { return nil }
    return (PixelRect(minX: minX, minY: minY, maxX: maxX + 1, maxY: maxY + 1), nearest)
  }
}
