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

  /// The TSV of every page of an image, with the header row first when
  /// `header` is set.
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - firstPage: The page number of the image's first page, from 0
  ///     (TSV numbers pages through a whole batch).
  ///   - header: Whether the text starts with TSV's header row.
  /// - Returns: The text and the number of pages it holds.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public func tsv(imageData data: Data, path: String, firstPage: Int = 0, header: Bool = true)
    throws(OCRError) -> (text: String, pages: Int)
  {
    let options = engine.options
    let source = try ImageSource(data, path: path, maxPixels: options.maxPixels)
    var out =
      header
      ? "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
      : ""
    let api = handle.raw
    for index in 0..<source.pageCount {
      let image = try source.decode(page: index)
      OpenMP.limitThreadsOnCurrentThread()
      scantext_TessBaseAPISetPageSegMode(
        api, TessPageSegMode(UInt32(options.pageSegmentation.rawValue)))
      scantext_TessBaseAPISetImage2(api, image.pix)
      if let dpi = options.dpi { scantext_TessBaseAPISetSourceResolution(api, Int32(dpi)) }
      guard scantext_TessBaseAPIRecognize(api, nil) == 0 else {
        scantext_TessBaseAPIClear(api)
        throw .recognitionFailed(path: path, page: index)
      }
      guard let raw = scantext_TessBaseAPIGetTsvText(api, Int32(firstPage + index)) else {
        scantext_TessBaseAPIClear(api)
        throw .recognitionFailed(path: path, page: index)
      }
      out += String(cString: raw)
      scantext_TessDeleteText(raw)
      scantext_TessBaseAPIClear(api)
    }
    return (out, source.pageCount)
  }
}
