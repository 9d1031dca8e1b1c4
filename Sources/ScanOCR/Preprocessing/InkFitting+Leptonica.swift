import CScanOCR
import ScanImaging
import ScanModel

extension InkFitting {
  /// `blocks` with every glyph that carries a quad fitted to its ink in
  /// `image` (the original, any depth), when they were `mapped` back from
  /// another image: ``fitting(_:to:mapped:)-(_,GrayView,_)`` on its gray
  /// values.
  ///
  /// - Complexity: O(*p*) in the pixels of the words' boxes.
  static func fitting(_ blocks: [Block], to image: LeptonicaImage, mapped: Bool = true)
    -> [Block]
  {
    let turned =
      mapped
      && blocks.contains { b in
        b.paragraphs.contains { p in p.lines.contains { l in l.words.contains { $0.quad != nil } } }
      }
    // 1-bit, gray or RGB pixels are read where they are (converting a 12-MP
    // colour photo to gray took 8–17 ms, most of the fitting's cost);
    // other depths are converted first.
    guard turned,
      let source = GrayView(image) != nil ? image : Preprocessor.gray(image),
      let pixels = GrayView(source)
    else { return blocks }
    return withExtendedLifetime(source) { fitting(blocks, to: pixels, mapped: mapped) }
  }
}
