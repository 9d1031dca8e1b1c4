/// What OCR read in a barcode's bars taken out of the words: a barcode is
/// a figure, not text ("| |||| 1 Il ||" is no word of the page).
///
/// Where the barcodes lie is found in the image (ScanImaging's
/// `Barcodes`); here each word half of whose box or more lies inside a
/// barcode goes. The digits printed under the bars lie outside them and
/// stay. A line, paragraph or block left without words goes too; the
/// page's text and ranges are built from what is left (``Page``).
public enum BarcodeWords {
  /// The blocks without what was read over the barcodes.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - barcodes: The barcodes' boxes, in the same pixels.
  /// - Returns: The blocks without the words read in the barcodes;
  ///   `blocks` unchanged when there are none.
  /// - Complexity: O(*w* · *b*) in the page's words and barcodes.
  public static func removing(from blocks: [Block], barcodes: [PixelRect]) -> [Block] {
    guard !barcodes.isEmpty else { return blocks }
    return SliverNoise.replacingWords(in: blocks) { word in
      let inside = barcodes.reduce(0) { $0 + (word.bbox.intersection($1)?.area ?? 0) }
      return word.bbox.area > 0 && 2 * inside >= word.bbox.area ? [] : [word]
    }
  }
}
