import CScanOCR
import Foundation

extension OCREngine {
  /// Tesseract's own TSV of every page of an image, recognised as it is
  /// (no preprocessing, whatever the options say), with the header row
  /// first: byte-identical to `tesseract IMAGE - tsv` with the same
  /// languages, page segmentation mode and resolution.
  ///
  /// The model keeps less than this output holds (word confidences to two
  /// decimals, no words of only spaces, line boxes that hold their words),
  /// so exact TSV comes from Tesseract itself.
  /// - Parameters:
  ///   - data: The image file's bytes.
  ///   - path: The file's name, for errors.
  ///   - firstPage: The page number of the image's first page, from 0
  ///     (TSV numbers pages through a whole batch).
  ///   - header: Whether to start with the header row.
  /// - Throws: ``OCRError`` naming the file and the reason.
  public func tesseractTSV(
    imageData data: Data, path: String, firstPage: Int = 0, header: Bool = true
  )
    throws(OCRError) -> (text: String, pages: Int)
  {
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
