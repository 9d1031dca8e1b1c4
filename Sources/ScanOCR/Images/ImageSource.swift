import CScanOCR
import Foundation
import ScanModel

/// An image file's pages, each decoded only when asked for, so a long
/// multi-page TIFF never holds more than one decoded page.
///
/// Opening checks what can be checked without decoding: the format, and
/// every page's header against the pixel limit. A TIFF's page list is
/// walked by libtiff, which stops at a list that loops back, and at most
/// ``maxTIFFPages`` pages are accepted.
final class ImageSource {
  /// The most pages read from one TIFF; more is refused as hostile.
  static let maxTIFFPages = 10_000

  /// A page of a TIFF: its libtiff directory index, whether it is tiled,
  /// its orientation tag (0: none) and where the tag's value lies in the
  /// file (0: unknown).
  struct TIFFPage {
    var directory: Int
    var tiled: Bool
    var orientation: Int
    var orientationOffset: Int
  }

  /// The file's bytes.
  let data: Data
  let path: String
  private let format: String
  /// For a TIFF, its pages (reduced-resolution copies such as thumbnails
  /// and pyramid levels are not pages).
  let tiffPages: [TIFFPage]
  /// The orientation tag of a JPEG, PNG or WebP file, when it has one.
  private let fileOrientation: Int?
  /// The stored size a file of one picture declares in its header (not
  /// for a TIFF).
  private let headerSize: (width: Int, height: Int)?
  /// The most libtiff may allocate at once for this file.
  let tiffAllocationLimit: Int

