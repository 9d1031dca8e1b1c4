/// Why recognition of a file failed. Every case names the file and the
/// reason, so its ``description`` makes a complete one-line message.
public enum OCRError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing exists at the path.
  case fileNotFound(path: String)
  /// The path names a directory.
  case isDirectory(path: String)
  /// The file exists but cannot be read.
  case unreadable(path: String, reason: String)
  /// The file has no bytes.
  case emptyFile(path: String)
  /// The bytes are not in a format Leptonica reads.
  case unsupportedFormat(path: String)
  /// The header could be read, the image data could not.
  case corruptImage(path: String, format: String)
  /// One page of a multi-page file (numbered from 0) could not be decoded;
  /// the other pages can be.
  case corruptPage(path: String, page: Int, format: String)
  /// The header claims more pixels than allowed.
  case imageTooLarge(path: String, width: Int, height: Int, limit: Int)
  /// The header of a later page (numbered from 0) of a multi-page file
  /// claims more pixels than allowed; no page is decoded.
  case pageTooLarge(path: String, page: Int, width: Int, height: Int, limit: Int)
  /// Upscaling a page (numbered from 0) to the resolution Tesseract reads
  /// best would exceed the pixel limit; checked before any allocation.
  case upscaledImageTooLarge(path: String, page: Int, dpi: Int, width: Int, height: Int, limit: Int)
  /// A TIFF lists more pages than ScanText reads from one file.
  case tooManyPages(path: String, limit: Int)
  /// Tesseract could not load a language.
  case languageUnavailable(language: String, dataPath: String, available: [String])
  /// Tesseract failed on a page.
  case recognitionFailed(path: String, page: Int)
  /// A page ran past its deadline.
  case timedOut(path: String, page: Int, seconds: Double)
  /// libtesseract or Leptonica could not be loaded.
  case librariesUnavailable(reason: String)
  /// A PDF was given and Poppler's GLib library is not installed.
  case pdfUnavailable(path: String)
  /// The PDF needs a password.
  case encryptedPDF(path: String)
  /// Poppler cannot read the PDF (truncated, damaged, not a PDF).
  case corruptPDF(path: String)
  /// The PDF has no pages.
  case emptyPDF(path: String)
  /// A page (numbered from 0) of a PDF cannot be read or rendered.
  case corruptPDFPage(path: String, page: Int)
  /// A PDF page (numbered from 0) rendered at `dpi` would have more
  /// pixels than allowed; checked before rendering.
  case pdfPageTooLarge(
    path: String, page: Int, points: [Double], dpi: Int, width: Int, height: Int, limit: Int)
  /// A PDF page (numbered from 0) draws an image whose dictionary claims
  /// more pixels than allowed (`inline`: written in the page's content);
  /// checked before Poppler reads the page.
  case pdfImageTooLarge(path: String, page: Int, width: Int, height: Int, inline: Bool, limit: Int)
  /// A PDF page (numbered from 0) draws an XObject that qpdf cannot read
  /// (so its size cannot be checked), where Poppler finds an image.
  case pdfImageUnreadable(path: String, page: Int)
  /// A searchable PDF of a PDF was asked for and qpdf's library (or zlib)
  /// is not installed.
  case pdfEditingUnavailable(path: String)
  /// qpdf cannot read or write the PDF, or it is encrypted: no searchable
  /// copy of it can be written.
  case uneditablePDF(path: String, reason: String)

  public var description: String {
    switch self {
    case .fileNotFound(let path): return "\(path): no such file"
    case .isDirectory(let path): return "\(path): is a directory, not an image"
    case .unreadable(let path, let reason): return "\(path): cannot read the file (\(reason))"
    case .emptyFile(let path): return "\(path): the file is empty"
    case .unsupportedFormat(let path):
      return
        "\(path): not a supported image (expected PNG, JPEG, TIFF, PNM, BMP, WebP, GIF or JPEG 2000)"
    case .corruptImage(let path, let format):
      return "\(path): the \(format) image data is truncated or corrupt"
    case .corruptPage(let path, let page, let format):
      return "\(path): page \(page + 1): the \(format) image data is truncated or corrupt"
    case .imageTooLarge(let path, let width, let height, let limit):
      return "\(path): the image is \(Self.size(width, height, limit))"
    case .pageTooLarge(let path, let page, let width, let height, let limit):
      return "\(path): page \(page + 1) is \(Self.size(width, height, limit))"
    case .upscaledImageTooLarge(let path, let page, let dpi, let width, let height, let limit):
      return
        "\(path): page \(page + 1) at \(dpi) dpi would be upscaled to \(Self.size(width, height, limit)) (check the resolution, or leave out --upscale)"
    case .tooManyPages(let path, let limit):
      return "\(path): the TIFF lists more than \(limit) pages"
    case .languageUnavailable(let language, let dataPath, let available):
      let list = available.isEmpty ? "none" : available.joined(separator: ", ")
      return
        "unknown language '\(language)': no \(language).traineddata in \(dataPath) (available: \(list))"
    case .recognitionFailed(let path, let page):
      return "\(path): recognition failed on page \(page + 1)"
    case .timedOut(let path, let page, let seconds):
      return "\(path): page \(page + 1) ran past the \(seconds)-second timeout"
    case .librariesUnavailable(let reason):
      return "Tesseract is not installed: \(reason) (install libtesseract5 and liblept5)"
    case .pdfUnavailable(let path):
      return
        "\(path): reading PDF needs Poppler's GLib library, which is not installed (Debian: apt-get install libpoppler-glib8)"
    case .encryptedPDF(let path):
      return "\(path): the PDF is encrypted with a password"
    case .corruptPDF(let path):
      return "\(path): the PDF is truncated or damaged"
    case .emptyPDF(let path):
      return "\(path): the PDF has no pages"
    case .corruptPDFPage(let path, let page):
      return "\(path): page \(page + 1): the PDF page cannot be read"
    case .pdfPageTooLarge(let path, let page, let points, let dpi, let width, let height, let limit):
      let size = points.map { String(format: "%g", $0) }.joined(separator: "×")
      return
        "\(path): page \(page + 1) is \(size) points: at \(dpi) dpi that is \(Self.size(width, height, limit)) (lower --dpi or raise --max-pixels)"
    case .pdfImageTooLarge(let path, let page, let width, let height, let inline, let limit):
      return
        "\(path): page \(page + 1) draws \(inline ? "an inline image" : "an image") of \(Self.size(width, height, limit)) (raise --max-pixels to read it)"
    case .pdfImageUnreadable(let path, let page):
      return
        "\(path): page \(page + 1) draws an image whose dictionary is damaged: its size cannot be checked against --max-pixels"
    case .pdfEditingUnavailable(let path):
      return
        "\(path): a searchable PDF of a PDF needs qpdf's library, which is not installed (Debian: apt-get install libqpdf29)"
    case .uneditablePDF(let path, let reason):
      return "\(path): cannot write a searchable copy of the PDF: \(reason)"
    }
  }

  /// The size and the limit, in megapixels when they are whole millions
  /// and the image is at least one, else in pixels (`--max-pixels 1`
  /// said "the limit of 0 megapixels").
  private static func size(_ width: Int, _ height: Int, _ limit: Int) -> String {
    let count = Double(width) * Double(height)
    let megapixels = (count / 1e6 * 10).rounded() / 10
    let image =
      count < 1e6
      ? "\(width)×\(height) pixels" : "\(width)×\(height) pixels (\(megapixels) megapixels)"
    let bound =
      limit >= 1_000_000 && limit % 1_000_000 == 0
      ? "\(limit / 1_000_000) megapixels" : limit == 1 ? "1 pixel" : "\(limit) pixels"
    return "\(image), over the limit of \(bound)"
  }
}
