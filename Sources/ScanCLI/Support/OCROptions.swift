import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

/// The recognition options of every command that may OCR an image,
/// declared once; read and checked into the service's
/// ``ScanService/ReadingSettings``.
enum OCROptions {
  static let lang = Option<String>(
    "lang", short: "l", help: "Recognition languages, joined with '+' (eng, eng+deu).",
    default: "eng")
  static let psm = Option<Int>(
    "psm", help: "Tesseract page segmentation mode, 0-13 (3: automatic).", default: 3)
  static let dpi = Option<Int?>(
    "dpi",
    help:
      "Resolution of the images (default: the image's tag, else estimated); for a PDF, the resolution to render its pages at (default: a page's one image at its own resolution, else 300)."
  )
  static let maxPixels = Option<Int>(
    "max-pixels", help: "Refuse images with more pixels than this (width × height).",
    default: RecognitionOptions.defaultMaxPixels)
  static let timeout = Option<Double?>(
    "timeout", help: "Give up on a page after this many seconds.")
  static let pageThreads = Option<Int?>(
    "page-threads",
    help:
      "Cores to recognise one large page on, its parts read side by side (default 1: every page whole; more reads a large page faster, not always with the same words)."
  )
  static let noPreprocess = Flag(
    "no-preprocess", help: "Recognise the image as it is (the same text as 'tesseract').")
  static let layout = Option<PageLayoutOrder?>(
    "layout",
    help:
      "Paragraph order: 'reading' (headers first; footnotes, footers, page numbers last; notes after their paragraph) or 'tesseract' (default: reading; tesseract with --no-preprocess)."
  )
  /// Each preprocessing step's flag (`--no-deskew`, `--upscale`), made from
  /// the steps' list (``StepDescriptor/pipeline``), in the order the steps
  /// run.
  static let stepFlags: [(step: StepDescriptor, flag: Flag)] = StepDescriptor.pipeline.compactMap {
    step in step.flag.map { (step, Flag($0.name, help: $0.help)) }
  }
  /// Deskew spelled out: it is on by default, and a user who asks for it
  /// by name is told nothing wrong (not "did you mean --no-deskew").
  static let deskew = Flag(
    "deskew", help: "Straighten skewed text lines (the default; --no-deskew turns it off).")
  static let pages = Option<PageSelection?>(
    "pages",
    help:
      "Pages of each input (PDF, TIFF, document) to read, from 1: '2-5', '1,3,7-', '-3' (default: all).",
    parse: PageSelection.parse)
  static let skipText = Flag(
    "skip-text",
    help:
      "Do not recognise PDF pages that already have text: their words come from the PDF, and a searchable PDF keeps them unchanged (the default, without the note)."
  )
  static let redoOCR = Flag(
    "redo-ocr",
    help:
      "Recognise PDF pages again whose text is an earlier invisible text layer, replacing that layer (visible text and vectors are kept)."
  )
  static let forceOCR = Flag(
    "force-ocr",
    help:
      "Render and recognise every PDF page, text or not; a searchable PDF carries the renderings.")
  static let keepRotation = Flag(
    "keep-rotation",
    help:
      "Keep turned pages as scanned in a searchable PDF and HTML (default: shown upright).")
  static let noTags = Flag(
    "no-tags",
    help:
      "Write a searchable PDF without its logical structure (default: tagged, PDF/UA: headings, paragraphs, lists, tables, notes in reading order)."
  )
  static let secondLook = Flag(
    "second-look",
    help:
      "Read lines read weakly (low confidence, junk) again from other renderings of their pixels (enlarged, binarised locally, contrast-stretched) and keep the better reading; the page's record names them."
  )
  static let noFigures = Flag(
    "no-figures",
    help:
      "Do not look for pictures (drawings, woodcuts, photos) on each page (default: found as figures, tagged in a searchable PDF; rubber stamps in colour are not taken for pictures, in gray they may be)."
  )
  /// The switch from when finding figures was off by default: still
  /// accepted (it is the default now).
  static let figures = Flag(
    "figures", help: "Find the pictures on each page as figures (the default).")
  static let outputType = Option<PDFOutputType>(
    "output-type",
    help:
      "What a searchable PDF claims to be: pdf, or PDF/A of part 1, 2 or 3 (pdfa is pdfa-2), at level a when tagged (also PDF/UA-1), else u (b for pdfa-1). An input that cannot be made PDF/A is written as plain PDF, with a warning naming the reason.",
    default: .pdfA)
  static let title = Option<String?>(
    "title", help: "The searchable PDF's title (default: the first input's file name).")
  static let noCache = Flag(
    "no-cache", help: "Recognise again instead of using (and filling) the cache.")
  /// Read by ``ScanText/main(_:io:)`` before parsing: the libraries'
  /// messages must be let through before anything loads them.
  static let verbose = Flag(
    "verbose", help: "Show Tesseract's and Leptonica's own messages.")

