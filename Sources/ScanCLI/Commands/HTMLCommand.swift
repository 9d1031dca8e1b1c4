import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// `scantext html MODEL -o page.html [--pages N] [--embed-image | --image-url URL]`.
struct HTMLCommand: ScanCommand {
  static let output = Option<String>(
    "output", short: "o", help: "The HTML file to write.")
  static let embedImage = Flag(
    "embed-image",
    help:
      "Embed each page's image in the HTML file (a data: URL), so the file stands alone. TIFF, PNM and JPEG 2000 images are always embedded, as PNG (browsers do not show them)."
  )
  static let imageURL = Option<String?>(
    "image-url",
    help:
      "The URL (or path relative to the HTML file) of the page image (default: the image file's path from the HTML file); with several pages, '{page}' in it becomes each page's number."
  )
  static let image = Option<String?>(
    "image",
    help:
      "The image to embed (default: MODEL when it is an image, else each page's image beside the model); the pages of a multi-page image go to the model's pages in order."
  )
  static let showText = Flag(
    "show-text", help: "Draw the text layer's text over the scan (normally transparent).")
  static let showUncertain = Flag(
    "show-uncertain", help: "Highlight the words below --min-confidence.")
  static let lowConfidence = Option<Double>(
    "min-confidence",
    help: "Words below this confidence (0-100) are marked uncertain.",
    default: ScanConventions.lowConfidenceThreshold)

  static let configuration = CommandConfiguration(
    commandName: "html",
    abstract:
      "Write pages as accessible HTML: each scan, a selectable text layer on its ink, and their structure.",
    discussion: """
      The file is self-contained UTF-8 and needs no script. Over each scan lies \
      a transparent text layer, each line laid on its selection outline, so \
      selecting text highlights the ink and find-in-page finds words; the \
      structure follows the reading order (headings h1-h6, paragraphs, running \
      heads in header, footnotes and page numbers after the text). Positions \
      are fractions of the page's width, so the layer stays on the ink at any \
      zoom. Every page of MODEL is written, in order, or those --pages selects \
      (from 1); a page found turned is shown upright unless --keep-rotation.
      """,
    arguments: [
      ModelOptions.model, output, embedImage, imageURL, image, showText, showUncertain,
      lowConfidence,
    ] + OCROptions.arguments)

  let modelPath: String
  let ocr: ReadingSettings
  let outputPath: String
  let embed: Bool
  let imageURL: String?
  let imagePath: String?
  let options: AccessibleHTML.Options
  let threshold: Double

  init(_ a: ParsedArguments) throws {
    outputPath = try a[Self.output]
    embed = a[Self.embedImage]
    imageURL = try a[Self.imageURL]
    imagePath = try a[Self.image]
    if embed, imageURL != nil {
      throw ValidationError("'--embed-image' and '--image-url' cannot be used together")
    }
    if imagePath != nil, !embed {
      throw ValidationError("'--image' names the image to embed: add '--embed-image'")
    }
    threshold = try a[Self.lowConfidence]
    guard (0...100).contains(threshold) else {
      throw ValidationError("'--min-confidence' must be between 0 and 100")
    }
    modelPath = try a[ModelOptions.model]
    ocr = try ReadingSettings(a)
    try InputFiles.checkStandardInputOnce([modelPath, imagePath])
    var options: AccessibleHTML.Options = []
    if a[Self.showText] { options.insert(.showText) }
    if a[Self.showUncertain] { options.insert(.showUncertain) }
    self.options = options
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try ocr.writeHTML(
      of: modelPath, imagePath: imagePath, to: outputPath,
      html: AccessibleHTML(options: options, lowConfidenceThreshold: threshold),
      pictures: HTMLPictures(
        outputPath: outputPath, embed: embed, imageURL: imageURL, imagePath: imagePath), io: io)
    return 0
  }
}
