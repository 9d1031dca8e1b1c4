import CScanOCR
import Foundation
import ScanModel

/// What ``PageDrawing`` draws over the page image.
public struct DrawingLayers: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Every word's box (blue).
  public static let words = DrawingLayers(rawValue: 1 << 0)
  /// Every line's selection outline: the quad `selectionRects(for:)` gives
  /// for the whole line, or its polygon on a curved line (green).
  public static let lines = DrawingLayers(rawValue: 1 << 1)
  /// Reading order: each paragraph numbered from 1 at its top-left corner,
  /// and an arrow from each paragraph to the next (magenta).
  public static let order = DrawingLayers(rawValue: 1 << 2)
  /// Words below the confidence threshold filled in red.
  public static let confidence = DrawingLayers(rawValue: 1 << 3)
  /// Every block's box (orange).
  public static let blocks = DrawingLayers(rawValue: 1 << 4)
  /// Every paragraph's box, just outside it, in the colour of its role
  /// (``PageDrawing/color(of:)``).
  public static let roles = DrawingLayers(rawValue: 1 << 5)

  /// Everything.
  public static let all: DrawingLayers = [
    .words, .lines, .order, .confidence, .blocks, .roles,
  ]

  /// The layers by name, as the command line spells them.
  public static let names: [(String, DrawingLayers)] = [
    ("words", .words), ("lines", .lines), ("order", .order), ("confidence", .confidence),
    ("blocks", .blocks), ("roles", .roles),
  ]
}

/// Why a drawing could not be made.
public struct DrawingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason, naming the file where there is one.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}

/// Draws a page's geometry over its image with Leptonica and encodes the
/// result as PNG: word boxes, line selection outlines, reading order,
/// low-confidence words, blocks and paragraph roles (see ``DrawingLayers``).
public struct PageDrawing: Sendable {
  /// The layers to draw.
  public var layers: DrawingLayers
  /// Words whose confidence is below this (0…100) are highlighted by the
  /// ``DrawingLayers/confidence`` layer.
  public var lowConfidence: Double

  /// Creates a drawing configuration.
  public init(
    layers: DrawingLayers = .all, lowConfidence: Double = ScanConventions.lowConfidenceThreshold
  ) {
    self.layers = layers
    self.lowConfidence = lowConfidence
  }

  /// The PDF page a page was read from, rendered as it was for
  /// recognition (the page's size and resolution).
  private static func pdfPage(_ data: Data, path: String, page: Page, index: Int) throws
    -> LeptonicaImage
  {
    try pdfPage(of: PDFDocument(data: data, path: path), path: path, page: page, index: index)
  }

  /// The PDF page a page was read from, rendered from `pdf` as it was for
  /// recognition.
  private static func pdfPage(of pdf: PDFDocument, path: String, page: Page, index: Int) throws
    -> LeptonicaImage
  {
    let number = page.pdf.map { $0.page - 1 } ?? index
    guard number >= 0, number < pdf.pageCount else {
      throw DrawingError(
        "\(path): the PDF has \(pdf.pageCount) page(s); there is no page \(number + 1)")
    }
    return try pdf.render(
      page: number,
      PDFDocument.Rendering(
        width: page.width, height: page.height, dpi: page.dpi ?? 300, nativeImage: false))
  }

  /// Draws `page` over an image and returns the PNG bytes, the size of
  /// the image.
  ///
  /// - Parameters:
  ///   - page: The page; its coordinates are pixels of the image.
  ///   - imageData: The image file's bytes (any format ScanText reads), or
  ///     `nil` for a white page of the page's size.
  ///   - imagePath: The image's name, for errors.
  ///   - imagePage: Which page of a multi-page image to draw on.
  ///   - maxPixels: The most pixels the image may have (a decompression
  ///     bomb is refused before it is decoded).
  /// - Throws: ``DrawingError`` when the image cannot be read or its size
  ///   is not the page's.
  public func png(
    of page: Page, imageData: Data?, imagePath: String = "", imagePage: Int = 0,
    maxPixels: Int = 100_000_000
  ) throws(DrawingError) -> Data {
    try Self.loadLibraries()
    guard let imageData else {
      return try png(of: page, over: nil, imagePath: imagePath, maxPixels: maxPixels)
    }
    let image = try Self.decoded(imagePath: imagePath) {
      if PDFDocument.isPDF(imageData) {
        return try Self.pdfPage(imageData, path: imagePath, page: page, index: imagePage)
      }
      let source = try ImageSource(imageData, path: imagePath, maxPixels: maxPixels)
      guard imagePage < source.pageCount else {
        throw DrawingError(
          "\(imagePath): the image has \(source.pageCount) page(s); there is no page \(imagePage)"
        )
      }
      return try source.decode(page: imagePage)
    }
    return try png(of: page, over: image, imagePath: imagePath, maxPixels: maxPixels)
  }

