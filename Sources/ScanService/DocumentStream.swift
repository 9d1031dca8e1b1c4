import Foundation
import ScanArguments
import ScanFormats
import ScanModel

#if canImport(Glibc)
  import Glibc
#endif

/// Where `ocr` writes pages as they are read, in order: a document format
/// (``DocumentStream``) or a searchable PDF of image files
/// (``SearchablePDFOutput/ImageStream``).
package protocol PageOutput: AnyObject {
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

/// A document written to an output page by page as pages are read
/// (``ScanFormats/DocumentWriter`` into an ``OutputFile/Stream``), so that
/// memory holds a page at a time whatever the document's length.
///
/// Nothing reaches the output before the first page: a run whose every
/// input fails writes nothing. ALTO's head, which lists what every page
/// uses, is written once the last page is read: its pages wait in an
/// unnamed temporary file until then.
package final class DocumentStream: PageOutput {
  private var writer: DocumentWriter
  private let output: OutputFile.Stream
  /// Where ALTO's pages wait for the head.
  private var spool: Spool?

  /// The number of pages written.
  package var pageCount: Int { writer.pageCount }

  /// A document in `format` to `path` (`-` for standard output).
  package init(format: DocumentFormat, path: String, io: CommandIO = .standard) {
    writer = DocumentWriter(format: format, generator: ToolIdentity.generator)
    output = OutputFile.Stream(path, io: io)
  }

  /// Writes the next page.
  /// - Throws: ``ServiceError`` when the output cannot be written or the format
  ///   cannot hold the page (a second page of PAGE XML); the output is then
  ///   left as it was.
  package func write(_ page: Page) throws {
    let first = writer.pageCount == 0
    let text: String
    do {
      text = try writer.page(page)
    } catch {
      output.abandon()
      throw ServiceError("cannot write \(writer.format.displayName): \(error)")
    }
    if writer.headIsKnownFirst {
      if first { try output.write(writer.head()) }
      try output.write(text)
    } else {
      if spool == nil { spool = try Spool() }
      try spool?.write(text)
    }
  }

  /// Writes the next page, numbered after those written.
  package func write(_ page: Page, from source: (path: String, page: Int)) throws {
    try write(page.withIndex(pageCount))
  }

  /// Writes what follows the last page and ends the output.
  package func finish() throws {
    // The head, unless written before the first page.
    if !writer.headIsKnownFirst || writer.pageCount == 0 { try output.write(writer.head()) }
    if let spool { try spool.copy(to: output) }
    spool = nil
    try output.write(writer.tail())
    try output.commit()
  }

  /// Gives the output up (see ``OutputFile/Stream/abandon()``).
  package func abandon() { output.abandon() }
}

/// An unnamed temporary file (removed from its folder as soon as it is
/// made, so nothing is left behind however the process ends): text written
/// now and read back later.
package final class Spool {
  private let descriptor: Int32

  package init() throws {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array("\(folder)/scantext-spool-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard made >= 0 else {
      throw ServiceError(
        "cannot make a temporary file in \(folder): \(String(cString: strerror(errno)).lowercased())"
      )
    }
    descriptor = made
    template.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { unlink(base) }
    }
  }

  deinit { close(descriptor) }

  package func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { bytes in
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

  /// Writes everything written here to `output`, a block at a time.
  package func copy(to output: OutputFile.Stream) throws {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(errno) }
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw failure(errno) }
      guard count > 0 else { return }
      try block.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  private func failure(_ code: Int32) -> ServiceError {
    ServiceError("cannot use a temporary file: \(String(cString: strerror(code)).lowercased())")
  }
}
