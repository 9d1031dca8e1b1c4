import Dispatch
import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import Synchronization

/// A page read, with its number in its input, from 1 (a PDF's page
/// number, a TIFF's page, a document's page), as `--pages` counts.
package struct NumberedPage: Sendable {
  package var page: Page
  package var number: Int
  /// Tesseract's own TSV rows of the page's image, read as it is, when
  /// the reading asked for them (``Recognizer/readsTesseractTSV``),
  /// numbered as the document's first page.
  package var tesseractTSV: String?
}

/// The result of reading one input: its pages, or why it failed.
package struct InputResult: Sendable {
  package var path: String
  /// The pages read, in order, each with its number.
  package var pages: Result<[NumberedPage], ServiceError>
  /// Pages that could not be read while the others were (a corrupt page of
  /// a multi-page TIFF), one message each.
  package var pageErrors: [ServiceError] = []
  /// The time the worker took to read this result (seconds).
  package var seconds = 0.0

  /// The pages read with their numbers, from 1, in the input.
  package func numberedPages() throws(ServiceError) -> [(number: Int, page: Page)] {
    try pages.get().map { ($0.number, $0.page) }
  }
}

/// Reads inputs (ScanText JSON documents or images) into pages, OCRing
/// images on up to `jobs` threads with one engine per thread, and returns
/// the results in input order.
package struct Recognizer: Sendable {
  package var options: RecognitionOptions
  package var jobs: Int = 1
  /// Where recognised pages are kept between runs; `nil` for none.
  package var cache: RecognitionCache?
  /// The pages of each input to read (`--pages`, from 1); `nil` for all. A
  /// PDF is rendered, and a multi-page image decoded, only at those pages.
  package var pdfPages: PageSelection?
  /// What to do with PDF pages that already have text (`--skip-text`,
  /// `--redo-ocr`, `--force-ocr`; by default they are kept).
  package var pdfText = PDFTextPolicy.keep
  /// Whether images are read by Tesseract as they are, for Tesseract's
  /// own TSV: each page chosen is decoded once (an image that cannot be
  /// is a failure, as it would be of any reading) and read by the
  /// worker's own reader, and handed over as a page with the image's
  /// size and no text, with Tesseract's rows of it
  /// (``NumberedPage/tesseractTSV``); an image is then read whole, not
  /// split into its pages, and not through the cache.
  package var readsTesseractTSV = false
  /// The inputs as the caller resolved them (``Input``), one per path
  /// read, in order: what each is, its page count and its digest are
  /// taken from them, not found again by reading the file; `nil` when
  /// the paths are all there is.
  package var resolved: [Input]?

  /// Reads with `options` on up to `jobs` threads, through `cache`, the
  /// pages `pdfPages` selects, PDF pages with text as `pdfText` says.
  package init(
    options: RecognitionOptions, jobs: Int = 1, cache: RecognitionCache? = nil,
    pdfPages: PageSelection? = nil, pdfText: PDFTextPolicy = .keep
  ) {
    self.options = options
    self.jobs = jobs
    self.cache = cache
    self.pdfPages = pdfPages
    self.pdfText = pdfText
  }

  /// Called after each piece of work with (pieces done, total pieces): an
  /// input, or a page of a PDF or multi-page TIFF.
  package typealias Progress = @Sendable (Int, Int) -> Void

  /// One piece of work: an input, or one page of a PDF or multi-page TIFF.
  private enum Task: Sendable {
    case file(input: Int)
    case pdfPage(input: Int, page: Int)
    case imagePage(input: Int, page: Int)
    /// Known without work (a PDF that cannot be opened, no page chosen).
    /// Indirect: a task is planned for every page of a long PDF, and an
    /// `InputResult` inline would make each 136 bytes instead of 40 (4.5 MB
    /// of the plan at 20,000 pages, issue 45 point 2).
    indirect case ready(InputResult)
  }

  /// A piece of work and where its result goes.
  private struct PlannedTask: Sendable {
    var task: Task
    var input: Int
    /// Whether it is the input's last piece.
    var isLast: Bool
  }

  /// A PDF or multi-page TIFF read page by page. Its bytes are not held
  /// between pages: a TIFF's are read by each worker when it first needs
  /// them, a PDF's by the first worker that needs them and shared with the
  /// others while any reads it (`SharedPDFFiles`); a stream's bytes, read
  /// once, are kept by ``InputFiles``.
  private struct SplitInput: Sendable {
    /// The SHA-256 of the file, for the cache keys of its pages.
    var digest: [UInt8]?
  }

  /// Reads `paths` and returns each input's result, in input order (see
  /// ``read(_:progress:deliver:)``, which hands them over piece by piece).
  package func read(_ paths: [String], progress: Progress? = nil) -> [InputResult] {
    var results: [InputResult] = paths.map { InputResult(path: $0, pages: .success([])) }
    var pages: [[NumberedPage]] = paths.map { _ in [] }
    var failure: [ServiceError?] = paths.map { _ in nil }
    read(paths, progress: progress) { part in
      let i = part.input
      switch part.result.pages {
      case .success(let read): pages[i] += read
      case .failure(let error): failure[i] = failure[i] ?? error
      }
      results[i].pageErrors += part.result.pageErrors
    }
    for i in paths.indices {
      if let error = failure[i] {
        results[i].pages = .failure(error)
      } else if pages[i].isEmpty, !results[i].pageErrors.isEmpty {
        // Every page failed: the input failed, with the first page's error.
        results[i].pages = .failure(results[i].pageErrors.removeFirst())
      } else {
        results[i].pages = .success(pages[i])
      }
    }
    return results
  }

  /// A piece of an input's result: the whole input (an image, a document,
  /// an input that failed), or one page of a PDF or multi-page TIFF.
  package struct InputPart: Sendable {
    /// The input's place in the paths.
    package var input: Int
    /// The piece: its pages (none or one for a page), their numbers and
    /// errors (a page that failed is a page error).
    package var result: InputResult
    /// Whether it is the input's last piece.
    package var isLast: Bool
  }

  /// Reads `paths` (ScanText documents, images, PDFs) and hands their
  /// results to `deliver`, piece by piece in input order and page order,
  /// on the calling thread, while up to ``jobs`` workers read on.
  ///
  /// Memory holds only the pages in flight: a worker starts a piece only
  /// while fewer than twice the workers' number of pieces are read and not
  /// yet delivered, so a document of any length is written page by page
  /// (a slow page holds the others back rather than letting them pile up).
  ///
  /// - Parameter deliver: Takes each piece; when it throws, no further
  ///   piece is started, the pieces being read are finished and dropped,
  ///   and the error is thrown.
  package func read(
    _ paths: [String], progress: Progress? = nil, deliver: (InputPart) throws -> Void
  ) rethrows {
    let (work, split) = plan(paths)
    let workers = max(1, min(jobs, work.count))
    let flow = PieceFlow(count: work.count, window: 2 * workers)
    let options = {
      var options = self.options
      // The two kinds of parallelism share the cores: a page is read in
      // parts only on the cores no other worker holds (`--jobs 2` on two
      // cores reads two pages whole at once; one page has both cores).
      options.pageThreads = min(
        options.pageThreads, max(1, ProcessorCores.available / workers))
      return options
    }()
    let cache = self.cache
    let pdfText = self.pdfText
    let selection = self.pdfPages
    let readsTesseractTSV = self.readsTesseractTSV
    let resolved = self.resolved?.count == paths.count ? self.resolved : nil
    let files = SharedPDFFiles()
    let finished = DispatchGroup()
    finished.enter()
    DispatchQueue.global().async {
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        // One engine per worker, created on first need and reused; the PDF
        // or image it last read stays open for its next page.
        var worker = Worker(
          options: options, cache: readsTesseractTSV ? nil : cache, pdfText: pdfText,
          selection: selection, open: OpenInput(files: files),
          readsTesseractTSV: readsTesseractTSV)
        while let t = flow.take() {
          let planned = work[t]
          var result: InputResult
          let started = ContinuousClock.now
          switch planned.task {
          case .ready(let ready):
            result = ready
          case .file(let i):
            result = worker.readOne(paths[i], digest: resolved?[i].digestBytes)
          case .pdfPage(let i, let page):
            result = worker.readPDFPage(paths[i], digest: split[i]?.digest, page: page, index: i)
          case .imagePage(let i, let page):
            result = worker.readImagePage(paths[i], digest: split[i]?.digest, page: page, index: i)
          }
          let took = ContinuousClock.now - started
          result.seconds =
            Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
          let done = flow.finish(
            t, InputPart(input: planned.input, result: result, isLast: planned.isLast))
          progress?(done, work.count)
        }
      }
      finished.leave()
    }
    defer { finished.wait() }
    do {
      while let part = flow.next() { try deliver(part) }
    } catch {
      flow.cancel()
      throw error
    }
  }

  /// The pieces of work, in input order, and the inputs read page by page.
  private func plan(_ paths: [String]) -> ([PlannedTask], [Int: SplitInput]) {
    // PDFs and multi-page TIFFs are split into their pages, so `--jobs`
    // reads the pages of one file side by side and each is delivered as
    // soon as it is read; every other input is one piece of work. Each
    // worker opens its own document (Poppler's documents are not shared
    // across threads; its global state is set up under a lock, by
    // `GlobalParamsIniter`, in the Poppler Debian 12 ships, 22.12); a
    // PDF's bytes and qpdf scanner are the workers' one `PDFFile`.
    var work: [PlannedTask] = []
    var split: [Int: SplitInput] = [:]
    func whole(_ i: Int, _ task: Task) {
      work.append(PlannedTask(task: task, input: i, isLast: true))
    }
    let resolved = self.resolved?.count == paths.count ? self.resolved : nil
    for (i, path) in paths.enumerated() {
      let known = resolved?[i]
      let kind = known?.kind ?? InputFiles.kind(path)
      let isTIFF = known.map { $0.format == "tiff" } ?? InputFiles.isTIFF(path)
      guard kind == .pdf || (kind == .image && isTIFF && !readsTesseractTSV) else {
        whole(i, .file(input: i))
        continue
      }
      let pages: [Int]
      let digest: () -> [UInt8]
      do {
        let count: Int
        if let known {
          count = known.pageCount
          digest = { known.digestBytes }
        } else {
          let data = try InputFiles.read(path)
          count = try Input.pageCount(
            of: data, kind: kind == .pdf ? .pdf : .image, path: path,
            maxPixels: options.maxPixels)
          digest = { Input.digest(of: data) }
        }
        pages = try pdfPages?.pages(of: count, path: path) ?? Array(0..<count)
        if kind == .image && count < 2 {
          whole(i, .file(input: i))
          continue
        }
      } catch {
        // A TIFF that cannot be read is reported by its reading, as any image.
        if kind == .image {
          whole(i, .file(input: i))
        } else {
          whole(i, .ready(InputResult(path: path, pages: .failure(ServiceError.wrap(error)))))
        }
        continue
      }
      guard !pages.isEmpty else {
        whole(i, .ready(InputResult(path: path, pages: .success([]))))
        continue
      }
      split[i] = SplitInput(digest: cache == nil ? nil : digest())
      // A long PDF's pages reserved at once: doubling would leave up to
      // twice its plan (and copies of it) behind.
      let needed = work.count + pages.count
      if needed > work.capacity { work.reserveCapacity(max(needed, 2 * work.capacity)) }
      for (n, page) in pages.enumerated() {
        work.append(
          PlannedTask(
            task: kind == .pdf ? .pdfPage(input: i, page: page) : .imagePage(input: i, page: page),
            input: i, isLast: n == pages.count - 1))
      }
    }
    return (work, split)
  }

  /// The file a worker has open: the PDF it last read a page of, or the
  /// bytes of the image.
  fileprivate struct OpenInput {
    var pdf: (input: Int, document: PDFDocument)?
    var image: (input: Int, data: Data)?
    /// The PDF files the reading's workers have open, shared by them.
    var files: SharedPDFFiles?
  }

  /// What a worker holds between pieces (its engine, created on first
  /// need, and the input it has open), and the one way a piece is read:
  /// through the cache (``throughCache(_:image:count:read:)``), the engine
  /// started when a page needs it (``startedEngine()``).
  fileprivate struct Worker {
    let options: RecognitionOptions
    let cache: RecognitionCache?
    let pdfText: PDFTextPolicy
    let selection: PageSelection?
    var engine: Result<OCREngine, OCRError>?
    /// The worker's reader of Tesseract's own TSV, made at its first use.
    var tsvReader: Result<TesseractTSVWriter, OCRError>?
    var open: OpenInput
    /// Whether images are left unrecognised (``Recognizer/readsTesseractTSV``).
    var readsTesseractTSV = false

    /// The worker's engine, started at its first call and reused.
    mutating func startedEngine() throws(OCRError) -> OCREngine {
      let loaded = engine ?? Result { () throws(OCRError) in try OCREngine(options: options) }
      engine = loaded
      return try loaded.get()
    }

    /// The cache's key of an input whose bytes have the SHA-256 `digest`,
    /// `extra` naming the pages read; `nil` without a cache.
    func key(_ digest: @autoclosure () -> [UInt8]?, extra: String) -> RecognitionCache.Key? {
      guard cache != nil, let digest = digest() else { return nil }
      return RecognitionCache.key(imageDigest: digest, options: options, extra: extra)
    }

    /// The pages of a piece: those the cache holds under `key` (`count` of
    /// them, when given), else what `read` gives, stored under `key` when
    /// it says so and no page failed (an error must show every time).
    /// - Parameters:
    ///   - key: The piece's key; `nil` reads without the cache.
    ///   - image: The input's file name, which cached pages are given.
    ///   - read: Reads the piece: its pages, its pages' errors, and whether
    ///     they are stored.
    mutating func throughCache(
      _ key: RecognitionCache.Key?, image: String, count: Int? = nil,
      read: (inout Worker) throws -> (pages: [Page], errors: [ServiceError], stores: Bool)
    ) throws -> (pages: [Page], errors: [ServiceError]) {
      if let cache, let key, let hit = cache.pages(for: key, image: image),
        count == nil || hit.count == count
      {
        return (hit, [])
      }
      let read = try read(&self)
      if let cache, let key, read.stores, read.errors.isEmpty,
        count == nil || read.pages.count == count
      {
        cache.store(read.pages, key: key)
      }
      return (read.pages, read.errors)
    }

    /// Page `page` (from 0) of the PDF input `index`, read from its text or
    /// recognised; a page that fails is a page error.
    mutating func readPDFPage(_ path: String, digest: [UInt8]?, page: Int, index: Int)
      -> InputResult
    {
      do {
        let key = key(digest, extra: "pdf page \(page) text \(pdfText.rawValue)")
        let read = try throughCache(key, image: Self.fileName(path), count: 1) { worker in
          let pdf = try worker.pdf(path, index: index)
          // A page read from its text needs no engine (none is created for
          // a PDF whose pages all have text) and is not cached: building it
          // costs less than decoding a cached page (see the README).
          if let read = try pdf.textPage(
            page: page, policy: worker.pdfText, options: worker.options)
          {
            return ([read], [], false)
          }
          let engine = try worker.startedEngine()
          return ([try engine.recognize(pdf: pdf, page: page, policy: worker.pdfText)], [], true)
        }
        return InputResult(
          path: path, pages: .success(read.pages.map { NumberedPage(page: $0, number: page + 1) }))
      } catch {
        return InputResult(path: path, pages: .success([]), pageErrors: [ServiceError.wrap(error)])
      }
    }

    /// Page `page` (from 0) of the multi-page image input `index`,
    /// recognised; a page that fails is a page error.
    mutating func readImagePage(_ path: String, digest: [UInt8]?, page: Int, index: Int)
      -> InputResult
    {
      do {
        let read = try throughCache(
          key(digest, extra: "pages \(page)"), image: Self.fileName(path), count: 1
        ) { worker in
          let data = try worker.imageData(path, index: index)
          let recognised = try worker.startedEngine().recognizePages(
            imageData: data, path: path, pages: [page])
          return (recognised.pages, recognised.pageErrors.map(ServiceError.recognitionFailed), true)
        }
        return InputResult(
          path: path, pages: .success(numbered(read.pages)), pageErrors: read.errors)
      } catch {
        return InputResult(path: path, pages: .success([]), pageErrors: [ServiceError.wrap(error)])
      }
    }

    /// Reads a document, or recognises the pages of an image, that
    /// ``selection`` chooses (every page by default): of a multi-page image
    /// only those are decoded and recognised. Each page is numbered from 1:
    /// an image's by its page in the file, a document's by its place.
    /// - Parameters:
    ///   - path: The input.
    ///   - digest: The SHA-256 of its bytes when known (``Input``); found
    ///     again from them when needed otherwise.
    mutating func readOne(_ path: String, digest: [UInt8]? = nil) -> InputResult {
      do {
        if InputFiles.isDocument(path) {
          // Only the pages chosen are decoded (a compact model's or a JSON
          // file's others are skipped).
          let document = try DocumentFiles.open(path, maxPagesInMemory: 1)
          let count = document.pageCount
          let chosen = try selection?.pages(of: count, path: path) ?? Array(0..<count)
          let pages = try chosen.map {
            NumberedPage(page: try DocumentFiles.page($0, of: document, path: path), number: $0 + 1)
          }
          return InputResult(path: path, pages: .success(pages))
        }
        let data = try InputFiles.read(path)
        if readsTesseractTSV { return try tesseractTSV(data, path: path) }
        var chosen: [Int]?
        if let selection {
          let count = try OCREngine.imagePageCount(data, path: path, maxPixels: options.maxPixels)
          let pages = try selection.pages(of: count, path: path)
          if pages != Array(0..<count) { chosen = pages }
        }
        let extra = chosen.map { "pages \($0.map(String.init).joined(separator: ","))" } ?? ""
        let read = try throughCache(
          key(digest ?? Input.digest(of: data), extra: extra), image: Self.fileName(path)
        ) { worker in
          let recognised = try worker.startedEngine().recognizePages(
            imageData: data, path: path, pages: chosen)
          return (recognised.pages, recognised.pageErrors.map(ServiceError.recognitionFailed), true)
        }
        return InputResult(
          path: path, pages: .success(numbered(read.pages)), pageErrors: read.errors)
      } catch {
        return InputResult(path: path, pages: .failure(ServiceError.wrap(error)))
      }
    }

    /// The pages of an image that ``selection`` chooses, each decoded once
    /// and read by Tesseract as it is, with the worker's own reader:
    /// handed over as a page with the image's size and no text, and
    /// Tesseract's rows of it.
    private mutating func tesseractTSV(_ data: Data, path: String) throws -> InputResult {
      let options = self.options
      let chosen = try selection.map {
        try $0.pages(
          of: OCREngine.imagePageCount(data, path: path, maxPixels: options.maxPixels), path: path)
      }
      let reader =
        tsvReader ?? Result { () throws(OCRError) in try TesseractTSVWriter(options: options) }
      tsvReader = reader
      let pages = try reader.get().pages(imageData: data, path: path, pages: chosen).map {
        NumberedPage(
          page: Page(index: $0.index, width: $0.width, height: $0.height, blocks: []),
          number: $0.index + 1, tesseractTSV: $0.rows)
      }
      return InputResult(path: path, pages: .success(pages))
    }

    /// Pages recognised from an image, each numbered by its page in the file.
    private func numbered(_ pages: [Page]) -> [NumberedPage] {
      pages.map { NumberedPage(page: $0, number: $0.index + 1) }
    }

    /// The PDF input `index`: the one open, else opened now (its file
    /// shared with the other workers).
    private mutating func pdf(_ path: String, index: Int) throws -> PDFDocument {
      if let reused = open.pdf, reused.input == index { return reused.document }
      open.pdf = nil
      let file =
        try open.files?.file(input: index, path: path)
        ?? InputFiles.readPDF(path)
      let pdf = try PDFDocument(file: file)
      open.pdf = (index, pdf)
      return pdf
    }

    /// The bytes of the image input `index`: those held, else read now.
    private mutating func imageData(_ path: String, index: Int) throws -> Data {
      if let reused = open.image, reused.input == index { return reused.data }
      open.image = nil
      let data = try InputFiles.read(path)
      open.image = (index, data)
      return data
    }

    /// The file name cached pages are given.
    private static func fileName(_ path: String) -> String {
      URL(fileURLWithPath: path).lastPathComponent
    }
  }
}
extension Recognizer {
  /// The document in `path` (a document, an image or a PDF to recognise, or
  /// `-` for standard input): the pages ``pdfPages`` selects, every page by
  /// default.
  package func document(_ path: String) throws -> Document {
    Document(pages: try numberedPages(path).map(\.page))
  }

