import Foundation
import ScanArguments
import ScanFormats
import ScanOCR
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The files a command reads, where `-` is standard input.
///
/// Standard input is read to its end the first time a command reads `-`,
/// into a temporary file that has no name (removed from its folder as soon
/// as it is made, as `sort` spools its input): a compact model or ScanText
/// JSON is then read from it a page at a time, as from a file; an image or
/// a PDF is read into memory from it (a PDF or a multi-page TIFF is read at
/// any offset, and the cache keys on the bytes), at most
/// ``standardInputLimit`` bytes. What it is comes from its first megabyte,
/// as `file` would tell: `%PDF-` in the first 1024 bytes is a PDF, JSON or
/// XML with a root ScanText reads is a document, anything else an image
/// (whose format the image reader finds from its magic number). In errors
/// and in a page's `image` it is named `-`, as `cat` and `tesseract` name
/// it.
package enum InputFiles {
  /// How standard input is named on the command line, in errors and in a
  /// page's `image`.
  package static let standardInput = "-"

  /// The most bytes read from standard input: 512 MiB, past a 600 dpi
  /// colour letter page as an uncompressed TIFF (100 MB) five times over.
  /// A larger input is refused rather than held in memory: give a file.
  package static let standardInputLimit = 512 << 20

  /// What an input is, and so how it is read (``Input/Kind``).
  package typealias Kind = Input.Kind

  private struct State {
    var reader: (@Sendable (_ body: ([UInt8]) throws -> Void) throws -> String?)?
    /// Standard input, spooled.
    var spool: Result<InputSpool, ServiceError>?
    /// Standard input's bytes, once read into memory.
    var contents: Result<Data, ServiceError>?
    /// Other streams read (FIFOs, character devices, `/dev/stdin`,
    /// `<(…)`), by path: each can be read only once.
    var streams: [String: Result<Data, ServiceError>] = [:]
    /// How long to wait for a stream's first bytes (`--timeout`).
    var waitLimit: Double?
    /// What each input was found to be (``sniff(_:)``), by path: told
    /// once while a command runs (`nil` outside one, for a library user
    /// whose files may change between runs).
    var sniffs: [String: Sniff]?
  }

  /// Standard input's reader and, once read, its bytes. Standard input is
  /// one per process: in-process runs that read `-` must not overlap.
  private static let state = Mutex(State())

  /// Makes `io` the standard input that `-` reads (once, on first use).
  /// Called by ``ScanText/main(_:io:)`` before a command runs.
  package static func begin(_ io: CommandIO) {
    state.withLock {
      $0 = State(reader: { try io.readAll(inBlocks: $0) }, sniffs: [:])
    }
  }

  /// Lets go of standard input's bytes when a command has run. Called by
  /// ``ScanText/main(_:io:)``: up to 512 MiB are not kept for the rest of the
  /// process (and LeakSanitizer, which does not see into the global `Mutex`'s
  /// storage, reported them as leaked at exit).
  package static func end() {
    state.withLock { $0 = State() }
  }

  /// Whether `path` names standard input.
  package static func isStandardInput(_ path: String) -> Bool { path == standardInput }

  /// Whether `path` is read as a stream, once and whole: standard input,
  /// or a file that is not a regular file nor a directory (a FIFO, a
  /// character device, a socket: `/dev/stdin`, `<(cat m.json)`). Such an
  /// input cannot be read twice nor at an offset.
  package static func isStream(_ path: String) -> Bool {
    if isStandardInput(path) { return true }
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
  }

  /// How long a stream input may keep ScanText waiting for its data
  /// (`--timeout`; without it, as long as it takes, as `cat` waits).
  package static func setWaitLimit(_ seconds: Double?) {
    state.withLock { $0.waitLimit = seconds }
  }

  /// Refuses standard input given more than once among `paths` (`nil`
  /// entries are options not given): it can be read only once.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error).
  package static func checkStandardInputOnce(_ paths: [String?]) throws {
    guard paths.filter({ $0 == standardInput }).count > 1 else { return }
    throw ValidationError(
      "'-' (standard input) may be given only once: it can be read only once")
  }

  /// The bytes of an input file, or of standard input for `-`.
  /// - Throws: ``ServiceError`` naming the file and the reason (missing, a
  ///   directory, unreadable, empty; standard input over the limit).
  package static func read(_ path: String) throws -> Data {
    if isStandardInput(path) { return try standardInputBytes() }
    if isStream(path) { return try streamBytes(path) }
    do {
      return try OCREngine.readImageFile(path)
    } catch {
      throw ServiceError.recognitionFailed(error)
    }
  }

  /// A PDF input's file: a regular file's bytes read straight into the
  /// memory ``ScanOCR/PDFFile`` keeps them in (once, not read and then
  /// copied), a stream's (standard input, a FIFO) as ``read(_:)`` gives
  /// them.
  /// - Throws: ``ServiceError`` as ``read(_:)`` throws it.
  package static func readPDF(_ path: String) throws -> PDFFile {
    if isStream(path) { return PDFFile(data: try read(path), path: path) }
    do {
      return try PDFFile(reading: path)
    } catch {
      throw ServiceError.recognitionFailed(error)
    }
  }

  /// Standard input's bytes, read on the first call.
  private static func standardInputBytes() throws -> Data {
    let spool = try standardInputSpool()
    let result = state.withLock { state -> Result<Data, ServiceError> in
      if let contents = state.contents { return contents }
      let contents: Result<Data, ServiceError>
      if spool.count > standardInputLimit {
        contents = .failure(
          ServiceError.inputUnreadable(
            path: "-",
            reason:
              "standard input holds more than \(standardInputLimit >> 20) MiB, the most read into memory; give a file instead"
          ))
      } else {
        contents = failable { try Data(spool.read(offset: 0, count: spool.count)) }
      }
      state.contents = contents
      return contents
    }
    return try result.get()
  }

  /// Standard input spooled to a temporary file, read to its end on the
  /// first call.
  private static func standardInputSpool() throws -> InputSpool {
    let result = state.withLock { state -> Result<InputSpool, ServiceError> in
      if let spool = state.spool { return spool }
      let read = state.reader ?? { try CommandIO.standard.readAll(inBlocks: $0) }
      let spool = failable { try InputSpool(read) }
      state.spool = spool
      return spool
    }
    return try result.get()
  }

  /// What `body` gives, or the ``ServiceError`` it throws.
  private static func failable<T>(_ body: () throws -> T) -> Result<T, ServiceError> {
    do {
      return .success(try body())
    } catch let error as ServiceError {
      return .failure(error)
    } catch {
      return .failure(ServiceError.other("\(error)"))
    }
  }

  /// Standard input, a compact model or ScanText JSON, opened for reading
  /// a page at a time from its spool: it is never held whole.
  /// - Throws: ``ServiceError`` when it cannot be read; what
  ///   ``ScanFormats/PagedDocument`` throws when it is not a readable
  ///   document.
  package static func standardInputDocument(maxPagesInMemory: Int?) throws -> PagedDocument {
    try standardInputSpool().withDescriptor {
      try PagedDocument.open(
        descriptor: $0, path: standardInput, maxPagesInMemory: maxPagesInMemory)
    }
  }

  /// What a stream holds, or its first megabyte for standard input
  /// (enough to tell what it is).
  private static func streamHead(_ path: String) throws -> Data {
    isStandardInput(path) ? try standardInputHead() : try read(path)
  }

  /// The first bytes of standard input (at most a megabyte), enough to
  /// tell what it holds.
  /// - Throws: ``ServiceError`` when it cannot be read.
  package static func standardInputHead() throws -> Data {
    let spool = try standardInputSpool()
    return Data(try spool.read(offset: 0, count: min(spool.count, 1 << 20)))
  }

  /// A stream's bytes (see ``isStream(_:)``), read on the first call with
  /// the same limit as standard input. Opened without blocking, so a FIFO
  /// nobody has opened for writing does not hang the open; its data is
  /// then awaited (Linux reports a FIFO's end only once a writer has come
  /// and gone) until ``setWaitLimit(_:)``'s deadline.
  private static func streamBytes(_ path: String) throws -> Data {
    let (cached, waitLimit) = state.withLock { ($0.streams[path], $0.waitLimit) }
    if let cached { return try cached.get() }
    let result = readStream(path, waitLimit: waitLimit)
    state.withLock { $0.streams[path] = result }
    return try result.get()
  }

  private static func readStream(_ path: String, waitLimit: Double?) -> Result<Data, ServiceError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      return .failure(unreadable(path, errno))
    }
    defer { close(descriptor) }
    let deadline = waitLimit.map { Date().addingTimeInterval($0) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let wait = deadline.map { max(0, Int32(min($0.timeIntervalSinceNow * 1000, 86_400_000))) }
      let polled = poll(&ready, 1, wait ?? -1)
      if polled < 0 {
        if errno == EINTR { continue }
        return .failure(
          unreadable(path, errno))
      }
      if polled == 0 {
        return .failure(
          ServiceError.inputUnreadable(
            path: path,
            reason: "no data within the \(waitLimit ?? 0)-second timeout (a FIFO nobody writes to?)"
          ))
      }
      let count = Glibc.read(descriptor, &buffer, buffer.count)
      if count > 0 {
        data.append(buffer, count: count)
        if data.count > standardInputLimit {
          return .failure(
            ServiceError.inputUnreadable(
              path: path,
              reason:
                "holds more than \(standardInputLimit >> 20) MiB, the most read from a stream into memory; give a regular file instead"
            ))
        }
      } else if count == 0 {
        break
      } else if errno != EAGAIN && errno != EINTR {
        return .failure(
          unreadable(path, errno))
      }
    }
    return data.isEmpty
      ? .failure(ServiceError.inputUnreadable(path: path, reason: "the file is empty"))
      : .success(data)
  }

  /// An input that cannot be read, with the system's reason.
  private static func unreadable(_ path: String, _ code: Int32) -> ServiceError {
    .inputUnreadable(path: path, reason: "cannot read it: \(String(cString: strerror(code)))")
  }

  /// What an input is by its first bytes (and a file's name): its kind
  /// and format. Every stage that must know what an input is asks
  /// ``sniff(_:)`` (or ``Input``, made from the same rule); nothing else
  /// reads a header to decide it.
  package struct Sniff: Sendable, Equatable {
    /// What the input is.
    package var kind: Input.Kind
    /// Its format (``Input/format``): `pdf`, `tiff`, a document format's
    /// name; `nil` for another image.
    package var format: String?
    /// Whether the bytes start as a TIFF does (`II*\0`, `MM\0*`, or
    /// BigTIFF's `II+\0`, `MM\0+`), whatever the name says: it may hold
    /// many pages.
    package var startsAsTIFF: Bool
  }

  /// The most bytes of an input ``sniff(head:path:isStream:)`` looks at:
  /// where a document's root element is found
  /// (``ScanFormats/DocumentFormat/detect(data:)``); `%PDF-` is looked for
  /// in the first 1024.
  package static let sniffedBytes = 4096

  /// What `path` holds (see ``sniff(head:path:isStream:)``), from its
  /// first ``sniffedBytes`` bytes, or a stream's held bytes; told once
  /// while a command runs. An input that cannot be read is an image:
  /// reading it then reports why.
  package static func sniff(_ path: String) -> Sniff {
    if let known = state.withLock({ $0.sniffs?[path] }) { return known }
    let stream = isStream(path)
    let head: Data
    if stream {
      head = (try? streamHead(path).prefix(sniffedBytes)) ?? Data()
    } else if let handle = FileHandle(forReadingAtPath: path) {
      defer { try? handle.close() }
      head = (try? handle.read(upToCount: sniffedBytes)) ?? Data()
    } else {
      head = Data()
    }
    let sniffed = sniff(head: head, path: path, isStream: stream)
    state.withLock { $0.sniffs?[path] = sniffed }
    return sniffed
  }

  /// What an input whose first bytes are `head` is: for a file, a
  /// document when its name says so
  /// (``ScanFormats/DocumentFormat/isDocument(fileName:)``); then a
  /// compact model by its magic number, a PDF when it starts like one
  /// (``ScanOCR/PDFDocument/isPDF(_:)``), and, for a stream (which has no
  /// name), JSON or XML with a root ScanText reads; anything else is an
  /// image (whose format the image reader finds from its magic number).
  /// - Parameters:
  ///   - head: The input's first bytes (at least ``sniffedBytes`` when it
  ///     has them).
  ///   - path: The input as given: its name's ending, for a file.
  ///   - isStream: Whether the input is a stream (``isStream(_:)``).
  package static func sniff(head: Data, path: String, isStream: Bool) -> Sniff {
    let compact = CompactModel.isCompactModel(head)
    let tiff = tiffSignatures.contains { head.starts(with: $0) }
    let kind: Input.Kind
    if !isStream && DocumentFormat.isDocument(fileName: path) || compact {
      kind = .document
    } else if PDFDocument.isPDF(head) {
      kind = .pdf
    } else {
      kind = isStream && DocumentFormat.detect(data: head) != nil ? .document : .image
    }
    let format: String? =
      switch kind {
      case .pdf: "pdf"
      case .image: tiff ? "tiff" : nil
      case .document:
        compact
          ? FileFormat.compactModel.name
          : (DocumentFormat.detect(data: head) ?? FileFormat(fileName: path)?.document)?.rawValue
      }
    return Sniff(kind: kind, format: format, startsAsTIFF: tiff)
  }

  /// What `path` holds (``sniff(_:)``).
  package static func kind(_ path: String) -> Kind { sniff(path).kind }

  /// Whether the file starts as a TIFF does (``Sniff/startsAsTIFF``): it
  /// may hold many pages.
  package static func isTIFF(_ path: String) -> Bool { sniff(path).startsAsTIFF }

  /// The first four bytes of a TIFF: `II*\0`, `MM\0*`, and BigTIFF's
  /// `II+\0`, `MM\0+`.
  package static let tiffSignatures: [[UInt8]] = [
    [0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2B, 0], [0x4D, 0x4D, 0, 0x2B],
  ]

  /// Calls `body` with a path to the file's bytes: `path` itself, or for
  /// standard input a private temporary file (removed afterwards), for
  /// readers that take only a path (Leptonica passes a JPEG file's bytes
  /// into a PDF from its path). Errors name `-`, not the temporary file.
  package static func withFile<T>(_ path: String, _ body: (String) throws -> T) throws -> T {
    guard isStream(path) else { return try body(path) }
    let data = try read(path)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scantext-stdin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    // Named as the input is, so that a page's `image` is the same.
    let name = isStandardInput(path) ? standardInput : URL(fileURLWithPath: path).lastPathComponent
    let file = folder.appendingPathComponent(name)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      try data.write(to: file)
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw ServiceError.inputUnreadable(
        path: path,
        reason: "cannot keep the stream's bytes in a temporary file: \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      return try body(file.path)
    } catch {
      throw ServiceError(String(describing: error).replacingOccurrences(of: file.path, with: path))
    }
  }

  /// Whether `path` is a document rather than an image or a PDF.
  package static func isDocument(_ path: String) -> Bool { kind(path) == .document }
}

