import CScanOCR
import Foundation
import ScanFormats

/// The page images of image files, for a searchable PDF.
public enum PDFImages {
  /// The stream of one page of an image file, without loss: the file's
  /// own compressed data where a PDF can hold it, else its decoded pixels
  /// compressed losslessly.
  ///
  /// - A JPEG's bytes, a JPEG 2000 file's bytes (gray or RGB), a TIFF
  ///   page stored as one strip of CCITT Group 4 data or as JPEG data in
  ///   strips or tiles: as they are (`DCTDecode`, `JPXDecode`,
  ///   `CCITTFaxDecode`; a TIFF's JPEG tiles in ``ScanFormats/PDFPageImage/pieces``).
  /// - A PNG's compressed data (its `IDAT` chunks) with its PNG predictors
  ///   (`FlateDecode`, `/Predictor 15`), as img2pdf and Leptonica's
  ///   `l_generateFlateDataPdf` do, when it is not interlaced, has no
  ///   alpha channel and is not 1-bit gray (gray of 2–16 bits, RGB of 8
  ///   or 16, a palette of 1–8 bits become `DeviceGray`, `DeviceRGB`,
  ///   `Indexed`; a palette's transparency is not carried).
  /// - Any other page is decoded (as recognition reads it, its orientation
  ///   tag applied): a 1-bit page becomes CCITT Group 4; any other is
  ///   written as a PNG in memory (libpng, zlib level 6, adaptive PNG
  ///   predictors) whose data goes in as above; an alpha channel is first
  ///   composited on white, as a viewer shows it on a white page.
  ///
  /// A stream that holds the file's data keeps the file's orientation in
  /// ``ScanFormats/PDFPageImage/orientation``: the page turns it when drawing.
  ///
  /// - Parameters:
  ///   - page: The page of the file (0 for every format but multi-page TIFF).
  ///   - path: The image file.
  ///   - maxPixels: The pixel limit recognition used.
  /// - Throws: ``OCRError`` naming the file when it cannot be read or
  ///   encoded.
  public static func stream(
    page: Int, ofFile path: String, maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(OCRError) -> PDFPageImage {
    let data = try ImageReader.readBytes(path)
    let source = try ImageSource(data, path: path, maxPixels: maxPixels)
    guard page >= 0, page < source.pageCount else {
      throw .corruptPage(path: path, page: page, format: source.formatName)
    }
    let orientation = source.orientationTag(page: page) ?? 1
    var stored: PDFPageImage?
    switch source.formatName {
    case "JPEG": stored = try jpeg(data, path: path, format: "JPEG")
    case "JPEG 2000": stored = jpeg2000(data)
    case "PNG": stored = PNGData(data)?.stream
    case "TIFF":
      stored = tiffStrip(source, page: page) ?? tiffJPEG(source, page: page, maxPixels: maxPixels)
    default: break
    }
    var result: PDFPageImage
    if var stored {
      stored.orientation = orientation
      result = stored
    } else {
      result = try stream(of: source.decode(page: page), path: path, format: source.formatName)
    }
    result.iccProfile = iccProfile(of: source, page: page, colorSpace: result.colorSpace)
    return result
  }

  /// The file's ICC profile, when it describes as many components as
  /// `colorSpace` has (a palette's or another space's is not carried).
  static func iccProfile(of source: ImageSource, page: Int, colorSpace: String) -> Data? {
    let profile: Data?
    switch source.formatName {
    case "JPEG": profile = ICCProfile.jpeg(source.data)
    case "PNG": profile = ICCProfile.png(source.data)
    case "TIFF":
      let directory = Int32(source.tiffPages[page].directory)
      profile = source.data.withUnsafeBytes { raw -> Data? in
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress,
          let tiff = scantext_tiff_open(base, raw.count, source.tiffAllocationLimit)
        else { return nil }
        defer { scantext_tiff_close(tiff) }
        var length: UInt32 = 0
        guard let bytes = scantext_tiff_icc_profile(tiff, directory, &length),
          length > 0, Int(length) <= ICCProfile.maxBytes
        else { return nil }
        return Data(bytes: bytes, count: Int(length))
      }
    default: profile = nil
    }
    let components = ["/DeviceGray": 1, "/DeviceRGB": 3, "/DeviceCMYK": 4][colorSpace]
    guard let profile, let components, ICCProfile.components(profile) == components else {
      return nil
    }
    return profile
  }

  /// The stream of a decoded image (in the frame it is shown in),
  /// compressed losslessly: CCITT Group 4 for 1 bit, else Flate with PNG
  /// predictors.
  static func stream(of image: LeptonicaImage, path: String, format: String) throws(OCRError)
    -> PDFPageImage
  {
    if scantext_pixGetDepth(image.pix) == 1, scantext_pixGetColormap(image.pix) == nil {
      // Leptonica's choice for a 1-bit image without colour map is G4.
      return try encode(path: path, format: format) { cid in
        _ = scantext_l_generateCIDataForPdf(nil, image.pix, 0, &cid)
      }
    }
    var opaque = image
    if scantext_pixGetDepth(image.pix) == 32, scantext_pixGetSpp(image.pix) == 4 {
      guard let blended = scantext_pixAlphaBlendUniform(image.pix, 0xFFFF_FF00) else {
        throw .corruptImage(path: path, format: format)
      }
      opaque = LeptonicaImage(taking: blended)
    }
    // Asked for: a PNG nobody asks a level for is stored (quiet.c).
    _ = scantext_pixSetZlibCompression(opaque.pix, 6)
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    guard scantext_pixWriteMem(&bytes, &size, opaque.pix, Int32(IFF_PNG)) == 0, let bytes else {
      throw .corruptImage(path: path, format: format)
    }
    defer { scantext_lept_free(bytes) }
    guard let png = PNGData(Data(bytes: bytes, count: size)) else {
      throw .corruptImage(path: path, format: format)
    }
    return png.stream
  }

  /// A JPEG's bytes as they are (Leptonica reads the header: size,
  /// components, an Adobe CMYK file's inverted samples).
  static func jpeg(_ data: Data, path: String, format: String) throws(OCRError)
    -> PDFPageImage
  {
    // Leptonica takes ownership of the bytes it is given (they become the
    // compressed data, freed with it): give it its own copy, made with its
    // own allocator (it binds its own malloc: see the loader in shims.c).
    guard
      let copy = scantext_lept_calloc(max(1, data.count), 1)?.assumingMemoryBound(to: UInt8.self)
    else { throw .corruptImage(path: path, format: format) }
    data.withUnsafeBytes { raw in
      if let base = raw.bindMemory(to: UInt8.self).baseAddress {
        copy.update(from: base, count: raw.count)
      }
    }
    return try encode(path: path, format: format) { cid in
      cid = scantext_l_generateJpegDataMem(copy, data.count, 0)
      if cid == nil { scantext_lept_free(copy) }
    }
  }

  /// A JPEG 2000 file's bytes as they are, for a gray or RGB image; `nil`
  /// for another (decoded instead).
  static func jpeg2000(_ data: Data) -> PDFPageImage? {
    var format: Int32 = 0
    var w: Int32 = 0
    var h: Int32 = 0
    var bps: Int32 = 0
    var spp: Int32 = 0
    var cmap: Int32 = 0
    let read = data.withUnsafeBytes { raw -> Bool in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
      return scantext_pixReadHeaderMem(base, raw.count, &format, &w, &h, &bps, &spp, &cmap) == 0
    }
    guard read, w > 0, h > 0, spp == 1 || spp == 3, bps == 8 else { return nil }
    return PDFPageImage(
      data: data, filter: "JPXDecode", width: Int(w), height: Int(h), bitsPerComponent: 8,
      colorSpace: spp == 1 ? "/DeviceGray" : "/DeviceRGB")
  }

  /// A TIFF page stored as one strip of CCITT Group 4 data, as it is;
  /// `nil` for any other layout.
  static func tiffStrip(_ source: ImageSource, page: Int) -> PDFPageImage? {
    let directory = Int32(source.tiffPages[page].directory)
    let found: (scantext_tiff_strip, Data)? = source.data.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress,
        let tiff = scantext_tiff_open(base, raw.count, source.tiffAllocationLimit)
      else { return nil }
      defer { scantext_tiff_close(tiff) }
      var strip = scantext_tiff_strip()
      guard scantext_tiff_stored_strip(tiff, directory, &strip) == 0 else { return nil }
      let start = Int(strip.offset)
      return (strip, Data(raw[start..<start + Int(strip.length)]))
    }
    guard let (strip, bytes) = found else { return nil }
    // G4 codes runs of paper and ink; BlackIs1 says which bit value the
    // decoder gives ink (false: 0, as DeviceGray shows black): a
    // min-is-black page's codes are the other way round.
    return PDFPageImage(
      data: bytes, filter: "CCITTFaxDecode", width: Int(strip.width), height: Int(strip.height),
      bitsPerComponent: 1, colorSpace: "/DeviceGray",
      decodeParms:
        "<< /K -1 /Columns \(strip.width) /Rows \(strip.height)\(strip.photometric == 1 ? " /BlackIs1 true" : "") >>"
    )
  }

