import CScanOCR
import ScanImaging
import ScanModel

extension OCREngine {
  /// The pictures on a recognised page (``ScanImaging/PictureRegions``),
  /// each a ``ScanModel/Figure`` in the original image's pixels; none on a
  /// page that was not recognised from its pixels.
  ///
  /// - Parameters:
  ///   - image: The page's original image (before any preprocessing).
  ///   - blocks: Its recognised blocks, in the same pixels.
  static func figures(on image: LeptonicaImage, blocks: [Block]) -> [Figure] {
    let words = blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }.map {
      PictureRegions.Word(box: $0.bbox, text: $0.text, confidence: $0.confidence)
    }
    func find(_ view: GrayView) -> [Figure] {
      PictureRegions.find(
        width: view.width, height: view.height, gray: { view.value($0, $1) },
        colour: { view.colour($0, $1) }, words: words
      ).map { Figure(bbox: $0) }
    }
    if let view = GrayView(image) { return find(view) }
    // Colour-mapped pages and 2-, 4- or 16-bit ones: their 8-bit gray copy.
    guard let pix = scantext_pixConvertTo8(image.pix, 0) else { return [] }
    let gray = LeptonicaImage(taking: pix)
    guard let view = GrayView(gray) else { return [] }
    return withExtendedLifetime(gray) { find(view) }
  }

  /// The barcodes and QR codes on a page's original image
  /// (``ScanImaging/Barcodes``), in its pixels, each with what a figure of
  /// it says ("Barcode", "QR code").
  ///
  /// The image is binarised halfway between its paper (the 90th
  /// percentile of its gray values) and its darkest ink (the 1st): a
  /// thermal receipt's faded gray bars fall above a fixed threshold.
  /// A black-and-white page is already that binarisation: its components
  /// are taken as they are (no 8-bit copy, 8 MB on a 300 dpi page).
  /// - Parameter image: The page's original image (before any
  ///   preprocessing).
  static func barcodes(on image: LeptonicaImage) -> [(box: PixelRect, name: String)] {
    func codes(_ components: [PixelRect]) -> [(box: PixelRect, name: String)] {
      Barcodes.find(in: components).map { ($0, "Barcode") }
        + Barcodes.qrCodes(in: components).map { ($0, "QR code") }
    }
    if scantext_pixGetDepth(image.pix) == 1, scantext_pixGetColormap(image.pix) == nil {
      return codes(Preprocessor.componentBoxes(image))
    }
    guard let pix = scantext_pixConvertTo8(image.pix, 0) else { return [] }
    let gray = LeptonicaImage(taking: pix)
    var paper: UInt32 = 0
    var ink: UInt32 = 0
    guard scantext_pixGetRankValue(gray.pix, 2, 0.9, &paper) == 0,
      scantext_pixGetRankValue(gray.pix, 2, 0.01, &ink) == 0, paper > ink + 40,
      let binary = scantext_pixConvertTo1(gray.pix, Int32((paper + ink) / 2))
    else { return [] }
    return codes(Preprocessor.componentBoxes(LeptonicaImage(taking: binary)))
  }
}
