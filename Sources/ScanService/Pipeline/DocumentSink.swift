import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// Where a ``Pipeline`` writes the pages it reads: one document in one
/// format, to a file, to standard output, or one file per input in a
/// folder.
///
/// The sink opens, finishes, abandons and names its outputs, the same way
/// for every format of the registry (``ScanFormats/FileFormat``):
/// - A regular file is written to a temporary file beside it and renamed
///   over it only once complete, so a failure never leaves a partial or
///   clobbered file; a FIFO or a character device is written into; a
///   directory, a socket or one of the inputs is refused.
/// - Pages are written as they are read (memory holds a page at a time,
///   whatever the document's length); nothing reaches a file before its
///   first page.
/// - With ``Destination/folder(_:)``, each input has its own output,
///   opened at its first page and finished at its last; an input with no
///   page read leaves no file.
///
/// A sink is used for one run.
public final class DocumentSink {
  /// Where the outputs go.
  public enum Destination: Sendable, Hashable {
    /// Standard output: every page of every input, in order.
    case standardOutput
    /// One file (or FIFO) holding every page of every input, in order.
    case file(String)
    /// One output per input in this folder (made when missing), named
    /// after the input with the format's ending: `scans/p7.tif` gives
    /// `FOLDER/p7.alto.xml` for ALTO.
    case folder(String)
  }

  /// The outputs' format.
  public let format: FileFormat
  /// Where the outputs go.
  public let destination: Destination
  /// The writer's settings (the generator recorded, the searchable PDF's
  /// font and tags); ScanText's own, from the pipeline's tessdata folder,
  /// when `nil`.
  public var settings: WriterSettings?

  /// The standard streams written to (`-`, warnings).
  package var io: CommandIO = .standard
  /// The settings for the output at a path (a command's own, which print
  /// its warnings); ``settings`` when `nil`.
  package var settingsForPath: ((String) -> WriterSettings)?
  /// Whether the pages carry their page images and running heads and
  /// feet (`false` for `--sidecar`'s plain text, which needs neither).
  package var writesPageImages = true
  /// The page images of a document written by ``writeDocument(_:)``
  /// (`html`'s pictures, `convert`'s page files); none when `nil`.
  package var pageImages: (any PageImageSource)?
  /// How a document written by ``writeDocument(_:)`` tells its running
  /// heads and feet by repetition (``DocumentStream``); not at all when
  /// `nil`.
  package var runningFurniture: PageLayoutOrder?

  /// Tesseract's own TSV rows of the pages read
  /// (``ScanFormats/WriterSettings/tesseractTSV``), set by the pipeline
  /// when Tesseract reads the images as they are; TSV from the model when
  /// `nil`.
  package var tesseractTSV: TesseractRows?

  /// The inputs of the run, once opened.
  private var paths: [String] = []
  private var options = RecognitionOptions()
  private var pdfText = PDFTextPolicy.keep
  /// The one output of ``Destination/standardOutput`` and
  /// ``Destination/file(_:)``.
  private var single: DocumentStream?
  /// The output of the input being written, for ``Destination/folder(_:)``.
  private var current: (input: Int, stream: DocumentStream)?
  /// The pages written, to every output.
  public private(set) var pageCount = 0

  /// A sink writing `format` to `destination`.
  /// - Parameters:
  ///   - format: The format, a row of the registry: ``ScanFormats/FileFormat/alto``,
  ///     `FileFormat(.json)`, `FileFormat.named("hocr")`.
  ///   - destination: Where the outputs go.
  /// - Complexity: O(1): nothing is opened before the run.
  public init(format: FileFormat, destination: Destination) {
    self.format = format
    self.destination = destination
  }

  /// The output the pages of `input` go to: `-` for standard output, the
  /// file, or the input's own file in the folder.
  /// - Parameter input: The input's path as given.
  /// - Complexity: O(*n*) in the paths' lengths.
  public func outputPath(forInput input: String) -> String {
    switch destination {
    case .standardOutput: "-"
    case .file(let path): path
    case .folder(let folder):
      OutputFolder.outputPath(in: folder, forInput: input, ending: format.outputEnding)
    }
  }

  /// Fails early, before any reading, when an output cannot be written or
  /// would replace one of `inputs`; makes the folder of
  /// ``Destination/folder(_:)`` when it is missing.
  /// - Throws: ``ServiceError`` naming the output and the reason.
  package func check(inputs paths: [String], alsoRefusing others: [String] = []) throws {
    if case .folder(let folder) = destination {
      try OutputFolder.create(folder)
      for input in paths {
        try OutputFile.checkWritable(outputPath(forInput: input), inputs: [input])
      }
    } else {
      try OutputFile.checkWritable(outputPath(forInput: ""), inputs: paths + others)
    }
  }

  /// Starts a run reading `paths` with `options`: a single output's writer
  /// starts (the searchable PDF's font is loaded); a folder's outputs are
  /// opened as their inputs come.
  /// - Throws: ``ServiceError`` when the writer cannot start.
  package func open(paths: [String], options: RecognitionOptions, pdfText: PDFTextPolicy) throws {
    self.paths = paths
    self.options = options
    self.pdfText = pdfText
    if case .folder = destination { return }
    single = try makeStream(
      to: outputPath(forInput: ""), readsPDFs: paths.contains { InputFiles.kind($0) == .pdf })
  }

