import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// The searchable PDF of pages read from PDFs: the registry's `pdf` row
/// (``ScanFormats/FileFormat/searchablePDF``) writes with
/// ``EditingWriter`` when the ``PageFiles`` it is handed read PDFs
/// (`scantext ocr IN… -o out.pdf`, `convert` of a model of PDF pages).
///
/// Image files alone become a new PDF (``SearchablePDF``: each image with
/// its text layer). When a PDF is among the inputs, the output is that PDF
/// itself, edited with qpdf (``PDFEditor``): the first PDF input is the
/// base document (its catalog, outline, names and metadata kept), pages of
/// other PDF inputs are copied in, and image files' pages are written by
/// ``SearchablePDF`` and copied in; the output holds the pages read, in
/// their order. Each page of a PDF is then, by what the model and the
/// policy say:
/// - **kept** byte for byte when it has text and that text is kept (its
///   words came from the PDF: by default, with `--skip-text`, and with
///   `--redo-ocr` when its text is all visible);
/// - **replaced** by its rendering and the text layer under `--force-ocr`;
/// - **given the text layer**, its content kept (under `--redo-ocr`, an
///   earlier invisible layer taken out first).
///
/// A recognised page found turned (``ScanModel/Page/orientation``) gets a
/// `/Rotate` that shows it upright, unless `--keep-rotation`.
package enum SearchablePDFOutput {
  /// Refuses, before any page is read, a model (ScanText JSON, hOCR, …:
  /// it has no page images), and a PDF input no searchable copy can be
  /// made of: an encrypted one (it opens without a password, but a copy
  /// would have to be encrypted again), or one qpdf cannot read while
  /// Poppler can (one neither reads is left to the reading's own error,
  /// and the batch goes on without it).
  package static func checkInputs(_ paths: [String]) throws {
    // A model has no page images to put in the PDF.
    for path in paths where InputFiles.isDocument(path) {
      throw ServiceError(
        "\(path): a searchable PDF needs the page images; give the images, not a model")
    }
    for path in paths
    where !InputFiles.isDocument(path) && InputFiles.kind(path) == .pdf {
      guard let data = try? InputFiles.read(path) else { continue }
      do {
        _ = try PDFEditor(data: data, path: path)
      } catch .pdfEditingUnavailable(let path) {
        throw ServiceError(OCRError.pdfEditingUnavailable(path: path).description)
      } catch {
        if (try? PDFDocument(data: data, path: path)) != nil {
          throw ServiceError(error.description)
        }
      }
    }
  }

  /// The producer the PDF records (`/Producer`, `pdf:Producer`).
  package static var producer: String {
    "ScanText \(ToolIdentity.version) (Tesseract \(OCREngine.tesseractVersion))"
  }

  /// A new PDF of image files' pages, each its image and text layer.
  package static func imagePDF(
    pages: [(page: Page, source: (path: String, page: Int))], maxPixels: Int, font: Data,
    title: String?, keepRotation: Bool = false, tagged: Bool = true,
    archive: PDFArchive.Settings? = nil, notArchival: (String) -> Void = { _ in }
  ) throws -> Data {
    var writer = SearchablePDF.Writer(
      font: font, title: title, producer: producer, keepRotation: keepRotation, tagged: tagged,
      archive: archive)
    var data = Data()
    for (page, source) in pages {
      data += try writer.add(
        SearchablePDF.PageInput(page: page, image: image(of: source, maxPixels: maxPixels)))
    }
    data += try writer.finish()
    if let reason = writer.notArchivalReason { notArchival(reason) }
    return data
  }

  /// The image of page `source.page` of the image file `source.path` as
  /// it goes into a PDF (its bytes as stored where they can be).
  package static func image(of source: (path: String, page: Int), maxPixels: Int) throws
    -> PDFPageImage
  {
    try InputFiles.withFile(source.path) {
      try PDFImages.stream(page: source.page, ofFile: $0, maxPixels: maxPixels)
    }
  }

  /// The first PDF input, edited: see the type's discussion. Made PDF/A
  /// as `settings` ask (``WriterSettings/outputType``; level A when the
  /// output is tagged) unless it cannot be, which ``WriterSettings/warn``
  /// is told.
  package static func editedPDF(
    pages: [Page], sources: [(path: String, page: Int)], maxPixels: Int, font: Data,
    policy: PDFTextPolicy, settings: WriterSettings
  ) throws -> Data {
    let (keepRotation, tagged, title) = (settings.keepRotation, settings.tagged, settings.title)
    // Each PDF input opened once, in the order they come.
    var editors: [String: PDFEditor] = [:]
    var base: PDFEditor?
    for (page, source) in zip(pages, sources) where page.pdf != nil && editors[source.path] == nil {
      let editor = try PDFEditor(
        data: InputFiles.read(source.path), path: source.path, font: font)
      editors[source.path] = editor
      base = base ?? editor
    }
    guard let base else { throw ServiceError("no page of a PDF to write") }
    // Image files' pages, written as a PDF of their own and copied in.
    let images = zip(pages, sources).filter { $0.0.pdf == nil }.map { (page: $0.0, source: $0.1) }
    let imageDocument =
      images.isEmpty
      ? nil
      : try PDFEditor(
        data: imagePDF(
          pages: images, maxPixels: maxPixels, font: font, title: nil, keepRotation: keepRotation,
          // Not tagged: the base PDF has no structure tree for its pages.
          tagged: false),
        path: images[0].source.path, font: font)
    var order: [(document: PDFEditor, page: Int)] = []
    var imagePage = 0
    for (page, source) in zip(pages, sources) {
      if let pdf = page.pdf, let editor = editors[source.path] {
        order.append((editor, pdf.page - 1))
      } else if let imageDocument {
        order.append((imageDocument, imagePage))
        imagePage += 1
      }
    }
    // Tagged when every page is a page of a PDF: a page copied from an
    // image file's PDF has no tags of its own. A page kept as it is (its
    // own text) is tagged in place when its words came from its text and
    // its content can be marked (below); a page with text that was
    // recognised all the same is not. A document with a structure tree of
    // its own keeps it, its kept pages their own tags, and the other pages'
    // tags join it, when they all come from it and none is tied to its tree
    // already (its content would be made an artifact).
    let treatments = pages.map { treatment(of: $0, policy: policy) }
    let ownTree = base.hasStructure
    var tagging = tagged && images.isEmpty
    if ownTree {
      tagging =
        try tagging && editors.count == 1
        && (0..<pages.count).allSatisfy {
          try treatments[$0] == .kept || !base.hasStructParents(page: $0)
        }
    } else {
      tagging =
        tagging && zip(pages, treatments).allSatisfy { $1 != .kept || $0.source == .pdfText }
    }
    try base.arrangePages(order)

    // Every page's tags planned before any page is edited: a kept page's
    // content marked (PDFContentMarking), or none of the document tagged.
    var plans: [PDFTags.PagePlan] = []
    var markedContent: [Int: [UInt8]] = [:]
    if tagging {
      var tags = PDFTags()
      for (i, page) in pages.enumerated() {
        // A figure is tagged when its content can be drawn: the rendering
        // of a rendered page, the page's own content of a layered one
        // unless that shows text (see PDFEditor.figureSpace); a kept
        // page's images are artifacts.
        var space: ScanModel.AffineTransform?
        switch treatments[i] {
        case .kept: space = nil
        case .rendered: space = base.renderedSpace(page: i, model: page)
        case .layered(let removing):
          space = base.figureSpace(page: i, model: page, removingInvisibleText: removing)
        }
        var plan = tags.plan(page, pixelToUser: space)
        if treatments[i] == .kept && ownTree {
          plan = PDFTags.PagePlan()
        } else if treatments[i] == .kept {
          guard let marked = try base.markedContent(page: i, model: page, marks: plan.marks)
          else {
            // (Nothing is marked: the pages before stay as they are.)
            tagging = false
            markedContent = [:]
            break
          }
          markedContent[i] = marked.bytes
          plan = plan.remapped(owners: marked.owners)
        }
        plans.append(plan)
      }
    }
    // The parent tree's keys of this document's pages (past its own
    // tree's).
    let keyOffset = base.firstFreeStructParentsKey
    var parts: [PDFTags.PagePart] = []
    var renderers: [String: PDFDocument] = [:]
    for (i, (page, source)) in zip(pages, sources).enumerated() {
      var marks: (marks: [PDFTags.Mark], key: Int)?
      var figures: [(mcid: Int, outline: [Point])] = []
      if tagging {
        var part = PDFTags.PagePart(plans[i])
        part.pixelToUser = try base.pixelToUser(page: i, model: page)
        parts.append(part)
        marks = (plans[i].marks, keyOffset + i)
        figures = plans[i].figures
      }
      guard let pdf = page.pdf else {
        try base.shareGlyphlessFont(page: i)
        continue
      }
      switch treatments[i] {
      case .kept:
        if let content = markedContent[i] {
          try base.setMarkedContent(page: i, content, key: keyOffset + i)
        }
        continue
      case .rendered:
        let document: PDFDocument
        if let open = renderers[source.path] {
          document = open
        } else {
          document = try PDFDocument(data: InputFiles.read(source.path), path: source.path)
          renderers[source.path] = document
        }
        let stream = try PDFImages.stream(
          pdfPage: pdf.page - 1, of: document, width: page.width, height: page.height,
          dpi: page.dpi ?? 300, nativeImage: pdf.nativeImage)
        try base.replaceContent(
          page: i, model: page, image: stream, tags: marks, figures: figures)
      case .layered(let removingInvisibleText):
        try base.addTextLayer(
          page: i, model: page, removingInvisibleText: removingInvisibleText, tags: marks,
          figures: figures)
        // The earlier layer's glyphless font (ScanText's, Tesseract's or
        // OCRmyPDF's: the same empty glyphs) becomes the document's one.
        if removingInvisibleText { try base.shareGlyphlessFont(page: i) }
      }
      // Shown upright: the page turned back by what recognition found.
      if !keepRotation, page.orientation % 360 != 0 {
        try base.setRotation(page: i, degrees: base.rotation(page: i) - page.orientation)
      }
    }
    // A font a typed page leaves out is embedded (a subset of its free
    // metric twin) when the file is to be PDF/A or PDF/UA, which both
    // require every font embedded.
    // An embedded composite font gets the glyph map and the characters
    // its program gives and both ask for, a Type 1 subset in CFF the
    // names of its glyphs (`/CharSet`).
    if tagging || settings.outputType.level(tagged: false) != nil {
      try base.embedTwinFonts()
      try base.completeCompositeFonts()
      try base.completeSubsetCharSets()
    }
    // Tagged and claimed PDF/UA-1 when every font is embedded, which
    // PDF/UA-1 requires as PDF/A does: a born-digital page in a font the
    // file lacks (one without a free twin) is still tagged, without the
    // claim.
    let claimsUA = try tagging && base.unembeddedFont() == nil
    if tagging {
      let named = try base.addStructure(
        parts, language: pages.first?.accessibilityLanguage,
        title: title ?? sources.first.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? "",
        producer: producer, pdfUA: claimsUA, keyOffset: keyOffset)
      // A field's name is a poor description of it: the user is told.
      if let first = named.first {
        let more = named.count > 1 ? " (and \(named.count - 1) more)" : ""
        settings.warn(
          "form field '\(first)'\(more) had no alternate name (/TU): given its name as one")
      }
    }
    try base.updateMetadata(producer: producer, date: ToolIdentity.date, pdfUA: claimsUA)
    var archival = settings
    archival.tagged = tagging
    if let archive = archival.archive() {
      archival.warnIfNotArchival(try base.makeArchival(archive, pdfUA: claimsUA), tagged: tagging)
    }
    return try base.data(deterministicID: ToolIdentity.fixedDate != nil)
  }

  /// What becomes of a PDF page in the searchable PDF.
  package enum Treatment: Equatable {
    /// Carried unchanged.
    case kept
    /// Its content replaced by its rendering, with the text layer.
    case rendered
    /// Its content kept, the text layer added (an earlier invisible layer
    /// taken out first, when asked).
    case layered(removingInvisibleText: Bool)
  }

  /// The rule for a PDF page: kept when its words came from its text (by
  /// default, `--skip-text`, and `--redo-ocr` for a page whose text is all
  /// visible), and when it has text but was recognised under the default
  /// or `--skip-text` (Poppler could not pair its text with boxes): a layer
  /// added to it would double its text. Under `--force-ocr` every page is
  /// rendered; under `--redo-ocr` a recognised page with text loses its
  /// invisible layer.
  package static func treatment(of page: Page, policy: PDFTextPolicy) -> Treatment {
    guard let pdf = page.pdf else { return .layered(removingInvisibleText: false) }
    if page.source == .pdfText { return .kept }
    switch policy {
    case .force: return .rendered
    case .keep, .skip: return pdf.hasText ? .kept : .layered(removingInvisibleText: false)
    case .redo: return .layered(removingInvisibleText: pdf.hasText)
    }
  }
}

