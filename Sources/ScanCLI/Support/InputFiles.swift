import Foundation
import ScanArguments
import ScanFormats
import ScanOCR
import Synchronization

/// The files a command reads, where `-` is standard input.
///
/// Standard input is read whole the first time a command reads `-` (a PDF
/// or a multi-page TIFF is read at any offset, and the cache keys on the
/// bytes), at most ``standardInputLimit`` bytes; what it is comes from its
/// content, as `file` would tell: `%PDF-` in the first 1024 bytes is a PDF,
/// JSON or XML with a root ScanText reads is a document, anything else an
/// image (whose format the image reader finds from its magic number). In
/// errors and in a page's `image` it is named `-`, as `cat` and `tesseract`
/// name it.
enum InputFiles {
  /// How standard input is named on the command line, in errors and in a
  /// page's `image`.
  static let standardInput = "-"

  /// The most bytes read from standard input: 512 MiB, past a 600 dpi
  /// colour letter page as an uncompressed TIFF (100 MB) five times over.
  /// A larger input is refused rather than held in memory: give a file.
  static let standardInputLimit = 512 << 20

  /// What an input is, and so how it is read.
  enum Kind: Equatable {
    /// A document in a format ScanText reads (JSON, hOCR, ALTO, PAGE, TSV).
    case document
    /// A PDF, read page by page through Poppler.
    case pdf
    /// An image file (every page of a multi-page TIFF).
    case image
  }

  private struct State {
    var reader: (@Sendable (Int) -> InputBytes)?
    var contents: Result<Data, CLIError>?
  }

  /// Standard input's reader and, once read, its bytes. Standard input is
  /// one per process: in-process runs that read `-` must not overlap.
  private static let state = Mutex(State())

  /// Makes `io` the standard input that `-` reads (once, on first use).
  /// Called by ``ScanText/main(_:io:)`` before a command runs.
  static func begin(_ io: CommandIO) {
    state.withLock { $0 = State(reader: { io.readAll(limit: $0) }, contents: nil) }
  }

  /// Lets go of standard input's bytes when a command has run. Called by
  /// ``ScanText/main(_:io:)``: up to 512 MiB are not kept for the rest of the
  /// process (and LeakSanitizer, which does not see into the global `Mutex`'s
  /// storage, reported them as leaked at exit).
  static func end() {
    state.withLock { $0 = State() }
  }

  /// Whether `path` names standard input.
  static func isStandardInput(_ path: String) -> Bool { path == standardInput }

  /// Refuses standard input given more than once among `paths` (`nil`
  /// entries are options not given): it can be read only once.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error).
  static func checkStandardInputOnce(_ paths: [String?]) throws {
    guard paths.filter({ $0 == standardInput }).count > 1 else { return }
    throw ValidationError(
      "'-' (standard input) may be given only once: it can be read only once")
  }

  /// The bytes of an input file, or of standard input for `-`.
  /// - Throws: ``CLIError`` naming the file and the reason (missing, a
  ///   directory, unreadable, empty; standard input over the limit).
  static func read(_ path: String) throws -> Data {
    if isStandardInput(path) { return try standardInputBytes() }
    do {
      return try OCREngine.readImageFile(path)
    } catch {
      throw CLIError(error.description)
    }
  }

  /// Standard input's bytes, read on the first call.
  private static func standardInputBytes() throws -> Data {
    let result = state.withLock { state -> Result<Data, CLIError> in
      if let contents = state.contents { return contents }
      let read = state.reader ?? { CommandIO.standard.readAll(limit: $0) }
      let contents: Result<Data, CLIError>
      switch read(standardInputLimit) {
      case .bytes(let bytes) where bytes.isEmpty:
        contents = .failure(CLIError("-: standard input is empty"))
      case .bytes(let bytes):
        contents = .success(Data(bytes))
      case .tooLong:
        contents = .failure(
          CLIError(
            "-: standard input holds more than \(standardInputLimit >> 20) MiB, the most read into memory; give a file instead"
          ))
      case .failed(let reason):
        contents = .failure(CLIError("-: cannot read standard input: \(reason)"))
      }
      state.contents = contents
      return contents
    }
    return try result.get()
  }

  /// What `path` holds: for a file, a document when its name says so
  /// (``ScanFormats/DocumentFormat/isDocument(fileName:)``), else a PDF when
  /// it starts like one, else an image; for `-`, the same from its content.
  /// An input that cannot be read is an image: reading it then reports why.
  static func kind(_ path: String) -> Kind {
    if isStandardInput(path) {
      guard let data = try? standardInputBytes() else { return .image }
      if PDFDocument.isPDF(data) { return .pdf }
      return DocumentFormat.detect(data: data) == nil ? .image : .document
    }
    if DocumentFormat.isDocument(fileName: path) { return .document }
    guard let handle = FileHandle(forReadingAtPath: path) else { return .image }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 1024) else { return .image }
    return PDFDocument.isPDF(head) ? .pdf : .image
  }

  /// Calls `body` with a path to the file's bytes: `path` itself, or for
  /// standard input a private temporary file (removed afterwards), for
  /// readers that take only a path (Leptonica passes a JPEG file's bytes
  /// into a PDF from its path). Errors name `-`, not the temporary file.
  static func withFile<T>(_ path: String, _ body: (String) throws -> T) throws -> T {
    guard isStandardInput(path) else { return try body(path) }
    let data = try standardInputBytes()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scantext-stdin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let file = folder.appendingPathComponent(standardInput)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      try data.write(to: file)
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw CLIError(
        "-: cannot keep standard input in a temporary file: \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      return try body(file.path)
    } catch {
      throw CLIError(String(describing: error).replacingOccurrences(of: file.path, with: path))
    }
  }

  /// Whether `path` is a document rather than an image or a PDF.
  static func isDocument(_ path: String) -> Bool { kind(path) == .document }
}
