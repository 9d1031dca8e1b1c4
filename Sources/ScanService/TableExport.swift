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
  ///
  /// The pages are read one at a time (a long model is never held whole):
  /// standard output waits in a temporary file (``HeldOutput``), the
  /// tables' files in memory as text, until the last page is read, so a
  /// failure writes nothing but its error.
  /// - Throws: ``ServiceError`` when the model cannot be read or an output
  ///   cannot be written.
  package static func write(
    _ path: String, recognizer: Recognizer, format: TableFormat, folder: String?, io: CommandIO
  ) throws {
    if let folder { try prepare(folder) }
    let out = HeldOutput(io: io)
    var files: [(name: String, text: String)] = []
    var count = 0
    try recognizer.eachPage(path) { number, page, _ in
      for (k, table) in PageTable.tables(of: page).enumerated() {
        count += 1
        if let folder {
          let name = (folder.hasSuffix("/") ? folder : folder + "/") + "p\(number)-t\(k + 1)"
          files.append((name + format.ending, format.text(table, page: number, index: k + 1)))
          continue
        }
        switch format {
        case .json:
          // As `JSONValue.array(tables).serialized(pretty: true)` writes it.
          try out.write(
            (count == 1 ? "[\n  " : ",\n  ")
              + table.json(page: number, index: k + 1).serialized(prettyAtDepth: 1))
        case .csv, .markdown:
          // The tables set apart by a blank line.
          try out.write((count == 1 ? "" : "\n") + format.text(table, page: number, index: k + 1))
        }
      }
    }
    if count == 0 {
      io.printError("\(path.escapingControlCharacters): no table found")
    }
    if folder != nil {
      for file in files { try OutputFile.write(file.text, to: file.name, io: io) }
      return
    }
    if format == .json { try out.print(count > 0 ? "\n]" : "[]") }
    try out.release()
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
