import Foundation
import ScanFormats
import ScanTestSupport
import Testing

/// `scantext batch` and `scantext report` (issue 31): a folder tree read
/// into a mirrored output folder, the run report, resuming, shards, and a
/// run killed in the middle.
@Suite("batch and report")
struct BatchTests {
  static func sample(_ name: String) -> URL {
    Fixtures.packageRoot.appendingPathComponent("Scans/\(name)")
  }

  /// A collection: `in/clean.png`, `in/sub/dpi-100.png`,
  /// `in/sub/dpi-150.png`, and, when `bad`, `in/sub/bad.png` (not an image).
  static func collection(bad: Bool = false) throws -> URL {
    let root = try Fixtures.temporaryFolder()
    let sub = root.appendingPathComponent("in/sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: sample("clean.png"), to: root.appendingPathComponent("in/clean.png"))
    for name in ["dpi-100.png", "dpi-150.png"] {
      try FileManager.default.copyItem(at: sample(name), to: sub.appendingPathComponent(name))
    }
    if bad { try Data("not an image".utf8).write(to: sub.appendingPathComponent("bad.png")) }
    return root
  }

  /// The files under `folder`, by their path inside it, with their bytes.
  static func files(_ folder: URL) -> [String: Data] {
    var out: [String: Data] = [:]
    let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = walk?.nextObject() as? URL {
      guard let data = FileManager.default.contents(atPath: file.path),
        !file.hasDirectoryPath
      else { continue }
      let inside = file.standardizedFileURL.path.dropFirst(
        folder.standardizedFileURL.path.count + 1)
      out[String(inside)] = data
    }
    return out
  }

  /// The report's lines as JSON.
  static func report(_ file: URL) throws -> [JSONValue] {
    let text = try String(contentsOf: file, encoding: .utf8)
    return try text.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
  }

  /// Outputs and report lines of inputs done, without the report files.
  static func outputs(_ folder: URL) -> [String: Data] {
    files(folder).filter { !$0.key.hasPrefix("scantext-report") }
  }

  @Test func aTreeIsMirroredReportedAndResumed() throws {
    let root = try Self.collection(bad: true)
    let out = root.appendingPathComponent("out")
    let cache = ["XDG_CACHE_HOME": try Fixtures.temporaryFolder().path]
    let run = try ScanTextRun.run(
      [
        "batch", root.appendingPathComponent("in").path, "--out-dir", out.path, "--format",
        "json,text", "--jobs", "2",
      ], environment: cache)
    #expect(run.code == 1)
    #expect(run.stderr.contains("bad.png: not a supported image"), "\(run.stderr)")
    #expect(run.stderr.contains("4 inputs: 3 done, 1 failed; 3 pages"), "\(run.stderr)")
    let first = Self.outputs(out)
    #expect(
      first.keys.sorted() == [
        "clean.json", "clean.txt", "sub/dpi-100.json", "sub/dpi-100.txt", "sub/dpi-150.json",
        "sub/dpi-150.txt",
      ])
    // The text output is what `ocr` writes for the page alone.
    let alone = try ScanTextRun.run(
      ["ocr", Self.sample("dpi-100.png").path, "--format", "text", "--no-cache"])
    #expect(first["sub/dpi-100.txt"] == Data(alone.stdout.utf8))
    // One report line per input, in input order, with its figures.
    let log = out.appendingPathComponent("scantext-report.jsonl")
    let lines = try Self.report(log)
    #expect(
      lines.map { $0["name"]?.stringValue } == ["clean", "sub/bad", "sub/dpi-100", "sub/dpi-150"])
    #expect(lines.map { $0["status"]?.stringValue } == ["ok", "failed", "ok", "ok"])
    let clean = lines[0]
    #expect(clean["pages"]?.intValue == 1)
    #expect((clean["words"]?.intValue ?? 0) > 50)
    #expect((clean["meanConfidence"]?.doubleValue ?? 0) > 80)
    #expect(clean["lowConfidenceShare"]?.doubleValue != nil)
    #expect((clean["seconds"]?.doubleValue ?? 0) > 0)
    let listed = clean["outputs"]?.arrayValue ?? []
    #expect(listed.compactMap { $0["path"]?.stringValue } == ["clean.json", "clean.txt"])
    #expect(listed.first?["bytes"]?.intValue == first["clean.json"]?.count)
    #expect(lines[1]["errors"]?.arrayValue?.first?.stringValue?.contains("bad.png") == true)

