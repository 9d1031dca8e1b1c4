import ScanModel

extension Page {
  /// The page built anew from its blocks and fields with the given PDF
  /// source, resolution source and orientation tag (none where not
  /// given), for a test that needs a page like one read or decoded but
  /// with other provenance: the library builds a page once, with all of
  /// it, and has no method that patches it.
  public func rebuilt(
    pdf: PDFPageSource? = nil, dpiSource: ResolutionSource? = nil, exifOrientation: Int? = nil
  ) -> Page {
    Page(
      index: index, image: image, width: width, height: height, dpi: dpi,
      orientation: orientation, skew: skew, language: language, blocks: blocks, steps: steps,
      crop: crop, perspective: perspective, pdf: pdf, source: source, dpiSource: dpiSource,
      exifOrientation: exifOrientation)
  }
}
