import CScanOCR
import Foundation
import ScanFormats
import ScanModel

/// A PDF file's pages, read through Poppler one page at a time, so a long
/// PDF never holds more than one rendered page.
///
/// Not thread-safe: give each thread its own (opening is cheap; Poppler's
/// documents are not shared across threads). The documents of one file
/// can share its bytes and its qpdf scanner (`PDFFile`,
/// `init(file:pagesPerView:)`).
public final class PDFDocument {
  /// The file, for errors.
  public let path: String
  /// The number of pages.
  public let pageCount: Int
  /// Poppler's document of the whole file: opened to count the pages, it
  /// reads the first ``pagesPerView`` pages, and every page when views
  /// are unavailable. It is closed while a page is read through a view
  /// (and opened again when one of the first pages is asked for): its
  /// cross-reference table is the file's, as a view's is (1.3 MB each at
  /// 20,000 pages).
  private var whole: OpaquePointer?
  /// The file: its bytes, which Poppler reads in place, and the qpdf
  /// scanner that checks a page's images and makes the views; shared with
  /// the other documents opened on it (``init(file:pagesPerView:)``).
  package let file: PDFFile
  /// The file's bytes (for qpdf, which reads the stored image).
  var fileBytes: UnsafeRawBufferPointer { file.bytes }
  /// The page described last: reading a page asks for it twice (whether
  /// it has text, then its rendering), and describing a page decodes its
  /// one image.
  private var described: (index: Int, info: PageInfo)?
  /// When reading the page described last began (its image check and
  /// Poppler's text probe included): its deadline counts from here.
  private var began: (index: Int, date: Date)?
  /// The pages read through the document itself (from the first), and
  /// read through each view beyond them. Poppler keeps a page object
  /// (about 1.5 kB) for every page before the one asked for, until the
  /// document is closed: page 20,000 of a PDF cost 30 MB. A page beyond
  /// the first `pagesPerView` is read through a view of the file in which
  /// its window of `pagesPerView` pages are the only pages
  /// (``PDFEditor/viewUpdate(pages:)``), opened when the window is first
  /// asked for and closed at the next.
  let pagesPerView: Int
  /// The view open: the first page of its window and its handle.
  private var view: (first: Int, handle: OpaquePointer)?
  /// The first page of the window of the view open, `nil` when none is.
  var viewWindow: Int? { view?.first }
  /// Whether a view could not be made (no qpdf, an encrypted file, a page
  /// tree whose counts do not lead to its pages): every page is then read
  /// through the document.
  private var viewsUnavailable = false

  /// Whether PDF input is available: Poppler's GLib library
  /// (libpoppler-glib8) is installed.
  public static var isAvailable: Bool { scantext_pdf_load() == 0 }

  /// Whether the bytes look like a PDF: `%PDF-` at the start, or within
  /// the first 1024 bytes (where readers look for it) when they do not
  /// start with an image format's signature: a PNG or JPEG whose metadata
  /// holds `%PDF-` is an image (it was refused as a damaged PDF).
  public static func isPDF(_ data: Data) -> Bool {
    let head = data.prefix(1024)
    if head.starts(with: Data("%PDF-".utf8)) { return true }
    if ImageSignature.matches(head) { return false }
    return head.firstRange(of: Data("%PDF-".utf8)) != nil
  }

  /// Opens a PDF held in memory.
  /// - Throws: ``OCRError/pdfUnavailable(path:)`` when Poppler is not
  ///   installed, ``OCRError/encryptedPDF(path:)``,
  ///   ``OCRError/corruptPDF(path:)``, ``OCRError/emptyPDF(path:)``.
  public convenience init(data: Data, path: String) throws(OCRError) {
    try self.init(data: data, path: path, pagesPerView: 256)
  }

  /// Opens a PDF held in memory, reading the pages beyond the first
  /// `pagesPerView` through views of `pagesPerView` pages.
  convenience init(data: Data, path: String, pagesPerView: Int) throws(OCRError) {
    try self.init(file: PDFFile(data: data, path: path), pagesPerView: pagesPerView)
  }

