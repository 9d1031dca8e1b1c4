import Foundation
import ScanTestSupport
import Testing

/// `ocr --output-dir`: one output per input, named after it (issue 31,
/// point 0).
@Suite("ocr --output-dir")
struct OutputFolderTests {
  static func sample(_ name: String) -> String {
    Fixtures.packageRoot.appendingPathComponent("Scans/\(name)").path
  }

  static func contents(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  @Test func eachInputHasItsOwnOutputAndABadInputLosesNoOther() throws {
    let folder = try Fixtures.temporaryFolder()
    // One cache for the runs: each page is recognised once.
    let cache = ["XDG_CACHE_HOME": try Fixtures.temporaryFolder().path]
    let out = folder.appendingPathComponent("made/out")
    let missing = folder.appendingPathComponent("missing.png").path
    let inputs = [Self.sample("clean.png"), missing, Self.sample("dpi-100.png")]
    let run = try ScanTextRun.run(
      ["ocr"] + inputs + ["--output-dir", out.path, "--format", "text", "-q"],
      environment: cache)
    #expect(run.code == 1)
    #expect(run.stderr.contains("missing.png: no such file"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    // The folder is made; the missing input leaves no file.
    #expect(Self.contents(out) == ["clean.txt", "dpi-100.txt"])
    for name in ["clean", "dpi-100"] {
      let alone = try ScanTextRun.run(
        ["ocr", Self.sample("\(name).png"), "--format", "text"], environment: cache)
      #expect(alone.code == 0)
      let written = try String(
        contentsOf: out.appendingPathComponent("\(name).txt"), encoding: .utf8)
      #expect(written == alone.stdout, "\(name)")
      #expect(written.contains(name == "clean" ? "The" : "a"))
    }
    // Any format, its usual ending: ALTO, one page each.
    let alto = try ScanTextRun.run(
      ["ocr", inputs[0], inputs[2], "--output-dir", out.path, "--format", "alto", "-q"],
      environment: cache)
    #expect(alto.code == 0, "\(alto.stderr)")
    #expect(
      Self.contents(out) == ["clean.alto.xml", "clean.txt", "dpi-100.alto.xml", "dpi-100.txt"])
    let xml = try String(
      contentsOf: out.appendingPathComponent("clean.alto.xml"), encoding: .utf8)
    #expect(xml.components(separatedBy: "<Page ").count == 2)
    // A searchable PDF per input.
    let pdf = try ScanTextRun.run(
      ["ocr", inputs[0], "--output-dir", out.path, "--format", "pdf", "-q"], environment: cache)
    #expect(pdf.code == 0, "\(pdf.stderr)")
    let bytes = try Data(contentsOf: out.appendingPathComponent("clean.pdf"))
    #expect(bytes.starts(with: Data("%PDF-".utf8)))
  }

  @Test func namesThatCannotWorkAreUsageErrors() throws {
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("out").path
    for (arguments, message) in [
      (
        ["a/p.png", "b/p.tif"],
        "'a/p.png' and 'b/p.tif' would both be written to '\(out)/p.json'"
      ),
      (["-"], "'-' (standard input) cannot be used with '--output-dir'"),
      (["p.png", "-o", "x.json"], "'--output' and '--output-dir' cannot be used together"),
    ] {
      let run = try ScanTextRun.run(["ocr"] + arguments + ["--output-dir", out])
      #expect(run.code == 64, "\(arguments)")
      #expect(run.stderr.contains(message), "\(run.stderr)")
    }
    // Nothing was made.
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func aFileWhereTheFolderShouldBeIsAnError() throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("out")
    try Data("keep".utf8).write(to: file)
    let run = try ScanTextRun.run(["ocr", Self.sample("clean.png"), "--output-dir", file.path])
    #expect(run.code == 1)
    #expect(run.stderr.contains("\(file.path): cannot write the output: it is not a folder"))
    #expect(try Data(contentsOf: file) == Data("keep".utf8))
  }
}
