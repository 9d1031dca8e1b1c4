import Foundation
import ScanArguments
import ScanFormats
import ScanModel

#if canImport(Glibc)
  import Glibc
#endif

/// What `tables` writes a table as.
package enum TableFormat: String, CaseIterable, Sendable {
  case csv, markdown, json

  /// The ending of a table's file in `-o DIR`.
  package var ending: String {
    switch self {
    case .csv: ".csv"
    case .markdown: ".md"
    case .json: ".json"
    }
  }

  /// One table's text in this format, ending with a newline.
  package func text(_ table: PageTable, page: Int, index: Int) -> String {
    switch self {
    case .csv: table.csv
    case .markdown: Markdown.table(table) + "\n"
    case .json: table.json(page: page, index: index).serialized(pretty: true) + "\n"
    }
  }
}

/// `tables`: each table of each page on its own.
package enum TableExport {
  /// Writes each table of each page of `path` (those `recognizer` selects)
  /// in `format`: one file per table in `folder`, named pPAGE-tTABLE, or
  /// to standard output (json: one array of every table, each with its
  /// `"page"` and `"index"`; else set apart by a blank line). Standard error
  /// says when no table was found.
  /// - Throws: ``ServiceError`` when the model cannot be read or an output
  ///   cannot be written.
  package static func write(
    _ path: String, recognizer: Recognizer, format: TableFormat, folder: String?, io: CommandIO
  ) throws {
    if let folder { try prepare(folder) }
    let pages = try recognizer.numberedPages(path)
    let tables = pages.flatMap { numbered in
      PageTable.tables(of: numbered.page).enumerated().map { k, table in
        (page: numbered.number, index: k + 1, table: table)
      }
    }
    if tables.isEmpty {
      io.printError("\(path.escapingControlCharacters): no table found")
    }
    if let folder {
      for t in tables {
        let name = (folder.hasSuffix("/") ? folder : folder + "/") + "p\(t.page)-t\(t.index)"
        try OutputFile.write(
          format.text(t.table, page: t.page, index: t.index), to: name + format.ending, io: io)
      }
      return
    }
    switch format {
    case .json:
      io.print(
        JSONValue.array(tables.map { $0.table.json(page: $0.page, index: $0.index) })
          .serialized(pretty: true))
    case .csv, .markdown:
      io.write(
        tables.map { format.text($0.table, page: $0.page, index: $0.index) }
          .joined(separator: "\n"))
    }
  }

  /// Makes the folder when it is missing and checks that files can be
  /// made in it, before any page is read.
  /// - Throws: ``ServiceError`` naming the folder and the reason.
  static func prepare(_ folder: String) throws {
    try OutputFolder.create(folder)
    guard access(folder, W_OK | X_OK) == 0 else {
      throw ServiceError.outputNotWritable(
        path: folder, reason: String(cString: strerror(errno)).lowercased())
    }
  }
}
