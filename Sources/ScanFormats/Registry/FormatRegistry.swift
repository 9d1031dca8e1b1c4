import Foundation
import ScanModel

/// A format ScanText writes, and reads when it can: one row of ``all``,
/// the registry every command writes through (`ocr`, `convert`, `html`).
///
/// Each format declares its name (`--format`), the endings of file names
/// that choose it, whether it needs the page images, its writer (page by
/// page: ``PageWriter``) and its reader when it has one. `--format`'s help
/// and the README's format table come from ``all`` (a test checks the
/// README).
///
/// Adding a format is one row here and its file (a ``PageWriter``, and a
/// reader if it can be read): see `docs/ARCHITECTURE.md`.
public struct FileFormat: Sendable, Hashable {
  /// The name `--format` takes (`json`, `pdf`).
  public let name: String
  /// The name in messages (`ScanText JSON`, `hOCR`).
  public let displayName: String
  /// The endings of file names that choose this format (letter case
  /// aside), the usual one first; none for a format only named (the
  /// accessible HTML: `.html` is hOCR's).
  public let fileNameSuffixes: [String]
  /// What the README's table says after the endings (`(a searchable PDF)`).
  public let note: String?
  /// Whether the writer needs the pages' images (``PageImageSource``).
  public let needsPageImages: Bool
  /// The model format it is, for those ``DocumentWriter`` writes.
  public let document: DocumentFormat?
  private let reader: (@Sendable (Data) throws -> Document)?
  private let writer: @Sendable (WriterSettings) throws -> any PageWriter

  /// Whether documents in this format can be read back into the model.
  public var isReadable: Bool { reader != nil }

  /// Reads a document in this format.
  /// - Throws: ``DocumentFormatError`` naming the element path (or JSON
  ///   path, or TSV row) and the reason (for a format that cannot be read:
  ///   that it cannot); ``JSONParseError`` for JSON that is not JSON.
  public func decode(_ data: Data) throws -> Document {
    guard let reader else {
      throw DocumentFormatError(
        path: "", reason: "\(displayName) cannot be read as a document")
    }
    return try reader(data)
  }

  /// Formats are told apart by their names.
  public static func == (a: FileFormat, b: FileFormat) -> Bool { a.name == b.name }

  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// A writer of a document in this format, page by page.
  /// - Throws: What the settings' ``WriterSettings/font`` throws (the
  ///   searchable PDF's font cannot be found), before any page.
  public func makeWriter(_ settings: WriterSettings) throws -> any PageWriter {
    try writer(settings)
  }
}

extension FileFormat {
  /// Every format, in the order `--format` lists them.
  public static let all: [FileFormat] = [
    document(.json, "ScanText JSON", [".json"], DocumentJSON.decode),
    document(.text, "plain text", [".txt"], nil),
    document(.hocr, "hOCR", [".hocr", ".html", ".htm", ".xhtml"], HOCR.decode),
    document(.alto, "ALTO", [".alto.xml", ".alto"], ALTO.decode),
    document(.page, "PAGE XML", [".page.xml", ".page"], PAGEXML.decode),
    tsv,
    compactModel, searchablePDF, markdown, accessibleHTML,
  ]

  /// Tesseract's TSV: built from the model (``DocumentWriter``), or, with
  /// ``WriterSettings/tesseractTSV``, Tesseract's own rows of each page
  /// image.
  public static let tsv: FileFormat = {
    let model = document(.tsv, "Tesseract TSV", [".tsv"]) {
      try TSV.decode(String(decoding: $0, as: UTF8.self))
    }
    return FileFormat(
      name: model.name, displayName: model.displayName, fileNameSuffixes: model.fileNameSuffixes,
      note: nil, needsPageImages: false, document: .tsv, reader: model.reader,
      writer: { settings in
        settings.tesseractTSV ? TSV.TesseractWriter() : try model.makeWriter(settings)
      })
  }()

