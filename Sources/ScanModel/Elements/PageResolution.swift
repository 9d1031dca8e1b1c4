/// How a page's resolution is decided when its image does not say, and
/// how large a page may become: the one rule shared by recognition (which
/// records ``Page/dpi`` and ``Page/dpiSource``) and the writers that size
/// a page from it (the searchable PDF).
///
/// A scanner writes the resolution it scanned at (100–2,400 dpi); a camera,
/// a screenshot tool or an image editor writes a default (72 or 96 dpi, the
/// JFIF and PNG defaults) or nothing. Such a page's resolution is
/// estimated from its text: body text is set at about the same size on
/// every printed page, so the height of its lowercase letters (the
/// x-height) in pixels says how many pixels make an inch.
public enum PageResolution {
  /// The resolution tags taken as a scanner's: below 100 dpi, no scan of
  /// text is legible (and 72 and 96 are software defaults); above 2,400,
  /// no scanner's optical resolution reaches (Tesseract credits the same
  /// range, `kMaxCredibleResolution`).
  public static let credibleTags = 100...2400

  /// The x-height of body text, in inches: 5.2 points (0.0722 in), body
  /// text being set at 10–12 points (books, reports, letters, typewriter
  /// pica) in faces whose x-height is 0.42–0.53 of the size (Garamond
  /// 0.40, Times 0.45, Courier 0.42, Georgia 0.48, Helvetica and Arial
  /// 0.52): 11 points × 0.47. Chosen from typography, not fitted to the
  /// sample pages; a page set smaller or larger is estimated in
  /// proportion (8-point small print at 0.73 of its resolution).
  public static let bodyXHeight = 5.2 / 72

  /// The lowercase letters with neither ascender nor descender, whose
  /// height is the x-height (Latin script).
  public static let xHeightLetters: Set<Character> = Set("acemnorsuvwxz")

  /// The fewest such letters the estimate needs; with fewer, the page has
  /// too little text to measure.
  public static let minimumLetters = 20

  /// The resolution taken for a page whose image has no credible tag and
  /// too little text to measure: the most common scanning resolution.
  public static let fallback = 300

  /// The longest side, in inches, a page may get from an estimate or the
  /// fallback (a tag in ``credibleTags`` may say more: a map scanned at
  /// 600 dpi). Letter, A4 and legal pages, book spreads and tabloid
  /// newspapers fit.
  public static let maximumSide = 20.0

  /// The lowest resolution at which a `width` × `height` pixel page is at
  /// most ``maximumSide`` inches on each side.
  public static func minimum(width: Int, height: Int) -> Int {
    let side = Double(max(width, height, 1))
    return Int((side / maximumSide).rounded(.up))
  }

  /// The median x-height of a page's body text, in pixels: the heights,
  /// across their lines, of the letters in ``xHeightLetters`` standing
  /// alone as glyphs in words of running text (role `body`) read with
  /// confidence at least ``ScanConventions/lowConfidenceThreshold``; `nil`
  /// with fewer than ``minimumLetters``.
  /// A glyph's height is that of its outline (its quad on a turned or
  /// deskewed page, else its box), so a page turned by 90° is measured
  /// across its lines too.
  ///
  /// - Complexity: O(*g* log *g*) in the page's glyphs.
  public static func bodyXHeight(of blocks: [Block]) -> Double? {
    var heights: [Double] = []
    for block in blocks {
      for paragraph in block.paragraphs where paragraph.role == .body {
        for line in paragraph.lines {
          for word in line.words
          where (word.confidence ?? 0) >= ScanConventions.lowConfidenceThreshold {
            for glyph in word.glyphs {
              guard glyph.text.count == 1, let letter = glyph.text.first,
                xHeightLetters.contains(letter)
              else { continue }
              let q = glyph.corners
              let dx = q.bottomLeft.x - q.topLeft.x
              let dy = q.bottomLeft.y - q.topLeft.y
              heights.append((dx * dx + dy * dy).squareRoot())
            }
          }
        }
      }
    }
    guard heights.count >= minimumLetters else { return nil }
    heights.sort()
    let middle = heights.count / 2
    return heights.count % 2 == 1
      ? heights[middle] : (heights[middle - 1] + heights[middle]) / 2
  }

  /// The resolution to record for a recognised image, and where it came
  /// from: `option` when given (`--dpi`); else the image's tag when it is
  /// in ``credibleTags``; else estimated from the body text's x-height
  /// (``bodyXHeight``; at most 2,400 dpi), or ``fallback`` when there is
  /// too little text; an estimate or the fallback is raised, when need be,
  /// so that the page is at most ``maximumSide`` inches on a side.
  ///
  /// - Parameters:
  ///   - option: The resolution the user gave.
  ///   - tag: The image file's resolution tag.
  ///   - blocks: The recognised page's blocks, in the image's pixels.
  ///   - width: The image's width in pixels.
  ///   - height: The image's height in pixels.
  /// - Complexity: O(*g* log *g*) in the page's glyphs, when estimating.
  public static func resolve(
    option: Int?, tag: Int?, blocks: [Block], width: Int, height: Int
  ) -> (dpi: Int, source: ResolutionSource) {
    if let option { return (option, .option) }
    if let tag, credibleTags.contains(tag) { return (tag, .tag) }
    let measured = bodyXHeight(of: blocks).map {
      min(credibleTags.upperBound, Int(($0 / bodyXHeight).rounded()))
    }
    return (max(measured ?? fallback, minimum(width: width, height: height)), .estimated)
  }

  /// The resolution a writer sizes `page` with: its ``Page/dpi``, else
  /// ``fallback`` raised to keep the page within ``maximumSide`` (a model
  /// made before resolutions were recorded).
  public static func resolution(of page: Page) -> Int {
    page.dpi ?? max(fallback, minimum(width: page.width, height: page.height))
  }
}
