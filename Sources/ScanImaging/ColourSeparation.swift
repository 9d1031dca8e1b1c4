/// Ink of a saturated hue (a rubber stamp, a coloured pen) told from
/// neutral ink by its colour, measured against the page's own colours.
///
/// On a page of neutral ink on paper every pixel of print lies on the
/// line from the ink's colour to the paper's (its *neutral axis*): an
/// anti-aliased edge or a faded stroke is a mix of the two, whatever the
/// paper's tint. A stamp's ink leaves that line; how far a pixel lies from
/// it is its chroma here. One channel cannot tell it: a blue-violet stamp
/// pressed lightly over cream paper is 36 apart between its brightest and
/// darkest channels where the paper is 30 (a page generated on
/// 2026-12-07), but 32 from the neutral axis where the paper is 0–13.
///
/// The threshold comes from the page: three times the chroma that 99 % of
/// the paper's pixels stay under (its mottle, the JPEG's noise), and at
/// least 20 above it. On the real colour scans in `../shared/scans`
/// (aged paper, foxing, show-through) fewer than 0.003 % of the pixels
/// reach it (`kant-0017`, `dibco11-pr1`); on pale stamps generated on
/// tinted paper 0.09–0.3 %. A page holds saturated ink when at least
/// ``minimumShare`` of its pixels do; the caller then looks for stamps
/// over the text among them (born-digital colour pages reach the share
/// with coloured headings and screenshots alone).
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
  /// stamped: 0.05 %. Pale stamps generated on tinted paper measure
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
    func channel(_ i: Int) -> [UInt8] { samples.map { UInt8(max(0, min(255, $0[i]))) } }
    return measure(red: channel(0), green: channel(1), blue: channel(2))
  }

  /// Measures a page from a sample of its pixels, one array a channel
  /// (see ``measure(_:)``).
  /// - Complexity: O(*n*) for *n* samples.
  package static func measure(red: [UInt8], green: [UInt8], blue: [UInt8]) -> ColourSeparation? {
    let n = min(red.count, green.count, blue.count)
    guard n > 0 else { return nil }
    // Plain integer loops: a page's sample is half a million pixels, and
    // the debug build is slow at anything more.
    var lum = [UInt8](repeating: 0, count: n)
    var lumHistogram = [Int](repeating: 0, count: 256)
    for i in 0..<n {
      let l = (3 * Int(red[i]) + 5 * Int(green[i]) + 2 * Int(blue[i]) + 5) / 10
      lum[i] = UInt8(l)
      lumHistogram[l] += 1
    }
    let median = percentile(lumHistogram, 0.5)
    let dark = percentile(lumHistogram, 0.01)
    guard median > dark else { return nil }
    var paperR = [Int](repeating: 0, count: 256)
    var paperG = paperR
    var paperB = paperR
    var inkR = paperR
    var inkG = paperR
    var inkB = paperR
    for i in 0..<n {
      let l = Int(lum[i])
      if l >= median {
        paperR[Int(red[i])] += 1
        paperG[Int(green[i])] += 1
        paperB[Int(blue[i])] += 1
      }
      if l <= dark {
        inkR[Int(red[i])] += 1
        inkG[Int(green[i])] += 1
        inkB[Int(blue[i])] += 1
      }
    }
    let paper = RGB(
      Double(percentile(paperR, 0.5)), Double(percentile(paperG, 0.5)),
      Double(percentile(paperB, 0.5)))
    let ink = RGB(
      Double(percentile(inkR, 0.5)), Double(percentile(inkG, 0.5)),
      Double(percentile(inkB, 0.5)))
    // Chroma in whole levels (at most 442, the cube's diagonal).
    let (a0, a1, a2) = (paper.x - ink.x, paper.y - ink.y, paper.z - ink.z)
    let length = a0 * a0 + a1 * a1 + a2 * a2
    var chromas = [Int](repeating: 0, count: n)
    var paperChroma = [Int](repeating: 0, count: 443)
    for i in 0..<n {
      let o0 = Double(red[i]) - ink.x
      let o1 = Double(green[i]) - ink.y
      let o2 = Double(blue[i]) - ink.z
      let along = o0 * a0 + o1 * a1 + o2 * a2
      let d2 = o0 * o0 + o1 * o1 + o2 * o2 - along * along / length
      let d = min(442, Int(max(0, d2).squareRoot().rounded()))
      chromas[i] = d
      if Int(lum[i]) >= median { paperChroma[d] += 1 }
    }
    let spread = Double(percentile(paperChroma, 0.99))
    let threshold = max(paperSpreadFactor * spread, spread + minimumMargin)
    var saturated = 0
    var stampBrightest = [Int](repeating: 0, count: 256)
    for i in 0..<n where Double(chromas[i]) >= threshold {
      saturated += 1
      stampBrightest[Int(max(red[i], green[i], blue[i]))] += 1
    }
    let paperGray = luminance(paper)
    let midpoint = (Int(ink.max()) + Int(paper.max())) / 2
    let stampLightness = saturated > 0 ? percentile(stampBrightest, 0.5) : midpoint
    return ColourSeparation(
      paper: paper, ink: ink, threshold: threshold,
      share: Double(saturated) / Double(n),
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
