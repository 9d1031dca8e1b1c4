import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Synchronization
import Testing

@testable import ScanCLI
@testable import ScanService

/// Long documents are read and written page by page (issue 27, point 4):
/// the output of `ocr` is the same as before, every format is written as
/// pages come, and memory does not grow with the number of pages.
@Suite("Streaming", .serialized)
struct StreamingTests {
  /// The searchable PDF `scantext ocr` writes of two sample pages, made
  /// once per test process (every test of the suite repeats it).
  private static let twoPages = OncePerProcess<Result<String, any Error>>()

  private static func makeTwoPages() throws -> String {
    let two = try Fixtures.temporaryFolder().appendingPathComponent("two.pdf").path
    let made = try ScanTextRun.run([
      "ocr", Fixtures.scans.appendingPathComponent("clean.png").path,
      Fixtures.scans.appendingPathComponent("headings.png").path, "-o", two, "-q",
    ])
    try #require(made.code == 0, "\(made.stderr)")
    return two
  }

  /// A searchable PDF of two sample pages (their text layer is read back
  /// without OCR), repeated to `count` pages with qpdf.
  static func document(pages count: Int) throws -> String {
    let folder = try Fixtures.temporaryFolder()
    let two = try twoPages.value(for: "clean, headings") { Result { try makeTwoPages() } }.get()
    var ranges: [String] = []
    var left = count
    while left > 0 {
      ranges += [two, "1-\(min(left, 2))"]
      left -= 2
    }
    let path = folder.appendingPathComponent("doc-\(count).pdf").path
    let (code, output) = try ExternalCheckers.run(
      "/usr/bin/qpdf", ["--empty", "--pages"] + ranges + ["--", path])
    try #require(code == 0, "\(output)")
    return path
  }