  /// The compact model (``CompactModel``): every page's elements in binary
  /// records behind a page table, read a page at a time
  /// (``PagedDocument``).
  public static let compactModel = FileFormat(
    name: "stm", displayName: "compact ScanText model", fileNameSuffixes: [".stm"],
    note: "the model in binary, opened a page at a time", needsPageImages: false, document: nil,
    reader: { try CompactModel.decode($0) },
    writer: { CompactModel.Writer(generator: $0.generator) })

  /// The page images with an invisible text layer (``SearchablePDF``).
  public static let searchablePDF = FileFormat(
    name: "pdf", displayName: "searchable PDF", fileNameSuffixes: [".pdf"],
    note: "a searchable PDF: the images and their text", needsPageImages: true, document: nil,
    reader: nil, writer: { try SearchablePDF.PageWriter(settings: $0) })

  /// The text a reader reads, as Markdown (``Markdown``): headings,
  /// lists, tables, captions, figures and footnotes; running heads, feet
  /// and page numbers left out. Not read back.
  public static let markdown = FileFormat(
    name: "markdown", displayName: "Markdown", fileNameSuffixes: [".md", ".markdown"],
    note: "the text as a reader reads it: headings, lists, tables", needsPageImages: false,
    document: nil, reader: nil, writer: { _ in Markdown.Writer() })

  /// Each scan with a selectable text layer and the pages' structure
  /// (``AccessibleHTML``), written by `scantext html`: no ending chooses
  /// it (`.html` is hOCR's).
  public static let accessibleHTML = FileFormat(
    name: "accessible-html", displayName: "accessible HTML", fileNameSuffixes: [],
    note: "`scantext html`", needsPageImages: true, document: nil, reader: nil,
    writer: { AccessibleHTML.PageWriter(settings: $0) })

  /// A model format's row: ``DocumentWriter`` writes it.
  private static func document(
    _ format: DocumentFormat, _ displayName: String, _ suffixes: [String],
    _ reader: (@Sendable (Data) throws -> Document)?
  ) -> FileFormat {
    FileFormat(
      name: format.rawValue, displayName: displayName, fileNameSuffixes: suffixes, note: nil,
      needsPageImages: false, document: format, reader: reader,
      writer: { settings in
        var writer = DocumentWriter(
          format: format, generator: settings.generator, date: settings.date)
        writer.pageTotal = settings.pageTotal
        return writer
      })
  }

  /// The format named `name` (`--format`), or `nil`.
  public static func named(_ name: String) -> FileFormat? {
    all.first { $0.name == name }
  }

  /// The formats a file name can choose (those with an ending), in
  /// ``all``'s order: what `ocr -o` and `convert` write.
  public static var chosenByFileName: [FileFormat] {
    all.filter { !$0.fileNameSuffixes.isEmpty }
  }

  /// Every format's endings, longest first (`.alto.xml` before `.xml`,
  /// `.xhtml` before `.html`).
  private static let suffixes: [(suffix: String, format: FileFormat)] = all.flatMap { format in
    format.fileNameSuffixes.map { (suffix: $0, format: format) }
  }.enumerated().sorted {
    ($0.element.suffix.count, -$0.offset) > ($1.element.suffix.count, -$1.offset)
  }.map(\.element)

  /// The format a file name's ending chooses (letter case aside), or `nil`
  /// (a bare `.xml` is ALTO or PAGE: see ``DocumentFormat/detect(data:)``).
  public init?(fileName: String) {
    let name = fileName.lowercased()
    guard let match = Self.suffixes.first(where: { name.hasSuffix($0.suffix) }) else {
      return nil
    }
    self = match.format
  }

  /// The row of a model format.
  public init(_ document: DocumentFormat) {
    // Every DocumentFormat has its row (`FormatRegistryTests` checks it).
    self = Self.all.first { $0.document == document } ?? Self.all[0]
  }
}