  /// The pages of the document in `path` that ``pdfPages`` selects (every
  /// page by default), in document order, each with its number from 1.
  /// - Throws: ``ServiceError`` when the model cannot be read, one of its
  ///   pages cannot (queries number pages as the file does: a missing page
  ///   would shift them), or a page named is past its end.
  package func numberedPages(_ path: String) throws -> [(number: Int, page: Page)] {
    let result = read([path])[0]
    if let error = result.pageErrors.first { throw error }
    return try result.numberedPages()
  }
}

extension Recognizer {
  /// Hands the pages of the document in `path` (a document, an image or a
  /// PDF to recognise, or `-` for standard input) that ``pdfPages``
  /// selects to `body`, one at a time in document order, each with its
  /// number from 1 and whether the document gives several pages.
  ///
  /// Memory holds a bounded number of pages whatever the document's
  /// length: a compact model or ScanText JSON file is decoded a page at a
  /// time (``ScanFormats/PagedDocument``), a PDF or multi-page TIFF read
  /// as ``read(_:progress:deliver:)`` reads it. To know whether there are
  /// several, each page is handed over once the next one is read (or the
  /// document has ended).
  /// - Parameters:
  ///   - path: The document.
  ///   - total: Called before the first page with the number of pages
  ///     selected, when known without reading them (a document's).
  ///   - body: Takes each page; what it throws stops the reading and is
  ///     thrown.
  /// - Throws: ``ServiceError`` when the model or one of its pages cannot
  ///   be read (after the pages before it were handed over), or a page
  ///   named is past its end; what `body` throws.
  package func eachPage(
    _ path: String, total: ((Int) -> Void)? = nil,
    _ body: (_ number: Int, _ page: Page, _ several: Bool) throws -> Void
  ) throws {
    var held: (number: Int, page: Page)?
    var count = 0
    func take(_ number: Int, _ page: Page) throws {
      count += 1
      if let before = held {
        try body(before.number, before.page, true)
        PageTraffic.pageDone()
      }
      held = (number, page)
    }
    if InputFiles.isDocument(path)
      && (!InputFiles.isStream(path) || InputFiles.isStandardInput(path))
    {
      // Standard input is read from its spool (``InputFiles``).
      let document = try DocumentFiles.open(path, maxPagesInMemory: 1)
      let chosen =
        try pdfPages?.pages(of: document.pageCount, path: path) ?? Array(0..<document.pageCount)
      total?(chosen.count)
      for n in chosen { try take(n + 1, try DocumentFiles.page(n, of: document, path: path)) }
    } else {
      try read([path]) { part in
        if let error = part.result.pageErrors.first { throw error }
        for (number, page) in try part.result.numberedPages() { try take(number, page) }
      }
    }
    if let last = held {
      try body(last.number, last.page, count > 1)
      PageTraffic.pageDone()
    }
  }