  /// Opens a PDF file already read, for one thread: the documents opened
  /// on one file (one per thread) share its bytes and its qpdf scanner;
  /// each has its own Poppler document and view.
  /// - Parameters:
  ///   - file: The file.
  ///   - pagesPerView: The pages read through the document itself (the
  ///     first ones) and through each view beyond them.
  /// - Throws: ``OCRError/pdfUnavailable(path:)`` when Poppler is not
  ///   installed, ``OCRError/encryptedPDF(path:)``,
  ///   ``OCRError/corruptPDF(path:)``, ``OCRError/emptyPDF(path:)``.
  /// - Complexity: Poppler's reading of the file's cross-reference table.
  package init(file: PDFFile, pagesPerView: Int = 256) throws(OCRError) {
    let path = file.path
    self.path = path
    self.file = file
    self.pagesPerView = max(1, pagesPerView)
    var error: Int32 = 0
    guard let handle = Self.open(file, error: &error) else {
      switch Int(error) {
      case Int(SCANTEXT_PDF_NO_LIBRARY): throw .pdfUnavailable(path: path)
      case Int(SCANTEXT_PDF_ENCRYPTED): throw .encryptedPDF(path: path)
      default: throw .corruptPDF(path: path)
      }
    }
    let count = Int(scantext_pdf_page_count(handle))
    guard count > 0 else {
      scantext_pdf_close(handle)
      throw .emptyPDF(path: path)
    }
    self.whole = handle
    self.pageCount = count
  }

  deinit {
    // Poppler reads the file's bytes in place: its documents go first
    // (the file is released after `deinit`).
    if let view { scantext_pdf_close(view.handle) }
    if let whole { scantext_pdf_close(whole) }
    PDFFile.releaseFreeMemory()
  }

  /// Poppler's document of the whole file, `nil` with `error` set when it
  /// does not open.
  private static func open(_ file: PDFFile, error: inout Int32) -> OpaquePointer? {
    guard let base = file.bytes.baseAddress else { return nil }
    return scantext_pdf_open(base.assumingMemoryBound(to: UInt8.self), file.bytes.count, &error)
  }

  /// What page `index` (from 0) holds, without rendering it.
  public struct PageInfo: Sendable, Equatable {
    /// The page's size as displayed, in points.
    public var width: Double
    public var height: Double
    /// Whether the page has text of its own.
    public var hasText: Bool
    /// When the page is one image covering it: the image's size in pixels
    /// and its box's size in points, across and down the displayed page.
    public var image: (width: Double, height: Double, boxWidth: Double, boxHeight: Double)? {
      imageSize.map { (width: $0[0], height: $0[1], boxWidth: $0[2], boxHeight: $0[3]) }
    }
    var imageSize: [Double]?

    public static func == (a: PageInfo, b: PageInfo) -> Bool {
      a.width == b.width && a.height == b.height && a.hasText == b.hasText
        && a.imageSize == b.imageSize
    }
  }

  /// Describes page `index` (from 0). Before Poppler reads the page, the
  /// images it draws are checked against `maxPixels` by the size they
  /// claim (``PDFEditor/largestImage(page:)``, read with qpdf; skipped
  /// when qpdf is not installed): Poppler reads an inline image's claimed
  /// pixels even to find the page's text, however few bytes it holds.
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - maxPixels: The most pixels an image of the page may claim.
  /// - Throws: ``OCRError/corruptPDFPage(path:page:)``,
  ///   ``OCRError/pdfImageTooLarge(path:page:width:height:inline:limit:)``,
  ///   ``OCRError/pdfImageUnreadable(path:page:)``.
  /// - Complexity: O(*n*) in the page's decoded content, plus Poppler's
  ///   reading of the page's text.
  public func info(page index: Int, maxPixels: Int = RecognitionOptions.defaultMaxPixels)
    throws(OCRError) -> PageInfo
  {
    if let described, described.index == index { return described.info }
    began = (index, Date())
    // What the page is not read through is closed before the check (qpdf
    // reads the file's cross-reference table and page tree): the peak
    // holds one of Poppler's documents at most.
    var closed = false
    if isInView(index), let whole {
      scantext_pdf_close(whole)
      self.whole = nil
      closed = true
    }
    if let view, !isInView(index) || view.first != index / pagesPerView * pagesPerView {
      scantext_pdf_close(view.handle)
      self.view = nil
      closed = true
    }
    // What the closed document held (its cross-reference table: 1.3 MB
    // at 20,000 pages) leaves the resident set before the check opens
    // qpdf's scanner.
    if closed { PDFFile.releaseFreeMemory() }
    let unchecked = try checkImages(page: index, maxPixels: maxPixels)
    var page = scantext_pdf_page()
    guard index >= 0, index < pageCount, let located = located(index),
      scantext_pdf_describe(located.handle, located.index, unchecked ? 0 : 1, &page) == 0,
      page.width > 0, page.height > 0, page.width.isFinite, page.height.isFinite
    else { throw .corruptPDFPage(path: path, page: index) }
    // An image Poppler finds where qpdf found none it could size: its
    // size is unknown, and Poppler decodes whatever it claims (a forged
    // dictionary of 60000×60000 pixels took minutes in C, past any
    // --timeout). Where Poppler finds no image either, it draws nothing.
    if unchecked, page.images > 0 { throw .pdfImageUnreadable(path: path, page: index) }
    let image = [page.image_width, page.image_height, page.box_width, page.box_height]
    let info = PageInfo(
      width: page.width, height: page.height, hasText: page.has_text != 0,
      imageSize: image.allSatisfy({ $0 > 0 && $0.isFinite }) ? image : nil)
    described = (index, info)
    return info
  }

