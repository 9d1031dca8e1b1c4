/// The marker segments of a JPEG file (ITU T.81, B.1.1), for the readers
/// of what a JPEG carries besides its pixels: an EXIF orientation
/// (``AccessibleHTML/browserOrientation(ofImage:)``), an ICC profile
/// (``ICCProfile/jpeg(_:)``).
enum JPEGSegments {
  /// Each segment with a length, from the start of the file to its first
  /// scan (or its end): the marker and the segment's body after its
  /// length. Fill bytes and markers without a length are skipped; a
  /// segment running past the file ends the list.
  ///
  /// Reads the file where it lies (a `Data` or an array): nothing is
  /// copied but the segments' bodies' indices.
  ///
  /// - Complexity: O(*s*) in the segments before the image data.
  static func beforeImageData<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> [(
    marker: UInt8, body: Bytes.SubSequence
  )] where Bytes.Index == Int {
    walk(bytes).segments
  }

  /// The segments ``beforeImageData(_:)`` gives, and the offset from the
  /// start of `bytes` of the first scan's SOS marker; `nil` when the walk
  /// ended before one (at EOI, at the end, at a segment running past it).
  ///
  /// - Complexity: O(*s*) in the segments before the image data.
  static func walk<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> (
    segments: [(marker: UInt8, body: Bytes.SubSequence)], scan: Int?
  ) where Bytes.Index == Int {
    let s = bytes.startIndex
    let count = bytes.count
    guard count > 4, bytes[s] == 0xFF, bytes[s + 1] == 0xD8 else { return ([], nil) }
    var segments: [(marker: UInt8, body: Bytes.SubSequence)] = []
    var i = 2
    while i + 4 <= count, bytes[s + i] == 0xFF {
      let marker = bytes[s + i + 1]
      // Fill bytes, then markers without a length.
      if marker == 0xFF {
        i += 1
        continue
      }
      if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
        i += 2
        continue
      }
      // The image data starts (or the file ends).
      if marker == 0xDA { return (segments, i) }
      if marker == 0xD9 { break }
      let length = Int(bytes[s + i + 2]) << 8 | Int(bytes[s + i + 3])
      guard length >= 2, i + 2 + length <= count else { break }
      segments.append((marker, bytes[(s + i + 4)..<(s + i + 2 + length)]))
      i += 2 + length
    }
    return (segments, nil)
  }
}
