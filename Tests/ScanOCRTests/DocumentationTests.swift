import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// The DocC catalogs of the library products build with no warning (a link
/// to a symbol that is not public or not there, an undocumented
/// parameter), and their getting-started examples do what they say.
@Suite("Documentation")
struct DocumentationTests {
  @Test(
    .enabled(
      if: ExternalCheckers.docc != nil, "docc is not in the toolchain: the catalogs are not built"))
  func theCatalogsBuildWithoutWarnings() throws {
    let root = Fixtures.packageRoot
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("scantext-docs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let (status, output) = try ExternalCheckers.run(
      "/bin/bash", [root.appendingPathComponent("Tools/check/check-docs.sh").path, out.path],
      environment: ["SCANTEXT_BIN": Fixtures.executable.deletingLastPathComponent().path])
    #expect(status == 0, "\(output)")
    for module in ["ScanModel", "ScanOCR", "ScanFormats", "ScanService"] {
      let archive = out.appendingPathComponent("\(module).doccarchive/data/documentation")
      #expect(FileManager.default.fileExists(atPath: archive.path), "\(module): \(output)")
    }
  }

  /// ScanModel's getting-started article, as written there.
  @Test func aPageBuiltFromWordsAnswersAsTheArticleSays() {
    let box = PixelRect(minX: 100, minY: 100, maxX: 320, maxY: 140)
    let words = [
      Word(text: "Hello", bbox: PixelRect(minX: 100, minY: 100, maxX: 200, maxY: 140)),
      Word(text: "world", bbox: PixelRect(minX: 220, minY: 100, maxX: 320, maxY: 140)),
    ]
    let line = TextLine(bbox: box, words: words)
    let page = Page(
      width: 1000, height: 1400,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    #expect(page.text == "Hello world\n")
    let caret = page.closestPosition(to: Point(x: 250, y: 120))
    let word = page.rangeEnclosingPosition(caret, with: .word, inDirection: .forward)
    #expect(word.flatMap { page.text(in: $0) } == "world")
    #expect(word.map { page.selectionRects(for: $0).count } == 1)
    #expect(page.verify().violations.isEmpty)
  }

  /// ScanFormats' article: a saved model opened again and written as ALTO.
  @Test func aSavedModelOpensAndConvertsAsTheArticleSays() throws {
    let url = Fixtures.packageRoot.appendingPathComponent("Scans/clean.truth.json")
    let data = try Data(contentsOf: url)
    let document = try DocumentJSON.decode(data)
    let page = document.pages[0]
    #expect(!(page.text(in: Rect(minX: 100, minY: 200, maxX: 900, maxY: 260)).isEmpty))
    let generator = Generator(name: "Reader", version: "1.0")
    let json = DocumentJSON.encode(document, generator: generator)
    #expect(try DocumentJSON.decode(json) == document)
    #expect(
      try CompactModel.decode(CompactModel.encode(document, generator: generator)) == document)
    let alto = try DocumentFormat.alto.encode(document, generator: generator)
    #expect(alto.contains("<alto"))
    #expect(FileFormat(fileName: "scan.alto.xml") != nil)
  }
}
