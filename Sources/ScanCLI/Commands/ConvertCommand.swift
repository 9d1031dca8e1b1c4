import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// `scantext convert IN OUT`: from any readable format (or an image) to
/// any format.
struct ConvertCommand: ScanCommand {
  static let input = Argument<String>(
    "input",
    help:
      "A document (ScanText JSON, hOCR, ALTO 2-4, PAGE XML 2013-2019, Tesseract TSV) or an image to recognise; '-' for standard input."
  )
  static let output = Argument<String>(
    "output", help: "The file to write, or '-' for standard output.")
  static let format = Option<FileFormat?>(
    "format", help: FileFormat.help("pdf is a searchable PDF."))
  static let image = Option<String?>(
    "image",
    help:
      "For a PDF from a model: the page image (default: each page's image file beside the model)."
  )

  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert between ScanText JSON, hOCR, ALTO, PAGE XML, Tesseract TSV and plain text.",
    discussion: """
      The input's format comes from its extension, or its content for .xml \
      files (the root element: alto, PcGts or html). What a format cannot \
      carry is lost on the way (see the README); boxes, text and reading \
      order always survive. The output is written to a temporary file and \
      renamed, so a failure never leaves a partial file.
      """,
    arguments: [input, output, format, image] + OCROptions.arguments)

  let inputPath: String
  let outputPath: String
  let outputFormat: FileFormat
  let ocr: ReadingSettings
  let imagePath: String?

  init(_ a: ParsedArguments) throws {
    inputPath = try a[Self.input]
    outputPath = try a[Self.output]
    imagePath = try a[Self.image]
    try InputFiles.checkStandardInputOnce([inputPath, imagePath])
    outputFormat = try FileFormat.choose(explicit: a[Self.format], path: outputPath)
    ocr = try ReadingSettings(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try Conversion(
      inputPath: inputPath, outputPath: outputPath, format: outputFormat, imagePath: imagePath,
      recognizer: ocr.recognizer(), settings: ocr.writerSettings(writing: outputPath, io: io)
    ).run(io: io)
    return 0
  }
}
