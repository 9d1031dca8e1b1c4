import CScanOCR
import Foundation

/// A page image as a PDF image XObject's stream: the bytes and what the
/// XObject's dictionary must say about them. Leptonica makes it
/// (`l_generateCIDataForPdf`): a JPEG file's bytes pass through unchanged
/// (`DCTDecode`, no recompression); every other image is compressed
/// losslessly (`FlateDecode`, with PNG predictors where Leptonica uses
/// them), a colormap becoming an `Indexed` colour space.
public struct PDFImageStream: Sendable, Hashable {
  /// The stream's bytes, as the filter expects them.
  public var data: Data
  /// The filter name without its slash: `DCTDecode`, `FlateDecode`.
  public var filter: String
  /// Width and height in pixels.
  public var width: Int
  public var height: Int
  /// Bits per colour component.
  public var bitsPerComponent: Int
  /// The colour space in PDF syntax (`/DeviceGray`, `/DeviceRGB`,
  /// `[/Indexed /DeviceRGB 1 <…>]`).
  public var colorSpace: String
  /// The `DecodeParms` dictionary in PDF syntax, when the filter needs one.
  public var decodeParms: String?
  /// The `Decode` array in PDF syntax, when samples are inverted.
  public var decode: String?
  /// The resolution the file gives, when it gives one.
  public var resolution: Int?
}

/// The page images of image files, for a searchable PDF.
public enum PDFImages {
  /// The stream of one page of an image file.
  ///
  /// - Parameters:
  ///   - page: The page of the file (0 for every format but multi-page TIFF).
  ///   - path: The image file.
  ///   - maxPixels: The pixel limit recognition used.
  /// - Throws: ``OCRError`` naming the file when it cannot be read or
  ///   encoded.
  public static func stream(
    page: Int, ofFile path: String, maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(OCRError) -> PDFImageStream {
    let data = try ImageReader.readBytes(path)
    let source = try ImageSource(data, path: path, maxPixels: maxPixels)
    guard page >= 0, page < source.pageCount else {
      throw .corruptPage(path: path, page: page, format: source.formatName)
    }
    if source.formatName == "JPEG" {
      // Leptonica takes a JPEG file's own bytes.
      return try encode(path: path, format: source.formatName) { cid in
        _ = scantext_l_generateCIDataForPdf(path, nil, 0, &cid)
      }
    }
    return try stream(of: source.decode(page: page), path: path, format: source.formatName)
  }

  /// The stream of a decoded image, compressed losslessly (G4 for 1 bit,
  /// else Flate).
  static func stream(of image: LeptonicaImage, path: String, format: String) throws(OCRError)
    -> PDFImageStream
  {
    try encode(path: path, format: format) { cid in
      _ = scantext_l_generateCIDataForPdf(nil, image.pix, 0, &cid)
    }
  }

  static func encode(
    path: String, format: String,
    _ generate: (inout UnsafeMutablePointer<L_COMP_DATA>?) -> Void
  ) throws(OCRError) -> PDFImageStream {
    var cid: UnsafeMutablePointer<L_COMP_DATA>?
    defer { scantext_l_CIDataDestroy(&cid) }
    generate(&cid)
    guard let c = cid?.pointee, let bytes = c.datacomp, c.nbytescomp > 0 else {
      throw .corruptImage(path: path, format: format)
    }
    let filter: String
    switch Int(c.type) {
    case Int(L_JPEG_ENCODE): filter = "DCTDecode"
    case Int(L_G4_ENCODE): filter = "CCITTFaxDecode"
    case Int(L_JP2K_ENCODE): filter = "JPXDecode"
    default: filter = "FlateDecode"
    }
    var colorSpace: String
    if c.ncolors > 0, let hex = c.cmapdatahex {
      colorSpace = "[/Indexed /DeviceRGB \(c.ncolors - 1) \(String(cString: hex))]"
    } else {
      switch c.spp {
      case 1: colorSpace = "/DeviceGray"
      case 4: colorSpace = "/DeviceCMYK"
      default: colorSpace = "/DeviceRGB"
      }
    }
    var decodeParms: String?
    var decode: String?
    if filter == "CCITTFaxDecode" {
      colorSpace = "/DeviceGray"
      // G4 codes runs of paper and ink; BlackIs1 only says which bit
      // value the decoder gives ink (false: 0, as DeviceGray has it).
      decodeParms =
        "<< /K -1 /Columns \(c.w) /Rows \(c.h)\(c.minisblack != 0 ? " /BlackIs1 true" : "") >>"
    } else if filter == "FlateDecode", c.predictor != 0 {
      decodeParms =
        "<< /Predictor 14 /Colors \(c.spp) /BitsPerComponent \(c.bps) /Columns \(c.w) >>"
    }
    if filter == "DCTDecode", c.spp == 4 {
      // Adobe's CMYK JPEGs store inverted samples.
      decode = "[1 0 1 0 1 0 1 0]"
    }
    return PDFImageStream(
      data: Data(bytes: bytes, count: c.nbytescomp), filter: filter, width: Int(c.w),
      height: Int(c.h), bitsPerComponent: Int(c.bps), colorSpace: colorSpace,
      decodeParms: decodeParms, decode: decode, resolution: c.res > 0 ? Int(c.res) : nil)
  }

  /// Tesseract's glyphless font (`pdf.ttf` in its data folder): every
  /// character is an empty glyph half an em wide, which is what an
  /// invisible text layer needs.
  /// - Throws: ``OCRError/unreadable(path:reason:)`` when the file is missing.
  public static func glyphlessFont(dataPath: String? = nil) throws(OCRError) -> Data {
    let path = (dataPath ?? TessdataFolder.resolved) + "/pdf.ttf"
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(
        path: path, reason: "Tesseract's glyphless font is needed for a PDF text layer")
    }
  }
}
