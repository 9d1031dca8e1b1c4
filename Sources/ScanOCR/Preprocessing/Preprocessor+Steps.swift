import CScanOCR
import Foundation
import ScanImaging
import ScanModel

// The steps of the default pipeline, in the order they run. Each
// step's thresholds and their evidence are documented where the step's
// measurement lives (``Preprocessor``, `Preprocessor+ColourAndRules.swift`,
// `Preprocessor+Dewarp.swift`, `Preprocessor+Page.swift`).

/// Colour: a colour page read in the gray that suits it.
struct ColourStep: ImageStep {
  let descriptor = StepDescriptor(
    .colour,
    flag: ("no-colour", "Read colour pages in plain luminance (keep stamps, coloured paper)."),
    summary: "reads a colour page in the gray that suits it")

  func measure(_ page: inout WorkingPage, _ context: StepContext)
    -> Preprocessor.ColourMeasurement?
  {
    Preprocessor.measureColour(page.image)
  }

  func decide(
    _ measured: Preprocessor.ColourMeasurement, _ page: WorkingPage, _ context: StepContext
  ) -> Preprocessor.ColourConversion? {
    Preprocessor.colourConversion(page.image, measured: measured)
  }

  func apply(
    _ conversion: Preprocessor.ColourConversion, to page: inout WorkingPage,
    _ context: StepContext
  ) -> (image: LeptonicaImage, map: PointMap)? {
    Preprocessor.convertColour(page.image, conversion).map { ($0, .identity) }
  }

  func record(
    _ measured: Preprocessor.ColourMeasurement, _ conversion: Preprocessor.ColourConversion
  ) -> StepRecord {
    StepRecord(.colour, measurement: measured.saturatedShare, decision: conversion.decision)
  }
}

/// Illumination: a shadow evened out, or low contrast stretched.
struct IlluminationStep: ImageStep {
  let descriptor = StepDescriptor(
    .illumination, flag: ("no-illumination", "Do not even out shadows and low contrast."),
    summary: "evens out shadows (`illumination`) or stretches low contrast (`contrast`)")

  /// A 1-bit page has no shadow or contrast to fix.
  func isOn(_ context: StepContext) -> Bool {
    context.steps.contains(.illumination)
      && scantext_pixGetDepth(context.source.pix) > 1
  }

  func measure(_ page: inout WorkingPage, _ context: StepContext)
    -> Preprocessor.IlluminationMeasurement?
  {
    Preprocessor.measureIllumination(page.image)
  }

  func decide(
    _ measured: Preprocessor.IlluminationMeasurement, _ page: WorkingPage,
    _ context: StepContext
  ) -> StepDecision? {
    measured.decision
  }

  func apply(_ decision: StepDecision, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    // The stretch alone (a rare decision) measures the page's noise again.
    let smoothing =
      decision == .contrastStretched
      && (Preprocessor.measureIllumination(page.image)?.smoothsNoise ?? false)
    return Preprocessor.normalizeIllumination(page.image, decision, smoothing: smoothing).map {
      ($0, .identity)
    }
  }

  func record(_ measured: Preprocessor.IlluminationMeasurement, _ decision: StepDecision)
    -> StepRecord
  {
    StepRecord(.illumination, measurement: measured.value, decision: decision)
  }
}

/// Despeckle: salt-and-pepper speckle removed with a 3×3 median.
///
/// The median's window and the speck size (under 3×3 pixels) are square
/// in pixels, so they mean the same on paper only where the pixels are
/// square: on a fax at 200 × 100 dpi a 3×3 window covers 3 × 6 pixels'
/// worth of paper, taller than the horizontal strokes and serifs of 10–12
/// pt type (1–2 rows at 100 dpi), and the median erased them (develop fax
/// `misc-1003`: CER 0.0166 read by Tesseract as stored, 0.2170 despeckled
/// then squared, 0.0005 squared then despeckled). So the step runs after
/// ``SquarePixelsStep`` and does not act on a page whose pixels are still
/// not square (the square-pixel step off, or the page too large to
/// resample).
struct DespeckleStep: ImageStep {
  let descriptor = StepDescriptor(
    .despeckle, flag: ("no-despeckle", "Do not remove salt-and-pepper speckle."),
    summary: "removes salt-and-pepper speckle")

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Preprocessor.Specks? {
    page.ink().flatMap(Preprocessor.countSpecks)
  }

