import CScanOCR

/// The colour step (which gray to recognise a colour page in) and the rule
/// step (ruling lines of tables and forms removed). Both only change pixel
/// values, never their places, so every box stays in the original's pixels.
extension Preprocessor {
  /// A pixel is saturated when its brightest and darkest channels differ by
  /// at least this much. Black, gray and white pixels, and the anti-aliased
  /// edges of black text, differ by less; stamps, coloured ink and coloured
  /// paper by more.
  static let saturation: UInt32 = 60
  /// The colour step applies only when at least this share of the pixels
  /// is saturated (measured on every 4th pixel of every 4th row). Gray
  /// pages and colour scans of white paper with black print measure less.
  static let minimumSaturatedShare = 0.02
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
  }

  /// How a colour page is turned into gray for recognition.
  enum ColourConversion: Equatable {
    /// One channel: 0 red, 1 green, 2 blue (coloured paper).
    case channel(Int)
    /// Luminance, except that saturated pixels take their brightest
    /// channel: coloured marks (stamps) fade to light gray while black text,
    /// and black text under them, stays dark.
    case suppressSaturated

    /// How the decision is recorded on the page.
    var step: String {
      switch self {
      case .channel(let c): "colour: \(["red", "green", "blue"][c]) channel"
      case .suppressSaturated: "colour: saturated colour suppressed"
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
    guard let spread = saturationMask(small) else { return nil }
    var saturated: Int32 = 0
    guard scantext_pixCountPixels(spread.pix, &saturated, nil) == 0 else { return nil }
    let all = max(1, small.width * small.height)
    return ColourMeasurement(saturatedShare: Double(saturated) / Double(all))
  }

  /// 1 where a pixel of an RGB image is saturated.
  private static func saturationMask(_ rgb: LeptonicaImage) -> LeptonicaImage? {
    guard let spread = scantext_pixConvertRGBToGrayMinMax(rgb.pix, Int32(L_CHOOSE_MAXDIFF)) else {
      return nil
    }
    let owned = LeptonicaImage(taking: spread)
    // pixThresholdToBinary marks pixels below the threshold: the gray ones.
    guard let gray = scantext_pixThresholdToBinary(owned.pix, Int32(saturation)) else {
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
    guard measured.saturatedShare >= minimumSaturatedShare else { return nil }
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
      // One pixel round the saturated ones too: the anti-aliased edges of
      // a stamp are less saturated. A gray pixel's brightest channel is
      // its luminance within the saturation threshold, so black stays black.
      guard let mask = saturationMask(original),
        let grown = scantext_pixDilateBrick(nil, mask.pix, 3, 3)
      else { return nil }
      let wider = LeptonicaImage(taking: grown)
      guard scantext_pixCombineMasked(gray.pix, bright.pix, wider.pix) == 0 else { return nil }
    }
    scantext_pixCopyResolution(gray.pix, original.pix)
    return gray
  }

  /// The colour step: the gray page to work on and the step to record, or
  /// `nil` when the page is not RGB or not coloured enough to matter.
  static func colourGray(_ original: LeptonicaImage) -> (image: LeptonicaImage, step: String)? {
    guard let measured = measureColour(original),
      let conversion = colourConversion(original, measured: measured),
      let gray = convertColour(original, conversion)
    else { return nil }
    return (gray, conversion.step)
  }

  // MARK: Rules

  /// The ruling lines of a binarised page: runs of ink at least half an
  /// inch long and at most 1/40 inch thick, horizontal or vertical.
  /// Letters have no such runs; solid areas (photos, a book's dark edge)
  /// are thicker and are left alone.
  static func rules(binary ink: LeptonicaImage, resolution: Int?) -> LeptonicaImage? {
    let dpi = resolution ?? 300
    let length = Int32(max(40, dpi / 2))
    let thick = Int32(max(3, dpi / 40) + 1)
    func thinRuns(_ w: Int32, _ h: Int32, _ tw: Int32, _ th: Int32) -> LeptonicaImage? {
      guard let long = scantext_pixOpenBrick(nil, ink.pix, w, h) else { return nil }
      let runs = LeptonicaImage(taking: long)
      guard let solid = scantext_pixOpenBrick(nil, ink.pix, tw, th) else { return nil }
      let areas = LeptonicaImage(taking: solid)
      return scantext_pixSubtract(nil, runs.pix, areas.pix).map { LeptonicaImage(taking: $0) }
    }
    guard let horizontal = thinRuns(length, 1, length, thick),
      let vertical = thinRuns(1, length, thick, length),
      let both = scantext_pixOr(nil, horizontal.pix, vertical.pix)
    else { return nil }
    return LeptonicaImage(taking: both)
  }

  /// Removes ruling lines (see ``rules(binary:resolution:)``) from an 8-bit
  /// gray page, when there are any: at least two rule lengths of them.
  /// Returns the page and the number of rule pixels removed.
  static func removeRules(
    _ gray: LeptonicaImage, binary ink: LeptonicaImage, resolution: Int?
  ) -> (image: LeptonicaImage, pixels: Int)? {
    guard let found = rules(binary: ink, resolution: resolution) else { return nil }
    var count: Int32 = 0
    guard scantext_pixCountPixels(found.pix, &count, nil) == 0,
      Int(count) >= 2 * max(40, (resolution ?? 300) / 2)
    else { return nil }
    // A pixel round the rules: their anti-aliased edges.
    guard let grown = scantext_pixDilateBrick(nil, found.pix, 3, 3),
      let copy = scantext_pixCopy(nil, gray.pix)
    else { return nil }
    let mask = LeptonicaImage(taking: grown)
    let clean = LeptonicaImage(taking: copy)
    guard scantext_pixSetMasked(clean.pix, mask.pix, 0xff) == 0 else { return nil }
    scantext_pixCopyResolution(clean.pix, gray.pix)
    return (clean, Int(count))
  }
}
