import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// Recognises images with Tesseract's LSTM engine into ``ScanModel/Page``
/// values.
///
/// An engine owns one Tesseract instance (about 80 MB once a page is
/// loaded) and is reused across pages: create one per thread and keep it.
/// It is not `Sendable`; never share one between threads.
public final class OCREngine {
  private let handle: TesseractHandle
  var api: OpaquePointer { handle.raw }
  /// Tesseract's orientation detection, loaded on first use (its model
  /// costs time to load, and most pages never need it).
  private var orientationDetector: OrientationDetector?
  private var orientationDetectorLoaded = false
  /// The engines that recognise the other parts of a page read side by
  /// side (``RecognitionOptions/pageThreads``): started on first need and
  /// kept, one per part beyond the first, used only within one call.
  var partners: [TesseractHandle] = []
  let dataFolder: String
  /// The options the engine was created with.
  public let options: RecognitionOptions

  /// Loads the languages of `options`.
  ///
  /// - Throws: ``OCRError/languageUnavailable(language:dataPath:available:)``
  ///   when a language's traineddata cannot be loaded.
  public convenience init(options: RecognitionOptions = RecognitionOptions()) throws(OCRError) {
    try OCRLibraries.load()
    try self.init(options: options, handle: TesseractHandle())
  }

  /// Takes `handle`; when initialisation fails, the handle is freed with
  /// the last reference to it (tests check it).
  init(options: RecognitionOptions, handle: TesseractHandle) throws(OCRError) {
    self.options = options
    self.handle = handle
    OpenMP.limitThreadsOnCurrentThread()
    let folder = options.dataPath ?? TessdataFolder.resolved
    dataFolder = folder
    try Self.checkLanguageFiles(options, folder: folder)
    guard Self.start(handle, folder: folder, options: options) else {
      throw .languageUnavailable(
        language: options.languageString, dataPath: folder,
        available: TessdataFolder.languages(in: folder))
    }
  }

  /// Checks, without loading anything, that the libraries load and that
  /// every language of `options` has its traineddata file: what
  /// ``init(options:)`` refuses first, with the same error.
  /// - Throws: ``OCRError/languageUnavailable(language:dataPath:available:)``
  ///   naming the first language missing; the libraries' error when they
  ///   do not load.
  public static func checkLanguages(_ options: RecognitionOptions) throws(OCRError) {
    try OCRLibraries.load()
    try checkLanguageFiles(options, folder: options.dataPath ?? TessdataFolder.resolved)
  }

  /// Refuses a language of `options` without a traineddata file in
  /// `folder`.
  private static func checkLanguageFiles(_ options: RecognitionOptions, folder: String)
    throws(OCRError)
  {
    let missing = options.languages.map(\.rawValue).first { language in
      language.isEmpty || language.contains("/")
        || !FileManager.default.fileExists(atPath: folder + "/\(language).traineddata")
    }
    if let missing {
      throw .languageUnavailable(
        language: missing, dataPath: folder, available: TessdataFolder.languages(in: folder))
    }
  }

  /// Loads the languages of `options` from `folder` into `handle`, quiet;
  /// `false` when Tesseract cannot.
  static func start(_ handle: TesseractHandle, folder: String, options: RecognitionOptions)
    -> Bool
  {
    guard
      scantext_TessBaseAPIInit2(handle.raw, folder, options.languageString, OEM_LSTM_ONLY) == 0
    else { return false }
    _ = scantext_TessBaseAPISetVariable(handle.raw, "debug_file", "/dev/null")
    return true
  }

  /// Everything outside the options that decides what recognition returns:
  /// the identity of the Tesseract and Leptonica libraries and of each
  /// traineddata file the options use (path, size, modification time),
  /// found without loading anything. Part of cache keys.
  public static func fingerprint(of options: RecognitionOptions) -> String {
    let folder = options.dataPath ?? TessdataFolder.resolved
    var models = options.languages.map(\.rawValue)
    if options.preprocessing.contains(.orientation) { models.append("osd") }
    let files = models.map { name -> String in
      let path = folder + "/\(name).traineddata"
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
      let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      return "\(path):\(size):\(modified)"
    }
    return ([OCRLibraries.fingerprint] + files).joined(separator: "\n")
  }

  /// The version of the Tesseract library, such as `5.3.0`.
  public static var tesseractVersion: String {
    guard (try? OCRLibraries.load()) != nil else { return "unavailable" }
    return String(cString: scantext_TessVersion())
  }

  /// The version of the Leptonica library loaded, as it names itself:
  /// `leptonica-1.82.0`.
  public static var leptonicaVersion: String {
    guard (try? OCRLibraries.load()) != nil, let text = scantext_getLeptonicaVersion() else {
      return "leptonica unavailable"
    }
    defer { scantext_lept_free(text) }
    return String(cString: text)
  }

