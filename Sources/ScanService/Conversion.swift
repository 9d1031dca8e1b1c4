import ScanArguments
import ScanFormats
import ScanModel

/// `convert IN OUT`: a document (or an image, recognised) written in any
/// format of the registry.
package struct Conversion {
  /// The document or image to read.
  package var inputPath: String
  /// The file to write, or `-` for standard output.
  package var outputPath: String
  /// The format to write.
  package var format: FileFormat
  /// `--image`: the page image of a PDF made from a model.
  package var imagePath: String?
  /// Reads the input.
  package var recognizer: Recognizer
  /// The writer's settings (for the output).
  package var settings: WriterSettings

  /// A conversion of `inputPath` to `outputPath` in `format`.
  package init(
    inputPath: String, outputPath: String, format: FileFormat, imagePath: String?,
    recognizer: Recognizer, settings: WriterSettings
  ) {
    self.inputPath = inputPath
    self.outputPath = outputPath
    self.format = format
    self.imagePath = imagePath
    self.recognizer = recognizer
    self.settings = settings
  }

  /// Reads the input and writes the output, replaced only when complete.
  /// - Throws: ``ServiceError`` when an input cannot be read, the output
  ///   cannot be written or the format cannot hold the pages.
  package func run(io: CommandIO) throws {
    try sink(settings, io).check(inputs: [inputPath] + (imagePath.map { [$0] } ?? []))
    if !format.needsPageImages {
      try convertPageByPage(io)
      return
    }
    if format != .searchablePDF {
      // The accessible HTML: each page's picture made as its page comes.
      try convertPageByPage(
        io,
        pictures: PageFiles(
          maxPixels: recognizer.options.maxPixels,
          pictures: HTMLPictures(outputPath: outputPath, imagePath: imagePath)))
      return
    }
    // The searchable PDF: whether a page comes from a PDF decides how the
    // file is made (a PDF edited, with every page, by qpdf at the end;
    // else a new one), so the pages are read first.
    let numbered = try recognizer.numberedPages(inputPath)
    let document = Document(pages: numbered.map(\.page))
    // Each page handed to the format's writer with where it was read from
    // (its number in the input, as `html` counts it); for a PDF, the image
    // file (and its page) the PDF is made of.
    var origins = numbered.map {
      PageOrigin(path: inputPath, page: $0.number - 1, number: $0.number)
    }
    if format == .searchablePDF {
      origins = try pdfSources(document).enumerated().map {
        PageOrigin(path: $1.path, page: $1.page, number: $0 + 1)
      }
      // The images beside the model are inputs too.
      try sink(settings, io).check(inputs: origins.map(\.path))
    }
    var settings = self.settings
    settings.pageTotal = document.pages.count
    let output = sink(settings, io)
    output.pageImages = PageFiles(
      maxPixels: recognizer.options.maxPixels,
      readsPDFs: document.pages.contains { $0.pdf != nil },
      pictures: HTMLPictures(outputPath: outputPath, imagePath: imagePath))
    try output.writeDocument { write in
      for (page, origin) in zip(document.pages, origins) { try write(page, origin) }
    }
  }

  /// The sink of the output, written with `settings` and `io`'s streams.
  private func sink(_ settings: WriterSettings, _ io: CommandIO) -> DocumentSink {
    let sink = DocumentSink(format: format, destination: .file(outputPath))
    sink.settings = settings
    sink.io = io
    return sink
  }

  /// Converts a document a page at a time
  /// (``Recognizer/eachPage(_:total:_:)``): a compact model or JSON file
  /// is decoded page by page, a PDF read page by page, and each page
  /// written as it comes, so memory holds a few pages whatever the
  /// document's length.
  /// - Parameter pictures: The page images, for a format that shows them
  ///   (the accessible HTML); `nil` for one that needs none.
  func convertPageByPage(_ io: CommandIO, pictures: PageFiles? = nil) throws {
    // The output is opened at the first page, once the number of pages is
    // known when it can be (a document's: PAGE XML's error says it).
    let output = sink(settings, io)
    output.writesPageImages = pictures != nil
    output.pageImages = pictures
    try output.writeDocument { write in
      try recognizer.eachPage(inputPath, total: { output.settings?.pageTotal = $0 }) {
        number, page, _ in
        try write(page, PageOrigin(path: inputPath, page: number - 1, number: number))
      }
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
        throw ServiceError.other(
          "\(inputPath): page \(n + 1) names no image; pass --image IMG for a PDF")
      }
      let index = seen[path, default: 0]
      seen[path] = index + 1
      sources.append((path, index))
    }
    return sources
  }
}

extension DocumentSink {
  /// Writes every page of `path` that `recognizer` selects into the sink's
  /// single output as it is read (a long model is never held whole), each
  /// numbered as in its input (``writeDocument(_:)``).
  /// - Throws: ``ServiceError``; the output is then abandoned.
  package func writeEveryPage(of path: String, _ recognizer: Recognizer) throws {
    try writeDocument { write in
      try recognizer.eachPage(path) { number, page, _ in
        try write(page, PageOrigin(path: path, page: number - 1, number: number))
      }
    }
  }
}