  /// Whether page `index` (from 0) is read through a view: it is beyond
  /// the first ``pagesPerView`` pages, and views are available.
  private func isInView(_ index: Int) -> Bool {
    index >= pagesPerView && index < pageCount && !viewsUnavailable
  }

  /// The open document that holds page `index` (from 0) and the page's
  /// index there: the whole document for the first ``pagesPerView``
  /// pages, else the view of the page's window (opened now when another
  /// is open, which is closed, as the whole document is); `nil` when the
  /// whole document no longer opens.
  func located(_ index: Int) -> (handle: OpaquePointer, index: Int32)? {
    if isInView(index) {
      if let whole { scantext_pdf_close(whole) }
      whole = nil
      if let viewed = viewed(index) { return viewed }
    }
    if let view {
      scantext_pdf_close(view.handle)
      self.view = nil
    }
    if whole == nil {
      var error: Int32 = 0
      whole = Self.open(file, error: &error)
    }
    return whole.map { ($0, Int32(clamping: index)) }
  }

  /// The view of page `index`'s window and the page's index there, opened
  /// now when it is not open; `nil` when no view can be made (views are
  /// then unavailable).
  private func viewed(_ index: Int) -> (handle: OpaquePointer, index: Int32)? {
    let first = index / pagesPerView * pagesPerView
    if let view, view.first == first { return (view.handle, Int32(index - first)) }
    if let view { scantext_pdf_close(view.handle) }
    view = nil
    let window = first..<min(first + pagesPerView, pageCount)
    let bytes = file.bytes
    var error: Int32 = 0
    var opened: OpaquePointer?
    if let update = file.viewUpdate(pages: window, pageCount: pageCount),
      let base = bytes.baseAddress
    {
      opened = update.withUnsafeBufferPointer { tail -> OpaquePointer? in
        guard let end = tail.baseAddress else { return nil }
        return scantext_pdf_open_view(
          base.assumingMemoryBound(to: UInt8.self), bytes.count, end, tail.count, &error)
      }
    }
    guard let opened, Int(scantext_pdf_page_count(opened)) == window.count else {
      if let opened { scantext_pdf_close(opened) }
      viewsUnavailable = true
      return nil
    }
    view = (first, opened)
    return (opened, Int32(index - first))
  }

  /// When reading page `index` began (``info(page:maxPixels:)``); now
  /// when it has not.
  func started(page index: Int) -> Date {
    if let began, began.index == index { return began.date }
    return Date()
  }

  /// Refuses page `index` when an image it draws claims more than
  /// `maxPixels`.
  /// - Returns: Whether the page draws a name whose XObject qpdf cannot
  ///   read (``PDFEditor/ClaimedImage/isUnreadable``): its size is
  ///   unchecked.
  private func checkImages(page index: Int, maxPixels: Int) throws(OCRError) -> Bool {
    guard let image = file.largestImage(page: index), image.pixels > Double(maxPixels) else {
      return false
    }
    if image.isUnreadable { return true }
    throw .pdfImageTooLarge(
      path: path, page: index, width: Int(min(image.width, 1e9)),
      height: Int(min(image.height, 1e9)), inline: image.isInline, limit: maxPixels)
  }

