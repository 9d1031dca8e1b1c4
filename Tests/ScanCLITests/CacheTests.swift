import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

@Suite("Recognition cache")
struct CacheTests {
  let cache: RecognitionCache
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    cache = RecognitionCache(
      folder: try Fixtures.temporaryFolder(), limitBytes: RecognitionCache.defaultLimitBytes)
  }

  func entries() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: cache.folder.path).filter {
      $0.hasSuffix(".json")
    }
  }

  @Test func sha256MatchesKnownDigests() {
    #expect(
      SHA256.hex(Array("".utf8))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA256.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    var split = SHA256()
    million.withUnsafeBytes { split.update(UnsafeRawBufferPointer(rebasing: $0[0..<333])) }
    million.withUnsafeBytes { split.update(UnsafeRawBufferPointer(rebasing: $0[333...])) }
    #expect(SHA256.hex(digest: split.finalize()) == SHA256.hex(million))
  }

  @Test func aHitGivesBackTheSamePagesWithoutOCR() throws {
    let page = try RecognizedScans.page("clean.png")
    let data = try Data(contentsOf: URL(fileURLWithPath: clean))
    let key = RecognitionCache.key(imageData: data, options: RecognitionOptions())
    #expect(cache.pages(for: key, image: "clean.png") == nil)
    cache.store([page], key: key)
    #expect(cache.pages(for: key, image: "clean.png") == [page])
    // The same bytes under another name answer with that name.
    #expect(cache.pages(for: key, image: "copy.png")?.first?.image == "copy.png")
    #expect(try entries() == [key.name + ".json"])
  }

  @Test func keysChangeWithEverythingThatChangesTheResult() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: clean))
    var keys = Set<RecognitionCache.Key>()
    keys.insert(RecognitionCache.key(imageData: data, options: RecognitionOptions()))
    keys.insert(
      RecognitionCache.key(imageData: data, options: RecognitionOptions(languages: ["deu"])))
    keys.insert(
      RecognitionCache.key(
        imageData: data, options: RecognitionOptions(pageSegmentation: .singleBlock)))
    keys.insert(RecognitionCache.key(imageData: data, options: RecognitionOptions(dpi: 200)))
    keys.insert(
      RecognitionCache.key(imageData: data, options: RecognitionOptions(preprocessing: .none)))
    var other = data
    other[other.count - 20] ^= 1
    keys.insert(RecognitionCache.key(imageData: other, options: RecognitionOptions()))
    #expect(keys.count == 6)
    // The timeout and the pixel limit do not change a successful result.
    #expect(
      RecognitionCache.key(
        imageData: data, options: RecognitionOptions(maxPixels: 5_000_000, timeout: 9))
        == RecognitionCache.key(imageData: data, options: RecognitionOptions()))
  }

  /// A rebuilt program (new recognition rules, same version number) must not
  /// be served an older build's pages: the program file is part of the key.
  @Test func anotherBuildOfTheProgramNeverReadsThisBuildsEntries() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: clean))
    let identity = RecognitionCache.programIdentity
    let executable = try #require(Bundle.main.executableURL?.resolvingSymlinksInPath().path)
    #expect(identity.hasPrefix("program \(executable) "))
    let rebuilt = identity + "0"
    #expect(
      RecognitionCache.key(imageData: data, options: RecognitionOptions(), program: rebuilt)
        != RecognitionCache.key(imageData: data, options: RecognitionOptions()))
  }

  /// A key for an entry named `name` (the digest of no image in particular).
  func key(_ name: String) -> RecognitionCache.Key {
    RecognitionCache.Key(name: name, imageDigest: SHA256.hex(Array(name.utf8)))
  }

  @Test func aDamagedEntryIsNeverServed() throws {
    let page = try RecognizedScans.page("clean.png")
    cache.store([page], key: key("k"))
    let url = cache.folder.appendingPathComponent("k.json")
    let stored = try Data(contentsOf: url)
    let header = try #require(stored.firstIndex(of: 0x0A))
    // One bit of the compressed body, anywhere in it, makes a miss.
    for offset in [header + 1, (header + stored.count) / 2, stored.count - 1] {
      var bytes = stored
      bytes[offset] ^= 0x10
      try bytes.write(to: url)
      #expect(cache.pages(for: key("k"), image: "clean.png") == nil)
      #expect(try entries().isEmpty, "the damaged entry is deleted")
    }
    // A truncated entry likewise.
    try stored.prefix(stored.count / 2).write(to: url)
    #expect(cache.pages(for: key("k"), image: "clean.png") == nil)
    // A header whose size is not the body's.
    let text = String(decoding: stored[..<header], as: UTF8.self)
    let size = try #require(text.split(separator: " ").last)
    let wrongSize = try #require(Int(size)) + 1
    var resized = Data((text.dropLast(size.count) + "\(wrongSize)\n").utf8)
    resized.append(stored[(header + 1)...])
    try resized.write(to: url)
    #expect(cache.pages(for: key("k"), image: "clean.png") == nil)
    #expect(try entries().isEmpty)
  }

  /// Entries of the format before (`scantext-cache-2`: the document's
  /// compact JSON, uncompressed, after the same header) are a miss and are
  /// deleted, never misread.
  @Test func anOldFormatEntryIsAMiss() throws {
    let page = try RecognizedScans.page("clean.png")
    let body = Data(
      DocumentJSON.value(of: Document(pages: [page]), generator: ToolIdentity.generator)
        .serialized().utf8)
    let k = key("old")
    var data = Data("scantext-cache-2 \(k.name) \(k.imageDigest) \(SHA256.hex(body))\n".utf8)
    data.append(body)
    try FileManager.default.createDirectory(at: cache.folder, withIntermediateDirectories: true)
    try data.write(to: cache.folder.appendingPathComponent("old.json"))
    #expect(cache.pages(for: k, image: "clean.png") == nil)
    #expect(try entries().isEmpty, "the old entry is deleted")
    cache.store([page], key: k)
    #expect(cache.pages(for: k, image: "clean.png") == [page])
  }

  /// The JSON a hit gives back is the text a fresh encoding writes, with
  /// the page's name and place written from the page: renamed (the same
  /// image under another name) and renumbered (a later page of the output).
  @Test func aHitGivesBackThePagesJSONText() throws {
    let page = try RecognizedScans.page("clean.png")
    let texts = cache.store([page], key: key("text"))
    #expect(texts == [DocumentJSON.PageText(page)])
    let hit = try #require(cache.hit(for: key("text"), image: "copy.png"))
    #expect(hit.texts == texts)
    let renamed = try #require(hit.pages.first).withIndex(3)
    #expect(renamed.image == "copy.png")
    func json(_ pages: [Page], encoded: [DocumentJSON.PageText]?) throws -> String {
      var writer = DocumentWriter(format: .json, generator: ToolIdentity.generator)
      var text = writer.head()
      for (n, page) in pages.enumerated() {
        text += try writer.page(page, encoded: encoded?[n])
      }
      return text + writer.tail()
    }
    let first = page.withIndex(0)
    let written = try json([first, renamed], encoded: [texts[0], hit.texts[0]])
    #expect(written == (try json([first, renamed], encoded: nil)))
    #expect(written.contains("\"image\": \"copy.png\",\n      \"index\": 3,"))
    #expect(
      written
        == DocumentJSON.encode(
          Document(pages: [first, renamed]), generator: ToolIdentity.generator))
  }

  @Test func anotherImagesEntryCopiedOverThisOneIsAMiss() throws {
    // Issue 27: an entry copied over another image's file was served (the
    // checksum covered only the body).
    let page = try RecognizedScans.page("clean.png")
    let other = try RecognizedScans.page("headings.png")
    let cleanKey = RecognitionCache.key(
      imageData: try Data(contentsOf: URL(fileURLWithPath: clean)), options: RecognitionOptions())
    let headingsKey = RecognitionCache.key(
      imageData: try Data(contentsOf: Fixtures.scans.appendingPathComponent("headings.png")),
      options: RecognitionOptions())
    cache.store([page], key: cleanKey)
    cache.store([other], key: headingsKey)
    let folder = cache.folder
    let cleanFile = folder.appendingPathComponent(cleanKey.name + ".json")
    try Data(contentsOf: folder.appendingPathComponent(headingsKey.name + ".json")).write(
      to: cleanFile)
    #expect(cache.pages(for: cleanKey, image: "clean.png") == nil)
    #expect(!FileManager.default.fileExists(atPath: cleanFile.path), "the substitute is deleted")
    #expect(cache.pages(for: headingsKey, image: "headings.png") == [other])
    // The same key recorded for another image (a digest that differs) is a
    // miss too.
    cache.store([page], key: cleanKey)
    let forged = RecognitionCache.Key(name: cleanKey.name, imageDigest: headingsKey.imageDigest)
    #expect(cache.pages(for: forged, image: "clean.png") == nil)
  }

  @Test func entriesAreTheirOwnersOnly() throws {
    let page = try RecognizedScans.page("clean.png")
    cache.store([page], key: key("private"))
    let attributes = try FileManager.default.attributesOfItem(
      atPath: cache.folder.appendingPathComponent("private.json").path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let home = try Fixtures.temporaryFolder()
    setenv("XDG_CACHE_HOME", home.path, 1)
    defer { unsetenv("XDG_CACHE_HOME") }
    let standard = try #require(RecognitionCache.standard())
    // The folder is made by the first store, not before.
    #expect(!FileManager.default.fileExists(atPath: standard.folder.path))
    standard.store([page], key: key("first"))
    let folder = try FileManager.default.attributesOfItem(atPath: standard.folder.path)
    #expect((folder[.posixPermissions] as? Int) == 0o700)
    #expect(standard.pages(for: key("first"), image: "clean.png") == [page])
  }

  /// Commands that recognise nothing leave no cache folder (it was made
  /// while the arguments were parsed); the first recognition makes it.
  @Test func theFolderIsMadeByTheFirstRecognition() throws {
    let home = try Fixtures.temporaryFolder()
    let folder = home.appendingPathComponent("scantext").path
    let environment = ["XDG_CACHE_HOME": home.path]
    let model = Fixtures.scans.appendingPathComponent("clean.truth.json").path
    let text = try ScanTextRun.run(["text", model], environment: environment)
    #expect(text.code == 0)
    let usage = try ScanTextRun.run(["ocr", "--psm", "99", "x.png"], environment: environment)
    #expect(usage.code == 64)
    #expect(!FileManager.default.fileExists(atPath: folder))
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let ocr = try ScanTextRun.run(["ocr", image, "--format", "text"], environment: environment)
    #expect(ocr.code == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
  }

  @Test func theFolderStaysUnderItsLimit() throws {
    let page = try RecognizedScans.page("clean.png")
    cache.store([page], key: key("probe"))
    let probe = cache.folder.appendingPathComponent("probe.json")
    let entrySize = try #require(
      try FileManager.default.attributesOfItem(atPath: probe.path)[.size] as? Int)
    try FileManager.default.removeItem(at: probe)
    // Room for three and a half entries.
    let limit = entrySize * 7 / 2
    let small = RecognitionCache(folder: cache.folder, limitBytes: limit)
    for k in 0..<6 {
      small.store([page], key: key("entry\(k)"))
      // Distinct modification times, oldest first.
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: Double(k - 100))],
        ofItemAtPath: cache.folder.appendingPathComponent("entry\(k).json").path)
    }
    small.trim()
    let left = try entries().sorted()
    let size = try left.map {
      try FileManager.default.attributesOfItem(
        atPath: cache.folder.appendingPathComponent($0).path)[.size] as? Int ?? 0
    }.reduce(0, +)
    #expect(size <= limit)
    #expect(left.contains("entry5.json"), "the most recently used entry stays")
    #expect(!left.contains("entry0.json"), "the least recently used entry goes")
  }

  @Test func concurrentWritersNeverLeaveAPartialEntry() throws {
    let page = try RecognizedScans.page("clean.png")
    let cache = self.cache
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<5 {
        cache.store([page], key: key("shared"))
        if let read = cache.pages(for: key("shared"), image: "clean.png") {
          #expect(read == [page])
        }
      }
    }
    #expect(cache.pages(for: key("shared"), image: "clean.png") == [page])
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.folder.path)
    #expect(leftovers == ["shared.json"])
  }
  /// `ocr` to JSON writes the same bytes whether the page is recognised
  /// with the cache off, recognised and stored, served by a hit (which
  /// encodes nothing), served under another name, or recognised again
  /// because its entry was damaged (which is then replaced).
  @Test func ocrWritesTheSameJSONFromTheCacheAsFromARecognition() throws {
    let home = try Fixtures.temporaryFolder()
    let folder = home.appendingPathComponent("scantext")
    let environment = ["XDG_CACHE_HOME": home.path]
    let work = try Fixtures.temporaryFolder()
    let copy = work.appendingPathComponent("renamed.png")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: clean), to: copy)
    func ocr(_ inputs: [String], _ name: String, _ options: [String] = []) throws -> String {
      let output = work.appendingPathComponent(name).path
      let run = try ScanTextRun.run(
        ["ocr"] + inputs + ["-o", output] + options, environment: environment)
      #expect(run.code == 0, "\(run.stderr)")
      return try String(contentsOfFile: output, encoding: .utf8)
    }
    let fresh = try ocr([clean], "no-cache.json", ["--no-cache"])
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    let stored = try ocr([clean], "stored.json")
    let entry = try #require(
      try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .first { $0.pathExtension == "json" })
    let served = try ocr([clean], "served.json")
    #expect(stored == fresh)
    #expect(served == fresh)
    // Two pages: the second a hit under another name, numbered 1.
    let both = try ocr([clean, copy.path], "both.json")
    let uncached = try ocr([clean, copy.path], "both-no-cache.json", ["--no-cache"])
    #expect(both == uncached)
    #expect(both.contains("\"image\": \"renamed.png\",\n      \"index\": 1,"))
    // A damaged entry: recognised again, and a whole entry put back.
    var bytes = try Data(contentsOf: entry)
    bytes[bytes.count - 10] ^= 0xFF
    try bytes.write(to: entry)
    let recognised = try ocr([clean], "recognised.json")
    #expect(recognised == fresh)
    let replaced = try Data(contentsOf: entry)
    #expect(replaced != bytes)
    #expect(replaced.prefix(17) == Data("scantext-cache-3 ".utf8))
  }

  /// A PDF page's pixel-to-point map was kept whole in the recognised page
  /// and at six decimals in the cache, so a cached page's searchable PDF
  /// placed its words up to 0.0001 point elsewhere than a recognised
  /// page's.
  @Test func aSearchablePDFFromTheCacheIsTheRecognisedOne() throws {
    let home = try Fixtures.temporaryFolder()
    let work = try Fixtures.temporaryFolder()
    let input = Fixtures.scans.appendingPathComponent("scan.pdf").path
    func ocr(_ name: String, _ options: [String] = []) throws -> Data {
      let output = work.appendingPathComponent(name).path
      let run = try ScanTextRun.run(
        ["ocr", input, "-o", output] + options,
        // The edit's date and the file identifier derived from it are
        // fixed (they are in a compressed object stream of a tagged file).
        environment: ["XDG_CACHE_HOME": home.path, "SOURCE_DATE_EPOCH": "1700000000"])
      #expect(run.code == 0, "\(run.stderr)")
      return try Data(contentsOf: URL(fileURLWithPath: output))
    }
    let fresh = try ocr("fresh.pdf", ["--no-cache"])
    let stored = try ocr("stored.pdf")
    let served = try ocr("served.pdf")
    #expect(stored == fresh)
    #expect(served == fresh)
  }
}