  func decide(_ specks: Preprocessor.Specks, _ page: WorkingPage, _ context: StepContext)
    -> Preprocessor.Specks?
  {
    guard specks.callForDespeckling, SquarePixelsStep.hasSquarePixels(page, context) else {
      return nil
    }
    return specks
  }

  func apply(_ specks: Preprocessor.Specks, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    Preprocessor.median3x3(page.image).map { ($0, .identity) }
  }

  func record(_ specks: Preprocessor.Specks, _ decision: Preprocessor.Specks) -> StepRecord {
    StepRecord(.despeckle, measurement: specks.share)
  }
}

/// Rules: the ruling lines of a table or form removed. The measurement
/// finds the rules and their crossings
/// (``Preprocessor/measureRules(binary:resolution:)``); the step decides
/// to remove them when they cross often enough to be a table's grid
/// (``Preprocessor/minimumRuleCrossings``), or, round a small table only,
/// when fewer crossings close cells that hold text
/// (``Preprocessor/smallTables(_:ink:resolution:)``); the removal lays the
/// paper next to each rule over it
/// (``Preprocessor/removeRules(_:_:resolution:)``).
struct RulesStep: ImageStep {
  let descriptor = StepDescriptor(
    .rules, flag: ("no-rules", "Do not remove the ruling lines of tables and forms."),
    summary: "removes the ruling lines of tables and forms")

  func measure(_ page: inout WorkingPage, _ context: StepContext)
    -> Preprocessor.RuleMeasurement?
  {
    guard let ink = page.ink() else { return nil }
    return Preprocessor.measureRules(binary: ink, resolution: page.resolution)
  }

  func decide(
    _ found: Preprocessor.RuleMeasurement, _ page: WorkingPage, _ context: StepContext
  ) -> Preprocessor.RuleMeasurement? {
    found.removal(resolution: page.resolution)
  }

  func apply(
    _ found: Preprocessor.RuleMeasurement, to page: inout WorkingPage, _ context: StepContext
  ) -> (image: LeptonicaImage, map: PointMap)? {
    guard
      let removal = Preprocessor.removeRules(page.image, found, resolution: page.resolution)
    else { return nil }
    // Grids are kept in original pixels: mapped back from a cropped or
    // rescaled (square pixels) page; a page in perspective has no upright
    // grid there, so none is kept.
    if page.frame?.perspective == nil, let back = page.map.projective {
      page.tables.append(removal.grid.mapped(back))
    }
    return (removal.image, .identity)
  }

  func record(
    _ found: Preprocessor.RuleMeasurement, _ decision: Preprocessor.RuleMeasurement
  ) -> StepRecord {
    StepRecord(.rules, measurement: Double(found.crossings))
  }
}

/// Square pixels: a page whose two resolutions differ (a fax) rescaled to
/// the higher. It runs before the steps that measure in pixels
/// (despeckle, rules), so that their sizes mean the same across and down
/// the page.
struct SquarePixelsStep: ImageStep {
  let descriptor = StepDescriptor(
    .squarePixels, flag: nil,
    summary: "resamples a page whose horizontal and vertical resolutions differ")

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> (x: Int, y: Int)? {
    Self.resolutions(context)
  }

  /// The original's horizontal and vertical resolutions, when it has both.
  static func resolutions(_ context: StepContext) -> (x: Int, y: Int)? {
    let x = Int(scantext_pixGetXRes(context.original.pix))
    let y = Int(scantext_pixGetYRes(context.original.pix))
    return x > 0 && y > 0 ? (x, y) : nil
  }

  /// Whether two resolutions differ by more than 2 %: then the pixels are
  /// not square.
  static func differ(_ r: (x: Int, y: Int)) -> Bool {
    abs(r.x - r.y) * 50 > max(r.x, r.y)
  }

  /// Whether the page's pixels are square: the original's are (or its
  /// resolution is not known), or this step made them so.
  static func hasSquarePixels(_ page: WorkingPage, _ context: StepContext) -> Bool {
    guard let r = resolutions(context), differ(r) else { return true }
    return page.records.contains { $0.step == .squarePixels }
  }

