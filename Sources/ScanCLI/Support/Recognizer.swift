import Dispatch
import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import Synchronization

/// The result of reading one input: its pages, or why it failed.
struct InputResult: Sendable {
  var path: String
  var pages: Result<[Page], CLIError>
  /// Pages that could not be read while the others were (a corrupt page of
  /// a multi-page TIFF), one message each.
  var pageErrors: [CLIError] = []
  /// The number of each page read, from 1, in the input (a PDF's page
  /// number, a TIFF's page, a document's page), as `--pages` counts.
  var numbers: [Int] = []

  /// The pages read with their numbers, from 1, in the input.
  func numberedPages() throws(CLIError) -> [(number: Int, page: Page)] {
    let pages = try self.pages.get()
    let numbers = self.numbers.count == pages.count ? self.numbers : Array(1..<(pages.count + 1))
    return Array(zip(numbers, pages))
  }
}

/// Reads inputs (ScanText JSON documents or images) into pages, OCRing
/// images on up to `jobs` threads with one engine per thread, and returns
/// the results in input order.
struct Recognizer: Sendable {
  var options: RecognitionOptions
  var jobs: Int = 1
  /// Where recognised pages are kept between runs; `nil` for none.
  var cache: RecognitionCache?
  /// The pages of each input to read (`--pages`, from 1); `nil` for all. A
  /// PDF is rendered, and a multi-page image decoded, only at those pages.
  var pdfPages: PageSelection?
  /// What to do with PDF pages that already have text (`--skip-text`,
  /// `--redo-ocr`, `--force-ocr`; by default they are kept).
  var pdfText = PDFTextPolicy.keep

  /// Called after each input with (inputs done, total inputs).
  typealias Progress = @Sendable (Int, Int) -> Void

  /// One piece of work: an input, or one page of a PDF input.
  private enum Task: Sendable {
    case file(input: Int)
    case pdfPage(input: Int, page: Int)
  }

  /// A PDF input, opened once to count its pages.
  private struct PDFInput: Sendable {
    var data: Data
    var pages: [Int]
    /// The SHA-256 of the file, for the cache keys of its pages.
    var digest: [UInt8]?
  }