  /// How a page becomes pixels: its size and resolution.
  public struct Rendering: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The resolution recorded for the image, in dots per inch.
    public var dpi: Int
    /// Whether this is the page's one image at its own resolution.
    public var nativeImage: Bool
  }

  /// The rendering of a page: at `dpi` when given; else, for a page that is
  /// one image, at that image's own resolution (its pixels are kept as they
  /// are: no resampling); else at 300 dpi.
  /// - Throws: ``OCRError/pdfPageTooLarge(path:page:points:dpi:width:height:limit:)``
  ///   when the pixels would exceed `maxPixels`.
  public func rendering(
    page index: Int, info: PageInfo, dpi: Int?, maxPixels: Int
  ) throws(OCRError) -> Rendering {
    var resolution = Double(dpi ?? 300)
    var native = false
    if dpi == nil, let image = info.image {
      // The image's own resolution on the page; its sides may be drawn
      // the other way round (an image turned by the page's content).
      let ways = [(image.width, image.height), (image.height, image.width)].map { w, h in
        (w: w, h: h, x: w * 72 / image.boxWidth, y: h * 72 / image.boxHeight)
      }
      // Turned only when that makes the resolution the same both ways and
      // the image as stored does not (a fax's 200×100 dpi stays).
      func square(_ w: (w: Double, h: Double, x: Double, y: Double)) -> Bool {
        abs(w.x - w.y) <= 0.01 * max(w.x, w.y)
      }
      let way = !square(ways[0]) && square(ways[1]) ? ways[1] : ways[0]
      // A fax is stored at 200×100 dpi: render at the finer resolution, so
      // no pixel of the image is lost.
      resolution = max(way.x, way.y)
      // The image's pixels are the page's when its box is the page and
      // its pixels fall on the page's at this resolution (within half a
      // pixel); a skewed or shifted image is resampled by any rendering.
      let scale = resolution / 72
      native =
        abs(image.boxWidth - info.width) * scale <= 0.5
        && abs(image.boxHeight - info.height) * scale <= 0.5
        && abs(info.width * scale - way.w) <= 0.5 && abs(info.height * scale - way.h) <= 0.5
    }
    let width = (info.width * resolution / 72).rounded()
    let height = (info.height * resolution / 72).rounded()
    let recorded = max(1, Int(resolution.rounded()))
    guard width >= 1, height >= 1, width * height <= Double(maxPixels) else {
      throw .pdfPageTooLarge(
        path: path, page: index, points: [info.width, info.height], dpi: recorded,
        width: Int(min(width, 1e9)), height: Int(min(height, 1e9)), limit: maxPixels)
    }
    return Rendering(width: Int(width), height: Int(height), dpi: recorded, nativeImage: native)
  }

  /// What text page `index` (from 0) shows, read from its content streams
  /// and the forms they draw (``PDFEditor/textKind(page:)``): none, an
  /// invisible layer only, visible text only, or both.
  /// - Throws: ``OCRError/pdfEditingUnavailable(path:)`` when qpdf is not
  ///   installed; ``OCRError/uneditablePDF(path:reason:)``.
  public func textKind(page index: Int) throws(OCRError) -> PDFContentStream.TextKind {
    try PDFEditor(
      data: Data(), path: path, font: Data(), countingPages: true, borrowed: fileBytes
    ).textKind(page: index)
  }

  /// Renders page `index` as planned by ``rendering(page:info:dpi:maxPixels:)``.
  func render(page index: Int, _ rendering: Rendering) throws(OCRError) -> LeptonicaImage {
    guard let page = located(index),
      let pix = scantext_pdf_render(
        page.handle, page.index, Int32(rendering.width), Int32(rendering.height),
        Int32(rendering.dpi))
    else { throw .corruptPDFPage(path: path, page: index) }
    return LeptonicaImage(taking: pix)
  }

  /// The source record of a page rendered this way, at the precision a
  /// model keeps (``ScanModel/ScanConventions``): a page decoded from its JSON or the
  /// cache equals the page recognised, and writes the same searchable PDF.
  public func source(page index: Int, info: PageInfo, rendering: Rendering) -> PDFPageSource {
    PDFPageSource(
      page: index + 1, width: ScanConventions.rounded(info.width),
      height: ScanConventions.rounded(info.height),
      pixelToPoint: [
        info.width / Double(rendering.width), 0, 0, info.height / Double(rendering.height), 0, 0,
      ].map(ScanConventions.mapRounded), hasText: info.hasText, nativeImage: rendering.nativeImage)
  }

  /// Whether a page is read from the text it carries instead of being
  /// recognised: under every policy but ``PDFTextPolicy/force``, a page
  /// with text (``PageInfo/hasText``) is.
  /// - Parameters:
  ///   - info: The page's description.
  ///   - policy: What to do with pages that have text.
  public static func readsText(_ info: PageInfo, policy: PDFTextPolicy) -> Bool {
    switch policy {
    case .force: return false
    // `--redo-ocr` recognises again the pages with an earlier invisible
    // layer (``textPage(page:policy:options:)`` asks), and reads the
    // others with text from it.
    case .keep, .skip, .redo: return info.hasText
    }
  }

  /// Page `index` (from 0) built from the text it carries (see
  /// `PDFTextPage`), when ``readsText(_:policy:)`` says so: its exact
  /// text and each glyph's box, in the pixels of the page rendered as
  /// ``rendering(page:info:dpi:maxPixels:)`` plans it (nothing is
  /// rendered, no engine is needed), marked
  /// ``ScanModel/PageTextSource/pdfText``.
  ///
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - policy: What to do with pages that have text.
  ///   - options: The resolution (`dpi`), pixel limit, languages and
  ///     layout order; nothing else applies to a page not recognised.
  /// - Returns: The page, or `nil` when it is to be recognised.
  /// - Throws: ``OCRError/corruptPDFPage(path:page:)``,
  ///   ``OCRError/pdfPageTooLarge(path:page:points:dpi:width:height:limit:)``,
  ///   ``OCRError/pdfImageTooLarge(path:page:width:height:inline:limit:)``,
  ///   ``OCRError/timedOut(path:page:seconds:)`` when the page runs past
  ///   `options`' timeout (counted from the start of its reading).
  /// - Complexity: O(*n* log *n*) in the characters of the page, plus
  ///   O(*l*²) in its lines (the layout's cuts).
  public func textPage(page index: Int, policy: PDFTextPolicy, options: RecognitionOptions)
    throws(OCRError) -> Page?
  {
    do {
      let page = try readText(page: index, policy: policy, options: options)
      // Read: the next reading of this page starts afresh. A page to be
      // recognised keeps its description and start for the recognition.
      if page != nil { finishReading(page: index) }
      return page
    } catch {
      finishReading(page: index)
      throw error
    }
  }

  /// Forgets page `index`'s description and start: its reading is over.
  func finishReading(page index: Int) {
    if described?.index == index { described = nil }
    if began?.index == index { began = nil }
  }

  private func readText(page index: Int, policy: PDFTextPolicy, options: RecognitionOptions)
    throws(OCRError) -> Page?
  {
    guard policy != .force else { return nil }
    let info = try info(page: index, maxPixels: options.maxPixels)
    try checkDeadline(page: index, options: options)
    guard Self.readsText(info, policy: policy) else { return nil }
    // `--redo-ocr` recognises again a page with an earlier invisible text
    // layer (its content streams say so: ``textKind(page:)``).
    if policy == .redo, try textKind(page: index).hasInvisible { return nil }
    guard let text = try text(page: index) else { return nil }
    try checkDeadline(page: index, options: options)
    // An OCR layer set at a slant (on a skewed scan) comes out of Poppler
    // in pieces: the page is recognised instead, by default (the PDF's
    // page is kept as it is all the same); `--skip-text` asks that it is
    // not.
    if policy != .skip, text.isSlanted, try textKind(page: index) == .invisibleOnly {
      return nil
    }
    let rendering = try rendering(
      page: index, info: info, dpi: options.dpi, maxPixels: options.maxPixels)
    let (blocks, orientation) = PDFTextPage.blocks(
      text, width: rendering.width, height: rendering.height, pointsWide: info.width,
      pointsHigh: info.height, layout: options.layout)
    return Page(
      index: index, image: URL(fileURLWithPath: path).lastPathComponent, width: rendering.width,
      height: rendering.height, dpi: rendering.dpi, orientation: orientation,
      language: options.languageString, blocks: blocks,
      pdf: source(page: index, info: info, rendering: rendering), source: .pdfText,
      dpiSource: Self.dpiSource(options))
  }

  /// Fails page `index` when it has run past `options`' timeout since its
  /// reading began (`started(page:)`).
  func checkDeadline(page index: Int, options: RecognitionOptions) throws(OCRError) {
    if let timeout = options.timeout, Date().timeIntervalSince(started(page: index)) >= timeout {
      throw .timedOut(path: path, page: index, seconds: timeout)
    }
  }

  /// Where a PDF page's resolution comes from: `--dpi`, else the page.
  static func dpiSource(_ options: RecognitionOptions) -> ResolutionSource {
    options.dpi == nil ? .pdf : .option
  }
}

