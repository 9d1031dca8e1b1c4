import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanService
import ScanTestSupport
import Testing

/// ScanService's public API used as a Swift package using ScanText would:
/// a folder of scans read to ALTO through the cache.
@Suite("Pipeline")
struct PipelineTests {
  /// Two small sample scans in a folder of their own.
  private func folderOfScans() throws -> URL {
    let folder = try Fixtures.temporaryFolder().appendingPathComponent("scans")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["dpi-150.png", "dpi-100.png"] {
      try FileManager.default.copyItem(
        at: Fixtures.scans.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  /// The words an ALTO file holds, in its order.
  private func words(inALTO url: URL) throws -> [String] {
    let document = try DocumentFormat.alto.decode(Data(contentsOf: url))
    return document.pages.flatMap { $0.words.map(\.text) }
  }

  @Test func inputsOfAFolderAreItsScansInPathOrder() throws {
    let folder = try folderOfScans()
    let inputs = try Input.files(inFolder: folder.path)
    #expect(
      inputs.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [
        "dpi-100.png", "dpi-150.png",
      ])
    for input in inputs {
      #expect(input.kind == .image)
      #expect(input.pageCount == 1)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: input.path))
      #expect(input.digest == SHA256.hex(digest: Input.digest(of: bytes)))
      #expect(input.digest.count == 64)
    }
  }

  @Test func aDocumentAndAPDFAreToldByTheirContent() throws {
    let model = try Input(path: Fixtures.scans.appendingPathComponent("clean.truth.json").path)
    #expect(model.kind == .document)
    #expect(model.format == "json")
    #expect(model.pageCount == 1)
    let pdf = try Input(path: Fixtures.scans.appendingPathComponent("scan.pdf").path)
    #expect(pdf.kind == .pdf)
    #expect(pdf.format == "pdf")
    #expect(pdf.pageCount == 3)
  }

  /// A resolved PDF is read by its pages as the `Input` counted them, each
  /// in the cache under its digest: read again, the same pages, numbered.
  @Test func aResolvedPDFIsReadPageByPageThroughTheCache() throws {
    let base = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let pdf = try Input(path: Fixtures.scans.appendingPathComponent("scan.pdf").path)
    let pipeline = Pipeline(cache: PageCache(folder: base.appendingPathComponent("cache")))
    func read() throws -> [(number: Int, words: [String])] {
      var pages: [(number: Int, words: [String])] = []
      let failures = try pipeline.forEachPage(in: [pdf]) { record in
        pages.append((record.number, record.page.words.map(\.text)))
      }
      #expect(failures.isEmpty)
      return pages
    }
    let first = try read()
    #expect(first.map(\.number) == [1, 2, 3])
    #expect(first.allSatisfy { !$0.words.isEmpty })
    let again = try read()
    #expect(again.map(\.number) == [1, 2, 3])
    #expect(again.map(\.words) == first.map(\.words))
  }

  @Test func folderOfScansToALTOThroughTheCache() throws {
    let folder = try folderOfScans()
    let base = folder.deletingLastPathComponent()
    let cache = PageCache(folder: base.appendingPathComponent("cache"))
    let out = base.appendingPathComponent("alto").path
    let inputs = try Input.files(inFolder: folder.path)
    let pipeline = Pipeline(cache: cache)

    let summary = try pipeline.run(
      inputs, into: DocumentSink(format: FileFormat(.alto), destination: .folder(out)))
    #expect(summary.pageCount == 2)
    #expect(summary.failures.isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(names == ["dpi-100.alto.xml", "dpi-150.alto.xml"])

    // Each page is in the cache now, as its ALTO file holds it.
    for input in inputs {
      let stem = URL(fileURLWithPath: input.path).deletingPathExtension().lastPathComponent
      let written = try words(
        inALTO: URL(fileURLWithPath: out).appendingPathComponent(
          stem + ".alto.xml"))
      let cached = try #require(cache.pages(of: input, options: pipeline.options))
      #expect(!written.isEmpty)
      #expect(cached.flatMap { $0.words.map(\.text) } == written)
    }

    // Read again, the pages come from the cache, in input order, numbered.
    var read: [(name: String, number: Int, words: [String])] = []
    let failures = try pipeline.forEachPage(in: inputs) { record in
      read.append(
        (
          URL(fileURLWithPath: record.input.path).lastPathComponent, record.number,
          record.page.words.map(\.text)
        ))
    }
    #expect(failures.isEmpty)
    #expect(read.map(\.name) == ["dpi-100.png", "dpi-150.png"])
    #expect(read.map(\.number) == [1, 1])
    #expect(
      read.map(\.words)
        == (try ["dpi-100", "dpi-150"].map {
          try words(inALTO: URL(fileURLWithPath: out).appendingPathComponent($0 + ".alto.xml"))
        }))
  }

  /// The pipeline carries pages, not JSON made on its workers: a page
  /// found in the cache is encoded by the JSON writer, and its JSON is the
  /// same, byte for byte, as the reading that stored it and a reading
  /// without the cache.
  @Test func aCachedPageWritesTheSameJSONAsItsFirstReading() throws {
    let folder = try folderOfScans()
    let base = folder.deletingLastPathComponent()
    let input = try Input(path: folder.appendingPathComponent("dpi-100.png").path)
    let cached = Pipeline(cache: PageCache(folder: base.appendingPathComponent("cache")))
    func json(_ pipeline: Pipeline, _ name: String) throws -> Data {
      let out = base.appendingPathComponent(name).path
      let summary = try pipeline.run(
        [input], into: DocumentSink(format: FileFormat(.json), destination: .file(out)))
      #expect(summary.pageCount == 1)
      return try Data(contentsOf: URL(fileURLWithPath: out))
    }
    let stored = try json(cached, "stored.json")
    #expect(cached.cache?.pages(of: input, options: cached.options) != nil)
    let hit = try json(cached, "hit.json")
    let uncached = try json(Pipeline(), "uncached.json")
    #expect(hit == stored)
    #expect(uncached == stored)
    let page = try #require(try DocumentJSON.decode(hit).pages.first)
    #expect(page.image == "dpi-100.png")
    #expect(!page.words.isEmpty)
  }

  @Test func aScanThatDoesNotDecodeFailsAloneAndLeavesNoFile() throws {
    let folder = try folderOfScans()
    // A PNG cut short: its header is whole, its pixels are not.
    let broken = folder.appendingPathComponent("broken.png")
    let whole = try Data(contentsOf: folder.appendingPathComponent("dpi-100.png"))
    try whole.prefix(400).write(to: broken)
    let inputs = [
      try Input(path: folder.appendingPathComponent("dpi-150.png").path),
      try Input(path: broken.path),
    ]
    #expect(inputs[1].kind == .image)
    let out = folder.deletingLastPathComponent().appendingPathComponent("text").path
    let summary = try Pipeline().run(
      inputs, into: DocumentSink(format: FileFormat(.text), destination: .folder(out)))
    #expect(summary.pageCount == 1)
    #expect(summary.failures.count == 1)
    #expect(summary.failures.first?.message.contains(broken.path) == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["dpi-150.txt"])
  }

  @Test func inputsInOneFileAreOneDocumentInInputOrder() throws {
    let folder = try folderOfScans()
    let inputs = try ["dpi-150.png", "dpi-100.png"].map {
      try Input(path: folder.appendingPathComponent($0).path)
    }
    let out = folder.deletingLastPathComponent().appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let file = out.appendingPathComponent("both.json")
    let summary = try Pipeline().run(
      inputs, into: DocumentSink(format: FileFormat(.json), destination: .file(file.path)))
    #expect(summary.pageCount == 2)
    let document = try DocumentJSON.decode(Data(contentsOf: file))
    #expect(document.pages.map(\.image) == ["dpi-150.png", "dpi-100.png"])
    #expect(document.pages.map(\.index) == [0, 1])
    // Written through a temporary file renamed into place: nothing else.
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["both.json"])
  }