  /// The PDF in `path` opened for reading a page at a time: each page is
  /// read from its text or recognised (as ``read(_:progress:deliver:)``
  /// would, through ``cache``) when first asked for, and no other page is
  /// read for it (``pdfPages`` is not applied).
  /// - Parameters:
  ///   - path: The PDF file.
  ///   - maxPagesInMemory: The most pages kept
  ///     (``ScanFormats/PagedDocument/defaultMaxPagesInMemory`` when
  ///     `nil`).
  /// - Returns: The document; its pages throw ``ServiceError``.
  /// - Throws: ``ServiceError`` when the file cannot be read or is not a
  ///   PDF Poppler opens.
  /// - Complexity: Opening reads the file (and hashes it when there is a
  ///   cache); a page costs its own reading alone.
  package func openPDF(_ path: String, maxPagesInMemory: Int? = nil) throws -> PagedDocument {
    let data = try InputFiles.read(path)
    let pdf: PDFDocument
    do {
      pdf = try PDFDocument(data: data, path: path)
    } catch {
      throw ServiceError.recognitionFailed(error)
    }
    let digest = cache == nil ? nil : Input.digest(of: data)
    let reader = PDFPageReader(
      path: path, digest: digest, pdf: pdf, options: options, cache: cache, pdfText: pdfText)
    return PagedDocument(pageCount: pdf.pageCount, maxPagesInMemory: maxPagesInMemory) {
      try reader.page($0)
    }
  }

