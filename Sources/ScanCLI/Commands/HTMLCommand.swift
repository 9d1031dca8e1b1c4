import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// `scantext html MODEL -o page.html [--embed-image | --image-url URL]`.
struct HTMLCommand: ScanCommand {
  static let output = Option<String>(
    "output", short: "o", help: "The HTML file to write.")
  static let embedImage = Flag(
    "embed-image",
    help:
      "Embed the page image in the HTML file (a data: URL), so the file stands alone. TIFF, PNM and JPEG 2000 images are embedded as PNG."
  )
  static let imageURL = Option<String?>(
    "image-url",
    help:
      "The URL (or path relative to the HTML file) of the page image (default: the image's file name)."
  )
  static let image = Option<String?>(
    "image",
    help:
      "The page image to embed (default: MODEL when it is an image, else the model's image file beside it)."
  )
  static let showText = Flag(
    "show-text", help: "Draw the text layer's text over the scan (normally transparent).")
  static let showUncertain = Flag(
    "show-uncertain", help: "Highlight the words below --min-confidence.")
  static let lowConfidence = Option<Double>(
    "min-confidence",
    help: "Words below this confidence (0-100) are marked uncertain.", default: 60)

  static let configuration = CommandConfiguration(
    commandName: "html",
    abstract:
      "Write a page as accessible HTML: the scan, a selectable text layer on its ink, and its structure.",
    discussion: """
      The file is self-contained UTF-8 and needs no script. Over the scan lies \
      a transparent text layer, each line laid on its selection outline, so \
      selecting text highlights the ink and find-in-page finds words; the \
      structure follows the reading order (headings h1-h6, paragraphs, running \
      heads in header, footnotes and page numbers after the text). Positions \
      are fractions of the page's width, so the layer stays on the ink at any \
      zoom.
      """,
    arguments: [
      ModelOptions.model, output, embedImage, imageURL, image, showText,
      showUncertain, lowConfidence,
    ] + OCROptions.arguments)

  let model: ModelOptions
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
    var options: AccessibleHTML.Options = []
    if a[Self.showText] { options.insert(.showText) }
    if a[Self.showUncertain] { options.insert(.showUncertain) }
    self.options = options
    threshold = try a[Self.lowConfidence]
    guard (0...100).contains(threshold) else {
      throw ValidationError("'--min-confidence' must be between 0 and 100")
    }
    model = try ModelOptions(a)
    try InputFiles.checkStandardInputOnce([model.path, imagePath])
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try OutputFile.checkWritable(outputPath, inputs: [model.path, imagePath])
    let modelPath = model.path
    let pages = try model.loadPages()
    guard let page = pages.first, pages.count == 1 else {
      throw CLIError(
        "\(modelPath): html writes one page: choose it with --pages (the document has \(pages.count))"
      )
    }
    let source: AccessibleHTML.ImageSource
    if embed || (imageURL == nil && (page.pdf != nil || InputFiles.isStandardInput(modelPath))) {
      // A PDF page, or an image read from standard input, has no image
      // file a browser could show: it is embedded.
      source = try embeddedImage(for: page, modelPath: modelPath)
    } else if let imageURL {
      source = .url(imageURL)
    } else if let name = page.image ?? imageName(modelPath) {
      source = .url(name)
    } else {
      source = .none
    }
    let writer = AccessibleHTML(image: source, options: options, lowConfidenceThreshold: threshold)
    try OutputFile.write(writer.html(for: page), to: outputPath, io: io)
    return 0
  }

  /// MODEL's file name when it is an image.
  private func imageName(_ modelPath: String) -> String? {
    InputFiles.isDocument(modelPath)
      ? nil : URL(fileURLWithPath: modelPath).lastPathComponent
  }

  /// The image to embed: given, or MODEL itself, or the model's image beside it.
  private func embeddedImage(for page: Page, modelPath: String) throws -> AccessibleHTML.ImageSource
  {
    guard let path = DocumentFiles.pageImage(given: imagePath, modelPath: modelPath, page: page)
    else {
      throw CLIError(
        "\(modelPath): no page image to embed (the model names \(page.image.map { "'\($0)'" } ?? "none") and it is not beside the model); give it with --image"
      )
    }
    let data = try InputFiles.read(path)
    let bytes = [UInt8](data)
    if let mediaType = Self.browserMediaType(bytes) {
      return .embedded(bytes: bytes, mediaType: mediaType)
    }
    // A format browsers do not show (TIFF, PNM, JPEG 2000): as PNG, the
    // page of the image that the model's page is.
    do {
      let png = try PageDrawing(layers: []).png(
        of: page, imageData: data, imagePath: path, imagePage: page.index)
      return .embedded(bytes: [UInt8](png), mediaType: "image/png")
    } catch {
      throw CLIError(error.description)
    }
  }

  /// The media type of an image every browser shows, from its first bytes.
  static func browserMediaType(_ b: [UInt8]) -> String? {
    func starts(_ prefix: [UInt8]) -> Bool { b.starts(with: prefix) }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if starts(Array("GIF8".utf8)) { return "image/gif" }
    if b.count >= 12, starts(Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
      return "image/webp"
    }
    if starts(Array("BM".utf8)) { return "image/bmp" }
    return nil
  }
}
