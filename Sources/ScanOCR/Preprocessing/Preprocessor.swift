import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// What preprocessing did to a page: the image to recognise, how to map its
/// points back to the original, and what was found.
struct PreparedImage {
  /// The image to recognise (the original itself when nothing applied).
  var image: LeptonicaImage
  /// From the recognised image back to the original: every step that
  /// moved pixels, composed in the order they ran.
  var map: PointMap = .identity
  /// How far the content is turned clockwise in the original: 0, 90, 180, 270.
  var orientation: Int
  /// The skew of the text lines in the original, in degrees (positive: clockwise).
  var skew: Double
  /// The resolution to tell Tesseract, when known.
  var resolution: Int?
  /// The steps that changed the image, in order: the page's provenance.
  var applied: [StepRecord]
  /// The page cleaned (illumination, square pixels, speckle, rules) but
  /// not yet turned or straightened, to prepare it again turned without
  /// cleaning it twice (the original itself when no step changed it, 1
  /// bit deep while it is black and white:
  /// ``WorkingPage/compacted(original:)``).
  var cleaned: CleanedImage?
  /// The table grids whose rules the rules step removed, in original pixels.
  var tables: [TableGrid] = []
  /// The boxes of the leaders the leaders step found, in original pixels
  /// (``LeadersPass`` takes what OCR read in them out of the words).
  var leaders: [PixelRect] = []
  /// The part of the photo kept by the page steps, and the page's corners
  /// when its perspective was corrected (original pixels).
  var crop: PixelRect?
  var perspective: Quad?

  /// Whether the dewarp step applied.
  var dewarped: Bool { map.bends }
  /// The steps applied, as the page's `preprocessing` list records them.
  var recorded: [String] { applied.map(\.recorded) }

  /// Keeps what preprocessing found and lets go of the pixels it made:
  /// no ``cleaned`` page, and `original` as ``image``. Once recognition
  /// is done the block passes and figure finding need only the original
  /// image and these findings, and the copies (an 8-bit gray page is
  /// 8.4 MB at 300 dpi) would otherwise live until the page is built.
  mutating func releasePixels(keeping original: LeptonicaImage) {
    image = original
    cleaned = nil
  }
}

/// An 8-bit gray page after the steps that do not move pixels (and the
/// page steps, whose map it carries).
typealias CleanedImage = WorkingPage

/// Leptonica and Tesseract image preprocessing. Each step first measures
/// whether it is needed and leaves the image alone when it is not, so a
/// clean page is recognised exactly as the `tesseract` command would.
///
/// Every threshold below was set on the real pages in `../shared/scans`
/// and the generated pages in `Scans/` so that no page reads fewer
/// confident words (confidence ≥ 60) with the step than without it; the
/// README's Preprocessing section gives the figures.
struct Preprocessor {
  /// Orientation confidences (Tesseract's OSD) below this propose no turn.
  static let minimumOrientationConfidence: Float = 2
  /// Skews smaller than this (degrees) are not corrected: Tesseract's own
  /// line finding copes with them, and correcting them cost words
  /// (`eurotext.tif`, −0.81°: 65 → 62 confident words).
  static let minimumSkew = 1.0
  /// Despeckling needs specks to be more than this share of all ink
  /// components: at 30 % it cost words on a magazine page with a halftone
  /// photo (`8071_093.3B.tif`, 30 %) and a 150 dpi page with an engraving
  /// (`c02-22`, 44 %); speckled pages measure 69–93 %.
  static let minimumSpeckShare = 0.5
  /// Pages below this resolution are upscaled.
  static let upscaleBelowDPI = 200
  static let upscaleToDPI = 300

  let steps: Preprocessing
  /// The largest image preprocessing may make, in pixels.
  var maxPixels = Int.max
  /// The quadrilateral (corners clockwise from the top-left, in the
  /// original's pixels) to straighten instead of looking for the page's
  /// outline: measured from the text of a first reading
  /// (``TextPerspective``) when the page's edges are not in view.
  var textPerspective: [Point]?
  /// How much to enlarge a page whose text a first reading found too small
  /// to read well (``OCREngine`` measures it; the upscale step applies it,
  /// whether or not `--upscale` is on).
  var smallTextFactor: Double?