  /// A TIFF page stored as JPEG data, in one strip or several, or in
  /// tiles, as it is; `nil` for any other layout, or pieces that do not
  /// read as the TIFF says (then decoded).
  ///
  /// Each piece (its tables put back) is a JPEG file. A PDF image is one
  /// rectangle of samples, so pieces that are not the whole page are drawn
  /// each as an image of its own (``PDFPageImage/pieces``). Strips, or
  /// the tiles of a column, are first joined into one JPEG where they can
  /// be (``ScanFormats/JPEGStack``): strips become the whole page, tiles a
  /// column each, each with one copy of the tables instead of one per
  /// piece. Pieces at the right and bottom edges reach past the page
  /// (libtiff pads edge tiles to the full tile size): the page shows the
  /// image's rectangle only.
  static func tiffJPEG(_ source: ImageSource, page: Int, maxPixels: Int) -> PDFPageImage? {
    let directory = Int32(source.tiffPages[page].directory)
    let found: (scantext_tiff_jpeg_pieces, [Data], Data)? = source.data.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress,
        let tiff = scantext_tiff_open(base, raw.count, source.tiffAllocationLimit)
      else { return nil }
      defer { scantext_tiff_close(tiff) }
      var layout = scantext_tiff_jpeg_pieces()
      guard scantext_tiff_stored_jpeg_pieces(tiff, directory, &layout) == 0,
        let offsets = layout.offsets, let lengths = layout.lengths
      else { return nil }
      let count = Int(layout.count)
      // Pieces that overlap (a damaged file may point every tile at the
      // same bytes) could make the PDF many times the file: at most the
      // file's size in all.
      var total = 0
      for i in 0..<count {
        total += Int(lengths[i])
        guard total <= raw.count else { return nil }
      }
      let pieces = (0..<count).map { i in
        let start = Int(offsets[i])
        return Data(raw[start..<start + Int(lengths[i])])
      }
      let tables =
        layout.tables.map { Data(bytes: $0, count: Int(layout.tables_length)) } ?? Data()
      return (layout, pieces, tables)
    }
    guard let (layout, stored, tables) = found else { return nil }
    let width = Int(layout.width)
    let height = Int(layout.height)
    let pieceWidth = Int(layout.piece_width)
    let pieceHeight = Int(layout.piece_height)
    let across = Int(layout.across)
    let down = Int(layout.down)
    // What the pieces hold, padding included, is what a viewer decodes.
    guard
      Double(across * pieceWidth) * Double(down * pieceHeight) <= Double(maxPixels)
    else { return nil }
    var files: [Data] = []
    for bytes in stored {
      guard let file = jpegFile(bytes, tables: tables) else { return nil }
      files.append(file)
    }
    // Columns of pieces (strips: one column), each joined where it can be,
    // else its pieces one by one.
    var pieces: [PDFImagePiece] = []
    for column in 0..<across {
      let files = (0..<down).map { files[$0 * across + column] }
      let x = column * pieceWidth
      let rows = { (row: Int) in min(pieceHeight, height - row * pieceHeight) }
      // A strip holds the rows left; a tile, its full size.
      let tall = { (row: Int) in layout.tiled != 0 ? pieceHeight : rows(row) }
      if let joined = JPEGStack.joined(files) {
        pieces.append(
          PDFImagePiece(
            data: joined, x: x, y: 0, width: pieceWidth,
            height: (0..<down).reduce(0) { $0 + tall($1) }))
      } else {
        for (row, file) in files.enumerated() {
          pieces.append(
            PDFImagePiece(
              data: file, x: x, y: row * pieceHeight, width: pieceWidth, height: tall(row)))
        }
      }
    }
    // Each piece read as libjpeg reads it: as large as the TIFF says, and
    // alike (components, bits).
    var first: PDFPageImage?
    for piece in pieces {
      guard let read = try? Self.jpeg(piece.data, path: source.path, format: "TIFF"),
        read.width == piece.width, read.height == piece.height,
        first.map({ $0.colorSpace == read.colorSpace && $0.decode == read.decode }) ?? true
      else { return nil }
      first = first ?? read
    }
    guard var stream = first else { return nil }
    if pieces.count == 1, pieces[0].width == width, pieces[0].height == height {
      stream.data = pieces[0].data
    } else {
      stream.data = Data()
      stream.pieces = pieces
    }
    stream.width = width
    stream.height = height
    // An RGB page's samples are not YCbCr: the decoder must not convert
    // them (a JPEG file would say so in an Adobe marker).
    if layout.photometric == 2 { stream.decodeParms = "<< /ColorTransform 0 >>" }
    return stream
  }

  /// A TIFF's JPEG strip or tile as a JPEG file: the tables kept apart
  /// (SOI, tables, EOI) go before the piece's own markers (after its SOI).
  static func jpegFile(_ piece: Data, tables: Data) -> Data? {
    let soi: [UInt8] = [0xFF, 0xD8]
    guard Array(piece.prefix(2)) == soi else { return nil }
    if tables.isEmpty { return piece }
    guard tables.count >= 4, Array(tables.prefix(2)) == soi,
      Array(tables.suffix(2)) == [0xFF, 0xD9]
    else { return nil }
    return tables.dropLast(2) + piece.dropFirst(2)
  }

  static func encode(
    path: String, format: String,
    _ generate: (inout UnsafeMutablePointer<L_COMP_DATA>?) -> Void
  ) throws(OCRError) -> PDFPageImage {
    var cid: UnsafeMutablePointer<L_COMP_DATA>?
    defer { scantext_l_CIDataDestroy(&cid) }
    generate(&cid)
    guard let c = cid?.pointee, let bytes = c.datacomp, c.nbytescomp > 0 else {
      throw .corruptImage(path: path, format: format)
    }
    let filter: String
    switch Int(c.type) {
    case Int(L_JPEG_ENCODE): filter = "DCTDecode"
    case Int(L_G4_ENCODE): filter = "CCITTFaxDecode"
    case Int(L_JP2K_ENCODE): filter = "JPXDecode"
    default: filter = "FlateDecode"
    }
    var colorSpace: String
    if c.ncolors > 0, let hex = c.cmapdatahex {
      colorSpace = "[/Indexed /DeviceRGB \(c.ncolors - 1) \(String(cString: hex))]"
    } else {
      switch c.spp {
      case 1: colorSpace = "/DeviceGray"
      case 4: colorSpace = "/DeviceCMYK"
      default: colorSpace = "/DeviceRGB"
      }
    }
    var decodeParms: String?
    var decode: String?
    if filter == "CCITTFaxDecode" {
      colorSpace = "/DeviceGray"
      // See tiffStrip: which bit value the decoder gives ink.
      decodeParms =
        "<< /K -1 /Columns \(c.w) /Rows \(c.h)\(c.minisblack != 0 ? " /BlackIs1 true" : "") >>"
    } else if filter == "FlateDecode", c.predictor != 0 {
      decodeParms =
        "<< /Predictor 14 /Colors \(c.spp) /BitsPerComponent \(c.bps) /Columns \(c.w) >>"
    }
    if filter == "DCTDecode", c.spp == 4 {
      // Adobe's CMYK JPEGs store inverted samples.
      decode = "[1 0 1 0 1 0 1 0]"
    }
    return PDFPageImage(
      data: Data(bytes: bytes, count: c.nbytescomp), filter: filter, width: Int(c.w),
      height: Int(c.h), bitsPerComponent: Int(c.bps), colorSpace: colorSpace,
      decodeParms: decodeParms, decode: decode)
  }

  /// Tesseract's glyphless font (`pdf.ttf` in its data folder): every
  /// character is an empty glyph half an em wide, which is what an
  /// invisible text layer needs.
  /// - Throws: ``OCRError/unreadable(path:reason:)`` when the file is missing.
  public static func glyphlessFont(dataPath: String? = nil) throws(OCRError) -> Data {
    let path = (dataPath ?? TessdataFolder.resolved) + "/pdf.ttf"
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(
        path: path, reason: "Tesseract's glyphless font is needed for a PDF text layer")
    }
  }
}