/// What to do with a PDF page that already has text (born-digital text, or
/// an earlier invisible text layer): `scantext ocr`'s `--skip-text`,
/// `--redo-ocr` and `--force-ocr`.
public enum PDFTextPolicy: String, Sendable, Hashable, CaseIterable {
  /// The default: the page is not recognised; its words come from its own
  /// text (``PDFDocument/textPage(page:policy:options:)``), and a
  /// searchable PDF carries the page unchanged. `scantext ocr` names such
  /// pages on standard error with the other choices.
  case keep
  /// `--skip-text`: as ``keep``, asked for (no note).
  case skip
  /// `--redo-ocr`: an earlier invisible text layer is replaced by a new
  /// recognition; visible text and vectors are kept.
  case redo
  /// `--force-ocr`: every page is rendered and recognised, text or not,
  /// and a searchable PDF carries the rendering.
  case force
}

extension OCREngine {
  /// Reads page `index` (from 0) of a PDF. A page with text is read from
  /// it (``PDFDocument/textPage(page:policy:options:)``) unless `policy`
  /// is ``PDFTextPolicy/force``. Any other page is rendered (see
  /// ``PDFDocument/rendering(page:info:dpi:maxPixels:)``; `--dpi` is the
  /// rendering's resolution) and recognised as an image would be.
  /// Geometry is in the rendered image's pixels; ``ScanModel/Page/pdf``
  /// maps them to the PDF page.
  ///
  /// - Parameters:
  ///   - pdf: The PDF, open.
  ///   - index: The page, from 0.
  ///   - policy: What to do with a page that already has text.
  /// - Throws: ``OCRError`` naming the file and the page.
  public func recognize(pdf: PDFDocument, page index: Int, policy: PDFTextPolicy = .keep)
    throws(OCRError) -> Page
  {
    defer { pdf.finishReading(page: index) }
    if let page = try pdf.textPage(page: index, policy: policy, options: options) {
      return page
    }
    // The deadline counts from the page's start: its image check and
    // Poppler's text probe (``PDFDocument/info(page:maxPixels:)``) and
    // rendering included.
    let info = try pdf.info(page: index, maxPixels: options.maxPixels)
    let started = pdf.started(page: index)
    try checkDeadline(started, path: pdf.path, page: index)
    let rendering = try pdf.rendering(
      page: index, info: info, dpi: options.dpi, maxPixels: options.maxPixels)
    let image = try pdf.render(page: index, rendering)
    try checkDeadline(started, path: pdf.path, page: index)
    let page = try recognize(
      image, index: index, path: pdf.path,
      rendered: (rendering.dpi, pdf.source(page: index, info: info, rendering: rendering)),
      started: started)
    // `--redo-ocr` on a page with visible text and an invisible layer: the
    // visible text stays as the page has it, so its recognised twin goes.
    guard policy == .redo, info.hasText, try pdf.textKind(page: index) == .both else {
      return page
    }
    return try page.droppingWords(coveredBy: pdf.visibleTextBoxes(page: index))
  }
}