  init(steps: Preprocessing, maxPixels: Int = .max) {
    self.steps = steps
    self.maxPixels = maxPixels
  }

  /// Prepares an image for recognition.
  /// - Parameters:
  ///   - quarterTurns: How many quarter turns clockwise the content is
  ///     turned in the original (found by orientation detection); the
  ///     image is turned back before it is deskewed.
  ///   - cleaned: The cleaning of an earlier preparation of the same image,
  ///     reused instead of cleaning again.
  func prepare(
    _ original: LeptonicaImage, dpi: Int?, quarterTurns: Int = 0, cleaned: CleanedImage? = nil
  ) -> PreparedImage {
    var result = PreparedImage(
      image: original, orientation: 0, skew: 0,
      resolution: dpi ?? original.resolution, applied: [], cleaned: nil)
    guard !steps.isEmpty || quarterTurns != 0 else { return result }
    // Work on 8-bit gray: the steps below are defined for it.
    guard var clean = cleaned?.expanded() ?? self.clean(original, dpi: dpi) else { return result }
    let context = StepContext(self, original: original, dpi: dpi, quarterTurns: quarterTurns)
    // The skew is measured on the binarised page, shared with the other
    // measurements (orientation) while the page is not turned or rescaled.
    if TurnStep.turns(quarterTurns) == 0 && steps.contains(.deskew) { _ = clean.ink() }
    var page = clean
    // The square-pixel step (among the cleaning steps) chose the
    // resolution of the page it made; otherwise it is the original's.
    if !clean.records.contains(where: { $0.step == .squarePixels }) {
      page.resolution = result.resolution
    }
    for step in Self.geometrySteps { page.run(step, context) }
    result.map = page.map
    result.applied = page.records
    result.tables = page.tables
    result.leaders = page.leaders
    result.crop = page.frame?.crop
    result.perspective = page.frame?.perspective
    result.orientation = page.orientation
    result.skew = page.skew
    result.resolution = page.resolution
    if page.changed {
      var gray = page.image
      // A black-and-white page the steps left black and white (cleaning
      // and quarter turns do; straightening and scaling make grays) goes
      // to Tesseract as it came, 1 bit: the same pixels, without Tesseract
      // thresholding an 8-bit copy of the page (the ruled magazine page
      // `8071_093.3B.tif` reads the same words).
      if scantext_pixGetDepth(original.pix) == 1, Self.isTwoLevel(gray),
        let bits = scantext_pixConvertTo1(gray.pix, 128)
      {
        gray = LeptonicaImage(taking: bits)
      }
      if let r = result.resolution { scantext_pixSetResolution(gray.pix, Int32(r), Int32(r)) }
      result.image = gray
    }
    // Kept through the reading for a second preparation: as the
    // original when no step changed it, 1 bit deep when it is black and
    // white.
    result.cleaned = clean.compacted(original: original)
    return result
  }

  /// Whether every pixel of an 8-bit gray image is black (0) or white (255).
  static func isTwoLevel(_ gray: LeptonicaImage) -> Bool {
    guard scantext_pixGetDepth(gray.pix) == 8, let data = scantext_pixGetData(gray.pix) else {
      return false
    }
    let width = gray.width
    let wordsPerLine = Int(scantext_pixGetWpl(gray.pix))
    let fullWords = width / 4
    for y in 0..<gray.height {
      let line = data + y * wordsPerLine
      for i in 0..<fullWords {
        // Each byte 0x00 or 0xff: then the word equals its bytes' sign bits spread.
        let word = line[i]
        let high = word & 0x8080_8080
        if word != (high >> 7) &* 0xff { return false }
      }
      if width % 4 != 0 {
        // Leptonica stores 8-bit pixels big-endian within each 32-bit word.
        let word = line[fullWords]
        for k in 0..<(width % 4) {
          let byte = (word >> UInt32(24 - 8 * k)) & 0xff
          if byte != 0 && byte != 0xff { return false }
        }
      }
    }
    return true
  }

