import CScanSignals
import Foundation
import ScanArguments
import ScanFormats

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command's output goes (`-o`, `convert`'s OUTPUT): standard
/// output, a stream it is written into, or a regular file written whole or
/// not at all.
///
/// - `-` and `/dev/stdout` are standard output (through ``CommandIO``, so a
///   failed write is reported as `cannot write to standard output`, exit 1);
///   `/dev/stdout` is taken as standard output itself rather than opened, so
///   it works in a pipe, on a socket and in a file opened for appending.
/// - A FIFO or a character device (`/dev/null`, a terminal) is opened and
///   written into, as the shell's `>` does; it is never replaced.
/// - A regular file is replaced atomically: the bytes go to a temporary file
///   in the same folder, renamed over the destination only once complete, so
///   a failure never leaves a partial file. A symbolic link is followed: its
///   target (which must be a regular file) is replaced and the link stays; a
///   link to nothing is refused, so that a link planted in a shared folder
///   cannot create a file elsewhere. A replaced file keeps its permission
///   bits.
/// - A directory, a socket or a block device is refused.
/// - An output that is one of the command's inputs (the same file, by device
///   and inode: through a link or another spelling too) is refused before
///   any work, so a scan is never replaced by its own recognition.
package enum OutputFile {
  /// Where the bytes go.
  private enum Target {
    case standardOutput
    /// A FIFO or character device at the path, opened and written into.
    case stream(String)
    /// The file standard error is open on (`2>> log` and `-o log`):
    /// written through that descriptor, as the shell opened it.
    case standardError
    /// A regular file to replace (the link's target for a link), with its
    /// permission bits when it exists.
    case file(path: String, mode: mode_t?)
  }

  /// Whether `path` names standard output.
  package static func isStandardOutput(_ path: String) -> Bool {
    path == "-" || path == "/dev/stdout"
  }

  /// Fails early, before any OCR, when `path` cannot be written or is one of
  /// `inputs` (paths as given; `-` and `nil` are skipped).
  package static func checkWritable(_ path: String, inputs: [String?] = []) throws {
    guard case .file = try target(path) else { return }
    try checkNotInput(path, inputs: inputs.compactMap { $0 })
  }

  /// Writes `text` to `path` (see ``OutputFile``).
  package static func write(_ text: String, to path: String, io: CommandIO = .standard) throws {
    try write(bytes: Array(text.utf8), to: path, io: io)
  }

  /// Writes `bytes` to `path` (see ``OutputFile``).
  package static func write(bytes: [UInt8], to path: String, io: CommandIO = .standard) throws {
    let output = OutputFile.Stream(path, io: io)
    try output.write(bytes: bytes)
    try output.commit()
  }

  /// An output written in pieces as they are made (a document page by
  /// page), to the same places and with the same care as
  /// ``write(bytes:to:io:)``: a regular file's bytes go to a temporary file
  /// beside it, renamed over it by ``commit()``; nothing replaces it when
  /// the writing is abandoned (``abandon()``, or the stream is released
  /// uncommitted). Nothing is opened before the first bytes, so an output
  /// FIFO waits for its reader only once there is something to read.
  final class Stream {
    private let path: String
    private let io: CommandIO
    private enum Sink {
      case standardOutput
      /// A descriptor written into (closed at the end when `owned`).
      case descriptor(Int32, owned: Bool)
      /// The temporary file for the regular file `target`.
      case file(descriptor: Int32, temporary: String, target: String, mode: mode_t?, slot: Int32)
    }
    private var sink: Sink?
    private var closed = false

    /// An output to `path` (`-` for standard output), opened on first use.
    init(_ path: String, io: CommandIO = .standard) {
      self.path = path
      self.io = io
    }

    deinit { abandon() }

    /// Writes `text` at the end of what was written.
    func write(_ text: String) throws {
      var text = text
      try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` at the end of what was written.
    func write(bytes: [UInt8]) throws {
      try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes `bytes` at the end of what was written.
    /// - Throws: ``ServiceError`` naming the output and the reason; for
    ///   standard output, ``BatchFailure`` (the run ends with `cannot write
    ///   to standard output`, as for any command).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
      guard !closed else {
        throw ServiceError.outputNotWritable(path: path, reason: "it was closed")
      }
      let sink = try opened()
      switch sink {
      case .standardOutput:
        io.write(bytes: Array(bytes))
        // Sent on its way now: a reader that went away (`| head`) stops
        // the work rather than letting it run to the end unread.
        if io.finishOutput() != nil { throw BatchFailure() }
      case .descriptor(let descriptor, _), .file(let descriptor, _, _, _, _):
        let code = writeAll(bytes, to: descriptor)
        if code != 0 {
          abandon()
          throw failure(path, code)
        }
      }
    }

    /// Ends the output: a regular file is renamed over the destination
    /// (created empty when nothing was written).
    func commit() throws {
      guard !closed else { return }
      let sink = try opened()
      closed = true
      switch sink {
      case .standardOutput:
        if io.finishOutput() != nil { throw BatchFailure() }
      case .descriptor(let descriptor, let owned):
        if owned, Glibc.close(descriptor) != 0 { throw failure(path, errno) }
      case .file(let descriptor, let temporary, let target, let mode, let slot):
        defer { scantext_temporary_unregister(slot) }
        var code: Int32 = 0
        if let mode, fchmod(descriptor, mode & 0o7777) != 0 { code = errno }
        if Glibc.close(descriptor) != 0 && code == 0 { code = errno }
        // The destination may have changed since it was checked: check
        // again just before replacing it.
        if code == 0 {
          do {
            guard case .file(let again, _) = try OutputFile.target(path), again == target else {
              throw ServiceError.outputNotWritable(
                path: path, reason: "it changed while it was written")
            }
          } catch {
            unlink(temporary)
            throw error
          }
        }
        if code == 0, rename(temporary, target) != 0 { code = errno }
        if code != 0 {
          unlink(temporary)
          throw failure(path, code)
        }
      }
    }

    /// Gives the output up: a temporary file is removed and the
    /// destination left as it was. Standard output and streams keep what
    /// reached them.
    func abandon() {
      guard !closed else { return }
      closed = true
      switch sink {
      case .descriptor(let descriptor, true): Glibc.close(descriptor)
      case .file(let descriptor, let temporary, _, _, let slot):
        Glibc.close(descriptor)
        unlink(temporary)
        scantext_temporary_unregister(slot)
      default: break
      }
    }

    /// The sink, opened on first use.
    private func opened() throws -> Sink {
      if let sink { return sink }
      let made: Sink
      switch try OutputFile.target(path) {
      case .standardOutput: made = .standardOutput
      case .stream(let stream):
        let descriptor = open(stream, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        made = .descriptor(descriptor, owned: true)
      case .standardError: made = .descriptor(STDERR_FILENO, owned: false)
      case .file(let target, let mode):
        let url = URL(fileURLWithPath: target)
        let temporary =
          url.deletingLastPathComponent().appendingPathComponent(
            OutputFile.temporaryName(
              for: url.lastPathComponent, process: getpid(),
              number: UInt32.random(in: 0...UInt32.max))
          ).path
        // Removed if the process is interrupted before the rename
        // (registered before it exists: a signal in between finds nothing
        // to remove).
        let slot = scantext_temporary_register(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
          let code = errno
          scantext_temporary_unregister(slot)
          throw failure(path, code)
        }
        made = .file(
          descriptor: descriptor, temporary: temporary, target: target, mode: mode, slot: slot)
      }
      sink = made
      return made
    }
  }

  /// The longest file name a folder holds, in bytes (`NAME_MAX` on Linux).
  static let maxNameBytes = 255

  /// The name of the temporary file an output named `name` is written to
  /// before it is renamed: `.NAME.PID.N.tmp`, hidden, in the output's own
  /// folder. When that would be longer than ``maxNameBytes`` (a name near
  /// the limit, which is legal), `NAME` is cut to fit (at a character
  /// boundary) and the FNV-1a hash of the whole name added, so that two
  /// long names with one beginning still have temporary names of their own.
  /// - Complexity: O(*n*) in the name's length.
  package static func temporaryName(for name: String, process: Int32, number: UInt32) -> String {
    let tail = ".\(process).\(number).tmp"
    let whole = "." + name + tail
    guard whole.utf8.count > maxNameBytes else { return whole }
    let hash = "~" + String(BatchPlan.fnv1a(name), radix: 16)
    let room = maxNameBytes - 1 - hash.utf8.count - tail.utf8.count
    var kept = ""
    var used = 0
    for scalar in name.unicodeScalars {
      let size = String(scalar).utf8.count
      guard used + size <= room else { break }
      kept.unicodeScalars.append(scalar)
      used += size
    }
    return "." + kept + hash + tail
  }

  /// Whether a write failure is the file system's (full, over quota,
  /// read-only, failing) rather than one output's: every later output in
  /// the same place would fail the same way.
  package static func failsEveryOutput(_ error: any Error) -> Bool {
    guard case .outputNotWritable(_, let reason)? = error as? ServiceError else { return false }
    return [ENOSPC, EDQUOT, EROFS, EIO].contains { reason == message(for: $0) }
  }

  /// Writes every byte to `descriptor`; the error number, or 0.
  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var done = 0
    while done < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
      if written > 0 {
        done += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return written < 0 ? errno : ENOSPC
      }
    }
    return 0
  }

  /// What writing to `path` does.
  private static func target(_ path: String) throws -> Target {
    if isStandardOutput(path) { return .standardOutput }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw failure(path, errno) }
      try checkFolder(of: path, for: path)
      return .file(path: path, mode: nil)
    }
    var target = path
    if info.st_mode & S_IFMT == S_IFLNK {
      guard stat(path, &info) == 0 else {
        guard errno == ENOENT else { throw failure(path, errno) }
        throw ServiceError.outputNotWritable(
          path: path, reason: "it is a symbolic link to a missing file")
      }
      // A stream is opened through the link (`/dev/stderr` to a pipe has no
      // name of its own); a file is replaced where the link points.
      if info.st_mode & S_IFMT == S_IFREG {
        guard let resolved = realpath(path, nil) else { throw failure(path, errno) }
        target = String(cString: resolved)
        free(resolved)
      }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      // The file standard output or standard error is open on
      // (`>> app.log` with `-o app.log`, or `/dev/stdout` resolved): the
      // shell opened it, in append mode perhaps, and replacing it would
      // lose what it held. Written through the descriptor instead.
      for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
        var open = stat()
        if fstat(descriptor, &open) == 0, open.st_mode & S_IFMT == S_IFREG,
          open.st_dev == info.st_dev, open.st_ino == info.st_ino
        {
          return descriptor == STDOUT_FILENO ? .standardOutput : .standardError
        }
      }
      try checkFolder(of: target, for: path)
      return .file(path: target, mode: info.st_mode)
    case S_IFCHR, S_IFIFO:
      guard access(path, W_OK) == 0 else { throw failure(path, errno) }
      return .stream(path)
    case S_IFDIR: throw refused(path, "a directory")
    case S_IFBLK: throw refused(path, "a block device")
    case S_IFSOCK: throw refused(path, "a socket")
    default: throw refused(path, "not a regular file")
    }
  }

  /// Refuses an output that is one of the inputs: the same file by device
  /// and inode, whatever the spelling.
  private static func checkNotInput(_ path: String, inputs: [String]) throws {
    guard let output = FileIdentity(path) else { return }
    for input in inputs where !InputFiles.isStandardInput(input) {
      if FileIdentity(input) == output { throw replacesInput(path, input) }
    }
  }

  /// The error for an output `path` that is the input `input`.
  package static func replacesInput(_ path: String, _ input: String) -> ServiceError {
    .outputNotWritable(path: path, reason: "it is the input '\(input)', which it would replace")
  }

  /// The folder must exist and be writable (a temporary file is made there).
  private static func checkFolder(of file: String, for path: String) throws {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    var info = stat()
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw ServiceError.outputNotWritable(path: path, reason: "no such directory '\(folder)'")
    }
    guard access(folder, W_OK) == 0 else { throw failure(path, errno) }
  }

  private static func refused(_ path: String, _ what: String) -> ServiceError {
    .outputNotWritable(
      path: path,
      reason:
        "it is \(what); only a regular file is replaced (a FIFO or character device is written into)"
    )
  }

  /// A message naming the reason: "read-only file system", "permission
  /// denied", "no space left on device".
  private static func failure(_ path: String, _ code: Int32) -> ServiceError {
    .outputNotWritable(path: path, reason: message(for: code))
  }

  /// The reason an error number gives, as ``failure(_:_:)`` words it.
  private static func message(for code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
  }
}

