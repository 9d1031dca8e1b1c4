import Foundation
import ScanArguments
import ScanFormats
import ScanModel

extension DocumentFormat: ArgumentValue {}

/// Reading and writing documents in any of ScanText's formats.
enum DocumentFiles {
  /// The format to write `path` in: `explicit` if given, else from the
  /// file's extension, else `fallback`.
  /// - Throws: `ValidationError` for a bare `.xml` (ALTO or PAGE?) or a
  ///   format that cannot be told from the name when there is no fallback.
  static func outputFormat(
    explicit: DocumentFormat?, path: String?, fallback: DocumentFormat?
  ) throws -> DocumentFormat {
    if let explicit { return explicit }
    if let path {
      if let f = DocumentFormat(fileName: path) { return f }
      if path.lowercased().hasSuffix(".xml") {
        throw ValidationError(
          "'\(path)': .xml may be ALTO or PAGE: name the file .alto.xml or .page.xml, or pass --format alto|page"
        )
      }
    }
    if let fallback { return fallback }
    throw ValidationError(
      "cannot tell the output format from '\(path ?? "")': pass --format (\(DocumentFormat.allValueStrings.joined(separator: ", ")))"
    )
  }

  /// Reads a document file in any readable format; the format comes from
  /// the extension, or the content for `.xml` and unknown names. Errors
  /// name the file, the format, the element path and the reason.
  static func read(_ path: String) throws -> Document {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CLIError("\(path): no such file")
    }
    guard !isDirectory.boolValue else { throw CLIError("\(path): is a directory, not a document") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("\(path): cannot read the file")
    }
    guard !data.isEmpty else { throw CLIError("\(path): the file is empty") }
    var format = DocumentFormat(fileName: path)
    if format == nil || format == .text || (format != .json && format != .tsv) {
      // XML names say little (.xml, .html): trust the root element.
      format = DocumentFormat.detect(data: data) ?? format
    }
    guard let format, format.isReadable else {
      throw CLIError(
        "\(path): not a document ScanText reads (JSON, hOCR, ALTO, PAGE XML or Tesseract TSV)")
    }
    if format == .json {
      return try ModelFile.decode(data, path: path)
    }
    do {
      return try format.decode(data)
    } catch {
      throw CLIError("\(path): not a valid \(format.displayName) document: \(error)")
    }
  }

  /// Writes `document` to `path` (or returns the text for standard output).
  static func render(_ document: Document, as format: DocumentFormat) throws -> String {
    do {
      return try format.encode(document, generator: ScanText.generator)
    } catch {
      throw CLIError("cannot write \(format.displayName): \(error)")
    }
  }
}

extension DocumentFiles {
  /// The image a page of MODEL is drawn on or embedded from: `given`
  /// (`--image`), else MODEL itself when it is an image or a PDF, else the
  /// file the page names beside the model; `nil` when there is none.
  static func pageImage(given: String?, modelPath: String, page: Page) -> String? {
    if let given { return given }
    if !DocumentFormat.isDocument(fileName: modelPath) { return modelPath }
    guard let name = page.image else { return nil }
    let beside = URL(fileURLWithPath: modelPath).deletingLastPathComponent()
      .appendingPathComponent(name).path
    return FileManager.default.fileExists(atPath: beside) ? beside : nil
  }
}
