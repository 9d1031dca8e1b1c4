import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The photo decisions from the physics of a curled page (issue 29,
/// point 5): the measure on synthetic line sets, and the decision on
/// generated develop photos of the `photo` family.
@Suite("Photo decisions: curled or flat, from the lines' curvatures")
struct PhotoDecisionTests {
  /// Lines 40 px apart on a page 1,000 px wide.
  static let middles = (0..<16).map { 100 + 40 * Double($0) }
  /// Small curvatures of either sign, as Leptonica fits to straight lines
  /// (a flat page: at most ±20 millionths, no trend).
  static let noise: [Double] = [
    7, -12, 3, 15, -9, -2, 11, -18, 4, -6, 9, -14, 1, 13, -5, -8,
  ].map { $0 * 1e-6 }

  @Test func aFlatPagesNoiseIsNeitherBentNorCoherent() throws {
    let flat = try #require(
      Preprocessor.lineBend(curvatures: Self.noise, middles: Self.middles, width: 1000))
    #expect(flat.bend < 0.1, "\(flat.bend)")
    #expect(flat.coherence < 0.5, "\(flat.coherence)")
  }

  @Test func aPageCurledAlikeIsBentAndCoherent() throws {
    // Every line bent by 50 millionths (a page seen square on, curling
    // toward its spine), with the same noise: bent from its middle to the
    // page's edges by 50e-6 × 500² = 12.5 px, a third of the spacing.
    let curled = Self.noise.map { $0 - 50e-6 }
    let measured = try #require(
      Preprocessor.lineBend(curvatures: curled, middles: Self.middles, width: 1000))
    #expect(abs(measured.bend - 12.5 / 40) < 0.05, "\(measured.bend)")
    #expect(measured.coherence >= Preprocessor.minimumCurlCoherence, "\(measured.coherence)")
  }

  @Test func aPageCurledFromAboveBendsOneWayAtTheTopAndTheOtherAtTheBottom() throws {
    // A book photographed from above: the curvature turns from +120 to
    // −60 millionths down the page (`boston-cooking-a` measures +129 to
    // −66); the median line is nearly straight, the page is not.
    let curvatures = Self.middles.enumerated().map { i, _ in
      (120 - 12 * Double(i)) * 1e-6 + Self.noise[i] / 2
    }
    let measured = try #require(
      Preprocessor.lineBend(curvatures: curvatures, middles: Self.middles, width: 1000))
    #expect(measured.bend >= Preprocessor.minimumBend, "\(measured.bend)")
    #expect(measured.coherence >= Preprocessor.minimumCurlCoherence, "\(measured.coherence)")
  }

  @Test func noLinesOrOneHeightMeasureNothing() {
    #expect(Preprocessor.lineBend(curvatures: [], middles: [], width: 100) == nil)
    #expect(
      Preprocessor.lineBend(curvatures: [1e-5, 2e-5], middles: [50, 50], width: 100) == nil)
  }

  /// Develop seeds of the `photo` family (never checking seeds): 1013 is
  /// curled (172 page pixels at the spine; bend 0.81, coherence 0.99),
  /// 1029 flat with its edges in view (bend 0.003). Prepared without
  /// recognition: the dewarp step's decision is the page's.
  @Test(
    "A generated curled develop photo is dewarped, a flat one is not",
    .enabled(if: GeneratedImages.python != nil, Comment(rawValue: GeneratedImages.absentMessage)))
  func generatedDevelopPhotos() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = Fixtures.packageRoot.appendingPathComponent("Tools").path
    try GeneratedImages.run(
      """
      import sys
      sys.path.insert(0, sys.argv[1])
      from pathlib import Path
      from families import photo
      for seed in (1013, 1029):
          photo.generate(seed, Path(sys.argv[2]))
      """, [tools, folder.path])
    let preprocessor = Preprocessor(steps: .default)
    for (seed, curled) in [(1013, true), (1029, false)] {
      let path = folder.appendingPathComponent("photo-\(seed).jpg").path
      let prepared = preprocessor.prepare(try PhotoPageTests.decode(path), dpi: nil)
      let dewarp = prepared.applied.first { $0.step == .dewarp }
      #expect((dewarp != nil) == curled, "photo-\(seed): \(prepared.recorded)")
      if let bend = dewarp?.measurement {
        #expect(bend >= Preprocessor.minimumBend && bend < 1.5, "photo-\(seed): bend \(bend)")
      }
    }
  }
}
