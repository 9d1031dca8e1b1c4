import Foundation
import ScanTestSupport
import Testing

/// `SOURCE_DATE_EPOCH`: two runs on the same input write the same bytes
/// (a batch resumed or rerun matches an uninterrupted one), dates included.
@Suite("Reproducible outputs")
struct ReproducibleOutputTests {
  @Test func aFixedDateGivesTheSameBytesTwice() throws {
    let folder = try Fixtures.temporaryFolder()
    let cache = ["XDG_CACHE_HOME": try Fixtures.temporaryFolder().path]
    let fixed = cache.merging(["SOURCE_DATE_EPOCH": "1700000000"]) { _, new in new }
    let pdf = Fixtures.scans.appendingPathComponent("scan.pdf").path
    var outputs: [Data] = []
    for n in 0..<2 {
      let out = folder.appendingPathComponent("run\(n).pdf").path
      let run = try ScanTextRun.run(["ocr", pdf, "-o", out, "-q"], environment: fixed)
      #expect(run.code == 0, "\(run.stderr)")
      outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    #expect(outputs[0] == outputs[1])
    // The date recorded is the fixed one (2023-11-14 22:13:20 UTC), as
    // Poppler reads it (the file is tagged: its Info dictionary is in a
    // compressed object stream).
    guard let pdfinfo = PDFOutputTests.pdfinfo else { return }
    let info = try PDFOutputTests.run(
      pdfinfo, ["-rawdates", folder.appendingPathComponent("run0.pdf").path])
    #expect(info.contains("ModDate:         D:20231114221320Z"), "\(info)")
    // Without it, the time of the run.
    let now = folder.appendingPathComponent("now.pdf").path
    #expect(try ScanTextRun.run(["ocr", pdf, "-o", now, "-q"], environment: cache).code == 0)
    let year = Calendar(identifier: .gregorian).component(.year, from: Date())
    let dated = try PDFOutputTests.run(pdfinfo, ["-rawdates", now])
    #expect(dated.contains("ModDate:         D:\(year)"), "\(dated)")
  }
}
