import Foundation
import ScanTestSupport
import Testing

/// A contents page's leaders (issue 48, point 4) are taken out of the
/// text, and each entry keeps its page number on its line.
@Suite("Leaders on a contents page")
struct LeadersPageTests {
  /// Develop page `contents-1001`: 200 dpi, 11 pt serif, dash leaders.
  /// Plain Tesseract reads the first entry "1 Unaltered Copy
  /// ---------------------------- 2-2-2202 0 nee rene erence nee c eee 6".
  @Test(
    .enabled(
      if: GateTests.canGenerate,
      "numpy and Pillow are missing (Tools/install/install-dependencies.sh)"))
  func leadersAreNoText() throws {
    let folder = try Fixtures.temporaryFolder()
    let (code, output) = try ExternalCheckers.run(
      GateTests.python, [GateTests.makeFamily, "contents", "--seeds", "1001", "--out", folder.path])
    #expect(code == 0, "\(output)")
    let image = folder.appendingPathComponent("contents-1001.png").path
    let model = folder.appendingPathComponent("contents.json").path
    let read = scantext(["ocr", image, "-o", model, "--no-cache", "-q"])
    #expect(read.code == 0, "\(read.stderr)")
    let text = scantext(["text", model]).stdout
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.contains("1 Unaltered Copy 6"), "\(text)")
    #expect(lines.contains("1.1 The Program Does Not Specify 10"), "\(text)")
    #expect(!text.contains("--") && !text.contains(" nnn") && !text.contains(" eee"), "\(text)")
    let json = try String(contentsOfFile: model, encoding: .utf8)
    #expect(json.contains("\"leaders\""), "the page records the step")
    // Its score against the truth: CER 1.60 for plain Tesseract.
    let eval = scantext([
      "eval", model, "--truth", folder.appendingPathComponent("contents-1001.truth.json").path,
      "--json",
    ])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any])
    let total = try #require(report["total"] as? [String: Any])
    let cer = try #require(total["cer"] as? Double)
    #expect(cer < 0.2, "\(eval.stdout)")

    // Without the step the junk is read.
    let plain = folder.appendingPathComponent("plain.json").path
    #expect(scantext(["ocr", image, "-o", plain, "--no-cache", "-q", "--no-leaders"]).code == 0)
    #expect(scantext(["text", plain]).stdout.contains("-----"))
  }
}