/// What a writer needs besides the pages.
public struct WriterSettings: Sendable {
  /// Who wrote it (recorded by JSON, hOCR, ALTO and PAGE).
  public var generator: Generator
  /// The time stamp PAGE XML requires (`Created`, `LastChange`).
  public var date: Date
  /// The program a PDF records (`/Producer`).
  public var producer: String
  /// The searchable PDF's glyphless font (Tesseract's `pdf.ttf`), loaded
  /// when a PDF writer starts.
  public var font: @Sendable () throws -> Data
  /// Whether turned pages stay as scanned (`--keep-rotation`).
  public var keepRotation: Bool
  /// Whether the searchable PDF is tagged (its logical structure; not with
  /// `--no-tags`).
  public var tagged = true
  /// The searchable PDF's title (`--title`); the first page's file name
  /// when `nil`.
  public var title: String?
  /// What the searchable PDF claims to be (`--output-type`): PDF/A-2 by
  /// default, at level A when tagged.
  public var outputType = PDFOutputType.pdfA
  /// Told, in one line, why a searchable PDF asked to be PDF/A was written
  /// as plain PDF, or that a form field was given its name as its
  /// alternate name (the CLI prints it as a warning); never called
  /// otherwise.
  public var warn: @Sendable (String) -> Void = { _ in }
  /// The accessible HTML's options and low-confidence threshold.
  public var html: AccessibleHTML
  /// The number of pages the document has, when known before they are
  /// written (`convert`): messages say it.
  public var pageTotal: Int?
  /// Whether TSV is Tesseract's own rows of each page image, asked of the
  /// ``PageImageSource`` (``PageImageSource/tesseractTSV(of:pageNumber:)``),
  /// not rows built from the model's pages: byte-identical to
  /// `tesseract IMAGE - tsv` (the model keeps word confidences to two
  /// decimals, leaves out words of only spaces and grows line boxes to
  /// hold their words). Only TSV reads it.
  public var tesseractTSV = false

  /// Settings for writing with `generator`.
  public init(
    generator: Generator, date: Date = Date(), producer: String = "",
    font: @escaping @Sendable () throws -> Data = { Data() }, keepRotation: Bool = false,
    html: AccessibleHTML = AccessibleHTML()
  ) {
    self.generator = generator
    self.date = date
    self.producer = producer
    self.font = font
    self.keepRotation = keepRotation
    self.html = html
  }
}

/// Where a page handed to a writer came from, for the formats that need
/// its image.
public struct PageOrigin: Sendable, Equatable {
  /// The file it was read from (an image, a PDF, a model; `-` for
  /// standard input).
  public var path: String
  /// Its page in that file, from 0.
  public var page: Int
  /// Its number, from 1, as the reader counts it (`--pages`).
  public var number: Int

  /// A page's origin.
  public init(path: String, page: Int, number: Int) {
    self.path = path
    self.page = page
    self.number = number
  }
}

/// The page images of the formats that need them
/// (``FileFormat/needsPageImages``), which the commands hand to the
/// writer: ScanService reads image files and renders PDF pages (through
/// ScanOCR); ScanFormats only writes them.
public protocol PageImageSource {
  /// The image of `page` as a PDF stores it (an image file's bytes as
  /// stored where they can be).
  func pdfImage(of page: Page, from origin: PageOrigin) throws -> PDFPageImage
  /// The picture of `page` in accessible HTML: at a URL, or embedded.
  func htmlPicture(of page: Page, from origin: PageOrigin) throws -> AccessibleHTML.ShownPage
  /// The searchable PDF's writer when the pages' files call for another
  /// than a new PDF of their images: ScanService's, which edits the first
  /// PDF input with qpdf; `nil` (the default) for a new PDF. Asked once,
  /// at the first page.
  /// - Parameters:
  ///   - settings: The writer's settings.
  ///   - font: The glyphless font, already loaded.
  func searchablePDFWriter(settings: WriterSettings, font: Data) throws -> (any PageWriter)?
  /// Tesseract's own TSV rows of the page image at `origin`, recognised as
  /// it is, its pages numbered from `pageNumber` (from 0: TSV numbers
  /// pages through the whole document), without the header row
  /// (``WriterSettings/tesseractTSV``). By default there is none: it
  /// throws.
  func tesseractTSV(of origin: PageOrigin, pageNumber: Int) throws -> String
}

extension PageImageSource {
  public func searchablePDFWriter(settings: WriterSettings, font: Data) throws
    -> (any PageWriter)?
  {
    nil
  }