  /// Draws `page` over its PDF page rendered from `pdf`, a PDF already
  /// open (so that the pages of a long PDF are drawn without reading and
  /// opening the file for each), and returns the PNG bytes: the same
  /// bytes as ``png(of:imageData:imagePath:imagePage:maxPixels:)`` gives
  /// for the file's bytes.
  ///
  /// - Parameters:
  ///   - page: The page; its coordinates are pixels of the rendering.
  ///   - pdf: The PDF the page was read from.
  ///   - imagePage: Which page of the PDF to draw on (from 0) when `page`
  ///     does not say (``ScanModel/Page/pdf``).
  /// - Throws: ``DrawingError`` when the page cannot be rendered or its
  ///   size is not the page's.
  public func png(of page: Page, pdf: PDFDocument, imagePage: Int = 0) throws(DrawingError)
    -> Data
  {
    try Self.loadLibraries()
    let image = try Self.decoded(imagePath: pdf.path) {
      try Self.pdfPage(of: pdf, path: pdf.path, page: page, index: imagePage)
    }
    // The rendering is the canvas: no limit applies to a blank page.
    return try png(of: page, over: image, imagePath: pdf.path, maxPixels: Int.max)
  }

  /// Loads Leptonica, or says why it cannot be.
  private static func loadLibraries() throws(DrawingError) {
    do {
      try OCRLibraries.load()
    } catch {
      throw DrawingError(error.description)
    }
  }

  /// The image `decode` gives, its errors as drawing errors.
  private static func decoded(
    imagePath: String, _ decode: () throws -> LeptonicaImage
  ) throws(DrawingError) -> LeptonicaImage {
    do {
      return try decode()
    } catch let error as DrawingError {
      throw error
    } catch let error as OCRError {
      throw DrawingError(error.description)
    } catch {
      throw DrawingError("\(imagePath): \(error)")
    }
  }

  /// Draws `page` over `image` (a white page of the page's size when
  /// `nil`) and encodes the PNG.
  private func png(
    of page: Page, over image: LeptonicaImage?, imagePath: String, maxPixels: Int
  ) throws(DrawingError) -> Data {
    let canvas: LeptonicaImage
    if let image {
      guard image.width == page.width, image.height == page.height else {
        throw DrawingError(
          "\(imagePath): the image is \(image.width)×\(image.height) pixels but the page is \(page.width)×\(page.height)"
        )
      }
      guard let color = scantext_pixConvertTo32(image.pix) else {
        throw DrawingError("\(imagePath): cannot convert the image to colour")
      }
      canvas = LeptonicaImage(taking: color)
    } else {
      guard page.width > 0, page.height > 0,
        page.width.multipliedReportingOverflow(by: page.height).partialValue <= maxPixels,
        let blank = scantext_pixCreate(Int32(page.width), Int32(page.height), 32)
      else {
        throw DrawingError("cannot make a \(page.width)×\(page.height) page to draw on")
      }
      _ = scantext_pixSetAll(blank)
      canvas = LeptonicaImage(taking: blank)
    }
    draw(page, on: canvas)
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    // A PNG for a user: zlib's default level, asked for (a PNG nobody asks
    // a level for is Tesseract's own, stored fast: see quiet.c).
    _ = scantext_pixSetZlibCompression(canvas.pix, 6)
    guard scantext_pixWriteMem(&bytes, &size, canvas.pix, Int32(IFF_PNG)) == 0, let bytes else {
      throw DrawingError("cannot encode the drawing as PNG")
    }
    defer { scantext_lept_free(bytes) }
    return Data(bytes: bytes, count: size)
  }

