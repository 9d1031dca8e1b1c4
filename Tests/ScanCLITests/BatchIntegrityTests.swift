import Foundation
import ScanFormats
import ScanTestSupport
import Testing

@testable import ScanService

/// `scantext batch` never touches an input (issue 45): an output that is
/// an input is refused, outputs are never read back as inputs, symbolic
/// links to folders are followed, long names and failed writes fail one
/// input only, manifests take CRLF, a BOM and comments, and every file
/// name printed is escaped.
@Suite("batch never touches an input")
struct BatchIntegrityTests {
  static let page = BatchTests.sample("dpi-100.png")

  /// A folder `in` under a new temporary folder holding copies of the
  /// small sample page under `names`.
  static func folder(_ names: [String]) throws -> (root: URL, input: URL) {
    let root = try Fixtures.temporaryFolder()
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for name in names {
      let file = input.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: page, to: file)
    }
    return (root, input)
  }

  @Test func anOutputThatIsAnInputIsRefusedAloneNamingBoth() throws {
    let (root, input) = try Self.folder(["a.png", "b.png", "c.png"])
    let out = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    // a's output is a symbolic link to the input a.png, b's a hard link
    // to b.png: writing either would replace (or alias) an input.
    try FileManager.default.createSymbolicLink(
      atPath: out.appendingPathComponent("a.json").path,
      withDestinationPath: input.appendingPathComponent("a.png").path)
    try FileManager.default.linkItem(
      at: input.appendingPathComponent("b.png"), to: out.appendingPathComponent("b.json"))
    let before = try Data(contentsOf: Self.page)
    let run = try ScanTextRun.run(["batch", input.path, "--out-dir", out.path, "--no-cache"])
    #expect(run.code == 1, "\(run.stderr)")
    for name in ["a", "b"] {
      #expect(
        run.stderr.contains(
          "\(out.path)/\(name).json: cannot write the output: it is the input '\(input.path)/\(name).png', which it would replace"
        ), "\(run.stderr)")
      #expect(try Data(contentsOf: input.appendingPathComponent("\(name).png")) == before)
    }
    #expect(run.stderr.contains("3 inputs: 1 done, 2 failed"), "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("c.json").path))
  }

  /// The output folder is the input folder: a searchable PDF of each
  /// image lands beside it, and a rerun does not take those PDFs for
  /// inputs (no `a.pdf.pdf`).
  @Test func aRerunNeverReadsTheOutputsOfTheRunBefore() throws {
    let (_, input) = try Self.folder(["a.png"])
    let arguments = ["batch", input.path, "--out-dir", input.path, "--format", "pdf", "--no-cache"]
    let first = try ScanTextRun.run(arguments)
    #expect(first.code == 0, "\(first.stderr)")
    let written = try Data(contentsOf: input.appendingPathComponent("a.pdf"))
    let rerun = try ScanTextRun.run(arguments)
    #expect(rerun.code == 0, "\(rerun.stderr)")
    #expect(
      rerun.stderr.contains(
        "Note: 1 file among the inputs is an output of an earlier run (its report lists it): not read"
      ), "\(rerun.stderr)")
    #expect(rerun.stderr.contains("1 inputs: 0 done, 0 failed, 1 done before"), "\(rerun.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: input.path).sorted()
    #expect(names == ["a.pdf", "a.png", "scantext-report.jsonl"])
    #expect(try Data(contentsOf: input.appendingPathComponent("a.pdf")) == written)
  }

  /// A folder given as a symbolic link is read; a link to a folder inside
  /// a tree is followed; a link back to a folder holding it is not, and
  /// says so.
  @Test func symbolicLinksToFoldersAreFollowedAndLoopsNamed() throws {
    let (root, input) = try Self.folder(["a.png"])
    let other = root.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.page, to: other.appendingPathComponent("b.png"))
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent("more").path, withDestinationPath: other.path)
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent("loop").path, withDestinationPath: input.path)
    let link = root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: input.path)
    let out = root.appendingPathComponent("out")
    let run = try ScanTextRun.run(["batch", link.path, "--out-dir", out.path, "--no-cache"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(run.stderr.contains("2 inputs: 2 done, 0 failed"), "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "Note: '\(link.path)/loop' is a link to the folder '\(link.path)', which holds it (a loop): not followed"
      ), "\(run.stderr)")
    #expect(BatchTests.outputs(out).keys.sorted() == ["a.json", "more/b.json"])
  }

  /// A 244-byte name (legal) is written (its temporary name is cut to
  /// fit); a name whose output would pass 255 bytes fails alone; the run
  /// goes on to the inputs after it.
  @Test func longNamesAndAFailedWriteNeverStopTheRun() throws {
    let long = String(repeating: "a", count: 240) + ".png"
    let tooLong = String(repeating: "b", count: 251) + ".png"
    let (root, input) = try Self.folder([long, tooLong, "c.png"])
    let out = root.appendingPathComponent("out")
    let run = try ScanTextRun.run(["batch", input.path, "--out-dir", out.path, "--no-cache"])
    #expect(run.code == 1, "\(run.stderr)")
    #expect(run.stderr.contains("cannot write the output: file name too long"), "\(run.stderr)")
    #expect(run.stderr.contains("3 inputs: 2 done, 1 failed"), "\(run.stderr)")
    #expect(
      BatchTests.outputs(out).keys.sorted() == [
        String(repeating: "a", count: 240) + ".json", "c.json",
      ]
    )
    let lines = try BatchTests.report(out.appendingPathComponent("scantext-report.jsonl"))
    #expect(lines.map { $0["status"]?.stringValue } == ["ok", "failed", "ok"])
  }

  /// The output folder inside the input tree is skipped whatever its
  /// spelling (here through a link), and files a report lists are never
  /// inputs.
  @Test func theOutputFolderAndEarlierOutputsAreNeverInputs() throws {
    let (root, input) = try Self.folder(["a.png", "b.png", "out/x.png"])
    let link = root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: input.path)
    let b = try #require(FileIdentity(input.appendingPathComponent("b.png").path))
    let (inputs, notes) = try BatchPlan.inputs(
      arguments: [input.path], manifest: nil, skipping: link.appendingPathComponent("out").path,
      excluding: [b])
    #expect(inputs.map(\.name) == ["a"])
    #expect(notes.count == 1)
  }

  @Test func temporaryNamesStayWithinTheLimit() {
    let short = OutputFile.temporaryName(for: "p1.json", process: 42, number: 7)
    #expect(short == ".p1.json.42.7.tmp")
    for name in [
      String(repeating: "a", count: 245), String(repeating: "é", count: 127) + ".json",
    ] {
      let made = OutputFile.temporaryName(
        for: name, process: Int32.max, number: UInt32.max)
      #expect(made.utf8.count <= 255, "\(made.utf8.count)")
      #expect(made.hasPrefix(".") && made.hasSuffix(".\(Int32.max).\(UInt32.max).tmp"))
      // Two long names with one beginning have temporary names of their own.
      let other = OutputFile.temporaryName(
        for: name + "x", process: Int32.max, number: UInt32.max)
      #expect(other != made)
    }
  }

  @Test func aManifestTakesCRLFAByteOrderMarkAndComments() throws {
    let (root, input) = try Self.folder(["a.png", "sub/b.png"])
    let manifest = input.appendingPathComponent("list.txt")
    try Data("\u{FEFF}# two pages\r\nsub/b.png\r\n\r\n# and\r\na.png\r\n".utf8).write(to: manifest)
    let out = root.appendingPathComponent("out")
    let run = try ScanTextRun.run([
      "batch", "--manifest", manifest.path, "--out-dir", out.path, "--no-cache",
    ])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(BatchTests.outputs(out).keys.sorted() == ["a.json", "sub/b.json"])
  }

  /// Names holding ESC and BEL reach neither the summary nor `scantext
  /// report` raw: escaped as the error lines escape them.
  @Test func fileNamesAreEscapedInTheSummaryAndTheReport() throws {
    let (root, input) = try Self.folder(["ok\u{07}.png"])
    try Data("not an image".utf8).write(to: input.appendingPathComponent("bad\u{1B}[31m.png"))
    let out = root.appendingPathComponent("out")
    let run = try ScanTextRun.run(["batch", input.path, "--out-dir", out.path, "--no-cache"])
    let report = try ScanTextRun.run(["report", out.path])
    #expect(run.code == 1)
    #expect(report.code == 1)
    for text in [run.stderr, report.stdout] {
      #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(text)")
      #expect(text.contains("failed: \(input.path)/bad\\u{1B}[31m.png: "), "\(text)")
    }
    #expect(report.stdout.contains("slowest: \(input.path)/ok\\u{7}.png "), "\(report.stdout)")
  }
}