  /// The most libtiff may allocate at once: 8 bytes per allowed pixel (four
  /// 16-bit samples, the most a page holds), 64 MB at least. A strip or
  /// tile buffer of a page within the pixel limit fits; a header claiming
  /// a thousand samples per pixel does not (libtiff would allocate the
  /// whole strip before decoding it: 25 GB for a 12 kB file).
  static func tiffAllocationLimit(maxPixels: Int) -> Int {
    let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 8)
    return max(64 << 20, overflow ? Int.max : bytes)
  }

  /// The number of pages (1 for every format but TIFF).
  var pageCount: Int { format == "TIFF" ? tiffPages.count : 1 }

  /// The file's format as messages name it (`JPEG`, `PNG`, `TIFF`, …).
  var formatName: String { format }

  /// Leptonica's file-format codes we name in messages.
  private static let formatNames: [Int32: String] = [
    Int32(IFF_BMP): "BMP", Int32(IFF_JFIF_JPEG): "JPEG", Int32(IFF_PNG): "PNG",
    Int32(IFF_TIFF): "TIFF", Int32(IFF_TIFF_PACKBITS): "TIFF", Int32(IFF_TIFF_RLE): "TIFF",
    Int32(IFF_TIFF_G3): "TIFF", Int32(IFF_TIFF_G4): "TIFF", Int32(IFF_TIFF_LZW): "TIFF",
    Int32(IFF_TIFF_ZIP): "TIFF", Int32(IFF_TIFF_JPEG): "TIFF", Int32(IFF_PNM): "PNM",
    Int32(IFF_GIF): "GIF", Int32(IFF_WEBP): "WebP", Int32(IFF_JP2): "JPEG 2000",
  ]

  /// Checks the file without decoding any pixels.
  init(_ data: Data, path: String, maxPixels: Int) throws(OCRError) {
    try OCRLibraries.load()
    self.data = data
    self.path = path
    let limit = Self.tiffAllocationLimit(maxPixels: maxPixels)
    tiffAllocationLimit = limit
    let checked: Result<(String, [TIFFPage], (width: Int, height: Int)?), OCRError> =
      data.withUnsafeBytes { raw in
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
          return .failure(.emptyFile(path: path))
        }
        var code: Int32 = 0
        guard scantext_findFileFormatBuffer(base, &code) == 0, code != Int32(IFF_UNKNOWN) else {
          return .failure(.unsupportedFormat(path: path))
        }
        let name = Self.formatNames[code] ?? "image"
        if name == "TIFF" {
          return Self.tiffPages(
            base, count: raw.count, path: path, maxPixels: maxPixels, allocationLimit: limit
          )
          .map { ("TIFF", $0, nil) }
        }
        // Leptonica decodes a GIF to read its header: its sizes are checked
        // from its blocks first.
        if name == "GIF", let sizes = GIFHeader.sizes(in: data),
          let largest = sizes.max(by: { $0.width * $0.height < $1.width * $1.height }),
          largest.width * largest.height > maxPixels
        {
          return .failure(
            .imageTooLarge(
              path: path, width: largest.width, height: largest.height, limit: maxPixels))
        }
        var w: Int32 = 0
        var h: Int32 = 0
        var bps: Int32 = 0
        var spp: Int32 = 0
        var cmap: Int32 = 0
        guard scantext_pixReadHeaderMem(base, raw.count, &code, &w, &h, &bps, &spp, &cmap) == 0,
          w > 0, h > 0
        else {
          return .failure(.corruptImage(path: path, format: name))
        }
        if Int(w) * Int(h) > maxPixels {
          return .failure(
            .imageTooLarge(path: path, width: Int(w), height: Int(h), limit: maxPixels))
        }
        return .success((name, [], (Int(w), Int(h))))
      }
    (format, tiffPages, headerSize) = try checked.get()
    fileOrientation = format == "TIFF" ? nil : OrientationTag.find(in: data, format: format)
  }

  /// The size of page `index` as a viewer shows it (its orientation tag
  /// applied): from the header for a file of one picture, without
  /// decoding; a TIFF page is decoded.
  func shownSize(page index: Int) throws(OCRError) -> (width: Int, height: Int) {
    guard let headerSize else {
      let image = try decode(page: index)
      return (image.width, image.height)
    }
    let turned = orientationTag(page: index).flatMap { ImageOrientation(tag: $0) }?.swapsSides
    return turned == true ? (headerSize.height, headerSize.width) : headerSize
  }

  /// The orientation tag of page `index` (1–8), when the file has one;
  /// ``decode(page:)`` has applied it.
  func orientationTag(page index: Int) -> Int? {
    let tag = format == "TIFF" ? tiffPages[index].orientation : fileOrientation
    return tag.flatMap { ImageOrientation(tag: $0)?.tag }
  }

  /// Walks a TIFF's page list with libtiff and checks every page's size.
  private static func tiffPages(
    _ base: UnsafePointer<UInt8>, count: Int, path: String, maxPixels: Int, allocationLimit: Int
  ) -> Result<[TIFFPage], OCRError> {
    guard let tiff = scantext_tiff_open(base, count, allocationLimit) else {
      return .failure(.corruptImage(path: path, format: "TIFF"))
    }
    defer { scantext_tiff_close(tiff) }
    var directories = [scantext_tiff_directory](
      repeating: scantext_tiff_directory(), count: maxTIFFPages)
    var more: Int32 = 0
    let found = Int(scantext_tiff_directories(tiff, &directories, Int32(maxTIFFPages), &more))
    if more != 0 { return .failure(.tooManyPages(path: path, limit: maxTIFFPages)) }
    var pages: [TIFFPage] = []
    for (index, d) in directories.prefix(found).enumerated() where d.reduced == 0 {
      let w = Int(d.width)
      let h = Int(d.height)
      if w == 0 || h == 0 { return .failure(.corruptImage(path: path, format: "TIFF")) }
      if w * h > maxPixels {
        return .failure(
          index == 0
            ? .imageTooLarge(path: path, width: w, height: h, limit: maxPixels)
            : .pageTooLarge(path: path, page: pages.count, width: w, height: h, limit: maxPixels))
      }
      pages.append(
        TIFFPage(
          directory: index, tiled: d.tiled != 0, orientation: Int(d.orientation),
          orientationOffset: Int(d.orientation_offset)))
    }
    if pages.isEmpty { return .failure(.corruptImage(path: path, format: "TIFF")) }
    return .success(pages)
  }

  /// Decodes page `index` (from 0) into the picture a viewer shows: the
  /// orientation tag, when there is one, is applied (see
  /// ``ImageOrientation``).
  /// - Throws: ``OCRError/corruptPage(path:page:format:)`` for a page of a
  ///   multi-page file, ``OCRError/corruptImage(path:format:)`` otherwise.
  func decode(page index: Int) throws(OCRError) -> LeptonicaImage {
    let format = self.format
    let pages = tiffPages
    let limit = tiffAllocationLimit
    let orientation = orientationTag(page: index).flatMap { ImageOrientation(tag: $0) }
    let turn = { (stored: LeptonicaImage) -> LeptonicaImage? in
      orientation.map { $0.apply(to: stored) } ?? stored
    }
    // Leptonica applies a TIFF strip's orientation itself, wrongly for an
    // RGB page tagged 8 (measured: every sample off); it reads the stored
    // pixels when the tag says 1, so it is given a copy that says so. When
    // the tag's place is not known, libtiff reads the page as stored.
    var bytes = data
    var leptonicaReadsStrips = true
    if format == "TIFF", let orientation, orientation != .upright {
      let at = pages[index].orientationOffset
      if at > 0, at + 2 <= bytes.count {
        let little = bytes[bytes.startIndex] == 0x49
        bytes[bytes.startIndex + at] = little ? 1 : 0
        bytes[bytes.startIndex + at + 1] = little ? 0 : 1
      } else {
        leptonicaReadsStrips = false
      }
    }
    let strips = leptonicaReadsStrips
    let decoded = bytes.withUnsafeBytes { raw -> LeptonicaImage? in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      guard format == "TIFF" else {
        guard let pix = scantext_pixReadMem(base, raw.count) else { return nil }
        return turn(LeptonicaImage(taking: pix))
      }
      let page = pages[index]
      // Leptonica first for strips: it keeps 1-bit and gray pages as they
      // are, as the `tesseract` command reads them. Tiled pages and layouts
      // Leptonica refuses go through libtiff's RGBA interface. Both read
      // the pixels as stored; the orientation is turned here.
      // A reading during which libtiff reported an error read damaged
      // data (a strip cut short, a codec that failed): Leptonica still
      // returns the page, with a blank or garbled band, so it is refused.
      var errors = scantext_tiff_error_count()
      if !page.tiled, strips,
        let pix = scantext_pixReadMemTiff(base, raw.count, Int32(page.directory))
      {
        let image = LeptonicaImage(taking: pix)
        if scantext_tiff_error_count() == errors { return turn(image) }
      }
      guard let tiff = scantext_tiff_open(base, raw.count, limit) else { return nil }
      defer { scantext_tiff_close(tiff) }
      errors = scantext_tiff_error_count()
      // libtiff's RGBA interface stops at the first error.
      guard let pix = scantext_tiff_read_rgb(tiff, Int32(page.directory)) else { return nil }
      let image = LeptonicaImage(taking: pix)
      return scantext_tiff_error_count() == errors ? turn(image) : nil
    }
    guard let decoded else {
      throw pageCount > 1
        ? .corruptPage(path: path, page: index, format: format)
        : .corruptImage(path: path, format: format)
    }
    return decoded
  }
}
