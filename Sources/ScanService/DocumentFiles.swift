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
    if let paged = try openPaged(path, maxPagesInMemory: 1) {
      do {
        return try paged.document()
      } catch {
        throw failure(error, path: path, compact: paged.isCompact)
      }
    }
    let data = try InputFiles.isStream(path) ? InputFiles.read(path) : contents(of: path)
    if CompactModel.isCompactModel(data) {
      do {
        return try CompactModel.decode(data)
      } catch {
        throw failure(error, path: path, compact: true)
      }
    }
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
      // JSON a page at a time: no tree of the whole document.
      if format == .json { return try DocumentJSON.decodePageByPage(data) }
      return try format.decode(data)
    } catch {
      let what = format == .json ? "a ScanText document" : "a valid \(format.displayName) document"
      throw ServiceError.notADocument(path: path, reason: "not \(what): \(error)")
    }
  }

  /// A document file (or standard input, `-`) opened for reading page by
  /// page: a compact model or ScanText JSON file is read a page at a time
  /// (``ScanFormats/PagedDocument``), keeping at most `maxPagesInMemory`
  /// decoded pages; any other format is read whole.
  /// - Throws: ``ServiceError`` naming the file and the reason.
  package static func open(_ path: String, maxPagesInMemory: Int? = nil) throws -> PagedDocument {
    if let paged = try openPaged(path, maxPagesInMemory: maxPagesInMemory) { return paged }
    return PagedDocument(pages: try read(path).pages)
  }

  /// A page of `document` (read from `path`), with an error that names
  /// the file, the page and the reason.
  package static func page(_ index: Int, of document: PagedDocument, path: String)
    throws(ServiceError) -> Page
  {
    do {
      return try document.page(at: index)
    } catch {
      throw failure(error, path: path, compact: document.isCompact)
    }
  }

  /// `path` opened page by page when it is a compact model, or ScanText
  /// JSON by its name or its first byte (standard input from its spool,
  /// ``InputFiles/standardInputDocument(maxPagesInMemory:)``); `nil` for
  /// another format, and for another stream (a FIFO), read whole.
  private static func openPaged(_ path: String, maxPagesInMemory: Int?) throws -> PagedDocument? {
    if InputFiles.isStandardInput(path) {
      let head = try InputFiles.standardInputHead().prefix(4096)
      let compact = CompactModel.isCompactModel(head)
      guard compact || DocumentFormat.detect(data: head) == .json else { return nil }
      do {
        return try InputFiles.standardInputDocument(maxPagesInMemory: maxPagesInMemory)
      } catch {
        throw failure(error, path: path, compact: compact)
      }
    }
    guard !InputFiles.isStream(path) else { return nil }
    let head = try contents(of: path, prefix: 4096)
    let named = FileFormat(fileName: path)
    let compact = CompactModel.isCompactModel(head) || named == .compactModel
    let json =
      named == FileFormat(.json)
      || (named == nil || named?.document == .text) && DocumentFormat.detect(data: head) == .json
    guard compact || json else { return nil }
    do {
      return try PagedDocument.open(path: path, maxPagesInMemory: maxPagesInMemory)
    } catch {
      throw failure(error, path: path, compact: compact)
    }
  }

  /// An error reading a paged document as the user reads it.
  private static func failure(_ error: any Error, path: String, compact: Bool) -> ServiceError {
    // A page another reader made (a PDF's) says what went wrong itself.
    if let error = error as? ServiceError { return error }
    if let error = error as? FileError {
      return .inputUnreadable(path: path, reason: error.reason)
    }
    let what = compact ? "a readable compact ScanText model" : "a ScanText document"
    return .notADocument(path: path, reason: "not \(what): \(error)")
  }

  /// The first `prefix` bytes of a document file, with errors that name it.
  private static func contents(of path: String, prefix: Int) throws -> Data {
    try checkFile(path)
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ServiceError.inputUnreadable(path: path, reason: "cannot read the file")
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: prefix)) ?? Data()
    guard !data.isEmpty else {
      throw ServiceError.inputUnreadable(path: path, reason: "the file is empty")
    }
    return data
  }

  /// Checks that `path` is a file that exists.
  private static func checkFile(_ path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ServiceError.inputUnreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw ServiceError.inputUnreadable(path: path, reason: "is a directory, not a document")
    }
  }

  /// The bytes of a document file, with errors that name it.
  private static func contents(of path: String) throws -> Data {
    try checkFile(path)
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
  /// standard input), else the file the page names beside the model
  /// (``imageBeside(model:named:)``); `nil` when there is none.
  /// - Throws: ``ServiceError`` when the name the page holds leads out
  ///   of the model's folder.
  package static func pageImage(given: String?, modelPath: String, page: Page) throws -> String? {
    if let given { return given }
    if !InputFiles.isDocument(modelPath) { return modelPath }
    guard let name = page.image else { return nil }
    let beside = try imageBeside(model: modelPath, named: name)
    return FileManager.default.fileExists(atPath: beside) ? beside : nil
  }

  /// The path of the image a model names, resolved within the model's
  /// folder: a model is data users pass around, and the image a command
  /// reads from it (`html --embed-image`, `draw`, `convert` to PDF) ends
  /// up in an output they may share. A name that is absolute or holds a
  /// `..` step is refused; the user can still give that image with
  /// `--image`. A symbolic link in the folder is followed: putting one
  /// beside a model is how images kept elsewhere are used (the tests do
  /// it). `ocr` writes the image's bare file name.
  /// - Parameters:
  ///   - modelPath: The model file's path.
  ///   - name: The image name the model holds (``ScanModel/Page/image``).
  /// - Returns: The path of the image in the model's folder (which may
  ///   not exist).
  /// - Throws: ``ServiceError`` naming the model and the image.
  package static func imageBeside(model modelPath: String, named name: String) throws -> String {
    func refuse(_ why: String) -> ServiceError {
      ServiceError(
        "\(modelPath): the model's image '\(name)' \(why), outside the model's folder; give the image with --image to use it"
      )
    }
    guard !name.hasPrefix("/") else { throw refuse("is an absolute path") }
    guard !name.split(separator: "/").contains("..") else { throw refuse("leads up with '..'") }
    return URL(fileURLWithPath: modelPath).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }
}