  /// How much the upscale step enlarges a page of this resolution (or of
  /// text too small, ``smallTextFactor``); `nil` when it leaves it alone. The engine checks the enlarged size against
  /// the pixel limit before preparing the page.
  func upscaleFactor(resolution: Int?) -> Double? {
    if let smallTextFactor { return smallTextFactor }
    guard steps.contains(.upscale), let dpi = resolution, dpi < Self.upscaleBelowDPI else {
      return nil
    }
    return Double(Self.upscaleToDPI) / Double(max(1, dpi))
  }

  /// The steps that change pixel values but not their places (colour,
  /// illumination, despeckling and rules) on an 8-bit gray copy, after the
  /// page steps (crop, perspective) cut the page out of a photo and the
  /// square-pixel step made its pixels square: the page the steps that
  /// move pixels start from.
  /// - Parameter dpi: The `--dpi` option (the resolution a squared page is
  ///   told to Tesseract at).
  func clean(_ photo: LeptonicaImage, dpi: Int?) -> CleanedImage? {
    // One gray copy of the photo for the page measurement and the cleaning.
    var context = StepContext(self, original: photo, dpi: dpi)
    context.photoGray = Self.gray(photo)
    var page = WorkingPage(photo, resolution: photo.resolution)
    for step in Self.frameSteps { page.run(step, context) }
    context.source = page.frame?.image ?? photo
    page.run(ColourStep(), context)
    if !page.records.contains(where: { $0.step == .colour }) {
      guard let gray = (page.frame == nil ? context.photoGray : nil) ?? Self.gray(page.image)
      else { return nil }
      page.image = gray
    }
    if let frame = page.frame {
      guard let straight = frame.straightened(page.image) else { return nil }
      page.image = straight
    }
    page.binary = nil
    // The page measurement's gray copy is let go: a cleaning step that
    // replaces the page (the rules step) then frees the gray it replaced.
    context.photoGray = nil
    for step in Self.cleaningSteps { page.run(step, context) }
    // The page cut out of the photo was the cleaning's source; the cleaned
    // page is kept through the reading for a second preparation, which
    // reads only where the cut-out lies (its crop, its perspective, the
    // page's map): its pixels go now (3 MB on the curled photo).
    page.frame?.image = nil
    return page
  }

  /// The image binarised at 128 (what the measurements look at).
  static func binarize(_ gray: LeptonicaImage) -> LeptonicaImage? {
    scantext_pixConvertTo1(gray.pix, 128).map { LeptonicaImage(taking: $0) }
  }

  /// What the ink's shape says about how the page is turned: Leptonica's
  /// count of ascenders against descenders (`pixOrientDetect`), in about
  /// 3 ms for a small page and 20 ms for a 300 dpi letter page.
  struct TextOrientation: Equatable {
    /// Evidence for upright text (positive) against upside-down (negative).
    var up: Float
    /// Evidence for text turned to face left (positive) or right (negative).
    var left: Float
    /// Quarter turns clockwise when Leptonica is confident the page is
    /// turned (its own decision rule), else `nil`.
    var confidentTurns: Int?

    /// Whether upright text is the strongest hypothesis: then the page is
    /// read as it is first, and orientation detection runs only if that
    /// reading is weak.
    var favoursUpright: Bool {
      confidentTurns == nil && up > 0 && up >= abs(left)
    }

    /// Whether the evidence for upright text is clear (at least 4, and
    /// twice any sideways evidence): then a weak reading is a hard page
    /// (Fraktur, a stained page), not a turned one, and orientation
    /// detection is not run at all. Every upright real page but one (a
    /// stained DIBCO page, 3.3) measures 4.2–17.8 here; on every turned
    /// page the strongest evidence is sideways or upside down.
    var clearlyUpright: Bool {
      favoursUpright && up >= 4 && up >= 2 * abs(left)
    }
  }

  /// Measures the text orientation of a prepared (not yet turned) page, on
  /// the binarised page its cleaning made or shared.
  static func textOrientation(_ prepared: PreparedImage) -> TextOrientation? {
    if var cleaned = prepared.cleaned {
      return cleaned.ink().flatMap { textOrientation(binary: $0, resolution: prepared.resolution) }
    }
    return binarize(prepared.image).flatMap {
      textOrientation(binary: $0, resolution: prepared.resolution)
    }
  }