  /// The colour (red, green, blue) the ``DrawingLayers/roles`` layer
  /// outlines a paragraph of `role` with: headings crimson, running text
  /// grey, captions teal, running heads purple, running feet brown, page
  /// numbers ochre, footnotes olive, list items sky blue, marginalia pink,
  /// table cells dark green.
  public static func color(of role: ParagraphRole) -> (red: UInt8, green: UInt8, blue: UInt8) {
    switch role {
    case .heading: (200, 0, 60)
    case .body: (150, 150, 150)
    case .caption: (0, 150, 150)
    case .header: (120, 0, 200)
    case .footer: (140, 80, 20)
    case .pageNumber: (200, 160, 0)
    case .footnote: (110, 130, 0)
    case .listItem: (0, 180, 220)
    case .marginalia: (255, 80, 160)
    case .tableCell: (0, 110, 60)
    }
  }

  /// Line widths grow with the page: 1 pixel per 1000 of the longer side.
  private func stroke(_ page: Page) -> Int32 {
    Int32(max(1, max(page.width, page.height) / 1000))
  }

  private func draw(_ page: Page, on canvas: LeptonicaImage) {
    let pix = canvas.pix
    let width = stroke(page)
    // Everything is clipped to the canvas and a margin wider than a
    // stroke before Leptonica rasterises it: a line or box is drawn point
    // by point, so a forged quad at ±10,000,000 pixels took minutes (and
    // gigabytes) to draw outside a small page.
    let margin = Double(2 * Int(width) + 2)
    let visible = Rect(
      minX: -margin, minY: -margin, maxX: Double(page.width) + margin,
      maxY: Double(page.height) + margin)
    func box(_ r: PixelRect, _ color: (UInt8, UInt8, UInt8), _ w: Int32) {
      guard let r = Self.clipped(r, to: visible), !r.isEmpty,
        let b = scantext_boxCreate(
          Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height))
      else { return }
      var p: UnsafeMutablePointer<Box>? = b
      defer { scantext_boxDestroy(&p) }
      _ = scantext_pixRenderBoxArb(pix, b, w, color.0, color.1, color.2)
    }
    func line(_ a: Point, _ b: Point, _ color: (UInt8, UInt8, UInt8), _ w: Int32) {
      guard let (a, b) = Self.clipped(from: a, to: b, within: visible) else { return }
      _ = scantext_pixRenderLineArb(
        pix, Int32(a.x.rounded()), Int32(a.y.rounded()), Int32(b.x.rounded()),
        Int32(b.y.rounded()), w, color.0, color.1, color.2)
    }

