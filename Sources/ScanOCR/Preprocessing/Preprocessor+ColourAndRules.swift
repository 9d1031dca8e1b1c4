import CScanOCR
import ScanImaging
import ScanModel

/// The colour step (which gray to recognise a colour page in) and the rule
/// step (ruling lines of tables and forms removed). Both only change pixel
/// values, never their places, so every box stays in the original's pixels.
extension Preprocessor {
  /// A pixel is strongly coloured when its brightest and darkest channels
  /// differ by at least this much: stamps, coloured ink and coloured paper
  /// (the generated pages: 145–166 at their 99th percentile). Aged paper
  /// and phone photos of it stay below (the real colour pages: 33–98 at
  /// their 99th percentile, and no pixel of any of them reaches 120).
  static let decisionSaturation: UInt32 = 120
  /// Once the step applies, pixels from this saturation on are faded: the
  /// paler, anti-aliased edges of a stamp too. Black and gray pixels, and
  /// the edges of black text, stay below.
  static let saturation: UInt32 = 60
  /// The colour step applies only when at least this share of the pixels
  /// is strongly coloured (measured on every 4th pixel of every 4th row).
  /// Gray pages and colour scans of aged paper measure 0; the stamped page
  /// 2.1 %.
  static let minimumSaturatedShare = 0.01
  /// From this share of saturated pixels on, the paper itself is coloured:
  /// the page is read in one channel, when that gives the text more
  /// contrast than luminance.
  static let colouredPaperShare = 0.5
  /// A channel replaces luminance only when its contrast between paper
  /// (90th percentile) and ink (1st percentile) is at least this many
  /// times luminance's.
  static let channelContrastGain = 1.2

  /// What the colour step measured on a page.
  struct ColourMeasurement: Equatable {
    /// The share of saturated pixels, 0–1.
    var saturatedShare: Double
    /// Saturated ink measured against the page's own paper and ink
    /// (``ColourSeparation``): it finds the stamps whose colour is too
    /// pale for ``decisionSaturation`` (a stamp pressed lightly on tinted
    /// paper). `nil` when not measured.
    var separation: ColourSeparation? = nil
  }

  /// How a colour page is turned into gray for recognition.
  enum ColourConversion: Equatable {
    /// One channel: 0 red, 1 green, 2 blue (coloured paper).
    case channel(Int)
    /// Luminance, except that saturated pixels take their brightest
    /// channel: coloured marks (stamps) fade to light gray while black text,
    /// and black text under them, stays dark.
    case suppressSaturated
    /// Luminance, except that the stamps over the text, their ink
    /// measured against the page's neutral axis (``ColourSeparation``),
    /// become the neutral layer: paper, or the neutral ink under them
    /// where that is darker (``Preprocessor/neutralLayer(_:_:)``).
    case neutralLayer(ColourSeparation)

    /// The decision as the page records it.
    var decision: StepDecision {
      switch self {
      case .channel(let c): .channel(c)
      case .suppressSaturated: .saturatedColourSuppressed
      case .neutralLayer: .stampsSeparated
      }
    }
  }

  /// Measures the share of saturated pixels of an RGB image; `nil` for any
  /// other image (gray, 1-bit, colour-mapped), which the step leaves alone.
  static func measureColour(_ original: LeptonicaImage) -> ColourMeasurement? {
    guard scantext_pixGetDepth(original.pix) == 32 else { return nil }
    let factor: Int32 = min(original.width, original.height) >= 400 ? 4 : 1
    guard let sampled = scantext_pixScaleByIntSampling(original.pix, factor) else { return nil }
    let small = LeptonicaImage(taking: sampled)
    guard let spread = saturationMask(small, threshold: decisionSaturation) else { return nil }
    var saturated: Int32 = 0
    guard scantext_pixCountPixels(spread.pix, &saturated, nil) == 0 else { return nil }
    let all = max(1, small.width * small.height)
    return ColourMeasurement(
      saturatedShare: Double(saturated) / Double(all), separation: separation(small))
  }

