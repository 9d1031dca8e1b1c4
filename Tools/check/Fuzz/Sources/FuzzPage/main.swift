import Foundation
import FuzzSupport
@_spi(Fuzzing) import ScanOCR

// Any bytes as a small gray image (32-160 pixels a side): the page
// measurement (paper standing free, the page's four sides, a spread's two
// regions) and, when a page is found, its crop and straightening; never
// crash or hang.
runFuzzer { bytes in
  _ = OCREngine.findPageForFuzzing(Array(bytes))
}