  func decide(_ r: (x: Int, y: Int), _ page: WorkingPage, _ context: StepContext) -> (
    sx: Double, sy: Double, target: Int
  )? {
    // Differ by more than 2 %, and the result within the pixel limit.
    guard Self.differ(r) else { return nil }
    let target = max(r.x, r.y)
    let sx = Double(target) / Double(r.x)
    let sy = Double(target) / Double(r.y)
    let (width, height) = (Double(page.image.width), Double(page.image.height))
    guard sx * sy * width * height <= Double(context.preprocessor.maxPixels) else { return nil }
    return (sx, sy, target)
  }

  func apply(
    _ d: (sx: Double, sy: Double, target: Int), to page: inout WorkingPage, _ context: StepContext
  ) -> (image: LeptonicaImage, map: PointMap)? {
    let gray = page.image
    guard let image = Self.resample(gray, sx: d.sx, sy: d.sy) else { return nil }
    scantext_pixSetResolution(image.pix, Int32(d.target), Int32(d.target))
    // Leptonica rounds the new size; map with the factors it used.
    let fx = Double(image.width) / Double(gray.width)
    let fy = Double(image.height) / Double(gray.height)
    page.resolution = context.dpi ?? d.target
    return (image, PointMap(.projective(.undoScale(x: fx, y: fy))))
  }

  /// The page resampled by (`sx`, `sy`). A black-and-white page (a fax)
  /// stays black and white: each of its pixels is a rectangle of paper
  /// that is all ink or all paper, so it is repeated (a new pixel takes
  /// the old pixel its centre falls in), and the stairs that repeating
  /// cuts into every slanted or curved edge (two rows a step on a fax) are
  /// rounded off by a 3×3 median, which on square pixels keeps every
  /// stroke at least two pixels thick. Interpolating it instead
  /// (`pixScaleGrayLI`, which puts every other new row halfway between two
  /// old ones) makes a row of gray 127 along every horizontal edge, which
  /// Tesseract's threshold takes for ink. On the develop faxes (misc
  /// 1000–1039, 200 × 100 dpi, 23 pages) against Tesseract on the page as
  /// stored: interpolated, worse on most (`misc-1015`: CER 0.0145 against
  /// 0.0036); repeated, worse on some (`misc-1038`: 0.0092 against 0.0033,
  /// word recall 0.954 against 0.987); repeated and rounded off, no worse
  /// on any (see the README's Preprocessing). A gray page is interpolated.
  ///
  /// The median keeps a pixel when five of the nine around it are ink, so
  /// a stroke survives it only where it is at least two pixels thick, and
  /// a stroke drawn two pixels thick loses every row where its edge
  /// wavers by one pixel. The page's strokes are measured across the
  /// direction the rows were repeated in (``commonestInkRun(_:across:)``):
  /// when the commonest ink run is under three pixels (small print, 8 pt
  /// at 200 dpi across, draws its stems one or two pixels thick), the
  /// stairs are left as they are: repeated alone, such a page reads
  /// better than rounded off (`fax-small-print`: CER 0.0188 against
  /// 0.0551, Tesseract on the page as stored 0.0363).
  static func resample(_ gray: LeptonicaImage, sx: Double, sy: Double) -> LeptonicaImage? {
    guard Preprocessor.isTwoLevel(gray) else {
      return scantext_pixScaleGrayLI(gray.pix, Float(sx), Float(sy)).map {
        LeptonicaImage(taking: $0)
      }
    }
    // The size pixScaleGrayLI gives, so both kinds of page map alike.
    let width = max(1, Int((Double(gray.width) * sx).rounded()))
    let height = max(1, Int((Double(gray.height) * sy).rounded()))
    guard let made = scantext_pixCreate(Int32(width), Int32(height), 8),
      let source = scantext_pixGetData(gray.pix), let target = scantext_pixGetData(made)
    else { return nil }
    let image = LeptonicaImage(taking: made)
    let (sourceWords, targetWords) = (
      Int(scantext_pixGetWpl(gray.pix)), Int(scantext_pixGetWpl(made))
    )
    func from(_ i: Int, _ scale: Double, _ count: Int) -> Int {
      min(count - 1, Int((Double(i) + 0.5) / scale))
    }
    for y in 0..<height {
      let row = source + from(y, sy, gray.height) * sourceWords
      let out = target + y * targetWords
      if width == gray.width {
        out.update(from: row, count: min(sourceWords, targetWords))
        continue
      }
      // Leptonica keeps 8-bit pixels big-endian within each 32-bit word.
      for x in 0..<width {
        let s = from(x, sx, gray.width)
        let byte = (row[s / 4] >> UInt32(24 - 8 * (s % 4))) & 0xff
        let shift = UInt32(24 - 8 * (x % 4))
        out[x / 4] = (out[x / 4] & ~(0xff << shift)) | (byte << shift)
      }
    }
    if let run = commonestInkRun(image, across: sy >= sx), run < 3 { return image }
    return Preprocessor.median3x3(image)
  }