  /// Whether Leptonica's orientation measure looks at a page of this size
  /// and resolution at half size. The measure counts ascenders and
  /// descenders with structuring elements made for text at 150–300 ppi
  /// (its documentation), so a page above 300 ppi, or of unknown
  /// resolution and longer than a letter page at 300 ppi (3300 px), is
  /// measured halved. On the real pages this takes in `typewriter`
  /// (4000 × 2864, no resolution) and `linguistics-thesis-a` (350 ppi):
  /// both are upright, and halved the measure says so clearly (typewriter:
  /// evidence up 16.2 against sideways 2.1, where the full size gave 10.0
  /// against 8.9; linguistics: up 1.9 against 0.8, where the full size
  /// favoured sideways, 2.2 against 3.9, and sent the page to Tesseract's
  /// orientation detection before its reading); every other page keeps
  /// its full size. It is also 3–4 times faster.
  static func measuresOrientationHalved(width: Int, height: Int, resolution: Int?) -> Bool {
    if let resolution, resolution > 0 { return resolution > 300 }
    return max(width, height) > 3300
  }

  /// Measures a binarised page's text orientation (halved when
  /// ``measuresOrientationHalved(width:height:resolution:)``).
  static func textOrientation(binary ink: LeptonicaImage, resolution: Int?) -> TextOrientation? {
    var up: Float = 0
    var left: Float = 0
    var measured = ink
    if measuresOrientationHalved(width: ink.width, height: ink.height, resolution: resolution),
      let half = scantext_pixReduceRankBinary2(ink.pix, 1, nil)
    {
      measured = LeptonicaImage(taking: half)
    }
    guard scantext_pixOrientDetect(measured.pix, &up, &left, 0, 0) == 0 else { return nil }
    var decision: Int32 = 0
    guard scantext_makeOrientDecision(up, left, 0, 0, &decision, 0) == 0 else { return nil }
    let turns: Int? =
      switch Int(decision) {
      // Text up to the right: the content is turned a quarter clockwise.
      case L_TEXT_ORIENT_RIGHT: 1
      case L_TEXT_ORIENT_DOWN: 2
      case L_TEXT_ORIENT_LEFT: 3
      default: nil
      }
    return TextOrientation(up: up, left: left, confidentTurns: turns)
  }

  /// An 8-bit gray copy of the image.
  static func gray(_ image: LeptonicaImage) -> LeptonicaImage? {
    guard let pix = scantext_pixConvertTo8(image.pix, 0) else { return nil }
    scantext_pixCopyResolution(pix, image.pix)
    return LeptonicaImage(taking: pix)
  }

  /// What the illumination step measured: the spread of the paper's
  /// brightness across the page (``backgroundSpread(_:tiles:)``), and,
  /// when that calls for no normalisation, how far ink and paper are apart
  /// (the darkest thousandth of the page, ``inkRank``, and the 90th
  /// percentile).
  struct IlluminationMeasurement {
    var spread: Int?
    var range: Int?
    /// The paper's noise: the 75th percentile of the differences between
    /// neighbouring pixels (``Preprocessor/neighbourNoise(_:)``), measured
    /// when the contrast is low.
    var noise: Int?

    /// Whether the page is averaged (3×3 mean) before its contrast is
    /// stretched: when its noise is too strong for its ink.
    ///
    /// The stretch maps ink to black and paper to white, and Tesseract then
    /// thresholds the page halfway between them, so a paper pixel reads as ink
    /// wherever its noise reaches half the range. For Gaussian noise of
    /// deviation σ the 75th percentile of the differences between neighbours is
    /// 1.63 σ; when half the range is under 4 σ (the range under 8 σ, about 4.9
    /// × ``noise``) more than one paper pixel in 30,000 turns into ink,
    /// hundreds of specks on a letter page, around and inside every stroke.
    /// Averaging 3×3 pixels divides the noise by 3 and keeps strokes of 3 px
    /// and more (text at 150–300 dpi). Measured on develop pages faded to ink
    /// at 214 on paper at 255 with noise σ 10 (range 43–46, noise 10;
    /// `docs/measurements/2026-12-07-second-look.md`, "Faded and fax pages"):
    /// stretched as they were, CER 2.2 and 1.1 (Tesseract 0.98 and 0.99,
    /// reading nothing) at 2.3 × Tesseract's time; averaged first, 0.019 and
    /// 0.080 in a tenth of the time. The low-contrast sample page has no noise
    /// (0) and is stretched as before.
    var smoothsNoise: Bool {
      guard decision == .contrastStretched, let range, let noise, noise > 0 else { return false }
      return range * 163 < 800 * noise
    }

