import CScanOCR
import ScanImaging

extension GrayPixels {
  /// Decodes the first page of an image file into gray pixels.
  static func read(_ path: String) throws(OCRError) -> GrayPixels {
    let data = try ImageReader.readBytes(path)
    let pages = try ImageReader.decodePages(data, path: path, maxPixels: .max)
    guard let first = pages.first, let gray = scantext_pixConvertTo8(first.pix, 0) else {
      throw .corruptImage(path: path, format: "image")
    }
    guard let pixels = GrayPixels(LeptonicaImage(taking: gray)) else {
      throw .corruptImage(path: path, format: "image")
    }
    return pixels
  }

  /// The pixels of an 8-bit gray image; `nil` for another depth or a
  /// colour map.
  init?(_ image: LeptonicaImage) {
    guard scantext_pixGetDepth(image.pix) == 8, let view = GrayView(image) else { return nil }
    let w = image.width
    var values = [UInt8](repeating: 0, count: w * image.height)
    for y in 0..<image.height {
      for x in 0..<w { values[y * w + x] = UInt8(view.value(x, y)) }
    }
    self.init(width: w, height: image.height, values: values)
  }
}

extension GrayView {
  /// The gray values of a 1-bit or 8-bit (no colour map) or 32-bit RGB
  /// Leptonica image where they are; `nil` for another depth.
  init?(_ image: LeptonicaImage) {
    let depth = scantext_pixGetDepth(image.pix)
    guard (depth == 1 || depth == 8) && scantext_pixGetColormap(image.pix) == nil || depth == 32,
      let data = scantext_pixGetData(image.pix)
    else { return nil }
    self.init(
      data: data, wordsPerLine: Int(scantext_pixGetWpl(image.pix)), width: image.width,
      height: image.height, isRGB: depth == 32, isBinary: depth == 1)
  }
}