  static let arguments: [any ArgumentKey] = {
    let before: [any ArgumentKey] = [
      lang, psm, dpi, maxPixels, timeout, pageThreads, noPreprocess, layout,
    ]
    let after: [any ArgumentKey] = [
      pages, skipText, redoOCR, forceOCR, keepRotation, noTags, outputType, noFigures, figures,
      secondLook, title,
      noCache,
      verbose,
    ]
    return before + stepFlags.map { $0.flag as any ArgumentKey } + [deskew] + after
  }()
}

extension ReadingSettings {
  /// The settings the options of ``OCROptions`` give.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error, exit 64)
  ///   for a value out of range or options that cannot go together.
  init(_ a: ParsedArguments) throws {
    typealias O = OCROptions
    guard let languages = LanguageCode.list(parsing: try a[O.lang]) else {
      throw ValidationError("'--lang' takes language codes joined with '+', such as eng+deu")
    }
    let mode = try a[O.psm]
    guard let segmentation = PageSegmentationMode(rawValue: mode) else {
      throw ValidationError("'--psm' must be between 0 and 13 (got \(mode))")
    }
    let resolution = try a[O.dpi]
    if let resolution, !(1...10_000).contains(resolution) {
      throw ValidationError("'--dpi' must be between 1 and 10000 (got \(resolution))")
    }
    let limit = try a[O.maxPixels]
    guard limit > 0 else { throw ValidationError("'--max-pixels' must be positive") }
    let seconds = try a[O.timeout]
    if let seconds, !(seconds > 0) { throw ValidationError("'--timeout' must be positive") }
    InputFiles.setWaitLimit(seconds)
    let threads = try a[O.pageThreads]
    if let threads, threads < 1 { throw ValidationError("'--page-threads' must be 1 or more") }
    var steps = Preprocessing.default
    for (step, flag) in O.stepFlags where a[flag] {
      if step.flagTurnsOn { steps.insert(step.name) } else { steps.remove(step.name) }
    }
    if a[O.deskew] {
      guard steps.contains(.deskew) else {
        throw ValidationError("'--deskew' and '--no-deskew' cannot be used together")
      }
    }
    if a[O.noPreprocess] { steps = .none }
    // `--no-preprocess` promises the `tesseract` command's text, order included.
    let order = try a[O.layout] ?? .default(for: steps)
    var recognition = RecognitionOptions(
      languages: languages, pageSegmentation: segmentation, dpi: resolution,
      dataPath: nil, maxPixels: limit, timeout: seconds, preprocessing: steps, layout: order,
      findsFigures: !a[O.noFigures],
      pageThreads: threads ?? 1)
    recognition.secondLook = a[O.secondLook]
    let pages = try a[O.pages]
    let policies: [(Flag, PDFTextPolicy)] = [
      (O.skipText, .skip), (O.redoOCR, .redo), (O.forceOCR, .force),
    ]
    let chosen = policies.filter { a[$0.0] }
    if chosen.count > 1 {
      throw ValidationError(
        "\(chosen.map { "'\($0.0.spec.id)'" }.joined(separator: " and ")) cannot be used together")
    }
    self.init(
      recognition: recognition, languageGiven: a.contains(O.lang), useCache: !a[O.noCache],
      pdfPages: pages, pdfText: chosen.first?.1 ?? .keep,
      keepRotation: a[O.keepRotation], tagged: !a[O.noTags], title: try a[O.title],
      outputType: try a[O.outputType])
  }
}

/// The pages a command that reads one model works on: MODEL and the
/// recognition options (`--pages` among them), read and checked once.
///
/// Pages are counted from 1 everywhere, as tesseract, pdftotext and ocrmypdf
/// count them; the 0-based `--page` of earlier versions is gone (the parser
/// answers `Unknown option '--page'. Did you mean '--pages'?`).
struct ModelOptions: Sendable {
  static let model = Argument<String>(
    "model",
    help:
      "A document (JSON, hOCR, ALTO, PAGE XML, TSV), or an image or PDF to recognise; '-' for standard input."
  )
  static let arguments: [any ArgumentKey] = [model] + OCROptions.arguments

  /// The document or image.
  var path: String
  var ocr: ReadingSettings

  init(_ a: ParsedArguments) throws {
    path = try a[Self.model]
    ocr = try ReadingSettings(a)
  }
}