  /// Writes the pages read of a piece of input `part.input` (a whole
  /// input, or a page of a PDF or multi-page TIFF), opening the input's
  /// output in a folder at its first piece and finishing it at its last.
  /// - Throws: ``ServiceError`` when the output cannot be opened or
  ///   written; the output is then left as it was.
  package func write(_ part: Recognizer.InputPart, pages: [Page]) throws {
    if case .folder = destination, current?.input != part.input { try openInput(part.input) }
    if let tesseractTSV, case .success(let read) = part.result.pages {
      tesseractTSV.waiting = read.compactMap(\.tesseractTSV)
    }
    try writePages(pages, from: part.result.path)
    guard single == nil, part.isLast else { return }
    if inputPageCount > 0 { try finishInput() } else { abandonInput() }
  }

  /// The names of the inputs' outputs in a batch's tree, by the inputs'
  /// places: `box3/p7` for `scans/box3/p7.tif` (``BatchInput/name``), the
  /// format's ending added; `nil` for outputs named after the inputs'
  /// files alone.
  package var treeNames: [String]?

  /// The output of input `index` (its place in the run's paths).
  package func outputPath(ofInput index: Int) -> String {
    guard let treeNames, case .folder(let folder) = destination else {
      return outputPath(forInput: paths[index])
    }
    return (folder as NSString).appendingPathComponent(treeNames[index] + format.outputEnding)
  }

  /// Opens the output of input `index` in the folder (and the folders of
  /// a batch's tree above it), giving up the output open before.
  /// - Throws: ``ServiceError`` (or the file system's error for a folder)
  ///   when it cannot be opened.
  package func openInput(_ index: Int) throws {
    abandonInput()
    let path = outputPath(ofInput: index)
    if treeNames != nil {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    }
    current = (index, try makeStream(to: path, readsPDFs: InputFiles.kind(paths[index]) == .pdf))
  }

  /// Writes `pages`, read of the file `path`, to the output open.
  package func writePages(_ pages: [Page], from path: String) throws {
    guard let stream = single ?? current?.stream else { return }
    for page in pages {
      try stream.write(page, from: (path, page.index))
      pageCount += 1
    }
  }

  /// The pages written to the output of the input open in the folder.
  package var inputPageCount: Int { current?.stream.pageCount ?? 0 }

  /// Finishes the output of the input open in the folder (renamed into
  /// place); returns its path.
  /// - Throws: ``ServiceError`` when it cannot be written; it is then
  ///   given up.
  @discardableResult
  package func finishInput() throws -> String? {
    guard let (index, stream) = current else { return nil }
    current = nil
    try stream.finish()
    return outputPath(ofInput: index)
  }

  /// Gives up the output of the input open in the folder.
  package func abandonInput() {
    current?.stream.abandon()
    current = nil
  }

  /// Whether the run's single output got no page (every input failed, or
  /// none had a page chosen): then it is not written when something
  /// failed.
  package var singleOutputIsEmpty: Bool { (single?.pageCount ?? 1) == 0 }

  /// Ends the run: the single output is finished (renamed into place).
  /// - Throws: ``ServiceError`` when it cannot be written.
  package func finish() throws {
    try single?.finish()
    single = nil
  }

  /// Gives the run up: the outputs being written are removed, their
  /// destinations left as they were.
  package func abandon() {
    single?.abandon()
    current?.stream.abandon()
    single = nil
    current = nil
  }

  /// The output to `path`, its page images from the files read.
  private func makeStream(to path: String, readsPDFs: Bool) throws -> DocumentStream {
    var settings =
      settingsForPath?(path) ?? self.settings ?? WriterSettings.scanText(dataPath: options.dataPath)
    guard writesPageImages else {
      return try DocumentStream(format: format, path: path, settings: settings, io: io)
    }
    settings.tesseractTSV = tesseractTSV != nil
    return try DocumentStream(
      format: format, path: path, settings: settings,
      images: PageFiles(
        maxPixels: options.maxPixels, pdfText: pdfText, readsPDFs: readsPDFs,
        pictures: HTMLPictures(outputPath: path), tesseractTSV: tesseractTSV), io: io,
      runningFurniture: tesseractTSV == nil ? options.layout : nil)
  }
}

/// One document written through a sink by a command that reads one input
/// page by page itself (`convert`, `html`), not through a ``Pipeline``.
extension DocumentSink {
  /// The pages the sink writes with ``writeDocument(_:)`` and where each
  /// was read from: the page, and its file, page and number there.
  package typealias WritePage = (Page, PageOrigin) throws -> Void

  /// Writes one document into the sink's single output (a file, a FIFO or
  /// standard output): `body` hands over each page with where it was read
  /// from (its number in the document is the origin's, not renumbered).
  ///
  /// The output is opened at the first page (so settings `body` sets
  /// before it, such as ``ScanFormats/WriterSettings/pageTotal``, are
  /// those written), or at the end when no page came; it is finished
  /// (renamed into place) once `body` returns, and abandoned (its
  /// destination left as it was) when `body`, a page or the finish
  /// throws.
  /// - Parameter body: Reads the pages and hands each one over.
  /// - Throws: What `body` throws, or ``ServiceError`` when the output
  ///   cannot be opened or written or the format cannot hold a page.
  package func writeDocument(_ body: (WritePage) throws -> Void) throws {
    do {
      try body { page, origin in
        try self.openDocument().write(page, from: origin)
        self.pageCount += 1
      }
      try openDocument().finish()
      single = nil
    } catch {
      abandon()
      throw error
    }
  }

  /// The document's output, opened at its first page.
  private func openDocument() throws -> DocumentStream {
    if let single { return single }
    let path = outputPath(forInput: "")
    let made = try DocumentStream(
      format: format, path: path,
      settings: settingsForPath?(path) ?? settings
        ?? WriterSettings.scanText(dataPath: options.dataPath),
      images: writesPageImages ? pageImages : nil, io: io,
      runningFurniture: writesPageImages ? runningFurniture : nil)
    single = made
    return made
  }
}