  /// The page's saturated ink against its own paper and ink, measured on
  /// the sampled RGB image (``ColourSeparation/measure(_:)``).
  static func separation(_ sampled: LeptonicaImage) -> ColourSeparation? {
    guard scantext_pixGetDepth(sampled.pix) == 32, let data = scantext_pixGetData(sampled.pix)
    else { return nil }
    let words = Int(scantext_pixGetWpl(sampled.pix))
    let count = sampled.width * sampled.height
    var red = [UInt8](repeating: 0, count: count)
    var green = red
    var blue = red
    var i = 0
    for y in 0..<sampled.height {
      let line = data + y * words
      for x in 0..<sampled.width {
        // 0xRRGGBBAA.
        let p = line[x]
        red[i] = UInt8(truncatingIfNeeded: p >> 24)
        green[i] = UInt8(truncatingIfNeeded: p >> 16)
        blue[i] = UInt8(truncatingIfNeeded: p >> 8)
        i += 1
      }
    }
    return ColourSeparation.measure(red: red, green: green, blue: blue)
  }

  /// 1 where a pixel of an RGB image is saturated at `threshold` or more.
  private static func saturationMask(
    _ rgb: LeptonicaImage, threshold: UInt32 = saturation
  ) -> LeptonicaImage? {
    guard let spread = scantext_pixConvertRGBToGrayMinMax(rgb.pix, Int32(L_CHOOSE_MAXDIFF)) else {
      return nil
    }
    let owned = LeptonicaImage(taking: spread)
    // pixThresholdToBinary marks pixels below the threshold: the gray ones.
    guard let gray = scantext_pixThresholdToBinary(owned.pix, Int32(threshold)) else {
      return nil
    }
    let mask = LeptonicaImage(taking: gray)
    guard scantext_pixInvert(mask.pix, mask.pix) != nil else { return nil }
    return mask
  }

  /// The conversion the measurement calls for, or `nil` to read the page
  /// in plain luminance as before.
  static func colourConversion(
    _ original: LeptonicaImage, measured: ColourMeasurement
  ) -> ColourConversion? {
    guard measured.saturatedShare >= minimumSaturatedShare else {
      // No strongly coloured ink: a paler stamp may still lie over the
      // print, told from the page's own colours.
      guard let separation = measured.separation, separation.holdsSaturatedInk else { return nil }
      return .neutralLayer(separation)
    }
    guard measured.saturatedShare >= colouredPaperShare else { return .suppressSaturated }
    // Coloured paper: the channel in which the paper is brightest against
    // the ink, if clearly better than luminance.
    let factor: Int32 = min(original.width, original.height) >= 400 ? 4 : 1
    guard let sampled = scantext_pixScaleByIntSampling(original.pix, factor) else { return nil }
    let small = LeptonicaImage(taking: sampled)
    func contrast(_ pix: UnsafeMutablePointer<Pix>?) -> Int? {
      guard let pix else { return nil }
      let image = LeptonicaImage(taking: pix)
      var paper: UInt32 = 0
      var ink: UInt32 = 0
      guard scantext_pixGetRankValue(image.pix, 1, 0.9, &paper) == 0,
        scantext_pixGetRankValue(image.pix, 1, 0.01, &ink) == 0
      else { return nil }
      return Int(paper) - Int(ink)
    }
    guard let luminance = contrast(scantext_pixConvertRGBToLuminance(small.pix)) else {
      return nil
    }
    var best: (channel: Int, contrast: Int)?
    for c in 0..<3 {
      guard let value = contrast(scantext_pixGetRGBComponent(small.pix, Int32(c))) else { continue }
      if value > best?.contrast ?? Int.min { best = (c, value) }
    }
    guard let best, Double(best.contrast) >= channelContrastGain * Double(max(1, luminance))
    else { return .suppressSaturated }
    return .channel(best.channel)
  }

  /// The RGB image in gray by `conversion`, with the original's resolution.
  static func convertColour(
    _ original: LeptonicaImage, _ conversion: ColourConversion
  ) -> LeptonicaImage? {
    let gray: LeptonicaImage
    switch conversion {
    case .channel(let c):
      guard let pix = scantext_pixGetRGBComponent(original.pix, Int32(c)) else { return nil }
      gray = LeptonicaImage(taking: pix)
    case .suppressSaturated:
      guard let lum = scantext_pixConvertRGBToLuminance(original.pix),
        let brightest = scantext_pixConvertRGBToGrayMinMax(original.pix, Int32(L_CHOOSE_MAX))
      else { return nil }
      gray = LeptonicaImage(taking: lum)
      let bright = LeptonicaImage(taking: brightest)
      // Only marks over the print fade (see `marksOverPrint`); a page
      // with none is read in luminance as it is.
      guard let mask = saturationMask(original),
        let marks = marksOverPrint(mask, luminance: gray, resolution: original.resolution)
      else { return nil }
      var count: Int32 = 0
      guard scantext_pixCountPixels(marks.pix, &count, nil) == 0, count > 0 else { return nil }
      guard scantext_pixCombineMasked(gray.pix, bright.pix, marks.pix) == 0 else { return nil }
    case .neutralLayer(let separation):
      guard let layer = neutralLayer(original, separation) else { return nil }
      gray = layer
    }
    scantext_pixCopyResolution(gray.pix, original.pix)
    return gray
  }

