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
  /// - Complexity: O(*s*) in the segments before the image data.
  static func beforeImageData(_ b: [UInt8]) -> [(marker: UInt8, body: ArraySlice<UInt8>)] {
    guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return [] }
    var segments: [(marker: UInt8, body: ArraySlice<UInt8>)] = []
    var i = 2
    while i + 4 <= b.count, b[i] == 0xFF {
      let marker = b[i + 1]
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
      if marker == 0xDA || marker == 0xD9 { break }
      let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 2, i + 2 + length <= b.count else { break }
      segments.append((marker, b[(i + 4)..<(i + 2 + length)]))
      i += 2 + length
    }
    return segments
  }
}
