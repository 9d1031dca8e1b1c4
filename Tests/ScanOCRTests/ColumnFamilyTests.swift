import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Issue 29 point 4 on the `columns` family: pages whose lines Tesseract
/// cut wrongly read in the truth's order once ``ColumnLines`` mends them.
@Suite("Column family")
struct ColumnFamilyTests {
  /// `columns-9014`: four justified columns at 200 dpi, words of wide-spaced
  /// lines cut out into paragraphs of their own ("the object" of "use of
  /// the object file is"); `columns-9019`: a note in the margin read into
  /// the first line of its paragraph.
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func columnsReadInTheTruthsOrder() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    let (status, output) = try ExternalCheckers.run(
      python, [generator, "columns", "--seeds", "9014,9019", "--out", folder.path])
    try #require(status == 0, "make-family failed: \(output)")
    let engine = try OCREngine(options: RecognitionOptions())
    var texts: [Int: String] = [:]
    for seed in [9014, 9019] {
      let stem = folder.appendingPathComponent("columns-\(seed)").path
      let page = try #require(try engine.recognize(contentsOf: stem + ".png").first)
      let truth = try #require(
        try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
          .pages.first)
      let tally = page.evaluate(against: truth).tally
      // The order costs nothing beyond the words' own errors (it cost
      // 0.038 and 0.049 before the lines were mended).
      #expect(
        tally.readingOrderCER <= tally.cer + 0.002,
        "columns-\(seed): reading-order CER \(tally.readingOrderCER), CER \(tally.cer)")
      texts[seed] = page.text
    }
    let justified = try #require(texts[9014])
    for line in [
      "use of the object file is", "problems or concerns. Each",
      "conflict-of-law provisions.", "protocols for communication",
    ] {
      #expect(justified.contains("\n\(line)\n"), "\(line)")
    }
    let noted = try #require(texts[9019])
    #expect(noted.contains("\nTo use this License in a document you\n"))
    #expect(noted.contains("\nuse in free software.\n\nLibrary in a tool for writing.\n\nStates"))
  }
}