    /// Background normalisation when the paper's brightness varies by more
    /// than 40 levels; else contrast normalisation when ink (the darkest
    /// thousandth of the page, ``Preprocessor/inkRank``) and paper are less
    /// than 110 levels apart.
    var decision: StepDecision? {
      if let spread, spread > 40 { return .applied }
      if let range, range < 110 { return .contrastStretched }
      return nil
    }

    /// The value that decided: the spread, else the range.
    var value: Double? {
      if let spread, spread > 40 { return Double(spread) }
      return range.map(Double.init)
    }
  }

  /// The share of a page's pixels, darkest first, whose level is taken
  /// for its ink when deciding whether its contrast is low: a thousandth.
  ///
  /// The contrast stretch (`pixContrastNorm`, 50×50 tiles) maps every
  /// tile's darkest and lightest levels to black and white wherever they
  /// are 40 levels apart, so on a page whose contrast is already full it
  /// turns the paper's own grain into black speckle around the text. It
  /// must act only where no ink is dark. The 1st percentile, once taken
  /// for the ink, is the paper's grain on a page with little ink: a small
  /// table alone on a letter page (develop `tables-1084`, black ink on 0.29
  /// % of the page) measured 216 against paper at 255 (range 39), was
  /// stretched, and read CER 0.78 against 0 for Tesseract and for the
  /// page left alone; 17 other sparse develop tables (`tables-1004`,
  /// `-1014` and 15 of 1020–1099) measured ranges of 0–92 the same way.
  /// Their darkest thousandth is black (range 255). Pages with text have
  /// 0.22–40 % of their pixels darker than the paper by 110 levels (the
  /// develop pages of every family, seeds 1000–1019, tables 1020–1099, the
  /// sample pages and the real scans); the low-contrast
  /// sample none (ink 135 on paper 200 at every rank down to the darkest
  /// pixel), and it is still stretched. A page with less dark ink than a
  /// thousandth of its area is measured by its paper's grain, as before.
  static let inkRank: Float = 0.001

  /// Measures uneven background (a shadow) and low contrast.
  static func measureIllumination(_ gray: LeptonicaImage) -> IlluminationMeasurement? {
    // Measured on every 4th pixel of every 4th row (when that leaves a
    // useful image): backgrounds and ranks need no detail.
    let factor = min(gray.width, gray.height) >= 800 ? 4 : 1
    guard let sampled = scantext_pixScaleByIntSampling(gray.pix, Int32(factor)) else { return nil }
    let small = LeptonicaImage(taking: sampled)
    let backgrounds = tileBackgrounds(small, tiles: 4)
    let spread = backgroundSpread(backgrounds, tiles: 4)
    if let spread, spread > 40 { return IlluminationMeasurement(spread: spread) }
    var paper: UInt32 = 0
    var ink: UInt32 = 0
    let rankFactor = Int32(max(1, 4 / factor))
    guard scantext_pixGetRankValue(small.pix, rankFactor, 0.9, &paper) == 0,
      scantext_pixGetRankValue(small.pix, rankFactor, inkRank, &ink) == 0
    else { return IlluminationMeasurement(spread: spread) }
    let range = Int(paper) - Int(ink)
    let noise = range < 110 ? neighbourNoise(small) : nil
    return IlluminationMeasurement(spread: spread, range: range, noise: noise)
  }

