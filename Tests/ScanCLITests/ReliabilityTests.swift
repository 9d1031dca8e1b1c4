import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Synchronization
import Testing

/// What a user sees from `scantext` on hostile and unlucky input (issue 9):
/// no hang, no silent failure, no clobbered file.
@Suite("Reliability (executable)")
struct ReliabilityTests {
  let folder: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  func file(_ name: String, _ bytes: [UInt8]) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// A PNG or a JPEG whose metadata holds `%PDF-` in its first 1024 bytes
  /// (issue 27, point 7) was refused as a damaged PDF: the PDF check ran
  /// before the image's own signature. It is read as the image it is; a
  /// file that starts with no image signature and has `%PDF-` within the
  /// first 1024 bytes is still a PDF, as PDF readers take it.
  @Test func imageWithPDFInItsMetadataIsAnImage() throws {
    let comment = Array("%PDF-1.7 scanned to PDF and PNG".utf8)
    var png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
    // A tEXt chunk after the signature and IHDR (8 + 25 bytes).
    let body = Array("tEXt".utf8) + Array("Comment".utf8) + [0] + comment
    let length = UInt32(body.count - 4)
    png.insert(
      contentsOf: withUnsafeBytes(of: length.bigEndian, Array.init) + body
        + withUnsafeBytes(of: Self.crc32(body).bigEndian, Array.init),
      at: 33)
    let jpegSource = try [UInt8](
      Data(contentsOf: Fixtures.scans.appendingPathComponent("blur-jpeg.jpg")))
    // A COM segment after SOI.
    let jpeg =
      Array(jpegSource.prefix(2)) + [0xFF, 0xFE, 0, UInt8(comment.count + 2)] + comment
      + jpegSource.dropFirst(2)
    for (name, bytes, word) in [("comment.png", png, "library"), ("comment.jpg", jpeg, "ferry")] {
      #expect(!PDFDocument.isPDF(Data(bytes)), "\(name)")
      let path = try file(name, bytes)
      let r = try ScanTextRun.run(["text", path, "--no-preprocess", "--no-cache"], timeout: 60)
      #expect(r.code == 0 && r.stdout.contains(word), "\(name): \(r.stderr)")
    }
    #expect(PDFDocument.isPDF(Data("%PDF-1.4\n".utf8)))
    #expect(PDFDocument.isPDF(Data("garbage first\n%PDF-1.4\n".utf8)))
    #expect(!PDFDocument.isPDF(Data(png.prefix(40)) + Data("%PDF-1.4".utf8)))
  }

  /// A file name holding a newline or an escape sequence (issue 27, point
  /// 8) reached the terminal raw: the error line broke in two, and the
  /// sequence recoloured the terminal. Control characters are escaped.
  @Test func controlCharactersInFileNamesAreEscaped() throws {
    let name = folder.appendingPathComponent("two\nlines\u{1B}[31mred.png").path
    let shown = name.replacingOccurrences(of: "\n", with: "\\n")
      .replacingOccurrences(of: "\u{1B}", with: "\\u{1B}")
    let r = try ScanTextRun.run(["text", name], timeout: 30)
    #expect(r.code == 1)
    #expect(r.stderr == "Error: \(shown): no such file\n")
    // A usage error too (an unknown output extension names the file).
    let usage = try ScanTextRun.run(["ocr", clean, "-o", "out\u{7}.docx"], timeout: 30)
    #expect(usage.code == 64)
    #expect(usage.stderr.hasPrefix("Error: ") && usage.stderr.contains("out\\u{7}.docx"))
    #expect(!usage.stderr.contains("\u{7}"))
  }

