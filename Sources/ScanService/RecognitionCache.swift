import Foundation
import ScanFormats
import ScanModel
import ScanOCR

/// A folder of recognised pages, keyed by everything that decides them: the
/// image bytes, the recognition options, the Tesseract version and the
/// traineddata files, and this tool's version and program file.
///
/// Entries are written to a temporary file and renamed into place, so
/// processes sharing the folder never see half an entry. Each entry starts
/// with its key, the SHA-256 of the image it was recognised from and a
/// checksum of its contents, all checked before it is served: a damaged
/// entry, or another image's entry copied over this one, is deleted and
/// recomputed, never served. Entries are readable by their owner only
/// (0600, in a 0700 folder). The folder is kept under a size limit by
/// deleting the entries used least recently.
package struct RecognitionCache: Sendable {
  package let folder: URL
  package let limitBytes: Int

  package static let defaultLimitBytes = 256 * 1024 * 1024
  /// The entries' format: entries of another (`scantext-cache-2`, JSON
  /// text uncompressed) are a miss, deleted and replaced.
  private static let magic = "scantext-cache-3"

  /// An entry's name, and the image it holds the recognition of.
  package struct Key: Sendable, Hashable {
    /// The entry's name: the SHA-256 (hex) of the settings and the image's
    /// digest.
    package var name: String
    /// The SHA-256 (hex) of the image file's bytes.
    package var imageDigest: String
  }

  /// `$XDG_CACHE_HOME/scantext`, else `~/.cache/scantext`; `nil` when
  /// neither is set. The folder is made when the first entry is stored
  /// (``store(_:key:)``): a run that stores nothing (`--help`, a usage
  /// error, a model read from JSON) leaves no folder behind.
  package static func standard(limitBytes: Int = defaultLimitBytes) -> RecognitionCache? {
    let environment = ProcessInfo.processInfo.environment
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg)
    } else if let home = environment["HOME"], !home.isEmpty {
      base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
    } else {
      return nil
    }
    return RecognitionCache(
      folder: base.appendingPathComponent("scantext"), limitBytes: limitBytes)
  }

  /// Makes the folder (0700) if it is missing; `false` when it cannot be
  /// made. A folder made by an older version (or by hand) is closed to
  /// others too; one that is not ours is left alone (chmod fails).
  private func makeFolder() -> Bool {
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      return false
    }
    _ = chmod(folder.path, 0o700)
    return true
  }

  /// The running program's file: its path, size and modification time. A
  /// rebuilt or upgraded `scantext` (whose recognition may differ: new
  /// repair rules, roles, preprocessing) never reads an older build's
  /// entries, even when the version number did not change.
  package static let programIdentity = identity(ofProgram: Bundle.main.executableURL)

  /// A program file's identity in cache keys (its path, size and
  /// modification time); a test fills the cache of the `scantext` it runs.
  package static func identity(ofProgram url: URL?) -> String {
    guard let path = url?.resolvingSymlinksInPath().path,
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    else { return "program unknown" }
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "program \(path) \(size) \(modified)"
  }

  /// The key of an image recognised with `options`.
  package static func key(
    imageData: Data, options: RecognitionOptions, extra: String = "",
    program: String = programIdentity
  ) -> Key {
    key(imageDigest: Input.digest(of: imageData), options: options, extra: extra, program: program)
  }

  /// The key of an image whose bytes have the SHA-256 `imageDigest`
  /// (a PDF's pages share the file's digest, `extra` names the page).
  package static func key(
    imageDigest: [UInt8], options: RecognitionOptions, extra: String = "",
    program: String = programIdentity
  ) -> Key {
    var hash = SHA256()
    // Figures named only when found (the default), so that the keys of
    // `--no-figures` stay those of before they were found.
    let settings =
      [
        "scantext \(ToolIdentity.version)", program, OCREngine.fingerprint(of: options),
        "languages \(options.languageString)", "psm \(options.pageSegmentation.rawValue)",
        "dpi \(options.dpi.map(String.init) ?? "-")",
        "preprocessing \(options.preprocessing.sortedNames.joined(separator: ","))",
        "layout \(options.layout.rawValue)",
      ] + (options.findsFigures ? ["figures"] : [])
      // Named only when a page may be read in parts, so that the keys of
      // pages read whole stay those of before.
      + (options.pageThreads > 1 ? ["page threads \(options.pageThreads)"] : [])
      // Named only when asked for, so that the keys without it stay.
      + (options.secondLook ? ["second look"] : []) + [extra]
    let joined = settings.joined(separator: "\n")
    hash.update(Array(joined.utf8))
    hash.update([0])
    let digest = SHA256.hex(digest: imageDigest)
    hash.update(Array(digest.utf8))
    return Key(name: SHA256.hex(digest: hash.finalize()), imageDigest: digest)
  }

  /// An entry's file. Still named `.json`, as entries of the format before
  /// were: those are found under the same names, trimmed and replaced.
  private func entry(_ key: String) -> URL { folder.appendingPathComponent(key + ".json") }

  /// The most bytes an entry uncompresses to (a damaged size is refused
  /// before anything is uncompressed).
  private static let maxBodyBytes = 1 << 30

  /// What an entry gives back: its pages, and the text of each as the JSON
  /// output writes it (``ScanFormats/DocumentJSON/PageText``), so that a
  /// cached page goes out as JSON without being encoded again.
  package struct Hit: Sendable {
    package var pages: [Page]
    package var texts: [DocumentJSON.PageText]
  }

  /// The cached pages, renamed to `image`, or `nil` when there is no valid
  /// entry (see ``hit(for:image:)``).
  package func pages(for key: Key, image: String) -> [Page]? {
    hit(for: key, image: image)?.pages
  }

  /// The cached pages, renamed to `image`, with their JSON text, or `nil`
  /// when there is no valid entry: none, a damaged one, one that is not
  /// this key's (its recorded key or image digest differ), or one of an
  /// older format: those are deleted.
  ///
  /// An entry is a header line (`scantext-cache-3`, the key, the image's
  /// digest, the SHA-256 of the rest and the size of the rest
  /// uncompressed), then, compressed with zlib (``store(_:key:)``), a line
  /// that places each page's text in the document that follows, and the
  /// document of the pages as the JSON output writes it. The document is
  /// read the one way a document is read (``DocumentFiles/decode(_:as:path:)``),
  /// and each page's text is checked against the page read.
  package func hit(for key: Key, image: String) -> Hit? {
    let url = entry(key.name)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    guard let hit = Self.read(data, key: key, path: url.path) else {
      // Damaged, another entry's, or from another format: never serve it.
      try? FileManager.default.removeItem(at: url)
      return nil
    }
    // Mark it recently used.
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    return Hit(pages: hit.pages.map { $0.withImage(image) }, texts: hit.texts)
  }

  /// An entry's pages and texts, when it is a whole entry of `key`.
  private static func read(_ data: Data, key: Key, path: String) -> Hit? {
    guard let newline = data.firstIndex(of: 0x0A) else { return nil }
    let header = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
    let compressed = data[(newline + 1)...]
    guard header.count == 5, header[0] == magic, header[1] == key.name,
      header[2] == key.imageDigest, header[3] == SHA256.hex(compressed),
      let size = Int(header[4]), (0...maxBodyBytes).contains(size),
      let body = Deflate.inflated(Data(compressed), limit: size), body.count == size,
      let tableEnd = body.firstIndex(of: 0x0A)
    else { return nil }
    // Each page: where its text starts in the document, its length, and
    // the places of `image` and `index` in it.
    let table = String(decoding: body[..<tableEnd], as: UTF8.self).split(separator: " ")
      .compactMap { Int($0) }
    let document = body[(tableEnd + 1)...]
    guard table.count % 6 == 0,
      let pages = try? DocumentFiles.decode(document, as: .json, path: path).pages,
      pages.count * 6 == table.count
    else { return nil }
    var texts: [DocumentJSON.PageText] = []
    for (n, page) in pages.enumerated() {
      let t = Array(table[(6 * n)..<(6 * n + 6)])
      guard t[0] >= 0, t[1] >= 0, t[0] + t[1] <= document.count else { return nil }
      let start = document.startIndex + t[0]
      guard
        let text = DocumentJSON.PageText(
          text: String(decoding: document[start..<(start + t[1])], as: UTF8.self),
          image: t[2]..<t[3], index: t[4]..<t[5], of: page)
      else { return nil }
      texts.append(text)
    }
    return Hit(pages: pages, texts: texts)
  }

  /// Encodes pages, stores them, and returns their JSON text (the one
  /// encoding of a recognised page: the JSON output writes it as it is).
  /// Storing fails silently (the cache is an optimisation).
  ///
  /// The entry is compressed with zlib at level 1, its fastest: on the
  /// real scans' pages, 123 kB a page against 796 kB of text (and 326 kB
  /// for the compact entry before), for 7.5 ms of CPU; level 6 would save
  /// a quarter more (README, "Speed").
  @discardableResult
  package func store(_ pages: [Page], key: Key) -> [DocumentJSON.PageText] {
    let texts = pages.map(DocumentJSON.PageText.init)
    var writer = DocumentWriter(format: .json, generator: ToolIdentity.generator)
    var document = writer.head()
    var table: [String] = []
    for (page, text) in zip(pages, texts) {
      guard let item = try? writer.page(page, encoded: text) else { return texts }
      // The page's text ends its item (after the separator).
      let start = document.utf8.count + item.utf8.count - text.text.utf8.count
      document += item
      table += [
        start, text.text.utf8.count, text.image.lowerBound, text.image.upperBound,
        text.index.lowerBound, text.index.upperBound,
      ].map(String.init)
    }
    document += writer.tail()
    let body = Data((table.joined(separator: " ") + "\n" + document).utf8)
    guard let compressed = Deflate.compress(body, level: 1) else { return texts }
    var data = Data(
      "\(Self.magic) \(key.name) \(key.imageDigest) \(SHA256.hex(compressed)) \(body.count)\n"
        .utf8)
    data.append(compressed)
    put(data, key: key)
    return texts
  }

  /// Writes an entry's bytes into place (through a temporary file).
  private func put(_ data: Data, key: Key) {
    let temporary = folder.appendingPathComponent(
      ".\(key.name).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
    ).path
    // Readable by its owner only, from the moment it exists.
    var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor < 0 && errno == ENOENT && makeFolder() {
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }
    guard descriptor >= 0 else { return }
    var complete = true
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count, let base = raw.baseAddress {
        let n = write(descriptor, base + offset, raw.count - offset)
        if n > 0 {
          offset += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          complete = false
          break
        }
      }
    }
    if close(descriptor) != 0 { complete = false }
    guard complete, rename(temporary, entry(key.name).path) == 0 else {
      unlink(temporary)
      return
    }
    // Listing the folder costs more as it grows: check the size after one
    // store in sixteen (keys are uniform hex digests), which bounds the
    // overshoot to a few entries.
    if key.name.hasPrefix("0") || key.name.count < 64 { trim() }
  }

  /// Deletes the least recently used entries until the folder is at most
  /// 80 % of the limit (only when it is over the limit).
  package func trim() {
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