  func read(_ paths: [String], progress: Progress? = nil) -> [InputResult] {
    // PDFs are split into their pages, so `--jobs` reads the pages of one
    // PDF side by side; every other input is one piece of work. Each
    // worker opens its own document (Poppler's documents are not shared
    // across threads; its global state is set up under a lock, by
    // `GlobalParamsIniter`, in the Poppler Debian 12 ships, 22.12).
    var tasks: [Task] = []
    var pdfs: [Int: PDFInput] = [:]
    var failed: [Int: InputResult] = [:]
    for (i, path) in paths.enumerated() {
      guard InputFiles.kind(path) == .pdf else {
        tasks.append(.file(input: i))
        continue
      }
      do {
        let data = try InputFiles.read(path)
        let count = try PDFDocument(data: data, path: path).pageCount
        let pages = try pdfPages?.pages(of: count, path: path) ?? Array(0..<count)
        var digest: [UInt8]?
        if cache != nil {
          var hash = SHA256()
          data.withUnsafeBytes { hash.update($0) }
          digest = hash.finalize()
        }
        pdfs[i] = PDFInput(data: data, pages: pages, digest: digest)
        tasks += pages.map { .pdfPage(input: i, page: $0) }
      } catch {
        failed[i] = InputResult(path: path, pages: .failure(CLIError.wrap(error)))
      }
    }
    let outcomes = Mutex<[Int: Result<Page, CLIError>]>([:])
    let results = Mutex<[Int: InputResult]>(failed)
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let workers = max(1, min(jobs, tasks.count))
    let options = self.options
    let cache = self.cache
    let pdfText = self.pdfText
    let pdfInputs = pdfs
    let work = tasks
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      // One engine per worker, created on first need and reused; the PDF
      // it last read stays open for its next page.
      var engine: Result<OCREngine, OCRError>?
      var open: (input: Int, pdf: PDFDocument)?
      while true {
        let t = next.add(1, ordering: .relaxed).oldValue
        guard t < work.count else { break }
        switch work[t] {
        case .file(let i):
          let result = Self.readOne(
            paths[i], options: options, cache: cache, selection: pdfPages, engine: &engine)
          results.withLock { $0[i] = result }
        case .pdfPage(let i, let page):
          guard let input = pdfInputs[i] else { continue }
          let outcome = Self.readPDFPage(
            paths[i], input: input, page: page, reuse: &open, index: i, options: options,
            cache: cache, pdfText: pdfText, engine: &engine)
          outcomes.withLock { $0[t] = outcome }
        }
        let finished = done.add(1, ordering: .relaxed).newValue
        progress?(finished, work.count)
      }
    }
    // Each PDF's pages in order; a page that failed is reported and the
    // others kept, as for a multi-page TIFF.
    let pageOutcomes = outcomes.withLock { $0 }
    var assembled = results.withLock { $0 }
    for (i, input) in pdfs {
      var pages: [Page] = []
      var numbers: [Int] = []
      var errors: [CLIError] = []
      for (t, task) in tasks.enumerated() {
        guard case .pdfPage(i, let number) = task, let outcome = pageOutcomes[t] else { continue }
        switch outcome {
        case .success(let page):
          pages.append(page)
          numbers.append(number + 1)
        case .failure(let error): errors.append(error)
        }
      }
      if pages.isEmpty, let first = errors.first, input.pages.count > 0 {
        assembled[i] = InputResult(path: paths[i], pages: .failure(first), pageErrors: [])
        if errors.count > 1 {
          assembled[i]?.pageErrors = Array(errors.dropFirst())
        }
      } else {
        assembled[i] = InputResult(
          path: paths[i], pages: .success(pages), pageErrors: errors, numbers: numbers)
      }
    }
    return paths.indices.compactMap { assembled[$0] }
  }

  /// Whether the input is read as a PDF (``InputFiles/kind(_:)``).
  static func looksLikePDF(_ path: String) -> Bool {
    InputFiles.kind(path) == .pdf
  }

  private static func readPDFPage(
    _ path: String, input: PDFInput, page: Int, reuse open: inout (input: Int, pdf: PDFDocument)?,
    index: Int, options: RecognitionOptions, cache: RecognitionCache?, pdfText: PDFTextPolicy,
    engine: inout Result<OCREngine, OCRError>?
  ) -> Result<Page, CLIError> {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let key = input.digest.map {
      RecognitionCache.key(
        imageDigest: $0, options: options, extra: "pdf page \(page) text \(pdfText.rawValue)")
    }
    if let cache, let key, let pages = cache.pages(for: key, image: name), pages.count == 1 {
      return .success(pages[0])
    }
    do {
      let pdf: PDFDocument
      if let open, open.input == index {
        pdf = open.pdf
      } else {
        open = nil
        pdf = try PDFDocument(data: input.data, path: path)
        open = (index, pdf)
      }
      // A page read from its text needs no engine (none is created for a
      // PDF whose pages all have text) and is not cached: building it
      // costs less than decoding a cached page (see the README).
      if let read = try pdf.textPage(page: page, policy: pdfText, options: options) {
        return .success(read)
      }
      let loaded = engine ?? Result { () throws(OCRError) in try OCREngine(options: options) }
      engine = loaded
      let e = try loaded.get()
      let result = try e.recognize(pdf: pdf, page: page, policy: pdfText)
      if let cache, let key { cache.store([result], key: key) }
      return .success(result)
    } catch {
      var message = error.description
      if case .upscaledImageTooLarge = error { message += " (raise the limit with --max-pixels)" }
      return .failure(CLIError(message))
    }
  }

  /// Reads a document, or recognises the pages of an image, that
  /// `selection` chooses (every page by default): of a multi-page image only
  /// those are decoded and recognised. Each page is numbered from 1: an
  /// image's by its page in the file, a document's by its place.
  private static func readOne(
    _ path: String, options: RecognitionOptions, cache: RecognitionCache?,
    selection: PageSelection?, engine: inout Result<OCREngine, OCRError>?
  ) -> InputResult {
    if InputFiles.isDocument(path) {
      do {
        let pages = try DocumentFiles.read(path).pages
        let chosen = try selection?.pages(of: pages.count, path: path) ?? Array(pages.indices)
        return InputResult(
          path: path, pages: .success(chosen.map { pages[$0] }), numbers: chosen.map { $0 + 1 })
      } catch {
        return InputResult(path: path, pages: .failure(CLIError.wrap(error)))
      }
    }
    let data: Data
    var chosen: [Int]?
    do {
      data = try InputFiles.read(path)
      if let selection {
        let count = try OCREngine.imagePageCount(data, path: path, maxPixels: options.maxPixels)
        let pages = try selection.pages(of: count, path: path)
        if pages != Array(0..<count) { chosen = pages }
      }
    } catch let error as OCRError {
      return InputResult(path: path, pages: .failure(failure(error)))
    } catch {
      return InputResult(path: path, pages: .failure(CLIError.wrap(error)))
    }
    func result(_ pages: [Page], errors: [CLIError] = []) -> InputResult {
      InputResult(
        path: path, pages: .success(pages), pageErrors: errors, numbers: pages.map { $0.index + 1 })
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let key = cache.map { _ in
      RecognitionCache.key(
        imageData: data, options: options,
        extra: chosen.map { "pages \($0.map(String.init).joined(separator: ","))" } ?? "")
    }
    if let cache, let key, let pages = cache.pages(for: key, image: name) {
      return result(pages)
    }
    let loaded = engine ?? Result { () throws(OCRError) in try OCREngine(options: options) }
    engine = loaded
    switch loaded {
    case .failure(let error):
      return InputResult(path: path, pages: .failure(CLIError(error.description)))
    case .success(let e):
      do {
        let recognised = try e.recognizePages(imageData: data, path: path, pages: chosen)
        // An incomplete file is not cached: its errors must show every time.
        if let cache, let key, recognised.pageErrors.isEmpty {
          cache.store(recognised.pages, key: key)
        }
        return result(
          recognised.pages, errors: recognised.pageErrors.map { CLIError($0.description) })
      } catch {
        return InputResult(path: path, pages: .failure(failure(error)))
      }
    }
  }

  /// The message of a recognition error, with what to do about a limit.
  private static func failure(_ error: OCRError) -> CLIError {
    switch error {
    case .imageTooLarge, .pageTooLarge, .upscaledImageTooLarge:
      return CLIError(error.description + " (raise the limit with --max-pixels)")
    default:
      return CLIError(error.description)
    }
  }
}