  /// The pages of one PDF read on demand, by one engine, one at a time.
  private final class PDFPageReader: Sendable {
    private let path: String
    private let digest: [UInt8]?
    private let worker: Mutex<Worker>

    init(
      path: String, digest: [UInt8]?, pdf: sending PDFDocument, options: RecognitionOptions,
      cache: RecognitionCache?, pdfText: PDFTextPolicy
    ) {
      self.path = path
      self.digest = digest
      worker = Mutex(
        Worker(
          options: options, cache: cache, pdfText: pdfText, selection: nil,
          open: OpenInput(pdf: (0, pdf))))
    }

    /// Page `index` (from 0), read or recognised now.
    func page(_ index: Int) throws(ServiceError) -> Page {
      let result = worker.withLock { worker in
        worker.readPDFPage(path, digest: digest, page: index, index: 0)
      }
      if let error = result.pageErrors.first { throw error }
      guard let page = try result.pages.get().first?.page else {
        throw ServiceError.inputUnreadable(path: path, reason: "page \(index + 1) gave no page")
      }
      return page
    }
  }
}

/// The PDF files a reading's workers have open, one per input, shared by
/// the workers reading its pages: the file is read once and its bytes and
/// qpdf scanner are held once (``ScanOCR/PDFFile``), however many workers
/// read it. A file is held while a worker's document holds it, no longer:
/// a batch of PDFs holds only those being read.
fileprivate final class SharedPDFFiles: Sendable {
  /// Each input's file, while a document holds it.
  private let files = Mutex<[Int: WeakFile]>([:])

  private struct WeakFile {
    weak var file: PDFFile?
  }

  init() {}

  /// Input `input`'s file: the one a worker has open, else read now (under
  /// the lock: a second worker asking for it waits for it rather than
  /// reading it again).
  /// - Parameters:
  ///   - input: The input's place in the reading.
  ///   - path: The file.
  /// - Throws: ``ServiceError`` when the file cannot be read.
  /// - Complexity: O(*n*) in the file's bytes when it is read, else O(*f*)
  ///   in the files known (those no longer held are forgotten).
  func file(input: Int, path: String) throws -> PDFFile {
    try files.withLock { files throws -> PDFFile in
      if let file = files[input]?.file { return file }
      files = files.filter { $0.value.file != nil }
      let file = try InputFiles.readPDF(path)
      files[input] = WeakFile(file: file)
      return file
    }
  }
}

