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
      throw .librariesUnavailable(reason: "Leptonica's libtiff lacks a function ScanText uses")
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

  /// The shared objects the loader would open, in the folders the dynamic
  /// loader searches, with their size and modification time: part of
  /// cache keys, so that upgrading Tesseract or Leptonica invalidates them
  /// without loading either (loading costs some 10 ms at every start).
  ///
  /// The names come from the loader's own list
  /// (`scantext_library_names`); a test checks that the files found here
  /// are the ones the loader opens (``loadedFiles``, from `dladdr`).
  static var fingerprint: String {
    ["tesseract", "leptonica"].map { library -> String in
      let names = libraryNames(library)
      if let file = findFile(names) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(file):\(size):\(modified)"
      }
      return "\(names.first ?? library): not found"
    }.joined(separator: "\n")
  }

  /// The loader's list of shared objects for `library` ("tesseract" or
  /// "leptonica"), in the order it tries them.
  static func libraryNames(_ library: String) -> [String] {
    var names: [String] = []
    guard var p = scantext_library_names(library) else { return [] }
    while let name = p.pointee {
      names.append(String(cString: name))
      p += 1
    }
    return names
  }

  /// The first of `names` in the dynamic loader's folders, symbolic links
  /// resolved.
  static func findFile(_ names: [String]) -> String? {
    let environment = ProcessInfo.processInfo.environment
    let folders =
      (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
      + [
        "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
        "/usr/lib",
      ]
    for name in names {
      for folder in folders {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: path.path) {
          return path.resolvingSymlinksInPath().path
        }
      }
    }
    return nil
  }

  /// The files the loader actually opened (libtesseract, Leptonica), as
  /// `dladdr` reports them, symbolic links resolved; empty before loading.
  static var loadedFiles: [String] {
    [(scantext_tesseract_handle(), "TessVersion"), (scantext_leptonica_handle(), "pixCreate")]
      .compactMap { handle, symbol -> String? in
        guard let name = scantext_library_file(handle, symbol) else { return nil }
        return URL(fileURLWithPath: String(cString: name)).resolvingSymlinksInPath().path
      }
  }
}
