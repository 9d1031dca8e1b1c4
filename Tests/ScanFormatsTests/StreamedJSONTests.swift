import ScanFormats
import ScanModel
import Testing

/// The JSON output writes a page a block at a time (issue 47: the whole
/// page's tree of values took more memory than its image); its text must
/// stay that of the page's tree (``DocumentJSON/encode(_:generator:)``),
/// written page by page or encoded once for the cache.
@Suite("JSON written a block at a time")
struct StreamedJSONTests {
  static let documents = [
    Samples.document, Document(pages: []), Document(pages: [Samples.emptyPage]),
    Document(pages: [Samples.rotatedPage, Samples.uprightPage]),
  ]

  @Test func pageByPageIsTheWholeDocumentsText() throws {
    for document in Self.documents {
      var writer = DocumentWriter(format: .json, generator: Samples.generator)
      var text = writer.head()
      for page in document.pages { text += try writer.page(page) }
      text += writer.tail()
      #expect(text == DocumentJSON.encode(document, generator: Samples.generator))
    }
  }

  @Test func encodedPagesAreWrittenTheSame() throws {
    for document in Self.documents {
      var plain = DocumentWriter(format: .json, generator: Samples.generator)
      var cached = DocumentWriter(format: .json, generator: Samples.generator)
      for page in document.pages {
        let encoded = DocumentJSON.PageText(page)
        #expect(try cached.page(page, encoded: encoded) == plain.page(page))
      }
    }
  }
}
