import CZlib
import Foundation
import ScanModel

/// A page image as a PDF image XObject, for ``SearchablePDF``: the stream's
/// bytes and the dictionary entries that describe them (ScanOCR's
/// `PDFImages` makes them from image files).
public struct PDFPageImage: Sendable, Hashable {
  /// The stream's bytes, encoded as `filter` says.
  public var data: Data
  /// The filter's name without the slash (`DCTDecode`, `FlateDecode`).
  public var filter: String
  /// The image's size in pixels.
  public var width: Int
  public var height: Int
  /// Bits per colour component.
  public var bitsPerComponent: Int
  /// The colour space in PDF syntax (`/DeviceGray`, `[/Indexed …]`).
  public var colorSpace: String
  /// `DecodeParms` in PDF syntax, when the filter needs it.
  public var decodeParms: String?
  /// `Decode` in PDF syntax, when the samples are inverted.
  public var decode: String?
  /// The orientation tag (1–8, ``ScanModel/ImageOrientation``) that turns
  /// the stored image into the page's picture: an image file's bytes go in
  /// as stored and the page draws them turned. 1 when the image is stored
  /// the way the page shows it.
  public var orientation: Int
  /// The image's ICC colour profile, for its colour space (written as
  /// `/ICCBased` with ``colorSpace`` as the alternate); `nil` for none.
  public var iccProfile: Data?
  /// The pieces the image is stored in, when it is stored in pieces (a
  /// TIFF page's JPEG tiles): each is drawn as an image XObject of its own
  /// with this image's filter, bits, colour space, `DecodeParms` and
  /// `Decode`, and ``data`` is not used. Empty for an image in one piece.
  public var pieces: [PDFImagePiece]

  /// Creates an image description.
  public init(
    data: Data, filter: String, width: Int, height: Int, bitsPerComponent: Int,
    colorSpace: String, decodeParms: String? = nil, decode: String? = nil, orientation: Int = 1,
    iccProfile: Data? = nil, pieces: [PDFImagePiece] = []
  ) {
    self.iccProfile = iccProfile
    self.pieces = pieces
    self.data = data
    self.filter = filter
    self.width = width
    self.height = height
    self.bitsPerComponent = bitsPerComponent
    self.colorSpace = colorSpace
    self.decodeParms = decodeParms
    self.decode = decode
    self.orientation = orientation
  }
}

/// A rectangle of a page image stored as an image of its own (a JPEG tile
/// of a TIFF page, or a column of them: ``JPEGStack``), in the stored
/// image's pixels (before its orientation is applied).
public struct PDFImagePiece: Sendable, Hashable {
  /// The piece's bytes, encoded as its image's filter says.
  public var data: Data
  /// Where its top-left pixel lies in the image.
  public var x: Int
  public var y: Int
  /// Its size in pixels as stored. A piece may reach past the image's
  /// right and bottom edges (a TIFF's edge tiles are padded to the full
  /// tile size): what lies outside the image is not shown.
  public var width: Int
  public var height: Int

