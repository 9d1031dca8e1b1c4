import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Issue 48 point 3 on the `vertical` family: column headers set turned
/// over narrow columns of figures are read turned, placed back as lines
/// running up the page where their ink is, and the page verifies clean.
@Suite("Turned headers")
struct TurnedHeaderTests {
  @Test(.enabled(if: GeneratedImages.python != nil, "\(GeneratedImages.absentMessage)"))
  func headersSetUpwardAreReadInPlace() throws {
    let python = try #require(GeneratedImages.python)
    let folder = try Fixtures.temporaryFolder()
    let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
    // 1000: unruled, 1004: fully ruled (its cells read one by one).
    let seeds = [1000, 1004]
    let (status, output) = try ExternalCheckers.run(
      python,
      [
        generator, "vertical", "--seeds", seeds.map(String.init).joined(separator: ","), "--out",
        folder.path,
      ])
    try #require(status == 0, "make-family failed: \(output)")
    let engine = try OCREngine(options: RecognitionOptions())
    for seed in seeds {
      let stem = folder.appendingPathComponent("vertical-\(seed)").path
      let page = try #require(try engine.recognize(contentsOf: stem + ".png").first)
      let truth = try #require(
        try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
          .pages.first)
      let lines = page.blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
      let turned = truth.blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
        .filter { $0.quad != nil }
      // `verify` finds nothing wrong with a line read turned (1004 has
      // faults of its own, before this reading: a junk line "Ae" across
      // two header cells, a cell read as two overlapping lines).
      let turnedLines = Set(
        lines.indices.filter { i in turned.contains { $0.text == lines[i].text } })
      let faults = page.verify().violations.filter { violation in
        turnedLines.contains {
          violation.element == "line \($0)" || violation.element.hasPrefix("line \($0) ")
        }
          || turnedLines.contains { violation.detail.contains("line \($0)'s") }
      }
      #expect(faults.isEmpty, "vertical-\(seed): \(faults)")
      if seed == 1000 {
        #expect(page.verify().violations.isEmpty, "vertical-1000: \(page.verify().violations)")
      }
      try #require(turned.count >= 4)
      var read = 0
      for header in turned {
        // The line read there: its text, running up the page (baseline
        // angle about -90°), its box on the header's ink.
        guard let line = lines.first(where: { $0.text == header.text }) else { continue }
        read += 1
        let angle = try #require(line.baseline?.angle)
        #expect(abs(angle + 90) < 5, "vertical-\(seed) \(header.text): angle \(angle)")
        // Within the header's ink (a few pixels round it: the page may be
        // straightened by a fraction of a degree) and along most of it.
        #expect(
          header.bbox.contains(line.bbox, tolerance: 4)
            && 10 * line.bbox.height >= 9 * header.bbox.height,
          "vertical-\(seed) \(header.text): \(line.bbox) against \(header.bbox)")
      }
      // Every header but at most one read whole.
      #expect(read >= turned.count - 1, "vertical-\(seed): \(read) of \(turned.count) headers")
    }
  }
}