extension SearchablePDFOutput {
  /// The searchable PDF of pages some of which may come from PDFs, fed
  /// page by page like every format's writer: qpdf needs the whole
  /// document (the first PDF input is the base, the pages are arranged in
  /// it), so the pages wait until the last is written, then the PDF is
  /// made at once (see the type's discussion): the first PDF input edited
  /// when a page came from a PDF, else a new PDF of the images.
  package struct EditingWriter: PageWriter {
    let settings: WriterSettings
    let font: Data
    /// The most pixels an image may have (`--max-pixels`).
    let maxPixels: Int
    /// What was done with PDF pages that already had text.
    let policy: PDFTextPolicy
    private var pages: [Page] = []
    private var sources: [(path: String, page: Int)] = []

    /// A writer with `settings` (their `keepRotation`) and the glyphless
    /// font `font`.
    package init(settings: WriterSettings, font: Data, maxPixels: Int, policy: PDFTextPolicy) {
      self.settings = settings
      self.font = font
      self.maxPixels = maxPixels
      self.policy = policy
    }

    package var pageCount: Int { pages.count }
    package var headIsKnownFirst: Bool { true }
    package func headBytes() -> Data { Data() }

    /// Keeps the page for the end.
    package mutating func page(
      _ page: Page, from origin: PageOrigin, images: (any PageImageSource)?
    ) throws -> Data {
      pages.append(page)
      sources.append((origin.path, origin.page))
      return Data()
    }

    /// The whole PDF.
    package mutating func tailBytes() throws -> Data {
      guard pages.contains(where: { $0.pdf != nil }) else {
        return try imagePDF(
          pages: Array(zip(pages, sources)), maxPixels: maxPixels, font: font,
          title: settings.title
            ?? sources.first.map { URL(fileURLWithPath: $0.path).lastPathComponent },
          keepRotation: settings.keepRotation, tagged: settings.tagged,
          archive: settings.archive()
        ) { settings.warnIfNotArchival($0, tagged: settings.tagged) }
      }
      return try editedPDF(
        pages: pages, sources: sources, maxPixels: maxPixels, font: font, policy: policy,
        settings: settings)
    }
  }
}

