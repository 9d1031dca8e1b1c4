import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// What a command reads and writes with: the recognition options every
/// command that may recognise an image takes (`--lang`, `--pages`,
/// `--skip-text`, `--title`, …), once the command line has read and
/// checked them.
package struct ReadingSettings: Sendable {
  /// What to give the engine.
  package var recognition: RecognitionOptions
  /// Whether `--lang` was given (`eval` otherwise uses the truth's language).
  package var languageGiven: Bool
  /// Whether to use (and fill) the recognition cache: not with `--no-cache`.
  package var useCache: Bool
  /// The pages of each input to read (`--pages`, from 1); `nil` for all.
  package var pdfPages: PageSelection?
  /// What to do with PDF pages that already have text.
  package var pdfText: PDFTextPolicy
  /// Whether turned pages stay as scanned in a searchable PDF and HTML.
  package var keepRotation: Bool
  /// Whether a searchable PDF is tagged (not with `--no-tags`).
  package var tagged: Bool
  /// The searchable PDF's title (`--title`).
  package var title: String?
  /// What a searchable PDF claims to be (`--output-type`).
  package var outputType: PDFOutputType

  /// The settings, each as its option gave it.
  package init(
    recognition: RecognitionOptions, languageGiven: Bool, useCache: Bool,
    pdfPages: PageSelection?, pdfText: PDFTextPolicy, keepRotation: Bool, tagged: Bool,
    title: String?, outputType: PDFOutputType
  ) {
    self.recognition = recognition
    self.languageGiven = languageGiven
    self.useCache = useCache
    self.pdfPages = pdfPages
    self.pdfText = pdfText
    self.keepRotation = keepRotation
    self.tagged = tagged
    self.title = title
    self.outputType = outputType
  }

  /// Reads inputs with these settings on up to `jobs` workers.
  package func recognizer(jobs: Int = 1) -> Recognizer {
    Recognizer(
      options: recognition, jobs: jobs, cache: cache, pdfPages: pdfPages, pdfText: pdfText)
  }

  /// The cache to use, unless `--no-cache`.
  package var cache: RecognitionCache? { useCache ? RecognitionCache.standard() : nil }

  /// The writer settings of a command that writes `path` with these
  /// settings (the rotation, tags, title and PDF/A level of a searchable
  /// PDF); a PDF asked to be PDF/A and written as plain PDF is named on
  /// standard error: `Warning: out.pdf: written as plain PDF, not
  /// PDF/A-2a: …`.
  package func writerSettings(writing path: String, io: CommandIO) -> WriterSettings {
    var settings = WriterSettings.scanText(
      dataPath: recognition.dataPath, keepRotation: keepRotation, tagged: tagged, title: title)
    settings.outputType = outputType
    let shown = path == "-" ? "<stdout>" : path
    settings.warn = { io.printError("Warning: \(shown): \($0)".escapingControlCharacters) }
    return settings
  }

  /// The sink of an output in `format` to `destination`, written with
  /// these settings (``writerSettings(writing:io:)``) and `io`'s streams.
  package func sink(
    _ format: FileFormat, to destination: DocumentSink.Destination, io: CommandIO
  ) -> DocumentSink {
    let sink = DocumentSink(format: format, destination: destination)
    sink.io = io
    let reading = self
    sink.settingsForPath = { reading.writerSettings(writing: $0, io: io) }
    return sink
  }
}
