import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// `scantext draw MODEL [--image IMG] -o overlay.png`.
struct DrawCommand: ScanCommand {
  static let image = Option<String?>(
    "image",
    help:
      "The page image to draw on (default: MODEL when it is an image, else the model's image file beside it, else a white page)."
  )
  static let output = Option<String>(
    "output", short: "o", help: "The PNG file to write.")
  static let layers = Option<String>(
    "layers",
    help:
      "Comma-separated layers: words (boxes), lines (selection outlines), order (reading order numbers and arrows), confidence (low-confidence words in red), blocks, roles (paragraphs outlined in the colour of their role), or all.",
    default: "all")
  static let lowConfidence = Option<Double>(
    "min-confidence", help: "Words below this confidence (0-100) are highlighted.", default: 60)

  static let configuration = CommandConfiguration(
    commandName: "draw",
    abstract: "Draw a page's boxes, selection outlines and reading order over its image (PNG).",
    discussion: """
      Word boxes are blue, line selection outlines green, blocks orange, the \
      reading order (paragraphs numbered from 1, arrows from each to the next) \
      magenta, and words below --min-confidence are filled in red. The picture \
      has the image's size; coordinates are the model's.
      """,
    arguments: [ModelOptions.model, ModelOptions.page, image, output, layers, lowConfidence]
      + OCROptions.arguments)

  let model: ModelOptions
  let imagePath: String?
  let outputPath: String
  let drawing: PageDrawing

  init(_ a: ParsedArguments) throws {
    imagePath = try a[Self.image]
    outputPath = try a[Self.output]
    guard outputPath.lowercased().hasSuffix(".png") else {
      throw ValidationError("'\(outputPath)': draw writes PNG; name the output .png")
    }
    var chosen: DrawingLayers = []
    for name in try a[Self.layers].split(separator: ",").map({
      $0.trimmingCharacters(in: .whitespaces)
    }) {
      if name == "all" {
        chosen.formUnion(.all)
      } else if let layer = DrawingLayers.names.first(where: { $0.0 == name })?.1 {
        chosen.formUnion(layer)
      } else {
        let known = (DrawingLayers.names.map(\.0) + ["all"]).joined(separator: ", ")
        throw ValidationError("unknown layer '\(name)' (layers: \(known))")
      }
    }
    let threshold = try a[Self.lowConfidence]
    guard (0...100).contains(threshold) else {
      throw ValidationError("'--min-confidence' must be between 0 and 100")
    }
    drawing = PageDrawing(layers: chosen, lowConfidence: threshold)
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try OutputFile.checkWritable(outputPath)
    let modelPath = model.path
    let page = try model.loadPage()
    let imagePath = DocumentFiles.pageImage(given: self.imagePath, modelPath: modelPath, page: page)
    var data: Data?
    if let imagePath {
      do {
        data = try OCREngine.readImageFile(imagePath)
      } catch {
        throw CLIError(error.description)
      }
    }
    // A multi-page image: the page of the image that the model's page is.
    let imagePage = DocumentFormat.isDocument(fileName: modelPath) ? page.index : model.pageIndex
    let png: Data
    do {
      png = try drawing.png(
        of: page, imageData: data, imagePath: imagePath ?? "", imagePage: imagePage)
    } catch {
      throw CLIError(error.description)
    }
    try OutputFile.write(bytes: Array(png), to: outputPath)
    return 0
  }
}