  /// The commonest length, in pixels, of the runs of ink (pixels under
  /// 128) along the rows (`across` true) or the columns of a page: the
  /// thickness its upright strokes (or, along the columns, its level ones)
  /// are most often drawn with. `nil` when the page has no ink.
  /// - Complexity: O(*p*) in the page's pixels.
  static func commonestInkRun(_ image: LeptonicaImage, across: Bool) -> Int? {
    guard let data = scantext_pixGetData(image.pix) else { return nil }
    let words = Int(scantext_pixGetWpl(image.pix))
    let (width, height) = (image.width, image.height)
    func ink(_ x: Int, _ y: Int) -> Bool {
      // Leptonica keeps 8-bit pixels big-endian within each 32-bit word.
      (data[y * words + x / 4] >> UInt32(24 - 8 * (x % 4))) & 0xff < 128
    }
    var counts = [Int](repeating: 0, count: max(width, height) + 1)
    let (lines, length) = across ? (height, width) : (width, height)
    for line in 0..<lines {
      var run = 0
      for i in 0..<length {
        if across ? ink(i, line) : ink(line, i) {
          run += 1
        } else if run > 0 {
          counts[run] += 1
          run = 0
        }
      }
      if run > 0 { counts[run] += 1 }
    }
    guard let most = counts.indices.dropFirst().max(by: { counts[$0] < counts[$1] }),
      counts[most] > 0
    else { return nil }
    return most
  }

  func record(_ r: (x: Int, y: Int), _ d: (sx: Double, sy: Double, target: Int)) -> StepRecord {
    StepRecord(.squarePixels, measurement: Double(max(r.x, r.y)) / Double(min(r.x, r.y)))
  }
}

/// Orientation: the page turned back by the quarter turns orientation
/// detection found (``OCREngine``'s reading decides them; the step turns).
struct TurnStep: ImageStep {
  let descriptor = StepDescriptor(
    .orientation, flag: ("no-orientation", "Do not detect pages turned by 90°, 180° or 270°."),
    summary: "turns a page found on its side or upside down")

  func isOn(_ context: StepContext) -> Bool { Self.turns(context.quarterTurns) != 0 }

  static func turns(_ quarterTurns: Int) -> Int { ((quarterTurns % 4) + 4) % 4 }

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Int? {
    Self.turns(context.quarterTurns)
  }

  func decide(_ turns: Int, _ page: WorkingPage, _ context: StepContext) -> Int? {
    turns != 0 ? turns : nil
  }

  func apply(_ turns: Int, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    // The content is turned `turns` quarter turns clockwise; turn it back.
    guard let upright = scantext_pixRotateOrth(page.image.pix, Int32((4 - turns) % 4)) else {
      return nil
    }
    page.orientation = turns * 90
    return (
      LeptonicaImage(taking: upright),
      PointMap(
        .projective(
          .undoQuarterTurns((4 - turns) % 4, width: page.image.width, height: page.image.height)))
    )
  }

  func record(_ turns: Int, _ decision: Int) -> StepRecord {
    StepRecord(.orientation, measurement: Double(turns))
  }
}

/// Deskew: the text lines straightened when Leptonica's skew search is
/// confident and the skew reaches ``Preprocessor/minimumSkew``.
struct DeskewStep: ImageStep {
  let descriptor = StepDescriptor(
    .deskew, flag: ("no-deskew", "Do not straighten skewed text lines."),
    summary: "straightens skewed text lines")

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Double? {
    page.ink().flatMap(Preprocessor.skewCorrection(binary:))
  }

  func decide(_ angle: Double, _ page: WorkingPage, _ context: StepContext) -> Double? {
    abs(angle) >= Preprocessor.minimumSkew ? angle : nil
  }

