import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// The pictures of the pages in accessible HTML (the registry's
/// `accessible-html` row, written by `html`, `ocr --format accessible-html`
/// and `convert`), as the options say: at `--image-url`; else embedded
/// (asked for, a PDF page's rendering, or a format browsers do not show,
/// as PNG); else linked by its path from the HTML file (its name when it
/// is not found). The browser's orientation comes from the image file's
/// tag when it is found.
package struct HTMLPictures {
  /// What `--image-url` replaces by each page's number.
  package static let pageNumberPlaceholder = "{page}"

  /// The HTML file (`-` for standard output): links are relative to its
  /// folder.
  package var outputPath: String
  /// Whether every picture is embedded (`--embed-image`).
  package var embed: Bool
  /// The URL of every page's picture (`--image-url`), `{page}` in it
  /// replaced by the page's number.
  package var imageURL: String?
  /// The image to embed (`--image`), instead of the file the page was
  /// read from or names.
  package var imagePath: String?
  /// The pictures made so far.
  private var count = 0
  /// For each model read, which page of its image file each page is.
  private var filePages: [String: ImageFilePages] = [:]
  /// The PDF the last picture was rendered from, kept open for the next
  /// page: each page of a PDF read and opened its whole file again before,
  /// so `html`'s time grew with the square of a long PDF's pages (issue
  /// 45). Its path names it.
  private var openPDF: PDFDocument?
  /// How many times a PDF was opened to render pages from (for tests).
  package private(set) var pdfOpenings = 0

  /// Pictures for an HTML file at `outputPath`.
  package init(
    outputPath: String, embed: Bool = false, imageURL: String? = nil, imagePath: String? = nil
  ) {
    self.outputPath = outputPath
    self.embed = embed
    self.imageURL = imageURL
    self.imagePath = imagePath
  }

  /// The picture of `page`, read from `origin` (a model, an image or a
  /// PDF).
  /// - Throws: ``ServiceError`` naming the file when the picture cannot be
  ///   made (no image to embed, an image of another size than the page);
  ///   `ValidationError` when `--image-url` names one image for several
  ///   pages.
  package mutating func picture(of page: Page, from origin: PageOrigin) throws
    -> AccessibleHTML.ShownPage
  {
    count += 1
    if count == 2, let imageURL, !imageURL.contains(Self.pageNumberPlaceholder) {
      throw ValidationError(
        "'--image-url' names one image and \(origin.path) has several pages: put \(Self.pageNumberPlaceholder) in it (each page's number)"
      )
    }
    let modelPath = origin.path
    let number = origin.number
    let located = try DocumentFiles.pageImage(given: imagePath, modelPath: modelPath, page: page)
    if let imageURL {
      // The URL is taken to serve the page's image file as it is.
      let url = imageURL.replacingOccurrences(of: Self.pageNumberPlaceholder, with: "\(number)")
      return AccessibleHTML.ShownPage(
        page: page, image: .url(url),
        imageOrientation: located.flatMap(Self.browserOrientation(ofImageAt:)), number: number)
    }
    guard let path = located else {
      if embed || page.pdf != nil || InputFiles.isStream(modelPath) {
        throw ServiceError(
          "\(modelPath): no page image to embed (the model names \(page.image.map { "'\($0)'" } ?? "none") and it is not beside the model); give it with --image"
        )
      }
      return AccessibleHTML.ShownPage(
        page: page, image: page.image.map { .url(Self.percentEncoded($0)) } ?? .none,
        number: number)
    }
    if let pdf = openPDF, pdf.path == path {
      return try pdfPicture(of: page, from: origin, pdf: pdf)
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
        throw ServiceError(error.description)
      }
      guard size == (page.width, page.height) else {
        throw ServiceError(
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
    // frame. A PDF is kept open for the pages after this one.
    if InputFiles.kind(path) == .pdf {
      let pdf: PDFDocument
      do {
        pdf = try PDFDocument(data: data, path: path)
      } catch {
        throw ServiceError(error.description)
      }
      openPDF = pdf
      pdfOpenings += 1
      return try pdfPicture(of: page, from: origin, pdf: pdf)
    }
    let imagePage = try imageFilePage(of: origin)
    do {
      let png = try PageDrawing(layers: []).png(
        of: page, imageData: data, imagePath: path, imagePage: imagePage)
      return AccessibleHTML.ShownPage(
        page: page, image: .embedded(bytes: [UInt8](png), mediaType: "image/png"),
        number: number)
    } catch {
      throw ServiceError(error.description)
    }
  }

  /// The picture of `page`, its PDF page rendered from `pdf` and embedded
  /// as PNG.
  private mutating func pdfPicture(of page: Page, from origin: PageOrigin, pdf: PDFDocument)
    throws -> AccessibleHTML.ShownPage
  {
    // The page says which PDF page it was read from; one that does not is
    // counted as an image file's page.
    let imagePage = page.pdf == nil ? try imageFilePage(of: origin) : 0
    do {
      let png = try PageDrawing(layers: []).png(of: page, pdf: pdf, imagePage: imagePage)
      return AccessibleHTML.ShownPage(
        page: page, image: .embedded(bytes: [UInt8](png), mediaType: "image/png"),
        number: origin.number)
    } catch {
      throw ServiceError(error.description)
    }
  }

  /// Which page of its image file the page at `origin` is.
  private mutating func imageFilePage(of origin: PageOrigin) throws -> Int {
    var pages = filePages[origin.path] ?? ImageFilePages(modelPath: origin.path)
    defer { filePages[origin.path] = pages }
    return try pages.page(origin.page)
  }

  /// The orientation a browser applies to the image file at `path`
  /// (``ScanFormats/AccessibleHTML/browserOrientation(ofImage:)``), `nil`
  /// when it cannot be read. Only a JPEG or a PNG carries one, so a
  /// regular file is read whole only when its first bytes are one's: a
  /// PDF's or a multi-page TIFF's pages each read their whole file here
  /// before (two copies of it a page, so `html`'s peak grew with the
  /// file: issue 45, point 2).
  static func browserOrientation(ofImageAt path: String) -> Int? {
    if !InputFiles.isStream(path), let handle = FileHandle(forReadingAtPath: path) {
      let head = try? handle.read(upToCount: 8)
      try? handle.close()
      if let head, !head.isEmpty,
        !AccessibleHTML.mayCarryBrowserOrientation(head: [UInt8](head))
      {
        return 1
      }
    }
    return (try? InputFiles.read(path)).map {
      AccessibleHTML.browserOrientation(ofImage: [UInt8]($0))
    }
  }

  /// Which page of its image file a page of MODEL is: of an image or a PDF,
  /// its own page; of a document, how many pages before it name the same
  /// image (a multi-page TIFF's pages in order, 0 for a page of its own
  /// file), the document read again only when a page asks.
  struct ImageFilePages {
    let modelPath: String
    private var ranks: [Int]?

    init(modelPath: String) { self.modelPath = modelPath }

    /// The page of the image file behind page `index` (from 0) of MODEL.
    mutating func page(_ index: Int) throws -> Int {
      guard InputFiles.isDocument(modelPath) else { return index }
      if ranks == nil {
        // A page at a time: a long model is never held whole.
        var seen: [String: Int] = [:]
        let document = try DocumentFiles.open(modelPath, maxPagesInMemory: 1)
        ranks = try (0..<document.pageCount).map { index in
          let key = try DocumentFiles.page(index, of: document, path: modelPath).image ?? ""
          defer { seen[key, default: 0] += 1 }
          return seen[key] ?? 0
        }
      }
      guard let ranks, ranks.indices.contains(index) else { return 0 }
      return ranks[index]
    }
  }

  /// The URL of `file` from the folder the HTML file goes to: a relative
  /// path, each part percent-encoded.
  package static func relativeURL(from outputPath: String, to file: String) -> String {
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
  package static func percentEncoded(_ part: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    allowed.insert(charactersIn: "-._~!$&'()*+,;=@")
    return part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
  }

  /// The media type of an image every browser shows, from its first bytes.
  package static func browserMediaType(_ b: [UInt8]) -> String? {
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

extension ReadingSettings {
  /// `html`'s work: the pages of `modelPath` (a model, or an image or PDF
  /// recognised with these settings) written as accessible HTML to
  /// `outputPath`, each with its picture.
  /// - Parameters:
  ///   - modelPath: The model, image or PDF.
  ///   - imagePath: The image given to embed (`--image`), checked as an
  ///     input.
  ///   - outputPath: The HTML file.
  ///   - html: How the pages are written.
  ///   - pictures: How each page's picture is shown.
  ///   - io: The command's streams.
  /// - Throws: ``ServiceError`` when the output cannot be written or an
  ///   input or picture cannot be read (nothing is left written).
  package func writeHTML(
    of modelPath: String, imagePath: String?, to outputPath: String, html: AccessibleHTML,
    pictures: HTMLPictures, io: CommandIO
  ) throws {
    let output = DocumentSink(format: .accessibleHTML, destination: .file(outputPath))
    try output.check(inputs: [modelPath] + (imagePath.map { [$0] } ?? []))
    // Pages are written as they are read, each picture made when its page
    // comes (a PDF's renderings embedded as PNG are most of the file),
    // through the registry's accessible HTML (``ScanFormats/FileFormat``):
    // the head, which names the language and title, goes before them at
    // the end, and the first page waits for a second to know whether the
    // document has one page or several.
    output.settings = .scanText(
      dataPath: recognition.dataPath, keepRotation: keepRotation, html: html)
    output.io = io
    output.pageImages = PageFiles(maxPixels: recognition.maxPixels, pictures: pictures)
    // A PDF or multi-page TIFF read here has its running heads and feet
    // told by repetition, as `ocr` tells them; a model keeps the roles it
    // was written with.
    output.runningFurniture = InputFiles.isDocument(modelPath) ? nil : recognition.layout
    try output.writeEveryPage(of: modelPath, recognizer())
  }
}
