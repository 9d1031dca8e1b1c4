import Foundation
import ScanFormats
import ScanModel
import ScanOCR

/// Reads inputs into pages, in input order and page order: a document's
/// pages are decoded, a PDF's pages with text read from it, every other
/// page recognised, through a ``PageCache`` when there is one.
///
/// The inputs are read by up to ``jobs`` workers, one engine each, ahead of
/// the pages handed over within a window of twice their number: memory
/// holds the pages in flight, not the document. A PDF or a multi-page
/// TIFF is split into its pages, so its pages are read side by side.
///
/// ```swift
/// let inputs = try Input.files(inFolder: "Scans")
/// let pipeline = Pipeline(cache: .standard)
/// try pipeline.run(inputs, into: DocumentSink(format: .alto, destination: .folder("out")))
/// ```
public struct Pipeline: Sendable {
  /// How pages are recognised: languages, page segmentation, resolution,
  /// preprocessing, limits.
  public var options: RecognitionOptions
  /// The most inputs (or pages of one input) read at once, each with its
  /// own engine.
  public var jobs: Int
  /// Where recognised pages are kept between runs; `nil` for none.
  public var cache: PageCache?
  /// What is done with the pages of a PDF that already have text.
  public var pdfText: PDFTextPolicy
  /// The pages of each input to read (`--pages`); `nil` for every page.
  package var pageSelection: PageSelection?
  /// Whether images are read by Tesseract as they are, for its own TSV
  /// (``Recognizer/readsTesseractTSV``).
  package var readsTesseractTSV = false

  /// A pipeline recognising with `options` on up to `jobs` workers,
  /// through `cache`.
  /// - Parameters:
  ///   - options: How pages are recognised (English, automatic page
  ///     segmentation and ScanText's preprocessing by default).
  ///   - jobs: The most inputs or pages read at once (at least 1).
  ///   - cache: Where recognised pages are kept between runs
  ///     (``PageCache/standard`` is `scantext`'s); `nil` for none.
  ///   - pdfText: What is done with PDF pages that already have text (by
  ///     default they are read from the PDF, not recognised).
  /// - Complexity: O(1): engines start when the first page needs one.
  public init(
    options: RecognitionOptions = RecognitionOptions(), jobs: Int = 1, cache: PageCache? = nil,
    pdfText: PDFTextPolicy = .keep
  ) {
    self.options = options
    self.jobs = max(1, jobs)
    self.cache = cache
    self.pdfText = pdfText
  }

  /// The pipeline `recognizer` is.
  package init(_ recognizer: Recognizer) {
    options = recognizer.options
    jobs = recognizer.jobs
    cache = recognizer.cache.map(PageCache.init(storage:))
    pdfText = recognizer.pdfText
    pageSelection = recognizer.pdfPages
  }

  /// The reader that does the work.
  package var recognizer: Recognizer {
    var recognizer = Recognizer(
      options: options, jobs: jobs, cache: cache?.storage, pdfPages: pageSelection,
      pdfText: pdfText)
    recognizer.readsTesseractTSV = readsTesseractTSV
    return recognizer
  }

  /// A page read, handed over in input and page order.
  public struct PageRecord: Sendable {
    /// The page, in the original image's pixel coordinates.
    public var page: Page
    /// Its number in its input, from 1 (a PDF's page number, a TIFF's
    /// page, a document's page).
    public var number: Int
    /// The input it was read from.
    public var input: Input
  }

  /// What a run did.
  public struct Summary: Sendable {
    /// The pages read and written.
    public var pageCount: Int
    /// The inputs and pages that could not be read, in input order, each
    /// naming its file and the reason; the others were read.
    public var failures: [ServiceError]
  }

  /// Hands the pages of `inputs` to `body`, one at a time in input order
  /// and page order, while the workers read on.
  /// - Parameters:
  ///   - inputs: The inputs (``Input/init(path:maxPixels:)``,
  ///     ``Input/files(inFolder:maxPixels:)``).
  ///   - body: Takes each page; what it throws stops the reading (the
  ///     pages being read are finished and dropped) and is thrown.
  /// - Returns: The inputs and pages that could not be read, in order;
  ///   every other page was handed over.
  /// - Throws: What `body` throws.
  /// - Complexity: Each page is read once (or found in the cache); memory
  ///   holds at most twice ``jobs`` pieces read and not yet handed over.
  @discardableResult
  public func forEachPage(in inputs: [Input], _ body: (PageRecord) throws -> Void) throws
    -> [ServiceError]
  {
    var failures: [ServiceError] = []
    var recognizer = self.recognizer
    recognizer.resolved = inputs
    try recognizer.read(inputs.map(\.path)) { part in
      if case .failure(let error) = part.result.pages {
        failures.append(error)
        return
      }
      for read in (try? part.result.pages.get()) ?? [] {
        try body(PageRecord(page: read.page, number: read.number, input: inputs[part.input]))
      }
      failures += part.result.pageErrors
    }
    return failures
  }

  /// Reads `inputs` and writes their pages into `sink` as they are read,
  /// then finishes its outputs.
  ///
  /// An input that cannot be read is a failure of the summary, and the
  /// others are still written; a single output that would hold no page
  /// because every input failed is not written (the first failure is
  /// thrown).
  /// - Parameters:
  ///   - inputs: The inputs, in the order of the document.
  ///   - sink: Where the pages go.
  /// - Returns: The pages written and the failures.
  /// - Throws: ``ServiceError`` when an output cannot be written (it is
  ///   then left as it was), or the first failure when nothing was written.
  /// - Complexity: As ``forEachPage(in:_:)``, plus each page's writing.
  @discardableResult
  public func run(_ inputs: [Input], into sink: DocumentSink) throws -> Summary {
    var failures: [ServiceError] = []
    let paths = inputs.map(\.path)
    try sink.check(inputs: paths)
    do {
      return try run(paths, into: [sink], failures: &failures, resolved: inputs)
    } catch is BatchFailure {
      throw failures.first ?? ServiceError("no page read")
    }
  }

