import Foundation
import FuzzSupport
@_spi(Fuzzing) import ScanOCR

// Any bytes as an image file: decoded page by page as recognition would
// (format detection, header checks, libtiff's page walk, Leptonica and
// libtiff decoding), with a 4-megapixel limit; never crash or hang.
runFuzzer { bytes in
  let data = Data(bytes)
  _ = OCREngine.decodeForFuzzing(data, maxPixels: 4_000_000)
}
