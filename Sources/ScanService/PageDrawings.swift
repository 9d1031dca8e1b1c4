import Foundation
import ScanArguments
import ScanModel
import ScanOCR

extension PageDrawing {
  /// Draws every page of `modelPath` that `recognizer` selects over its
  /// image and writes the pictures: one page to `outputPath`, several to
  /// files numbered by page (``outputNames(_:outputPath:)``). The files
  /// are written once every page is drawn: a page that cannot be drawn
  /// leaves no file behind.
  ///
  /// The pages are read and drawn one at a time (a long model is never
  /// held whole): the pictures of several pages wait in a temporary file
  /// until the last is drawn, and an image file (or PDF) that page after
  /// page is drawn on is read (or opened) once.
  /// - Parameter imagePath: The image to draw on (default: the model when
  ///   it is an image, else each page's image beside it, else white).
  /// - Throws: ``ServiceError`` when the model or an image cannot be read,
  ///   a page cannot be drawn, or an output cannot be written.
  package func write(
    _ modelPath: String, imagePath: String?, recognizer: Recognizer, to outputPath: String,
    io: CommandIO
  ) throws {
    try OutputFile.checkWritable(outputPath, inputs: [modelPath, imagePath])
    var total: Int?
    var images = DrawnImages()
    // Several pages: each picture's page number and length in the spool.
    var held: [(number: Int, count: Int)] = []
    var spool: Spool?
    var pageImages: Set<String> = []
    try recognizer.eachPage(modelPath, total: { total = $0 }) { number, page, several in
      let pageImage = try DocumentFiles.pageImage(
        given: imagePath, modelPath: modelPath, page: page)
      if !several {
        // The one page: written where it was asked.
        try OutputFile.checkWritable(outputPath, inputs: [modelPath, pageImage])
        let png = try images.png(of: page, drawing: self, imagePath: pageImage)
        try OutputFile.write(bytes: Array(png), to: outputPath, io: io)
        return
      }
      if spool == nil {
        // Refused before any drawing when the count is known.
        if let total { try Self.checkSeveral(total, outputPath: outputPath) }
        spool = try Spool()
      }
      pageImage.map { _ = pageImages.insert($0) }
      let png = try images.png(of: page, drawing: self, imagePath: pageImage)
      try spool?.write(png)
      held.append((number, png.count))
    }
    guard let spool else { return }
    let names = try Self.outputNames(held.map(\.number), outputPath: outputPath)
    for name in names {
      try OutputFile.checkWritable(name, inputs: [modelPath] + pageImages.sorted())
    }
    var offset = 0
    for (picture, name) in zip(held, names) {
      let png = try spool.read(offset: offset, count: picture.count)
      try OutputFile.write(bytes: png, to: name, io: io)
      offset += picture.count
    }
  }

  /// Refuses several pages for an output that takes one picture:
  /// standard output, a FIFO or a device.
  /// - Throws: ``ServiceError`` saying how to name the files.
  static func checkSeveral(_ count: Int, outputPath: String) throws {
    let name = URL(fileURLWithPath: outputPath).lastPathComponent
    guard name.lowercased().hasSuffix(".png") else {
      throw ServiceError.other(
        "\(outputPath): \(count) pages to draw, but one picture can be written here: name a .png file (out.png writes out-1.png, out-2.png, ...) or choose a page with --pages"
      )
    }
  }

  /// The file of each page: `outputPath` for one page; for several, the
  /// name with each page's number before `.png`, zero-padded to the widest
  /// number, as `pdftoppm` names its pages (`out-01.png` … `out-12.png`).
  /// - Throws: ``ServiceError`` for several pages and standard output, a
  ///   FIFO or a device, which take one picture.
  package static func outputNames(_ numbers: [Int], outputPath: String) throws -> [String] {
    guard numbers.count > 1 else { return [outputPath] }
    try checkSeveral(numbers.count, outputPath: outputPath)
    let stem = String(outputPath.dropLast(4))
    let ending = String(outputPath.suffix(4))
    let width = String(numbers.max() ?? 1).count
    return numbers.map { number in
      let digits = String(number)
      return stem + "-" + String(repeating: "0", count: width - digits.count) + digits + ending
    }
  }
}

/// The images `draw` draws pages on: the last image file read (or PDF
/// opened) kept for the next page, which is most often drawn on the same.
private struct DrawnImages {
  private var data: (path: String, bytes: Data)?
  private var pdf: PDFDocument?

  /// `page` drawn with `drawing` over the image at `imagePath` (a white
  /// page for `nil`), as PNG bytes.
  mutating func png(of page: Page, drawing: PageDrawing, imagePath: String?) throws -> Data {
    guard let imagePath else { return try drawn { try drawing.png(of: page, imageData: nil) } }
    if let pdf, pdf.path == imagePath {
      return try drawn { try drawing.png(of: page, pdf: pdf, imagePage: page.index) }
    }
    let bytes: Data
    if let data, data.path == imagePath {
      bytes = data.bytes
    } else {
      bytes = try InputFiles.read(imagePath)
      data = (imagePath, bytes)
    }
    if PDFDocument.isPDF(bytes), let opened = try? PDFDocument(data: bytes, path: imagePath) {
      // A PDF is opened once for all its pages (the same picture as from
      // its bytes).
      pdf = opened
      data = nil
      return try drawn { try drawing.png(of: page, pdf: opened, imagePage: page.index) }
    }
    // A multi-page image: the page of the image that the model's page is.
    return try drawn {
      try drawing.png(of: page, imageData: bytes, imagePath: imagePath, imagePage: page.index)
    }
  }

  private func drawn(_ draw: () throws -> Data) throws -> Data {
    do {
      return try draw()
    } catch let error as DrawingError {
      throw ServiceError.other(error.description)
    }
  }
}

extension DrawingLayers {
  /// `draw --layers`: layer names joined with `,` (`words`, `lines`,
  /// `order`, `confidence`, `blocks`, `roles`), or `all`.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error) naming
  ///   an unknown layer, and the layers.
  package init(parsing list: String) throws {
    self = []
    for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if name == "all" {
        formUnion(.all)
      } else if let layer = DrawingLayers.names.first(where: { $0.0 == name })?.1 {
        formUnion(layer)
      } else {
        let known = (DrawingLayers.names.map(\.0) + ["all"]).joined(separator: ", ")
        throw ValidationError("unknown layer '\(name)' (layers: \(known))")
      }
    }
  }
}