/// The pieces of a reading between its workers and the thread that
/// delivers them: which piece a worker takes next, the pieces read and not
/// yet delivered, and the window that bounds them.
///
/// The state is a `Mutex` (checked by the compiler); `condition` is held
/// around every change and every wait, so a thread that finds nothing to do
/// sleeps in `wait()` and the change that gives it work wakes it (a change
/// cannot fall between its look at the state and its sleep).
private final class PieceFlow: Sendable {
  private struct State {
    var nextPiece = 0
    var delivered = 0
    var read = 0
    var waiting: [Int: Recognizer.InputPart] = [:]
    var cancelled = false
  }
  private let condition = NSCondition()
  private let state = Mutex(State())
  private let count: Int
  private let window: Int

  /// - Parameters:
  ///   - count: The number of pieces.
  ///   - window: The most pieces taken and not yet delivered.
  package init(count: Int, window: Int) {
    self.count = count
    self.window = max(1, window)
  }

  /// Runs `body` on the state with `condition` held, waiting while it
  /// returns `nil`; wakes the other threads when it changed something.
  private func whenReady<T>(_ body: (inout State) -> T?) -> T {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result = state.withLock({ body(&$0) }) {
        condition.broadcast()
        return result
      }
      condition.wait()
    }
  }

  /// The next piece for a worker; `nil` when there is none left or the
  /// reading was cancelled. Waits while the window is full.
  package func take() -> Int? {
    let count = self.count
    let window = self.window
    return whenReady { s -> Int?? in
      if s.cancelled || s.nextPiece >= count { return .some(nil) }
      guard s.nextPiece < s.delivered + window else { return nil }
      s.nextPiece += 1
      return .some(s.nextPiece - 1)
    }
  }

  /// Records a piece read; returns the number read so far.
  package func finish(_ piece: Int, _ part: Recognizer.InputPart) -> Int {
    whenReady { s in
      if !s.cancelled { s.waiting[piece] = part }
      s.read += 1
      return s.read
    }
  }

  /// The next piece in order, once read; `nil` after the last.
  package func next() -> Recognizer.InputPart? {
    let count = self.count
    return whenReady { s -> Recognizer.InputPart?? in
      guard s.delivered < count else { return .some(nil) }
      guard let part = s.waiting.removeValue(forKey: s.delivered) else { return nil }
      s.delivered += 1
      return .some(part)
    }
  }

  /// Starts no further piece and drops those read.
  package func cancel() {
    whenReady { s in
      s.cancelled = true
      s.waiting.removeAll()
      return ()
    }
  }
}
