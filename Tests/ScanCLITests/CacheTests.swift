import Foundation
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
    var bytes = try [UInt8](Data(contentsOf: url))
    // Change one confidence digit: still valid JSON, still a valid document.
    let text = String(decoding: bytes, as: UTF8.self)
    let marker = try #require(text.range(of: "\"confidence\":9"))
    let offset = text.utf8.distance(from: text.startIndex, to: marker.upperBound) - 1
    bytes[offset] = UInt8(ascii: "8")
    try Data(bytes).write(to: url)
    #expect(cache.pages(for: key("k"), image: "clean.png") == nil)
    #expect(try entries().isEmpty, "the damaged entry is deleted")
    // A truncated entry likewise.
    cache.store([page], key: key("k"))
    let whole = try Data(contentsOf: url)
    try whole.prefix(whole.count / 2).write(to: url)
    #expect(cache.pages(for: key("k"), image: "clean.png") == nil)
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
    let small = RecognitionCache(folder: cache.folder, limitBytes: 150_000)
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
    #expect(size <= 150_000)
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
}
