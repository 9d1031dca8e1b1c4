import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Synchronization
import Testing

/// End-to-end runs of the built `scantext` binary.
@Suite("scantext executable")
struct ExecutableTests {
  struct Run {
    var code: Int32
    var stdout: String
    var stderr: String
  }

  func scantext(_ arguments: [String], stdin: String? = nil) throws -> Run {
    let process = Process()
    process.executableURL = Fixtures.executable
    process.arguments = arguments
    // Never touch the user's cache.
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = cacheHome.path
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so neither can fill up.
    let errData = Mutex(Data())
    let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while reader.isExecuting || !reader.isFinished { usleep(1000) }
    return Run(
      code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: errData.withLock { String(decoding: $0, as: UTF8.self) })
  }

  let folder: URL
  let cacheHome: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
    cacheHome = try Fixtures.temporaryFolder()
  }

  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("bad") }
  }

  @Test func ocrWritesJSONAndTextThatMatchTesseract() throws {
    let json = folder.appendingPathComponent("clean.json").path
    let r = try scantext(["ocr", clean, "-o", json])
    #expect(r.code == 0)
    #expect(r.stderr.isEmpty)
    let document = try DocumentJSON.decode(String(contentsOfFile: json, encoding: .utf8))
    let expected = try RecognizedScans.page("clean.png")
    #expect(document.pages == [expected])
    let text = try scantext(["ocr", clean, "--format", "text", "--no-preprocess"])
    #expect(text.code == 0)
    #expect(text.stdout == expected.text)
    let txt = folder.appendingPathComponent("clean.txt").path
    #expect(try scantext(["ocr", clean, "-o", txt]).code == 0)
    #expect(try String(contentsOfFile: txt, encoding: .utf8) == expected.text)
    // An existing output is replaced whole.
    try "old".write(toFile: txt, atomically: false, encoding: .utf8)
    #expect(try scantext(["ocr", clean, "-o", txt, "--no-cache"]).code == 0)
    #expect(try String(contentsOfFile: txt, encoding: .utf8) == expected.text)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "clean.json", "clean.txt",
      ])
  }

  @Test func badInputsFailCleanlyWithoutOutput() throws {
    let empty = folder.appendingPathComponent("bad-empty.png")
    try Data().write(to: empty)
    let textFile = folder.appendingPathComponent("bad-text.png")
    try Data("not an image".utf8).write(to: textFile)
    var flipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
    for i in stride(from: 200, to: flipped.count - 100, by: 97) { flipped[i] ^= 0x5A }
    let flippedFile = folder.appendingPathComponent("bad-flipped.png")
    try Data(flipped).write(to: flippedFile)
    let whole = try Data(contentsOf: URL(fileURLWithPath: clean))
    let truncated = folder.appendingPathComponent("bad-truncated.png")
    try whole.prefix(whole.count / 2).write(to: truncated)
    // A PNG whose header claims 100000 × 100000 pixels.
    var huge = whole
    huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
    let hugeFile = folder.appendingPathComponent("bad-huge.png")
    try huge.write(to: hugeFile)
    let cases: [(String, String)] = [
      (folder.appendingPathComponent("bad-missing.png").path, "no such file"),
      (folder.path, "is a directory"),
      (empty.path, "the file is empty"),
      (textFile.path, "not a supported image"),
      (flippedFile.path, "the PNG image data is truncated or corrupt"),
      (truncated.path, "the PNG image data is truncated or corrupt"),
      (
        hugeFile.path,
        "the image is 100000×100000 pixels (10000.0 megapixels), over the limit of 100 megapixels (raise the limit with --max-pixels)"
      ),
    ]
    for (path, reason) in cases {
      let out = folder.appendingPathComponent("out.json").path
      let r = try scantext(["ocr", path, "-o", out])
      #expect(r.code == 1, "\(path)")
      // One line, naming the file and the reason; no library chatter.
      #expect(r.stderr.hasPrefix("Error: \(path): \(reason)"))
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(try leftovers().isEmpty, "no output file for \(path)")
    }
    let unknownLanguage = try scantext([
      "ocr", clean, "--lang", "xyz", "-o", folder.appendingPathComponent("x.json").path,
    ])
    #expect(unknownLanguage.code == 1)
    #expect(unknownLanguage.stderr.hasPrefix("Error: unknown language 'xyz'"))
    #expect(try leftovers().isEmpty)
  }

  @Test func verboseShowsLibraryMessages() throws {
    var flipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
    for i in stride(from: 200, to: flipped.count - 100, by: 97) { flipped[i] ^= 0x5A }
    let path = folder.appendingPathComponent("bad-flipped.png")
    try Data(flipped).write(to: path)
    let r = try scantext(["ocr", path.path, "--verbose"])
    #expect(r.code == 1)
    #expect(
      r.stderr.split(separator: "\n").count > 1, "libpng's and Leptonica's messages pass through")
  }

  @Test func unwritableOutputIsReportedBeforeOCR() throws {
    let r = try scantext(["ocr", clean, "-o", "/nonexistent-dir/out.json"])
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: /nonexistent-dir/out.json: cannot write the output: no such directory '/nonexistent-dir'\n"
    )
    let asDirectory = try scantext(["ocr", clean, "-o", folder.path])
    #expect(asDirectory.code == 1)
    #expect(asDirectory.stderr.contains("it is a directory"))
  }

  @Test func aBadPageDoesNotLoseTheOthers() throws {
    let out = folder.appendingPathComponent("batch.json").path
    let missing = folder.appendingPathComponent("bad-missing.png").path
    let small = Fixtures.scans.appendingPathComponent("small-print.png").path
    let r = try scantext(["ocr", clean, missing, small, "-o", out, "--jobs", "2"])
    #expect(r.code == 1)
    #expect(r.stderr == "Error: \(missing): no such file\n")
    let document = try DocumentJSON.decode(String(contentsOfFile: out, encoding: .utf8))
    #expect(document.pages.map(\.image) == ["clean.png", "small-print.png"])
    #expect(document.pages.map(\.index) == [0, 1])
    #expect(document.pages[1].text == (try RecognizedScans.page("small-print.png").text))
  }

  @Test func aRepeatedQueryOnAnImageUsesTheCache() throws {
    let first = try scantext(["text", clean, "--range", "0:40"])
    #expect(first.code == 0)
    let entries = try FileManager.default.contentsOfDirectory(
      atPath: cacheHome.appendingPathComponent("scantext").path)
    #expect(entries.count == 1)
    let second = try scantext(["text", clean, "--range", "0:40"])
    #expect(second.stdout == first.stdout)
    #expect(
      second.stdout
        == (try RecognizedScans.page("clean.png").text(in: TextRange(offsets: 0..<40))).map {
          $0 + "\n"
        })
    let bypass = try scantext(["text", clean, "--range", "0:40", "--no-cache"])
    #expect(bypass.stdout == first.stdout)
  }

  @Test func aPagePastItsDeadlineFailsAndTheBatchGoesOn() throws {
    let out = folder.appendingPathComponent("deadline.json").path
    let r = try scantext(["ocr", clean, clean, "--timeout", "0.001", "--no-cache", "-o", out])
    #expect(r.code == 1)
    #expect(
      r.stderr == "Error: \(clean): page 1 ran past the 0.001-second timeout\n"
        + "Error: \(clean): page 1 ran past the 0.001-second timeout\n")
    #expect(
      !FileManager.default.fileExists(atPath: out), "nothing was recognised, nothing is written")
    let generous = try scantext(["ocr", clean, "--timeout", "60", "--no-cache", "-o", out])
    #expect(generous.code == 0)
  }

  @Test func queryKeepsOneProcessOpen() throws {
    let json = folder.appendingPathComponent("clean.json").path
    #expect(try scantext(["ocr", clean, "-o", json]).code == 0)
    let r = try scantext(
      ["query", json], stdin: "{\"op\":\"text\",\"range\":[0,3]}\nnonsense\n{\"op\":\"pages\"}\n")
    #expect(r.code == 0)
    #expect(
      r.stdout
        == "{\"text\":\"The\"}\n{\"error\":\"invalid JSON at byte 0: unexpected character\"}\n{\"pages\":1}\n"
    )
  }
}
