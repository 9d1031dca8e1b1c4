import Foundation
import ScanArguments
import ScanFormats
import ScanModel

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
      throw ServiceError.notADocument(
        path: path,
        reason: "not a document ScanText reads (JSON, hOCR, ALTO, PAGE XML or Tesseract TSV)")
    }
    return try decode(data, as: format, path: path)
  }

  /// The one way a document is read (a file, standard input, a cache
  /// entry): `data` decoded as `format`.
  /// - Throws: ``ServiceError`` naming `path`, the format, the element
  ///   path and the reason.
  package static func decode(_ data: Data, as format: DocumentFormat, path: String)
    throws(ServiceError) -> Document
  {
    do {
      return try format.decode(data)
    } catch {
      let what = format == .json ? "a ScanText document" : "a valid \(format.displayName) document"
      throw ServiceError.notADocument(path: path, reason: "not \(what): \(error)")
    }
  }

  /// The bytes of a document file, with errors that name it.
  private static func contents(of path: String) throws -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ServiceError.inputUnreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw ServiceError.inputUnreadable(path: path, reason: "is a directory, not a document")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ServiceError.inputUnreadable(path: path, reason: "cannot read the file")
    }
    guard !data.isEmpty else {
      throw ServiceError.inputUnreadable(path: path, reason: "the file is empty")
    }
    return data
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