  /// The coloured marks that lie over black print, to be faded: stamps.
  /// Coloured print that stands alone (a red heading, a paragraph in blue)
  /// is text and stays: on `clean.png` with its first six lines printed in
  /// red, fading every saturated pixel lost them (word recall 0.640, CER
  /// 0.354; tested).
  ///
  /// A mark is a group of saturated pixels joined within a tenth of an inch
  /// (a stamp's letters and its frame); it lies over print when any of its
  /// pixels touches black ink (dark in luminance, not itself coloured). The
  /// result covers the group's saturated pixels and one pixel round them
  /// (the anti-aliased edges of a stamp are less saturated). A gray pixel's
  /// brightest channel is its luminance within the saturation threshold,
  /// so black stays black.
  static func marksOverPrint(
    _ saturated: LeptonicaImage, luminance: LeptonicaImage, resolution: Int?
  ) -> LeptonicaImage? {
    guard let near = scantext_pixDilateBrick(nil, saturated.pix, 3, 3).map(LeptonicaImage.init),
      let dark = scantext_pixThresholdToBinary(luminance.pix, 128).map(LeptonicaImage.init),
      let black = scantext_pixSubtract(nil, dark.pix, near.pix).map(LeptonicaImage.init),
      // Black ink keeps a pixel clear of the saturated ones: it touches a
      // mark when it comes within 2 pixels.
      let aroundBlack = scantext_pixDilateBrick(nil, black.pix, 5, 5).map(LeptonicaImage.init),
      let touching = scantext_pixAnd(nil, aroundBlack.pix, saturated.pix).map(
        LeptonicaImage.init)
    else { return nil }
    let reach = Int32(max(3, (resolution ?? 300) / 10)) | 1
    guard
      let groups = scantext_pixDilateBrick(nil, saturated.pix, reach, reach).map(
        LeptonicaImage.init),
      let filled = scantext_pixSeedfillBinary(nil, touching.pix, groups.pix, 8).map(
        LeptonicaImage.init),
      let marks = scantext_pixAnd(nil, filled.pix, saturated.pix).map(LeptonicaImage.init),
      let wider = scantext_pixDilateBrick(nil, marks.pix, 3, 3).map(LeptonicaImage.init)
    else { return nil }
    return wider
  }

  // MARK: Rules

  /// The shortest rule, in pixels: half an inch, and at least a twentieth
  /// of the page's longer side (a wrong resolution tag, 72 dpi on a 300 dpi
  /// scan, would otherwise make letters' strokes long enough).
  static func ruleLength(_ ink: LeptonicaImage, resolution: Int?) -> Int {
    max((resolution ?? 300) / 2, max(ink.width, ink.height) / 20, 40)
  }

  /// The ruling lines of a binarised page, horizontal and vertical (`nil`
  /// when either kind is missing): runs of ink at least
  /// ``ruleLength(_:resolution:)`` long and at most 1/40 inch thick. Letters have no such runs; solid areas (photos, a book's dark
  /// edge) are thicker and are left alone.
  static func rules(
    binary ink: LeptonicaImage, resolution: Int?, halved: LeptonicaImage? = nil
  ) -> (
    horizontal: LeptonicaImage, vertical: LeptonicaImage
  )? {
    let length = Int32(ruleLength(ink, resolution: resolution))
    let thick = ruleThickness(resolution)
    // Most pages have no long horizontal run at all: then the vertical
    // ones are not looked for (a table needs both); and both kinds of run
    // are found before the solid areas are taken out of either, the
    // costlier openings. The same result; on `typewriter` (long horizontal
    // runs, no vertical one) the search went from 9.4 % to 5.0 % of a
    // reading (`preprocess-bench`). A page without a run of either kind
    // is told on the page halved first (``mayHoldRuns(_:length:horizontal:)``).
    if let halved = halved ?? Self.halved(ink) {
      guard mayHoldRuns(halved, length: length, horizontal: true),
        mayHoldRuns(halved, length: length, horizontal: false)
      else { return nil }
    }
    guard let runs = thinRuns(ink, length: length, thick: thick),
      let horizontal = withoutRunsInAreas(runs.horizontal, ink: ink, horizontal: true, resolution),
      let vertical = withoutRunsInAreas(runs.vertical, ink: ink, horizontal: false, resolution)
    else { return nil }
    return (horizontal, vertical)
  }

