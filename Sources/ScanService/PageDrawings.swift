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
  /// - Parameter imagePath: The image to draw on (default: the model when
  ///   it is an image, else each page's image beside it, else white).
  /// - Throws: ``ServiceError`` when the model or an image cannot be read,
  ///   a page cannot be drawn, or an output cannot be written.
  package func write(
    _ modelPath: String, imagePath: String?, recognizer: Recognizer, to outputPath: String,
    io: CommandIO
  ) throws {
    try OutputFile.checkWritable(outputPath, inputs: [modelPath, imagePath])
    let pages = try recognizer.numberedPages(modelPath)
    let names = try Self.outputNames(pages.map(\.number), outputPath: outputPath)
    var pictures: [(name: String, png: Data)] = []
    for ((_, page), name) in zip(pages, names) {
      let pageImage = try DocumentFiles.pageImage(
        given: imagePath, modelPath: modelPath, page: page)
      try OutputFile.checkWritable(name, inputs: [modelPath, pageImage])
      let data = try pageImage.map(InputFiles.read)
      do {
        // A multi-page image: the page of the image that the model's page is.
        let png = try png(
          of: page, imageData: data, imagePath: pageImage ?? "", imagePage: page.index)
        pictures.append((name, png))
      } catch {
        throw ServiceError.other(error.description)
      }
    }
    for picture in pictures {
      try OutputFile.write(bytes: Array(picture.png), to: picture.name, io: io)
    }
  }

  /// The file of each page: `outputPath` for one page; for several, the
  /// name with each page's number before `.png`, zero-padded to the widest
  /// number, as `pdftoppm` names its pages (`out-01.png` … `out-12.png`).
  /// - Throws: ``ServiceError`` for several pages and standard output, a
  ///   FIFO or a device, which take one picture.
  package static func outputNames(_ numbers: [Int], outputPath: String) throws -> [String] {
    guard numbers.count > 1 else { return [outputPath] }
    let name = URL(fileURLWithPath: outputPath).lastPathComponent
    guard name.lowercased().hasSuffix(".png") else {
      throw ServiceError.other(
        "\(outputPath): \(numbers.count) pages to draw, but one picture can be written here: name a .png file (out.png writes out-1.png, out-2.png, ...) or choose a page with --pages"
      )
    }
    let stem = String(outputPath.dropLast(4))
    let ending = String(outputPath.suffix(4))
    let width = String(numbers.max() ?? 1).count
    return numbers.map { number in
      let digits = String(number)
      return stem + "-" + String(repeating: "0", count: width - digits.count) + digits + ending
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
