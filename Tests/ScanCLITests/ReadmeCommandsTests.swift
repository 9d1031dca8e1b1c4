import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanService

/// The README and the documentation under `docs/` run as written (issue
/// 26, point 7; issue 49, point 5).
///
/// The rule: every command of every fenced block tagged `sh` in README.md
/// and in every Markdown file under `docs/` (``Documentation/files``, the
/// README first; a line that is not blank and not a comment; a line ending in `\`
/// continues on the next). A command that runs `scantext` (its first word,
/// or the first word after a `|`, or GNU `parallel` running it) is run with bash (`set -o pipefail`) in
/// one scratch folder, in the order of the files and of their lines, so that the outputs of earlier
/// commands are there for later ones; it must exit 0 and print no `Error:`
/// line. In that folder `scantext` on `PATH` is the built binary, `Scans/`
/// is a copy of the sample folder, `docs/` exists, and a bare file name of
/// a real scan (a file in `../shared/scans`, or one its `SOURCES.md` lists;
/// never shipped) is a copy of that file; a command that needs a real scan
/// that is not there is skipped, with the reason printed (without the
/// folder, as on a fresh clone, a command that fails only because a bare
/// file name is missing is taken to need a real scan and skipped). Any other command must be listed in
/// ``skipped`` with its reason, so that a new kind of command is a decision,
/// not an accident.
///
/// Recognition goes through one cache for the whole run, filled first with
/// the sample pages every test process recognises (``RecognizedScans``), so
/// `scantext ocr Scans/*.png` does not recognise 38 pages a second time.
@Suite("README commands")
struct ReadmeCommandsTests {
  /// Commands that are not run, by their first words, with the reason.
  static let skipped: [(prefix: String, reason: String)] = [
    ("bash Tools/check/test.sh", "runs this test suite"),
    (
      "bash Tools/install/try-sample.sh",
      "builds a release binary (minutes), then runs 'scantext ocr Scans/clean.png', which this test runs"
    ),
    (
      ".build/tools-venv/bin/python Tools/check/check-html.py",
      "needs Chromium; HTMLTests runs the checker on every sample page"
    ),
    (
      ".build/tools-venv/bin/python Tools/check/check-pdfa.py",
      "PDFOutputTests and PDFArchiveTests run the checker on every PDF they write"
    ),
    (
      ".build/tools-venv/bin/python -c 'import page;",
      "PDFArchiveTests validates with page-validation (what check-pdfa.py calls)"
    ),
    ("qpdf --check", "PDFOutputTests runs qpdf --check on every PDF it writes"),
    ("pdfinfo -meta", "PDFArchiveTests reads each PDF's PDF/A claim"),
  ]

  /// One command of the documentation.
  struct Command: CustomStringConvertible {
    /// The documentation file it is in, from the package root.
    var file = "README.md"
    /// The line it starts on, from 1.
    var line: Int
    /// The heading of its section.
    var section: String
    var text: String

    var description: String { "\(file):\(line) (\(section)): \(text)" }

    /// Whether it runs `scantext`.
    var runsScanText: Bool {
      text.components(separatedBy: "|").contains {
        $0.split(separator: " ").first == "scantext"
      }
        // GNU parallel running scantext (the sharded batch line of docs/batch.md).
        || (text.split(separator: " ").first == "parallel" && text.contains(" scantext "))
    }