/// A file's identity: its device and inode, the same through a hard link,
/// a symbolic link or another spelling of its path.
package struct FileIdentity: Hashable, Sendable {
  package var device: UInt64
  package var inode: UInt64

  /// The identity of the file `path` leads to (symbolic links followed);
  /// `nil` when there is none.
  package init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// The identity `info` gives.
  package init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}

/// `scantext ocr IN OUT`, OCRmyPDF's form.
extension OutputFile {
  /// The output OCRmyPDF's form `ocr IN OUT` names, `nil` when the
  /// positionals are all inputs: exactly two, no `-o` or `--output-dir`,
  /// the first not a folder, the second named for an output format (by its
  /// ending) and not there yet or a regular file, but not a model ScanText
  /// reads (`ocr a.json b.json` reads two models, and never replaces one).
  /// - Throws: ``ScanArguments/ValidationError`` with the `-o` hint when
  ///   two positionals end with one named for a format `ocr` cannot read
  ///   (`.txt`, `.html`; not `.pdf` or a model) but the form does not
  ///   apply.
  package static func outputNamedLast(_ paths: [String], output: String?, outputDir: String?) throws
    -> String?
  {
    guard paths.count == 2, let first = paths.first, let last = paths.last,
      let format = FileFormat(fileName: last)
    else { return nil }
    var info = stat()
    let lastExists = stat(last, &info) == 0
    let isInput =
      format.isReadable || BatchPlan.endings.contains((last as NSString).pathExtension.lowercased())
    var isFolder: ObjCBool = false
    let firstIsFolder =
      FileManager.default.fileExists(atPath: first, isDirectory: &isFolder) && isFolder.boolValue
    // A PDF or text file there is replaced (as OCRmyPDF replaces its
    // output); a model there is an input.
    let replaceable = !lastExists || (info.st_mode & S_IFMT == S_IFREG && !format.isReadable)
    if output == nil, outputDir == nil, !firstIsFolder, replaceable { return last }
    guard !isInput else { return nil }
    throw ValidationError(
      "'\(last.escapingControlCharacters)' is named for an output, not an input: write the output with -o ('scantext ocr \(first.escapingControlCharacters) -o \(last.escapingControlCharacters)')"
    )
  }
}
