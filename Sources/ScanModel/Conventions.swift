/// The numeric rules every part of ScanText shares: the precision of
/// exported numbers, the largest coordinate a document may carry, and the
/// confidence below which a word counts as uncertain.
///
/// Each rule lives here once. The recogniser rounds to
/// ``exportFractionDigits`` when it builds a model, so that a model decoded
/// from its own export equals the model; the writers round to the same
/// digits; the readers refuse coordinates beyond ``coordinateLimit``; the
/// accessible HTML, `scantext draw`, the `uncertain` and
/// `attributedContent` queries and the preprocessing's word counts use
/// ``lowConfidenceThreshold``. `Tools/generate/make-scans.py` keeps its own copy of
/// the precision (it is Python and writes the sample pages' truth files;
/// see its `num`).
public enum ScanConventions {
  /// Fraction digits of the numbers ScanText exports and of the fractional
  /// values a model holds (quad and baseline points, confidences, skew): 2,
  /// hundredths of a pixel, of a degree or of a confidence percentage.
  public static let exportFractionDigits = 2

  /// `10^exportFractionDigits`: 100.
  static let exportScale: Double = {
    var scale = 1.0
    for _ in 0..<exportFractionDigits { scale *= 10 }
    return scale
  }()

  /// `x` rounded to ``exportFractionDigits`` fraction digits, halves away
  /// from zero: `91.23456` → `91.23`, `-0.004` → `-0`.
  ///
  /// - Parameter x: Any number; NaN and infinities come back unchanged.
  /// - Returns: The nearest multiple of 1/100 as the `Double` nearest to it.
  /// - Complexity: O(1).
  public static func rounded(_ x: Double) -> Double {
    (x * exportScale).rounded() / exportScale
  }

  /// `p` with both coordinates rounded as ``rounded(_:)-(Double)`` does.
  ///
  /// - Parameter p: A point in pixels.
  /// - Returns: The point at export precision.
  /// - Complexity: O(1).
  public static func rounded(_ p: Point) -> Point {
    Point(x: rounded(p.x), y: rounded(p.y))
  }

  /// `q` with every corner rounded as ``rounded(_:)-(Point)`` does.
  ///
  /// - Parameter q: A quadrilateral in pixels.
  /// - Returns: The quad at export precision, its corners in the same order.
  /// - Complexity: O(1).
  public static func rounded(_ q: Quad) -> Quad {
    Quad(
      topLeft: rounded(q.topLeft), topRight: rounded(q.topRight),
      bottomRight: rounded(q.bottomRight), bottomLeft: rounded(q.bottomLeft))
  }

  /// Fraction digits of a PDF page's pixel-to-point map
  /// (``PDFPageSource/pixelToPoint``): 6. Its entries are scales near 0.24
  /// (300 dpi) to 1; two digits would shift a point by a pixel across a
  /// large page, six keep the error under 0.01 point on the largest page a
  /// PDF allows (14,400 points).
  public static let mapFractionDigits = 6

  /// `x` rounded to ``mapFractionDigits`` fraction digits: the precision of
  /// a pixel-to-point map in a model, in its JSON and in the cache, so a
  /// page decoded from its export writes the same searchable PDF as the
  /// page recognised.
  ///
  /// - Parameter x: An entry of a pixel-to-point map.
  /// - Returns: The nearest multiple of 10⁻⁶ as the `Double` nearest to it.
  /// - Complexity: O(1).
  public static func mapRounded(_ x: Double) -> Double {
    (x * 1e6).rounded() / 1e6
  }

  /// The largest coordinate magnitude, in pixels, a document read from a
  /// file may carry: ±10,000,000. No scan comes near (a 2-metre page at
  /// 2400 dpi is 190,000 pixels), and products of larger values could
  /// overflow an `Int` area.
  public static let coordinateLimit = 10_000_000

  /// The confidence (0–100, Tesseract's scale) below which a word is
  /// uncertain: 60. Words at or above it are confident. The default of the
  /// `--min-confidence` options, of the `below` of the query protocol and
  /// of ``AttributedContent/defaultLowConfidenceThreshold``; the
  /// preprocessing steps and the resolution estimate count confident words
  /// by it.
  public static let lowConfidenceThreshold: Double = 60

  /// Whether a word is text to measure a page by (its type's height, where
  /// its pictures are): read at ``lowConfidenceThreshold`` or above, with
  /// at least two letters or digits (a lone mark or a speck read as a
  /// letter says nothing of the type).
  /// - Parameters:
  ///   - text: The word's text.
  ///   - confidence: Its confidence (0–100), when known.
  /// - Complexity: O(*n*) in the text's scalars.
  public static func isConfidentText(_ text: String, confidence: Double?) -> Bool {
    guard (confidence ?? 0) >= lowConfidenceThreshold else { return false }
    var alphanumerics = 0
    for scalar in text.unicodeScalars
    where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
      alphanumerics += 1
      if alphanumerics >= 2 { return true }
    }
    return false
  }
}
