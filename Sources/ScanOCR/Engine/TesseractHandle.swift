import CScanOCR

/// The one owner of a `TessBaseAPI`: created with it, ended and deleted in
/// `deinit`, so a handle is freed however its user's initializer exits
/// (a throwing `init` that fails before all its properties are set never
/// runs its own `deinit`).
final class TesseractHandle {
  let raw: OpaquePointer

  /// Creates a Tesseract instance whose chatter goes to `/dev/null`: its
  /// `debug_file` is set before anything can print.
  init() {
    raw = scantext_TessBaseAPICreate()
    _ = scantext_TessBaseAPISetVariable(raw, "debug_file", "/dev/null")
  }

  deinit {
    scantext_TessBaseAPIEnd(raw)
    scantext_TessBaseAPIDelete(raw)
  }
}