  /// Creates a piece.
  public init(data: Data, x: Int, y: Int, width: Int, height: Int) {
    self.data = data
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Writes a searchable PDF: each page's image unchanged, with an invisible
/// text layer (text render mode 3) in which every word lies on its box, so
/// a viewer's selection highlights the ink and search and copy work.
///
/// ## How the page is made
/// The page is the picture a viewer shows of the image (the model's page,
/// its orientation tag applied) at its resolution
/// (``ScanModel/PageResolution/resolution(of:)``): one pixel is 72 / dpi
/// points. An image stored turned (``PDFPageImage/orientation``) is drawn
/// turned into that frame by the matrix that places it (`cm`), its bytes
/// untouched. A page whose content was found turned (``ScanModel/Page/orientation``
/// 90, 180 or 270) gets `/Rotate` so that a viewer shows it upright; the
/// image and the layer are drawn in the unrotated page, so they turn
/// together. Content streams, the font and its maps are compressed
/// (Flate, zlib level 9); the font is stored once.
///
/// ## How words are placed
/// The font is Tesseract's glyphless font (`pdf.ttf`, a
/// CID font whose every glyph is empty and half an em wide, Identity-H
/// encoding with the UTF-16 code units as character codes and a ToUnicode
/// map that returns them). Each word is drawn on its own, flat in the
/// page's upright frame (the quarter turn nearest its baseline, so a word
/// on a turned page turns with `/Rotate`) over its ink's box
/// (``ScanModel/Word/bbox``): so Poppler, PyMuPDF and pdfminer.six all keep a
/// slanted or curved word whole, on its ink (see
/// ``textLayer(_:pixelToUser:font:)``). The words come in the model's
/// reading order, a space between the words of a line. In the PDFs this
/// type writes, the words of a paragraph of level lines share one size
/// (each in a copy of the font whose ascent keeps its box on its ink), so
/// that text extractors that group lines by font size, `pdftotext`'s
/// default output among them, read a page of columns column by column
/// (`AscentFonts`).
///
/// What a PDF cannot carry: glyph boxes, confidences, roles.
public enum SearchablePDF {
  /// One page to write: the model's page and its image.
  public struct PageInput: Sendable {
    public var page: Page
    public var image: PDFPageImage
    /// Creates a page input.
    public init(page: Page, image: PDFPageImage) {
      self.page = page
      self.image = image
    }
  }

  /// Errors that leave no PDF.
  public struct WriteError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// The PDF's bytes (``Writer`` writes the same PDF page by page).
  ///
  /// - Parameters:
  ///   - pages: The pages in order.
  ///   - font: The glyphless TrueType font (Tesseract's `pdf.ttf`).
  ///   - title: The document title (`/Title`).
  ///   - producer: The program that made it (`/Producer`).
  ///   - keepRotation: Whether a page whose content was found turned stays
  ///     as scanned (no `/Rotate`; `--keep-rotation`).
  /// - Throws: ``WriteError`` when a page image does not match its page's size.
  /// - Complexity: O(*n*) in the words of the pages and the image bytes.
  public static func data(
    pages: [PageInput], font: Data, title: String?, producer: String, keepRotation: Bool = false
  ) throws(WriteError) -> Data {
    var data = Data()
    var writer = Writer(font: font, title: title, producer: producer, keepRotation: keepRotation)
    for page in pages { data += try writer.add(page) }
    data += try writer.finish()
    return data
  }

  /// Writes a searchable PDF page by page, so that a long document is never
  /// held whole: ``add(_:)`` gives each page's objects (its image, content
  /// and text layer) as it comes, ``finish()`` the document's own (catalog,
  /// page tree, information, the glyphless font) and the cross-reference
  /// table. The bytes, joined in order, are the PDF.
  ///
  /// Objects: 1 catalog, 2 pages, 3 info, 4–9 the font (written last), then
  /// each page's in turn: the page, its content, its image (an image in
  /// pieces: one per piece), the image's ICC profile.
  public struct Writer {
    private var objects = ObjectWriter()
    private let font: Data
    private let title: String?
    private let producer: String
    private let keepRotation: Bool
    private var pageObjects: [Int] = []
    private var language: String?
    private var nextObject = 10
    /// The Type0 object of each copy of the font written, by its ascent
    /// (``SearchablePDF/AscentFonts``).
    private var ascentFonts: [Int: Int] = [:]
    /// The tags planned so far (`nil`: an untagged PDF, `--no-tags`).
    private var tags: PDFTags?
    /// Each page's structure elements, written at the end.
    private var pageElements: [PDFTags.PagePart] = []
    /// The PDF/A level to claim and its output intent's profile (`nil`:
    /// a plain PDF, `--output-type pdf`).
    private let archive: PDFArchive.Settings?
    /// The digest the file identifier (`/ID`) is made of: the title, each
    /// page's content and its image's size and checksum.
    private var identity = SHA256()

    /// Why the file, asked to be PDF/A, is written as plain PDF (the first
    /// page image PDF/A forbids:
    /// ``PDFArchive/imageBlocker(filter:colorSpace:bitsPerComponent:hasProfile:level:)``);
    /// `nil` when it is PDF/A or was not asked to be. Known once the page
    /// is added; the document's claim is written by ``finish()``.
    public private(set) var notArchivalReason: String?

    /// The PDF/A level the file claims once finished, `nil` for none.
    public var archivalLevel: PDFArchive.Level? {
      notArchivalReason == nil ? archive?.level : nil
    }

    /// Starts a PDF.
    /// - Parameters:
    ///   - font: The glyphless TrueType font (Tesseract's `pdf.ttf`).
    ///   - title: The document title (`/Title`).
    ///   - producer: The program that made it (`/Producer`).
    ///   - keepRotation: Whether a page whose content was found turned
    ///     stays as scanned (no `/Rotate`; `--keep-rotation`).
    ///   - tagged: Whether the PDF is tagged (its logical structure from
    ///     the model, `PDFTags`); `--no-tags` writes the plain layer.
    ///   - archive: The PDF/A level to claim (``PDFOutputType/level(tagged:)``)
    ///     and the output intent's ICC profile; `nil` for a plain PDF.
    public init(
      font: Data, title: String?, producer: String, keepRotation: Bool = false,
      tagged: Bool = true, archive: PDFArchive.Settings? = nil
    ) {
      self.font = font
      self.title = title
      self.producer = producer
      self.keepRotation = keepRotation
      self.tags = tagged ? PDFTags() : nil
      self.archive = archive
      identity.update(Array((title ?? "").utf8))
    }

    /// The number of pages added.
    public var pageCount: Int { pageObjects.count }

    /// The bytes of the next page's objects (the file's header before the
    /// first).
    /// - Throws: ``WriteError`` when the image does not match the page's size.
    /// - Complexity: O(*n*) in the page's words and the image's bytes.
    public mutating func add(_ input: PageInput) throws(WriteError) -> Data {
      let page = input.page
      let image = input.image
      let orientation = ImageOrientation(tag: image.orientation) ?? ImageOrientation.upright
      let shown =
        orientation.swapsSides ? (image.height, image.width) : (image.width, image.height)
      guard shown == (page.width, page.height) else {
        throw WriteError(
          description:
            "page \(pageObjects.count + 1): the image is \(shown.0)×\(shown.1) pixels, the model's page \(page.width)×\(page.height)"
        )
      }
      if pageObjects.isEmpty { language = page.accessibilityLanguage }
      let number = nextObject
      pageObjects.append(number)
      nextObject += 2
      let scale = 72.0 / Double(PageResolution.resolution(of: page))
      let w = Double(page.width) * scale
      let h = Double(page.height) * scale
      var pageObject = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(num(w)) \(num(h))]"
      if !keepRotation, let rotate = rotation(of: page) { pageObject += " /Rotate \(rotate)" }
      var marks: [PDFTags.Mark] = []
      var figures: [(mcid: Int, outline: [Point])] = []
      let pixelToUser = pixelToUser(page, scale: scale)
      if var tags {
        let plan = tags.plan(page, pixelToUser: pixelToUser)
        figures = plan.figures
        self.tags = tags
        marks = plan.marks
        pageElements.append(PDFTags.PagePart(plan))
        // The page's entry in the parent tree is its index; tab order
        // follows the structure.
        pageObject += " /StructParents \(pageObjects.count - 1) /Tabs /S"
      }
      // The image's XObjects: one, or one per piece.
      let pieces =
        image.pieces.isEmpty
        ? [PDFImagePiece(data: image.data, x: 0, y: 0, width: image.width, height: image.height)]
        : image.pieces
      var xobjects: [Int] = []
      for _ in pieces {
        xobjects.append(nextObject)
        nextObject += 1
      }
      let names = xobjects.enumerated().map { "/Im\($0.offset) \($0.element) 0 R" }
      let drawing = imageContent(
        image, pieces: pieces, orientation: orientation, pixelToUser: pixelToUser)
      var picture = drawing
      // The scan is the background of the text the tags carry: an
      // artifact, so that a reader does not announce it as a figure.
      if tags != nil { picture = "/Artifact BMC\n" + picture + "EMC\n" }
      // A figure's part of the image, drawn again over the artifact inside
      // the figure's outline, is the figure's content (the same pixels on
      // the same pixels: the page looks the same).
      for figure in figures { picture += PDFTags.figureContent(figure, drawing: drawing) }
      let layer = textLayer(
        page, pixelToUser: pixelToUser, font: "F0", marks: marks, sharingSizes: true)
      let content = picture + layer.content
      // The font and the copies of it the layer names (each written once,
      // at its first page).
      var fonts = ["/F0 4 0 R"]
      for ascent in layer.ascents.sorted() {
        let type0 = ascentFonts[ascent] ?? nextObject
        if ascentFonts[ascent] == nil {
          ascentFonts[ascent] = type0
          nextObject += 3
          objects.object(
            type0, GlyphlessFont.type0(cidFont: "\(type0 + 1) 0 R", toUnicode: "8 0 R"))
          objects.object(
            type0 + 1,
            GlyphlessFont.cidFont(descriptor: "\(type0 + 2) 0 R", cidToGIDMap: "7 0 R"))
          objects.object(type0 + 2, GlyphlessFont.descriptor(fontFile: "9 0 R", ascent: ascent))
        }
        fonts.append("/\(AscentFonts.name("F0", ascent: ascent)) \(type0) 0 R")
      }
      objects.object(
        number,
        pageObject
          + " /Resources << /XObject << \(names.joined(separator: " ")) >> /Font << \(fonts.joined(separator: " ")) >> >> /Contents \(number + 1) 0 R >>"
      )
      identity.update(Array(content.utf8))
      objects.compressedStream(
        number + 1, dictionary: "", data: Data(content.utf8), padding: true)
      if let archive, notArchivalReason == nil,
        let reason = PDFArchive.imageBlocker(
          filter: image.filter, colorSpace: image.colorSpace,
          bitsPerComponent: image.bitsPerComponent,
          hasProfile: image.iccProfile.map { ICCProfile.components($0) != nil } ?? false,
          level: archive.level)
      {
        notArchivalReason = "page \(pageObjects.count) has \(reason)"
      }
      var colorSpace = image.colorSpace
      if let profile = image.iccProfile, let components = ICCProfile.components(profile) {
        // The device space the profile stands for, for readers without
        // colour management.
        objects.compressedStream(
          nextObject, dictionary: "/N \(components) /Alternate \(image.colorSpace)", data: profile)
        colorSpace = "[/ICCBased \(nextObject) 0 R]"
        nextObject += 1
      }
      for (piece, object) in zip(pieces, xobjects) {
        identity.update(Array("\(piece.data.count) \(Deflate.checksum(piece.data))".utf8))
        var dictionary =
          "/Type /XObject /Subtype /Image /Width \(piece.width) /Height \(piece.height) /BitsPerComponent \(image.bitsPerComponent) /ColorSpace \(colorSpace) /Filter /\(image.filter)"
        if let parms = image.decodeParms { dictionary += " /DecodeParms \(parms)" }
        if let decode = image.decode { dictionary += " /Decode \(decode)" }
        objects.stream(object, dictionary: dictionary, data: piece.data)
      }
      return objects.take()
    }

    /// The bytes after the last page: the document's objects and the
    /// cross-reference table.
    /// - Throws: ``WriteError`` when no page was added.
    public mutating func finish() throws(WriteError) -> Data {
      guard !pageObjects.isEmpty else { throw WriteError(description: "no page to write") }
      var catalog = "<< /Type /Catalog /Pages 2 0 R"
      if let language { catalog += " /Lang \(literal(language))" }
      let level = archivalLevel
      if let archive, level != nil {
        // The output intent: the device space of the page images' gray and
        // RGB and of the text.
        let profile = nextObject
        nextObject += 1
        objects.compressedStream(
          profile, dictionary: PDFArchive.profileDictionary, data: archive.outputProfile)
        catalog += " /OutputIntents \(PDFArchive.outputIntents(profile: "\(profile) 0 R"))"
      }
      if tags != nil {
        let root = writeStructure()
        catalog += " /MarkInfo << /Marked true >> /StructTreeRoot \(root) 0 R"
        if title != nil { catalog += " /ViewerPreferences << /DisplayDocTitle true >>" }
      }
      if tags != nil || level != nil {
        let metadata = nextObject
        nextObject += 1
        // Unfiltered, as readers that scan a file for its XMP expect.
        objects.stream(
          metadata, dictionary: "/Type /Metadata /Subtype /XML",
          data: Data(
            XMPMetadata.packet(title: title, producer: producer, pdfUA: tags != nil, archive: level)
              .utf8))
        catalog += " /Metadata \(metadata) 0 R"
      }
      objects.object(1, catalog + " >>")
      objects.object(
        2,
        "<< /Type /Pages /Count \(pageObjects.count) /Kids [\(pageObjects.map { "\($0) 0 R" }.joined(separator: " "))] >>"
      )
      var info = "<< /Producer \(literal(producer))"
      if let title { info += " /Title \(literal(title))" }
      objects.object(3, info + " >>")
      objects.object(4, GlyphlessFont.type0(cidFont: "5 0 R", toUnicode: "8 0 R"))
      objects.object(5, GlyphlessFont.cidFont(descriptor: "6 0 R", cidToGIDMap: "7 0 R"))
      objects.object(6, GlyphlessFont.descriptor(fontFile: "9 0 R"))
      objects.compressedStream(7, dictionary: "", data: GlyphlessFont.cidToGIDMap)
      objects.compressedStream(
        8, dictionary: "", data: GlyphlessFont.toUnicodeCMap, padding: true)
      objects.compressedStream(9, dictionary: "/Length1 \(font.count)", data: font)
      var digest = identity
      let id = "<" + SHA256.hex(digest.finalize().prefix(16)) + ">"
      return objects.finish(root: 1, info: 3, id: id)
    }

    /// Writes the structure tree (``PDFTags/objects(pages:pageReferences:count:allocate:)``)
    /// and returns the tree root's object number.
    private mutating func writeStructure() -> Int {
      var next = nextObject
      let written = PDFTags.objects(
        pages: pageElements, pageReferences: pageObjects.map { "\($0) 0 R" },
        count: pageObjects.count
      ) { count in
        defer { next += count }
        return (next..<(next + count)).map { "\($0) 0 R" }
      }
      nextObject = next
      for (reference, value) in written.objects {
        objects.object(Int(reference.prefix { $0 != " " }) ?? 0, value.text)
      }
      pageElements = []
      return Int(written.root.prefix { $0 != " " }) ?? 0
    }
  }

  /// The `/Rotate` that shows a page upright whose content was found
  /// turned clockwise by ``ScanModel/Page/orientation`` degrees (a viewer
  /// turns the page clockwise by `/Rotate`); `nil` for an upright page.
  static func rotation(of page: Page) -> Int? {
    let turned = ((page.orientation % 360) + 360) % 360
    guard turned % 90 == 0, turned != 0 else { return nil }
    return 360 - turned
  }

  /// The map from a page's pixels to the user space of a PDF page that is
  /// the page at `scale` points per pixel (y up).
  static func pixelToUser(_ page: Page, scale: Double) -> ScanModel.AffineTransform {
    ScanModel.AffineTransform(
      a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: Double(page.height) * scale)
  }

  /// The content that draws a page's image: `q <matrix> cm /Im0 Do Q`
  /// for an image in one piece; for pieces, each piece drawn where it lies
  /// (`/Im0`, `/Im1`, … in order), inside the image's rectangle (a clip:
  /// the padding of edge tiles is not shown).
  ///
  /// Each piece's matrix is given in user space, not in the image's unit
  /// square: a piece's fraction of the image (128 / 2626) written with
  /// four decimals would be off by a tenth of a pixel at the far edge,
  /// while a matrix in points, the same four decimals, is off by less than
  /// a thousandth of one.
  ///
  /// Seams: a viewer that smooths the edges of what it draws (Cairo,
  /// pdf.js) covers the device pixel a shared edge crosses partly by each
  /// piece, and lets the paper show through: measured with `pdftocairo`
  /// on `indian-ferns-0004.tif` (21 columns) against the same pixels in
  /// one image, columns lighter by 3–8 levels on average and by up to 56
  /// in places at 72, 100 and 217 dpi (none at 150 and 300, where the
  /// edges fall between device pixels). So each piece with a neighbour on
  /// its right or below is first drawn stretched over that neighbour by
  /// ``seamOverlap`` points, under all the pieces drawn exactly: the
  /// paper no longer shows (seam columns within 0.7 levels of the one
  /// image, like the rest of the page), and what shows of the stretched
  /// copy is a point from where it belongs, in the one device pixel the
  /// edge crosses.
  static func imageContent(
    _ image: PDFPageImage, pieces: [PDFImagePiece], orientation: ImageOrientation,
    pixelToUser: ScanModel.AffineTransform
  ) -> String {
    func matrix(_ piece: PDFImagePiece) -> String {
      imageMatrix(image, piece: piece, orientation: orientation, pixelToUser: pixelToUser)
        .map(num).joined(separator: " ")
    }
    guard image.pieces.isEmpty else {
      // The image's rectangle in user space (upright: orientations turn
      // by quarter turns).
      let m = imageMatrix(
        image,
        piece: PDFImagePiece(data: Data(), x: 0, y: 0, width: image.width, height: image.height),
        orientation: orientation, pixelToUser: pixelToUser)
      let xs = [m[4], m[4] + m[0], m[4] + m[2], m[4] + m[0] + m[2]]
      let ys = [m[5], m[5] + m[1], m[5] + m[3], m[5] + m[1] + m[3]]
      let x = xs.min() ?? 0
      let y = ys.min() ?? 0
      let w = (xs.max() ?? 0) - x
      let h = (ys.max() ?? 0) - y
      let o = seamOverlap
      // The stretched copies are kept off the image's outer edges: a
      // device pixel the edge crosses would get both copies, darker than
      // the image drawn once.
      var out = "q \(num(x)) \(num(y)) \(num(w)) \(num(h)) re W n\n"
      out += "q \(num(x + o)) \(num(y + o)) \(num(w - 2 * o)) \(num(h - 2 * o)) re W n\n"
      // The overlap in the image's pixels (the page's scale is the same
      // both ways).
      let overlap = o / (m[0] * m[0] + m[1] * m[1]).squareRoot() * Double(image.width)
      for (i, piece) in pieces.enumerated() {
        let right = piece.x + piece.width < image.width
        let below = piece.y + piece.height < image.height
        guard right || below else { continue }
        var stretched = piece
        stretched.width += right ? Int(overlap.rounded(.up)) : 0
        stretched.height += below ? Int(overlap.rounded(.up)) : 0
        out += "q \(matrix(stretched)) cm /Im\(i) Do Q\n"
      }
      out += "Q\n"
      for (i, piece) in pieces.enumerated() { out += "q \(matrix(piece)) cm /Im\(i) Do Q\n" }
      return out + "Q\n"
    }
    return "q \(matrix(pieces[0])) cm /Im0 Do Q\n"
  }

  /// How far, in points, a piece of an image is drawn over its neighbours
  /// under the exact pieces: one device pixel at 72 dpi (see
  /// ``imageContent(_:pieces:orientation:pixelToUser:)``).
  static let seamOverlap = 1.0

  /// The matrix (`cm`) that draws an image XObject, whose samples fill the
  /// unit square (the first stored row at the top), onto the page: each
  /// stored pixel where the orientation tag puts it in the page's picture,
  /// then into user space.
  /// - Parameter piece: The part of the image the XObject holds (the
  ///   whole image, or one of its ``PDFPageImage/pieces``).
  static func imageMatrix(
    _ image: PDFPageImage, piece: PDFImagePiece, orientation: ImageOrientation,
    pixelToUser: ScanModel.AffineTransform
  ) -> [Double] {
    let w = Double(image.width)
    let h = Double(image.height)
    // The unit square's point (u, v) is the stored pixel
    // (x + u·width, y + (1 − v)·height) of the piece.
    func place(_ u: Double, _ v: Double) -> Point {
      let p = orientation.shown(
        x: Double(piece.x) + u * Double(piece.width),
        y: Double(piece.y) + (1 - v) * Double(piece.height), width: w, height: h)
      return pixelToUser.apply(to: Point(x: p.x, y: p.y))
    }
    // An affine map is known by where it sends three points.
    let origin = place(0, 0)
    let x = place(1, 0)
    let y = place(0, 1)
    return [x.x - origin.x, x.y - origin.y, y.x - origin.x, y.y - origin.y, origin.x, origin.y]
  }

  /// The invisible text of a page: one `BT … ET` (text render mode 3) with
  /// every word placed on its ink.
  ///
  /// Each word is written flat in the page's upright frame (the quarter
  /// turn nearest its baseline, so a word on a page turned by 90°, 180° or
  /// 270° reads upright once `/Rotate` turns the page), over its ink's box
  /// (``ScanModel/Word/bbox``) along the line, at its line's size across, centred on
  /// its ink; a space glyph after every word but the line's last.
  ///
  /// Why flat, measured with `Tools/check/pdf-layer-readers` over the three
  /// readers (Poppler's `pdftotext`, PyMuPDF, pdfminer.six) on generated
  /// pages (`clean.png` skewed by ±8°, `skew-plus7`, `skew-minus5`, the
  /// turned samples, `photo-curl`, photo seeds 1000–1001, misc 1000) and
  /// real ones (`boston-cooking-a`, `linn`, `cardinal-2`,
  /// `phototest-rotated-R`): a word drawn along its slanted baseline (one
  /// text matrix rotated with the word) is cut into letters by Poppler,
  /// which starts a new word when a glyph's baseline moves by more than
  /// half a device unit (a point in `pdftotext`): 63 of 136 words whole on
  /// `clean.png` at +8°, 94 of 139 on `photo-curl`, while PyMuPDF and
  /// pdfminer keep them. Slanted glyphs cannot step along a slanted
  /// baseline by less than that (Poppler also cuts glyphs that advance by
  /// less than a tenth of the font size: a duplicate), so the baseline is
  /// made flat: every reader then finds every word whole on those pages.
  /// A word set across the page's lines and a word whose glyphs would be
  /// too close for Poppler are written otherwise: see
  /// `wordOperators(_:spaceAfter:pixelToUser:font:pageTurns:)`.
  ///
  /// A reader's word box is upright (the hull of its glyphs), so the word
  /// is drawn over its ink's upright box, the box the model gives it: along
  /// the line the ink's extent (not the outline's, which on a slanted word
  /// reaches into the gap and joins words in Poppler's `-raw` output),
  /// across it the ink's height: every reader's box is then the model's
  /// box. Tried and left: the line's size across (the median of its words'
  /// heights, so that a line's words share a font size, kept within
  /// 0.55–1.8 × the word's ink height so that IoU stays above 0.55). The
  /// same words were found whole; five-word phrases across a line break
  /// in `pdftotext`'s default (reading-order) output came out 9 of 9
  /// instead of 7 on `rotated-270`, 14 of 31 instead of 6 on
  /// `boston-cooking-a`, but 36 of 39 instead of 37 on `cardinal-2`, 22 of
  /// 25 instead of 23 on misc 1000; in `pdftotext -raw` (content order)
  /// the same either way. Not enough to give up boxes that are the
  /// model's own.
  ///
  /// - Parameters:
  ///   - page: The page; its words' outlines are in its pixels.
  ///   - m: The map from the page's pixels to the PDF page's user space
  ///     (points, y up), where the layer is drawn.
  ///   - font: The resource name of the glyphless font (without its slash).
  /// - Returns: Content-stream operators, ending with a newline.
  /// - Complexity: O(*n*) in the page's characters.
  public static func textLayer(_ page: Page, pixelToUser m: ScanModel.AffineTransform, font: String)
    -> String
  {
    textLayer(page, pixelToUser: m, font: font, marks: [])
  }

  /// The invisible text of a page, each word in the marked content its
  /// mark says (``PDFTags``; none when `marks` is empty).
  package static func textLayer(
    _ page: Page, pixelToUser m: ScanModel.AffineTransform, font: String, marks: [PDFTags.Mark]
  ) -> String {
    textLayer(page, pixelToUser: m, font: font, marks: marks, sharingSizes: false).content
  }

  /// The invisible text of a page, each word in the marked content its
  /// mark says, and the ascents of the copies of the font it uses.
  ///
  /// With `sharingSizes`, the words of a paragraph of level lines share
  /// one size (``sharedSize(of:in:)``), each set in the copy of the font
  /// whose ascent makes its box its ink's (``AscentFonts``): the text
  /// extractors that group words into lines and lines into blocks by font
  /// size then read a column as one block. Without it, each word is set in
  /// its ink's height, in the font itself (the layer a PDF input is given,
  /// whose pages get the font alone).
  ///
  /// - Returns: The content-stream operators, and the ascents (thousandths
  ///   of the size, other than 1000) of the font copies they name
  ///   (``AscentFonts/name(_:ascent:)``).
  /// - Complexity: O(*n*) in the page's characters.
  package static func textLayer(
    _ page: Page, pixelToUser m: ScanModel.AffineTransform, font: String, marks: [PDFTags.Mark],
    sharingSizes: Bool
  ) -> (content: String, ascents: Set<Int>) {
    var out = "BT\n3 Tr\n"
    var ascents: Set<Int> = []
    var marked = MarkedContent(marks)
    var wordNumber = 0
    // Where a line ends in a hyphen that breaks a word (no space after it).
    let hyphens = Set(page.hyphenBreaks.map(\.hyphen.upperBound.offset))
    // Each paragraph's shared size.
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    let shared = paragraphs.map { sharingSizes ? sharedSize(of: $0, in: page) : nil }
    let step = AscentFonts.step(largestSize: shared.compactMap { $0 }.max() ?? 0)
    for (paragraph, shared) in zip(paragraphs, shared) {
      for (k, line) in paragraph.lines.enumerated() {
        for (i, word) in line.words.enumerated() {
          out += marked.enter(word: wordNumber)
          wordNumber += 1
          // A space after every word keeps the words apart when text is
          // extracted in stream order (a tagged PDF's elements, copied
          // text), a line's last word included unless its paragraph ends
          // there or it ends in a hyphen that breaks a word.
          let last = i + 1 == line.words.count
          let spaced =
            !last
            || (k + 1 < paragraph.lines.count
              && !hyphens.contains(word.range.upperBound.offset))
          let hyphen = marked.hyphen(ofWord: wordNumber - 1)
          let drawn = wordOperators(
            word, spaceAfter: spaced, pixelToUser: m, font: font,
            pageTurns: page.orientation / 90, hyphen: hyphen,
            sharedSize: shared.map { (pixels: $0, step: step) })
          if let ascent = drawn.ascent { ascents.insert(ascent) }
          // A word not drawn (no text or ink) still opens its hyphen's
          // marked content, which the structure holds.
          out += drawn.operators.isEmpty ? hyphen?.operators ?? "" : drawn.operators
        }
      }
    }
    return (out + marked.close() + "ET\n", ascents)
  }

  /// The size across, in the page's pixels, that the words of a paragraph
  /// share, or `nil` when each word keeps its ink's height.
  ///
  /// Poppler (`pdftotext`'s default output, what search indexers run)
  /// builds a block from a word by adding the words of the lines above and
  /// below whose baselines lie within 1.5 font sizes of the block's edge
  /// and whose font size is within 5 % of the block's first word's
  /// (`maxLineSpacingDelta`, `maxBlockFontSizeDelta1` in
  /// `TextOutputDev.cc`). A word set in its ink's height (`a` half as tall
  /// as `Engineers`) is never within 5 % of its neighbours, and a line
  /// pitch is more than 1.5 times most words' heights, so no block grew
  /// past a word or two and Poppler read two columns line across line.
  /// A paragraph of two lines or more, on an upright page, whose lines
  /// and words are level (no quad: a slanted or curled line's words lie on
  /// several baselines, and are left as they were) shares the size
  /// `pitch / 1.45`, its median line pitch (bottom to bottom) over
  /// Poppler's 1.5 with a margin: every line then joins the block, and
  /// paragraphs of the same pitch share the size exactly.
  ///
  /// - Parameters:
  ///   - paragraph: The paragraph.
  ///   - page: Its page (only an upright page's paragraphs share a size).
  /// - Returns: The size in pixels, or `nil`.
  /// - Complexity: O(*l* log *l*) in the paragraph's lines, plus O(*w*) in its words.
  static func sharedSize(of paragraph: Paragraph, in page: Page) -> Double? {
    guard page.orientation == 0, paragraph.lines.count >= 2 else { return nil }
    for line in paragraph.lines {
      guard line.quad == nil, line.polygon == nil, line.words.allSatisfy({ $0.quad == nil })
      else { return nil }
    }
    let bottoms = paragraph.lines.map { Double($0.bbox.maxY) }
    let pitches = zip(bottoms, bottoms.dropFirst()).map { $1 - $0 }.sorted()
    // Lines one below the other, in order.
    guard let least = pitches.first, least > 0 else { return nil }
    return pitches[pitches.count / 2] / lineSpacingShare
  }

  /// A paragraph's line pitch over its shared size: under Poppler's 1.5
  /// (the farthest apart, in font sizes, two lines of a block lie), with a
  /// margin for lines a pixel or two farther apart than the median.
  static let lineSpacingShare = 1.45

  /// The copies of the glyphless font a layer whose paragraphs share a size
  /// uses, one per ascent.
  ///
  /// A word set in its paragraph's shared size *s* while its ink is *h*
  /// tall is drawn in a copy of the font whose descriptor's `/Ascent` is
  /// *h* / *s* (Poppler and MuPDF bound a glyph from its baseline up by the
  /// ascent times the size; the baseline is the ink's bottom), so that
  /// their word boxes stay the ink's. Ascents are rounded to a grid
  /// (``step(largestSize:)``: a box within ``tolerance`` pixels of the
  /// ink, and few copies: three small objects each, the font file and its
  /// maps shared; 4–8 copies on the sample pages).
  /// pdfminer.six bounds a glyph by the size itself, so its boxes are the
  /// shared size tall, from the ink's bottom.
  package enum AscentFonts {
    /// The most a word's box may be off its ink across the line, in the
    /// page's pixels, for want of a copy of the font of its own: the grid
    /// of ascents is as coarse as that allows (each copy costs three
    /// objects, about 0.5 kB), and well within the pixel that the
    /// suite's box checks allow (2).
    static let tolerance = 1.2

    /// The ink heights, as shares of the shared size, of the words set in
    /// it: pdfminer.six's box is the size tall, so the intersection over
    /// union of its box and the ink is the smaller over the larger.
    static let shares = 0.5...2.0

    /// The grid step, in thousandths of the size, for a page whose
    /// largest shared size is `size` pixels: a box is off by at most half
    /// a step times its size, ``tolerance`` at the largest.
    /// - Complexity: O(1).
    static func step(largestSize size: Double) -> Int {
      size > 0 ? max(1, Int(2000 * tolerance / size)) : 1000
    }

    /// The ascent, in thousandths of the size, nearest `share` (ink
    /// height over size) on the grid of `step` through 1000, within PDF
    /// readers' sane range (Poppler takes 1–2999).
    /// - Complexity: O(1).
    static func ascent(share: Double, step: Int) -> Int {
      let k = ((1000 * share - 1000) / Double(step)).rounded()
      return min(2999, max(1, 1000 + Int(k) * step))
    }

    /// The resource name of the copy with `ascent` (the font's own name
    /// for 1000).
    /// - Complexity: O(1).
    package static func name(_ font: String, ascent: Int) -> String {
      ascent == 1000 ? font : "\(font)A\(ascent)"
    }
  }

  /// The operators that draw one word (a text matrix and its `Tj`), or
  /// nothing for a word without text or ink. One word per call, so that a
  /// caller can wrap each in marked content.
  ///
  /// Two kinds of word are written otherwise than flat along their
  /// baseline (measured with `Tools/check/pdf-layer-readers` on
  /// `boston-cooking-a` and `linguistics-thesis-a`, and on a page made by
  /// hand with words of 2–37 letters set up, down and across):
  ///
  /// - **Glyphs too close for Poppler.** Poppler takes a glyph that starts
  ///   within a tenth of the font size of the one before *and repeats it*
  ///   for a duplicate (fake bold) and drops it; so does MuPDF. A word whose
  ///   ink is far longer across its baseline than along it (a rule
  ///   Tesseract read as 37 letters, 15 × 273 pixels: glyphs 0.07 pt apart
  ///   at a size of 66 pt) cannot be kept whole along its baseline, so when
  ///   its glyphs would advance by less than ``minimumAdvance`` times the
  ///   size across, one letter repeats the one before, and turning the word
  ///   a quarter gives them more room, it is written along its long side.
  ///   Distinct letters that close stay flat: every reader keeps them (a
  ///   word squeezed by recognition into a 4 × 61 px sliver, `the` on
  ///   `dibco11-pr3`, or `ruled` 1.2 px apart at 120 px), whereas turned
  ///   across its line pdfminer.six read it letter by letter.
  /// - **Words across the page's lines** (set vertically on a page of
  ///   horizontal lines, once `/Rotate` shows it upright): pdfminer.six's
  ///   default layout analysis (`LAParams()`, `detect_vertical` off) puts
  ///   two characters on one line only when their upright boxes overlap
  ///   vertically by more than half the smaller one's height, so glyphs set
  ///   one below the other come out one letter a line (the 30 noise words
  ///   in `boston-cooking-a`'s margin: pdfminer 438 of 468 words whole).
  ///   Such a word is sheared: the text matrix's vertical (across) axis
  ///   leans back along the word by ``acrossLean`` glyph advances, so each
  ///   glyph's box, as pdfminer bounds it, reaches over the glyph before and
  ///   consecutive glyphs overlap by more than half their height; the
  ///   run is shortened by half the lean at each end, so the glyphs'
  ///   hull still spans the ink. Poppler bounds a glyph by the font size
  ///   (the across axis's length) and its advance, not by its outline, so
  ///   the across axis keeps its length (the word's size across) where the
  ///   lean allows it, the part square to the word shrinking to at least
  ///   0.6 of it (pdfminer's box across). Tried first and left: a negative
  ///   character spacing (`Tc`) that overlaps the glyphs; pdfminer kept the
  ///   words, but Poppler bounds a glyph by its width in the font, not by
  ///   its advance, and starts a new word where glyphs overlap: 2 of 6
  ///   words whole.
  ///
  /// - Parameters:
  ///   - word: The word; its outline and box are in the page's pixels.
  ///   - spaceAfter: Whether a space glyph follows the word (every word
  ///     but a paragraph's last and a line's last that ends in a breaking
  ///     hyphen): readers that split at spaces keep the words apart, and
  ///     text extracted in content order (a tagged PDF's elements, a copy)
  ///     has its spaces.
  ///   - m: The map from the page's pixels to user space.
  ///   - font: The resource name of the glyphless font.
  ///   - pageTurns: The quarter turns of the page's content
  ///     (``ScanModel/Page/orientation`` / 90): a word is across the
  ///     page's lines when its own quarter turn and the page's differ by
  ///     an odd number.
  ///   - hyphen: For a word that ends in a hyphen breaking it, the
  ///     hyphen's length in UTF-16 code units and the operators written
  ///     before it (its marked content): the word's glyphs are then two
  ///     strings, in the same place.
  ///   - sharedSize: The size across, in the page's pixels, of the word's
  ///     paragraph (``sharedSize(of:in:)``) and the page's grid of ascents
  ///     (``AscentFonts/step(largestSize:)``), or `nil`: a flat word along
  ///     the page's lines is then set in that size, in the copy of the
  ///     font whose ascent keeps its box on its ink (``AscentFonts``).
  /// - Returns: The operators, and the ascent of the font copy they name
  ///   (`nil` for the font itself).
  static func wordOperators(
    _ word: Word, spaceAfter: Bool, pixelToUser m: ScanModel.AffineTransform, font: String,
    pageTurns: Int = 0, hyphen: (units: Int, operators: String)? = nil,
    sharedSize: (pixels: Double, step: Int)? = nil
  ) -> (operators: String, ascent: Int?) {
    // White space Tesseract read into a word (` §` on `bengel-abriss`) has
    // no ink: spread over the ink, it pushed the word's glyphs off it (every
    // reader's `§` box half the model's). The space after the word is the
    // layer's own.
    let units = Array(word.text.trimmingCharacters(in: .whitespacesAndNewlines).utf16)
    guard !units.isEmpty else { return ("", nil) }
    let text = spaceAfter ? units + [0x20] : units
    // The upright frame: the quarter turn nearest the word's baseline
    // (reading direction d, up u, whole numbers so a flat word stays
    // exactly flat).
    let q = word.corners
    let start = m.apply(to: q.bottomLeft)
    let end = m.apply(to: q.bottomRight)
    var turns = Int((atan2(end.y - start.y, end.x - start.x) / (Double.pi / 2)).rounded())
    // The same in the page's pixels (user space may be turned by the
    // page's `/Rotate`: a scanned PDF's page), where `pageTurns` is.
    let baseline = (x: q.bottomRight.x - q.bottomLeft.x, y: q.bottomRight.y - q.bottomLeft.y)
    var pixelTurns = Int((atan2(baseline.y, baseline.x) / (Double.pi / 2)).rounded())
    let ink = Quad(word.bbox.rect)
    let corners = [ink.topLeft, ink.topRight, ink.bottomRight, ink.bottomLeft].map {
      m.apply(to: $0)
    }
    guard var frame = WordFrame(turns: turns, corners: corners) else { return ("", nil) }
    let count = Double(units.count)
    // Glyphs too close for Poppler and MuPDF, one the same as the one
    // before: the word along its long side instead.
    if frame.length / count < minimumAdvance * frame.size,
      zip(units, units.dropFirst()).contains(where: { $0 == $1 }),
      let turned = WordFrame(turns: turns - 1, corners: corners),
      turned.length / count / turned.size > frame.length / count / frame.size
    {
      frame = turned
      turns -= 1
      pixelTurns -= 1
    }
    let (d, u) = (frame.d, frame.u)
    let length = frame.length
    let size = frame.size
    guard length > 0, size > 0 else { return ("", nil) }
    // Across the page's lines (and more than one glyph): sheared, unless
    // the lean would widen Poppler's box past the word (a sliver).
    let acrossLines =
      units.count >= 2 && (pixelTurns - pageTurns) % 2 != 0
      && acrossLean * length / (count + acrossLean / 2) <= maximumLean * size
    let lean = acrossLines ? acrossLean : 0
    // Each glyph advances by `step`; the across axis leans back by `lean`
    // steps; the run starts half a lean in, so the glyphs' hull (leaning
    // back half a lean before the first) spans the ink.
    let step = length / (count + lean / 2)
    let back = lean * step
    let square = acrossLines ? max(0.6, (1 - (back / size) * (back / size)).squareRoot()) : 1
    let start0 = frame.a0 + back / 2
    let side0 = frame.c0 + size * (1 - square) / 2
    let origin = (x: d.x * start0 + u.x * side0, y: d.y * start0 + u.y * side0)
    // Glyphs are half an em wide: the word's own characters span its ink;
    // the space after it has the same width and lies beyond it.
    let stretch = step / 0.5
    var across = size * square
    var ascent: Int?
    // A flat word along the page's lines in a paragraph that shares a
    // size: that size, in the font copy whose ascent is the ink's share of
    // it (its baseline, the ink's bottom, stays where it was).
    // pdfminer.six bounds the glyphs by the size itself, so a word whose
    // ink is less than half or more than twice the shared size (a dash, a
    // sliver of noise, a rule) keeps its own, so that its box there stays
    // on its ink (intersection over union 0.5 or more).
    if let sharedSize, sharedSize.pixels > 0, !acrossLines, turns == 0,
      pixelTurns == pageTurns, word.bbox.height > 0,
      AscentFonts.shares.contains(Double(word.bbox.height) / sharedSize.pixels)
    {
      let share = Double(word.bbox.height) / sharedSize.pixels
      let shared = AscentFonts.ascent(share: share, step: sharedSize.step)
      across = size / share
      if shared != 1000 { ascent = shared }
    }
    let up = (x: u.x * across - d.x * back, y: u.y * across - d.y * back)
    let name = AscentFonts.name(font, ascent: ascent ?? 1000)
    var out =
      "/\(name) 1 Tf \(num(d.x * stretch)) \(num(d.y * stretch)) \(num(up.x)) \(num(up.y)) \(num(origin.x)) \(num(origin.y)) Tm <"
    // The hyphen, when it has marked content of its own, is a second
    // string: the text position the first leaves is where it starts.
    let split = hyphen.map { max(0, units.count - $0.units) } ?? text.count
    for unit in text[..<split] { out += hex4(unit) }
    out += "> Tj\n"
    if let hyphen {
      out += hyphen.operators
      if split < text.count {
        out += "<"
        for unit in text[split...] { out += hex4(unit) }
        out += "> Tj\n"
      }
    }
    return (out, ascent)
  }

  /// The least advance of a word's glyphs, as a share of its size across,
  /// that Poppler keeps: it drops a glyph that starts within 0.1 of the
  /// font size of the one before as a duplicate (`dupMaxPriDelta` in
  /// `TextOutputDev.cc`); a fifth more, so that rounding never decides.
  /// Real words are far above it (a line of `l`s about 0.2).
  static let minimumAdvance = 0.12

  /// How far, in glyph advances, the across axis of a word set across the
  /// page's lines leans back along the word: pdfminer.six joins two glyphs
  /// into a line when their boxes overlap vertically by more than half
  /// their height, that is when the lean exceeds one advance; a quarter
  /// more for rounding.
  static let acrossLean = 1.25

  /// The longest lean, as a share of the word's size across, that leaves
  /// Poppler's box as it was: Poppler bounds a glyph across by the font
  /// size, the across axis's length, so the axis keeps the word's size
  /// (its part square to the word, 0.6 of the size or more, is what
  /// pdfminer.six bounds), which a lean of up to 0.8 of the size allows.
  /// Measured on `boston-cooking-a`: with leans up to 1.1 of the size
  /// (the axis up to 1.25 × the size) Poppler lost 3 of the 386 words it
  /// had found (pdfminer gained 3 more). A word whose glyphs are spaced
  /// wider than that (a sliver of noise: `enc` read in a 7 × 62 pixel
  /// streak, glyphs 2.8 times as far apart as the streak is wide) is
  /// written flat: Poppler and PyMuPDF keep it whole, pdfminer.six reads it
  /// letter by letter. Tried for slivers and left: a second font whose
  /// descriptor has a smaller ascent, which narrows Poppler's box across
  /// but PyMuPDF's too (4 of 9 words whole on a test page).
  static let maximumLean = 0.8

  /// A word's ink box in the upright frame of a quarter turn: reading
  /// direction `d`, up `u`, the box's extent along (`a0`…) and across
  /// (`c0`…).
  private struct WordFrame {
    var d: (x: Double, y: Double)
    var u: (x: Double, y: Double)
    var a0: Double
    var length: Double
    var c0: Double
    var size: Double

    init?(turns: Int, corners: [Point]) {
      let d: (x: Double, y: Double) = [(1, 0), (0, 1), (-1, 0), (0, -1)][((turns % 4) + 4) % 4]
      let u = (x: -d.y, y: d.x)
      self.d = d
      self.u = u
      let along = corners.map { $0.x * d.x + $0.y * d.y }
      let across = corners.map { $0.x * u.x + $0.y * u.y }
      guard let a0 = along.min(), let a1 = along.max(), let c0 = across.min(),
        let c1 = across.max()
      else { return nil }
      self.a0 = a0
      length = a1 - a0
      self.c0 = c0
      size = c1 - c0
    }
  }

  static let toUnicodeCMap = """
    /CIDInit /ProcSet findresource begin
    12 dict begin
    begincmap
    /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
    /CMapName /Adobe-Identity-UCS def
    /CMapType 2 def
    1 begincodespacerange
    <0000> <FFFF>
    endcodespacerange
    1 beginbfrange
    <0000> <FFFF> <0000>
    endbfrange
    endcmap
    CMapName currentdict /CMap defineresource pop
    end
    end

    """

  /// A number as PDF writes it: at most 4 decimals, no exponent.
  static func num(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let rounded = (v * 10_000).rounded() / 10_000
    if rounded == rounded.rounded() || abs(rounded) >= FormatNumbers.wholeLimit {
      return String(FormatNumbers.whole(rounded))
    }
    var s = String(format: "%.4f", rounded)
    while s.hasSuffix("0") { s.removeLast() }
    return s
  }

  static func hex4(_ unit: UInt16) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([
      digits[Int(unit >> 12)], digits[Int((unit >> 8) & 15)], digits[Int((unit >> 4) & 15)],
      digits[Int(unit & 15)],
    ])
  }