  @Test func whenEveryInputFailsTheFirstFailureIsThrownAndNothingWritten() throws {
    let folder = try folderOfScans()
    let broken = folder.appendingPathComponent("broken.png")
    let whole = try Data(contentsOf: folder.appendingPathComponent("dpi-100.png"))
    try whole.prefix(400).write(to: broken)
    let file = folder.appendingPathComponent("out.json")
    #expect {
      try Pipeline().run(
        [try Input(path: broken.path)],
        into: DocumentSink(format: FileFormat(.json), destination: .file(file.path)))
    } throws: { error in
      (error as? ServiceError)?.message.contains(broken.path) == true
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aMissingInputIsRefusedByName() {
    #expect {
      try Input(path: "/nonexistent/scan.png")
    } throws: { error in
      (error as? ServiceError)?.message.contains("/nonexistent/scan.png") == true
    }
  }

  @Test func aFileThatIsNoImageIsRefusedByNameAndReason() throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("notes.png")
    try Data("not a PNG".utf8).write(to: file)
    #expect {
      try Input(path: file.path)
    } throws: { error in
      let message = (error as? ServiceError)?.message ?? ""
      return message.contains(file.path) && message.contains("not a supported image")
    }
  }

  @Test func anOutputThatIsAnInputIsRefusedBeforeAnyReading() throws {
    let folder = try folderOfScans()
    let scan = folder.appendingPathComponent("dpi-100.png")
    let before = try Data(contentsOf: scan)
    let input = try Input(path: scan.path)
    #expect {
      try Pipeline().run(
        [input], into: DocumentSink(format: FileFormat(.json), destination: .file(scan.path)))
    } throws: { error in
      (error as? ServiceError)?.message.contains("it is the input") == true
    }
    #expect(try Data(contentsOf: scan) == before)
  }
}
