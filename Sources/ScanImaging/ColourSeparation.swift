/// Ink of a saturated hue (a rubber stamp, a coloured pen) told from
/// neutral ink by its colour, measured against the page's own colours.
///
/// On a page of neutral ink on paper every pixel of print lies on the
/// line from the ink's colour to the paper's (its *neutral axis*): an
/// anti-aliased edge or a faded stroke is a mix of the two, whatever the
/// paper's tint. A stamp's ink leaves that line; how far a pixel lies from
/// it is its chroma here. One channel cannot tell it: a blue-violet stamp
/// pressed lightly over cream paper is 36 apart between its brightest and
/// darkest channels where the paper is 30 (`stamp-1000`), but 32 from
/// the neutral axis where the paper is 0–13.
///
/// The threshold comes from the page: three times the chroma that 99 % of
/// the paper's pixels stay under (its mottle, the JPEG's noise), and at
/// least 20 above it. On the real colour scans in `../shared/scans`
/// (aged paper, foxing, show-through) fewer than 0.003 % of the pixels
/// reach it (`kant-0017`, `dibco11-pr1`); on the stamped pages of the
/// `stamp` family 0.09–0.3 %. A page is taken for stamped when at least
/// ``minimumShare`` of its pixels do (the caller then checks that they
/// form marks over the print).
///
/// Where saturated ink lies, the *neutral layer* is what the page would
/// be without it: the paper's gray, unless the pixel is darker than the
/// stamp's own lightness and the page's midpoint between ink and paper
/// (told by its brightest channel: a stamp multiplies every channel, and
/// neutral ink under it keeps its darkness in all three). There the
/// darker, neutral ink wins and the pixel keeps its brightest channel.
package struct ColourSeparation: Equatable, Sendable {
  /// A colour: red, green and blue, 0–255.
  package typealias RGB = SIMD3<Double>

  /// The paper's colour (the median of each channel over the lighter half
  /// of the pixels).
  package var paper: RGB
  /// The neutral ink's colour (the median of each channel over the
  /// darkest 1 % of the pixels).
  package var ink: RGB
  /// The chroma (distance from the neutral axis) from which a pixel is
  /// saturated ink.
  package var threshold: Double
  /// The share of the pixels at or above ``threshold``, 0–1.
  package var share: Double
  /// The gray a pixel of saturated ink takes when no neutral ink lies
  /// under it: the paper's luminance.
  package var paperGray: UInt8
  /// A pixel of saturated ink whose brightest channel is below this holds
  /// neutral ink under the stamp and keeps its brightest channel.
  package var neutralBelow: Int

  /// The share of saturated pixels from which a page is taken for
  /// stamped: 0.05 %. The stamped pages of the `stamp` family measure
  /// 0.09–0.3 %, the real colour scans at most 0.003 %.
  package static let minimumShare = 0.0005
  /// The threshold is this many times the paper's 99th percentile of
  /// chroma …
  package static let paperSpreadFactor = 3.0
  /// … and at least this far above it.
  package static let minimumMargin = 20.0

  /// The distance of `colour` from the line through the ink's and the
  /// paper's colours.
  /// - Complexity: O(1).
  package func chroma(_ colour: RGB) -> Double {
    Self.chroma(colour, ink: ink, paper: paper)
  }

  private static func chroma(_ colour: RGB, ink: RGB, paper: RGB) -> Double {
    let axis = paper - ink
    let length = (axis * axis).sum()
    let offset = colour - ink
    guard length > 0 else { return (offset * offset).sum().squareRoot() }
    let along = (offset * axis).sum() / length
    let residual = offset - along * axis
    return (residual * residual).sum().squareRoot()
  }

  /// The gray of a pixel in the neutral layer when it is saturated ink
  /// (its chroma at least `threshold`, ``threshold`` by default): the
  /// paper's gray, or its brightest channel where neutral ink lies under
  /// it; `nil` for a pixel that is not.
  /// - Complexity: O(1).
  package func neutralGray(_ colour: RGB, threshold: Double? = nil) -> UInt8? {
    guard chroma(colour) >= threshold ?? self.threshold else { return nil }
    let brightest = colour.max()
    return brightest < Double(neutralBelow) ? UInt8(max(0, min(255, brightest))) : paperGray
  }

  /// The gray value of a colour as Leptonica's `pixConvertRGBToLuminance`
  /// weighs it (0.3 red, 0.5 green, 0.2 blue).
  static func luminance(_ c: RGB) -> Int {
    Int((0.3 * c.x + 0.5 * c.y + 0.2 * c.z).rounded())
  }

  /// Measures a page from a sample of its pixels (every 4th pixel of
  /// every 4th row is plenty); `nil` when there are no pixels or the page
  /// has no contrast between ink and paper.
  /// - Parameter samples: The sampled pixels' colours.
  /// - Complexity: O(*n*) for *n* samples.
  package static func measure(_ samples: [RGB]) -> ColourSeparation? {
    guard !samples.isEmpty else { return nil }
    let lum = samples.map(luminance)
    var lumHistogram = [Int](repeating: 0, count: 256)
    for l in lum { lumHistogram[min(255, max(0, l))] += 1 }
    let median = percentile(lumHistogram, 0.5)
    let dark = percentile(lumHistogram, 0.01)
    guard median > dark else { return nil }
    var paperChannels = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
    var inkChannels = paperChannels
    for (c, l) in zip(samples, lum) {
      for i in 0..<3 {
        let v = min(255, max(0, Int(c[i])))
        if l >= median { paperChannels[i][v] += 1 }
        if l <= dark { inkChannels[i][v] += 1 }
      }
    }
    let paper = RGB((0..<3).map { Double(percentile(paperChannels[$0], 0.5)) })
    let ink = RGB((0..<3).map { Double(percentile(inkChannels[$0], 0.5)) })
    // Chroma in whole levels (at most 442, the cube's diagonal).
    let chromas = samples.map { Int(chroma($0, ink: ink, paper: paper).rounded()) }
    var paperChroma = [Int](repeating: 0, count: 443)
    for (d, l) in zip(chromas, lum) where l >= median { paperChroma[min(442, d)] += 1 }
    let spread = Double(percentile(paperChroma, 0.99))
    let threshold = max(paperSpreadFactor * spread, spread + minimumMargin)
    var saturated = 0
    var stampBrightest = [Int](repeating: 0, count: 256)
    for (c, d) in zip(samples, chromas) where Double(d) >= threshold {
      saturated += 1
      stampBrightest[min(255, max(0, Int(c.max())))] += 1
    }
    let paperGray = luminance(paper)
    let midpoint = (Int(ink.max()) + Int(paper.max())) / 2
    let stampLightness = saturated > 0 ? percentile(stampBrightest, 0.5) : midpoint
    return ColourSeparation(
      paper: paper, ink: ink, threshold: threshold,
      share: Double(saturated) / Double(samples.count),
      paperGray: UInt8(min(255, max(0, paperGray))),
      neutralBelow: min(midpoint, stampLightness))
  }

  /// Whether the page holds enough saturated ink to separate
  /// (``minimumShare``).
  package var holdsSaturatedInk: Bool { share >= Self.minimumShare }

  /// The smallest value whose cumulative count reaches `fraction` of a
  /// histogram's total.
  private static func percentile(_ histogram: [Int], _ fraction: Double) -> Int {
    let total = histogram.reduce(0, +)
    let target = max(1, Int((Double(total) * fraction).rounded(.up)))
    var sum = 0
    for (value, count) in histogram.enumerated() {
      sum += count
      if sum >= target { return value }
    }
    return histogram.count - 1
  }
}