  /// SIGINT or SIGTERM while an output is written (issue 27, point 8) left
  /// the hidden temporary file (`.NAME.PID.RAND.tmp`) beside it. The
  /// temporary file is removed and the process ends by the signal, as it
  /// would have without a handler. The signal is sent as soon as the
  /// temporary file appears (a 400-page model written as JSON, about
  /// 25 MB, takes tens of milliseconds to write).
  @Test func noTemporaryFileIsLeftAfterASignal() throws {
    let page = try #require(
      try DocumentJSON.decode(
        String(
          contentsOf: Fixtures.scans.appendingPathComponent("clean.truth.json"), encoding: .utf8)
      ).pages.first)
    let big = folder.appendingPathComponent("big.json")
    try DocumentJSON.encode(
      Document(pages: (0..<400).map { page.withIndex($0) }),
      generator: Generator(name: "t", version: "0")
    ).write(to: big, atomically: false, encoding: .utf8)
    for (name, signal) in [("SIGINT", SIGINT), ("SIGTERM", SIGTERM)] {
      let out = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
      let process = Process()
      // Through env(1): the test runner ignores SIGINT and SIGTERM, and an
      // ignored signal is inherited (ScanText leaves it ignored, as it
      // should); a user's shell leaves them at their default.
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "--default-signal=INT,TERM", Fixtures.executable.path, "convert", big.path,
        out.appendingPathComponent("out.json").path,
      ]
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Wait for the temporary file, then interrupt.
      var caught = false
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning, Date() < deadline {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        if names.contains(where: { $0.hasSuffix(".tmp") }) {
          kill(process.processIdentifier, signal)
          caught = true
          break
        }
        usleep(200)
      }
      process.waitUntilExit()
      try #require(caught, "\(name): the write ended before a signal could be sent")
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [], "\(name)")
    }
  }

  /// Inputs that are streams (issue 27, point 6): a FIFO is read whether
  /// or not its writer has come yet (opening one with no writer blocked),
  /// a FIFO nobody writes to ends at `--timeout`, and `/dev/stdin` reads
  /// the pipe ("You don't have permission" before).
  @Test func streamInputsAreRead() throws {
    let fifo = folder.appendingPathComponent("page.fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let model = Fixtures.scans.appendingPathComponent("clean.truth.json")
    let writer = Thread {
      usleep(300_000)
      if let handle = FileHandle(forWritingAtPath: fifo) {
        try? handle.write(contentsOf: Data(contentsOf: model))
        try? handle.close()
      }
    }
    writer.start()
    let read = try ScanTextRun.run(["text", fifo], timeout: 60)
    #expect(read.code == 0 && read.stdout.hasPrefix("The town library"), "\(read.stderr)")
    let nobody = try ScanTextRun.run(["text", fifo, "--timeout", "1"], timeout: 60)
    #expect(nobody.code == 1 && nobody.seconds < 10)
    #expect(
      nobody.stderr
        == "Error: \(fifo): no data within the 1.0-second timeout (a FIFO nobody writes to?)\n")
    let piped = try ScanTextRun.run(
      ["text", "/dev/stdin"], stdinData: try Data(contentsOf: model), timeout: 60)
    #expect(piped.code == 0 && piped.stdout == read.stdout, "\(piped.stderr)")
  }

  /// `convert m.json app.log >> app.log` (or `2>> app.log`) replaced the
  /// log with the output (issue 27, point 6): the file standard output or
  /// standard error is open on is written through that descriptor, after
  /// what it held, never renamed over.
  @Test func outputThatStandardOutputHoldsOpenIsWrittenInto() throws {
    let model = Fixtures.scans.appendingPathComponent("clean.truth.json").path
    for descriptor in ["stdout", "stderr"] {
      let log = folder.appendingPathComponent("app-\(descriptor).txt")
      try "earlier line\n".write(to: log, atomically: false, encoding: .utf8)
      let handle = try FileHandle(forWritingTo: log)
      try handle.seekToEnd()
      let process = Process()
      process.executableURL = Fixtures.executable
      process.arguments = ["convert", model, log.path]
      if descriptor == "stdout" {
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
      } else {
        process.standardOutput = FileHandle.nullDevice
        process.standardError = handle
      }
      try process.run()
      process.waitUntilExit()
      try handle.close()
      #expect(process.terminationStatus == 0)
      let text = try String(contentsOf: log, encoding: .utf8)
      #expect(text.hasPrefix("earlier line\nThe town library"), "\(descriptor): \(text.prefix(80))")
    }
  }

  /// CRC-32 (ISO 3309, as PNG's chunks use it).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  @Test func loopingTIFFPageListFinishesQuickly() throws {
    let path = try file(
      "loop.tif",
      TIFFBytes(pages: [.square(), .square(), .square()], loop: (from: 2, to: 0)).bytes)
    let r = try ScanTextRun.run(["ocr", path, "--no-preprocess"], timeout: 30)
    #expect(r.code == 0, "\(r.stderr)")
    #expect(r.seconds < 20)
    let document = try DocumentJSON.decode(r.stdout)
    #expect(document.pages.count == 3)
  }

  @Test func laterPageOverTheLimitIsRefused() throws {
    let path = try file(
      "big-second.tif",
      TIFFBytes(pages: [.square(), .claiming(width: 20000, height: 20000)]).bytes)
    let r = try ScanTextRun.run(["ocr", path], timeout: 30)
    #expect(r.code == 1)
    #expect(r.stdout.isEmpty)
    #expect(
      r.stderr
        == "Error: \(path): page 2 is 20000×20000 pixels (400.0 megapixels), over the limit of 100 megapixels (raise the limit with --max-pixels)\n"
    )
  }

  @Test func upscaleOverTheLimitIsRefused() throws {
    let r = try ScanTextRun.run(["ocr", clean, "--upscale", "--dpi", "1"], timeout: 30)
    #expect(r.code == 1)
    #expect(r.seconds < 10)
    #expect(r.stderr.contains("page 1 at 1 dpi would be upscaled to 382500×495000 pixels"))
  }

  @Test func corruptTIFFPageIsReportedAndTheOthersWritten() throws {
    let path = try file(
      "middle-bad.tif",
      TIFFBytes(pages: [.square(), .claiming(width: 64, height: 64), .square()]).bytes)
    let output = folder.appendingPathComponent("out.json").path
    let r = try ScanTextRun.run(["ocr", path, "-o", output, "--no-preprocess"])
    #expect(r.code == 1)
    #expect(r.stderr == "Error: \(path): page 2: the TIFF image data is truncated or corrupt\n")
    let document = try DocumentJSON.decode(String(contentsOfFile: output, encoding: .utf8))
    #expect(document.pages.count == 2)
  }
}

