import CScanOCR
import Foundation

/// Writes images with Leptonica: used by tests and tools to make TIFF
/// fixtures from the sample scans.
enum ImageWriter {
  struct Failure: Error, CustomStringConvertible {
    var description: String
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
