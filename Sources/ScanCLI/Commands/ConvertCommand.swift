import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// `scantext convert IN OUT`: from any readable format (or an image) to
/// any format.
struct ConvertCommand: ScanCommand {
  static let input = Argument<String>(
    "input",
    help:
      "A document (ScanText JSON, hOCR, ALTO 2-4, PAGE XML 2013-2019, Tesseract TSV) or an image to recognise; '-' for standard input."
  )
  static let output = Argument<String>(
    "output", help: "The file to write, or '-' for standard output.")
  static let format = Option<FileFormat?>(
    "format", help: FileFormat.help("pdf is a searchable PDF."))
  static let image = Option<String?>(
    "image",
    help:
      "For a PDF from a model: the page image (default: each page's image file beside the model)."
  )

  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert between ScanText JSON, hOCR, ALTO, PAGE XML, Tesseract TSV and plain text.",
    discussion: """
      The input's format comes from its extension, or its content for .xml \
      files (the root element: alto, PcGts or html). What a format cannot \
      carry is lost on the way (see the README); boxes, text and reading \
      order always survive. The output is written to a temporary file and \
      renamed, so a failure never leaves a partial file.
      """,
    arguments: [input, output, format, image] + OCROptions.arguments)

  let inputPath: String
  let outputPath: String
  let outputFormat: FileFormat
  let ocr: OCROptions
  let imagePath: String?

  init(_ a: ParsedArguments) throws {
    inputPath = try a[Self.input]
    outputPath = try a[Self.output]
    imagePath = try a[Self.image]
    try InputFiles.checkStandardInputOnce([inputPath, imagePath])
    outputFormat = try FileFormat.choose(explicit: a[Self.format], path: outputPath)
    ocr = try OCROptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try OutputFile.checkWritable(outputPath, inputs: [inputPath, imagePath])
    if !outputFormat.needsPageImages {
      try convertPageByPage(io)
      return 0
    }
    let numbered = try ocr.recognizer().numberedPages(inputPath)
    let document = Document(pages: numbered.map(\.page))
    // Each page handed to the format's writer with where it was read from
    // (its number in the input, as `html` counts it); for a PDF, the image
    // file (and its page) the PDF is made of.
    var origins = numbered.map {
      PageOrigin(path: inputPath, page: $0.number - 1, number: $0.number)
    }
    if outputFormat == .searchablePDF {
      origins = try pdfSources(document).enumerated().map {
        PageOrigin(path: $1.path, page: $1.page, number: $0 + 1)
      }
      // The images beside the model are inputs too.
      try OutputFile.checkWritable(outputPath, inputs: origins.map(\.path))
    }
    var settings = ocr.writerSettings(writing: outputPath, io: io)
    settings.pageTotal = document.pages.count
    let output = try DocumentStream(
      format: outputFormat, path: outputPath, settings: settings,
      images: PageFiles(
        maxPixels: ocr.recognition.maxPixels, readsPDFs: document.pages.contains { $0.pdf != nil },
        pictures: HTMLPictures(outputPath: outputPath, imagePath: imagePath)), io: io)
    do {
      for (page, origin) in zip(document.pages, origins) {
        try output.write(page, from: origin)
      }
      try output.finish()
    } catch {
      output.abandon()
      throw error
    }
    return 0
  }

  /// Converts a document to a format that needs no page images a page at a
  /// time (``ScanService/Recognizer/eachPage(_:total:_:)``): a compact
  /// model or JSON file is decoded page by page, a PDF read page by page,
  /// and each page written as it comes, so memory holds a few pages
  /// whatever the document's length.
  func convertPageByPage(_ io: CommandIO) throws {
    var settings = ocr.writerSettings(writing: outputPath, io: io)
    // The output is opened at the first page, once the number of pages is
    // known when it can be (a document's: PAGE XML's error says it).
    var output: DocumentStream?
    func opened() throws -> DocumentStream {
      if let output { return output }
      let made = try DocumentStream(
        format: outputFormat, path: outputPath, settings: settings, io: io)
      output = made
      return made
    }
    do {
      try ocr.recognizer().eachPage(inputPath, total: { settings.pageTotal = $0 }) {
        number, page, _ in
        try opened().write(
          page, from: PageOrigin(path: inputPath, page: number - 1, number: number))
      }
      try opened().finish()
    } catch {
      output?.abandon()
      throw error
    }
  }

  /// The image file and page of it behind each page of the document: the
  /// input when it is an image, else `--image`, else the image the page
  /// names, beside the model. A file's pages are counted in document order
  /// (the second page naming `scan.tif` is its page 2).
  func pdfSources(_ document: Document) throws -> [(path: String, page: Int)] {
    var seen: [String: Int] = [:]
    var sources: [(path: String, page: Int)] = []
    for (n, page) in document.pages.enumerated() {
      let path: String
      if !InputFiles.isDocument(inputPath) {
        path = inputPath
      } else if let imagePath {
        path = imagePath
      } else if let name = page.image {
        path = try DocumentFiles.imageBeside(model: inputPath, named: name)
      } else {
        throw CLIError(
          "\(inputPath): page \(n + 1) names no image; pass --image IMG for a PDF")
      }
      let index = seen[path, default: 0]
      seen[path] = index + 1
      sources.append((path, index))
    }
    return sources
  }
}
