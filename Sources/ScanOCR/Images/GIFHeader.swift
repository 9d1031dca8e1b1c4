import Foundation

/// The sizes a GIF declares, read from its blocks without decoding any
/// pixels.
///
/// Leptonica's header reader decodes a GIF whole (through giflib) to learn
/// its size, so the pixel limit would be checked only after the decoding
/// it is there to prevent: a 297 KB GIF claiming 20,000 × 20,000 pixels
/// took 6.4 s and 831 MB before it was refused. The logical screen and
/// every frame's size are read here first (GIF89a, section 18 and 20).
enum GIFHeader {
  /// The logical screen's size and each frame's, in file order; `nil`
  /// when `data` is not a GIF. Stops at the trailer, at the end of the
  /// data, or at a block it does not know (giflib reports those).
  ///
  /// - Complexity: O(*n*) in the file's length, touching only block
  ///   headers and sub-block lengths.
  static func sizes(in data: Data) -> [(width: Int, height: Int)]? {
    let bytes = [UInt8](data.prefix(6))
    guard bytes == Array("GIF87a".utf8) || bytes == Array("GIF89a".utf8) else { return nil }
    var at = data.startIndex + 6
    func byte() -> Int? {
      guard at < data.endIndex else { return nil }
      defer { at += 1 }
      return Int(data[at])
    }
    func word() -> Int? {
      guard let low = byte(), let high = byte() else { return nil }
      return low | high << 8
    }
    /// Skips sub-blocks up to the zero-length terminator.
    func skipSubBlocks() -> Bool {
      while let length = byte() {
        if length == 0 { return true }
        at += length
      }
      return false
    }
    guard let screenWidth = word(), let screenHeight = word(), let packed = byte(),
      byte() != nil, byte() != nil
    else { return [] }
    var sizes = [(width: screenWidth, height: screenHeight)]
    if packed & 0x80 != 0 { at += 3 << ((packed & 7) + 1) }
    while let introducer = byte() {
      switch introducer {
      case 0x21:  // extension: label, sub-blocks
        guard byte() != nil, skipSubBlocks() else { return sizes }
      case 0x2C:  // image: left, top, width, height, packed
        guard word() != nil, word() != nil, let width = word(), let height = word(),
          let flags = byte()
        else { return sizes }
        sizes.append((width, height))
        if flags & 0x80 != 0 { at += 3 << ((flags & 7) + 1) }
        guard byte() != nil, skipSubBlocks() else { return sizes }
      default:  // 0x3B, the trailer, or a block giflib will refuse
        return sizes
      }
    }
    return sizes
  }
}
