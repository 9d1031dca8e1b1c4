import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

#if canImport(Glibc)
  import Glibc
#endif

/// `scantext tables MODEL [--format csv|markdown|json] [-o DIR]`: each
/// table of each page on its own.
struct TablesCommand: ScanCommand {
  /// What `tables` writes a table as.
  enum TableFormat: String, CaseIterable, ArgumentValue {
    case csv, markdown, json

    /// The ending of a table's file in `-o DIR`.
    var ending: String {
      switch self {
      case .csv: ".csv"
      case .markdown: ".md"
      case .json: ".json"
      }
    }
  }

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
    if let folder { try Self.prepare(folder) }
    let pages = try model.loadNumberedPages()
    let tables = pages.flatMap { numbered in
      PageTable.tables(of: numbered.page).enumerated().map { k, table in
        (page: numbered.number, index: k + 1, table: table)
      }
    }
    if tables.isEmpty {
      io.printError("\(model.path.escapingControlCharacters): no table found")
    }
    if let folder {
      for t in tables {
        let name = (folder.hasSuffix("/") ? folder : folder + "/") + "p\(t.page)-t\(t.index)"
        try OutputFile.write(
          text(t.table, page: t.page, index: t.index), to: name + tableFormat.ending, io: io)
      }
      return 0
    }
    switch tableFormat {
    case .json:
      io.print(
        JSONValue.array(tables.map { $0.table.json(page: $0.page, index: $0.index) })
          .serialized(pretty: true))
    case .csv, .markdown:
      io.write(
        tables.map { text($0.table, page: $0.page, index: $0.index) }.joined(separator: "\n"))
    }
    return 0
  }

  /// One table's text in the chosen format, ending with a newline.
  func text(_ table: PageTable, page: Int, index: Int) -> String {
    switch tableFormat {
    case .csv: table.csv
    case .markdown: Markdown.table(table) + "\n"
    case .json: table.json(page: page, index: index).serialized(pretty: true) + "\n"
    }
  }

  /// Makes the folder when it is missing and checks that files can be
  /// made in it, before any page is read.
  /// - Throws: ``ScanService/ServiceError`` naming the folder and the
  ///   reason.
  static func prepare(_ folder: String) throws {
    try OutputFolder.create(folder)
    guard access(folder, W_OK | X_OK) == 0 else {
      throw ServiceError.outputNotWritable(
        path: folder, reason: String(cString: strerror(errno)).lowercased())
    }
  }
}
