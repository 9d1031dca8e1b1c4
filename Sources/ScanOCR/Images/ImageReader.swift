import CScanOCR
import Foundation
import ScanModel

/// Reads image files with Leptonica from bytes we read ourselves, so a
/// missing path never falls back to a same-named file in the current
/// directory, and checks the header's size before decoding.
enum ImageReader {
  /// Reads the file's bytes, with a precise error for each failure.
  static func readBytes(_ path: String) throws(OCRError) -> Data {
    try checkReadable(path)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw unreadable(path, because: error.localizedDescription)
    }
    if data.isEmpty { throw .emptyFile(path: path) }
    return data
  }

  /// The error for a file that cannot be read for `reason` ("permission
  /// denied" when the file is not readable).
  static func unreadable(_ path: String, because reason: String) -> OCRError {
    .unreadable(
      path: path,
      reason: FileManager.default.isReadableFile(atPath: path) ? reason : "permission denied")
  }

  /// Throws the error ``readBytes(_:)`` gives for a missing path, a
  /// directory or an empty regular file, before it is read.
  static func checkReadable(_ path: String) throws(OCRError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    if isDirectory.boolValue { throw .isDirectory(path: path) }
    // An empty regular file is known from its size: `Data(contentsOf:)`
    // would leak the buffer it allocates for a file of size 0 (seen with
    // LeakSanitizer in swift-foundation's readBytesFromFile).
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    if attributes?[.type] as? FileAttributeType == .typeRegular,
      (attributes?[.size] as? NSNumber)?.intValue == 0
    {
      throw .emptyFile(path: path)
    }
  }

  /// Decodes every page of an image file (every page of a multi-page TIFF),
  /// throwing the first page's error if any page cannot be decoded.
  static func decodePages(
    _ data: Data, path: String, maxPixels: Int
  ) throws(OCRError) -> [LeptonicaImage] {
    let source = try ImageSource(data, path: path, maxPixels: maxPixels)
    var pages: [LeptonicaImage] = []
    for index in 0..<source.pageCount { pages.append(try source.decode(page: index)) }
    return pages
  }
}