extension CLIError {
  static func wrap(_ error: any Error) -> CLIError {
    if let e = error as? CLIError { return e }
    return CLIError(String(describing: error))
  }
}

/// Decodes ScanText JSON documents with errors that name the file.
enum ModelFile {
  /// Decodes the bytes of `path`, already read and checked by
  /// ``DocumentFiles/read(_:)``.
  static func decode(_ data: Data, path: String) throws -> Document {
    let value: JSONValue
    do {
      value = try data.withUnsafeBytes { raw throws(JSONParseError) in
        try JSONValue(parsing: raw.bindMemory(to: UInt8.self))
      }
    } catch {
      throw CLIError("\(path): not a ScanText document: \(error)")
    }
    do {
      return try DocumentJSON.decode(value)
    } catch {
      throw CLIError("\(path): not a ScanText document: \(error)")
    }
  }
}

/// Loads the one model a query command works on.
enum ModelLoader {
  /// The document in `path` (a document, an image or a PDF to recognise, or
  /// `-` for standard input): the pages `--pages` selects, every page by
  /// default.
  static func document(_ path: String, ocr: OCROptions) throws -> Document {
    Document(pages: try numberedPages(path, ocr: ocr).map(\.page))
  }

  /// The pages of the document in `path` that `--pages` selects (every page
  /// by default), in document order, each with its number from 1.
  /// - Throws: ``CLIError`` when the model cannot be read, one of its pages
  ///   cannot (queries number pages as the file does: a missing page would
  ///   shift them), or a page named is past its end.
  static func numberedPages(_ path: String, ocr: OCROptions) throws -> [(
    number: Int, page: Page
  )] {
    let result = ocr.recognizer().read([path])[0]
    if let error = result.pageErrors.first { throw error }
    return try result.numberedPages()
  }
}
