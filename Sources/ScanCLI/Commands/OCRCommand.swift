import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

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
  let jobCount: Int
  let showProgress: Bool
  let ocr: ReadingSettings
  /// `--sidecar`: where the document's plain text goes as well.
  let sidecarPath: String?

  init(_ a: ParsedArguments) throws {
    var paths = try a[Self.images]
    var output = try a[Self.output]
    let dir = try a[Self.outputDir]
    if let last = try OutputFile.outputNamedLast(paths, output: output, outputDir: dir) {
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
    ocr = try ReadingSettings(a)
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
    let output = ocr.sink(
      outputFormat, to: folder.map { .folder($0.path) } ?? .file(outputPath), io: io)
    // `--sidecar`: the same pages as plain text, written beside.
    let sidecar = sidecarPath.map { ocr.sink(FileFormat(.text), to: .file($0), io: io) }
    sidecar?.writesPageImages = false
    try Pipeline(ocr.recognizer(jobs: jobCount)).run(
      paths, into: output, sidecar: sidecar, showProgress: showProgress,
      notesKeptText: ocr.pdfText == .keep && showProgress)
    return 0
  }
}