/// Standard input read to its end into a temporary file that has no name
/// (removed from its folder as soon as it is made, so nothing is left
/// behind however the process ends), read back at any offset.
final class InputSpool: Sendable {
  private let descriptor: Int32
  /// The number of bytes.
  let count: Int

  /// Reads with `read` (standard input's blocks) to the end.
  /// - Throws: ``ServiceError`` when the input is empty or cannot be read,
  ///   or the temporary file cannot be made or written.
  init(_ read: (_ body: ([UInt8]) throws -> Void) throws -> String?) throws {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array("\(folder)/scantext-stdin-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      let made = mkstemp(base)
      if made >= 0 { _ = fcntl(made, F_SETFD, FD_CLOEXEC) }
      return made
    }
    guard made >= 0 else {
      throw ServiceError.temporaryFileUnusable(
        folder: folder, reason: String(cString: strerror(errno)).lowercased())
    }
    template.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { unlink(base) }
    }
    var written = 0
    do {
      let failure = try read { block in
        try block.withUnsafeBytes { bytes in
          var done = 0
          while done < bytes.count {
            let n = Glibc.write(made, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if n > 0 {
              done += n
            } else if n < 0 && errno == EINTR {
              continue
            } else {
              throw ServiceError.temporaryFileUnusable(
                folder: folder,
                reason: String(cString: strerror(n < 0 ? errno : ENOSPC)).lowercased())
            }
          }
        }
        written += block.count
      }
      if let failure {
        throw ServiceError.inputUnreadable(
          path: "-", reason: "cannot read standard input: \(failure)")
      }
      guard written > 0 else {
        throw ServiceError.inputUnreadable(path: "-", reason: "standard input is empty")
      }
    } catch {
      close(made)
      throw error
    }
    descriptor = made
    count = written
  }

  deinit { close(descriptor) }

  /// The `count` bytes at `offset`.
  /// - Throws: ``ServiceError`` when the file cannot be read.
  func read(offset: Int, count: Int) throws -> [UInt8] {
    let read = readFully(descriptor, offset: offset, count: count)
    if let code = read.error {
      throw ServiceError.inputUnreadable(
        path: "-", reason: "cannot read standard input back: \(String(cString: strerror(code)))")
    }
    return read.bytes
  }

  /// Calls `body` with the file's descriptor (it stays this spool's).
  func withDescriptor<T>(_ body: (Int32) throws -> T) rethrows -> T { try body(descriptor) }
}