  /// A rule is a line between paper: where a run's band on *both* sides
  /// (a tenth of an inch deep) is more than half ink, the run is a gap in
  /// an area of ink, not a line. Reversed print makes such runs: the strips
  /// of a coloured panel between its lines of white text (a report's cover,
  /// `redp5110_sampled` page 18 of ../shared/docling) are long and thin,
  /// and removing them as rules broke the text ("IBM Redbooks ane:developad"
  /// for "are developed", a heading lost). A table's rules have paper or
  /// text on at least one side (text covers well under half its lines'
  /// area; a shaded row covers one side only), so they stay.
  ///
  /// - Parameters:
  ///   - runs: the thin runs of one direction (``rules(binary:resolution:halved:)``).
  ///   - ink: the binarised page.
  ///   - horizontal: whether the runs are horizontal (their sides above
  ///     and below) or vertical (left and right).
  ///   - resolution: the page's resolution in dpi (300 when unknown).
  /// - Returns: the runs without those inside areas of ink; `nil` when
  ///   Leptonica fails.
  /// - Complexity: O(*p*) for *p* pixels, and O(*r* · *l* · *d*) for *r*
  ///   runs of length *l* and bands *d* deep.
  static func withoutRunsInAreas(
    _ runs: LeptonicaImage, ink: LeptonicaImage, horizontal: Bool, _ resolution: Int?
  ) -> LeptonicaImage? {
    let depth = max(3, (resolution ?? 300) / 10)
    var inAreas: [PixelRect] = []
    func density(_ band: PixelRect) -> Double? {
      let clipped = PixelRect(
        minX: max(0, band.minX), minY: max(0, band.minY), maxX: min(ink.width, band.maxX),
        maxY: min(ink.height, band.maxY))
      guard clipped.maxX > clipped.minX, clipped.maxY > clipped.minY else { return 0 }
      guard let part = clip(ink, clipped) else { return nil }
      var n: Int32 = 0
      guard scantext_pixCountPixels(part.pix, &n, nil) == 0 else { return nil }
      let area = (clipped.maxX - clipped.minX) * (clipped.maxY - clipped.minY)
      return Double(n) / Double(area)
    }
    for box in componentBoxes(runs) {
      let before =
        horizontal
        ? PixelRect(minX: box.minX, minY: box.minY - depth, maxX: box.maxX, maxY: box.minY)
        : PixelRect(minX: box.minX - depth, minY: box.minY, maxX: box.minX, maxY: box.maxY)
      let after =
        horizontal
        ? PixelRect(minX: box.minX, minY: box.maxY, maxX: box.maxX, maxY: box.maxY + depth)
        : PixelRect(minX: box.maxX, minY: box.minY, maxX: box.maxX + depth, maxY: box.maxY)
      guard let a = density(before), let b = density(after) else { return nil }
      if a > 0.5 && b > 0.5 { inAreas.append(box) }
    }
    guard !inAreas.isEmpty else { return runs }
    guard let copy = scantext_pixCopy(nil, runs.pix) else { return nil }
    let kept = LeptonicaImage(taking: copy)
    for area in inAreas {
      guard
        let box = scantext_boxCreate(
          Int32(area.minX), Int32(area.minY), Int32(area.maxX - area.minX),
          Int32(area.maxY - area.minY))
      else { return nil }
      var owned: UnsafeMutablePointer<Box>? = box
      defer { scantext_boxDestroy(&owned) }
      guard scantext_pixSetInRectArbitrary(kept.pix, box, 0) == 0 else { return nil }
    }
    return kept
  }

  /// Solid areas this thick are not rules: a rule is thinner than 1/40
  /// inch (and than 4 pixels at least).
  static func ruleThickness(_ resolution: Int?) -> Int32 {
    Int32(max(3, (resolution ?? 300) / 40) + 1)
  }

  /// A binary page halved by ORing 2 × 2 pixels (`pixReduceRankBinary2`,
  /// level 1): a quarter of the pixels, and no run of ink broken.
  static func halved(_ ink: LeptonicaImage) -> LeptonicaImage? {
    scantext_pixReduceRankBinary2(ink.pix, 1, nil).map { LeptonicaImage(taking: $0) }
  }

