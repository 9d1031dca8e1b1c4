import Foundation
import ScanModel

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

/// Read access to the gray values of a 1-bit, 8-bit or 32-bit RGB image
/// where they are (Leptonica's layout: 32-bit words, `wordsPerLine` per
/// row), valid while the image that holds them lives. A 1-bit image reads
/// as an 8-bit copy of it would: ink (1) black, paper (0) white, without
/// the copy (8 times the image's bytes: 8.4 MB for a letter page at
/// 300 dpi).
package struct GrayView {
  package let data: UnsafeMutablePointer<UInt32>
  package let wordsPerLine: Int
  package let width: Int
  package let height: Int
  package let isRGB: Bool
  /// Whether each pixel is one bit (1 ink, 0 paper).
  package let isBinary: Bool

  package init(
    data: UnsafeMutablePointer<UInt32>, wordsPerLine: Int, width: Int, height: Int, isRGB: Bool,
    isBinary: Bool = false
  ) {
    self.data = data
    self.wordsPerLine = wordsPerLine
    self.width = width
    self.height = height
    self.isRGB = isRGB
    self.isBinary = isBinary && !isRGB
  }

  /// The gray value at (`x`, `y`): the byte of an 8-bit image, the
  /// luminance of an RGB one, 0 or 255 for a 1-bit one.
  package func value(_ x: Int, _ y: Int) -> Int {
    if isBinary {
      // Leptonica packs 1-bit pixels from each 32-bit word's highest bit;
      // its 8-bit conversion (`pixConvertTo8`) makes 0 white and 1 black.
      let bit = (data[y * wordsPerLine + (x >> 5)] >> UInt32(31 - (x & 31))) & 1
      return bit == 0 ? 255 : 0
    }
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
  /// for an 8-bit or 1-bit one (gray: no colour to tell).
  package func colour(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int)? {
    guard isRGB else { return nil }
    let p = data[y * wordsPerLine + x]
    return (Int((p >> 24) & 0xff), Int((p >> 16) & 0xff), Int((p >> 8) & 0xff))
  }
}

extension GrayView {
  /// The gray value halfway between the ink and the paper in `box`: the
  /// midpoint of its darkest and lightest values (the 2nd and 98th
  /// percentiles, so a speck or a bright pixel does not move it); `nil`
  /// when the box is empty, outside the image, or holds less than 40 gray
  /// levels between them (no ink to tell).
  /// - Complexity: O(*p*) in the box's pixels.
  package func inkMidpoint(in box: PixelRect) -> Int? {
    inkLevels(in: box).map { ($0.ink + $0.paper) / 2 }
  }

  /// The gray values of the ink and of the paper in `box`: its darkest
  /// and lightest values (the 2nd and 98th percentiles); `nil` as for
  /// ``inkMidpoint(in:)``.
  /// - Complexity: O(*p*) in the box's pixels.
  package func inkLevels(in box: PixelRect) -> (ink: Int, paper: Int)? {
    let x0 = max(0, box.minX)
    let y0 = max(0, box.minY)
    let x1 = min(width, box.maxX)
    let y1 = min(height, box.maxY)
    guard x1 > x0, y1 > y0 else { return nil }
    var histogram = [Int](repeating: 0, count: 256)
    for y in y0..<y1 {
      for x in x0..<x1 { histogram[value(x, y)] += 1 }
    }
    let count = (x1 - x0) * (y1 - y0)
    func percentile(_ share: Double) -> Int {
      let target = Int(Double(count) * share)
      var seen = 0
      for (value, n) in histogram.enumerated() {
        seen += n
        if seen > target { return value }
      }
      return 255
    }
    let dark = percentile(0.02)
    let light = percentile(0.98)
    guard light - dark >= 40 else { return nil }
    return (dark, light)
  }
}
