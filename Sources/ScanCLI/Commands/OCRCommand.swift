import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService
import Synchronization

struct OCRCommand: ScanCommand {
  static let images = Argument<[String]>(
    "images",
    help:
      "Image files (PNG, JPEG, TIFF, PNM, BMP, WebP, GIF) and PDFs; '-' reads one from standard input."
  )
  static let output = Option<String?>(
    "output", short: "o",
    help:
      "Write to this file instead of standard output ('-': standard output; a FIFO or device is written into)."
  )
  static let outputDir = Option<String?>(
    "output-dir",
    help:
      "Write one output per input into this folder (made when missing), named after the input: 'scans/p7.tif' gives 'DIR/p7.json' (the format from --format, default json)."
  )
  static let format = Option<FileFormat?>(
    "format",
    help: FileFormat.help("pdf is a searchable PDF: the images with an invisible text layer."))
  static let sidecar = Option<String?>(
    "sidecar",
    help:
      "Also write the recognised text of the whole document to this file ('-': standard output), as 'scantext text' gives it (OCRmyPDF's --sidecar)."
  )
  static let jobs = JobsOption.option
  static let quiet = Flag("quiet", short: "q", help: "Show no progress.")

  static let configuration = CommandConfiguration(
    commandName: "ocr",
    abstract:
      "Recognize text in scanned pages and export JSON, hOCR, ALTO, PAGE XML, TSV or plain text.",
    discussion: """
      Every page of every image becomes one page of the output document, in \
      input order; with --output-dir each input has its own output instead. \
      When some images fail, the others are still written; each failure is \
      reported and the exit code is 1. OCRmyPDF's form 'scantext ocr IN OUT' \
      (one input, OUT named for an output format and not a folder) means \
      'scantext ocr IN -o OUT'. Standard output on a terminal gets plain \
      text unless --format says otherwise (JSON for a pipe or a file).
      """,
    arguments: [images, output, outputDir, format, sidecar, jobs, quiet] + OCROptions.arguments)

  let paths: [String]
  /// Where the output goes: a file, or `-` for standard output.
  let outputPath: String
  /// The format `--format` or the output's name chose, else JSON.
  let chosenFormat: FileFormat
  /// Whether neither `--format` nor an output chose the format: standard
  /// output then gets plain text when it is a terminal.
  let formatIsDefault: Bool
  /// `--output-dir`: one output per input.
  let folder: OutputFolder?
  let options: RecognitionOptions
  let jobCount: Int
  let showProgress: Bool
  let ocr: OCROptions
  /// `--sidecar`: where the document's plain text goes as well.
  let sidecarPath: String?

  init(_ a: ParsedArguments) throws {
    var paths = try a[Self.images]
    var output = try a[Self.output]
    let dir = try a[Self.outputDir]
    if let last = try Self.outputNamedLast(paths, output: output, outputDir: dir) {
      paths.removeLast()
      output = last
    }
    self.paths = paths
    try InputFiles.checkStandardInputOnce(paths)
    outputPath = output ?? "-"
    let explicit = try a[Self.format]
    formatIsDefault = explicit == nil && output == nil && dir == nil
    chosenFormat = try FileFormat.choose(explicit: explicit, path: output)
    let outputFormat = chosenFormat
    if let dir {
      guard output == nil else {
        throw ValidationError("'--output' and '--output-dir' cannot be used together")
      }
      folder = try OutputFolder(dir, inputs: paths, format: outputFormat)
    } else {
      folder = nil
    }
    ocr = try OCROptions(a)
    options = ocr.recognition
    sidecarPath = try a[Self.sidecar]
    if let sidecarPath {
      guard dir == nil else {
        throw ValidationError("'--sidecar' and '--output-dir' cannot be used together")
      }
      if sidecarPath == outputPath {
        throw ValidationError(
          sidecarPath == "-"
            ? "'--sidecar -' and the output cannot both go to standard output: write the output with -o"
            : "'--sidecar' names the output itself ('\(sidecarPath.escapingControlCharacters)')")
      }
    }
    jobCount = try JobsOption.count(a)
    showProgress = !a[Self.quiet]
  }