  /// The 75th percentile of the absolute differences between horizontally
  /// neighbouring pixels of a gray image: on a page, mostly paper beside
  /// paper, so it measures the paper's noise (text edges are fewer than a
  /// quarter of the pairs). `nil` for an image that is not 8-bit gray.
  ///
  /// - Complexity: O(*n*) in the image's pixels.
  static func neighbourNoise(_ gray: LeptonicaImage) -> Int? {
    guard let pixels = GrayPixels(gray), pixels.width > 1 else { return nil }
    var histogram = [Int](repeating: 0, count: 256)
    var count = 0
    pixels.values.withUnsafeBufferPointer { values in
      for y in 0..<pixels.height {
        let row = y * pixels.width
        for x in 1..<pixels.width {
          let d = Int(values[row + x]) - Int(values[row + x - 1])
          histogram[abs(d)] += 1
        }
      }
      count = pixels.height * (pixels.width - 1)
    }
    guard count > 0 else { return nil }
    var seen = 0
    for (level, n) in histogram.enumerated() {
      seen += n
      if seen * 4 >= count * 3 { return level }
    }
    return 255
  }

  /// Normalises uneven background (`.applied`) or stretches low contrast
  /// (`.contrastStretched`), as the illumination step decided.
  /// With `smoothing` (``IlluminationMeasurement/smoothsNoise``), the
  /// page is averaged 3×3 before the stretch.
  static func normalizeIllumination(
    _ gray: LeptonicaImage, _ decision: StepDecision, smoothing: Bool = false
  ) -> LeptonicaImage? {
    let made: UnsafeMutablePointer<Pix>?
    if decision == .contrastStretched {
      if smoothing {
        guard let averaged = scantext_pixBlockconv(gray.pix, 1, 1) else { return nil }
        let owned = LeptonicaImage(taking: averaged)
        made = scantext_pixContrastNorm(nil, owned.pix, 50, 50, 40, 2, 2)
      } else {
        made = scantext_pixContrastNorm(nil, gray.pix, 50, 50, 40, 2, 2)
      }
    } else {
      made = scantext_pixBackgroundNormSimple(gray.pix, nil, nil)
    }
    guard let made else { return nil }
    scantext_pixCopyResolution(made, gray.pix)
    return LeptonicaImage(taking: made)
  }

  /// How much the paper's brightness varies across the page: the range of
  /// the tiles' backgrounds once the darkest edge row or column of tiles is
  /// left out. A dark band along one edge (the book's edge, the gutter, the
  /// scanner's lid) lies outside the text; normalising it changes nothing
  /// where the text is and cost 8 confident words on a book page
  /// (`kant-0017.tif`: spread 107 with the band, 16 without), while a
  /// shadow over the text still measures 79–89 without its darkest edge.
  static func backgroundSpread(_ backgrounds: [Int], tiles: Int) -> Int? {
    guard backgrounds.count == tiles * tiles, tiles > 2 else { return nil }
    let last = tiles - 1
    let edges: [(Int) -> Bool] = [
      { $0 / tiles == 0 }, { $0 / tiles == last }, { $0 % tiles == 0 }, { $0 % tiles == last },
    ]
    func mean(_ edge: (Int) -> Bool) -> Double {
      let values = backgrounds.indices.filter(edge).map { Double(backgrounds[$0]) }
      return values.reduce(0, +) / Double(max(1, values.count))
    }
    guard let darkest = edges.min(by: { mean($0) < mean($1) }) else { return nil }
    let inner = backgrounds.indices.filter { !darkest($0) }.map { backgrounds[$0] }
    guard let lightest = inner.max(), let darkestTile = inner.min() else { return nil }
    return lightest - darkestTile
  }

  /// The paper brightness (90th percentile) of each tile of a grid.
  static func tileBackgrounds(_ gray: LeptonicaImage, tiles: Int) -> [Int] {
    var values: [Int] = []
    let tw = gray.width / tiles
    let th = gray.height / tiles
    guard tw > 4, th > 4 else { return [] }
    for ty in 0..<tiles {
      for tx in 0..<tiles {
        guard let box = scantext_boxCreate(Int32(tx * tw), Int32(ty * th), Int32(tw), Int32(th))
        else {
          continue
        }
        var b: UnsafeMutablePointer<Box>? = box
        defer { scantext_boxDestroy(&b) }
        guard let tile = scantext_pixClipRectangle(gray.pix, box, nil) else { continue }
        let owned = LeptonicaImage(taking: tile)
        var value: UInt32 = 0
        let factor: Int32 = tw * th >= 40_000 ? 2 : 1
        if scantext_pixGetRankValue(owned.pix, factor, 0.9, &value) == 0 {
          values.append(Int(value))
        }
      }
    }
    return values
  }

