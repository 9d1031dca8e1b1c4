import CScanOCR
import Foundation
import ScanModel

/// The one owner of a Leptonica `Pix`; destroys it in `deinit`. A class
/// (not a `~Copyable` struct) so that decoded pages can live in an array;
/// it is never shared across threads.
final class LeptonicaImage {
  let pix: UnsafeMutablePointer<Pix>

  /// Takes ownership of `pix`.
  init(taking pix: UnsafeMutablePointer<Pix>) { self.pix = pix }

  deinit {
    var p: UnsafeMutablePointer<Pix>? = pix
    scantext_pixDestroy(&p)
  }

  var width: Int { Int(scantext_pixGetWidth(pix)) }
  var height: Int { Int(scantext_pixGetHeight(pix)) }
  /// The resolution tag, or `nil` when the file has none.
  var resolution: Int? {
    let r = Int(scantext_pixGetYRes(pix))
    return r > 0 ? r : nil
  }
}
