/// A region of a page that holds a picture rather than text: an
/// illustration, a woodcut, a photograph, a diagram.
///
/// A figure has no text range: it is not part of ``Page/text``. A tagged PDF
/// writes it as a `Figure` structure element at its place in reading order,
/// with ``alternativeText`` (or "Picture") as its `/Alt`.
///
/// The engine finds them on the page's ink (not from Tesseract's image
/// blocks, measured unreliable on the real scans: see the README's "Tagged
/// PDF" section), unless told not to; a page also gets them from its JSON
/// (`"figures"`) or from a caller.
public struct Figure: Hashable, Sendable {
  /// The figure's upright box, in the page's pixels.
  public var bbox: PixelRect
  /// The figure's outline (top-left, top-right, bottom-right, bottom-left),
  /// when it is not its upright box.
  public var quad: Quad?
  /// What a screen reader says for the figure (a caption, a description);
  /// `nil` when nothing is known.
  public var alternativeText: String?

  /// Creates a figure.
  /// - Parameters:
  ///   - bbox: The figure's upright box, in the page's pixels.
  ///   - quad: Its outline, when it is not `bbox`.
  ///   - alternativeText: What a screen reader says for it, when known.
  public init(bbox: PixelRect, quad: Quad? = nil, alternativeText: String? = nil) {
    self.bbox = bbox
    self.quad = quad
    self.alternativeText = alternativeText
  }

  /// The figure's corners: its outline, or its box's.
  public var corners: Quad { quad ?? Quad(bbox.rect) }
}