  /// The runs of ink at least `length` long across and down the page,
  /// without the parts of solid areas `thick` pixels thick (`nil` when
  /// either kind is missing).
  private static func thinRuns(_ ink: LeptonicaImage, length: Int32, thick: Int32) -> (
    horizontal: LeptonicaImage, vertical: LeptonicaImage
  )? {
    // Composite bricks (a short brick and a comb): far faster than plain
    // ones this long, for a length within a few pixels of the one asked.
    func longRuns(_ w: Int32, _ h: Int32) -> LeptonicaImage? {
      guard let long = scantext_pixOpenCompBrick(nil, ink.pix, w, h) else { return nil }
      let runs = LeptonicaImage(taking: long)
      var count: Int32 = 0
      guard scantext_pixCountPixels(runs.pix, &count, nil) == 0, count > 0 else { return nil }
      return runs
    }
    func thin(_ runs: LeptonicaImage, _ tw: Int32, _ th: Int32) -> LeptonicaImage? {
      guard let solid = scantext_pixOpenCompBrick(nil, ink.pix, tw, th) else { return nil }
      let areas = LeptonicaImage(taking: solid)
      return scantext_pixSubtract(nil, runs.pix, areas.pix).map { LeptonicaImage(taking: $0) }
    }
    guard let horizontalRuns = longRuns(length, 1), let verticalRuns = longRuns(1, length),
      let horizontal = thin(horizontalRuns, length, thick),
      let vertical = thin(verticalRuns, thick, length)
    else { return nil }
    return (horizontal, vertical)
  }

  /// Whether a page may hold a run of ink `length` long (horizontal or
  /// vertical), told on the page halved by ORing 2 × 2 pixels
  /// (`pixReduceRankBinary2`, level 1), a quarter of the pixels: a run
  /// of n pixels leaves a run of at least ⌈n/2⌉ there, so where an opening
  /// with a brick half as long finds nothing, the page's own opening finds
  /// nothing either. The full opening (a composite brick) keeps runs of
  /// f1 × f2 pixels, the factors Leptonica picks for `length`
  /// (`selectComposableSizes`); the halved one is picked no longer than
  /// half of that. On `typewriter` (no vertical run) and
  /// `linguistics-thesis-a` the search took 6–10 % of a reading.
  static func mayHoldRuns(_ halved: LeptonicaImage, length: Int32, horizontal: Bool) -> Bool {
    guard let size = halvedLength(length),
      let opened = scantext_pixOpenCompBrick(
        nil, halved.pix, horizontal ? size : 1, horizontal ? 1 : size)
    else { return true }
    let runs = LeptonicaImage(taking: opened)
    var count: Int32 = 0
    guard scantext_pixCountPixels(runs.pix, &count, nil) == 0 else { return true }
    return count > 0
  }

  /// The brick for the halved page that finds every run the page's own
  /// opening with `length` keeps: the full opening (a composite brick)
  /// keeps runs of f1 × f2 pixels, the factors Leptonica picks for `length`
  /// (`selectComposableSizes`); the halved one is picked no longer than
  /// half of that. `nil` when there is none.
  private static func halvedLength(_ length: Int32) -> Int32? {
    func effective(_ size: Int32) -> Int32? {
      var f1: Int32 = 0
      var f2: Int32 = 0
      guard scantext_selectComposableSizes(size, &f1, &f2) == 0 else { return nil }
      return f1 * f2
    }
    guard let full = effective(length) else { return nil }
    let limit = (full + 1) / 2
    var size = limit
    while size > 1, let e = effective(size), e > limit { size -= 1 }
    guard size > 1, let e = effective(size), e <= limit else { return nil }
    return size
  }

  /// Whether the page may hold a table's grid, told on the page halved
  /// (`halved`, see ``halved(_:)``): the same search for thin runs, with
  /// bricks half as long (``halvedLength(_:)``) and half as thick, and
  /// their crossings (a 3 × 3 dilation there, the page's 5 × 5). The
  /// page's own search runs only when the halved page has a crossing at
  /// all. A grid keeps its crossings halved (`ruled-table` 36 → 36,
  /// `8071_093.3B` 208 → 218 as the pages reach the step); crossings of
  /// stray runs (a photo's page edges, ornament) come and go (`kant-0017`
  /// 17 → 5, `boston-cooking-a` 12 → 1, `bengel-abriss` 2 → 1), so the bar
  /// is the lowest there is; a test checks on every sample and real page
  /// that no page the full search takes for a grid is turned away. The
  /// halved search costs about a fifth of the page's: on the photo
  /// `linguistics-thesis-a`, whose page edges are long thin runs of both
  /// kinds that never cross, the page's search took 9–12 % of a reading.
  static func mayHoldGrid(_ halved: LeptonicaImage, length: Int32, resolution: Int?) -> Bool {
    halvedCrossings(halved, length: length, resolution: resolution).map { $0 > 0 } ?? true
  }