  func apply(_ angle: Double, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    guard
      let straight = scantext_pixRotate(
        page.image.pix, Float(angle * Double.pi / 180), Int32(L_ROTATE_AREA_MAP),
        Int32(L_BRING_IN_WHITE), 0, 0)
    else { return nil }
    page.skew = -ScanConventions.rounded(angle)
    return (
      LeptonicaImage(taking: straight),
      PointMap(
        .projective(
          .undoRotation(degrees: angle, width: page.image.width, height: page.image.height)))
    )
  }

  func record(_ angle: Double, _ decision: Double) -> StepRecord {
    StepRecord(.deskew, measurement: angle)
  }
}

/// Dewarp: curled text lines straightened when they all bend the same way
/// by enough (``Preprocessor/CurlMeasurement/callsForDewarping``).
struct DewarpStep: ImageStep {
  let descriptor = StepDescriptor(
    .dewarp,
    flag: ("no-dewarp", "Do not straighten the curled text lines of a photographed book page."),
    summary: "flattens the curled lines of a photographed book page")

  typealias Measured = Preprocessor.CurlMeasurement

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Measured? {
    page.ink().flatMap(Preprocessor.measureCurl(binary:))
  }

  func decide(_ measured: Measured, _ page: WorkingPage, _ context: StepContext) -> Measured? {
    measured.callsForDewarping ? measured : nil
  }

  func apply(_ measured: Measured, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    Preprocessor.applyDewarp(page.image, measured).map { ($0.image, $0.map) }
  }

  func record(_ measured: Measured, _ decision: Measured) -> StepRecord {
    StepRecord(.dewarp, measurement: measured.bend)
  }
}

/// Upscale: a low-resolution page enlarged (off by default).
struct UpscaleStep: ImageStep {
  let descriptor = StepDescriptor(
    .upscale,
    flag: (
      "upscale", "Upscale pages below 200 dpi to 300 dpi (off: it did not help on measured pages)."
    ),
    summary: "enlarges a low-resolution page (off by default) or small text", onByDefault: false)

  /// On with `--upscale`, and whenever a first reading found the text too
  /// small (``Preprocessor/smallTextFactor``).
  func isOn(_ context: StepContext) -> Bool {
    context.steps.contains(name) || context.preprocessor.smallTextFactor != nil
  }

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Int? {
    page.resolution ?? (context.preprocessor.smallTextFactor != nil ? 0 : nil)
  }

  func decide(_ resolution: Int, _ page: WorkingPage, _ context: StepContext) -> Double? {
    context.preprocessor.upscaleFactor(resolution: resolution)
  }

  func apply(_ factor: Double, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    guard let scaled = scantext_pixScaleGrayLI(page.image.pix, Float(factor), Float(factor))
    else { return nil }
    // Small text enlarged keeps its resolution's scale (unknown stays
    // unknown); a low-resolution page is read as the 300 dpi it becomes.
    if context.preprocessor.smallTextFactor != nil {
      page.resolution = page.resolution.map { $0 > 0 ? Int((Double($0) * factor).rounded()) : $0 }
    } else {
      page.resolution = Preprocessor.upscaleToDPI
    }
    return (LeptonicaImage(taking: scaled), PointMap(.projective(.undoScale(factor))))
  }

  func record(_ resolution: Int, _ factor: Double) -> StepRecord {
    StepRecord(.upscale, measurement: factor)
  }
}

extension Preprocessor {
  /// The steps that cut a photographed page out of its background.
  static let frameSteps: [any ImageStep] = [PageFrameStep()]
  /// The steps that change pixel values but not their places, after the
  /// page is gray (the colour step makes it gray, so it runs before).
  /// Square pixels runs among them (it moves pixels, by a scale) so that
  /// despeckling and the rules measure on square pixels.
  static let cleaningSteps: [any ImageStep] = [
    IlluminationStep(), SquarePixelsStep(), DespeckleStep(), RulesStep(), LeadersStep(),
  ]
  /// The steps that move pixels, on the cleaned gray page.
  static let geometrySteps: [any ImageStep] = [
    TurnStep(), DeskewStep(), DewarpStep(), UpscaleStep(),
  ]
  /// The whole default pipeline, in order.
  static var pipeline: [any ImageStep] {
    frameSteps + [ColourStep()] + cleaningSteps + geometrySteps
  }
}
