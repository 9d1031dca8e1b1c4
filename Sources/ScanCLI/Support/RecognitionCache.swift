import Foundation
import ScanFormats
import ScanModel
import ScanOCR

/// A folder of recognised pages, keyed by everything that decides them: the
/// image bytes, the recognition options, the Tesseract version and the
/// traineddata files, and this tool's version and program file.
///
/// Entries are written to a temporary file and renamed into place, so
/// processes sharing the folder never see half an entry; each entry starts
/// with a checksum of its contents, so a damaged one is deleted and
/// recomputed, never served. The folder is kept under a size limit by
/// deleting the entries used least recently.
struct RecognitionCache: Sendable {
  let folder: URL
  let limitBytes: Int

  static let defaultLimitBytes = 256 * 1024 * 1024
  private static let magic = "scantext-cache-1"

  /// `$XDG_CACHE_HOME/scantext`, else `~/.cache/scantext`; `nil` when
  /// neither can be found or created.
  static func standard(limitBytes: Int = defaultLimitBytes) -> RecognitionCache? {
    let environment = ProcessInfo.processInfo.environment
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg)
    } else if let home = environment["HOME"], !home.isEmpty {
      base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
    } else {
      return nil
    }
    let folder = base.appendingPathComponent("scantext")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      return nil
    }
    return RecognitionCache(folder: folder, limitBytes: limitBytes)
  }

  /// The running program's file: its path, size and modification time. A
  /// rebuilt or upgraded `scantext` (whose recognition may differ: new
  /// repair rules, roles, preprocessing) never reads an older build's
  /// entries, even when the version number did not change.
  static let programIdentity = identity(ofProgram: Bundle.main.executableURL)

  /// A program file's identity in cache keys (its path, size and
  /// modification time); a test fills the cache of the `scantext` it runs.
  static func identity(ofProgram url: URL?) -> String {
    guard let path = url?.resolvingSymlinksInPath().path,
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    else { return "program unknown" }
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "program \(path) \(size) \(modified)"
  }

  /// The key of an image recognised with `options`.
  static func key(
    imageData: Data, options: RecognitionOptions, extra: String = "",
    program: String = programIdentity
  ) -> String {
    var hash = SHA256()
    let settings = [
      "scantext \(ScanText.version)", program, OCREngine.fingerprint(of: options),
      "languages \(options.languageString)", "psm \(options.pageSegmentation.rawValue)",
      "dpi \(options.dpi.map(String.init) ?? "-")",
      "preprocessing \(options.preprocessing.rawValue)", "layout \(options.layout.rawValue)",
      extra,
    ].joined(separator: "\n")
    hash.update(Array(settings.utf8))
    hash.update([0])
    imageData.withUnsafeBytes { hash.update($0) }
    return SHA256.hex(digest: hash.finalize())
  }

  private func entry(_ key: String) -> URL { folder.appendingPathComponent(key + ".json") }

  /// The cached pages, renamed to `image`, or `nil` when there is no valid entry.
  func pages(for key: String, image: String) -> [Page]? {
    let url = entry(key)
    guard let data = FileManager.default.contents(atPath: url.path),
      let newline = data.firstIndex(of: 0x0A)
    else { return nil }
    let header = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
    let body = data[(newline + 1)...]
    guard header.count == 2, header[0] == Self.magic, header[1] == SHA256.hex(body),
      let document = try? DocumentJSON.decode(String(decoding: body, as: UTF8.self))
    else {
      // Damaged or from another format: never serve it.
      try? FileManager.default.removeItem(at: url)
      return nil
    }
    // Mark it recently used.
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    return document.pages.map { $0.withImage(image) }
  }

  /// Stores pages; failures are ignored (the cache is an optimisation).
  func store(_ pages: [Page], key: String) {
    let json = DocumentJSON.value(of: Document(pages: pages), generator: ScanText.generator)
      .serialized()
    let body = Data(json.utf8)
    var data = Data("\(Self.magic) \(SHA256.hex(body))\n".utf8)
    data.append(body)
    let temporary = folder.appendingPathComponent(
      ".\(key).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
    )
    do {
      try data.write(to: temporary)
      guard rename(temporary.path, entry(key).path) == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        return
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      return
    }
    // Listing the folder costs more as it grows: check the size after one
    // store in sixteen (keys are uniform hex digests), which bounds the
    // overshoot to a few entries.
    if key.hasPrefix("0") || key.count < 64 { trim() }
  }

  /// Deletes the least recently used entries until the folder is at most
  /// 80 % of the limit (only when it is over the limit).
  func trim() {
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
    guard
      let files = try? FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: keys)
    else { return }
    var entries = files.filter { $0.pathExtension == "json" }.compactMap {
      url -> (URL, Int, Date)? in
      guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
      return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
    }
    var total = entries.reduce(0) { $0 + $1.1 }
    guard total > limitBytes else { return }
    entries.sort { $0.2 < $1.2 }
    for (url, size, _) in entries where total > limitBytes * 8 / 10 {
      try? FileManager.default.removeItem(at: url)
      total -= size
    }
  }
}
