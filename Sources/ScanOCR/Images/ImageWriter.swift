import CScanOCR
import Foundation

/// Writes images with Leptonica: used by tests and tools to make TIFF
/// fixtures from the sample scans.
enum ImageWriter {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The formats ``write(_:to:format:)`` can write.
  enum Format {
    case bmp, pnm, gif, webp, jpeg2000

    var code: Int32 {
      switch self {
      case .bmp: Int32(IFF_BMP)
      case .pnm: Int32(IFF_PNM)
      case .gif: Int32(IFF_GIF)
      case .webp: Int32(IFF_WEBP)
      case .jpeg2000: Int32(IFF_JP2)
      }
    }
  }

  /// Writes the first page of the image at `source` in another format.
  static func write(_ source: String, to destination: String, format: Format) throws {
    let data = try ImageReader.readBytes(source)
    guard let page = try ImageReader.decodePages(data, path: source, maxPixels: .max).first,
      scantext_pixWrite(destination, page.pix, format.code) == 0
    else { throw Failure(description: "cannot write \(destination)") }
  }

  /// Writes the first page of the image at `source` as a PNG scaled by
  /// `scaleX` × `scaleY`, tagged with resolutions `xres` × `yres`: a page
  /// with non-square pixels, as a fax machine makes (200 × 100 dpi).
  static func writeScaledPNG(
    _ source: String, to destination: String, scaleX: Double, scaleY: Double, xres: Int,
    yres: Int
  ) throws {
    let data = try ImageReader.readBytes(source)
    guard let page = try ImageReader.decodePages(data, path: source, maxPixels: .max).first,
      let scaled = scantext_pixScale(page.pix, Float(scaleX), Float(scaleY))
    else { throw Failure(description: "cannot scale \(source)") }
    let image = LeptonicaImage(taking: scaled)
    scantext_pixSetResolution(image.pix, Int32(xres), Int32(yres))
    _ = scantext_pixSetZlibCompression(image.pix, 6)  // compressed as asked: see quiet.c
    guard scantext_pixWrite(destination, image.pix, Int32(IFF_PNG)) == 0 else {
      throw Failure(description: "cannot write \(destination)")
    }
  }

  /// Writes the images at `sources` as the pages of one TIFF (zip
  /// compression, or G4 for 1-bit images).
  static func writeMultipageTIFF(from sources: [String], to destination: String) throws {
    for (k, source) in sources.enumerated() {
      let data = try ImageReader.readBytes(source)
      let pages = try ImageReader.decodePages(data, path: source, maxPixels: .max)
      for page in pages {
        let compression = scantext_pixGetDepth(page.pix) == 1 ? IFF_TIFF_G4 : IFF_TIFF_ZIP
        guard
          scantext_pixWriteTiff(destination, page.pix, Int32(compression), k == 0 ? "w" : "a") == 0
        else {
          throw Failure(description: "cannot write \(destination)")
        }
      }
    }
  }
}
