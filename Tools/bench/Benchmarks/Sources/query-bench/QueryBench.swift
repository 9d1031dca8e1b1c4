import Foundation
import ScanFormats
import ScanModel

/// Measures the query speed and memory of the ScanText model on a synthetic
/// 1,000-page document, then the end-to-end throughput of `scantext query`.
///
/// Options: `--scantext PATH` (default: the main package's
/// `.build/release/scantext`), `--pages N` (1000), `--queries N` (300000 per
/// query kind), `--requests N` (200000 for `scantext query`), `--seed N`,
/// `--no-cli` (skip the end-to-end part).
@main
struct QueryBench {
  struct Options {
    var scantext: String
    var pages = 1000
    var queries = 300_000
    var requests = 200_000
    var seed: UInt64 = 20_240_601
    var cli = true
    /// A folder to keep the document and the requests in (for profiling).
    var keep: String?
  }

  static func main() {
    let options = parseOptions()
    print("query-bench: \(options.pages) synthetic pages, \(options.queries) queries per kind")
    print()

    // MARK: Load: build every Page (its text and query index) from elements.
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    let rssBefore = residentPages() * pageSize
    var pages: [Page] = []
    pages.reserveCapacity(options.pages)
    var glyphCount = 0
    var wordCount = 0
    var lineCount = 0
    var build = Duration.zero
    var generate = Duration.zero
    let clock = ContinuousClock()
    for i in 0..<options.pages {
      let start = clock.now
      let (blocks, glyphs) = SyntheticDocument.blocks(page: i, seed: options.seed)
      let mid = clock.now
      let page = Page(
        index: i, image: "page-\(i).png", width: SyntheticDocument.pageWidth,
        height: SyntheticDocument.pageHeight, dpi: 300, language: "eng", blocks: blocks)
      let end = clock.now
      generate += mid - start
      build += end - mid
      pages.append(page)
      glyphCount += glyphs
    }
    let rssAfter = residentPages() * pageSize
    for page in pages {
      lineCount += page.lineCount
      wordCount += page.blocks.reduce(0) {
        $0 + $1.paragraphs.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.words.count } }
      }
    }
    let bytesPerGlyph = Double(rssAfter - rssBefore) / Double(max(glyphCount, 1))
    let document = Document(pages: pages)
    print(
      "document: \(pages.count) pages, \(lineCount) lines, \(wordCount) words, \(glyphCount) glyphs "
        + "(\(lineCount / max(pages.count, 1)) lines, \(wordCount / max(pages.count, 1)) words, "
        + "\(glyphCount / max(pages.count, 1)) glyphs per page)")
    print()

    // MARK: Queries
    var rng = SeededGenerator(seed: options.seed ^ 0x5EED)
    let n = options.queries
    let pageCount = pages.count
    func randomPoint(_ rng: inout SeededGenerator) -> (Int, Point) {
      (
        rng.int(0..<pageCount),
        Point(
          x: rng.double(0..<Double(SyntheticDocument.pageWidth)),
          y: rng.double(0..<Double(SyntheticDocument.pageHeight)))
      )
    }
    let hitPoints = (0..<n).map { _ in randomPoint(&rng) }
    let characterPoints = (0..<n).map { _ in randomPoint(&rng) }
    let lineRanges: [(Int, TextRange)] = (0..<n).map { _ in
      let p = rng.int(0..<pageCount)
      let line = pages[p].line(number: rng.int(0..<pages[p].lineCount))!
      return (p, line.range)
    }
    let positions: [(Int, TextPosition)] = (0..<n).map { _ in
      let p = rng.int(0..<pageCount)
      return (p, TextPosition(offset: rng.int(0...pages[p].endPosition.offset)))
    }
    let paragraphRects: [[Rect]] = pages.map { page in
      page.blocks.flatMap { $0.paragraphs.map(\.bbox.rect) }
    }
    let rects: [(Int, Rect)] = (0..<n).map { _ in
      let p = rng.int(0..<pageCount)
      let r = paragraphRects[p][rng.int(0..<paragraphRects[p].count)]
      let pad = rng.double(0..<12)
      return (
        p, Rect(minX: r.minX - pad, minY: r.minY - pad, maxX: r.maxX + pad, maxY: r.maxY + pad)
      )
    }

    var results: [(name: String, ns: Double, checksum: Int)] = []
    /// Times `count` calls of `body` three times; keeps the median.
    func measure(_ name: String, _ count: Int, _ body: (Int) -> Int) {
      var checksum = 0
      for i in 0..<min(count, 2000) { checksum &+= body(i) }  // warm-up
      var times: [Double] = []
      for _ in 0..<3 {
        checksum = 0
        let start = clock.now
        for i in 0..<count { checksum &+= body(i) }
        times.append(nanoseconds(clock.now - start) / Double(count))
      }
      results.append((name, times.sorted()[1], checksum))
    }

    measure("closestPosition(to:)", n) { i in
      let (p, point) = hitPoints[i]
      return document.pages[p].closestPosition(to: point).offset
    }
    measure("selectionRects(for:) of a whole line", n) { i in
      let (p, range) = lineRanges[i]
      let rects = document.pages[p].selectionRects(for: range)
      return rects.count &+ Int(rects.first?.rect.maxX ?? 0)
    }
    measure("rangeEnclosingPosition(_:with: .word, .forward)", n) { i in
      let (p, position) = positions[i]
      let r = document.pages[p].rangeEnclosingPosition(position, with: .word, inDirection: .forward)
      return r.map { $0.upperBound.offset &- $0.lowerBound.offset &+ 1 } ?? 0
    }
    measure("text(in: Rect) of a paragraph", n) { i in
      let (p, rect) = rects[i]
      return document.pages[p].text(in: rect).utf8.count
    }
    measure("characterRange(at:)", n) { i in
      let (p, point) = characterPoints[i]
      return document.pages[p].characterRange(at: point)?.lowerBound.offset ?? -1
    }

    let targetNs = 2_000.0
    print("| query | ns per query (median of 3 × \(n)) | queries per second | target ≤ 2 µs |")
    print("|---|---:|---:|---|")
    var checksum = 0
    for r in results {
      checksum &+= r.checksum
      print(
        "| \(r.name) | \(format(r.ns, 1)) | \(grouped(1e9 / r.ns)) | \(r.ns <= targetNs ? "ok" : "MISSED") |"
      )
    }
    let buildMs = nanoseconds(build) / 1e6
    let generateMs = nanoseconds(generate) / 1e6
    print()
    print(
      "model load (building all \(pages.count) Pages from their elements): \(format(buildMs, 1)) ms "
        + "(\(format(buildMs * 1000 / Double(max(pages.count, 1)), 1)) µs per page, "
        + "\(format(nanoseconds(build) / Double(max(glyphCount, 1)), 1)) ns per glyph); "
        + "generating the elements took \(format(generateMs, 1)) ms more")
    print(
      "memory: \(format(bytesPerGlyph, 1)) bytes per glyph (RSS +\(format(Double(rssAfter - rssBefore) / 1_048_576, 1)) MiB "
        + "for \(glyphCount) glyphs, elements and index included); target ≤ 200: "
        + (bytesPerGlyph <= 200 ? "ok" : "MISSED"))
    print(
      "element strides (bytes): Glyph \(MemoryLayout<Glyph>.stride), Word \(MemoryLayout<Word>.stride), "
        + "TextLine \(MemoryLayout<TextLine>.stride), Quad? \(MemoryLayout<Quad?>.stride), "
        + "PixelRect \(MemoryLayout<PixelRect>.stride), TextRange \(MemoryLayout<TextRange>.stride)"
    )
    print("checksum: \(checksum)")

    if options.cli {
      print()
      endToEnd(document, options: options)
    }
  }

  // MARK: scantext query, end to end

  static func endToEnd(_ document: Document, options: Options) {
    let scantext = options.scantext
    guard FileManager.default.isExecutableFile(atPath: scantext) else {
      print(
        "scantext query: skipped, no executable at \(scantext) (build it with "
          + "`swift build -c release --product scantext` in the main package, or pass --scantext PATH)"
      )
      return
    }
    let clock = ContinuousClock()
    let folder =
      options.keep.map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory
      .appendingPathComponent("query-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { if options.keep == nil { try? FileManager.default.removeItem(at: folder) } }
    let model = folder.appendingPathComponent("document.json")

    let encodeStart = clock.now
    var json = DocumentJSON.encode(
      document, generator: Generator(name: "query-bench", version: "1"))
    let encodeTime = clock.now - encodeStart
    let jsonBytes = json.utf8.count
    do {
      try json.write(to: model, atomically: false, encoding: .utf8)
    } catch {
      print("scantext query: skipped, cannot write \(model.path): \(error)")
      return
    }
    json = ""

    // A mix of requests over random pages.
    var rng = SeededGenerator(seed: options.seed ^ 0xC0FFEE)
    var lines = ""
    lines.reserveCapacity(options.requests * 80)
    var counts = [String: Int]()
    for i in 0..<options.requests {
      let p = rng.int(0..<document.pages.count)
      let page = document.pages[p]
      let length = page.endPosition.offset
      let s = rng.int(0...length)
      let e = min(length, s + rng.int(0...120))
      let x = Int(rng.double(0..<Double(SyntheticDocument.pageWidth)))
      let y = Int(rng.double(0..<Double(SyntheticDocument.pageHeight)))
      let kind: String
      switch i % 8 {
      case 0, 1:
        kind = "text (range)"
        lines += #"{"op":"text","page":\#(p),"range":[\#(s),\#(e)]}"#
      case 2:
        kind = "text (rect 600×300)"
        lines += #"{"op":"text","page":\#(p),"rect":[\#(x),\#(y),\#(x + 600),\#(y + 300)]}"#
      case 3, 4:
        kind = "rects"
        lines += #"{"op":"rects","page":\#(p),"range":[\#(s),\#(e)]}"#
      case 5, 6:
        kind = "hit"
        lines += #"{"op":"hit","page":\#(p),"point":[\#(x),\#(y)]}"#
      default:
        kind = "enclosing (word)"
        lines +=
          #"{"op":"enclosing","page":\#(p),"position":\#(s),"granularity":"word","direction":"forward"}"#
      }
      counts[kind, default: 0] += 1
      lines += "\n"
    }
    let requests = Data(lines.utf8)
    lines = ""
    if options.keep != nil {
      try? requests.write(to: folder.appendingPathComponent("requests.jsonl"))
    }

    print("scantext query end to end (\(scantext)):")
    print(
      "  model: \(format(Double(jsonBytes) / 1_048_576, 1)) MiB JSON of \(document.pages.count) pages "
        + "(DocumentJSON.encode took \(format(seconds(encodeTime), 2)) s)")
    print(
      "  requests: \(options.requests) ("
        + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        + ")")
    print()
    let firstUse = Data(
      (0..<document.pages.count).map { #"{"op":"text","page":\#($0),"range":[0,1]}"# + "\n" }
        .joined().utf8)
    print(
      "| answers go to | open (start to first answer) | first use of every page | answering | requests per second | µs per request | target ≥ 100,000 |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for reading in [false, true] {
      guard
        let session = querySession(
          scantext, model: model, firstUse: firstUse, firstUseCount: document.pages.count,
          requests: requests, readThroughPipe: reading,
          answersFile: folder.appendingPathComponent("answers.jsonl"))
      else { return }
      let rate = Double(options.requests) / session.answering
      print(
        "| \(reading ? "a pipe read by this process" : "a file") | \(format(session.load, 2)) s "
          + "| \(format(session.firstUse, 2)) s "
          + "| \(format(session.answering, 2)) s | \(grouped(rate)) "
          + "| \(format(session.answering * 1e6 / Double(options.requests), 2)) "
          + "| \(rate >= 100_000 ? "ok" : "MISSED") |")
      if session.answers != options.requests || session.errors > 0 || session.status != 0 {
        print(
          "  WARNING: expected \(options.requests) answers, got \(session.answers) "
            + "(\(session.errors) errors); exit status \(session.status)")
      }
    }
  }

  /// One `scantext query` session: starts it, sends one request and waits for
  /// its answer (the load time), then `firstUse` (a request on every page:
  /// a paged document decodes each page when first named) and a marked
  /// request, waiting for its answer (the first use), then pipes in all `requests` and a last
  /// marked request from another thread, and waits for the marked answer (the
  /// answering time; the process's exit and teardown are not counted).
  /// Answers go to a file, or through a pipe that this process reads.
  static func querySession(
    _ scantext: String, model: URL, firstUse: Data, firstUseCount: Int, requests: Data,
    readThroughPipe: Bool, answersFile: URL
  ) -> (
    load: Double, firstUse: Double, answering: Double, answers: Int, errors: Int, status: Int32
  )? {
    let clock = ContinuousClock()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: scantext)
    process.arguments = ["query", model.path]
    let input = Pipe()
    process.standardInput = input
    let output = Pipe()
    if readThroughPipe {
      process.standardOutput = output
    } else {
      _ = FileManager.default.createFile(atPath: answersFile.path, contents: nil)
      guard let handle = FileHandle(forWritingAtPath: answersFile.path) else {
        print("scantext query: cannot write \(answersFile.path)")
        return nil
      }
      process.standardOutput = handle
    }
    var marker = Array(#""id":"end-of-benchmark""#.utf8)
    /// Whether the answer to the marked request has arrived, judged by the
    /// last bytes of the output.
    func endsWithMarkedAnswer(_ tail: Data) -> Bool {
      guard tail.last == 0x0A else { return false }
      let lastLine =
        tail.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).last ?? Data()
      return lastLine.firstRange(of: marker) != nil
    }
    func fileTail() -> Data {
      guard let handle = FileHandle(forReadingAtPath: answersFile.path) else { return Data() }
      defer { try? handle.close() }
      let size = (try? handle.seekToEnd()) ?? 0
      try? handle.seek(toOffset: size > 256 ? size - 256 : 0)
      return (try? handle.readToEnd()) ?? Data()
    }

    let start = clock.now
    do {
      try process.run()
    } catch {
      print("scantext query: cannot run \(scantext): \(error)")
      return nil
    }
    let writer = input.fileHandleForWriting
    writer.write(Data(#"{"op":"pages"}"#.utf8 + [0x0A]))
    var answers = Data()
    if readThroughPipe {
      while !answers.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        answers.append(chunk)
      }
    } else {
      while process.isRunning, !fileTail().contains(0x0A) { usleep(500) }
    }
    let loaded = clock.now
    guard process.isRunning else {
      process.waitUntilExit()
      print("scantext query: \(scantext) exited (\(process.terminationStatus)) before answering")
      return nil
    }
    // The first use of every page (a paged document decodes a page when a
    // request first names it): one request a page, answered before the
    // timed requests, all pages then held in memory.
    marker = Array(#""id":"end-of-first-use""#.utf8)
    let warmUp = Thread {
      writer.write(firstUse)
      writer.write(Data(#"{"op":"pages","id":"end-of-first-use"}"#.utf8 + [0x0A]))
    }
    warmUp.start()
    var used: ContinuousClock.Instant?
    if readThroughPipe {
      while used == nil {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        answers.append(chunk)
        if endsWithMarkedAnswer(answers.suffix(256)) { used = clock.now }
      }
    } else {
      while process.isRunning, used == nil {
        if endsWithMarkedAnswer(fileTail()) { used = clock.now }
        usleep(200)
      }
    }
    let decoded = used ?? clock.now
    while !warmUp.isFinished { usleep(100) }
    marker = Array(#""id":"end-of-benchmark""#.utf8)
    let thread = Thread {
      writer.write(requests)
      writer.write(Data(#"{"op":"pages","id":"end-of-benchmark"}"#.utf8 + [0x0A]))
      try? writer.close()
    }
    thread.start()
    var done: ContinuousClock.Instant?
    if readThroughPipe {
      while true {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        answers.append(chunk)
        if done == nil, endsWithMarkedAnswer(answers.suffix(256)) { done = clock.now }
      }
    } else {
      while process.isRunning {
        if endsWithMarkedAnswer(fileTail()) {
          done = clock.now
          break
        }
        usleep(200)
      }
    }
    let finished = done ?? clock.now
    process.waitUntilExit()
    if !readThroughPipe {
      answers = FileManager.default.contents(atPath: answersFile.path) ?? Data()
    }

    // Count the answers between the first-use marker's and the last
    // marked one, and the errors among them.
    var count = -3 - firstUseCount
    var errors = 0
    let errorPrefix = Array(#"{"error""#.utf8)
    var lineStart = answers.startIndex
    for i in answers.indices where answers[i] == 0x0A {
      count += 1
      if answers[lineStart..<i].starts(with: errorPrefix) { errors += 1 }
      lineStart = i + 1
    }
    if done == nil {
      print("  WARNING: the marked last answer never arrived; answering time includes the exit")
    }
    return (
      seconds(loaded - start), seconds(decoded - loaded), seconds(finished - decoded),
      max(count, 0), errors, process.terminationStatus
    )
  }

  // MARK: Helpers

  static func parseOptions() -> Options {
    let benchFile = URL(fileURLWithPath: #filePath)
    // Tools/bench/Benchmarks/Sources/query-bench/QueryBench.swift -> the main package.
    let mainPackage = benchFile.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var options = Options(
      scantext: mainPackage.appendingPathComponent(".build/release/scantext").path)
    var args = CommandLine.arguments.dropFirst()
    func value(_ name: String) -> String {
      guard let v = args.popFirst() else { usage("\(name) needs a value") }
      return v
    }
    func number(_ name: String) -> Int {
      guard let n = Int(value(name)), n > 0 else { usage("\(name) needs a positive integer") }
      return n
    }
    while let arg = args.popFirst() {
      switch arg {
      case "--scantext": options.scantext = value(arg)
      case "--pages": options.pages = number(arg)
      case "--queries": options.queries = number(arg)
      case "--requests": options.requests = number(arg)
      case "--seed": options.seed = UInt64(number(arg))
      case "--no-cli": options.cli = false
      case "--keep": options.keep = value(arg)
      case "-h", "--help":
        print(
          "usage: query-bench [--scantext PATH] [--pages N] [--queries N] [--requests N] [--seed N] [--no-cli] [--keep DIR]"
        )
        exit(0)
      default: usage("unknown argument '\(arg)'")
      }
    }
    return options
  }

  static func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("query-bench: \(message)\n".utf8))
    exit(2)
  }

  /// The resident set size in pages, from /proc/self/statm.
  static func residentPages() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? Int(fields[1]) ?? 0 : 0
  }

  static func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
  }

  static func seconds(_ d: Duration) -> Double { nanoseconds(d) / 1e9 }

  static func format(_ x: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", x)
  }

  /// An integer with thousands separators.
  static func grouped(_ x: Double) -> String {
    let digits = String(Int(x.rounded()))
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
      if i > 0, i % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return String(out.reversed())
  }
}
