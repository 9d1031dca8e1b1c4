import CScanOCR
import Foundation

/// The one owner of a Leptonica `Pix`; destroys it in `deinit`. A class
/// (not a `~Copyable` struct) so that decoded pages can live in an array;
/// it is never shared across threads.
final class LeptonicaImage {
  let pix: UnsafeMutablePointer<Pix>

  /// Takes ownership of `pix`.
  init(taking pix: UnsafeMutablePointer<Pix>) { self.pix = pix }

  deinit {
    var p: UnsafeMutablePointer<Pix>? = pix
    scantext_pixDestroy(&p)
  }

  var width: Int { Int(scantext_pixGetWidth(pix)) }
  var height: Int { Int(scantext_pixGetHeight(pix)) }
  /// The resolution tag, or `nil` when the file has none.
  var resolution: Int? {
    let r = Int(scantext_pixGetYRes(pix))
    return r > 0 ? r : nil
  }
}

/// Reads image files with Leptonica from bytes we read ourselves, so a
/// missing path never falls back to a same-named file in the current
/// directory, and checks the header's size before decoding.
enum ImageReader {
  /// Leptonica's file-format codes we name in messages.
  private static let formatNames: [Int32: String] = [
    Int32(IFF_BMP): "BMP", Int32(IFF_JFIF_JPEG): "JPEG", Int32(IFF_PNG): "PNG",
    Int32(IFF_TIFF): "TIFF", Int32(IFF_TIFF_PACKBITS): "TIFF", Int32(IFF_TIFF_RLE): "TIFF",
    Int32(IFF_TIFF_G3): "TIFF", Int32(IFF_TIFF_G4): "TIFF", Int32(IFF_TIFF_LZW): "TIFF",
    Int32(IFF_TIFF_ZIP): "TIFF", Int32(IFF_TIFF_JPEG): "TIFF", Int32(IFF_PNM): "PNM",
    Int32(IFF_GIF): "GIF", Int32(IFF_WEBP): "WebP", Int32(IFF_JP2): "JPEG 2000",
  ]

  /// Reads the file's bytes, with a precise error for each failure.
  static func readBytes(_ path: String) throws(OCRError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    if isDirectory.boolValue { throw .isDirectory(path: path) }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason =
        FileManager.default.isReadableFile(atPath: path)
        ? "\(error.localizedDescription)" : "permission denied"
      throw .unreadable(path: path, reason: reason)
    }
    if data.isEmpty { throw .emptyFile(path: path) }
    return data
  }

  /// Decodes every page of an image file (every page of a multi-page TIFF).
  static func decodePages(
    _ data: Data, path: String, maxPixels: Int
  ) throws(OCRError) -> [LeptonicaImage] {
    try OCRLibraries.load()
    let result: Result<[LeptonicaImage], OCRError> = data.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
        return .failure(.emptyFile(path: path))
      }
      var format: Int32 = 0
      guard scantext_findFileFormatBuffer(base, &format) == 0, format != Int32(IFF_UNKNOWN) else {
        return .failure(.unsupportedFormat(path: path))
      }
      let name = formatNames[format] ?? "image"
      var w: Int32 = 0
      var h: Int32 = 0
      var bps: Int32 = 0
      var spp: Int32 = 0
      var cmap: Int32 = 0
      guard scantext_pixReadHeaderMem(base, raw.count, &format, &w, &h, &bps, &spp, &cmap) == 0,
        w > 0, h > 0
      else {
        return .failure(.corruptImage(path: path, format: name))
      }
      if Int(w) * Int(h) > maxPixels {
        return .failure(.imageTooLarge(path: path, width: Int(w), height: Int(h), limit: maxPixels))
      }
      if name == "TIFF" {
        if TIFFInspector.isTiled(raw) { return .failure(.tiledTIFF(path: path)) }
        var pages: [LeptonicaImage] = []
        var offset = 0
        repeat {
          guard let pix = scantext_pixReadMemFromMultipageTiff(base, raw.count, &offset) else {
            return .failure(.corruptImage(path: path, format: name))
          }
          let image = LeptonicaImage(taking: pix)
          if image.width * image.height > maxPixels {
            return .failure(
              .imageTooLarge(path: path, width: image.width, height: image.height, limit: maxPixels)
            )
          }
          pages.append(image)
        } while offset != 0
        return .success(pages)
      }
      guard let pix = scantext_pixReadMem(base, raw.count) else {
        return .failure(.corruptImage(path: path, format: name))
      }
      return .success([LeptonicaImage(taking: pix)])
    }
    return try result.get()
  }
}

/// Reads just enough of a TIFF to tell whether its first image is tiled.
enum TIFFInspector {
  static func isTiled(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 8 else { return false }
    let little = bytes[0] == 0x49 && bytes[1] == 0x49
    guard little || (bytes[0] == 0x4D && bytes[1] == 0x4D) else { return false }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      let a = Int(bytes[at])
      let b = Int(bytes[at + 1])
      return little ? a | b << 8 : a << 8 | b
    }
    func u32(_ at: Int) -> Int? {
      guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else {
        return nil
      }
      return lo | hi << 16
    }
    guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return false }
    for k in 0..<count {
      // Tag 322 is TileWidth.
      if u16(ifd + 2 + 12 * k) == 322 { return true }
    }
    return false
  }
}

/// An 8-bit gray copy of an image's pixels, row by row (0 black, 255 white).
struct GrayPixels {
  var width: Int
  var height: Int
  var values: [UInt8]

  subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }

  /// Decodes the first page of an image file into gray pixels.
  static func read(_ path: String) throws(OCRError) -> GrayPixels {
    let data = try ImageReader.readBytes(path)
    let pages = try ImageReader.decodePages(data, path: path, maxPixels: .max)
    guard let first = pages.first, let gray = scantext_pixConvertTo8(first.pix, 0) else {
      throw .corruptImage(path: path, format: "image")
    }
    let owned = LeptonicaImage(taking: gray)
    let w = owned.width
    let h = owned.height
    let wordsPerLine = Int(scantext_pixGetWpl(owned.pix))
    guard let raw = scantext_pixGetData(owned.pix) else {
      throw .corruptImage(path: path, format: "image")
    }
    var values = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h {
      let line = raw + y * wordsPerLine
      for x in 0..<w {
        // Leptonica packs 8-bit pixels big-endian within each 32-bit word.
        let word = line[x >> 2]
        values[y * w + x] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (x & 3)))
      }
    }
    return GrayPixels(width: w, height: h, values: values)
  }
}