  /// The crossings of thin runs on the halved page (see
  /// ``mayHoldGrid(_:length:resolution:)``); 0 when either kind of run is
  /// missing, `nil` when Leptonica fails.
  static func halvedCrossings(_ halved: LeptonicaImage, length: Int32, resolution: Int?) -> Int? {
    guard let size = halvedLength(length) else { return nil }
    let thick = (ruleThickness(resolution) + 1) / 2
    guard let runs = thinRuns(halved, length: size, thick: thick) else { return 0 }
    return ruleCrossings(horizontal: runs.horizontal, vertical: runs.vertical, reach: 3)
  }

  /// Rules are removed only where horizontal and vertical ones cross at
  /// least this often: a table's grid (4 column rules × 5 row rules). On
  /// the real pages long thin runs alone were no sign of a table: book
  /// edges, column rules and ornament lost up to 8 confident words when
  /// removed (`fleming-jaeger`, 0 crossings; `kant-0017`, 17); the ruled
  /// table has 36.
  static let minimumRuleCrossings = 20

  /// The number of places where a horizontal and a vertical rule meet.
  /// Each kind is widened by a `reach` × `reach` dilation first.
  static func ruleCrossings(
    horizontal: LeptonicaImage, vertical: LeptonicaImage, reach: Int32 = 5
  ) -> Int? {
    guard let h = scantext_pixDilateBrick(nil, horizontal.pix, reach, reach) else { return nil }
    let wideH = LeptonicaImage(taking: h)
    guard let v = scantext_pixDilateBrick(nil, vertical.pix, reach, reach) else { return nil }
    let wideV = LeptonicaImage(taking: v)
    guard let both = scantext_pixAnd(nil, wideH.pix, wideV.pix) else { return nil }
    let crossings = LeptonicaImage(taking: both)
    guard let boxes = scantext_pixConnCompBB(crossings.pix, 8) else { return nil }
    var owned: UnsafeMutablePointer<Boxa>? = boxes
    defer { scantext_boxaDestroy(&owned) }
    return Int(scantext_boxaGetCount(boxes))
  }

  /// What the rules step found on a binarised page: its ruling lines
  /// (see ``rules(binary:resolution:halved:)``), how many pixels each kind
  /// has, and how often they cross.
  struct RuleMeasurement {
    var horizontal: LeptonicaImage
    var vertical: LeptonicaImage
    var horizontalPixels: Int
    var verticalPixels: Int
    /// The places where a horizontal and a vertical rule meet
    /// (``ruleCrossings(horizontal:vertical:reach:)``).
    var crossings: Int

    /// The small ruled tables of a page whose rules cross fewer times
    /// than a grid's (``Preprocessor/smallTables(_:ink:resolution:)``).
    var smallTables: [RuledTable] = []

    /// The boxes of the page's heavy horizontal rules
    /// (``Preprocessor/heavyHorizontalRules(_:thin:resolution:)``): part
    /// of its tables' grids, not removed.
    var heavyHorizontal: [PixelRect] = []

    /// Whether the rules form a table's grid, to be removed: at least
    /// ``Preprocessor/minimumRuleCrossings`` crossings.
    var formGrid: Bool { crossings >= Preprocessor.minimumRuleCrossings }

    /// The rules the step removes: all of them on a page whose rules form
    /// a grid (``formGrid``), the rules round its small tables on another
    /// (``Preprocessor/restricted(_:to:resolution:)``); `nil` when there
    /// is neither.
    func removal(resolution: Int?) -> RuleMeasurement? {
      if formGrid { return self }
      guard !smallTables.isEmpty else { return nil }
      return Preprocessor.restricted(self, to: smallTables, resolution: resolution)
    }
  }

