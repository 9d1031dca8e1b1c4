import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
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

  /// What `--image-url` replaces by each page's number.
  static let pageNumberPlaceholder = "{page}"

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
  let ocr: OCROptions
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
    ocr = try OCROptions(a)
    try InputFiles.checkStandardInputOnce([modelPath, imagePath])
    var options: AccessibleHTML.Options = []
    if a[Self.showText] { options.insert(.showText) }
    if a[Self.showUncertain] { options.insert(.showUncertain) }
    if ocr.keepRotation { options.insert(.keepRotation) }
    self.options = options
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try OutputFile.checkWritable(outputPath, inputs: [modelPath, imagePath])
    // Pages are written as they are read, each picture made when its page
    // comes (a PDF's renderings embedded as PNG are most of the file),
    // through the registry's accessible HTML (``ScanFormats/FileFormat``):
    // the head, which names the language and title, goes before them at
    // the end, and the first page waits for a second to know whether the
    // document has one page or several.
    let output = try DocumentStream(
      format: .accessibleHTML, path: outputPath,
      settings: .scanText(
        dataPath: nil,
        html: AccessibleHTML(options: options, lowConfidenceThreshold: threshold)),
      images: Pictures(self), io: io)
    do {
      try ocr.recognizer().read([modelPath]) { part in
        if let error = part.result.pageErrors.first { throw error }
        for (number, page) in try part.result.numberedPages() {
          try output.write(
            page, from: PageOrigin(path: modelPath, page: number - 1, number: number))
        }
      }
      try output.finish()
    } catch {
      output.abandon()
      throw error
    }
    return 0
  }

  /// The pictures of the pages, as the options say (``picture(of:number:filePages:)``).
  final class Pictures: PageImageSource {
    private let command: HTMLCommand
    private var filePages: ImageFilePages
    private var count = 0

    init(_ command: HTMLCommand) {
      self.command = command
      filePages = ImageFilePages(modelPath: command.modelPath)
    }

    func htmlPicture(of page: Page, from origin: PageOrigin) throws -> AccessibleHTML.ShownPage {
      count += 1
      if count == 2, let imageURL = command.imageURL,
        !imageURL.contains(HTMLCommand.pageNumberPlaceholder)
      {
        throw ValidationError(
          "'--image-url' names one image and \(command.modelPath) has several pages: put \(HTMLCommand.pageNumberPlaceholder) in it (each page's number)"
        )
      }
      return try command.picture(of: page, number: origin.number, filePages: &filePages)
    }

    func pdfImage(of page: Page, from origin: PageOrigin) throws -> PDFPageImage {
      try ImageFiles(maxPixels: command.ocr.recognition.maxPixels).pdfImage(
        of: page, from: origin)
    }
  }

  /// Which page of its image file a page of MODEL is: of an image MODEL,
  /// its own page (its number); of a document, how many pages before it
  /// name the same image (a multi-page TIFF's pages in order, 0 for a page
  /// of its own file), the document read again only when a page asks.
  struct ImageFilePages {
    let modelPath: String
    private var ranks: [Int]?

    init(modelPath: String) { self.modelPath = modelPath }

    mutating func page(number: Int) throws -> Int {
      guard InputFiles.isDocument(modelPath) else { return number - 1 }
      if ranks == nil {
        var seen: [String: Int] = [:]
        ranks = try DocumentFiles.read(modelPath).pages.map { page in
          let key = page.image ?? ""
          defer { seen[key, default: 0] += 1 }
          return seen[key] ?? 0
        }
      }
      guard let ranks, ranks.indices.contains(number - 1) else { return 0 }
      return ranks[number - 1]
    }
  }

  /// The picture of a page: at `--image-url`; else embedded (asked for, a
  /// PDF page's rendering, or a format browsers do not show, as PNG); else
  /// linked by its path from the HTML file (its name when it is not
  /// found). The browser's orientation comes from the image file's tag
  /// when it is found.
  private func picture(of page: Page, number: Int, filePages: inout ImageFilePages) throws
    -> AccessibleHTML.ShownPage
  {
    let located = DocumentFiles.pageImage(given: imagePath, modelPath: modelPath, page: page)
    if let imageURL {
      // The URL is taken to serve the page's image file as it is.
      let url = imageURL.replacingOccurrences(of: Self.pageNumberPlaceholder, with: "\(number)")
      let bytes = located.flatMap { try? InputFiles.read($0) }.map { [UInt8]($0) }
      return AccessibleHTML.ShownPage(
        page: page, image: .url(url),
        imageOrientation: bytes.map(AccessibleHTML.browserOrientation(ofImage:)), number: number)
    }
    guard let path = located else {
      if embed || page.pdf != nil || InputFiles.isStream(modelPath) {
        throw CLIError(
          "\(modelPath): no page image to embed (the model names \(page.image.map { "'\($0)'" } ?? "none") and it is not beside the model); give it with --image"
        )
      }
      return AccessibleHTML.ShownPage(
        page: page, image: page.image.map { .url(Self.percentEncoded($0)) } ?? .none,
        number: number)
    }
    let data = try InputFiles.read(path)
    let bytes = [UInt8](data)
    if let mediaType = Self.browserMediaType(bytes) {
      // The layer is drawn over the picture at the page's size: a picture
      // of another size would be stretched under it (draw and the PDF
      // refuse it too).
      let size: (width: Int, height: Int)
      do {
        // A format a browser shows holds one picture.
        size = try OCREngine.imageSize(data, path: path)
      } catch {
        throw CLIError(error.description)
      }
      guard size == (page.width, page.height) else {
        throw CLIError(
          "\(path): the image is \(size.width)×\(size.height) pixels but the page is \(page.width)×\(page.height)"
        )
      }
      let orientation = AccessibleHTML.browserOrientation(ofImage: bytes)
      // An image read from standard input has no file to link: embedded.
      return AccessibleHTML.ShownPage(
        page: page,
        image: embed || InputFiles.isStream(path)
          ? .embedded(bytes: bytes, mediaType: mediaType)
          : .url(Self.relativeURL(from: outputPath, to: path)),
        imageOrientation: orientation, number: number)
    }
    // A PDF page (its rendering) or a format browsers do not show (TIFF,
    // PNM, JPEG 2000): as PNG, decoded as the model's page was, so in its
    // frame.
    let imagePage = try filePages.page(number: number)
    do {
      let png = try PageDrawing(layers: []).png(
        of: page, imageData: data, imagePath: path, imagePage: imagePage)
      return AccessibleHTML.ShownPage(
        page: page, image: .embedded(bytes: [UInt8](png), mediaType: "image/png"),
        number: number)
    } catch {
      throw CLIError(error.description)
    }
  }

  /// The URL of `file` from the folder the HTML file goes to: a relative
  /// path, each part percent-encoded.
  static func relativeURL(from outputPath: String, to file: String) -> String {
    let folder = URL(fileURLWithPath: outputPath).deletingLastPathComponent()
      .standardizedFileURL.pathComponents
    let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
    var common = 0
    while common < folder.count, common < target.count - 1, folder[common] == target[common] {
      common += 1
    }
    let up = Array(repeating: "..", count: folder.count - common)
    return (up + target[common...].map(percentEncoded)).joined(separator: "/")
  }

  /// A path part as a URL's: everything but unreserved characters and
  /// sub-delimiters percent-encoded (`:` too, which would make a first
  /// part look like a scheme).
  static func percentEncoded(_ part: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    allowed.insert(charactersIn: "-._~!$&'()*+,;=@")
    return part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
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