    if layers.contains(.confidence) {
      for word in page.words {
        guard let c = word.confidence, c < lowConfidence,
          let r = Self.clipped(word.bbox, to: visible), !r.isEmpty,
          let b = scantext_boxCreate(
            Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height))
        else { continue }
        var p: UnsafeMutablePointer<Box>? = b
        _ = scantext_pixBlendInRect(pix, b, 0xFF00_0000, 0.45)
        scantext_boxDestroy(&p)
      }
    }
    if layers.contains(.blocks) {
      for block in page.blocks { box(block.bbox, (255, 140, 0), width) }
    }
    if layers.contains(.roles) {
      // Just outside the paragraph, so that a block or line box on the
      // same edges leaves it visible.
      let gap = Int(width) * 2
      for paragraph in page.blocks.flatMap(\.paragraphs) {
        let b = paragraph.bbox
        let outside = PixelRect(
          minX: max(0, b.minX - gap), minY: max(0, b.minY - gap),
          maxX: min(page.width, b.maxX + gap), maxY: min(page.height, b.maxY + gap))
        let c = Self.color(of: paragraph.role)
        box(outside, (c.red, c.green, c.blue), width)
      }
    }
    if layers.contains(.lines) {
      for number in 0..<page.lineCount {
        guard let l = page.line(number: number) else { continue }
        for rect in page.selectionRects(for: l.range) {
          let c = rect.polygon ?? rect.quad.corners
          for i in c.indices { line(c[i], c[(i + 1) % c.count], (0, 170, 0), width) }
        }
      }
    }
    if layers.contains(.words) {
      for word in page.words {
        if let q = word.quad {
          let c = q.corners
          for i in 0..<4 { line(c[i], c[(i + 1) % 4], (0, 90, 255), width) }
        } else {
          box(word.bbox, (0, 90, 255), width)
        }
      }
    }
    if layers.contains(.order) { drawOrder(page, on: pix, width: width, line: line) }
  }

  /// The part of `r` within `visible`; `nil` when they do not meet.
  /// - Complexity: O(1).
  static func clipped(_ r: PixelRect, to visible: Rect) -> PixelRect? {
    let clipped = PixelRect(
      minX: max(r.minX, Int(visible.minX)), minY: max(r.minY, Int(visible.minY)),
      maxX: min(r.maxX, Int(visible.maxX)), maxY: min(r.maxY, Int(visible.maxY)))
    guard clipped.minX <= clipped.maxX, clipped.minY <= clipped.maxY else { return nil }
    return clipped
  }

  /// The part of the segment from `a` to `b` within `visible`
  /// (Liang–Barsky); `nil` when none of it is, or a point is not finite.
  /// - Complexity: O(1).
  static func clipped(from a: Point, to b: Point, within visible: Rect) -> (Point, Point)? {
    guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
    let dx = b.x - a.x
    let dy = b.y - a.y
    var t0 = 0.0
    var t1 = 1.0
    for (p, q) in [
      (-dx, a.x - visible.minX), (dx, visible.maxX - a.x),
      (-dy, a.y - visible.minY), (dy, visible.maxY - a.y),
    ] {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let t = q / p
        if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
        if t0 > t1 { return nil }
      }
    }
    return (
      Point(x: a.x + t0 * dx, y: a.y + t0 * dy), Point(x: a.x + t1 * dx, y: a.y + t1 * dy)
    )
  }

  private func drawOrder(
    _ page: Page, on pix: UnsafeMutablePointer<Pix>, width: Int32,
    line: (Point, Point, (UInt8, UInt8, UInt8), Int32) -> Void
  ) {
    let magenta: (UInt8, UInt8, UInt8) = (200, 0, 160)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    let centres = paragraphs.map(\.bbox.center)
    for (a, b) in zip(centres, centres.dropFirst()) {
      line(a, b, magenta, width * 2)
      // The arrow head: two strokes back from the tip, 25° either side.
      let angle = atan2(b.y - a.y, b.x - a.x)
      let length = Double(max(12, 12 * Int(width)))
      for side in [-0.44, 0.44] {
        let tip = Point(
          x: b.x - length * cos(angle + side), y: b.y - length * sin(angle + side))
        line(b, tip, magenta, width * 2)
      }
    }
    // Numbers: Leptonica's bitmap font, sized to the page.
    let size: Int32 = page.height >= 2000 ? 20 : page.height >= 1000 ? 14 : 10
    guard let font = scantext_bmfCreate(nil, size) else { return }
    var f: UnsafeMutablePointer<L_Bmf>? = font
    defer { scantext_bmfDestroy(&f) }
    for (i, paragraph) in paragraphs.enumerated() {
      var drawn: Int32 = 0
      var overflow: Int32 = 0
      // Left of the paragraph's first line when there is room, else above it.
      let label = "\(i + 1)"
      let labelWidth = Int(size) * label.count * 3 / 4 + 6
      let left = paragraph.bbox.minX - labelWidth
      let firstLine = paragraph.lines.first?.bbox ?? paragraph.bbox
      let x = Int32(left >= 0 ? left : max(0, paragraph.bbox.minX))
      let y = Int32(
        left >= 0
          ? min(page.height - 1, firstLine.minY + Int(size))
          : max(Int(size) + 2, paragraph.bbox.minY - 4))
      _ = scantext_pixSetTextline(
        pix, font, label, 0xC800_A000, x, y, &drawn, &overflow)
    }
  }
}
