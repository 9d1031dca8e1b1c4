import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

/// `scantext draw MODEL [--image IMG] -o overlay.png`.
struct DrawCommand: ScanCommand {
  static let image = Option<String?>(
    "image",
    help:
      "The page image to draw on (default: MODEL when it is an image, else the model's image file beside it, else a white page)."
  )
  static let output = Option<String>(
    "output", short: "o",
    help:
      "The PNG file to write ('-': standard output); for several pages NAME-1.png, NAME-2.png, ... (numbered from 1)."
  )
  static let layers = Option<String>(
    "layers",
    help:
      "Comma-separated layers: words (boxes), lines (selection outlines), order (reading order numbers and arrows), confidence (low-confidence words in red), blocks, roles (paragraphs outlined in the colour of their role), or all.",
    default: "all")
  static let lowConfidence = Option<Double>(
    "min-confidence", help: "Words below this confidence (0-100) are highlighted.",
    default: ScanConventions.lowConfidenceThreshold)

  static let configuration = CommandConfiguration(
    commandName: "draw",
    abstract: "Draw a page's boxes, selection outlines and reading order over its image (PNG).",
    discussion: """
      Word boxes are blue, line selection outlines green, blocks orange, the \
      reading order (paragraphs numbered from 1, arrows from each to the next) \
      magenta, and words below --min-confidence are filled in red. The picture \
      has the image's size; coordinates are the model's. Every page of MODEL, \
      or those --pages selects, gets a picture: one page is written to \
      --output, several to files numbered by page as pdftoppm numbers them \
      (out.png: out-1.png, out-2.png, ...; zero-padded to the widest number).
      """,
    arguments: [ModelOptions.model, image, output, layers, lowConfidence]
      + OCROptions.arguments)

  let model: ModelOptions
  let imagePath: String?
  let outputPath: String
  let drawing: PageDrawing

  init(_ a: ParsedArguments) throws {
    imagePath = try a[Self.image]
    outputPath = try a[Self.output]
    // A name without an extension is standard output, a device, a FIFO.
    let name = URL(fileURLWithPath: outputPath).lastPathComponent
    guard
      OutputFile.isStandardOutput(outputPath) || name.lowercased().hasSuffix(".png")
        || !name.dropFirst().contains(".")
    else {
      throw ValidationError("'\(outputPath)': draw writes PNG; name the output .png")
    }
    let layers = try DrawingLayers(parsing: a[Self.layers])
    let threshold = try a[Self.lowConfidence]
    guard (0...100).contains(threshold) else {
      throw ValidationError("'--min-confidence' must be between 0 and 100")
    }
    drawing = PageDrawing(layers: layers, lowConfidence: threshold)
    model = try ModelOptions(a)
    try InputFiles.checkStandardInputOnce([model.path, imagePath])
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try drawing.write(
      model.path, imagePath: imagePath, recognizer: model.ocr.recognizer(), to: outputPath, io: io)
    return 0
  }
}
