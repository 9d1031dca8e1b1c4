import Foundation
import ScanTestSupport
import Testing

@testable import ScanCLI

/// `ocr --sidecar FILE` (OCRmyPDF's option, issue 46 point 6): the whole
/// document's text beside the output, in the same run.
@Suite("Sidecar")
struct SidecarTests {
  static func sample(_ name: String) -> String {
    Fixtures.scans.appendingPathComponent(name).path
  }

  /// The sidecar holds what the text output of the same pages holds, every
  /// page of every input, and the PDF is written too.
  @Test func sidecarIsTheDocumentsText() throws {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("out.pdf")
    let sidecar = folder.appendingPathComponent("out.txt")
    let text = folder.appendingPathComponent("text.txt")
    let inputs = [Self.sample("clean.png"), Self.sample("headings.png")]
    let r = scantext(["ocr"] + inputs + ["-o", pdf.path, "--sidecar", sidecar.path, "-q"])
    try #require(r.code == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let t = scantext(["ocr"] + inputs + ["-o", text.path, "-q"])
    try #require(t.code == 0, "\(t.stderr)")
    let expected = try String(contentsOf: text, encoding: .utf8)
    #expect(!expected.isEmpty)
    #expect(try String(contentsOf: sidecar, encoding: .utf8) == expected)
    #expect(try Data(contentsOf: pdf).starts(with: Data("%PDF-".utf8)))
  }

  /// `--sidecar -` writes the text to standard output beside a PDF file.
  @Test func sidecarToStandardOutput() throws {
    let folder = try Fixtures.temporaryFolder()
    let pdf = folder.appendingPathComponent("out.pdf")
    let text = folder.appendingPathComponent("text.txt")
    let input = Self.sample("clean.png")
    let r = scantext(["ocr", input, "-o", pdf.path, "--sidecar", "-", "-q"])
    try #require(r.code == 0, "\(r.stderr)")
    let t = scantext(["ocr", input, "-o", text.path, "-q"])
    try #require(t.code == 0, "\(t.stderr)")
    #expect(r.stdout == (try String(contentsOf: text, encoding: .utf8)))
    #expect(FileManager.default.fileExists(atPath: pdf.path))
  }

  /// Usage errors: the sidecar is the output, both go to standard output,
  /// or one output per input (`--output-dir`). Writing over an input is
  /// refused before anything is read, and nothing is written.
  @Test func sidecarConflictsAreRefused() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = Self.sample("clean.png")
    let pdf = folder.appendingPathComponent("out.pdf").path
    for (arguments, message) in [
      (["-o", pdf, "--sidecar", pdf], "'--sidecar' names the output itself"),
      (["--sidecar", "-"], "'--sidecar -' and the output cannot both go to standard output"),
      (
        ["--output-dir", folder.path, "--sidecar", "x.txt"],
        "'--sidecar' and '--output-dir' cannot be used together"
      ),
    ] {
      let r = scantext(["ocr", input] + arguments)
      #expect(r.code == 64, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains("Error: \(message)"), "\(r.stderr)")
    }
    let copy = folder.appendingPathComponent("copy.png")
    try FileManager.default.copyItem(atPath: input, toPath: copy.path)
    let before = try Data(contentsOf: copy)
    let r = scantext(["ocr", copy.path, "-o", pdf, "--sidecar", copy.path, "-q"])
    #expect(r.code == 1)
    #expect(r.stderr.hasPrefix("Error: "), "\(r.stderr)")
    #expect(try Data(contentsOf: copy) == before)
    #expect(!FileManager.default.fileExists(atPath: pdf))
  }
}
