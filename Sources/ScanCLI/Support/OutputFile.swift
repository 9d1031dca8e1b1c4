import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a whole file or nothing: the text goes to a temporary file in the
/// same folder, which is renamed over the destination only once complete.
///
/// Only a regular file is ever replaced, or a new one created. A directory,
/// device, FIFO or socket at the path is refused. A symbolic link is
/// followed: its target (which must be a regular file) is replaced
/// atomically and the link stays as it is; a link to nothing is refused,
/// so that a link planted in a shared folder cannot create a file elsewhere.
/// A replaced file keeps its permission bits.
enum OutputFile {
  /// Fails early, before any OCR, when `path` cannot be written.
  static func checkWritable(_ path: String) throws {
    _ = try destination(path)
  }

  /// Writes `text` to `path` atomically.
  static func write(_ text: String, to path: String) throws {
    try write(bytes: Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path` atomically.
  static func write(bytes: [UInt8], to path: String) throws {
    let target = try destination(path)
    let url = URL(fileURLWithPath: target.path)
    let temporary =
      url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
      ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw failure(path, errno) }
    var code: Int32 = 0
    var bytes = bytes[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        code = written < 0 ? errno : ENOSPC
        break
      }
    }
    if code == 0, let mode = target.mode, fchmod(descriptor, mode & 0o7777) != 0 { code = errno }
    if close(descriptor) != 0 && code == 0 { code = errno }
    // The destination may have changed since it was checked: check again
    // just before replacing it.
    if code == 0 {
      do {
        _ = try destination(path)
      } catch {
        unlink(temporary)
        throw error
      }
    }
    if code == 0, rename(temporary, target.path) != 0 { code = errno }
    if code != 0 {
      unlink(temporary)
      throw failure(path, code)
    }
  }

  /// The file to replace for `path`, and its permission bits when it exists.
  private static func destination(_ path: String) throws -> (path: String, mode: mode_t?) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw failure(path, errno) }
      try checkFolder(of: path, for: path)
      return (path, nil)
    }
    var target = path
    if info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(path, nil) else {
        throw CLIError(
          "\(path): cannot write the output: it is a symbolic link to a missing file")
      }
      target = String(cString: resolved)
      free(resolved)
      guard stat(target, &info) == 0 else { throw failure(path, errno) }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      try checkFolder(of: target, for: path)
      return (target, info.st_mode)
    case S_IFDIR: throw refused(path, "a directory")
    case S_IFCHR, S_IFBLK: throw refused(path, "a device")
    case S_IFIFO: throw refused(path, "a FIFO")
    case S_IFSOCK: throw refused(path, "a socket")
    default: throw refused(path, "not a regular file")
    }
  }

  /// The folder must exist and be writable (a temporary file is made there).
  private static func checkFolder(of file: String, for path: String) throws {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    var info = stat()
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw CLIError("\(path): cannot write the output: no such directory '\(folder)'")
    }
    guard access(folder, W_OK) == 0 else { throw failure(path, errno) }
  }

  private static func refused(_ path: String, _ what: String) -> CLIError {
    CLIError("\(path): cannot write the output: it is \(what); only a regular file is replaced")
  }

  /// A message naming the reason: "read-only file system", "permission
  /// denied", "no space left on device".
  private static func failure(_ path: String, _ code: Int32) -> CLIError {
    CLIError("\(path): cannot write the output: \(String(cString: strerror(code)).lowercased())")
  }
}
