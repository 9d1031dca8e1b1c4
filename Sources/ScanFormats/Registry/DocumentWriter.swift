import Foundation
import ScanModel

/// Writes a document page by page, so that a long document is never held
/// whole: ``page(_:)`` for each page in order gives that page's text,
/// ``head()`` the text that goes before the pages and ``tail()`` the text
/// after them. Joined, head, pages and tail are
/// ``DocumentFormat/encode(_:generator:date:)``'s text byte for byte (which
/// is written this way).
///
/// Every format but ALTO knows its head before the first page
/// (``headIsKnownFirst``): it can be written, then each page as it comes.
/// ALTO's head lists the paragraph styles and structure tags of every page,
/// so it is known only after the last: a writer keeps the pages' text aside
/// (in a temporary file) and writes the head before it.
///
/// ```swift
/// var writer = DocumentWriter(format: .json, generator: generator)
/// var body = ""
/// for page in pages { body += try writer.page(page) }
/// let text = writer.head() + body + writer.tail()
/// ```
public struct DocumentWriter {
  /// The format written.
  public let format: DocumentFormat
  /// The number of pages written so far.
  public private(set) var pageCount = 0
  /// The number of pages the document has, when known before they are
  /// written (for messages).
  public var pageTotal: Int?

  private enum Writer {
    case json(DocumentJSON.Writer)
    case hocr(HOCR.Writer)
    case alto(ALTO.Writer)
    case tsv
    case text
    case page(generator: Generator, created: String)
  }
  private var writer: Writer

  /// Starts a document.
  /// - Parameters:
  ///   - format: The format to write.
  ///   - generator: Who wrote it (recorded by JSON, hOCR, ALTO and PAGE).
  ///   - date: The time stamp PAGE XML requires (`Created`, `LastChange`).
  public init(format: DocumentFormat, generator: Generator, date: Date = Date()) {
    self.format = format
    switch format {
    case .json: writer = .json(DocumentJSON.Writer(generator: generator))
    case .hocr: writer = .hocr(HOCR.Writer(generator: generator))
    case .alto: writer = .alto(ALTO.Writer(generator: generator))
    case .tsv: writer = .tsv
    case .text: writer = .text
    case .page:
      writer = .page(generator: generator, created: DocumentFormat.timestamp(date))
    }
  }

  /// Whether ``head()`` is the same whatever the pages (every format but
  /// ALTO): it can be written before the first page.
  public var headIsKnownFirst: Bool { format != .alto }

  /// The text before the pages' (for ALTO: for the pages written so far).
  public func head() -> String {
    switch writer {
    case .json(let w): return w.head
    case .hocr(let w): return w.head
    case .alto(let w): return w.head()
    case .tsv: return TSV.header + "\n"
    case .text, .page: return ""
    }
  }

  /// The text of the next page (with what separates it from the one
  /// before: a comma in JSON, a form feed in plain text).
  /// - Throws: ``DocumentFormatError`` for a second page of PAGE XML, which
  ///   holds one page.
  /// - Complexity: O(*n*) in the page's elements.
  public mutating func page(_ page: Page) throws(DocumentFormatError) -> String {
    try self.page(page, encoded: nil)
  }

  /// The text of the next page, as ``page(_:)`` gives it; ScanText JSON
  /// writes `encoded` (the page's JSON made already, with `page`'s `image`
  /// and `index`) instead of encoding the page again, the other formats
  /// ignore it.
  /// - Complexity: O(*n*) in the page's elements (JSON with `encoded`: a
  ///   copy of its text).
  public mutating func page(_ page: Page, encoded: DocumentJSON.PageText?)
    throws(DocumentFormatError) -> String
  {
    defer { pageCount += 1 }
    switch writer {
    case .json(var w):
      let text = w.page(page, encoded: encoded)
      writer = .json(w)
      return text
    case .hocr(var w):
      let text = w.page(page)
      writer = .hocr(w)
      return text
    case .alto(var w):
      let text = w.page(page)
      writer = .alto(w)
      return text
    case .tsv:
      return TSV.rows(of: page)
    case .text:
      return pageCount == 0 ? page.text : "\u{0C}" + page.text
    case .page(let generator, let created):
      guard pageCount == 0 else {
        throw DocumentFormatError(
          path: "",
          reason:
            "PAGE XML holds one page and the document has \(pageTotal.map(String.init) ?? "more"): write one file per page"
        )
      }
      return PAGEXML.encode(page, generator: generator, created: created)
    }
  }

  /// The text after the last page (for PAGE XML with no page, a page of
  /// no size: PAGE XML requires one).
  public mutating func tail() -> String {
    switch writer {
    case .json(let w): return w.tail()
    case .hocr(var w):
      let text = w.tail()
      writer = .hocr(w)
      return text
    case .alto(var w):
      let text = w.tail()
      writer = .alto(w)
      return text
    case .tsv, .text: return ""
    case .page(let generator, let created):
      guard pageCount == 0 else { return "" }
      return PAGEXML.encode(
        Page(width: 0, height: 0, blocks: []), generator: generator, created: created)
    }
  }
}
