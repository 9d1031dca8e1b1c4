import CScanOCR
import Foundation
import ScanModel

extension ImageOrientation {
  /// The stored image turned and mirrored into the picture shown (its
  /// resolution and colour map kept); `image` itself for tag 1; `nil` when
  /// Leptonica cannot.
  func apply(to image: LeptonicaImage) -> LeptonicaImage? {
    let pix = image.pix
    let result: UnsafeMutablePointer<Pix>?
    switch tag {
    case 1: return image
    case 2: result = scantext_pixFlipLR(nil, pix)
    case 3: result = scantext_pixRotateOrth(pix, 2)
    case 4: result = scantext_pixFlipTB(nil, pix)
    case 5, 7:
      guard let turned = scantext_pixRotateOrth(pix, 1) else { return nil }
      result = tag == 5 ? scantext_pixFlipLR(turned, turned) : scantext_pixFlipTB(turned, turned)
    case 6: result = scantext_pixRotateOrth(pix, 1)
    default: result = scantext_pixRotateOrth(pix, 3)
    }
    return result.map { LeptonicaImage(taking: $0) }
  }
}

/// Finds the orientation tag in an image file's bytes without decoding
/// it: in a JPEG's APP1 `Exif` segment, a PNG's `eXIf` chunk or a WebP's
/// `EXIF` chunk, each a TIFF structure whose first directory (IFD0) may
/// hold tag `0x0112`. (A TIFF's own tag is read by libtiff.) Every offset
/// and length comes from the file and is checked against its size.
enum OrientationTag {
  /// The tag's value (1–8 and anything else the file says), or `nil` when
  /// the file has no orientation tag.
  static func find(in data: Data, format: String) -> Int? {
    data.withUnsafeBytes { raw -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      switch format {
      case "JPEG": return inJPEG(bytes)
      case "PNG": return inPNG(bytes)
      case "WebP": return inWebP(bytes)
      default: return nil
      }
    }
  }

  /// JPEG: markers from SOI up to the first scan; the APP1 segment whose
  /// data starts with `Exif\0\0`.
  static func inJPEG(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
    var i = 2
    while i + 4 <= b.count {
      guard b[i] == 0xFF else { return nil }
      let marker = b[i + 1]
      // Fill bytes, and markers without a length.
      if marker == 0xFF {
        i += 1
        continue
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        i += 2
        continue
      }
      // Start of scan or end of image: no more metadata.
      if marker == 0xDA || marker == 0xD9 { return nil }
      let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 2, i + 2 + length <= b.count else { return nil }
      let start = i + 4
      let end = i + 2 + length
      if marker == 0xE1, end - start >= 6,
        Array(b[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0]
      {
        return inTIFF(b, from: start + 6, to: end)
      }
      i = end
    }
    return nil
  }

  /// PNG: the `eXIf` chunk, anywhere before `IEND`.
  static func inPNG(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 8
    while i + 8 <= b.count {
      let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
      let type = Array(b[i + 4..<i + 8])
      let start = i + 8
      guard length >= 0, start + length <= b.count else { return nil }
      if type == Array("eXIf".utf8) { return inTIFF(b, from: start, to: start + length) }
      if type == Array("IEND".utf8) { return nil }
      i = start + length + 4
    }
    return nil
  }

  /// WebP: the RIFF container's `EXIF` chunk.
  static func inWebP(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    guard b.count >= 12 else { return nil }
    var i = 12
    while i + 8 <= b.count {
      let size =
        Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
      let start = i + 8
      guard start + size <= b.count else { return nil }
      if Array(b[i..<i + 4]) == Array("EXIF".utf8) {
        return inTIFF(b, from: start, to: start + size)
      }
      i = start + size + (size & 1)
    }
    return nil
  }

  /// A TIFF structure in `b[from..<to]` (some writers put `Exif\0\0`
  /// first): the orientation entry of its first directory.
  static func inTIFF(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    var base = from
    if to - base >= 6, Array(b[base..<base + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] { base += 6 }
    guard to - base >= 8 else { return nil }
    let little: Bool
    switch (b[base], b[base + 1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= base, at + 2 <= to else { return nil }
      return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else {
        return nil
      }
      return high << 16 | low
    }
    guard u16(base + 2) == 42, let offset = u32(base + 4), let count = u16(base + offset)
    else { return nil }
    for entry in 0..<count {
      let at = base + offset + 2 + entry * 12
      guard let tag = u16(at), let type = u16(at + 2) else { return nil }
      // SHORT (3), one value, held in the entry itself.
      if tag == 0x0112 { return type == 3 ? u16(at + 8) : nil }
    }
    return nil
  }
}
