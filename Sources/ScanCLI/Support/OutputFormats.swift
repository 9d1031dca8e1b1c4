import Foundation
import ScanArguments
import ScanFormats
import ScanService

/// `--format` of `ocr` and `convert`: any format of the registry, those
/// no ending chooses included (`accessible-html`, which `html` writes too).
extension FileFormat: ArgumentValue {
  public init?(argument: String) {
    guard let format = Self.named(argument) else { return nil }
    self = format
  }

  public static var allValueStrings: [String] { all.map(\.name) }

  public var defaultValueDescription: String { name }
}

extension FileFormat {
  /// The format to write `path` in: `explicit` (`--format`) if given, else
  /// the one the name's ending chooses, else, for standard output and a name
  /// without an extension (`/dev/null`, a FIFO, `out`), JSON, as on
  /// standard output.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error, exit 64)
  ///   for an extension that chooses no format (`out.docx`, `out.text`) or
  ///   a bare `.xml` (ALTO or PAGE?), listing the formats and their endings.
  static func choose(explicit: FileFormat?, path: String?) throws -> FileFormat {
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
  static var table: String {
    let formats = chosenByFileName
    let width = formats.map(\.name.count).max() ?? 0
    return formats.map { format in
      let name = format.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let note = format.note.map { " (\($0))" } ?? ""
      return "  \(name)  \(format.fileNameSuffixes.joined(separator: ", "))\(note)"
    }.joined(separator: "\n")
  }

  /// `--format`'s help: the formats' usual endings, then `more`, then what
  /// `markdown` and `accessible-html` (which no ending chooses) are.
  static func help(_ more: String) -> String {
    let endings = chosenByFileName.compactMap(\.fileNameSuffixes.first).joined(separator: ", ")
    return
      "Output format (default: from the output file's extension: \(endings); json for standard output or a name without one). \(more) markdown is the text as a reader reads it (headings, lists, tables; running heads and feet left out). accessible-html is what 'scantext html' writes, with its defaults."
  }
}
