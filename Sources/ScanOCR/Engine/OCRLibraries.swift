import CScanOCR
import Foundation

/// Loads the C libraries on first use (see `Sources/CScanOCR`, generated
/// by `Tools/generate/generate-ocr-shims.py` from its one table of libraries):
/// commands that never recognise an image never pay for loading them.
enum OCRLibraries {
  /// Loads the required libraries (Leptonica, libtesseract, Leptonica's
  /// libtiff) and binds their functions; cheap after the first call.
  /// Leptonica's messages on standard error are turned off: a library does
  /// not print (``OCREngine/showLibraryMessages()`` turns them on).
  static func load() throws(OCRError) {
    guard scantext_load_libraries() == 0 else {
      throw .librariesUnavailable(reason: String(cString: scantext_load_error()))
    }
    silenceOnce
  }

  /// Leptonica's messages go through its severity; libtiff's through its
  /// handlers (set when it is bound); libpng's and libjpeg's through the
  /// handlers Leptonica's decoders get (see `Sources/CScanOCR/quiet.c`).
  /// Tesseract's through each instance's `debug_file` (``TesseractHandle``).
  /// Standard error itself is never redirected: crashes stay visible.
  ///
  /// Tesseract's in-memory line images, PNGs Leptonica writes with no
  /// level asked for, are stored rather than compressed
  /// (`scantext_store_unleveled_pngs`): zlib and libpng were 12–17 % of a
  /// reading, and a PNG is lossless at any level, so the text and boxes
  /// are the same (README, Performance). Every PNG written for a user asks
  /// for its level and is compressed.
  ///
  /// Where the codecs' hooks cannot be installed (see ``hookFailures``),
  /// libpng and libjpeg keep their default handlers and PNGs are
  /// compressed as libpng does: the output is the same, the codecs may
  /// print on a corrupt image, and a reading is slower.
  private static let silenceOnce: Void = {
    _ = scantext_setMsgSeverity(Int32(L_SEVERITY_NONE))
    _ = scantext_set_codec_messages(0)
    _ = scantext_store_unleveled_pngs(1)
  }()

  /// Why the codecs' hooks (libpng's and libjpeg's quiet handlers, the
  /// stored PNGs) could not be installed, one reason per codec; empty when
  /// they are in place (every x86-64 and arm64 Linux with Debian's
  /// Leptonica).
  static var hookFailures: [String] {
    (try? load()) == nil
      ? []
      : [SCANTEXT_LIBRARY_PNG, SCANTEXT_LIBRARY_JPEG].compactMap { library in
        let id = Int32(library)
        guard scantext_library_load(id) != 0 else { return nil }
        return String(cString: scantext_library_error(id))
      }
  }

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
    [(SCANTEXT_LIBRARY_TESSERACT, "TessVersion"), (SCANTEXT_LIBRARY_LEPTONICA, "pixCreate")]
      .compactMap { library, symbol -> String? in
        let handle = scantext_library_handle(Int32(library))
        guard let name = scantext_library_file(handle, symbol) else { return nil }
        return URL(fileURLWithPath: String(cString: name)).resolvingSymlinksInPath().path
      }
  }
}