/// `-o` replaces only a regular file or creates one; standard output errors
/// are reported (issue 9 points 2 and 3).
@Suite("Reliability: output")
struct OutputSafetyTests {
  let folder: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  /// A ScanText document of `clean.png`, written to the folder.
  func model() throws -> String {
    let page = try RecognizedScans.page("clean.png")
    let path = folder.appendingPathComponent("clean.json").path
    try DocumentJSON.encode(Document(pages: [page]), generator: Generator(name: "t", version: "0"))
      .write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  func fileType(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
  }

  func expectRefused(
    _ path: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let r = try ScanTextRun.run(["ocr", clean, "-o", path])
    #expect(r.code == 1, sourceLocation: sourceLocation)
    #expect(
      r.stderr
        == "Error: \(path): cannot write the output: it is \(what); only a regular file is replaced (a FIFO or character device is written into)\n",
      sourceLocation: sourceLocation)
    #expect(r.seconds < 5, "refused before any OCR", sourceLocation: sourceLocation)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!files.contains { $0.hasSuffix(".tmp") }, sourceLocation: sourceLocation)
  }

  /// A FIFO is written into, never replaced (issue 26): the reader gets the
  /// whole output.
  @Test func fifoIsWrittenInto() throws {
    let fifo = folder.appendingPathComponent("fifo").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let received = Mutex(Data())
    let reader = Thread {
      // Opening blocks until the writer opens it.
      let handle = FileHandle(forReadingAtPath: fifo)
      received.withLock { $0 = handle?.readDataToEndOfFile() ?? Data() }
    }
    reader.start()
    let r = try ScanTextRun.run(["ocr", clean, "-o", fifo, "--format", "text", "--no-preprocess"])
    if r.code != 0 {
      // Release a reader still waiting for a writer.
      let release = open(fifo, O_WRONLY | O_NONBLOCK)
      if release >= 0 { close(release) }
    }
    while reader.isExecuting || !reader.isFinished { usleep(1000) }
    #expect(r.code == 0, "\(r.stderr)")
    let expected = try RecognizedScans.page("clean.png", preprocessing: []).text
    #expect(received.withLock { String(decoding: $0, as: UTF8.self) } == expected)
    #expect(fileType(fifo) == S_IFIFO)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!files.contains { $0.hasSuffix(".tmp") })
  }

  /// A character device (`/dev/null`, and a node of it made here) is
  /// written into; before issue 26 it was refused as "a device".
  @Test func characterDeviceIsWrittenInto() throws {
    var paths = ["/dev/null"]
    let device = folder.appendingPathComponent("null").path
    if mknod(device, S_IFCHR | 0o666, dev_t(0x103) /* makedev(1, 3) */) == 0 {
      paths.append(device)
    } else {
      print("not root: cannot make a device node; only /dev/null written into")
    }
    for path in paths {
      let r = try ScanTextRun.run(["ocr", clean, "-o", path, "--no-preprocess"])
      #expect(r.code == 0, "\(path): \(r.stderr)")
      #expect(r.stderr.isEmpty && r.stdout.isEmpty)
      #expect(fileType(path) == S_IFCHR)
    }
  }

  /// A block device is refused (writing a disk is never what `-o` means).
  @Test func blockDeviceIsNeverWritten() throws {
    let device = folder.appendingPathComponent("loop").path
    guard mknod(device, S_IFBLK | 0o600, dev_t(0x700) /* makedev(7, 0) */) == 0 else {
      print("not root: cannot make a device node; block device case skipped")
      return
    }
    try expectRefused(device, "a block device")
    #expect(fileType(device) == S_IFBLK)
  }

