import Foundation
import ScanOCR

/// The recognition options every command that may OCR an image takes.
enum OCRArguments {
  static let lang = Option<String>(
    "lang", short: "l", help: "Recognition languages, joined with '+' (eng, eng+deu).",
    default: "eng")
  static let psm = Option<Int>(
    "psm", help: "Tesseract page segmentation mode, 0-13 (3: automatic).", default: 3)
  static let dpi = Option<Int?>(
    "dpi", help: "Resolution of the images (default: the image's tag, else estimated).")
  static let maxPixels = Option<Int>(
    "max-pixels", help: "Refuse images with more pixels than this (width × height).",
    default: RecognitionOptions.defaultMaxPixels)
  static let timeout = Option<Double?>(
    "timeout", help: "Give up on a page after this many seconds.")
  static let noPreprocess = Flag(
    "no-preprocess", help: "Recognise the image as it is (the same text as 'tesseract').")
  static let noOrientation = Flag(
    "no-orientation", help: "Do not detect pages turned by 90°, 180° or 270°.")
  static let noDeskew = Flag("no-deskew", help: "Do not straighten skewed text lines.")
  static let noIllumination = Flag(
    "no-illumination", help: "Do not even out shadows and low contrast.")
  static let noDespeckle = Flag("no-despeckle", help: "Do not remove salt-and-pepper speckle.")
  static let upscale = Flag(
    "upscale",
    help: "Upscale pages below 200 dpi to 300 dpi (off: it did not help on measured pages).")
  static let noCache = Flag(
    "no-cache", help: "Recognise again instead of using (and filling) the cache.")
  static let verbose = Flag(
    "verbose", help: "Show Tesseract's and Leptonica's own messages.")

  static let all: [any ArgumentKey] = [
    lang, psm, dpi, maxPixels, timeout, noPreprocess, noOrientation, noDeskew, noIllumination,
    noDespeckle, upscale, noCache, verbose,
  ]

  /// The cache to use, unless `--no-cache`.
  static func cache(_ a: ParsedArguments) -> RecognitionCache? {
    a[noCache] ? nil : RecognitionCache.standard()
  }

  /// The preprocessing steps the flags leave on.
  static func preprocessing(_ a: ParsedArguments) -> Preprocessing {
    if a[noPreprocess] { return .none }
    var steps = Preprocessing.default
    if a[noOrientation] { steps.remove(.orientation) }
    if a[noDeskew] { steps.remove(.deskew) }
    if a[noIllumination] { steps.remove(.illumination) }
    if a[noDespeckle] { steps.remove(.despeckle) }
    if a[upscale] { steps.insert(.upscale) }
    return steps
  }

  /// Reads and checks the options.
  static func options(_ a: ParsedArguments) throws -> RecognitionOptions {
    let languages = try a[lang].split(separator: "+", omittingEmptySubsequences: false).map(
      String.init)
    guard !languages.contains(where: \.isEmpty) else {
      throw ValidationError("'--lang' takes language codes joined with '+', such as eng+deu")
    }
    let mode = try a[psm]
    guard let segmentation = PageSegmentationMode(rawValue: mode) else {
      throw ValidationError("'--psm' must be between 0 and 13 (got \(mode))")
    }
    let resolution = try a[dpi]
    if let resolution, !(1...10_000).contains(resolution) {
      throw ValidationError("'--dpi' must be between 1 and 10000 (got \(resolution))")
    }
    let limit = try a[maxPixels]
    guard limit > 0 else { throw ValidationError("'--max-pixels' must be positive") }
    let seconds = try a[timeout]
    if let seconds, !(seconds > 0) { throw ValidationError("'--timeout' must be positive") }
    return RecognitionOptions(
      languages: languages, pageSegmentation: segmentation, dpi: resolution,
      dataPath: nil, maxPixels: limit, timeout: seconds,
      preprocessing: preprocessing(a))
  }
}
