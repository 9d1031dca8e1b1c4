import CScanOCR
import Foundation

/// Tesseract's own TSV of images recognised as they are: byte-identical
/// to `tesseract IMAGE - tsv` with the same languages, page segmentation
/// mode and resolution.
///
/// The model keeps less than this output holds (word confidences to two
/// decimals, no words of only spaces, line boxes that hold their words), so
/// exact TSV comes from Tesseract itself. Like ``OCREngine`` it owns one
/// Tesseract instance; create one per thread.
public final class TesseractTSVWriter {
  private let handle: TesseractHandle
  /// Initialises the handle (languages, data path) as the engine does.
  private let engine: OCREngine

  /// Loads the languages of `options`; preprocessing options are ignored.
  /// - Throws: ``OCRError`` when a language cannot be loaded.
  public init(options: RecognitionOptions) throws(OCRError) {
    try OCRLibraries.load()
    let handle = TesseractHandle()
    self.handle = handle
    engine = try OCREngine(options: options, handle: handle)
  }

  /// Tesseract's TSV rows of one page of an image, without the header
  /// row.
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - page: The page of the image, from 0.
  ///   - pageNumber: The page's number in the TSV, from 0 (TSV numbers
  ///     pages through a whole document).
  /// - Returns: The page's rows, each ending in `\n`.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public func tsv(imageData data: Data, path: String, page: Int, pageNumber: Int)
    throws(OCRError) -> String
  {
    let options = engine.options
    let source = try ImageSource(data, path: path, maxPixels: options.maxPixels)
    let image = try source.decode(page: page)
    let api = handle.raw
    OpenMP.limitThreadsOnCurrentThread()
    scantext_TessBaseAPISetPageSegMode(
      api, TessPageSegMode(UInt32(options.pageSegmentation.rawValue)))
    scantext_TessBaseAPISetImage2(api, image.pix)
    if let dpi = options.dpi { scantext_TessBaseAPISetSourceResolution(api, Int32(dpi)) }
    defer { scantext_TessBaseAPIClear(api) }
    guard scantext_TessBaseAPIRecognize(api, nil) == 0,
      let raw = scantext_TessBaseAPIGetTsvText(api, Int32(pageNumber))
    else {
      throw .recognitionFailed(path: path, page: page)
    }
    defer { scantext_TessDeleteText(raw) }
    return String(cString: raw)
  }

  /// The size of each page of an image that `tsv(imageData:path:page:pageNumber:)`
  /// reads, every page decoded: an image whose page cannot be decoded
  /// fails here, before any of its pages is recognised.
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - pages: The pages, from 0; every page when `nil` (a page past the
  ///     end is left out).
  ///   - maxPixels: The most pixels a page may have.
  /// - Returns: Each page's index and size, in order.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public static func decodedPages(
    imageData data: Data, path: String, pages: [Int]? = nil,
    maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(OCRError) -> [(index: Int, width: Int, height: Int)] {
    let source = try ImageSource(data, path: path, maxPixels: maxPixels)
    var sizes: [(index: Int, width: Int, height: Int)] = []
    for index in pages?.filter({ (0..<source.pageCount).contains($0) })
      ?? Array(0..<source.pageCount)
    {
      let image = try source.decode(page: index)
      sizes.append((index, image.width, image.height))
    }
    return sizes
  }
}
