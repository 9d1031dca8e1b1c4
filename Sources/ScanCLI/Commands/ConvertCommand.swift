import Foundation
import ScanArguments
import ScanFormats
import ScanModel

/// `scantext convert IN OUT`: from any readable format (or an image) to
/// any format.
struct ConvertCommand: ScanCommand {
  static let input = Argument<String>(
    "input",
    help:
      "A document (ScanText JSON, hOCR, ALTO 2-4, PAGE XML 2013-2019, Tesseract TSV) or an image to recognise."
  )
  static let output = Argument<String>(
    "output", help: "The file to write, or '-' for standard output.")
  static let format = Option<DocumentFormat?>(
    "format",
    help:
      "Output format (default: from the output file's extension: .json, .txt, .hocr, .alto.xml, .page.xml, .tsv)."
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
    arguments: [input, output, format] + OCROptions.arguments)

  let inputPath: String
  let outputPath: String
  let outputFormat: DocumentFormat
  let ocr: OCROptions

  init(_ a: ParsedArguments) throws {
    inputPath = try a[Self.input]
    outputPath = try a[Self.output]
    outputFormat = try DocumentFiles.outputFormat(
      explicit: a[Self.format], path: outputPath == "-" ? nil : outputPath,
      fallback: outputPath == "-" ? .json : nil)
    ocr = try OCROptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    if outputPath != "-" { try OutputFile.checkWritable(outputPath) }
    let document = try ModelLoader.document(inputPath, ocr: ocr)
    let rendered = try DocumentFiles.render(document, as: outputFormat)
    if outputPath == "-" {
      io.write(rendered)
    } else {
      try OutputFile.write(rendered, to: outputPath)
    }
    return 0
  }
}