  /// Lets Leptonica, libtiff, libpng and libjpeg print their warnings and
  /// errors on standard error (off by default), for diagnosing an image
  /// that cannot be read.
  public static func showLibraryMessages() {
    guard (try? OCRLibraries.load()) != nil else { return }
    _ = scantext_setMsgSeverity(Int32(L_SEVERITY_WARNING))
    scantext_tiff_set_messages(1)
    _ = scantext_set_codec_messages(1)
  }

  /// The number of pages of an image held in memory (a multi-page TIFF's
  /// pages; 1 for every other format), from the headers alone, each checked
  /// against `maxPixels` as recognition checks them.
  /// - Throws: ``OCRError`` naming the file when it is not an image
  ///   ScanText reads or a page is over the limit.
  public static func imagePageCount(
    _ data: Data, path: String, maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(OCRError) -> Int {
    try ImageSource(data, path: path, maxPixels: maxPixels).pageCount
  }

  /// The size of page `page` (from 0) of an image held in memory, in the
  /// frame a viewer shows (its orientation tag applied): what a page
  /// recognised from it measures. Read from the header (a TIFF page is
  /// decoded).
  /// - Throws: ``OCRError`` naming the file and the reason.
  public static func imageSize(
    _ data: Data, path: String, page: Int = 0,
    maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(OCRError) -> (width: Int, height: Int) {
    try ImageSource(data, path: path, maxPixels: maxPixels).shownSize(page: page)
  }

  /// Reads an image file's bytes, with ``OCRError`` naming the file and the
  /// reason when it cannot (missing, a directory, unreadable, empty).
  public static func readImageFile(_ path: String) throws(OCRError) -> Data {
    try ImageReader.readBytes(path)
  }

  /// Recognises every page of an image file (every page of a multi-page TIFF).
  ///
  /// - Parameter path: The image file. Its bytes are read directly, its
  ///   header checked against ``RecognitionOptions/maxPixels`` before decoding.
  /// - Returns: One page per image in the file, numbered from 0.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public func recognize(contentsOf path: String) throws(OCRError) -> [Page] {
    let data = try ImageReader.readBytes(path)
    return try recognize(imageData: data, path: path)
  }

  /// Recognises every page of an image held in memory; `path` names it in
  /// errors and its last component becomes the pages' ``ScanModel/Page/image``.
  ///
  /// - Throws: ``OCRError`` for the file, or for its first page that cannot
  ///   be decoded (`recognizePages(imageData:path:)` keeps the others).
  public func recognize(imageData data: Data, path: String) throws(OCRError) -> [Page] {
    let result = try recognizePages(imageData: data, path: path)
    if let first = result.pageErrors.first { throw first }
    return result.pages
  }

  /// Recognises every page of an image held in memory that can be decoded,
  /// and says why the others cannot (a corrupt page of a multi-page TIFF).
  ///
  /// Pages are decoded one at a time. Before any is decoded, every page's
  /// header is checked against ``RecognitionOptions/maxPixels``; so is the
  /// size of an upscaled page before it is made.
  ///
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - pages: The pages to read, from 0 (see
  ///     ``imagePageCount(_:path:maxPixels:)``); the others are neither
  ///     decoded nor recognised. Every page by default; a page past the
  ///     end is left out.
  /// - Returns: The pages read, each with its index in the file, and one
  ///   ``OCRError/corruptPage(path:page:format:)`` per page that was not.
  /// - Throws: ``OCRError`` when the file as a whole cannot be read, when
  ///   no page of a multi-page file read whole (`pages` `nil`) can be
  ///   decoded, or when recognition fails or times out.
  public func recognizePages(imageData data: Data, path: String, pages: [Int]? = nil)
    throws(OCRError) -> PageRecognition
  {
    let source = try ImageSource(data, path: path, maxPixels: options.maxPixels)
    var result = PageRecognition()
    for index in pages?.filter({ (0..<source.pageCount).contains($0) })
      ?? Array(0..<source.pageCount)
    {
      // The deadline counts from the page's start, decoding included.
      let started = Date()
      do {
        let image = try source.decode(page: index)
        try checkDeadline(started, path: path, page: index)
        result.pages.append(
          try recognize(
            image, index: index, path: path, orientationTag: source.orientationTag(page: index),
            started: started))
      } catch {
        // A damaged page or one past its deadline: the others are kept.
        switch error {
        case .corruptPage, .corruptImage, .timedOut: result.pageErrors.append(error)
        default: throw error
        }
      }
    }
    // No page of a file read whole: the file is damaged, not a page of it.
    if result.pages.isEmpty, pages == nil, source.pageCount > 1, let error = result.pageErrors.first
    {
      guard case .corruptPage(_, _, let format) = error else { throw error }
      throw .corruptImage(path: path, format: format)
    }
    return result
  }

  /// - Parameters:
  ///   - orientationTag: The image file's orientation tag, already applied
  ///     to `image` (recorded in the page).
  ///   - rendered: For a PDF page, the resolution it was rendered at
  ///     (recorded as the page's) and the PDF page it came from.
  ///   - proposedTurns: For tests: a turn to propose instead of measuring
  ///     one (as a wrong orientation detection would).
  ///   - started: When the page's reading began (its deadline counts from
  ///     there: decoding or rendering included).
  func recognize(
    _ image: LeptonicaImage, index: Int, path: String, orientationTag: Int? = nil,
    rendered: (dpi: Int, source: PDFPageSource)? = nil, proposedTurns: Int? = nil,
    started: Date = Date()
  ) throws(OCRError) -> Page {
    OpenMP.limitThreadsOnCurrentThread()
    let preprocessor = Preprocessor(steps: options.preprocessing, maxPixels: options.maxPixels)
    let resolution = options.dpi ?? image.resolution
    if let factor = preprocessor.upscaleFactor(resolution: resolution) {
      // The page turned by 90° has the same pixels; deskewing keeps the size.
      let width = Double(image.width) * factor
      let height = Double(image.height) * factor
      if width * height > Double(options.maxPixels) {
        throw .upscaledImageTooLarge(
          path: path, page: index, dpi: resolution ?? 0, width: Int(width.rounded(.up)),
          height: Int(height.rounded(.up)), limit: options.maxPixels)
      }
    }
    var reading = try bestReading(
      image, preprocessor: preprocessor, index: index, path: path, started: started,
      proposedTurns: proposedTurns)
    reading = try secondLook(reading, image: image, index: index, path: path, started: started)
    reading.blocks += readFolios(reading.prepared, blocks: reading.blocks)
    reading.blocks = readTurnedLines(reading.prepared, blocks: reading.blocks)
    reading.blocks = readRowInk(reading.prepared, blocks: reading.blocks)
    let mapper = ElementMapper(
      map: reading.prepared.map, width: image.width, height: image.height)
    let tables = try readTableCells(
      reading.prepared, mapper: mapper, index: index, path: path, started: started)
    // The prepared images go before the passes: they and figure finding
    // look at the original.
    reading.prepared.releasePixels(keeping: image)
    let prepared = reading.prepared
    let finished = Self.finish(
      reading.blocks,
      PassContext(
        image: image, prepared: prepared, mapper: mapper, layout: options.layout,
        tables: tables))
    // A barcode or QR code is a figure, not text: what OCR read in its
    // bars or modules goes (``ScanImaging/Barcodes``).
    let barcodes = options.findsFigures ? Self.barcodes(on: image) : []
    let blocks = BarcodeWords.removing(from: finished, barcodes: barcodes.map(\.box))
    // The resolution of the original: the option, else a credible tag,
    // else estimated from the text's size (``PageResolution``); a PDF
    // page's is its rendering's. Tesseract was given the tag as it is.
    let recorded: (dpi: Int, source: ResolutionSource) =
      rendered.map { (options.dpi ?? $0.dpi, PDFDocument.dpiSource(options)) }
      ?? PageResolution.resolve(
        option: options.dpi, tag: image.resolution, blocks: blocks, width: image.width,
        height: image.height)
    var figures: [Figure] = []
    if options.findsFigures {
      let pictures = Self.figures(on: image, blocks: blocks).filter { picture in
        !barcodes.contains { picture.bbox.intersection($0.box) != nil }
      }
      figures = (pictures + barcodes.map { Figure(bbox: $0.box, alternativeText: $0.name) })
        .sorted { ($0.bbox.minY, $0.bbox.minX) < ($1.bbox.minY, $1.bbox.minX) }
    }
    return Page(
      index: index, image: URL(fileURLWithPath: path).lastPathComponent,
      width: image.width, height: image.height, dpi: recorded.dpi,
      orientation: prepared.orientation, skew: prepared.skew,
      language: options.languageString,
      // A picture's unnumbered legend is its caption (the tagged PDF's
      // `/Alt` takes it).
      blocks: FigureLegends.marking(blocks, figures: figures), steps: prepared.applied,
      crop: prepared.crop, perspective: prepared.perspective, pdf: rendered?.source,
      dpiSource: recorded.source, exifOrientation: orientationTag, figures: figures)
  }

  /// The page prepared and read, turned, straightened or enlarged where
  /// that reads better; every other preparation of it is released on
  /// return.
  private func bestReading(
    _ image: LeptonicaImage, preprocessor: Preprocessor, index: Int, path: String,
    started: Date, proposedTurns: Int?
  ) throws(OCRError) -> Reading {
    let upright = preprocessor.prepare(image, dpi: options.dpi)
    try checkDeadline(started, path: path, page: index)
    var reading: Reading
    if options.preprocessing.contains(.orientation) {
      reading = try readOriented(
        image, upright: upright, preprocessor: preprocessor, index: index, path: path,
        started: started, proposedTurns: proposedTurns)
    } else {
      reading = try read(upright, index: index, path: path, started: started)
    }
    let photoStepActed = reading.prepared.applied.contains { Self.photoSteps.contains($0.step) }
    reading = try notWorseThanUnstraightened(
      reading, image: image, index: index, path: path, started: started)
    if !photoStepActed {
      reading = try straightenedFromText(
        reading, image: image, index: index, path: path, started: started)
    }
    return try enlargedForSmallText(
      reading, image: image, index: index, path: path, started: started)
  }

  /// One recognition of a prepared image and what it says about itself.
  struct Reading {
    var prepared: PreparedImage
    var blocks: [Block]
    var signals: ResultReader.Signals
    var quality: ReadingQuality

    /// The reading with its orientation record telling what found the turn
    /// and counting the time spent finding it.
    func turned(by evidence: TurnEvidence, deciding: Duration) -> Reading {
      var reading = self
      guard let i = reading.prepared.applied.firstIndex(where: { $0.step == .orientation })
      else { return reading }
      reading.prepared.applied[i].decision = .turned(evidence)
      reading.prepared.applied[i].seconds =
        (reading.prepared.applied[i].seconds ?? 0) + deciding.inSeconds
      return reading
    }
  }

  /// Reads a page the way round its text stands, never turning it unless
  /// the turned reading is clearly better (see ``OrientationPolicy``):
  ///
  /// 1. Leptonica measures the text's orientation from ascenders and
  ///    descenders (milliseconds). When upright text is its strongest
  ///    hypothesis, the page is read as it is, once.
  /// 2. Otherwise the turn comes from Leptonica's confident decision, else
  ///    from Tesseract's orientation detection, run *before* the reading
  ///    (a fraction of a reading), and the page is read turned.
  /// 3. A turned reading that is strong (see
  ///    ``OrientationPolicy/turnedReadingIsStrong(_:)``) is kept. A weak one
  ///    is checked against the upright reading and kept only if clearly
  ///    better.
  /// 4. An upright reading laid out down the page
  ///    (``OrientationPolicy/readsSideways(_:)``) runs orientation detection
  ///    after all, unless Leptonica found the text clearly upright
  ///    (``Preprocessor/TextOrientation/clearlyUpright``). A low confidence
  ///    alone does not: on the real pages it comes from hard pages
  ///    (Fraktur, stains, ornament), where detection cost 40–70 % more
  ///    time and never found a turn; a turned reading then replaces it
  ///    only if clearly better.
  ///
  /// Why the turn is decided here and not by an ``ImageStep`` of the list:
  /// a step measures and decides on the image before recognition, but this
  /// decision needs Tesseract's readings. Its evidence is the reading
  /// turned (step 3: its confidence and layout, `turnedReadingIsStrong`)
  /// and, against it, the reading as it is (`turnedIsClearlyBetter`); and
  /// one way of finding a turn (step 4) looks at the upright reading
  /// first. Deciding before recognition from the orientation scores alone
  /// turned upright pages (Tesseract's detection said 180° at confidence
  /// 2.77 for an upright form, which read turned had 0 of 198 words
  /// right). So the list's ``TurnStep`` applies a turn (its map composed
  /// like every other step's) and this function decides it; the decision
  /// kept is the page's orientation record,
  /// ``ScanModel/StepDecision/turned(_:)`` with what found the turn
  /// (``ScanModel/TurnEvidence``), its measurement the quarter turns and
  /// its time the turn's with the measures and detection that found it.
  private func readOriented(
    _ image: LeptonicaImage, upright: PreparedImage, preprocessor: Preprocessor, index: Int,
    path: String, started: Date, proposedTurns: Int?
  ) throws(OCRError) -> Reading {
    let clock = ContinuousClock()
    var deciding = Duration.zero
    var estimate: Preprocessor.TextOrientation?
    if proposedTurns == nil {
      deciding += clock.measure { estimate = Preprocessor.textOrientation(upright) }
    }
    // Whether orientation detection ran (or a turn was given): then it
    // does not run again after the upright reading.
    var detected = false
    var evidence = TurnEvidence.textShape
    var turns: Int?
    if let proposedTurns {
      (detected, evidence) = (true, .proposed)
      turns = proposedTurns
    } else if let estimate, estimate.favoursUpright {
      turns = nil
    } else if let confident = estimate?.confidentTurns {
      turns = confident
    } else {
      (detected, evidence) = (true, .detection)
      deciding += clock.measure { turns = detectTurns(upright) }
    }
    if let turns, turns != 0 {
      let turnedImage = preprocessor.prepare(
        image, dpi: options.dpi, quarterTurns: turns, cleaned: upright.cleaned)
      let turned = try read(turnedImage, index: index, path: path, started: started)
        .turned(by: evidence, deciding: deciding)
      if OrientationPolicy.turnedReadingIsStrong(turned.signals) { return turned }
      let plain = try read(upright, index: index, path: path, started: started)
      return OrientationPolicy.turnedIsClearlyBetter(
        turned.quality, than: plain.quality, uprightSignals: plain.signals)
        ? turned : plain
    }
    let plain = try read(upright, index: index, path: path, started: started)
    var late: Int?
    guard !detected, estimate?.clearlyUpright != true,
      OrientationPolicy.readsSideways(plain.signals)
    else { return plain }
    deciding += clock.measure { late = detectTurns(upright) }
    guard let late, late != 0 else { return plain }
    let turnedImage = preprocessor.prepare(
      image, dpi: options.dpi, quarterTurns: late, cleaned: upright.cleaned)
    let turned = try read(turnedImage, index: index, path: path, started: started)
      .turned(by: .detectionAfterReading, deciding: deciding)
    return OrientationPolicy.turnedIsClearlyBetter(
      turned.quality, than: plain.quality, uprightSignals: plain.signals)
      ? turned : plain
  }

  /// The photo steps: those that straighten a photographed page (cut it
  /// out, undo its perspective, flatten its curl).
  static let photoSteps: Preprocessing = [.crop, .perspective, .dewarp]

  /// The no-harm rule for photographs: straightening a page must never
  /// read fewer words at confidence ≥ 60 than not straightening it. When
  /// a photo step (``photoSteps``) changed the page, the page is prepared
  /// again without them (turned as the reading was) and read; the reading
  /// with more confident words is kept, the straightened one on a tie.
  /// When the page's outline was found, only the words of the reading
  /// without it that lie on the page (their centres inside the outline)
  /// count: what is read off the table or the facing page is no page text
  /// (the thesis photo `linguistics-thesis-a` read as it is has a line of
  /// confident garbage off the table's edge above the page).
  /// The second reading is spent only where a photo step acted (its cost:
  /// README, Preprocessing). The kept reading carries the orientation
  /// record of the first (what found the turn, and its time).
  private func notWorseThanUnstraightened(
    _ reading: Reading, image: LeptonicaImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> Reading {
    guard
      reading.prepared.applied.contains(where: { Self.photoSteps.contains($0.step) })
    else { return reading }
    try checkDeadline(started, path: path, page: index)
    let preprocessor = Preprocessor(
      steps: options.preprocessing.subtracting(Self.photoSteps), maxPixels: options.maxPixels)
    let prepared = preprocessor.prepare(
      image, dpi: options.dpi, quarterTurns: reading.prepared.orientation / 90)
    var plain = try read(prepared, index: index, path: path, started: started)
    let outline =
      reading.prepared.perspective?.corners
      ?? reading.prepared.crop.map { Quad($0.rect).corners }
    guard
      Self.confidentWords(plain, inside: outline) > reading.quality.confidentWords
    else { return reading }
    if let turn = reading.prepared.applied.first(where: { $0.step == .orientation }),
      let i = plain.prepared.applied.firstIndex(where: { $0.step == .orientation })
    {
      plain.prepared.applied[i] = turn
    }
    return plain
  }

  /// Perspective from the text, for a photo whose page outline was not
  /// found (its edges out of view): when the reading's lines and margins
  /// measure a clear perspective (``TextPerspective``, its corners 1.5° or
  /// more from square, as for a page's outline), the page is prepared
  /// again straightened from them and read a second time; the no-harm
  /// rule keeps that reading only when it has no fewer words at
  /// confidence ≥ 60. Only an upright page (orientation 0) is measured:
  /// its lines run across the original. The second reading is spent only
  /// where the text shows a perspective.
  private func straightenedFromText(
    _ reading: Reading, image: LeptonicaImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> Reading {
    guard options.preprocessing.contains(.perspective), reading.prepared.orientation == 0,
      let quad = Self.textPerspectiveQuad(reading, width: image.width, height: image.height)
    else { return reading }
    try checkDeadline(started, path: path, page: index)
    var preprocessor = Preprocessor(steps: options.preprocessing, maxPixels: options.maxPixels)
    preprocessor.textPerspective = quad
    let prepared = preprocessor.prepare(image, dpi: options.dpi)
    guard prepared.applied.contains(where: { $0.decision == .fromText }) else { return reading }
    var straight = try read(prepared, index: index, path: path, started: started)
    straight.blocks = Self.withoutEdgeLines(
      straight.blocks, map: prepared.map, width: image.width, height: image.height)
    straight.quality = ReadingQuality(straight.blocks)
    guard straight.quality.confidentWords >= reading.quality.confidentWords else {
      return reading
    }
    return straight
  }

  /// The page read again enlarged when its letters are too small for
  /// Tesseract (``smallTextFactor(_:)``, measured on the cleaned page's
  /// ink, ``smallTextInk``), kept when it reads at least as many confident words. Every box
  /// of the enlarged reading maps back to the original's pixels through
  /// the upscale step's record.
  ///
  /// Why: Tesseract reads type well from about 10 points at 300 dpi (an
  /// x-height near 20 px) and drops off fast below; a table cut out of a
  /// web page (PubTabNet's crops, about 500 px wide, letters 5–9 px high)
  /// reads as two words of garbage (`aT ae` on `PMC4840965_004_00`). Only
  /// with preprocessing on (`--no-preprocess` reads what `tesseract`
  /// reads), on an upright page not already enlarged or straightened from
  /// its text.
  private func enlargedForSmallText(
    _ reading: Reading, image: LeptonicaImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> Reading {
    guard options.preprocessing != .none, reading.prepared.orientation == 0,
      !reading.prepared.applied.contains(where: {
        $0.step == .upscale || $0.decision == .fromText
      }),
      let cleaned = reading.prepared.cleaned,
      let ink = cleaned.ink(below: Self.smallTextInk),
      case let pieces = Preprocessor.componentBoxes(ink),
      let factor = Self.smallTextFactor(pieces),
      Double(image.width) * factor * Double(image.height) * factor
        <= Double(options.maxPixels),
      !Self.readsWordsOfReadableSize(
        reading.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words), ink: pieces)
    else { return reading }
    try checkDeadline(started, path: path, page: index)
    var preprocessor = Preprocessor(steps: options.preprocessing, maxPixels: options.maxPixels)
    preprocessor.smallTextFactor = factor
    let prepared = preprocessor.prepare(image, dpi: options.dpi)
    guard prepared.applied.contains(where: { $0.step == .upscale }) else { return reading }
    let enlarged = try read(prepared, index: index, path: path, started: started)
    guard enlarged.quality.confidentWords >= reading.quality.confidentWords else {
      return reading
    }
    return enlarged
  }

  /// Whether the first reading's confident words (three or more, read
  /// with confidence 60 or more) are of a height Tesseract reads well
  /// (a median over twice ``smallLetterHeight``): the pieces of ink that
  /// measured small were specks, not the letters (the degraded DIBCO page
  /// `dibco11-pr1`, words 40 px high, was read again enlarged into one
  /// word box over a fifth of the page, which `verify` refuses).
  ///
  /// With the page's pieces of ink (`ink`), the words' heights count only
  /// when some of the ink is that tall: at least three pieces shaped like
  /// a letter (3 px high or more, at most three times as wide as high)
  /// over twice ``smallLetterHeight``. A page of small type has none:
  /// Tesseract's confident words on it were boxes drawn over several
  /// lines of small letters. Why: on PubTabNet's crops
  /// (`PMC4172848_007_00`, `PMC2759935_007_01`, letters 5–6 px high) the
  /// first reading's few confident words were 21–28 px high, and the page
  /// was not read enlarged (read as garbage: `Fae ofS pa TOE`); the 20
  /// crops hold 0–1 such pieces, the DIBCO page 32 of its 342.
  /// - Parameters:
  ///   - words: The first reading's words.
  ///   - ink: The page's pieces of ink, or `nil` when not measured (the
  ///     words' heights then decide alone).
  /// - Complexity: O(*w* log *w* + *p*) in the words and the pieces.
  static func readsWordsOfReadableSize(_ words: [Word], ink: [PixelRect]?) -> Bool {
    if let ink {
      let tall = ink.count {
        $0.height > 2 * smallLetterHeight && $0.width <= 3 * $0.height
      }
      guard tall >= 3 else { return false }
    }
    let heights = words.filter { ($0.confidence ?? 0) >= 60 }.map(\.bbox.height).sorted()
    guard heights.count >= 3 else { return false }
    return heights[heights.count / 2] > 2 * smallLetterHeight
  }

  /// Gray levels below this are ink when letters are measured: small
  /// type is drawn in grays (a PubTabNet crop's letters lie mostly
  /// between 100 and 200), and at 128 its letters fall apart into
  /// pieces under 3 px.
  static let smallTextInk: Int32 = 200

  /// Letters this high (the median height of the page's pieces of ink
  /// shaped like a letter, in pixels) or lower are too small: an x-height
  /// of 6 px or less.
  static let smallLetterHeight = 8
  /// Small text is enlarged to letters about this high (the median of
  /// 10-point type at 300 dpi: x-height 21 px, ascenders 29 px).
  static let readableLetterHeight = 24.0

  /// How much to enlarge a page whose letters are small
  /// (``smallLetterHeight``), from 1.5 to 4 times; `nil` when they are
  /// not, or when the page has fewer than 20 letter-shaped pieces of ink
  /// (3 px high or more, at most three times as wide as high).
  /// - Parameter pieces: The boxes of the page's pieces of ink.
  static func smallTextFactor(_ pieces: [PixelRect]) -> Double? {
    guard let median = Preprocessor.medianLetterHeight(pieces), median <= smallLetterHeight
    else { return nil }
    return min(4, max(1.5, readableLetterHeight / Double(median)))
  }

  /// The blocks without the lines read off a straight edge: lines none of
  /// whose words has confidence ≥ 60, and whose words are all flatter than
  /// two fifths of the median height of the confident words or one of
  /// which touches the photo's frame (within 2 px, mapped through `map` to
  /// the `width` × `height` original). Straightened from its text, a
  /// photo's frame, a table's or a page's edge crosses the page as a
  /// straight step, which Tesseract reads as a flat line of garbage
  /// (develop `photo-1028`: a stray "s" 12 px high at confidence 0 on the
  /// photo's left edge, among words about 30 px high; CER 0 → 0.0026).
  /// Print is not that flat: a line of letters without ascenders or
  /// descenders is about half as high as a line with them.
  static func withoutEdgeLines(_ blocks: [Block], map: PointMap, width: Int, height: Int)
    -> [Block]
  {
    let words = blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
    let heights = words.filter {
      ($0.confidence ?? 0) >= ScanConventions.lowConfidenceThreshold
    }.map { $0.bbox.maxY - $0.bbox.minY }.sorted()
    guard !heights.isEmpty else { return blocks }
    let flat = 0.4 * Double(heights[heights.count / 2])
    func onFrame(_ w: Word) -> Bool {
      let corners = [
        Point(x: Double(w.bbox.minX), y: Double(w.bbox.minY)),
        Point(x: Double(w.bbox.maxX), y: Double(w.bbox.maxY)),
        Point(x: Double(w.bbox.minX), y: Double(w.bbox.maxY)),
        Point(x: Double(w.bbox.maxX), y: Double(w.bbox.minY)),
      ].map(map.apply)
      return corners.contains {
        $0.x <= 2 || $0.y <= 2 || $0.x >= Double(width) - 2 || $0.y >= Double(height) - 2
      }
    }
    func isEdge(_ line: TextLine) -> Bool {
      guard !line.words.isEmpty,
        line.words.allSatisfy({
          ($0.confidence ?? 0) < ScanConventions.lowConfidenceThreshold
        })
      else { return false }
      return line.words.allSatisfy { Double($0.bbox.maxY - $0.bbox.minY) < flat }
        || line.words.contains(where: onFrame)
    }
    var kept: [Block] = []
    for var block in blocks {
      block.paragraphs = block.paragraphs.compactMap { paragraph in
        var paragraph = paragraph
        paragraph.lines.removeAll(where: isEdge)
        return paragraph.lines.isEmpty ? nil : paragraph
      }
      if !block.paragraphs.isEmpty { kept.append(block) }
    }
    return kept
  }

  /// The quadrilateral to straighten a reading's page from, measured on
  /// its text (``TextPerspective``); `nil` when the measure is not clear
  /// or finds the text block within ``Preprocessor/minimumPerspective``
  /// of square.
  static func textPerspectiveQuad(_ reading: Reading, width: Int, height: Int) -> [Point]? {
    let samples = lineSamples(reading.blocks, map: reading.prepared.map)
    guard let measured = TextPerspective.measure(samples), measured.isClear,
      measured.cornerAngleDeviation >= Preprocessor.minimumPerspective
    else { return nil }
    return measured.straighteningQuad(width: width, height: height)
  }

  /// The text lines of a reading as the perspective measure sees them:
  /// the words read with confidence ≥ 60 (garbage read off a table's grain
  /// is not text), their centres and the line's ends mapped to the
  /// original through `map`.
  static func lineSamples(_ blocks: [Block], map: PointMap) -> [TextLineSample] {
    var samples: [TextLineSample] = []
    for line in blocks.flatMap(\.paragraphs).flatMap(\.lines) {
      let words = line.words.filter {
        ($0.confidence ?? 0) >= ScanConventions.lowConfidenceThreshold
      }
      guard let first = words.first, let last = words.last else { continue }
      let heights = words.map { Double($0.bbox.maxY - $0.bbox.minY) }.sorted()
      func middle(_ x: Int, _ box: PixelRect) -> Point {
        map.apply(Point(x: Double(x), y: Double(box.minY + box.maxY) / 2))
      }
      samples.append(
        TextLineSample(
          centres: words.map { map.apply($0.bbox.center) },
          start: middle(first.bbox.minX, first.bbox), end: middle(last.bbox.maxX, last.bbox),
          height: heights[heights.count / 2]))
    }
    return samples
  }

  /// The words of `reading` read with confidence ≥ 60 whose centres, in
  /// the original's pixels, lie inside the convex `outline` (all of them
  /// when there is none).
  /// - Complexity: O(*w*) in the reading's words.
  static func confidentWords(_ reading: Reading, inside outline: [Point]?) -> Int {
    guard let outline, outline.count >= 3 else { return reading.quality.confidentWords }
    func inside(_ p: Point) -> Bool {
      var sides = Set<Bool>()
      for (i, a) in outline.enumerated() {
        let b = outline[(i + 1) % outline.count]
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
        if cross != 0 { sides.insert(cross > 0) }
      }
      return sides.count <= 1
    }
    return reading.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).count {
      ($0.confidence ?? 0) >= ScanConventions.lowConfidenceThreshold
        && inside(reading.prepared.map.apply($0.bbox.center))
    }
  }

  /// Tesseract's orientation detection on the prepared page: quarter turns
  /// clockwise, or `nil` when it fails or is not confident.
  private func detectTurns(_ prepared: PreparedImage) -> Int? {
    if !orientationDetectorLoaded {
      orientationDetectorLoaded = true
      orientationDetector = OrientationDetector(dataPath: dataFolder)
    }
    return orientationDetector?.quarterTurns(prepared.image, resolution: prepared.resolution)
  }

  /// Recognises a prepared image and reads the result out of the engine.
  private func read(
    _ prepared: PreparedImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> Reading {
    let (blocks, signals) = try recognize(prepared, index: index, path: path, started: started)
    scantext_TessBaseAPIClear(api)
    return Reading(
      prepared: prepared, blocks: blocks, signals: signals, quality: ReadingQuality(blocks))
  }

  /// Throws ``OCRError/timedOut(path:page:seconds:)`` when the page that
  /// began at `started` is past ``RecognitionOptions/timeout``: checked
  /// between the steps of a page, as Tesseract's monitor checks within
  /// recognition (a step in C, such as decoding, is not interrupted).
  func checkDeadline(_ started: Date, path: String, page index: Int) throws(OCRError) {
    if let timeout = options.timeout, Date().timeIntervalSince(started) >= timeout {
      throw .timedOut(path: path, page: index, seconds: timeout)
    }
  }

  /// Runs Tesseract on a prepared image; the result stays in the engine
  /// until the next call or `TessBaseAPIClear`.
  private func recognize(
    _ prepared: PreparedImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> ([Block], ResultReader.Signals) {
    if let cut = sideBySideCut(prepared),
      let read = try recognizeSideBySide(
        prepared, cut: cut, index: index, path: path, started: started)
    {
      return read
    }
    scantext_TessBaseAPISetPageSegMode(
      api, TessPageSegMode(UInt32(options.pageSegmentation.rawValue)))
    scantext_TessBaseAPISetImage2(api, prepared.image.pix)
    if let dpi = options.dpi {
      scantext_TessBaseAPISetSourceResolution(api, Int32(prepared.resolution ?? dpi))
    }
    // A monitor only when there is a deadline to watch.
    var monitor: OpaquePointer?
    defer { if let monitor { scantext_TessMonitorDelete(monitor) } }
    if let timeout = options.timeout, let m = scantext_TessMonitorCreate() {
      monitor = m
      let left = timeout - Date().timeIntervalSince(started)
      scantext_TessMonitorSetDeadlineMSecs(m, Int32(max(1, min(left * 1000, Double(Int32.max)))))
    }
    let status = scantext_TessBaseAPIRecognize(api, monitor)
    // Tesseract stops at the deadline (checked once per text line) and
    // reports a failure; either way, a page past its deadline timed out.
    if let timeout = options.timeout, Date().timeIntervalSince(started) >= timeout {
      scantext_TessBaseAPIClear(api)
      throw .timedOut(path: path, page: index, seconds: timeout)
    }
    guard status == 0 else {
      scantext_TessBaseAPIClear(api)
      throw .recognitionFailed(path: path, page: index)
    }
    return ResultReader.read(api)
  }
}
