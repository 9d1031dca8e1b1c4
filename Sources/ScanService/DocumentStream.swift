import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

#if canImport(Glibc)
  import Glibc
#endif

/// Where `ocr` writes pages as they are read, in order
/// (``DocumentStream``: any format of the registry).
protocol PageOutput: AnyObject {
  /// The number of pages written.
  var pageCount: Int { get }
  /// Writes the next page, read from page `source.page` (from 0) of the
  /// file `source.path`.
  func write(_ page: Page, from source: (path: String, page: Int)) throws
  /// Writes what follows the last page and ends the output.
  func finish() throws
  /// Gives the output up: a file being written is removed, the destination
  /// left as it was.
  func abandon()
}

/// A document written to an output page by page as pages are read,
/// through its format's ``ScanFormats/PageWriter`` (the registry,
/// ``ScanFormats/FileFormat``) into an ``OutputFile/Stream``, so that
/// memory holds a page at a time whatever the document's length: every
/// format `ocr` writes (the searchable PDF of images included) and `html`'s
/// accessible HTML.
///
/// Nothing reaches the output before the first page: a run whose every
/// input fails writes nothing. A head that depends on every page (ALTO's,
/// the accessible HTML's) is written once the last page is read: the pages
/// wait in an unnamed temporary file until then.
package final class DocumentStream: PageOutput {
  private var writer: any PageWriter
  private let format: FileFormat
  private let images: (any PageImageSource)?
  private let outputPath: String
  private let output: OutputFile.Stream
  /// Where the pages wait for a head written last.
  private var spool: Spool?
  /// The pages waiting for their neighbours, when running heads and feet
  /// are told by repetition (``ScanModel/RunningFurniture``).
  private var window: RunningFurniture.Window<PageOrigin>?
  /// The pages taken, written or waiting in ``window``.
  private var taken = 0

  /// The number of pages taken (written, or waiting for the pages after
  /// them when running heads and feet are told by repetition).
  package var pageCount: Int { window == nil ? writer.pageCount : taken }

  /// A document in `format` to `path` (`-` for standard output), its page
  /// images (for a format that needs them) from `images`.
  /// With `runningFurniture`, each page waits for the
  /// ``ScanModel/RunningFurniture/reach`` pages after it and is written
  /// with the running heads and feet it repeats from its neighbours
  /// (`.reading`: put in reading order again after a change; `.tesseract`:
  /// kept in the engine's order).
  /// - Throws: ``ServiceError`` when the writer cannot start (the
  ///   searchable PDF's font is missing).
  package init(
    format: FileFormat, path: String, settings: WriterSettings,
    images: (any PageImageSource)? = nil, io: CommandIO = .standard,
    runningFurniture: PageLayoutOrder? = nil
  ) throws {
    do {
      writer = try format.makeWriter(settings)
    } catch {
      throw ServiceError.wrap(error)
    }
    self.format = format
    self.images = images
    outputPath = path
    output = OutputFile.Stream(path, io: io)
    if let runningFurniture {
      window = RunningFurniture.Window(reorder: runningFurniture == .reading)
    }
  }

  /// Writes the next page, numbered after those written, read from page
  /// `source.page` (from 0) of the file `source.path`.
  /// - Throws: ``ServiceError`` when the output cannot be written, the
  ///   page's image cannot be read, or the format cannot hold the page (a
  ///   second page of PAGE XML); the output is then left as it was.
  package func write(_ page: Page, from source: (path: String, page: Int)) throws {
    try write(
      page.withIndex(pageCount),
      from: PageOrigin(path: source.path, page: source.page, number: pageCount + 1))
  }

  /// Writes the next page, read from `origin` (once the pages after it
  /// have come, when running heads and feet are told by repetition).
  package func write(_ page: Page, from origin: PageOrigin) throws {
    guard window != nil else { return try writeNow(page, from: origin) }
    taken += 1
    try writeDecided(window?.append(page, origin) ?? [])
  }

  /// Writes pages the window has decided.
  private func writeDecided(_ pages: [(page: Page, payload: PageOrigin, changed: Bool)]) throws {
    for (page, origin, _) in pages { try writeNow(page, from: origin) }
  }

  private func writeNow(_ page: Page, from origin: PageOrigin) throws {
    let first = writer.pageCount == 0
    let bytes: Data
    do {
      bytes = try writer.page(page, from: origin, images: images)
    } catch {
      output.abandon()
      throw failure(error)
    }
    if writer.headIsKnownFirst {
      if first { try write(writer.headBytes()) }
      try write(bytes)
    } else {
      if spool == nil { spool = try Spool() }
      try spool?.write(bytes)
    }
  }

  /// Writes what follows the last page and ends the output.
  package func finish() throws {
    if window != nil {
      try writeDecided(window?.finish() ?? [])
    }
    do {
      let held = try writer.flush()
      if !held.isEmpty {
        if spool == nil { spool = try Spool() }
        try spool?.write(held)
      }
      // The head, unless written before the first page.
      if !writer.headIsKnownFirst || writer.pageCount == 0 { try write(writer.headBytes()) }
      if let spool { try spool.copy(to: output) }
      spool = nil
      try write(writer.tailBytes())
      try output.commit()
    } catch {
      output.abandon()
      throw failure(error)
    }
  }

  /// Gives the output up (see ``OutputFile/Stream/abandon()``).
  package func abandon() { output.abandon() }

  private func write(_ bytes: Data) throws {
    try bytes.withUnsafeBytes { try output.write($0) }
  }

  /// A writer's failure as the user reads it.
  private func failure(_ error: any Error) -> any Error {
    switch error {
    case let error as DocumentFormatError:
      return ServiceError.formatCannotHold(format: format.displayName, reason: "\(error)")
    case let error as SearchablePDF.WriteError:
      return ServiceError.pageNotWritten(path: outputPath, reason: error.description)
    case let error as OCRError:
      return ServiceError.recognitionFailed(error)
    default:
      return error
    }
  }
}

