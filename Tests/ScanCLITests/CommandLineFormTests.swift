import Foundation
import ScanFormats
import ScanTestSupport
import Testing

/// The smaller items of issue 45: OCRmyPDF's `ocr IN OUT`, no JSON dumped
/// on a terminal, `--version` naming the libraries, `--deskew`, exact
/// 64-bit query ids, and the quick start's package list.
@Suite("command-line forms")
struct CommandLineFormTests {
  static let page = BatchTests.sample("dpi-100.png")

  @Test func ocrInOutWritesOutAsOCRmyPDFDoes() throws {
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("out.txt")
    let run = try ScanTextRun.run(["ocr", Self.page.path, out.path, "--no-cache"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    let alone = try ScanTextRun.run(["ocr", Self.page.path, "--format", "text", "--no-cache"])
    #expect(try String(contentsOf: out, encoding: .utf8) == alone.stdout)
    // An existing regular file is replaced, as -o replaces it.
    try Data("old".utf8).write(to: out)
    let again = try ScanTextRun.run(["ocr", Self.page.path, out.path, "--no-cache"])
    #expect(again.code == 0, "\(again.stderr)")
    #expect(try String(contentsOf: out, encoding: .utf8) == alone.stdout)
  }

  /// A model named second is read, never replaced: `ocr a.json b.json`
  /// reads two models.
  @Test func twoModelsAreTwoInputs() throws {
    let truths = ["headings", "clean"].map {
      Fixtures.scans.appendingPathComponent($0 + ".truth.json").path
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: truths[1]))
    let run = try ScanTextRun.run(["ocr"] + truths + ["-q"])
    #expect(run.code == 0, "\(run.stderr)")
    let read = try JSONValue(parsing: run.stdout)
    #expect(read["pages"]?.arrayValue?.count == 2)
    #expect(try Data(contentsOf: URL(fileURLWithPath: truths[1])) == before)
  }

  @Test func anOutputNamedAmongTheInputsOtherwiseGetsTheHint() throws {
    let folder = try Fixtures.temporaryFolder()
    let taken = folder.appendingPathComponent("taken.txt")
    try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
    for arguments in [
      ["ocr", Self.page.path, taken.path],
      ["ocr", Self.page.path, "b.txt", "-o", folder.appendingPathComponent("c.json").path],
    ] {
      let run = try ScanTextRun.run(arguments)
      #expect(run.code == 64, "\(arguments): \(run.stderr)")
      #expect(
        run.stderr.contains("is named for an output, not an input: write the output with -o"),
        "\(run.stderr)")
    }
  }

  /// Standard output on a terminal gets the text, not JSON (run through
  /// `script`, which gives the command a terminal).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func aTerminalGetsTextNotJSON() throws {
    let command = "'\(Fixtures.executable.path)' ocr '\(Self.page.path)' --no-cache"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    process.standardInput = FileHandle.nullDevice
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let shown = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    #expect(process.terminationStatus == 0, "\(shown)")
    let text = try ScanTextRun.run(["ocr", Self.page.path, "--format", "text", "--no-cache"])
    #expect(shown == text.stdout)
    // A pipe still gets JSON.
    let piped = try ScanTextRun.run(["ocr", Self.page.path, "--no-cache"])
    #expect(piped.stdout.hasPrefix("{"))
  }

  @Test func versionNamesTheLibrariesLoaded() throws {
    let run = try ScanTextRun.run(["--version"])
    #expect(run.code == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(run.stdout)")
    #expect(lines.dropFirst().first?.hasPrefix("tesseract 5.") == true, "\(run.stdout)")
    #expect(lines.last?.hasPrefix("leptonica-1.") == true, "\(run.stdout)")
  }

  @Test func deskewIsTheDefaultSpelledOut() throws {
    let plain = try ScanTextRun.run(["ocr", Self.page.path, "--format", "text", "--no-cache"])
    let named = try ScanTextRun.run([
      "ocr", Self.page.path, "--format", "text", "--no-cache", "--deskew",
    ])
    #expect(named.code == 0, "\(named.stderr)")
    #expect(named.stdout == plain.stdout)
    let both = try ScanTextRun.run(["ocr", Self.page.path, "--deskew", "--no-deskew"])
    #expect(both.code == 64)
    #expect(
      both.stderr.contains("'--deskew' and '--no-deskew' cannot be used together"), "\(both.stderr)"
    )
  }

  @Test func queryIdsAbove2To53AreEchoedExactly() throws {
    let model = try Fixtures.temporaryFolder().appendingPathComponent("m.json")
    let made = try ScanTextRun.run(["ocr", Self.page.path, "-o", model.path, "-q"])
    #expect(made.code == 0, "\(made.stderr)")
    let ids = ["9007199254740993", "-9223372036854775808", "9223372036854775807", "12", "1.5"]
    let requests = ids.map { "{\"op\":\"pages\",\"id\":\($0)}\n" }.joined()
    let run = try ScanTextRun.run(["query", model.path], stdin: requests)
    #expect(run.code == 0, "\(run.stderr)")
    let answers = run.stdout.split(separator: "\n").map(String.init)
    #expect(answers == ids.map { "{\"id\":\($0),\"pages\":1}" })
  }

  @Test func exactIntegersRoundTripThroughJSONValue() throws {
    let value = try JSONValue(parsing: "[9007199254740993, 9007199254740992, 3, 1e300]")
    #expect(value.serialized() == "[9007199254740993,9007199254740992,3,1e+300]")
    #expect(value.arrayValue?[2] == .number(3))
    #expect(value.arrayValue?[0] == .integer(9_007_199_254_740_993))
    #expect(value.arrayValue?[0].doubleValue == 9_007_199_254_740_992)
  }

  /// The quick start installs what building and recognising need, not the
  /// test suite's tools.
  @Test func theQuickStartInstallsOnlyWhatRecognisingNeeds() throws {
    let script = Fixtures.packageRoot.appendingPathComponent(
      "Tools/install/install-dependencies.sh"
    ).path
    let (code, listed) = try ExternalCheckers.run("/bin/bash", [script, "--list", "--runtime"])
    #expect(code == 0)
    let runtime = Set(listed.split(separator: "\n").map(String.init))
    #expect(runtime.isSuperset(of: ["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng"]))
    for tool in ["chromium", "slurm-wlm", "munge", "python3-venv", "qpdf", "poppler-utils"] {
      #expect(!runtime.contains(tool), "\(tool)")
    }
    let (_, all) = try ExternalCheckers.run("/bin/bash", [script, "--list"])
    #expect(runtime.isSubset(of: all.split(separator: "\n").map(String.init)))
    let sample = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("Tools/install/try-sample.sh"),
      encoding: .utf8)
    #expect(sample.contains("Tools/install/install-dependencies.sh --runtime"))
  }
}