  /// Each format written page by page from a 5-page PDF is what `convert`
  /// writes of the same pages held whole (ALTO's pages wait in a temporary
  /// file for its head).
  @Test func everyFormatIsWrittenAsConvertWritesIt() throws {
    let pdf = try Self.document(pages: 5)
    let folder = try Fixtures.temporaryFolder()
    let json = folder.appendingPathComponent("doc.json").path
    let read = try ScanTextRun.run(["ocr", pdf, "-o", json, "-q"])
    try #require(read.code == 0, "\(read.stderr)")
    let document = try DocumentFiles.read(json)
    #expect(document.pages.map(\.index) == [0, 1, 2, 3, 4])
    #expect(document.pages.allSatisfy { $0.source == .pdfText })
    for ending in [".hocr", ".alto.xml", ".tsv", ".txt"] {
      let streamed = folder.appendingPathComponent("ocr\(ending)").path
      let whole = folder.appendingPathComponent("convert\(ending)").path
      let a = try ScanTextRun.run(["ocr", pdf, "-o", streamed, "-q"])
      let b = try ScanTextRun.run(["convert", json, whole])
      #expect(a.code == 0 && b.code == 0, "\(ending): \(a.stderr) \(b.stderr)")
      let streamedBytes = try Data(contentsOf: URL(fileURLWithPath: streamed))
      #expect(streamedBytes == (try Data(contentsOf: URL(fileURLWithPath: whole))), "\(ending)")
      #expect(!streamedBytes.isEmpty)
    }
    // To standard output too.
    let out = try ScanTextRun.run(["ocr", pdf, "--format", "alto", "-q"])
    #expect(out.code == 0)
    #expect(
      out.stdoutData == (try Data(contentsOf: folder.appendingPathComponent("convert.alto.xml"))))
  }

  /// A long model is read a page at a time by `convert` to every format
  /// that can hold several pages, the accessible HTML (`--format
  /// accessible-html`, `html`'s route) included, and by `tables` (issue
  /// 45): 2,000 small pages, made here, as a compact model and as
  /// ScanText JSON, never have more than two pages read ahead of those
  /// done with (``PageTraffic``). Before, `convert` to the accessible HTML
  /// and `tables` read every page first, through the reading's workers
  /// (whole, before any page was done with: none of these counts held).
  @Test func aLongModelIsReadPageByPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let count = 2_000
    let pages = (0..<count).map { n in
      TypesetPage.page([["Page \(n + 1) of many"]]).withIndex(n)
    }
    let stm = folder.appendingPathComponent("long.stm").path
    let generator = Generator(name: "scantext", version: "test")
    try CompactModel.encode(Document(pages: pages), generator: generator)
      .write(to: URL(fileURLWithPath: stm))
    func traffic(_ run: () throws -> Void) throws -> PageTraffic {
      let traffic = PageTraffic()
      try PageTraffic.$current.withValue(traffic) { try run() }
      return traffic
    }
    let recognizer = Recognizer(options: RecognitionOptions())
    func convert(_ input: String, _ output: String, _ format: FileFormat) throws {
      try Conversion(
        inputPath: input, outputPath: output, format: format, imagePath: nil,
        recognizer: recognizer, settings: .scanText(dataPath: nil)
      ).run(io: .standard)
    }
    let json = folder.appendingPathComponent("long.json").path
    try convert(stm, json, FileFormat(.json))
    let formats: [FileFormat] = [
      .accessibleHTML, .compactModel, .markdown, FileFormat(.json), FileFormat(.text),
      FileFormat(.hocr),
    ]
    for input in [stm, json] {
      var runs: [(String, PageTraffic)] = try formats.map { format in
        let output = folder.appendingPathComponent("out-\(format.name)").path
        return ("convert to \(format.name)", try traffic { try convert(input, output, format) })
      }
      let tables = try traffic {
        try TableExport.write(
          input, recognizer: recognizer, format: .csv,
          folder: folder.appendingPathComponent("tables").path, io: .standard)
      }
      runs.append(("tables", tables))
      for (run, traffic) in runs {
        #expect(traffic.read == count, "\(input), \(run)")
        #expect(traffic.done == count, "\(input), \(run)")
        #expect(traffic.mostAhead <= 2, "\(input), \(run): \(traffic.mostAhead) ahead")
      }
    }
    let html = try String(
      contentsOfFile: folder.appendingPathComponent("out-accessible-html").path, encoding: .utf8)
    #expect(html.contains(#"<section class="page" id="page-2000""#))
  }

  /// `eval` and `draw` read a long model a page at a time (issue 45): a
  /// model made here (a line a page), as a compact model and as ScanText
  /// JSON, measured against itself (2,000 pages: the model's page and its
  /// truth page read together, never more than three read ahead of those
  /// done with) and drawn (200 pages, one picture each, none read more
  /// than two ahead), with the report and pictures a user reads. Before,
  /// both read every page of the model (and `eval` of the truth) first.
  @Test func evalAndDrawReadALongModelPageByPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func model(_ count: Int) throws -> (stm: String, json: String, pages: [Page]) {
      let pages = (0..<count).map { n in
        TypesetPage.page([["Page \(n + 1) of many"]]).withIndex(n)
      }
      let stm = folder.appendingPathComponent("long-\(count).stm").path
      let json = folder.appendingPathComponent("long-\(count).json").path
      let generator = Generator(name: "scantext", version: "test")
      try CompactModel.encode(Document(pages: pages), generator: generator)
        .write(to: URL(fileURLWithPath: stm))
      try DocumentJSON.encode(Document(pages: pages), generator: generator)
        .write(toFile: json, atomically: true, encoding: .utf8)
      return (stm, json, pages)
    }
    func traffic(_ run: () throws -> Void) throws -> PageTraffic {
      let traffic = PageTraffic()
      try PageTraffic.$current.withValue(traffic) { try run() }
      return traffic
    }
    let recognizer = Recognizer(options: RecognitionOptions())
    let long = try model(2_000)
    for input in [long.stm, long.json] {
      for json in [false, true] {
        let io = CapturedIO()
        let counted = try traffic {
          try EvaluationReport.write(
            model: input, truth: input, recognizer: recognizer, languageGiven: true, json: json,
            io: io.io)
        }
        #expect(counted.read == 4_000, "\(input), json \(json)")
        #expect(counted.done == 4_000, "\(input), json \(json)")
        #expect(counted.mostAhead <= 3, "\(input), json \(json): \(counted.mostAhead) ahead")
        let report = io.stdout
        if json {
          let parsed = try JSONValue(parsing: report)
          let pages = try #require(parsed["pages"]?.arrayValue)
          #expect(pages.count == 2_000)
          #expect(pages.last?["page"]?.doubleValue == 2_000)
          #expect(parsed["total"]?["cer"]?.doubleValue == 0)
        } else {
          let lines = report.split(separator: "\n")
          #expect(lines.count == 2_003, "\(input)")
          #expect(lines.first?.hasPrefix("long-2000.") == true)
          #expect(lines.dropLast().last?.hasPrefix("2000  ") == true)
          #expect(lines.last?.hasPrefix("total ") == true)
        }
      }
    }
    let drawn = try model(200)
    let drawing = PageDrawing(layers: .all, lowConfidence: 50)
    for input in [drawn.stm, drawn.json] {
      let out = folder.appendingPathComponent("drawn").path
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let counted = try traffic {
        try drawing.write(
          input, imagePath: nil, recognizer: recognizer, to: out + "/p.png", io: CapturedIO().io)
      }
      #expect(counted.read == 200 && counted.done == 200, "\(input)")
      #expect(counted.mostAhead <= 2, "\(input): \(counted.mostAhead) ahead")
      let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
      #expect(files == (1...200).map { String(format: "p-%03d.png", $0) })
      for n in [0, 99, 199] {
        let png = try Data(contentsOf: URL(fileURLWithPath: out + "/" + files[n]))
        #expect(png == (try drawing.png(of: drawn.pages[n], imageData: nil)), "page \(n + 1)")
      }
      try FileManager.default.removeItem(atPath: out)
    }
  }

  /// A long model given on standard input is spooled to a temporary file
  /// and read from it a page at a time, as from a file (issue 45): 2,000
  /// pages, as a compact model and as ScanText JSON, through `text -` and
  /// `convert - OUT`, never more than two read ahead, with the output the
  /// file gives. Before, standard input was read into memory and every
  /// page decoded before the first was written (no page was read from a
  /// paged document: none counted).
  @Test func aLongModelOnStandardInputIsReadPageByPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let count = 2_000
    let pages = (0..<count).map { n in
      TypesetPage.page([["Page \(n + 1) of many"]]).withIndex(n)
    }
    let generator = Generator(name: "scantext", version: "test")
    let stm = CompactModel.encode(Document(pages: pages), generator: generator)
    let json = Data(DocumentJSON.encode(Document(pages: pages), generator: generator).utf8)
    for (name, bytes) in [("stm", stm), ("json", json)] {
      let file = folder.appendingPathComponent("long.\(name)").path
      try bytes.write(to: URL(fileURLWithPath: file))
      for command in [["text"], ["convert", "-", folder.appendingPathComponent("out.json").path]] {
        let arguments = command.count == 1 ? command + ["-"] : command
        let captured = CapturedIO(inputBytes: [[UInt8](bytes)])
        let traffic = PageTraffic()
        let code = PageTraffic.$current.withValue(traffic) {
          ScanText.main(arguments, io: captured.io)
        }
        #expect(code == 0, "\(name) \(command[0]): \(captured.stderr)")
        #expect(traffic.read == count, "\(name) \(command[0])")
        #expect(traffic.done == count, "\(name) \(command[0])")
        #expect(traffic.mostAhead <= 2, "\(name) \(command[0]): \(traffic.mostAhead) ahead")
        let fromFile = CapturedIO()
        let fileArguments = arguments.map { $0 == "-" ? file : $0 }
        let written =
          command.count == 1 ? nil : try Data(contentsOf: URL(fileURLWithPath: command[2]))
        #expect(ScanText.main(fileArguments, io: fromFile.io) == 0)
        #expect(captured.stdoutBytes == fromFile.stdoutBytes, "\(name) \(command[0])")
        if let written {
          #expect(written == (try Data(contentsOf: URL(fileURLWithPath: command[2]))), "\(name)")
        }
      }
    }
  }

  /// PAGE XML holds one page: the second page stops the run, with the
  /// reason, exit 1 and no file (before, every page was read first).
  @Test func pageXMLOfSeveralPagesStopsAtTheSecond() throws {
    let pdf = try Self.document(pages: 3)
    let out = try Fixtures.temporaryFolder().appendingPathComponent("doc.page.xml").path
    let run = try ScanTextRun.run(["ocr", pdf, "-o", out, "-q"])
    #expect(run.code == 1)
    #expect(
      run.stderr.contains(
        "cannot write PAGE XML: PAGE XML holds one page and the document has more: write one file per page"
      ))
    #expect(!FileManager.default.fileExists(atPath: out))
    let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
  }

  /// Pieces come in input and page order, each input's last piece marked,
  /// a failed input in its place, while the workers read ahead.
  @Test func piecesArriveInOrder() throws {
    let pdf = try Self.document(pages: 4)
    let folder = try Fixtures.temporaryFolder()
    let model = folder.appendingPathComponent("one.json").path
    try DocumentJSON.encode(
      Document(pages: [try Fixtures.truth("clean.png")]), generator: ScanText.generator
    ).write(toFile: model, atomically: true, encoding: .utf8)
    let missing = folder.appendingPathComponent("missing.png").path
    let recognizer = Recognizer(options: .init(), jobs: 2)
    var seen: [(input: Int, numbers: [Int], failed: Bool, last: Bool)] = []
    recognizer.read([pdf, missing, model, pdf]) { part in
      var failed = false
      if case .failure = part.result.pages { failed = true }
      seen.append(
        (part.input, ((try? part.result.pages.get()) ?? []).map(\.number), failed, part.isLast))
    }
    #expect(seen.map(\.input) == [0, 0, 0, 0, 1, 2, 3, 3, 3, 3])
    #expect(seen.map(\.numbers) == [[1], [2], [3], [4], [], [1], [1], [2], [3], [4]])
    #expect(
      seen.map(\.failed) == [false, false, false, false, true, false] + [
        false, false, false, false,
      ])
    #expect(seen.map(\.last) == [false, false, false, true, true, true, false, false, false, true])
  }

  /// A delivery that fails stops the reading: no further piece is read.
  @Test func aFailedDeliveryStopsTheReading() throws {
    let pdf = try Self.document(pages: 12)
    struct Stop: Error {}
    var delivered = 0
    let read = Mutex(0)
    #expect(throws: Stop.self) {
      try Recognizer(options: .init(), jobs: 2).read(
        [pdf], progress: { done, _ in read.withLock { $0 = done } }
      ) { _ in
        delivered += 1
        if delivered == 2 { throw Stop() }
      }
    }
    #expect(delivered == 2)
    // At most the window (twice the workers) beyond what was delivered.
    #expect(read.withLock { $0 } <= 2 + 4)
  }

  /// What `Tools/bench/memory-bench` says of how peak memory grows, run with
  /// `arguments` on the built `scantext`.
  struct MemoryReport: Decodable {
    struct Growth: Decodable {
      var run: String
      var ratio: Double
    }
    var growth: [Growth]
  }

  static func memoryBench(_ arguments: [String]) throws -> MemoryReport {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", Fixtures.packageRoot.appendingPathComponent("Tools/bench/memory-bench").path]
      + arguments + ["--scantext", Fixtures.executable.path, "--json"]
    let out = Pipe()
    let err = FileManager.default.temporaryDirectory
      .appendingPathComponent("memory-bench-\(UUID().uuidString).err")
    try #require(FileManager.default.createFile(atPath: err.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: err) }
    process.standardOutput = out
    // Standard error to a file: read after standard output, a full pipe
    // would stall the tool.
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errors = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
    try #require(process.terminationStatus == 0, "\(errors)")
    return try JSONDecoder().decode(MemoryReport.self, from: data)
  }

  /// Peak memory does not grow with the number of pages
  /// (`Tools/bench/memory-bench`, the figures in docs/reliability.md): 100 pages within
  /// 1.5× of 10, for JSON (before: 1.62×), for ALTO, whose head comes
  /// last, for a searchable PDF of 100 image files (before: 2.74× from 30
  /// to 300 images) and for accessible HTML (before: 3.3× from 30 to 300
  /// pages).
  ///
  /// Not under AddressSanitizer (`Tools/check/asan.sh` sets `ASAN_OPTIONS`): its
  /// shadow memory and its quarantine of freed blocks (256 MB) make the
  /// peak grow with the memory a run frees, not with what it holds.
  @Test(
    .disabled(
      if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil,
      "peak memory under AddressSanitizer counts its shadow and quarantine"))
  func memoryDoesNotGrowWithPages() throws {
    let report = try Self.memoryBench([
      "--pages", "10,100", "--formats", "json,alto,pdf-of-images,html,stm",
    ])
    #expect(report.growth.map(\.run) == ["json", "alto", "pdf-of-images", "html", "stm"])
    for growth in report.growth {
      #expect(growth.ratio <= 1.5, "\(growth.run): 100 pages at \(growth.ratio)× the peak of 10")
    }
  }

  /// The commands that read a model hold a bounded number of pages
  /// (issue 45, point 2): `text`, `verify`, `lines`, `outline`, `html`,
  /// `convert` and `query` (about the last page) on a compact model, a
  /// JSON model and a born-digital PDF of 200 pages peak within 1.2× of
  /// the same of 20 (`Tools/bench/memory-bench --models`; before, `lines` of a
  /// `.stm` grew 1.18× from 20 to 100 pages and `query` of a PDF read
  /// every page).
  @Test(
    .disabled(
      if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil,
      "peak memory under AddressSanitizer counts its shadow and quarantine"))
  func modelCommandsHoldABoundedNumberOfPages() throws {
    let report = try Self.memoryBench(["--models", "--pages", "20,200"])
    let commands = ["text", "verify", "lines", "outline", "html", "convert", "query"]
    #expect(
      report.growth.map(\.run)
        == ["stm", "json", "pdf"].flatMap { kind in commands.map { "\($0) \(kind)" } })
    for growth in report.growth {
      #expect(growth.ratio <= 1.2, "\(growth.run): 200 pages at \(growth.ratio)× the peak of 20")
    }
  }
}