  /// A PDF text string: UTF-16BE with a byte-order mark, in hex.
  package static func literal(_ s: String) -> String {
    "<FEFF" + s.utf16.map(hex4).joined() + ">"
  }
}

/// Numbered objects and streams, and the cross-reference table at the end.
///
/// The bytes are taken out as they are written (``take()``), so a long
/// document passes through; offsets count from the file's start.
private struct ObjectWriter {
  var data = Data("%PDF-1.5\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
  var offsets: [Int: Int] = [:]
  /// The bytes taken out so far.
  private var taken = 0

  /// The bytes written since the last call, which the writer then forgets.
  mutating func take() -> Data {
    defer {
      taken += data.count
      data = Data()
    }
    return data
  }

  mutating func object(_ number: Int, _ body: String) {
    offsets[number] = taken + data.count
    data.append(contentsOf: Array("\(number) 0 obj\n\(body)\nendobj\n".utf8))
  }

  /// A stream compressed with Flate (zlib level 9: a searchable PDF's own
  /// streams are small, and written once).
  /// - Parameter padding: Whether white space may be added at the data's
  ///   end (content streams; ``Deflate/streamBytes(_:level:padding:)``).
  mutating func compressedStream(
    _ number: Int, dictionary: String, data bytes: Data, padding: Bool = false
  ) {
    let (stored, compressed) = Deflate.streamBytes(bytes, padding: padding)
    guard compressed else {
      stream(number, dictionary: dictionary, data: stored)
      return
    }
    let prefix = dictionary.isEmpty ? "" : dictionary + " "
    stream(number, dictionary: prefix + "/Filter /FlateDecode", data: stored)
  }

  /// A stream of `bytes` as they are. The end-of-line marker before
  /// `endstream` is CR LF when the data ends in CR (an image file's bytes
  /// may), else LF: a reader that takes a CR LF marker off data ending in CR
  /// then LF counts it one byte short (PDF/A's `STREAM-LENGTH` rule, seen on
  /// a CCITT strip of `tesseract-test`).
  mutating func stream(_ number: Int, dictionary: String, data bytes: Data) {
    offsets[number] = taken + data.count
    data.append(
      contentsOf: Array(
        "\(number) 0 obj\n<< \(dictionary) /Length \(bytes.count) >>\nstream\n".utf8))
    data.append(bytes)
    let marker = bytes.last == 0x0D ? "\r\n" : "\n"
    data.append(contentsOf: Array("\(marker)endstream\nendobj\n".utf8))
  }

  /// The rest of the file: what was not taken, the cross-reference table
  /// (objects are numbered from 1 without gaps) and the trailer, with the
  /// file identifier `id` (a hex string, both halves of `/ID`: the file is
  /// new).
  mutating func finish(root: Int, info: Int, id: String) -> Data {
    let size = (offsets.keys.max() ?? 0) + 1
    let start = taken + data.count
    var table = "xref\n0 \(size)\n0000000000 65535 f \n"
    for n in 1..<size {
      if let offset = offsets[n] {
        table += String(format: "%010d 00000 n \n", offset)
      } else {
        table += "0000000000 00000 f \n"
      }
    }
    table +=
      "trailer\n<< /Size \(size) /Root \(root) 0 R /Info \(info) 0 R /ID [\(id) \(id)] >>\nstartxref\n\(start)\n%%EOF\n"
    data.append(contentsOf: Array(table.utf8))
    return take()
  }
}

/// zlib's compression (RFC 1950, what a PDF's `FlateDecode` reads).
package enum Deflate {
  /// `data` compressed at `level` (0–9); `nil` when zlib cannot (it fails
  /// only for want of memory: compressBound's buffer is always large
  /// enough).
  package static func compress(_ data: Data, level: Int32 = 9) -> Data? {
    var size = compressBound(uLong(data.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let status = data.withUnsafeBytes { raw -> Int32 in
      let source = raw.bindMemory(to: UInt8.self).baseAddress
      return out.withUnsafeMutableBufferPointer { target in
        compress2(target.baseAddress, &size, source, uLong(data.count), level)
      }
    }
    return status == Z_OK ? Data(out.prefix(Int(size))) : nil
  }

  /// A PDF stream's stored bytes: `data` Flate-compressed (zlib `level`)
  /// unless that is larger, and never ending in a carriage return. Before
  /// `endstream` PDF/A wants an end-of-line marker outside the stream's
  /// `/Length`, and a reader cannot tell data that ends in CR followed by
  /// that LF from a CR LF marker: it counts the stream one byte short
  /// (seen on `cardinal.pdf`, a layer whose zlib checksum ended in 0x0D;
  /// the validator's `STREAM-LENGTH` rule). Content, where white space at
  /// the end means nothing (`padding`), gets a newline, which changes the
  /// checksum; other data is stored uncompressed instead.
  /// - Parameters:
  ///   - data: The stream's data.
  ///   - level: zlib's level.
  ///   - padding: Whether white space may be added at the end.
  /// - Returns: The bytes and whether they are compressed.
  /// - Complexity: O(*n*) in the data's size.
  package static func streamBytes(_ data: Data, level: Int32 = 9, padding: Bool) -> (
    bytes: Data, compressed: Bool
  ) {
    var data = data
    for _ in 0..<4 {
      if let compressed = compress(data, level: level), compressed.count <= data.count {
        if compressed.last != 0x0D { return (compressed, true) }
      } else if data.last != 0x0D {
        // Compression does not pay: stored as they are.
        return (data, false)
      }
      guard padding else { break }
      data.append(0x0A)
    }
    return (data, false)
  }

  /// zlib's Adler-32 checksum of `data`.
  package static func checksum(_ data: Data) -> UInt {
    data.withUnsafeBytes { raw in
      UInt(adler32(1, raw.bindMemory(to: UInt8.self).baseAddress, uInt(raw.count)))
    }
  }
}