/// The page images of the formats that need them, from the files the pages
/// were read from: an image file's page as it goes into a PDF (its bytes
/// as stored where they can be), a page's picture in accessible HTML
/// (``HTMLPictures``), and, when the pages come from PDFs, the searchable
/// PDF's writer that edits them (``SearchablePDFOutput/EditingWriter``).
package final class PageFiles: PageImageSource {
  /// The most pixels an image may have (`--max-pixels`).
  package let maxPixels: Int
  /// What is done with PDF pages that already have text.
  package let pdfText: PDFTextPolicy
  /// Whether pages may come from PDFs: the searchable PDF is then the
  /// first PDF edited.
  package let readsPDFs: Bool
  private var pictures: HTMLPictures
  /// Tesseract's own TSV rows of the pages read
  /// (``ScanFormats/WriterSettings/tesseractTSV``); none when `nil`.
  private let tesseractTSV: TesseractRows?

  /// The images of pages read from files.
  /// - Parameters:
  ///   - maxPixels: The most pixels an image may have.
  ///   - pdfText: What is done with PDF pages that already have text.
  ///   - readsPDFs: Whether pages may come from PDFs.
  ///   - pictures: How the accessible HTML shows them.
  ///   - tesseractTSV: Tesseract's own TSV rows of the pages read, when
  ///     they are asked for.
  package init(
    maxPixels: Int, pdfText: PDFTextPolicy = .keep, readsPDFs: Bool = false,
    pictures: HTMLPictures, tesseractTSV: TesseractRows? = nil
  ) {
    self.maxPixels = maxPixels
    self.pdfText = pdfText
    self.readsPDFs = readsPDFs
    self.pictures = pictures
    self.tesseractTSV = tesseractTSV
  }

  package func tesseractTSV(of origin: PageOrigin, pageNumber: Int) throws -> String {
    // The sink asks for Tesseract's TSV only when the pages were read with it.
    guard let rows = tesseractTSV?.next() else {
      throw ServiceError("no Tesseract TSV read of \(origin.path)")
    }
    return TesseractTSVWriter.rows(rows, numbered: pageNumber)
  }

  package func pdfImage(of page: Page, from origin: PageOrigin) throws -> PDFPageImage {
    try SearchablePDFOutput.image(of: (origin.path, origin.page), maxPixels: maxPixels)
  }

  package func htmlPicture(of page: Page, from origin: PageOrigin) throws
    -> AccessibleHTML.ShownPage
  {
    try pictures.picture(of: page, from: origin)
  }

  package func searchablePDFWriter(settings: WriterSettings, font: Data) throws
    -> (any PageWriter)?
  {
    guard readsPDFs else { return nil }
    return SearchablePDFOutput.EditingWriter(
      settings: settings, font: font, maxPixels: maxPixels, policy: pdfText)
  }
}

