import Foundation
import ScanArguments
import ScanFormats
import ScanModel

extension DocumentFormat: ArgumentValue {}

/// What `ocr` and `convert` write: a document format, or a searchable PDF
/// (the page images with an invisible text layer).
package enum OutputFormat: String, CaseIterable, ArgumentValue {
  case json, text, hocr, alto, page, tsv, pdf

  /// The document format; `nil` for a searchable PDF.
  package var document: DocumentFormat? { DocumentFormat(rawValue: rawValue) }

  /// The endings of file names that choose this format, the usual one first.
  package var suffixes: [String] {
    self == .pdf
      ? [".pdf"]
      : DocumentFormat.fileNameSuffixes.filter { $0.format.rawValue == rawValue }.map(\.suffix)
  }

  /// The format a file name's ending chooses (letter case aside), or `nil`.
  package init?(fileName: String) {
    if fileName.lowercased().hasSuffix(".pdf") {
      self = .pdf
    } else if let format = DocumentFormat(fileName: fileName) {
      self.init(rawValue: format.rawValue)
    } else {
      return nil
    }
  }

  /// The format to write `path` in: `explicit` (`--format`) if given, else
  /// the one the name's ending chooses, else, for standard output and a name
  /// without an extension (`/dev/null`, a FIFO, `out`), JSON, as on
  /// standard output.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error, exit 64)
  ///   for an extension that chooses no format (`out.docx`, `out.text`) or
  ///   a bare `.xml` (ALTO or PAGE?), listing the formats and their endings.
  package static func choose(explicit: OutputFormat?, path: String?) throws -> OutputFormat {
    if let explicit { return explicit }
    guard let path, !OutputFile.isStandardOutput(path) else { return .json }
    if let format = OutputFormat(fileName: path) { return format }
    let name = URL(fileURLWithPath: path).lastPathComponent
    guard let dot = name.dropFirst().lastIndex(of: ".") else { return .json }
    let ending = String(name[dot...])
    let reason =
      ending.lowercased() == ".xml"
      ? ".xml may be ALTO or PAGE: name the file .alto.xml or .page.xml, or pass --format alto|page"
      : "'\(ending)' is not the ending of a format ScanText writes: name the file for its format, or pass --format"
    throw ValidationError("'\(path.escapingControlCharacters)': \(reason)\n\(table)")
  }

  /// The formats and the endings that choose them, one per line.
  package static var table: String {
    let width = allCases.map(\.rawValue.count).max() ?? 0
    return allCases.map { format in
      let name = format.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
      let note = format == .pdf ? " (a searchable PDF: the images and their text)" : ""
      return "  \(name)  \(format.suffixes.joined(separator: ", "))\(note)"
    }.joined(separator: "\n")
  }
}

/// Reading and writing documents in any of ScanText's formats.
package enum DocumentFiles {
  /// Reads a document file (or standard input, `-`) in any readable
  /// format; the format comes from the extension, or the content for
  /// `.xml`, unknown names and standard input. Errors
  /// name the file, the format, the element path and the reason.
  package static func read(_ path: String) throws -> Document {
    let data = try InputFiles.isStream(path) ? InputFiles.read(path) : contents(of: path)
    var format = DocumentFormat(fileName: path)
    if format == nil || format == .text || (format != .json && format != .tsv) {
      // XML names say little (.xml, .html): trust the root element.
      format = DocumentFormat.detect(data: data) ?? format
    }
    guard let format, format.isReadable else {
      throw ServiceError(
        "\(path): not a document ScanText reads (JSON, hOCR, ALTO, PAGE XML or Tesseract TSV)")
    }
    if format == .json {
      return try ModelFile.decode(data, path: path)
    }
    do {
      return try format.decode(data)
    } catch {
      throw ServiceError("\(path): not a valid \(format.displayName) document: \(error)")
    }
  }

  /// The bytes of a document file, with errors that name it.
  private static func contents(of path: String) throws -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ServiceError("\(path): no such file")
    }
    guard !isDirectory.boolValue else {
      throw ServiceError("\(path): is a directory, not a document")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ServiceError("\(path): cannot read the file")
    }
    guard !data.isEmpty else { throw ServiceError("\(path): the file is empty") }
    return data
  }

  /// Writes `document` to `path` (or returns the text for standard output).
  package static func render(_ document: Document, as format: DocumentFormat) throws -> String {
    do {
      return try format.encode(document, generator: ToolIdentity.generator)
    } catch {
      throw ServiceError("cannot write \(format.displayName): \(error)")
    }
  }
}

extension DocumentFiles {
  /// The image a page of MODEL is drawn on or embedded from: `given`
  /// (`--image`), else MODEL itself when it is an image or a PDF (`-` for
  /// standard input), else the file the page names beside the model; `nil`
  /// when there is none.
  package static func pageImage(given: String?, modelPath: String, page: Page) -> String? {
    if let given { return given }
    if !InputFiles.isDocument(modelPath) { return modelPath }
    guard let name = page.image else { return nil }
    let beside = URL(fileURLWithPath: modelPath).deletingLastPathComponent()
      .appendingPathComponent(name).path
    return FileManager.default.fileExists(atPath: beside) ? beside : nil
  }
}