extension PDFImages {
  /// The stream of a PDF page as it was read for recognition: the page's
  /// one image's stored JPEG bytes when the page was that image at its own
  /// resolution (no recompression), else the page rendered again (the
  /// same size and resolution give the same pixels) and compressed
  /// losslessly.
  public static func stream(
    pdfPage index: Int, ofFile path: String, width: Int, height: Int, dpi: Int,
    nativeImage: Bool
  ) throws(OCRError) -> PDFPageImage {
    let pdf = try PDFDocument(data: ImageReader.readBytes(path), path: path)
    return try stream(
      pdfPage: index, of: pdf, width: width, height: height, dpi: dpi, nativeImage: nativeImage)
  }

  /// The same from a PDF already open (a searchable PDF of many pages
  /// opens its input once).
  public static func stream(
    pdfPage index: Int, of pdf: PDFDocument, width: Int, height: Int, dpi: Int,
    nativeImage: Bool
  ) throws(OCRError) -> PDFPageImage {
    guard index >= 0, index < pdf.pageCount else {
      throw .corruptPDFPage(path: pdf.path, page: index)
    }
    if nativeImage,
      let jpeg = try? storedJPEG(pdf, page: index, width: width, height: height)
    {
      return jpeg
    }
    let image = try pdf.render(
      page: index, PDFDocument.Rendering(width: width, height: height, dpi: dpi, nativeImage: false)
    )
    return try stream(of: image, path: pdf.path, format: "PDF")
  }