  /// Reads `paths` into `sinks` (a command's output, and its sidecar) as
  /// ``run(_:into:)`` does.
  /// - Parameters:
  ///   - progress: Called after each piece read with (pieces read, pieces).
  ///   - readingDone: Called once every piece is read, before the outputs
  ///     are finished.
  ///   - observe: Called with each piece in order, before it is written
  ///     (to report its failures as they come).
  ///   - failures: Gets the failures, in order.
  ///   - resolved: The inputs as resolved (``Input``), when the caller
  ///     has them: they are not sniffed, counted or hashed again.
  /// - Throws: ``BatchFailure`` when a single output got no page and
  ///   something failed; ``ServiceError`` when an output cannot be written.
  package func run(
    _ paths: [String], into sinks: [DocumentSink], failures: inout [ServiceError],
    progress: Recognizer.Progress? = nil, readingDone: () -> Void = {},
    observe: (Recognizer.InputPart) -> Void = { _ in }, resolved: [Input]? = nil
  ) throws -> Summary {
    var found: [ServiceError] = []
    defer { failures = found }
    do {
      for sink in sinks { try sink.open(paths: paths, options: options, pdfText: pdfText) }
      var recognizer = self.recognizer
      recognizer.resolved = resolved
      try recognizer.read(paths, progress: progress) { part in
        var pages: [Page] = []
        switch part.result.pages {
        case .success(let read):
          pages = read.map(\.page)
          found += part.result.pageErrors
        case .failure(let error):
          found.append(error)
        }
        observe(part)
        for sink in sinks { try sink.write(part, pages: pages) }
      }
      readingDone()
      if !found.isEmpty, sinks.first?.singleOutputIsEmpty == true { throw BatchFailure() }
      for sink in sinks { try sink.finish() }
    } catch {
      sinks.forEach { $0.abandon() }
      throw error
    }
    return Summary(pageCount: sinks.first?.pageCount ?? 0, failures: found)
  }
}

extension Pipeline {
  /// `ocr`'s run: `paths` read into `output` (and the same pages as plain
  /// text into `sidecar`), every failure and note reported on the output's
  /// standard error as it comes, the progress shown on a terminal.
  ///
  /// Every output is checked before any reading (writable, not an input;
  /// a searchable PDF's inputs can be made one). TSV of images recognised
  /// as they are, without a sidecar, is Tesseract's own
  /// (``writesTesseractTSV(format:paths:)``). Every format is written page by page as pages are
  /// read, through the format's writer: memory holds the pages in flight,
  /// not the document (but for a searchable PDF of PDFs, which qpdf edits
  /// whole: see ``SearchablePDFOutput``).
  /// - Parameters:
  ///   - paths: The inputs, in the order of the document.
  ///   - output: Where the pages go.
  ///   - sidecar: Where their plain text goes as well (`--sidecar`).
  ///   - showProgress: Whether the progress line is shown (not with `-q`).
  ///   - notesKeptText: Whether a PDF's pages read from its text are
  ///     named in a note.
  /// - Throws: ``ServiceError`` when an output cannot be written;
  ///   ``BatchFailure`` when an input failed (each reported), the others
  ///   written.
  package func run(
    _ paths: [String], into output: DocumentSink, sidecar: DocumentSink?, showProgress: Bool,
    notesKeptText: Bool
  ) throws {
    try output.check(inputs: paths)
    // Neither an input nor the output (by another name) is replaced.
    try sidecar?.check(inputs: paths, alsoRefusing: [output.outputPath(forInput: "")])
    if output.format == .searchablePDF { try SearchablePDFOutput.checkInputs(paths) }
    var reading = self
    if sidecar == nil, writesTesseractTSV(format: output.format, paths: paths) {
      // Tesseract reads each image as it is, in the workers; a language
      // missing fails the run here, before any reading.
      do {
        try OCREngine.checkLanguages(options)
        output.tesseractTSV = TesseractRows()
      } catch {
        throw ServiceError.recognitionFailed(error)
      }
      reading.readsTesseractTSV = true
    }
    let io = output.io
    let progress = ProgressLine.forInputs(paths, shown: showProgress, io: io)
    defer { progress?.finish() }
    let reporter = PartReporter(io: io, progress: progress, notesKeptText: notesKeptText)
    var failures: [ServiceError] = []
    _ = try reading.run(
      paths, into: [output] + (sidecar.map { [$0] } ?? []), failures: &failures,
      progress: progress?.show, readingDone: { progress?.finish() }, observe: reporter.report)
    if !failures.isEmpty { throw BatchFailure() }
  }

  /// Whether `ocr` writes Tesseract's own TSV
  /// (``ScanFormats/WriterSettings/tesseractTSV``): TSV of images only (no
  /// document, no PDF, whose pages are rendered or read from their text),
  /// recognised as they are. (TSV rebuilt from the model, as `convert`
  /// writes it, has the same rows and ids, but the model keeps word
  /// confidences to two decimals, leaves out words of only spaces and
  /// grows line boxes to hold their words.)
  package func writesTesseractTSV(format: FileFormat, paths: [String]) -> Bool {
    format == .tsv && options.preprocessing.isEmpty
      && !paths.contains { InputFiles.kind($0) != .image }
  }
}