  public func tesseractTSV(of origin: PageOrigin, pageNumber: Int) throws -> String {
    throw NoPageImages()
  }
}

/// Writes a document page by page, so that a long document is never held
/// whole: ``page(_:from:images:)`` gives each page's bytes, ``headBytes()``
/// the bytes before the pages and ``tailBytes()`` those after.
///
/// A format whose head depends on every page (ALTO lists their styles, the
/// accessible HTML takes its title and language from them) is not
/// ``headIsKnownFirst``: its pages are kept aside and the head written
/// before them once the last is written (and ``flush()`` has given the
/// pages it held back).
public protocol PageWriter {
  /// The number of pages written.
  var pageCount: Int { get }
  /// Whether ``headBytes()`` is the same whatever the pages: it can be written
  /// before the first page.
  var headIsKnownFirst: Bool { get }
  /// The bytes before the pages (of the pages written so far).
  func headBytes() -> Data
  /// The bytes of the next page.
  /// - Parameters:
  ///   - page: The page.
  ///   - origin: Where the page was read from.
  ///   - images: The page images, for a format that needs them.
  mutating func page(_ page: Page, from origin: PageOrigin, images: (any PageImageSource)?)
    throws -> Data
  /// The bytes of pages held back (the accessible HTML holds its first
  /// page until it knows whether another follows), after the others.
  mutating func flush() throws -> Data
  /// The bytes after the last page.
  mutating func tailBytes() throws -> Data
}

extension PageWriter {
  public mutating func flush() throws -> Data { Data() }
}

/// A format that needs page images was given none.
struct NoPageImages: Error, CustomStringConvertible {
  var description: String { "this format needs the page images" }
}

extension DocumentWriter: PageWriter {
  public func headBytes() -> Data { Data(head().utf8) }

  public mutating func page(
    _ page: Page, from origin: PageOrigin, images: (any PageImageSource)?
  ) throws -> Data {
    Data(try self.page(page).utf8)
  }

  public mutating func tailBytes() throws -> Data { Data(tail().utf8) }
}

extension SearchablePDF {
  /// The searchable PDF as a ``ScanFormats/PageWriter``: each page's image
  /// from the ``PageImageSource``, the document's title the first page's
  /// file name; or, when the source gives one at the first page
  /// (``PageImageSource/searchablePDFWriter(settings:font:)``: PDF inputs,
  /// edited), that writer.
  struct PageWriter: ScanFormats.PageWriter {
    let settings: WriterSettings
    private let font: Data
    private var writer: Writer?
    /// The source's writer, when it gave one.
    private var other: (any ScanFormats.PageWriter)?

    /// Loads the font now, so that a missing one fails before any page
    /// is read.
    init(settings: WriterSettings) throws {
      self.settings = settings
      font = try settings.font()
    }

    var pageCount: Int { other?.pageCount ?? writer?.pageCount ?? 0 }
    var headIsKnownFirst: Bool { true }
    func headBytes() -> Data { Data() }

    mutating func page(_ page: Page, from origin: PageOrigin, images: (any PageImageSource)?)
      throws -> Data
    {
      guard let images else { throw NoPageImages() }
      if pageCount == 0 {
        other = try images.searchablePDFWriter(settings: settings, font: font)
      }
      if var other {
        defer { self.other = other }
        return try other.page(page, from: origin, images: images)
      }
      var writer =
        self.writer
        ?? Writer(
          font: font, title: settings.title ?? URL(fileURLWithPath: origin.path).lastPathComponent,
          producer: settings.producer, keepRotation: settings.keepRotation,
          tagged: settings.tagged, archive: settings.archive())
      let bytes = try writer.add(
        PageInput(page: page, image: images.pdfImage(of: page, from: origin)))
      self.writer = writer
      return bytes
    }

    mutating func tailBytes() throws -> Data {
      if var other {
        defer { self.other = other }
        return try other.tailBytes()
      }
      var writer =
        self.writer ?? Writer(font: font, title: nil, producer: settings.producer)
      let bytes = try writer.finish()
      settings.warnIfNotArchival(writer.notArchivalReason, tagged: settings.tagged)
      return bytes
    }
  }
}

