import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// The library examples of the README ("Use it from Swift") and of
/// `docs/library.md`, run on a sample scan.
@Suite("README example")
struct ReadmeExampleTests {
  @Test func theExampleRunsAndFindsTheTappedWord() throws {
    let engine = try OCREngine(options: RecognitionOptions(languages: ["eng"]))
    let page = try engine.recognize(
      contentsOf: Fixtures.scans.appendingPathComponent("clean.png").path)[0]
    let target = try #require(page.words.dropFirst(3).first)

    let tap = target.bbox.center  // image pixels
    let caret = page.closestPosition(to: tap)
    let word = try #require(
      page.rangeEnclosingPosition(caret, with: .word, inDirection: .forward)
        ?? page.rangeEnclosingPosition(caret, with: .word, inDirection: .backward))
    let highlight = page.selectionRects(for: word)
    #expect(page.text(in: word) == target.text.trimmingCharacters(in: .punctuationCharacters))
    #expect(highlight.count == 1)
    var read: [String] = []
    for line in 0..<page.lineCount {
      if let frame = page.frame(forLineNumber: line), let text = page.content(forLineNumber: line) {
        #expect(frame.area > 0)
        read.append(text)
      }
    }
    #expect(read.joined(separator: " ").contains(target.text))
  }

  /// The README's `Package.swift` names products this package has, by the
  /// package's folder name, and its example opens a saved model with
  /// `DocumentJSON.decode`, as this test does.
  @Test func theReadmePackageDependencyNamesRealProducts() throws {
    let readme = try Documentation.read("README.md")
    let manifest = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(readme.contains(".package(path: \"../ScanText\")"))
    let products = readme.matches(of: /\.product\(name: "(\w+)", package: "(\w+)"\)/)
    #expect(products.count >= 3)
    for product in products {
      let name = String(product.output.1)
      #expect(product.output.2 == "ScanText")
      #expect(manifest.contains(".library(name: \"" + name + "\""), "\(name)")
    }
    #expect(
      readme.contains(
        "try DocumentJSON.decode(Data(contentsOf: URL(fileURLWithPath: \"clean.json\")))"))
  }

  @Test func aSavedModelOpensAsTheReadmeShows() throws {
    let page = try RecognizedScans.page("clean.png")
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("clean.json").path
    try DocumentJSON.encode(
      Document(pages: [page]), generator: Generator(name: "scantext", version: "test")
    ).write(toFile: path, atomically: true, encoding: .utf8)

    let document = try DocumentJSON.decode(Data(contentsOf: URL(fileURLWithPath: path)))
    var read: [String] = []
    for saved in document.pages {
      for line in 0..<saved.lineCount {
        if let frame = saved.frame(forLineNumber: line),
          let text = saved.content(forLineNumber: line)
        {
          #expect(frame.area > 0)
          read.append(text)
        }
      }
    }
    #expect(read == (0..<page.lineCount).compactMap { page.content(forLineNumber: $0) })
    #expect(!read.isEmpty)
  }
}
