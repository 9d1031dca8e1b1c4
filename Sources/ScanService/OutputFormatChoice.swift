import Foundation
import ScanArguments
import ScanFormats

extension FileFormat {
  /// The format to write `path` in: `explicit` (`--format`) if given, else
  /// the one the name's ending chooses, else, for standard output and a name
  /// without an extension (`/dev/null`, a FIFO, `out`), JSON, as on
  /// standard output.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error, exit 64)
  ///   for an extension that chooses no format (`out.docx`, `out.text`) or
  ///   a bare `.xml` (ALTO or PAGE?), listing the formats and their endings.
  package static func choose(explicit: FileFormat?, path: String?) throws -> FileFormat {
    if let explicit { return explicit }
    let json = FileFormat(.json)
    guard let path, !OutputFile.isStandardOutput(path) else { return json }
    if let format = FileFormat(fileName: path) { return format }
    let name = URL(fileURLWithPath: path).lastPathComponent
    guard let dot = name.dropFirst().lastIndex(of: ".") else { return json }
    let ending = String(name[dot...])
    let reason =
      ending.lowercased() == ".xml"
      ? ".xml may be ALTO or PAGE: name the file .alto.xml or .page.xml, or pass --format alto|page"
      : "'\(ending)' is not the ending of a format ScanText writes: name the file for its format, or pass --format"
    throw ValidationError("'\(path.escapingControlCharacters)': \(reason)\n\(table)")
  }

  /// The formats and the endings that choose them, one per line.
  package static var table: String {
    let formats = chosenByFileName
    let width = formats.map(\.name.count).max() ?? 0
    return formats.map { format in
      let name = format.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let note = format.note.map { " (\($0))" } ?? ""
      return "  \(name)  \(format.fileNameSuffixes.joined(separator: ", "))\(note)"
    }.joined(separator: "\n")
  }
}