  func run(_ io: CommandIO) throws -> Int32 {
    // JSON is for programs: a person at a terminal gets the text.
    let outputFormat =
      formatIsDefault && io.outputIsTerminal ? FileFormat(.text) : chosenFormat
    let output = sink(outputFormat, to: folder.map { .folder($0.path) } ?? .file(outputPath), io)
    // `--sidecar`: the same pages as plain text, written beside.
    let sidecar = sidecarPath.map { sink(FileFormat(.text), to: .file($0), io) }
    sidecar?.writesPageImages = false
    try output.check(inputs: paths)
    // Neither an input nor the output (by another name) is replaced.
    try sidecar?.check(inputs: paths, alsoRefusing: [outputPath])
    if outputFormat == .searchablePDF { try SearchablePDFOutput.checkInputs(paths) }
    if outputFormat.document == .tsv, sidecarPath == nil,
      ExactTSV.applies(format: .tsv, paths: paths, options: options)
    {
      return try writeExactTSV(io)
    }
    let progress = progressLine(io)
    var showDone: Recognizer.Progress?
    if let progress { showDone = { done, total in progress.update(done, total) } }
    defer { progress?.finish() }
    var keptText: [Int] = []
    // Failures as they come, between updates of the progress line; a
    // PDF's pages read from its text named after its last.
    func report(_ part: Recognizer.InputPart) {
      var errors = part.result.pageErrors
      if case .failure(let error) = part.result.pages { errors = [error] }
      for error in errors {
        progress?.clear()
        io.printErrorMessage(error.message)
      }
      guard ocr.pdfText == .keep, showProgress else { return }
      let pages = ((try? part.result.pages.get()) ?? []).map(\.page)
      keptText += pages.filter { $0.source == .pdfText }.compactMap { $0.pdf?.page }
      guard part.isLast else { return }
      if let note = Self.keptTextNote(path: part.result.path, pageNumbers: keptText) {
        progress?.clear()
        io.printError(note)
      }
      keptText = []
    }
    // Every format is written page by page as pages are read, through the
    // format's writer: memory holds the pages in flight, not the document
    // (but for a searchable PDF of PDFs, which qpdf edits whole: see
    // SearchablePDFOutput).
    var failures: [ServiceError] = []
    _ = try Pipeline(ocr.recognizer(jobs: jobCount)).run(
      paths, into: [output] + (sidecar.map { [$0] } ?? []), failures: &failures,
      progress: showDone, readingDone: { progress?.finish() }, observe: report)
    if !failures.isEmpty { throw BatchFailure() }
    return 0
  }

  /// The sink of an output in `format`, written with the command's
  /// settings and streams.
  private func sink(
    _ format: FileFormat, to destination: DocumentSink.Destination, _ io: CommandIO
  ) -> DocumentSink {
    let sink = DocumentSink(format: format, destination: destination)
    sink.io = io
    let ocr = self.ocr
    sink.settingsForPath = { ocr.writerSettings(writing: $0, io: io) }
    return sink
  }

  /// The progress line on a terminal for several inputs or a PDF (whose
  /// pages are read one by one: its progress is shown even alone).
  private func progressLine(_ io: CommandIO) -> ProgressLine? {
    let readsPDF = paths.contains { Recognizer.looksLikePDF($0) }
    guard showProgress, io.errorIsTerminal, paths.count > 1 || readsPDF else { return nil }
    return ProgressLine(
      io: io, unit: readsPDF || paths.contains(where: InputFiles.isTIFF) ? "pages" : "images")
  }

  /// Tesseract's own TSV (``ExactTSV``): to the output, or to each input's
  /// file in the folder.
  private func writeExactTSV(_ io: CommandIO) throws -> Int32 {
    guard let folder else {
      try ExactTSV.write(paths: paths, options: options, to: outputPath, io: io)
      return 0
    }
    var failed = false
    for (input, output) in zip(paths, folder.outputs) {
      do {
        try ExactTSV.write(paths: [input], options: options, to: output, io: io)
      } catch is BatchFailure {
        failed = true
      }
    }
    if failed { throw BatchFailure() }
    return 0
  }
}