extension WriterSettings {
  /// The PDF/A settings of a new searchable PDF: the level
  /// ``outputType`` asks for (A when ``tagged``) and the standard sRGB
  /// profile; `nil` for a plain PDF, and when no profile is installed
  /// (then ``warn`` is told so).
  public func archive() -> PDFArchive.Settings? {
    guard let level = outputType.level(tagged: tagged) else { return nil }
    guard let profile = PDFArchive.standardProfile() else {
      warnIfNotArchival(PDFArchive.missingProfileReason, tagged: tagged)
      return nil
    }
    return PDFArchive.Settings(level: level, outputProfile: profile)
  }

  /// Tells ``warn`` why the PDF is plain PDF when `reason` is given.
  /// - Parameters:
  ///   - reason: Why the file could not be PDF/A, `nil` when it is.
  ///   - tagged: Whether the file is tagged (the level it missed).
  public func warnIfNotArchival(_ reason: String?, tagged: Bool) {
    guard let reason, let level = outputType.level(tagged: tagged) else { return }
    warn("written as plain PDF, not \(level): \(reason)")
  }
}

extension TSV {
  /// Tesseract's own TSV as a ``ScanFormats/PageWriter``
  /// (``WriterSettings/tesseractTSV``): the header row, then each page's
  /// rows as the ``PageImageSource`` recognises its image; the model's
  /// page is not read.
  struct TesseractWriter: ScanFormats.PageWriter {
    private(set) var pageCount = 0
    var headIsKnownFirst: Bool { true }
    func headBytes() -> Data { Data((TSV.header + "\n").utf8) }

    mutating func page(_ page: Page, from origin: PageOrigin, images: (any PageImageSource)?)
      throws -> Data
    {
      guard let images else { throw NoPageImages() }
      let rows = try images.tesseractTSV(of: origin, pageNumber: pageCount)
      pageCount += 1
      return Data(rows.utf8)
    }

    mutating func tailBytes() throws -> Data { Data() }
  }
}

extension Markdown.Writer: PageWriter {
  public var headIsKnownFirst: Bool { true }

  public func headBytes() -> Data { Data() }

  public mutating func page(
    _ page: Page, from origin: PageOrigin, images: (any PageImageSource)?
  ) throws -> Data {
    Data(self.page(page).utf8)
  }

  public mutating func tailBytes() throws -> Data { Data() }
}

extension AccessibleHTML {
  /// The accessible HTML as a ``ScanFormats/PageWriter``: the first page
  /// is held until the next shows whether the document has several (one
  /// page is a `div` with landmarks, several are `section`s in a `main`);
  /// the head, which takes the language and title from the pages, comes
  /// last.
  struct PageWriter: ScanFormats.PageWriter {
    let html: AccessibleHTML
    private var writer: Writer?
    private var waiting: ShownPage?
    private(set) var pageCount = 0

    init(settings: WriterSettings) {
      html = settings.html
    }

    var headIsKnownFirst: Bool { false }

    func headBytes() -> Data {
      Data((writer ?? Writer(html, several: false)).head().utf8)
    }

    mutating func page(_ page: Page, from origin: PageOrigin, images: (any PageImageSource)?)
      throws -> Data
    {
      guard let images else { throw NoPageImages() }
      let shown = try images.htmlPicture(of: page, from: origin)
      pageCount += 1
      guard writer != nil || waiting != nil else {
        waiting = shown
        return Data()
      }
      var text = ""
      if writer == nil { writer = Writer(html, several: true) }
      if let first = waiting { text += writer?.page(first) ?? "" }
      waiting = nil
      text += writer?.page(shown) ?? ""
      return Data(text.utf8)
    }

    mutating func flush() throws -> Data {
      guard let only = waiting else { return Data() }
      waiting = nil
      var writer = Writer(html, several: false)
      let text = writer.page(only)
      self.writer = writer
      return Data(text.utf8)
    }

    mutating func tailBytes() throws -> Data {
      Data((writer ?? Writer(html, several: false)).tail().utf8)
    }
  }
}