    // A rerun skips what is done; a damaged output and the failed input
    // (now removed) are redone; nothing else changes.
    try FileManager.default.removeItem(at: root.appendingPathComponent("in/sub/bad.png"))
    try Data("damaged".utf8).write(to: out.appendingPathComponent("sub/dpi-150.json"))
    let rerun = try ScanTextRun.run(
      [
        "batch", root.appendingPathComponent("in").path, "--out-dir", out.path, "--format",
        "json,text",
      ], environment: cache)
    #expect(rerun.code == 0, "\(rerun.stderr)")
    #expect(
      rerun.stderr.contains("3 inputs: 1 done, 0 failed, 2 done before (skipped)"),
      "\(rerun.stderr)")
    #expect(Self.outputs(out) == first)
    let after = try Self.report(log)
    #expect(after.count == 5)
    #expect(after.last?["name"]?.stringValue == "sub/dpi-150")

    // The report read back: the last line of each input counts.
    let report = try ScanTextRun.run(["report", out.path, "--worst", "1"])
    #expect(report.code == 1)
    #expect(report.stdout.hasPrefix("4 inputs: 3 done, 1 failed; 3 pages"), "\(report.stdout)")
    #expect(report.stdout.contains("failed: "), "\(report.stdout)")
  }

  @Test func shardsCoverEveryInputOnce() throws {
    let root = try Self.collection()
    let cache = ["XDG_CACHE_HOME": try Fixtures.temporaryFolder().path]
    let out = root.appendingPathComponent("out")
    var names: [String] = []
    for shard in 1...3 {
      let run = try ScanTextRun.run(
        [
          "batch", root.appendingPathComponent("in").path, "--out-dir", out.path,
          "--shard", "\(shard)/3", "-q",
        ], environment: cache)
      #expect(run.code == 0, "\(run.stderr)")
      let log = out.appendingPathComponent("scantext-report-\(shard)-of-3.jsonl")
      names += try Self.report(log).compactMap { $0["name"]?.stringValue }
    }
    #expect(names.sorted() == ["clean", "sub/dpi-100", "sub/dpi-150"])
    // The shards' outputs are the whole run's.
    let whole = root.appendingPathComponent("whole")
    let run = try ScanTextRun.run(
      ["batch", root.appendingPathComponent("in").path, "--out-dir", whole.path, "-q"],
      environment: cache)
    #expect(run.code == 0)
    #expect(Self.outputs(out) == Self.outputs(whole))
    // A run of the whole after the shards finds everything done.
    let again = try ScanTextRun.run(
      ["batch", root.appendingPathComponent("in").path, "--out-dir", out.path],
      environment: cache)
    #expect(again.stderr.contains("3 inputs: 0 done, 0 failed, 3 done before"), "\(again.stderr)")
  }

  @Test func aManifestNamesFilesFromTheFolderThatHoldsThemAll() throws {
    let root = try Self.collection()
    let manifest = root.appendingPathComponent("in/list.txt")
    try "# two pages\nsub/dpi-100.png\n\nclean.png\n".write(
      to: manifest, atomically: true, encoding: .utf8)
    let out = root.appendingPathComponent("out")
    let run = try ScanTextRun.run(
      ["batch", "--manifest", manifest.path, "--out-dir", out.path, "--format", "alto", "-q"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(Self.outputs(out).keys.sorted() == ["clean.alto.xml", "sub/dpi-100.alto.xml"])
  }

  /// `--quiet` hides the progress and the summary, never an input's
  /// failure: a quiet run of bad inputs exited 1 and printed nothing
  /// (hostile sweep, 2026-12-07).
  @Test func aQuietRunStillNamesEachFailure() throws {
    let root = try Fixtures.temporaryFolder()
    let notImage = root.appendingPathComponent("in/not-an-image.png")
    let forged = root.appendingPathComponent("in/forged.json")
    try FileManager.default.createDirectory(
      at: notImage.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("not an image".utf8).write(to: notImage)
    try Data("[[[[]]]]".utf8).write(to: forged)
    let run = try ScanTextRun.run(
      [
        "batch", notImage.path, forged.path, "--out-dir",
        root.appendingPathComponent("out").path, "-q",
      ])
    #expect(run.code == 1)
    let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
    #expect(errors.count == 2, "\(run.stderr)")
    #expect(errors.contains { $0.contains("not-an-image.png") }, "\(run.stderr)")
    #expect(
      errors.contains { $0.contains("forged.json: not a ScanText document") }, "\(run.stderr)")
    #expect(!run.stderr.contains("inputs:"), "the summary is not printed: \(run.stderr)")
  }

  @Test func badArgumentsAreUsageErrors() throws {
    for (arguments, message) in [
      (["--out-dir", "o"], "give the inputs"),
      (["x.png", "--out-dir", "o", "--shard", "4/3"], "'--shard' takes I/N with 1 ≤ I ≤ N"),
      (["x.png", "--out-dir", "o", "--format", "json,docx"], "'docx' is not a format"),
      (["-", "--out-dir", "o"], "'-' (standard input) has no name"),
    ] {
      let run = try ScanTextRun.run(["batch"] + arguments)
      #expect(run.code == 64, "\(arguments)")
      #expect(run.stderr.contains(message), "\(run.stderr)")
    }
    let missing = try ScanTextRun.run(["batch", "/no/such/folder", "--out-dir", "o"])
    #expect(missing.code == 1)
    #expect(missing.stderr.contains("/no/such/folder: no such file or folder"))
  }

  /// A run killed in the middle leaves no partial output; the rerun
  /// finishes and every output is what an uninterrupted run writes.
  @Test func aKilledRunResumesToTheSameOutputs() throws {
    let root = try Self.collection()
    let input = root.appendingPathComponent("in").path
    let whole = root.appendingPathComponent("whole")
    let straight = try ScanTextRun.run(
      ["batch", input, "--out-dir", whole.path, "--no-cache", "-q", "--jobs", "1"])
    #expect(straight.code == 0)

    let out = root.appendingPathComponent("out")
    let process = Process()
    process.executableURL = Fixtures.executable
    process.arguments = ["batch", input, "--out-dir", out.path, "--no-cache", "-q", "--jobs", "1"]
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Killed once the first input is reported done.
    let log = out.appendingPathComponent("scantext-report.jsonl")
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline,
      ((try? String(contentsOf: log, encoding: .utf8)) ?? "").isEmpty
    {
      usleep(20_000)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let killed = Self.outputs(out)
    // Every output there is whole (one an uninterrupted run wrote); a
    // temporary file (hidden) may be left by the kill.
    let wholeOutputs = Self.outputs(whole)
    let visible = killed.filter { !$0.key.hasPrefix(".") && !$0.key.contains("/.") }
    #expect(!visible.isEmpty)
    for (name, data) in visible {
      #expect(wholeOutputs[name] == data, "\(name)")
    }
    let rerun = try ScanTextRun.run(["batch", input, "--out-dir", out.path, "--no-cache"])
    #expect(rerun.code == 0, "\(rerun.stderr)")
    #expect(
      Self.outputs(out).filter { !$0.key.hasPrefix(".") && !$0.key.contains("/.") }
        == wholeOutputs)
  }

  /// The acceptance run: a 200-page generated collection killed
  /// twice at random moments (seeded) and resumed ends with every page
  /// done once, byte-identical to an uninterrupted run.
  @Test(
    .enabled(if: GateTests.canGenerate, "Pillow is missing (Tools/install/install-dependencies.sh)")
  )
  func aCollectionKilledTwiceEndsAsAnUninterruptedRun() throws {
    let root = try Fixtures.temporaryFolder()
    let pages = root.appendingPathComponent("pages")
    // 200 one-line pages (fast to read: the point is the resuming).
    let script = """
      import random, sys
      from PIL import Image, ImageDraw, ImageFont
      font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 28)
      words = "the quick brown fox jumps over lazy dog archive ledger scan page".split()
      rng = random.Random(31)
      for i in range(200):
          im = Image.new("L", (640, 64), 255)
          d = ImageDraw.Draw(im)
          text = f"Page {i + 1}: " + " ".join(rng.choice(words) for _ in range(5))
          d.text((16, 14), text, font=font, fill=0)
          im.save(f"{sys.argv[1]}/p{i + 1:03d}.png", dpi=(300, 300))
      """
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
    let made = try ExternalCheckers.run(GateTests.python, ["-c", script, pages.path])
    #expect(made.0 == 0, "\(made)")
    let arguments = ["batch", pages.path, "--no-cache", "--jobs", "2", "-q"]
    let whole = root.appendingPathComponent("whole")
    let straight = try ScanTextRun.run(arguments + ["--out-dir", whole.path], timeout: 600)
    #expect(straight.code == 0, "\(straight.stderr)")
    let expected = Self.outputs(whole)
    #expect(expected.count == 200)

    let out = root.appendingPathComponent("out")
    let log = out.appendingPathComponent("scantext-report.jsonl")
    // Killed once 23 inputs are reported done, then, resumed, at 117: two
    // moments fixed so the test is the same every run (the workers are
    // then mid-page on other inputs).
    for lines in [23, 117] {
      let process = Process()
      process.executableURL = Fixtures.executable
      process.arguments = arguments + ["--out-dir", out.path]
      process.standardError = FileHandle.nullDevice
      try process.run()
      let deadline = Date().addingTimeInterval(300)
      while Date() < deadline, process.isRunning,
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").count
          < lines
      {
        usleep(5_000)
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let partial = try Self.report(log).count
    #expect(partial >= 117 && partial < 200, "killed after \(partial) inputs")
    let rerun = try ScanTextRun.run(arguments + ["--out-dir", out.path], timeout: 600)
    #expect(rerun.code == 0, "\(rerun.stderr)")
    #expect(
      Self.outputs(out).filter { !$0.key.hasPrefix(".") } == expected,
      "the resumed outputs differ from an uninterrupted run's")
    // Every page once in the report (a kill between an output's rename and
    // its line leaves no line: the input is redone, and written once).
    let names = try Self.report(log).compactMap { $0["name"]?.stringValue }
    #expect(names.count == 200)
    #expect(Set(names).count == 200)
  }

  /// A full disk: a clear error naming the file, the run stops, and no
  /// output, earlier ones included, is damaged. Needs a small file system
  /// of its own (a 300 KB tmpfs, mounted as root).
  @Test(.enabled(if: getuid() == 0, "mounting a small file system needs root"))
  func aFullDiskStopsTheRunAndDamagesNothing() throws {
    let disk = try Fixtures.temporaryFolder().appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    let mounted = try ExternalCheckers.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=300k", "tmpfs", disk.path])
    guard mounted.0 == 0 else {
      print("full-disk test skipped: cannot mount a tmpfs here: \(mounted.1)")
      return
    }
    defer { _ = try? ExternalCheckers.run("/bin/umount", [disk.path]) }
    let out = disk.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    // An earlier output of the second input, not in any report: redone, and
    // kept as it was when it cannot be.
    let earlier = Data("an earlier output".utf8)
    try earlier.write(to: out.appendingPathComponent("dpi-150.json"))
    let inputs = ["clean.png", "dpi-150.png", "headings.png"].map { Self.sample($0).path }
    let run = try ScanTextRun.run(
      ["batch"] + inputs + ["--out-dir", out.path, "--jobs", "1", "--no-cache"])
    #expect(run.code == 1)
    #expect(
      run.stderr.contains("dpi-150.json: cannot write the output: no space left on device"),
      "\(run.stderr)")
    let left = Self.files(out)
    #expect(left["dpi-150.json"] == earlier)
    #expect(left["headings.json"] == nil)
    // The first input's output is whole and reported.
    let lines = try Self.report(out.appendingPathComponent("scantext-report.jsonl"))
    #expect(lines.map { $0["name"]?.stringValue } == ["clean"])
    #expect(
      lines.first?["outputs"]?.arrayValue?.first?["bytes"]?.intValue == left["clean.json"]?.count)
    // No temporary file is left behind.
    #expect(left.keys.filter { $0.hasPrefix(".") } == [])
  }
}