  /// Finds a binarised page's ruling lines and their crossings; `nil` when
  /// it has no rule of either kind (told on the page halved first, see
  /// ``mayHoldGrid(_:length:resolution:)``) or Leptonica fails.
  static func measureRules(binary ink: LeptonicaImage, resolution: Int?) -> RuleMeasurement? {
    let halved = Self.halved(ink)
    if let halved {
      let length = Int32(ruleLength(ink, resolution: resolution))
      guard mayHoldGrid(halved, length: length, resolution: resolution) else { return nil }
    }
    guard let found = rules(binary: ink, resolution: resolution, halved: halved) else { return nil }
    var horizontal: Int32 = 0
    var vertical: Int32 = 0
    guard scantext_pixCountPixels(found.horizontal.pix, &horizontal, nil) == 0,
      scantext_pixCountPixels(found.vertical.pix, &vertical, nil) == 0,
      horizontal > 0, vertical > 0,
      let crossings = ruleCrossings(horizontal: found.horizontal, vertical: found.vertical)
    else { return nil }
    var measured = RuleMeasurement(
      horizontal: found.horizontal, vertical: found.vertical,
      horizontalPixels: Int(horizontal), verticalPixels: Int(vertical), crossings: crossings)
    measured.heavyHorizontal =
      heavyHorizontalRules(ink, thin: found.horizontal, resolution: resolution) ?? []
    measured.smallTables = smallTables(measured, ink: ink, resolution: resolution)
    return measured
  }

  /// The thickest a heavy rule is: 1/30 inch (and 5 pixels at least).
  static func heavyRuleThickness(_ resolution: Int?) -> Int32 {
    Int32(max(4, (resolution ?? 300) / 30) + 1)
  }

  /// The boxes of a page's heavy horizontal rules: runs of ink as long as
  /// a rule (``ruleLength(_:resolution:)``), too thick for a rule
  /// (``ruleThickness(_:)``) but at most 1/30 inch, between paper
  /// (``withoutRunsInAreas(_:ink:horizontal:_:)``). They are taken into a
  /// table's grid (``removeRules(_:_:resolution:)``) and not removed.
  ///
  /// Why: a table's rules over and under its header row (and round the
  /// table) are often set heavier than those between its rows: 2 points,
  /// 8 pixels at 300 dpi, in the IBM Redbook of docling's set
  /// (`redp5110_sampled` p8, p11, p12), whose rules between rows are 4–5.
  /// Taken for solid areas, they left the header row open, read as one
  /// cell with the first row ("Global variable CLIENT_HOST"). Removing
  /// them as rules (1/30 inch for every rule) changed Tesseract's layout
  /// of the page outside the table (the Korean `normal_4pages` p2 lost a
  /// footnote to letters read as columns, see the tables measurements of
  /// 2026-12-06): kept on the page, they only bound the cells.
  /// - Returns: `nil` when Leptonica fails.
  /// - Complexity: O(*p*) in the page's pixels.
  static func heavyHorizontalRules(
    _ ink: LeptonicaImage, thin: LeptonicaImage, resolution: Int?
  ) -> [PixelRect]? {
    let length = Int32(ruleLength(ink, resolution: resolution))
    let heavy = heavyRuleThickness(resolution)
    guard let opened = scantext_pixOpenCompBrick(nil, ink.pix, length, 1) else { return nil }
    let runs = LeptonicaImage(taking: opened)
    guard let solid = scantext_pixOpenCompBrick(nil, ink.pix, length, heavy) else { return nil }
    let areas = LeptonicaImage(taking: solid)
    guard let notSolid = scantext_pixSubtract(nil, runs.pix, areas.pix) else { return nil }
    let upToHeavy = LeptonicaImage(taking: notSolid)
    guard let notThin = scantext_pixSubtract(nil, upToHeavy.pix, thin.pix) else { return nil }
    let thick = LeptonicaImage(taking: notThin)
    guard let between = withoutRunsInAreas(thick, ink: ink, horizontal: true, resolution) else {
      return nil
    }
    let least = Int(ruleThickness(resolution)) - 1
    return componentBoxes(between).filter { $0.height >= least && $0.width >= Int(length) }
  }