    /// The words that may name files: not options, not shell syntax.
    var words: [String] {
      text.split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init).filter {
        !$0.hasPrefix("-") && $0.contains(".")
      }
    }
  }

  /// Every command of the `sh` blocks of a documentation file, in order.
  static func commands(in readme: String, file: String = "README.md") -> [Command] {
    var commands: [Command] = []
    var section = ""
    var inShell = false
    var inOtherBlock = false
    var pending: Command?
    for (n, line) in readme.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        if inShell || inOtherBlock {
          inShell = false
          inOtherBlock = false
        } else if trimmed == "```sh" {
          inShell = true
        } else {
          inOtherBlock = true
        }
        continue
      }
      if !inShell && !inOtherBlock && line.hasPrefix("#") {
        section = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
        continue
      }
      guard inShell else { continue }
      if var command = pending {
        command.text += " " + trimmed
        pending = nil
        if command.text.hasSuffix("\\") {
          command.text.removeLast()
          pending = command
        } else {
          commands.append(command)
        }
        continue
      }
      guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
      var command = Command(file: file, line: n + 1, section: section, text: trimmed)
      if command.text.hasSuffix("\\") {
        command.text.removeLast()
        pending = command
      } else {
        commands.append(command)
      }
    }
    return commands.map { command in
      var command = command
      command.text = command.text.split(separator: " ", omittingEmptySubsequences: true)
        .joined(separator: " ")
      return command
    }
  }

  /// The real scans by base name, with their paths relative to
  /// `../shared/scans`: the files there, and those its `SOURCES.md` lists
  /// (the first word of each table row's first cell) that may be missing.
  static func realScanNames() -> [String: String] {
    guard let folder = RealScans.folder else { return [:] }
    var names: [String: String] = [:]
    let listing =
      (try? String(contentsOf: folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)) ?? ""
    for row in listing.components(separatedBy: "\n") where row.hasPrefix("| ") {
      guard let path = row.dropFirst(2).split(separator: " ").first.map(String.init),
        path.contains("/"), path.contains(".")
      else { continue }
      names[URL(fileURLWithPath: path).lastPathComponent] = path
    }
    let files = FileManager.default.enumerator(atPath: folder.path)
    while let path = files?.nextObject() as? String {
      names[URL(fileURLWithPath: path).lastPathComponent] = path
    }
    return names
  }

  @Test func commandsAreFoundByTheRule() throws {
    let sample = """
      # Title
      ```sh
      # a comment
      scantext ocr a.png \\
        --lang deu   # trailing
      printf '%s\\n' x | scantext query m.json

      bash Tools/check/test.sh
      ```
      ```json
      scantext not a command
      ```
      ## Other
      ```sh
      scantext text m.json
      ```
      """
    let found = Self.commands(in: sample)
    #expect(
      found.map(\.text) == [
        "scantext ocr a.png --lang deu # trailing", "printf '%s\\n' x | scantext query m.json",
        "bash Tools/check/test.sh", "scantext text m.json",
      ])
    #expect(found.map(\.runsScanText) == [true, true, false, true])
    #expect(found.map(\.section) == ["Title", "Title", "Title", "Other"])
    #expect(found.first?.line == 4)
  }

  @Test(.timeLimit(.minutes(20)))
  func everyCommandRunsAsWritten() throws {
    let commands = try Documentation.files.flatMap { file in
      Self.commands(in: try Documentation.read(file), file: file)
    }
    try #require(
      commands.filter(\.runsScanText).count >= 30, "the documentation's commands were found")
    try #require(commands.contains { $0.file != "README.md" }, "the commands of docs/ were found")

    let scratch = try Fixtures.temporaryFolder()
    try FileManager.default.copyItem(
      at: Fixtures.scans, to: scratch.appendingPathComponent("Scans"))
    try FileManager.default.createDirectory(
      at: scratch.appendingPathComponent("docs"), withIntermediateDirectories: false)
    let cache = try Fixtures.temporaryFolder()
    try fillCache(cache)
    let binFolder = Fixtures.executable.deletingLastPathComponent().path
    let environment = [
      "PATH": binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
      "XDG_CACHE_HOME": cache.path,
    ]
    let realScans = Self.realScanNames()
    var ran = 0
    for command in commands {
      guard command.runsScanText else {
        let reason = Self.skipped.first { command.text.hasPrefix($0.prefix) }?.reason
        #expect(
          reason != nil,
          "\(command): not a scantext command: run it, or list it in ReadmeCommandsTests.skipped with the reason"
        )
        print("README command skipped: \(command): \(reason ?? "")")
        continue
      }
      // Real scans the command names: copied in when they are there.
      var missing: [String] = []
      for word in command.words {
        let name = URL(fileURLWithPath: word).lastPathComponent
        guard word == name, let relative = realScans[name] else { continue }
        let target = scratch.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { continue }
        guard let folder = RealScans.folder,
          FileManager.default.fileExists(
            atPath: folder.appendingPathComponent(relative).path)
        else {
          missing.append(relative)
          continue
        }
        try FileManager.default.copyItem(at: folder.appendingPathComponent(relative), to: target)
      }
      guard missing.isEmpty else {
        print(
          "README command skipped: \(command): needs the real scan \(missing.joined(separator: ", ")), not in ../shared/scans"
        )
        continue
      }
      let started = Date()
      let r = try run(command.text, in: scratch, environment: environment)
      let seconds = Date().timeIntervalSince(started)
      if seconds > 3 { print("README command took \(Int(seconds)) s: \(command)") }
      // Without ../shared/scans (a fresh clone, CI) a real scan is a file
      // that is not there.
      if RealScans.folder == nil, r.code != 0,
        let name = command.words.first(where: {
          !$0.contains("/") && r.stderr.contains("Error: \($0): no such file")
        })
      {
        print(
          "README command skipped: \(command): needs \(name), a real scan (\(RealScans.absentMessage))"
        )
        continue
      }
      ran += 1
      let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
      #expect(
        r.code == 0 && errors.isEmpty,
        "\(command)\nexit \(r.code)\n\(r.stderr.prefix(2000))")
    }
    print("README commands: \(ran) run, \(commands.count - ran) skipped")
  }

  /// The README stays a page with links (issue 49, point 5): at most
  /// ``Documentation/readmeLineLimit`` lines, and every relative link of
  /// every documentation file (outside code) names a file or folder that
  /// exists and, after `#`, a heading of that file (GitHub's anchor: the
  /// heading in lower case, without punctuation, spaces as `-`).
  @Test func theReadmeIsShortAndEveryLinkResolves() throws {
    let readme = try Documentation.read("README.md")
    #expect(readme.components(separatedBy: "\n").count - 1 <= Documentation.readmeLineLimit)
    var anchors: [String: Set<String>] = [:]
    var links: [(file: String, target: String)] = []
    for file in Documentation.files {
      var inCode = false
      var found: Set<String> = []
      for line in try Documentation.read(file).components(separatedBy: "\n") {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
          inCode.toggle()
          continue
        }
        guard !inCode else { continue }
        if line.hasPrefix("#") {
          let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
          found.insert(
            String(
              heading.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .map { $0 == " " ? "-" : $0 }))
        }
        // Inline code is not a link (`![alt](#)`).
        let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
          let target = String(match.output.1)
          if !target.contains("://") && !target.hasPrefix("mailto:") {
            links.append((file, target))
          }
        }
      }
      anchors[file] = found
    }
    #expect(links.count >= 50, "the documentation's links were found")
    for (file, target) in links {
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let path = String(parts[0])
      // The path from the package root: the file's folder, then the link's parts.
      var components = file.split(separator: "/").dropLast().map(String.init)
      for part in path.split(separator: "/") where part != "." {
        if part == ".." { _ = components.popLast() } else { components.append(String(part)) }
      }
      let linked = path.isEmpty ? file : components.joined(separator: "/")
      #expect(
        FileManager.default.fileExists(
          atPath: Fixtures.packageRoot.appendingPathComponent(linked).path),
        "\(file): the link \(target) names no file")
      if parts.count == 2, let known = anchors[linked] {
        #expect(known.contains(String(parts[1])), "\(file): the link \(target) names no heading")
      }
    }
  }

  /// Runs one command with bash, standard input empty.
  func run(_ command: String, in folder: URL, environment: [String: String]) throws
    -> (code: Int32, stderr: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -o pipefail; " + command]
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
  }

  /// Stores the sample pages this test process recognises anyway in the
  /// cache of the `scantext` the commands run, under the keys its default
  /// options give (English, default preprocessing).
  func fillCache(_ home: URL) throws {
    let folder = home.appendingPathComponent("scantext")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let cache = RecognitionCache(folder: folder, limitBytes: RecognitionCache.defaultLimitBytes)
    let options = RecognitionOptions(layout: .default(for: .default))
    let program = RecognitionCache.identity(ofProgram: Fixtures.executable)
    for image in Fixtures.scanImages where Fixtures.language(image) == "eng" {
      guard let page = try? RecognizedScans.page(image) else { continue }
      let data = try Data(contentsOf: Fixtures.scans.appendingPathComponent(image))
      cache.store(
        [page], key: RecognitionCache.key(imageData: data, options: options, program: program))
    }
  }
}