  @Test func socketIsNeverReplaced() throws {
    let path = folder.appendingPathComponent("s").path
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (i, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    try expectRefused(path, "a socket")
    #expect(fileType(path) == S_IFSOCK)
  }

  @Test func directoryIsNeverReplaced() throws {
    let directory = folder.appendingPathComponent("d").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    try expectRefused(directory, "a directory")
  }

  @Test func symbolicLinkIsFollowedAndKept() throws {
    let target = folder.appendingPathComponent("target.txt").path
    try "old".write(toFile: target, atomically: false, encoding: .utf8)
    try #require(chmod(target, 0o600) == 0)
    let link = folder.appendingPathComponent("link.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.txt")
    let r = try ScanTextRun.run(["ocr", clean, "-o", link, "--no-preprocess"])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(fileType(link) == S_IFLNK)
    let expected = try RecognizedScans.page("clean.png", preprocessing: []).text
    #expect(try String(contentsOfFile: target, encoding: .utf8) == expected)
    // The replaced file keeps its permissions.
    var info = stat()
    #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o600)
  }

  @Test func symbolicLinkToNothingIsRefused() throws {
    let link = folder.appendingPathComponent("dangling.json").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: folder.appendingPathComponent("nowhere.json").path)
    let r = try ScanTextRun.run(["ocr", clean, "-o", link])
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: \(link): cannot write the output: it is a symbolic link to a missing file\n")
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere.json").path))
  }

  @Test func readOnlyFileSystemIsReportedAsSuch() throws {
    let mountPoint = folder.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    mount.arguments = ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", mountPoint.path]
    mount.standardError = FileHandle.nullDevice
    try mount.run()
    mount.waitUntilExit()
    guard mount.terminationStatus == 0 else {
      print("cannot mount a read-only tmpfs (needs root): read-only case skipped")
      return
    }
    defer {
      let umount = Process()
      umount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      umount.arguments = ["umount", mountPoint.path]
      try? umount.run()
      umount.waitUntilExit()
    }
    let output = mountPoint.appendingPathComponent("out.json").path
    let r = try ScanTextRun.run(["ocr", clean, "-o", output])
    #expect(r.code == 1)
    #expect(r.stderr == "Error: \(output): cannot write the output: read-only file system\n")
  }

  @Test func fullStandardOutputIsAnErrorForEveryCommand() throws {
    let model = try model()
    let runs: [([String], String?)] = [
      (["ocr", clean, "--format", "text"], nil),
      (["ocr", clean], nil),
      (["text", model], nil),
      (["query", model], "{\"op\":\"pages\"}\n{\"op\":\"lines\"}\n"),
      (["lines", model], nil),
      (["rects", model, "--range", "0:5"], nil),
      (["hit", model, "--point", "100,100"], nil),
      (["boundary", model, "--position", "3", "--granularity", "word"], nil),
      (["verify", model], nil),
      (["eval", model, "--truth", model], nil),
      (["convert", model, "-", "--format", "hocr"], nil),
      (["--help"], nil),
      (["--version"], nil),
    ]
    for (arguments, stdin) in runs {
      let r = try ScanTextRun.run(arguments, stdin: stdin, stdoutFile: "/dev/full")
      #expect(r.code == 1, "\(arguments)")
      #expect(
        r.stderr.hasSuffix("Error: cannot write to standard output (No space left on device)\n"),
        "\(arguments): \(r.stderr)")
    }
  }

  @Test func standardErrorIsNeverRedirected() throws {
    // A crash (a runtime trap, a sanitizer report) must stay visible: the
    // process's descriptor 2 is the one it was given, even while the
    // libraries are loaded and working.
    let model = try model()
    let process = Process()
    process.executableURL = Fixtures.executable
    process.arguments = ["query", model]
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    input.fileHandleForWriting.write(Data("{\"op\":\"pages\"}\n".utf8))
    _ = output.fileHandleForReading.availableData
    let theirs = try FileManager.default.destinationOfSymbolicLink(
      atPath: "/proc/\(process.processIdentifier)/fd/2")
    // Both ends of a pipe are the same `pipe:[inode]`.
    let ours = try FileManager.default.destinationOfSymbolicLink(
      atPath: "/proc/self/fd/\(error.fileHandleForReading.fileDescriptor)")
    #expect(theirs == ours)
    // An image run too (Tesseract and Leptonica loaded): nothing on stderr.
    let r = try ScanTextRun.run(["ocr", clean, "--no-cache"])
    #expect(r.code == 0)
    #expect(r.stderr.isEmpty)
  }
}