extension WriterSettings {
  /// What ScanText writes with: its generator, the PDF's producer and the
  /// glyphless font from the tessdata folder `dataPath` (the standard one
  /// for `nil`), loaded when a PDF writer starts; `keepRotation` for the
  /// PDF and the accessible HTML alike.
  package static func scanText(
    dataPath: String?, keepRotation: Bool = false, tagged: Bool = true, title: String? = nil,
    html: AccessibleHTML = AccessibleHTML()
  ) -> WriterSettings {
    var html = html
    if keepRotation { html.options.insert(.keepRotation) }
    var settings = WriterSettings(
      generator: ToolIdentity.generator, date: ToolIdentity.date,
      producer: SearchablePDFOutput.producer,
      font: { try PDFImages.glyphlessFont(dataPath: dataPath) }, keepRotation: keepRotation,
      html: html)
    settings.tagged = tagged
    settings.title = title
    return settings
  }
}

/// Tesseract's own TSV rows of the pages read
/// (``NumberedPage/tesseractTSV``), handed from the reading to the
/// writer, in page order, on the thread that writes.
package final class TesseractRows {
  /// The rows of the pages read and not written yet, in order.
  package var waiting: [String] = []

  /// Rows awaiting their pages.
  package init() {}

  /// The rows of the next page written; `nil` when none is waiting.
  func next() -> String? {
    waiting.isEmpty ? nil : waiting.removeFirst()
  }
}
