import Foundation

/// Writes a whole file or nothing: the text goes to a temporary file in the
/// same folder, which is renamed over the destination only once complete.
enum OutputFile {
  /// Fails early, before any OCR, when `path`'s folder does not exist or
  /// cannot be written.
  static func checkWritable(_ path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw CLIError("\(path): cannot write the output: it is a directory")
    }
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw CLIError("\(path): cannot write the output: no such directory '\(folder)'") }
    guard FileManager.default.isWritableFile(atPath: folder) else {
      throw CLIError("\(path): cannot write the output: permission denied")
    }
  }

  /// Writes `text` to `path` atomically.
  static func write(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
    )
    do {
      try Data(text.utf8).write(to: temporary)
      // rename(2) replaces an existing file atomically.
      guard rename(temporary.path, path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(at: temporary)
        throw CLIError("\(path): cannot write the output (\(reason))")
      }
    } catch let error as CLIError {
      throw error
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw CLIError("\(path): cannot write the output (\(Self.reason(error)))")
    }
  }

  private static func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
      let posix = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(posix.rawValue))
    }
    return ns.localizedDescription
  }
}
