import ScanFormats
import ScanOCR

extension PDFPageImage {
  /// The description ``ScanFormats/SearchablePDF`` takes of a stream
  /// ScanOCR's `PDFImages` made, field for field (as `scantext ocr -o
  /// out.pdf` hands it over).
  public init(_ stream: PDFImageStream) {
    self.init(
      data: stream.data, filter: stream.filter, width: stream.width, height: stream.height,
      bitsPerComponent: stream.bitsPerComponent, colorSpace: stream.colorSpace,
      decodeParms: stream.decodeParms, decode: stream.decode, orientation: stream.orientation,
      iccProfile: stream.iccProfile, pieces: stream.pieces)
  }
}