  /// What the despeckle step counts: ink components, and specks among
  /// them (components under 3×3 pixels).
  struct Specks {
    var components: Int
    var specks: Int

    /// The share of specks among the components.
    var share: Double { Double(specks) / Double(max(1, components)) }

    /// Whether the page is speckled: more than 300 components and 300
    /// specks, specks more than ``Preprocessor/minimumSpeckShare`` of them.
    var callForDespeckling: Bool {
      components > 300 && specks > 300
        && Double(specks) > Preprocessor.minimumSpeckShare * Double(components)
    }
  }

  /// Counts a binarised page's ink components and specks.
  static func countSpecks(_ ink: LeptonicaImage) -> Specks? {
    // One pass over the components: their bounding boxes.
    guard let boxes = scantext_pixConnCompBB(ink.pix, 8) else { return nil }
    defer {
      var owned: UnsafeMutablePointer<Boxa>? = boxes
      scantext_boxaDestroy(&owned)
    }
    let all = Int(scantext_boxaGetCount(boxes))
    // Too few components to be speckled: not counted.
    guard all > 300 else { return Specks(components: all, specks: 0) }
    var small = 0
    var w: Int32 = 0
    var h: Int32 = 0
    for i in 0..<all {
      guard scantext_boxaGetBoxGeometry(boxes, Int32(i), nil, nil, &w, &h) == 0 else { continue }
      if w < 3 && h < 3 { small += 1 }
    }
    return Specks(components: all, specks: small)
  }

  /// The 3×3 median of an 8-bit gray page: the same pixels as Leptonica's
  /// `pixMedianFilter(gray, 3, 3)` in a fraction of its time (see
  /// `Sources/CScanOCR/include/ScanTextMedian.h`; 1.2 s against 0.05 s on a
  /// 16-megapixel photo).
  static func median3x3(_ gray: LeptonicaImage) -> LeptonicaImage? {
    scantext_median3x3(gray.pix).map { LeptonicaImage(taking: $0) }
  }

  /// The rotation (degrees, clockwise) that straightens the text lines, or
  /// `nil` when Leptonica is not confident.
  static func skewCorrection(binary ink: LeptonicaImage) -> Double? {
    var angle: Float = 0
    var confidence: Float = 0
    guard scantext_pixFindSkewSweepAndSearch(ink.pix, &angle, &confidence, 4, 2, 10, 1, 0.01) == 0,
      confidence >= 3
    else { return nil }
    return Double(angle)
  }
}

/// Tesseract with the `osd` model, owned like the main engine.
final class OrientationDetector {
  private let api: OpaquePointer

  init?(dataPath: String) {
    api = scantext_TessBaseAPICreate()
    _ = scantext_TessBaseAPISetVariable(api, "debug_file", "/dev/null")
    guard FileManager.default.fileExists(atPath: dataPath + "/osd.traineddata"),
      scantext_TessBaseAPIInit2(api, dataPath, "osd", OEM_TESSERACT_ONLY) == 0
    else { return nil }
  }

  deinit {
    scantext_TessBaseAPIEnd(api)
    scantext_TessBaseAPIDelete(api)
  }

  /// How many quarter turns clockwise the content is turned (0–3), or `nil`
  /// when detection fails or is not confident.
  func quarterTurns(_ image: LeptonicaImage, resolution: Int?) -> Int? {
    OpenMP.limitThreadsOnCurrentThread()
    scantext_TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
    scantext_TessBaseAPISetImage2(api, image.pix)
    defer { scantext_TessBaseAPIClear(api) }
    if let resolution { scantext_TessBaseAPISetSourceResolution(api, Int32(resolution)) }
    var degrees: Int32 = 0
    var confidence: Float = 0
    var script: UnsafePointer<CChar>?
    var scriptConfidence: Float = 0
    guard
      scantext_TessBaseAPIDetectOrientationScript(
        api, &degrees, &confidence, &script, &scriptConfidence)
        != 0,
      confidence >= Preprocessor.minimumOrientationConfidence
    else { return nil }
    return Int((degrees / 90) % 4)
  }
}
