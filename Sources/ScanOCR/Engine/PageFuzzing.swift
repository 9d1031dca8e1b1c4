import CScanOCR
import Foundation
import ScanImaging

extension LeptonicaImage {
  /// An 8-bit gray image with the given pixels (Leptonica loaded first);
  /// `nil` when it cannot be made.
  convenience init?(gray pixels: GrayPixels) {
    guard (try? OCRLibraries.load()) != nil, pixels.width > 0, pixels.height > 0,
      pixels.values.count == pixels.width * pixels.height,
      let pix = scantext_pixCreate(Int32(pixels.width), Int32(pixels.height), 8)
    else { return nil }
    self.init(taking: pix)
    guard let data = scantext_pixGetData(pix) else { return nil }
    let words = Int(scantext_pixGetWpl(pix))
    let bytes = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt8.self)
    for y in 0..<pixels.height {
      for x in 0..<pixels.width {
        // Leptonica packs 8-bit pixels big-endian within each 32-bit word.
        bytes[y * 4 * words + (x ^ 3)] = pixels.values[y * pixels.width + x]
      }
    }
  }
}

extension OCREngine {
  /// Finds the page of a small gray image made of any bytes (the first
  /// two give its size, 32–160 pixels a side; the rest, repeated, its
  /// pixels), as the page steps would, and straightens it when found;
  /// returns the number of corners found. For the fuzzers (`Tools/check/Fuzz`).
  @_spi(Fuzzing) public static func findPageForFuzzing(_ bytes: [UInt8]) -> Int {
    guard bytes.count >= 3, (try? OCRLibraries.load()) != nil else { return 0 }
    let w = 32 + Int(bytes[0]) % 129
    let h = 32 + Int(bytes[1]) % 129
    let body = bytes.dropFirst(2)
    var values = [UInt8](repeating: 0, count: w * h)
    for i in values.indices { values[i] = body[body.startIndex + i % body.count] }
    let pixels = GrayPixels(width: w, height: h, values: values)
    _ = PageEdges.find(in: pixels)
    guard let image = LeptonicaImage(gray: pixels),
      let step = Preprocessor(steps: .default).straightenPage(image),
      let gray = step.image.flatMap(Preprocessor.gray),
      step.straightened(gray) != nil
    else { return 0 }
    return step.perspective == nil ? 1 : 4
  }
}

extension OCREngine {
  /// Decodes every page of an image held in memory, as recognition would,
  /// without recognising it; returns the number of pages decoded. For the
  /// fuzzers (`Tools/check/Fuzz`).
  @_spi(Fuzzing) public static func decodeForFuzzing(_ data: Data, maxPixels: Int) -> Int {
    guard let source = try? ImageSource(data, path: "input", maxPixels: maxPixels) else {
      return 0
    }
    var decoded = 0
    for index in 0..<source.pageCount where (try? source.decode(page: index)) != nil {
      decoded += 1
    }
    return decoded
  }
}