/// An unnamed temporary file (removed from its folder as soon as it is
/// made, so nothing is left behind however the process ends): text written
/// now and read back later.
/// The `count` bytes of a file at `offset`, read on through interruptions
/// and short reads: the bytes, or the `errno` that stopped the reading
/// (`EIO` when the file ends first). The spools' one reader.
/// - Complexity: O(`count`).
func readFully(_ descriptor: Int32, offset: Int, count: Int) -> (bytes: [UInt8], error: Int32?) {
  var bytes = [UInt8](repeating: 0, count: count)
  var done = 0
  while done < count {
    let got = bytes.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
    }
    if got < 0 && errno == EINTR { continue }
    guard got > 0 else { return (bytes, got < 0 ? errno : EIO) }
    done += got
  }
  return (bytes, nil)
}

final class Spool {
  private let descriptor: Int32

  init() throws {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array("\(folder)/scantext-spool-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard made >= 0 else {
      throw ServiceError.temporaryFileUnusable(
        folder: folder, reason: String(cString: strerror(errno)).lowercased())
    }
    descriptor = made
    template.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { unlink(base) }
    }
  }

  deinit { close(descriptor) }

  func write(_ text: String) throws {
    try write(Data(text.utf8))
  }

  func write(_ data: Data) throws {
    try data.withUnsafeBytes { bytes in
      var done = 0
      while done < bytes.count {
        let written = Glibc.write(
          descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if written > 0 {
          done += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          throw failure(written < 0 ? errno : ENOSPC)
        }
      }
    }
  }

  /// The `count` bytes written at `offset`.
  func read(offset: Int, count: Int) throws -> [UInt8] {
    let read = readFully(descriptor, offset: offset, count: count)
    if let code = read.error { throw failure(code) }
    return read.bytes
  }

  /// Hands each line written here to `body` (without its newline), a
  /// block read at a time.
  func eachLine(_ body: (Substring) throws -> Void) throws {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(errno) }
    var block = [UInt8](repeating: 0, count: 1 << 20)
    var partial: [UInt8] = []
    while true {
      let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw failure(errno) }
      guard count > 0 else { break }
      var start = 0
      for i in 0..<count where block[i] == UInt8(ascii: "\n") {
        partial += block[start..<i]
        try body(Substring(decoding: partial, as: UTF8.self))
        partial.removeAll(keepingCapacity: true)
        start = i + 1
      }
      partial += block[start..<count]
    }
    if !partial.isEmpty { try body(Substring(decoding: partial, as: UTF8.self)) }
  }

  /// Writes everything written here to `output`, a block at a time.
  func copy(to output: OutputFile.Stream) throws {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(errno) }
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw failure(errno) }
      guard count > 0 else { return }
      try block.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  private func failure(_ code: Int32) -> ServiceError {
    .temporaryFileUnusable(folder: nil, reason: String(cString: strerror(code)).lowercased())
  }
}

/// A command's standard output held back until the command has succeeded:
/// written to an unnamed temporary file as it is made (memory holds none
/// of it), and copied to standard output by ``release()``. When the
/// command fails it is never released, so a failure prints its error and
/// nothing else, as when every page was read before the first was printed.
package final class HeldOutput {
  private let io: CommandIO
  private var spool: Spool?

  /// Output for `io`'s standard output.
  package init(io: CommandIO) { self.io = io }

  /// Adds `text`.
  /// - Throws: ``ServiceError`` when the temporary file cannot be made or
  ///   written.
  package func write(_ text: String) throws {
    guard !text.isEmpty else { return }
    if spool == nil { spool = try Spool() }
    try spool?.write(text)
  }

  /// Adds `line` and a newline.
  package func print(_ line: String = "") throws { try write(line + "\n") }

  /// Writes what was added to standard output.
  /// - Throws: ``BatchFailure`` when standard output cannot be written
  ///   (the run ends with `cannot write to standard output`).
  package func release() throws {
    guard let spool else { return }
    let output = OutputFile.Stream("-", io: io)
    try spool.copy(to: output)
    try output.commit()
    self.spool = nil
  }
}
