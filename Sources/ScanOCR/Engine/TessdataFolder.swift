import CScanOCR
import Foundation
import ScanModel

/// Where Tesseract's language data lives.
enum TessdataFolder {
  /// `TESSDATA_PREFIX` when set, else Debian's folder for Tesseract 5.
  static var resolved: String {
    if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
      return prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    }
    return "/usr/share/tesseract-ocr/5/tessdata"
  }

  /// The languages with a traineddata file in `folder`, sorted.
  static func languages(in folder: String) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0.hasSuffix(".traineddata") }
      .map { String($0.dropLast(".traineddata".count)) }.sorted()
  }
}
