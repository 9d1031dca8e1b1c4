import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// `scantext tables MODEL [--format csv|markdown|json] [-o DIR]`: each
/// table of each page on its own.
struct TablesCommand: ScanCommand {
  static let format = Option<TableFormat>(
    "format",
    help:
      "csv (RFC 4180 quoting; a spanning cell's text in its first row and column), markdown (a pipe table, or an HTML table where a cell spans) or json (every table with its cells' places, spans, header marks, text and boxes).",
    default: .csv)
  static let output = Option<String?>(
    "output", short: "o", valueName: "dir",
    help:
      "A folder (made when missing) to write one file per table into, named pPAGE-tTABLE (p1-t1.csv: page 1's first table), instead of standard output."
  )
  static let configuration = CommandConfiguration(
    commandName: "tables",
    abstract: "Print each table of a page on its own, as CSV, Markdown or JSON.",
    discussion: """
      The tables are those read cell by cell (paragraphs with their row and \
      column), every page of MODEL or those --pages selects, in reading order. \
      On standard output, tables are set apart by a blank line (csv, \
      markdown); json is one array of every table, each with its "page" and \
      "index" (from 1). A model without tables prints nothing (json: []) and \
      exits 0; standard error says that no table was found.
      """,
    arguments: ModelOptions.arguments + [format, output])

  let model: ModelOptions
  let tableFormat: TableFormat
  let folder: String?

  init(_ a: ParsedArguments) throws {
    tableFormat = try a[Self.format]
    folder = try a[Self.output]
    if let folder, OutputFile.isStandardOutput(folder) {
      throw ValidationError("'--output' takes a folder; leave it out to print to standard output")
    }
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try TableExport.write(
      model.path, recognizer: model.ocr.recognizer(), format: tableFormat, folder: folder, io: io)
    return 0
  }
}

extension TableFormat: ArgumentValue {}
