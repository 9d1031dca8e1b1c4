import CZlib
import Foundation

/// An image file's embedded ICC colour profile, read from its bytes, so a
/// searchable PDF shows the picture in the colours the file declares
/// (`/ICCBased`), as the file itself is shown.
///
/// A profile is in a JPEG's `APP2` `ICC_PROFILE` segments (in order, split
/// at 65,519 bytes a segment: ICC.1 annex B.4), a PNG's `iCCP` chunk
/// (zlib-compressed: PNG 1.2, 4.2.2.4), a TIFF's tag 34675 (read with
/// libtiff by ScanOCR).
public enum ICCProfile {
  /// The most bytes a profile may take: profiles are kilobytes, a few
  /// hundred at most (a printer's); a larger claim is not a profile.
  public static let maxBytes = 16 << 20

  /// The number of colour components `profile` describes (1 gray, 3 RGB,
  /// 4 CMYK), from its header's data colour space; `nil` when it is not a
  /// profile of one of those.
  public static func components(_ profile: Data) -> Int? {
    guard profile.count >= 128 else { return nil }
    let start = profile.startIndex + 16
    switch String(decoding: profile[start..<start + 4], as: UTF8.self) {
    case "GRAY": return 1
    case "RGB ": return 3
    case "CMYK": return 4
    default: return nil
    }
  }

  /// A JPEG's profile: its `ICC_PROFILE` segments joined in their order;
  /// `nil` when there is none or a segment is missing.
  ///
  /// - Complexity: O(*n*) in the markers before the image data.
  public static func jpeg(_ data: Data) -> Data? {
    let signature = Array("ICC_PROFILE".utf8) + [0]
    var chunks: [Int: Data] = [:]
    var total = 0
    for segment in JPEGSegments.beforeImageData(data)
    where segment.marker == 0xE2 && segment.body.count > signature.count + 2
      && segment.body.starts(with: signature)
    {
      let body = segment.body
      total = Int(body[body.startIndex + 13])
      chunks[Int(body[body.startIndex + 12])] = body.dropFirst(signature.count + 2)
    }
    guard total > 0, (1...total).allSatisfy({ chunks[$0] != nil }) else { return nil }
    var profile = Data()
    for sequence in 1...total { profile.append(chunks[sequence] ?? Data()) }
    return profile.count <= maxBytes ? profile : nil
  }

  /// A PNG's profile: its `iCCP` chunk (before the image data), inflated;
  /// `nil` when there is none or it does not inflate.
  ///
  /// - Complexity: O(*n*) in the chunks before the image data, plus the
  ///   profile's size.
  public static func png(_ data: Data) -> Data? {
    let s = data.startIndex
    guard data.count > 8, data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    else { return nil }
    var i = 8
    while i + 8 <= data.count {
      let length = data[(s + i)..<(s + i + 4)].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: data[(s + i + 4)..<(s + i + 8)], as: UTF8.self)
      let start = i + 8
      guard start + length <= data.count else { return nil }
      if type == "IDAT" || type == "IEND" { return nil }
      if type == "iCCP" {
        let body = data[(s + start)..<(s + start + length)]
        // A name of 1-79 bytes, a zero, the method (0: zlib), the data.
        guard let zero = body.firstIndex(of: 0), zero + 1 < body.endIndex,
          body[zero + 1] == 0
        else { return nil }
        return inflated(Data(body[(zero + 2)...]), limit: maxBytes)
      }
      i = start + length + 4
    }
    return nil
  }

  /// zlib data inflated, at most `limit` bytes; `nil` when it is damaged,
  /// cut short or larger.
  static func inflated(_ data: Data, limit: Int) -> Data? {
    var stream = z_stream()
    guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      return nil
    }
    defer { inflateEnd(&stream) }
    var input = [UInt8](data)
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    return input.withUnsafeMutableBufferPointer { source -> Data? in
      stream.next_in = source.baseAddress
      stream.avail_in = uInt(source.count)
      while true {
        let (status, produced) = buffer.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
          stream.next_out = target.baseAddress
          stream.avail_out = uInt(target.count)
          let status = inflate(&stream, Z_NO_FLUSH)
          return (status, target.count - Int(stream.avail_out))
        }
        output.append(contentsOf: buffer.prefix(produced))
        if output.count > limit { return nil }
        if status == Z_STREAM_END { return output }
        guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
      }
    }
  }
}
