import Foundation
import ScanFormats
import ScanModel
import ScanService
import ScanTestSupport
import Testing

/// One document written through a ``DocumentSink`` page by page, as
/// `convert` and `html` write theirs: opened at its first page, finished
/// at the end, abandoned on any failure.
@Suite("DocumentSink")
struct DocumentSinkTests {
  private struct Stop: Error {}

  /// The sample page `clean`, as its truth model.
  private func cleanPage() throws -> Page {
    let data = try Data(contentsOf: Fixtures.scans.appendingPathComponent("clean.truth.json"))
    return try #require(try DocumentFormat.json.decode(data).pages.first)
  }

  @Test func aDocumentIsWrittenWholeWithItsPages() throws {
    let page = try cleanPage()
    let out = try Fixtures.temporaryFolder().appendingPathComponent("out.json")
    let sink = DocumentSink(format: FileFormat(.json), destination: .file(out.path))
    try sink.writeDocument { write in
      try write(page, PageOrigin(path: "clean.png", page: 0, number: 1))
      try write(page, PageOrigin(path: "clean.png", page: 0, number: 2))
    }
    let written = try DocumentFormat.json.decode(Data(contentsOf: out))
    #expect(written.pages.count == 2)
    #expect(written.pages.first?.text == page.text)
    #expect(sink.pageCount == 2)
  }

  @Test func aDocumentThatFailsLeavesTheFileAsItWas() throws {
    let page = try cleanPage()
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("out.txt")
    try Data("before\n".utf8).write(to: out)
    let sink = DocumentSink(format: FileFormat(.text), destination: .file(out.path))
    #expect(throws: Stop.self) {
      try sink.writeDocument { write in
        try write(page, PageOrigin(path: "clean.png", page: 0, number: 1))
        throw Stop()
      }
    }
    #expect(try String(contentsOf: out, encoding: .utf8) == "before\n")
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.txt"])
  }

  @Test func settingsGivenBeforeTheFirstPageAreTheWritersOwn() throws {
    let page = try cleanPage()
    let out = try Fixtures.temporaryFolder().appendingPathComponent("out.page.xml")
    let sink = DocumentSink(format: FileFormat(.page), destination: .file(out.path))
    sink.settings = .scanText(dataPath: nil)
    // PAGE XML holds one page: its writer, told the document's length
    // before the first page, names it when the second comes.
    let error = #expect(throws: ServiceError.self) {
      try sink.writeDocument { write in
        sink.settings?.pageTotal = 3
        try write(page, PageOrigin(path: "clean.png", page: 0, number: 1))
        try write(page, PageOrigin(path: "clean.png", page: 0, number: 2))
      }
    }
    #expect(error?.message.contains("the document has 3: write one file per page") == true)
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }
}
