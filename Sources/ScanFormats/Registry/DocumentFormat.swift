import Foundation
import ScanModel

/// The document formats ScanText reads and writes.
public enum DocumentFormat: String, CaseIterable, Sendable {
  /// ScanText's own JSON (``DocumentJSON``).
  case json
  /// hOCR 1.2 (``HOCR``).
  case hocr
  /// ALTO 4.4 out, 2 to 4 in (``ALTO``).
  case alto
  /// PAGE XML 2019-07-15 out, 2013 to 2019 in (``PAGEXML``).
  case page
  /// Tesseract's TSV (``TSV``).
  case tsv
  /// Plain text as `tesseract IMAGE -` writes it (out only).
  case text

  /// Whether documents in this format can be read back into the model
  /// (its row of ``FileFormat/all`` has a reader).
  public var isReadable: Bool { FileFormat(self).isReadable }

  /// The model format a file name's ending chooses (``FileFormat``'s
  /// endings, letter case aside); `nil` for any other name, a PDF's among
  /// them (a bare `.xml` is ALTO or PAGE: see ``detect(data:)``).
  public init?(fileName: String) {
    guard let format = FileFormat(fileName: fileName)?.document else { return nil }
    self = format
  }

  /// Whether a file name names a document (rather than an image): any
  /// readable format's extension, or `.xml`.
  public static func isDocument(fileName: String) -> Bool {
    if let f = FileFormat(fileName: fileName) { return f.isReadable }
    return fileName.lowercased().hasSuffix(".xml")
  }

  /// The format of a document from its first bytes: JSON, or XML whose root
  /// is `alto`, `PcGts` or `html`, or a TSV header.
  public static func detect(data: Data) -> DocumentFormat? {
    let head = String(decoding: data.prefix(4096), as: UTF8.self)
    let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    if trimmed.hasPrefix("{") { return .json }
    if trimmed.hasPrefix(TSV.header) { return .tsv }
    guard trimmed.hasPrefix("<") else { return nil }
    // The first start tag that is not a declaration, comment or doctype.
    var rest = Substring(trimmed)
    while let open = rest.firstIndex(of: "<") {
      let after = rest[rest.index(after: open)...]
      guard let first = after.first else { return nil }
      if first == "?" || first == "!" {
        guard let close = after.firstIndex(of: ">") else { return nil }
        rest = after[after.index(after: close)...]
        continue
      }
      let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
      let local = name.split(separator: ":").last.map(String.init) ?? ""
      switch local {
      case "alto": return .alto
      case "PcGts": return .page
      case "html": return .hocr
      default: return nil
      }
    }
    return nil
  }

  /// Reads a document in this format (``FileFormat/decode(_:)``).
  /// - Throws: ``DocumentFormatError`` naming the element path (or JSON
  ///   path, or TSV row) and the reason; ``JSONParseError`` for text that
  ///   is not JSON.
  public func decode(_ data: Data) throws -> Document {
    try FileFormat(self).decode(data)
  }

  /// The name used in messages: `ScanText JSON`, `hOCR`, `ALTO`, `PAGE XML`,
  /// `Tesseract TSV`, `plain text` (``FileFormat/displayName``).
  public var displayName: String { FileFormat(self).displayName }
}

extension DocumentFormat {
  /// Writes a document in this format (``DocumentWriter`` writes it page
  /// by page).
  /// - Parameters:
  ///   - document: The pages to write.
  ///   - generator: Who wrote it (recorded by JSON, hOCR, ALTO and PAGE).
  ///   - date: The time stamp PAGE XML requires (`Created`, `LastChange`).
  /// - Throws: ``DocumentFormatError`` when the format cannot hold the
  ///   document (PAGE XML holds one page).
  public func encode(_ document: Document, generator: Generator, date: Date = Date())
    throws(DocumentFormatError) -> String
  {
    var writer = DocumentWriter(format: self, generator: generator, date: date)
    writer.pageTotal = document.pages.count
    var pages = ""
    for page in document.pages { pages += try writer.page(page) }
    let head = writer.head()
    return head + pages + writer.tail()
  }

  /// A UTC time stamp such as `2026-12-01T07:04:33Z`.
  static func timestamp(_ date: Date) -> String {
    let f = ISO8601DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.formatOptions = [.withInternetDateTime]
    return f.string(from: date)
  }
}
