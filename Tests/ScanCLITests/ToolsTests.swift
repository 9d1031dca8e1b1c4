import Foundation
import ScanTestSupport
import Testing

/// Runs a program (found on `PATH`) with arguments from the package root
/// (also the gate's runs in `GateTests`).
func runTool(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  process.currentDirectoryURL = Fixtures.packageRoot
  var environment = ProcessInfo.processInfo.environment
  environment["XDG_CACHE_HOME"] = try Fixtures.temporaryFolder().path
  process.environment = environment
  let out = try Fixtures.temporaryFolder().appendingPathComponent("stdout")
  let err = out.deletingLastPathComponent().appendingPathComponent("stderr")
  _ = FileManager.default.createFile(atPath: out.path, contents: nil)
  _ = FileManager.default.createFile(atPath: err.path, contents: nil)
  process.standardOutput = try FileHandle(forWritingTo: out)
  process.standardError = try FileHandle(forWritingTo: err)
  try process.run()
  process.waitUntilExit()
  return (
    process.terminationStatus, try String(contentsOf: out, encoding: .utf8),
    try String(contentsOf: err, encoding: .utf8)
  )
}

private func available(_ check: [String]) -> Bool {
  (try? runTool(check).code) == 0
}

/// The Python with numpy and Pillow for `Tools/generate/make-scans.py` and
/// `Tools/check/check-scans.py`: the tools' virtual environment
/// (`Tools/install/install-dependencies.sh` puts them there), else the system's.
private let scansPython: String = {
  let venv = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/python").path
  return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
}()

/// The Python tools in `Tools/` get text joining, ranges and metrics from
/// `scantext verify` and `scantext eval`, never from rules of their own.
@Suite("Tools")
struct ToolsTests {
  /// `check-scans.py` reads the truth with `scantext verify`: a page text
  /// that is not the words joined as ScanText joins them is ScanText's error.
  @Test(
    .enabled(
      if: available([scansPython, "-c", "import numpy, PIL"]),
      "numpy and Pillow are missing (pip install -r Tools/install/requirements-scans.txt)"))
  func checkScansTakesTheJoiningRulesFromScantext() throws {
    let folder = try Fixtures.temporaryFolder()
    try FileManager.default.copyItem(
      at: Fixtures.scans.appendingPathComponent("clean.png"),
      to: folder.appendingPathComponent("clean.png"))
    // The empty line between the first two paragraphs left out, and the
    // file kept canonical (sorted keys, two-space indent).
    let script = """
      import json, sys
      doc = json.load(open(sys.argv[1], encoding="utf-8"))
      page = doc["pages"][0]
      page["text"] = page["text"].replace("\\n\\n", "\\n", 1)
      open(sys.argv[2], "w", encoding="utf-8").write(
          json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\\n")
      """
    let truth = folder.appendingPathComponent("clean.truth.json")
    #expect(
      try runTool([
        "python3", "-c", script, Fixtures.scans.appendingPathComponent("clean.truth.json").path,
        truth.path,
      ]).code == 0)
    let scantext = "--scantext=\(Fixtures.executable.path)"
    let broken = try runTool([
      scansPython, "Tools/check/check-scans.py", "--dir=\(folder.path)", scantext,
    ])
    #expect(broken.code == 1)
    #expect(
      broken.stdout.contains(
        "FAIL clean: scantext cannot read the truth: \(truth.path): not a ScanText document: pages[0]: 'text' does not match the words joined as Tesseract joins them"
      ), "\(broken.stdout)")

    let good = try runTool([scansPython, "Tools/check/check-scans.py", "clean", scantext])
    #expect(good.code == 0, "\(good.stdout)\(good.stderr)")
    #expect(good.stdout.contains(" verify ") && good.stdout.contains(" checks"))
  }

  /// `Sources/CScanOCR/pdf.c` and `pdfwrite.c` declare Poppler's, GLib's,
  /// cairo's, qpdf's and zlib's functions themselves: they must match the
  /// installed headers (libpoppler-glib-dev, libqpdf-dev, zlib1g-dev, which
  /// Tools/install/install-dependencies.sh installs).
  @Test(
    .enabled(
      if: available([
        "pkg-config", "--exists", "poppler-glib", "cairo", "libqpdf", "zlib", "libpng", "libjpeg",
      ]),
      "libpoppler-glib-dev, libqpdf-dev, zlib1g-dev, libpng-dev or libjpeg-dev is not installed: declarations not checked"
    ))
  func pdfDeclarationsMatchTheHeaders() throws {
    let r = try runTool(["bash", "Tools/check/check-pdf-declarations.sh"])
    #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("the generated declarations match the installed headers"))
  }

  /// `compare-outputs` saves every output of two pages, finds the same
  /// outputs when made again (the PAGE XML's timestamps differ, and are
  /// the run's), and names a saved file that was changed.
  @Test func compareOutputsFindsAChangedFile() throws {
    let saved = try Fixtures.temporaryFolder().appendingPathComponent("saved")
    let scantext = "--scantext=\(Fixtures.executable.path)"
    let save = try runTool([
      "python3", "Tools/check/compare-outputs", "save", saved.path, scantext, "--no-real",
      "--pages", "clean.png", "dpi-100.png",
    ])
    #expect(save.code == 0, "\(save.stdout)\(save.stderr)")
    #expect(save.stdout.contains("saved 18 files of 2 inputs"), "\(save.stdout)")
    let text = saved.appendingPathComponent("samples/clean.png/clean.txt")
    let saidText = try String(contentsOf: text, encoding: .utf8)
    #expect(saidText.hasPrefix("The town library began scanning"))

    let same = try runTool([
      "python3", "Tools/check/compare-outputs", "compare", saved.path, scantext,
    ])
    #expect(same.code == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout.contains("2 inputs, 18 files compared"), "\(same.stdout)")
    #expect(same.stdout.contains("all identical"), "\(same.stdout)")

    try saidText.replacingOccurrences(of: "ledgers", with: "ledger").write(
      to: text, atomically: true, encoding: .utf8)
    let changed = try runTool([
      "python3", "Tools/check/compare-outputs", "compare", saved.path, scantext, "--pages",
      "clean.png",
    ])
    #expect(changed.code == 1, "\(changed.stdout)\(changed.stderr)")
    #expect(
      changed.stdout.contains(
        "DIFF samples/clean.png/clean.txt: line 1: saved 'The town library began scanning its old ledger',"
          + " now 'The town library began scanning its old ledgers'"), "\(changed.stdout)")
    #expect(changed.stdout.contains("1 input, 9 files compared"), "\(changed.stdout)")
    #expect(changed.stdout.contains("1 difference"), "\(changed.stdout)")
  }

  /// `compare-tesseract` scores Tesseract's own TSV with `scantext eval`.
  @Test(.enabled(if: available(["tesseract", "--version"]), "tesseract is not on PATH"))
  func compareTesseractScoresWithScantextEval() throws {
    let result = try runTool([
      "python3", "Tools/check/compare-tesseract", "--scantext", Fixtures.executable.path, "--pages",
      "clean",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "| clean | 0.00% | 0.00% | 100.00% | 100.00% | 100.00% | 100.00% |"), "\(result.stdout)")
    #expect(result.stdout.contains("its TSV read by ScanText"))
  }
}