extension OCRCommand {
  /// The output OCRmyPDF's form `ocr IN OUT` names, `nil` when the
  /// positionals are all inputs: exactly two, no `-o` or `--output-dir`,
  /// the first not a folder, the second named for an output format (by its
  /// ending) and not there yet or a regular file, but not a model ScanText
  /// reads (`ocr a.json b.json` reads two models, and never replaces one).
  /// - Throws: ``ValidationError`` with the `-o` hint when two positionals
  ///   end with one named for a format `ocr` cannot read (`.txt`, `.html`;
  ///   not `.pdf` or a model) but the form does not apply.
  static func outputNamedLast(_ paths: [String], output: String?, outputDir: String?) throws
    -> String?
  {
    guard paths.count == 2, let first = paths.first, let last = paths.last,
      let format = FileFormat(fileName: last)
    else { return nil }
    var info = stat()
    let lastExists = stat(last, &info) == 0
    let isInput =
      format.isReadable || BatchPlan.endings.contains((last as NSString).pathExtension.lowercased())
    var isFolder: ObjCBool = false
    let firstIsFolder =
      FileManager.default.fileExists(atPath: first, isDirectory: &isFolder) && isFolder.boolValue
    // A PDF or text file there is replaced (as OCRmyPDF replaces its
    // output); a model there is an input.
    let replaceable = !lastExists || (info.st_mode & S_IFMT == S_IFREG && !format.isReadable)
    if output == nil, outputDir == nil, !firstIsFolder, replaceable { return last }
    guard !isInput else { return nil }
    throw ValidationError(
      "'\(last.escapingControlCharacters)' is named for an output, not an input: write the output with -o ('scantext ocr \(first.escapingControlCharacters) -o \(last.escapingControlCharacters)')"
    )
  }

  /// The note for a PDF whose pages with text were read from it (the
  /// default, ``ScanOCR/PDFTextPolicy/keep``): which pages (`numbers`,
  /// from 1), and the other choices; `nil` when there are none.
  static func keptTextNote(path: String, pageNumbers numbers: [Int]) -> String? {
    guard !numbers.isEmpty else { return nil }
    let one = numbers.count == 1
    return "Note: \(path): \(one ? "page" : "pages") \(ranges(numbers)) already "
      + (one
        ? "has text: its words come from the PDF and a searchable PDF keeps it as it is; "
        : "have text: their words come from the PDF and a searchable PDF keeps them as they are; ")
      + "--redo-ocr replaces an earlier OCR layer, --force-ocr recognises every page."
  }

  /// Numbers in ascending order as ranges: `1-3, 5`.
  static func ranges(_ numbers: [Int]) -> String {
    var parts: [String] = []
    var start = 0
    let sorted = numbers.sorted()
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      parts.append(end == start ? "\(sorted[start])" : "\(sorted[start])-\(sorted[end])")
      start = end + 1
    }
    return parts.joined(separator: ", ")
  }
}

/// A one-line progress display on a terminal: pages done of total, pages per
/// second and time left.
final class ProgressLine: Sendable {
  private let io: CommandIO
  private let started = Date()
  /// What is counted: images, or the pages of PDFs (with other inputs).
  private let unit: String

  init(io: CommandIO, unit: String = "images") {
    self.io = io
    self.unit = unit
  }

  /// Whether the line is on the terminal; also serialises its updates,
  /// which come from the workers, with messages printed between them.
  private let shown = Mutex(false)

  func update(_ done: Int, _ total: Int) {
    let elapsed = Date().timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let rateText = String(format: "%.1f", rate)
    shown.withLock { shown in
      io.writeError(
        "\r\u{1B}[K\(done)/\(total) \(unit), \(rateText)/s, \(Int(left.rounded())) s left")
      shown = true
    }
  }

  /// Takes the line off the terminal (before a message; the next update
  /// shows it again).
  func clear() {
    shown.withLock { shown in
      if shown { io.writeError("\r\u{1B}[K") }
      shown = false
    }
  }

  func finish() { clear() }
}
