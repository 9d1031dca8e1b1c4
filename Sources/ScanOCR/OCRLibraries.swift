import CScanOCR
import Foundation

/// Loads libtesseract and Leptonica on first use (see `Sources/CScanOCR`):
/// commands that never recognise an image never pay for loading them.
enum OCRLibraries {
  /// Loads both libraries and binds their functions; cheap after the first
  /// call. Leptonica's messages on standard error are turned off: a library
  /// does not print (``OCREngine/showLibraryMessages()`` turns them on).
  static func load() throws(OCRError) {
    guard scantext_load_libraries() == 0 else {
      throw .librariesUnavailable(reason: String(cString: scantext_load_error()))
    }
    guard scantext_tiff_load() == 0 else {
      throw .librariesUnavailable(reason: "cannot load libtiff.so.6")
    }
    silenceOnce
  }

  /// Leptonica's messages go through its severity; libtiff's through its
  /// handlers (set when it is loaded); libpng's and libjpeg's through the
  /// handlers Leptonica's decoders get (see `Sources/CScanOCR/quiet.c`).
  /// Tesseract's through each instance's `debug_file` (``TesseractHandle``).
  /// Standard error itself is never redirected: crashes stay visible.
  private static let silenceOnce: Void = {
    _ = scantext_setMsgSeverity(Int32(L_SEVERITY_NONE))
    _ = scantext_set_codec_messages(0)
  }()

  /// The shared objects the loader opens first, in the folders the dynamic
  /// loader searches, with their size and modification time: part of
  /// cache keys, so that upgrading Tesseract or Leptonica invalidates them
  /// without loading either.
  static var fingerprint: String {
    let environment = ProcessInfo.processInfo.environment
    let folders =
      (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
      + [
        "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
        "/usr/lib",
      ]
    let names = [["libtesseract.so.5", "libtesseract.so"], ["liblept.so.5", "libleptonica.so.6"]]
    return names.map { candidates -> String in
      for folder in folders {
        for name in candidates {
          let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
          let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
          guard let attributes = try? FileManager.default.attributesOfItem(atPath: real) else {
            continue
          }
          let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
          let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
          return "\(real):\(size):\(modified)"
        }
      }
      return "\(candidates[0]): not found"
    }.joined(separator: "\n")
  }
}
