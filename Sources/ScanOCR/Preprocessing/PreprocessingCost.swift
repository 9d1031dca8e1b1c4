import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// The cost of the measurements that decide the colour, rule and page
/// steps, and of the whole default preparation of a page, for the benchmark
/// in `Tools/bench/Benchmarks` (`preprocess-bench`), which sets them against the
/// cost of a reading. Not a stable API.
@_spi(Benchmarks) public enum PreprocessingCost {
  /// What the measurements of one page cost and decided.
  public struct Figures: Sendable {
    /// Measuring the share of saturated pixels and, on coloured paper, the
    /// channels' contrast: what every RGB page pays.
    public var colourMeasurement: Duration
    /// Converting the page as decided (zero when the step does not apply).
    public var colourConversion: Duration
    /// Looking for rules on the binarised page: what every page pays.
    public var rulesMeasurement: Duration
    /// Removing the rules found, finding them again included (zero when
    /// there are none).
    public var rulesRemoval: Duration
    /// The steps the measurements decided, as recorded on the page.
    public var decided: [String]
    /// The whole default preparation of the page before the first reading:
    /// the gray copy, every step's measurement and the steps that apply,
    /// and Leptonica's orientation measure.
    public var preparation: Duration = .zero
    /// The steps the default preparation applied.
    public var prepared: [String] = []
    /// The same steps with what each measured and the time it took (the
    /// preparation's typed provenance).
    public var steps: [StepRecord] = []
    /// Looking for a page standing free on a background (the crop and
    /// perspective steps' measurement): what every page pays.
    public var pageMeasurement: Duration = .zero
    /// Leptonica's text orientation measure on the binarised page
    /// (`pixOrientDetect`): what every page read with orientation pays.
    public var orientationMeasurement: Duration = .zero
    /// Measuring the skew of the binarised page (`pixFindSkewSweepAndSearch`).
    public var skewMeasurement: Duration = .zero
    /// The 8-bit gray copy of the page every step works on.
    public var grayConversion: Duration = .zero
    /// Binarising the gray page (shared by the rule, orientation and skew
    /// measurements).
    public var binarization: Duration = .zero
    /// Leptonica's page model of the text lines' curl (the dewarp step's
    /// measurement), on the page as it comes.
    public var curlMeasurement: Duration = .zero
    /// Counting where the rules found cross (zero when there are none).
    public var ruleCrossings: Duration = .zero
  }

  /// Reads the first page of an image file with the default steps and
  /// times fitting its tilted glyphs' boxes to their ink (``InkFitting``),
  /// the median of three runs on the words as read; `nil` when the reading
  /// does not fit any (the page was recognised as it is, or no word came
  /// back tilted).
  public static func inkFitting(contentsOf path: String) throws(OCRError) -> Duration? {
    let data = try ImageReader.readBytes(path)
    guard let original = try ImageReader.decodePages(data, path: path, maxPixels: .max).first
    else { throw .corruptImage(path: path, format: "image") }
    let page = try OCREngine(options: RecognitionOptions()).recognize(
      original, index: 0, path: path)
    let prepared = Preprocessor(steps: .default).prepare(original, dpi: nil)
    let mapper = ElementMapper(map: prepared.map, width: original.width, height: original.height)
    guard !mapper.isIdentity || page.orientation != 0,
      page.words.contains(where: { $0.quad != nil })
    else { return nil }
    let clock = ContinuousClock()
    let runs = (0..<3).map { _ in
      clock.measure { _ = InkFitting.fitting(page.blocks, to: original) }
    }
    return runs.sorted()[1]
  }

  /// Decodes the first page of an image file and times the measurements.
  public static func measure(contentsOf path: String) throws(OCRError) -> Figures {
    let data = try ImageReader.readBytes(path)
    guard let original = try ImageReader.decodePages(data, path: path, maxPixels: .max).first
    else { throw .corruptImage(path: path, format: "image") }
    let clock = ContinuousClock()
    var decided: [String] = []
    var outline: PageOutline?
    let pageMeasurement = clock.measure { outline = PageDetection.find(original) }
    // The page steps' own decision, as the pipeline makes it.
    if let outline,
      let decision = PageFrameStep.decide(
        outline, steps: .default, width: original.width, height: original.height)
    {
      decided.append(PageFrameStep().record(outline, decision).recorded)
    }
    var conversion: Preprocessor.ColourConversion?
    let colourMeasurement = clock.measure {
      if let measured = Preprocessor.measureColour(original) {
        conversion = Preprocessor.colourConversion(original, measured: measured)
      }
    }
    var gray: LeptonicaImage?
    let colourConversion = clock.measure {
      if let conversion, let converted = Preprocessor.convertColour(original, conversion) {
        gray = converted
        decided.append(StepRecord(.colour, decision: conversion.decision).recorded)
      }
    }
    var plainGray: LeptonicaImage?
    let grayConversion = clock.measure { plainGray = Preprocessor.gray(original) }
    let page = gray ?? plainGray
    var rules: (horizontal: LeptonicaImage, vertical: LeptonicaImage)?
    var ink: LeptonicaImage?
    let binarization = clock.measure { ink = page.flatMap { Preprocessor.binarize($0) } }
    let rulesMeasurement = clock.measure {
      rules = ink.flatMap { Preprocessor.rules(binary: $0, resolution: original.resolution) }
    }
    var rulesRemoval = Duration.zero
    var crossings = Duration.zero
    if let rules {
      crossings = clock.measure {
        _ = Preprocessor.ruleCrossings(horizontal: rules.horizontal, vertical: rules.vertical)
      }
    }
    if rules != nil, let page, let ink {
      rulesRemoval = clock.measure {
        // The rules step's own measure, decide and apply, as the pipeline runs it.
        if let found = Preprocessor.measureRules(binary: ink, resolution: original.resolution),
          let removal = found.removal(resolution: original.resolution),
          Preprocessor.removeRules(page, removal, resolution: original.resolution) != nil
        {
          decided.append(StepRecord(.rules).recorded)
        }
      }
    }
    var figures = Figures(
      colourMeasurement: colourMeasurement, colourConversion: colourConversion,
      rulesMeasurement: rulesMeasurement, rulesRemoval: rulesRemoval, decided: decided,
      pageMeasurement: pageMeasurement)
    figures.grayConversion = grayConversion
    figures.binarization = binarization
    figures.ruleCrossings = crossings
    if let ink {
      figures.orientationMeasurement = clock.measure {
        _ = Preprocessor.textOrientation(binary: ink, resolution: original.resolution)
      }
      figures.skewMeasurement = clock.measure { _ = Preprocessor.skewCorrection(binary: ink) }
      figures.curlMeasurement = clock.measure { _ = Preprocessor.measureCurl(binary: ink) }
    }
    let preprocessor = Preprocessor(steps: .default)
    var prepared: PreparedImage?
    figures.preparation = clock.measure {
      let upright = preprocessor.prepare(original, dpi: nil)
      _ = Preprocessor.textOrientation(upright)
      prepared = upright
    }
    figures.prepared = prepared?.recorded ?? []
    figures.steps = prepared?.applied ?? []
    return figures
  }
}
