import CScanOCR
import Foundation
import ScanModel

/// Recognises images with Tesseract's LSTM engine into ``ScanModel/Page``
/// values.
///
/// An engine owns one Tesseract instance (about 80 MB once a page is
/// loaded) and is reused across pages: create one per thread and keep it.
/// It is not `Sendable`; never share one between threads.
public final class OCREngine {
  private let handle: TesseractHandle
  private var api: OpaquePointer { handle.raw }
  /// Orientation detection, when the options ask for it.
  private let orientationDetector: OrientationDetector?
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
    let api = handle.raw
    OpenMP.limitThreadsOnCurrentThread()
    let folder = options.dataPath ?? TessdataFolder.resolved
    let missing = options.languages.first { language in
      language.isEmpty || language.contains("/")
        || !FileManager.default.fileExists(atPath: folder + "/\(language).traineddata")
    }
    if let missing {
      throw .languageUnavailable(
        language: missing, dataPath: folder, available: TessdataFolder.languages(in: folder))
    }
    guard scantext_TessBaseAPIInit2(api, folder, options.languageString, OEM_LSTM_ONLY) == 0 else {
      throw .languageUnavailable(
        language: options.languageString, dataPath: folder,
        available: TessdataFolder.languages(in: folder))
    }
    _ = scantext_TessBaseAPISetVariable(api, "debug_file", "/dev/null")
    orientationDetector =
      options.preprocessing.contains(.orientation) ? OrientationDetector(dataPath: folder) : nil
  }

  /// Everything outside the options that decides what recognition returns:
  /// the identity of the Tesseract and Leptonica libraries and of each
  /// traineddata file the options use (path, size, modification time),
  /// found without loading anything. Part of cache keys.
  public static func fingerprint(of options: RecognitionOptions) -> String {
    let folder = options.dataPath ?? TessdataFolder.resolved
    var models = options.languages
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

  /// Lets Leptonica, libtiff, libpng and libjpeg print their warnings and
  /// errors on standard error (off by default), for diagnosing an image
  /// that cannot be read.
  public static func showLibraryMessages() {
    guard (try? OCRLibraries.load()) != nil else { return }
    _ = scantext_setMsgSeverity(Int32(L_SEVERITY_WARNING))
    scantext_tiff_set_messages(1)
    _ = scantext_set_codec_messages(1)
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
  ///   be decoded (``recognizePages(imageData:path:)`` keeps the others).
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
  /// - Returns: The pages read, each with its index in the file, and one
  ///   ``OCRError/corruptPage(path:page:format:)`` per page that was not.
  /// - Throws: ``OCRError`` when the file as a whole cannot be read, when
  ///   no page can be decoded, or when recognition fails or times out.
  public func recognizePages(imageData data: Data, path: String) throws(OCRError)
    -> PageRecognition
  {
    let source = try ImageSource(data, path: path, maxPixels: options.maxPixels)
    var result = PageRecognition()
    for index in 0..<source.pageCount {
      let image: LeptonicaImage
      do {
        image = try source.decode(page: index)
      } catch {
        result.pageErrors.append(error)
        continue
      }
      result.pages.append(try recognize(image, index: index, path: path))
    }
    if result.pages.isEmpty, source.pageCount > 1, let error = result.pageErrors.first {
      guard case .corruptPage(_, _, let format) = error else { throw error }
      throw .corruptImage(path: path, format: format)
    }
    return result
  }

  func recognize(_ image: LeptonicaImage, index: Int, path: String) throws(OCRError) -> Page {
    OpenMP.limitThreadsOnCurrentThread()
    let preprocessor = Preprocessor(steps: options.preprocessing)
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
    let started = Date()
    var prepared = preprocessor.prepare(image, dpi: options.dpi)
    var (blocks, signals) = try recognize(prepared, index: index, path: path, started: started)
    // Orientation detection costs half a recognition, so it runs only when
    // the first reading suggests a turned page; an upright page is read once.
    if let orientationDetector, signals.suggestTurnedPage,
      let turns = orientationDetector.quarterTurns(prepared.image, resolution: prepared.resolution),
      turns != 0
    {
      prepared = preprocessor.prepare(image, dpi: options.dpi, quarterTurns: turns)
      (blocks, signals) = try recognize(prepared, index: index, path: path, started: started)
    }
    // The resolution of the original: the option, else the tag, else
    // Tesseract's estimate (measured on the image it recognised).
    let estimated = Int(scantext_TessBaseAPIGetSourceYResolution(api))
    scantext_TessBaseAPIClear(api)
    let scale =
      Double(prepared.image.width)
      / Double(max(1, prepared.orientation % 180 == 0 ? image.width : image.height))
    let dpi =
      options.dpi ?? image.resolution
      ?? (estimated > 0 ? Int((Double(estimated) / scale).rounded()) : nil)
    let mapper = ElementMapper(
      transform: prepared.transform, width: image.width, height: image.height)
    return Page(
      index: index, image: URL(fileURLWithPath: path).lastPathComponent,
      width: image.width, height: image.height, dpi: dpi,
      orientation: prepared.orientation, skew: prepared.skew,
      language: options.languageString, blocks: mapper.map(blocks))
  }

  /// Runs Tesseract on a prepared image; the result stays in the engine
  /// until the next call or `TessBaseAPIClear`.
  private func recognize(
    _ prepared: PreparedImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> ([Block], ResultReader.Signals) {
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

/// The pages of a file that were recognised, and why the others were not.
public struct PageRecognition: Sendable, Equatable {
  /// The recognised pages, in file order, each with its index in the file.
  public var pages: [Page] = []
  /// One error per page that could not be decoded, in file order.
  public var pageErrors: [OCRError] = []
}

/// Where Tesseract's language data lives.
enum TessdataFolder {
  /// `TESSDATA_PREFIX` when set, else Debian's folder for Tesseract 5.
  static var resolved: String {
    if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
      return prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    }
    return "/usr/share/tesseract-ocr/5/tessdata"
  }

  /// The languages with a traineddata file in `folder`, sorted.
  static func languages(in folder: String) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0.hasSuffix(".traineddata") }
      .map { String($0.dropLast(".traineddata".count)) }.sorted()
  }
}