  /// Removes the ruling lines `found` on an 8-bit gray page (the rules
  /// step applies this when they form a table's grid,
  /// ``RuleMeasurement/formGrid``). A rule's pixels (and one round them:
  /// anti-aliasing) take the gray of a closing across the rule, the paper
  /// next to it, so a photo's gray paper gets no white streak and a letter
  /// crossing the rule keeps its stroke.
  /// Returns the page and the grid of the rules removed, in the page's
  /// pixels; `nil` when Leptonica fails.
  static func removeRules(
    _ gray: LeptonicaImage, _ found: RuleMeasurement, resolution: Int?
  ) -> (image: LeptonicaImage, grid: TableGrid)? {
    guard let copy = scantext_pixCopy(nil, gray.pix) else { return nil }
    let clean = LeptonicaImage(taking: copy)
    // Across a horizontal rule is vertical: close with a tall brick.
    let across = Int32(2 * max(3, (resolution ?? 300) / 40) + 5) | 1
    let passes = [
      (found.horizontal, found.horizontalPixels, Int32(1), across),
      (found.vertical, found.verticalPixels, across, Int32(1)),
    ]
    for (mask, count, w, h) in passes where count > 0 {
      guard let grown = scantext_pixDilateBrick(nil, mask.pix, 3, 3) else { return nil }
      let near = LeptonicaImage(taking: grown)
      guard let patches = paperPatches(clean, near: near, brickWidth: w, brickHeight: h)
      else { return nil }
      for patch in patches {
        guard
          scantext_pixCombineMaskedGeneral(
            clean.pix, patch.paper.pix, patch.mask.pix, Int32(patch.box.minX),
            Int32(patch.box.minY)) == 0
        else { return nil }
      }
    }
    scantext_pixCopyResolution(clean.pix, gray.pix)
    let grid = TableGrid(
      horizontalRules: componentBoxes(found.horizontal) + found.heavyHorizontal,
      verticalRules: componentBoxes(found.vertical))
    return (clean, grid)
  }

  /// The paper under each rule: `gray` closed with a `brickWidth` ×
  /// `brickHeight` brick (`pixCloseGray`), cut to the box of each
  /// component of `near` together with that part of `near`.
  ///
  /// The closing is computed around each rule only, not over the page: a
  /// closed pixel depends on the pixels within the brick's reach on either
  /// side (dilation then erosion), so each box is closed within a margin of
  /// a whole brick and the box's pixels are exactly those of the page's
  /// closing (where the margin meets the page's edge, the page's own edge
  /// is the patch's). All patches are closed before any is laid back, as
  /// the page's closing was. On a ruled magazine page (`8071_093.3B.tif`)
  /// the two closings took 12 % of a reading.
  static func paperPatches(
    _ gray: LeptonicaImage, near: LeptonicaImage, brickWidth: Int32, brickHeight: Int32
  ) -> [(box: PixelRect, paper: LeptonicaImage, mask: LeptonicaImage)]? {
    let page = PixelRect(minX: 0, minY: 0, maxX: gray.width, maxY: gray.height)
    var patches: [(box: PixelRect, paper: LeptonicaImage, mask: LeptonicaImage)] = []
    for box in componentBoxes(near) {
      let reach = PixelRect(
        minX: max(0, box.minX - Int(brickWidth)), minY: max(0, box.minY - Int(brickHeight)),
        maxX: min(page.maxX, box.maxX + Int(brickWidth)),
        maxY: min(page.maxY, box.maxY + Int(brickHeight)))
      guard let around = clip(gray, reach),
        let closed = scantext_pixCloseGray(around.pix, brickWidth, brickHeight)
      else { return nil }
      let closedAround = LeptonicaImage(taking: closed)
      let inner = PixelRect(
        minX: box.minX - reach.minX, minY: box.minY - reach.minY, maxX: box.maxX - reach.minX,
        maxY: box.maxY - reach.minY)
      guard let paper = clip(closedAround, inner), let mask = clip(near, box) else { return nil }
      patches.append((box, paper, mask))
    }
    return patches
  }

  /// The boxes of a 1-bit image's connected components (8-connected).
  static func componentBoxes(_ image: LeptonicaImage) -> [PixelRect] {
    guard let boxes = scantext_pixConnCompBB(image.pix, 8) else { return [] }
    var owned: UnsafeMutablePointer<Boxa>? = boxes
    defer { scantext_boxaDestroy(&owned) }
    var out: [PixelRect] = []
    for i in 0..<scantext_boxaGetCount(boxes) {
      var x: Int32 = 0
      var y: Int32 = 0
      var w: Int32 = 0
      var h: Int32 = 0
      guard scantext_boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0 else { continue }
      out.append(PixelRect(minX: Int(x), minY: Int(y), maxX: Int(x + w), maxY: Int(y + h)))
    }
    return out
  }
}