/// A PNG file's image data as a PDF can hold it: the zlib stream of its
/// `IDAT` chunks, whose rows start with PNG filter bytes (a PDF reader
/// undoes them with `/Predictor 15`, any PNG filter per row), and its
/// palette. Only the layouts a PDF image can show as the PNG does: not
/// interlaced, no alpha channel, not 1-bit gray (which becomes G4 instead).
struct PNGData {
  var width: Int
  var height: Int
  var bitDepth: Int
  /// 0 gray, 2 RGB, 3 palette.
  var colorType: Int
  /// The palette's RGB triples (colour type 3).
  var palette = Data()
  var compressed = Data()

  /// Parses `data`; `nil` when it is not a PNG a PDF can hold as it is (or
  /// not a well-formed PNG: it is decoded then, or refused).
  init?(_ data: Data) {
    let bytes = [UInt8](data)
    guard bytes.count > 8, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    else { return nil }
    var i = 8
    var header: [UInt8] = []
    var ended = false
    while i + 12 <= bytes.count {
      let length =
        Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
      let start = i + 8
      guard start + length + 4 <= bytes.count else { return nil }
      let body = bytes[start..<start + length]
      switch type {
      case "IHDR": header = Array(body)
      case "PLTE": palette = Data(body)
      case "IDAT": compressed.append(contentsOf: body)
      default: break
      }
      if type == "IEND" {
        ended = true
        break
      }
      i = start + length + 4
    }
    guard ended, header.count == 13, !compressed.isEmpty else { return nil }
    width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
    bitDepth = Int(header[8])
    colorType = Int(header[9])
    // Compression 0, filter method 0, no interlacing.
    guard width > 0, height > 0, header[10] == 0, header[11] == 0, header[12] == 0 else {
      return nil
    }
    switch colorType {
    case 0: guard [2, 4, 8, 16].contains(bitDepth) else { return nil }
    case 2: guard [8, 16].contains(bitDepth) else { return nil }
    case 3:
      guard [1, 2, 4, 8].contains(bitDepth), !palette.isEmpty, palette.count % 3 == 0,
        palette.count / 3 <= 1 << bitDepth
      else { return nil }
    default: return nil
    }
  }

  /// The stream: the compressed data with its predictors.
  var stream: PDFPageImage {
    let colors = colorType == 2 ? 3 : 1
    let colorSpace: String
    switch colorType {
    case 0: colorSpace = "/DeviceGray"
    case 2: colorSpace = "/DeviceRGB"
    default:
      let hex = palette.map { String(format: "%02X", $0) }.joined()
      colorSpace = "[/Indexed /DeviceRGB \(palette.count / 3 - 1) <\(hex)>]"
    }
    return PDFPageImage(
      data: compressed, filter: "FlateDecode", width: width, height: height,
      bitsPerComponent: bitDepth, colorSpace: colorSpace,
      decodeParms:
        "<< /Predictor 15 /Colors \(colors) /BitsPerComponent \(bitDepth) /Columns \(width) >>")
  }
}
