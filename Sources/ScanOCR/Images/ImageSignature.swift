import Foundation

/// The signatures (magic bytes) of the image formats ScanText reads, for
/// telling an image from a PDF before either is decoded: an image's own
/// signature wins over a `%PDF-` further in (``PDFDocument/isPDF(_:)``).
enum ImageSignature {
  /// PNG, JPEG, GIF, TIFF (both byte orders, and BigTIFF), WebP, JPEG 2000
  /// (the JP2 box and a bare codestream), BMP and PNM (`P1`–`P7` and a
  /// white-space byte).
  static let prefixes: [[UInt8]] = [
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
    [0xFF, 0xD8, 0xFF],
    Array("GIF87a".utf8), Array("GIF89a".utf8),
    [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],
    [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
    [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A],
    [0xFF, 0x4F, 0xFF, 0x51],
  ]

  /// Whether `head`, a file's first bytes, starts like an image file.
  static func matches(_ head: Data) -> Bool {
    let bytes = [UInt8](head.prefix(12))
    if prefixes.contains(where: { bytes.starts(with: $0) }) { return true }
    // RIFF, a length, WEBP.
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      return true
    }
    // BM and a file size (BMP); P1-P7 and white space (PNM).
    if bytes.count >= 3, bytes[0] == 0x50, (0x31...0x37).contains(bytes[1]),
      [0x20, 0x09, 0x0A, 0x0D].contains(bytes[2])
    {
      return true
    }
    return bytes.count >= 2 && bytes[0] == 0x42 && bytes[1] == 0x4D
  }
}
