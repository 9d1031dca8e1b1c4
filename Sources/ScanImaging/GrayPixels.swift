import Foundation

/// An 8-bit gray copy of an image's pixels, row by row (0 black, 255 white).
package struct GrayPixels {
  package var width: Int
  package var height: Int
  package var values: [UInt8]

  package init(width: Int, height: Int, values: [UInt8]) {
    self.width = width
    self.height = height
    self.values = values
  }

  package subscript(x: Int, y: Int) -> UInt8 { values[y * width + x] }
}

/// Read access to the gray values of an 8-bit or 32-bit RGB image where
/// they are (Leptonica's layout: 32-bit words, `wordsPerLine` per row),
/// valid while the image that holds them lives.
package struct GrayView {
  package let data: UnsafeMutablePointer<UInt32>
  package let wordsPerLine: Int
  package let width: Int
  package let height: Int
  package let isRGB: Bool

  package init(
    data: UnsafeMutablePointer<UInt32>, wordsPerLine: Int, width: Int, height: Int, isRGB: Bool
  ) {
    self.data = data
    self.wordsPerLine = wordsPerLine
    self.width = width
    self.height = height
    self.isRGB = isRGB
  }

  /// The gray value at (`x`, `y`): the byte of an 8-bit image, the
  /// luminance of an RGB one.
  package func value(_ x: Int, _ y: Int) -> Int {
    guard isRGB else {
      // Leptonica packs 8-bit pixels big-endian within each 32-bit word.
      return Int(
        UInt8(truncatingIfNeeded: data[y * wordsPerLine + (x >> 2)] >> UInt32(24 - 8 * (x & 3))))
    }
    // 0xRRGGBBAA; weighted as Leptonica's pixConvertTo8 weighs them
    // (red 0.3, green 0.5, blue 0.2), in tenths.
    let p = data[y * wordsPerLine + x]
    let sum = 3 * Int((p >> 24) & 0xff) + 5 * Int((p >> 16) & 0xff) + 2 * Int((p >> 8) & 0xff)
    return (sum + 5) / 10
  }

  /// The red, green and blue values at (`x`, `y`) of an RGB image; `nil`
  /// for an 8-bit one (gray: no colour to tell).
  package func colour(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int)? {
    guard isRGB else { return nil }
    let p = data[y * wordsPerLine + x]
    return (Int((p >> 24) & 0xff), Int((p >> 16) & 0xff), Int((p >> 8) & 0xff))
  }
}
