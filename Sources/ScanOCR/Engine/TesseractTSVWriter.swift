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

  /// Each page of an image that `pages` chooses, decoded once and read
  /// by Tesseract as it is: its index, its size and Tesseract's TSV rows
  /// of it, numbered as the document's first page (``rows(_:numbered:)``
  /// numbers them as another). A page that cannot be decoded or read
  /// fails the image.
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - pages: The pages, from 0; every page when `nil` (a page past the
  ///     end is left out).
  /// - Returns: Each page's index, size and rows (each row ending in `\n`,
  ///   without the header row), in order.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public func pages(imageData data: Data, path: String, pages: [Int]? = nil)
    throws(OCRError) -> [(index: Int, width: Int, height: Int, rows: String)]
  {
    let options = engine.options
    let source = try ImageSource(data, path: path, maxPixels: options.maxPixels)
    var read: [(index: Int, width: Int, height: Int, rows: String)] = []
    for index in pages?.filter({ (0..<source.pageCount).contains($0) })
      ?? Array(0..<source.pageCount)
    {
      let image = try source.decode(page: index)
      let api = handle.raw
      OpenMP.limitThreadsOnCurrentThread()
      scantext_TessBaseAPISetPageSegMode(
        api, TessPageSegMode(UInt32(options.pageSegmentation.rawValue)))
      scantext_TessBaseAPISetImage2(api, image.pix)
      if let dpi = options.dpi { scantext_TessBaseAPISetSourceResolution(api, Int32(dpi)) }
      defer { scantext_TessBaseAPIClear(api) }
      guard scantext_TessBaseAPIRecognize(api, nil) == 0,
        let raw = scantext_TessBaseAPIGetTsvText(api, 0)
      else {
        throw .recognitionFailed(path: path, page: index)
      }
      defer { scantext_TessDeleteText(raw) }
      read.append((index, image.width, image.height, String(cString: raw)))
    }
    return read
  }

  /// Rows of ``pages(imageData:path:pages:)`` numbered as the document's
  /// page `pageNumber` (from 0): Tesseract writes a page's number, from
  /// 1, in the second column of each of its rows.
  /// - Complexity: O(*n*) in the rows' length.
  public static func rows(_ rows: String, numbered pageNumber: Int) -> String {
    guard pageNumber != 0 else { return rows }
    let number = Substring(String(pageNumber + 1))
    return rows.split(separator: "\n", omittingEmptySubsequences: false).map { row in
      var fields = row.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { return String(row) }
      fields[1] = number
      return fields.joined(separator: "\t")
    }.joined(separator: "\n")
  }
}