  /// The page's one image as stored, when it is a JPEG of the page's size.
  static func storedJPEG(_ pdf: PDFDocument, page: Int, width: Int, height: Int)
    throws(OCRError) -> PDFPageImage?
  {
    let path = pdf.path
    var length = 0
    let bytes = pdf.fileBytes.baseAddress.flatMap { base in
      scantext_pdf_page_jpeg(
        base.assumingMemoryBound(to: UInt8.self), pdf.fileBytes.count, Int32(page), Int32(width),
        Int32(height), &length)
    }
    guard let bytes else { return nil }
    defer { free(bytes) }
    // Leptonica takes ownership of the bytes it is given (they become the
    // compressed data, freed with it): give it its own copy, made with its
    // own allocator (it binds its own malloc: see the loader in shims.c).
    guard let copy = scantext_lept_calloc(max(1, length), 1)?.assumingMemoryBound(to: UInt8.self)
    else { return nil }
    copy.update(from: bytes, count: length)
    return try encode(path: path, format: "JPEG") { cid in
      cid = scantext_l_generateJpegDataMem(copy, length, 0)
    }
  }
}

extension LeptonicaImage {
  /// The image turned clockwise by `quarterTurns` × 90°.
  func turned(quarterTurns: Int) -> LeptonicaImage? {
    scantext_pixRotateOrth(pix, Int32(((quarterTurns % 4) + 4) % 4)).map {
      LeptonicaImage(taking: $0)
    }
  }

  /// Whether two images have the same size and the same pixels (compared
  /// at the same depth: 8-bit gray when their depths differ).
  func hasSamePixels(as other: LeptonicaImage) -> Bool {
    guard width == other.width, height == other.height else { return false }
    var a: UnsafeMutablePointer<Pix>? = scantext_pixCopy(nil, pix)
    var b: UnsafeMutablePointer<Pix>? = scantext_pixCopy(nil, other.pix)
    defer {
      scantext_pixDestroy(&a)
      scantext_pixDestroy(&b)
    }
    if scantext_pixGetDepth(pix) != scantext_pixGetDepth(other.pix) {
      var gray = scantext_pixConvertTo8(a, 0)
      scantext_pixDestroy(&a)
      a = gray
      gray = scantext_pixConvertTo8(b, 0)
      scantext_pixDestroy(&b)
      b = gray
    }
    guard let a, let b else { return false }
    let words = Int(scantext_pixGetWpl(a)) * height
    guard words == Int(scantext_pixGetWpl(b)) * height,
      let pa = scantext_pixGetData(a), let pb = scantext_pixGetData(b)
    else { return false }
    // Padding bits past a row's last pixel are not pixels: compare rows.
    let depth = Int(scantext_pixGetDepth(a))
    let bits = width * depth
    let wpl = Int(scantext_pixGetWpl(a))
    for y in 0..<height {
      for w in 0..<wpl {
        let used = min(32, bits - w * 32)
        var mask: UInt32 = used >= 32 ? .max : ~(UInt32.max >> UInt32(used))
        // The low byte of a 32-bit pixel is alpha (unused for a scan).
        if depth == 32 { mask = 0xFFFF_FF00 }
        if pa[y * wpl + w] & mask != pb[y * wpl + w] & mask { return false }
      }
    }
    return true
  }
}
