import ScanImaging
import Testing

/// Colour separation on synthetic pixels: a pale stamp on tinted paper is
/// told from the paper and the neutral ink by the page's own colours, the
/// neutral layer keeps the ink under it, and a page of aged paper without
/// a stamp holds no saturated ink.
@Suite("Colour separation")
struct ColourSeparationTests {
  typealias RGB = ColourSeparation.RGB

  static let cream = RGB(240, 232, 210)
  static let ink = RGB(30, 30, 30)
  /// Blue-violet at 60 % strength, multiplied over `colour` as ink is.
  static func stamped(_ colour: RGB, strength: Double = 0.6) -> RGB {
    let violet = RGB(85, 60, 175) / 255
    return colour * (1 - strength + strength * violet)
  }

  /// A page sample: paper with a little noise (deterministic), 8 % text
  /// (ink and its anti-aliased edges), and `stamp` pixels of a stamp over
  /// paper out of every 1000.
  static func page(stamp: Int, paper: RGB = cream, noise: Double = 3) -> [RGB] {
    var samples: [RGB] = []
    for i in 0..<20_000 {
      let jitter = Double((i * 37) % 7 - 3) / 3 * noise
      let paperHere = paper + RGB(repeating: jitter)
      switch i % 1000 {
      case 0..<60: samples.append(ink)
      case 60..<80:
        let t = Double(i % 5 + 1) / 6
        samples.append(ink + t * (paperHere - ink))
      case 80..<(80 + stamp): samples.append(stamped(paperHere))
      default: samples.append(paperHere)
      }
    }
    return samples
  }

  @Test func aPaleStampOnTintedPaperIsSaturatedInk() throws {
    let separation = try #require(ColourSeparation.measure(Self.page(stamp: 10)))
    let pale = Self.stamped(Self.cream)
    // One channel cannot tell it: its spread (red to green) is barely the
    // paper's own.
    #expect(pale.max() - pale.min() < 2 * (Self.cream.max() - Self.cream.min()))
    #expect(separation.holdsSaturatedInk, "share \(separation.share)")
    #expect(separation.chroma(Self.cream) < 1)
    #expect(separation.chroma(Self.ink) < 1)
    #expect(separation.chroma(pale) >= separation.threshold)
    // Mixes of ink and paper (anti-aliased edges, faded strokes) are
    // neutral whatever the paper's tint.
    #expect(separation.chroma(Self.ink + 0.5 * (Self.cream - Self.ink)) < 1)
  }

  @Test func theNeutralLayerIsPaperWhereTheStampLiesAlone() throws {
    let separation = try #require(ColourSeparation.measure(Self.page(stamp: 10)))
    #expect(separation.neutralGray(Self.stamped(Self.cream)) == separation.paperGray)
    #expect(Int(separation.paperGray) > 220)
    // Paper and neutral ink are not saturated: the layer leaves them.
    #expect(separation.neutralGray(Self.cream) == nil)
    #expect(separation.neutralGray(Self.ink) == nil)
  }

  @Test func theDarkerNeutralInkUnderAStampWins() throws {
    let separation = try #require(ColourSeparation.measure(Self.page(stamp: 10)))
    // A text edge under the stamp: half ink, half paper, then stamped. It
    // is saturated, but darker than the stamp alone: it keeps its
    // darkness (its brightest channel), not the paper's gray.
    let edge = Self.stamped(Self.ink + 0.35 * (Self.cream - Self.ink))
    #expect(separation.chroma(edge) >= separation.threshold / 2)
    let gray = try #require(separation.neutralGray(edge, threshold: separation.threshold / 2))
    #expect(Int(gray) < separation.neutralBelow)
    #expect(Int(gray) < 128, "\(gray)")
  }

  @Test func agedPaperWithoutAStampHoldsNoSaturatedInk() throws {
    // Yellowed paper, mottled more than the generator's: no stamp.
    let aged = Self.page(stamp: 0, paper: RGB(228, 210, 170), noise: 8)
    let separation = try #require(ColourSeparation.measure(aged))
    #expect(!separation.holdsSaturatedInk, "share \(separation.share)")
    #expect(separation.share == 0)
  }

  @Test func aPageWithoutContrastIsNotMeasured() {
    #expect(ColourSeparation.measure([]) == nil)
    #expect(ColourSeparation.measure(Array(repeating: Self.cream, count: 100)) == nil)
  }
}
