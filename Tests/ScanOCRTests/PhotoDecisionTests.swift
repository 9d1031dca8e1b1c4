import Foundation
import ScanFormats
import ScanImaging
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
    let tools = Fixtures.packageRoot.appendingPathComponent("Tools/generate").path
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

  /// The perspective from the text on develop seeds of the `photo`
  /// family, none of whose page outlines is found: 1075 (flat, justified,
  /// in perspective 5.2° from square, one side of the frame cutting into
  /// the page) is straightened from its text and reads 175 words at
  /// confidence ≥ 60 against 102 without (CER 0.393 → 0.004, word recall
  /// 0.580 → 0.994); 1000 (flat, seen square on, turned 0.4°) measures its
  /// text block 0.11° from square and is not; 1042 (curled, in
  /// perspective) measures no clear slope family (slopes 0.0056 off their
  /// fit) and is not.
  @Test(
    "Generated develop photos with their edges out of view: perspective from the text",
    .enabled(if: GeneratedImages.python != nil, Comment(rawValue: GeneratedImages.absentMessage)))
  func perspectiveFromTheText() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = Fixtures.packageRoot.appendingPathComponent("Tools/generate").path
    try GeneratedImages.run(
      """
      import sys
      sys.path.insert(0, sys.argv[1])
      from pathlib import Path
      from families import photo
      for seed in (1075, 1000, 1042):
          photo.generate(seed, Path(sys.argv[2]))
      """, [tools, folder.path])
    func confident(_ page: Page) -> Int {
      page.words.filter { ($0.confidence ?? 0) >= ScanConventions.lowConfidenceThreshold }.count
    }
    let engine = try OCREngine()
    let without = try OCREngine(
      options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting([.perspective])))
    for (seed, straightened) in [(1075, true), (1000, false), (1042, false)] {
      let path = folder.appendingPathComponent("photo-\(seed).jpg").path
      let page = try #require(try engine.recognize(contentsOf: path).first)
      #expect(
        page.preprocessing.contains("perspective: from text") == straightened,
        "photo-\(seed): \(page.preprocessing)")
      guard straightened else { continue }
      let quad = try #require(page.perspective, "photo-\(seed)")
      #expect(quad.corners.count == 4)
      let plain = try #require(try without.recognize(contentsOf: path).first)
      #expect(confident(page) >= confident(plain) + 50, "\(confident(plain)) -> \(confident(page))")
    }
  }

  /// The generator's true corners of a generated photo (the flat sheet's,
  /// in the photo's upright frame).
  static func trueCorners(_ truth: URL) throws -> [Point] {
    let json = try JSONValue(parsing: String(contentsOf: truth, encoding: .utf8))
    let corners = try #require(json["generator"]?["photo"]?["corners"]?.arrayValue)
    return try corners.map { value in
      let xy = (value.arrayValue ?? []).compactMap(\.doubleValue)
      try #require(xy.count == 2)
      return Point(x: xy[0], y: xy[1])
    }
  }

  /// The page-edge and perspective decisions on develop seeds of the
  /// `photo` family (measured over seeds 1000–1039:
  /// docs/measurements/photo-decisions.md):
  /// 1032, flat, in perspective (4.68° from square), all edges in view:
  /// found within 0.2 % of the photo's diagonal of its true corners, sides
  /// bowing by at most 0.09 px, straightened; 1013, curled (172 page pixels
  /// at the spine), all edges in view: its top and bottom edges bow by
  /// about 10.6 px on the measuring image and the curl lifts its spine's
  /// corners off the flat sheet's (6.6 % of the diagonal), a convergence of
  /// 7.7° that is straightened (so read: CER 0.0188, word recall 1.0, 127
  /// words at confidence ≥ 60; cropped only: 0.0038, 0.992, 126); 1039, one side of the
  /// frame cutting into the page: only three sides show, and the frame is
  /// not taken for the fourth.
  @Test(
    "Generated develop photos: a flat page in perspective, a curled page, a page cut by the frame",
    .enabled(if: GeneratedImages.python != nil, Comment(rawValue: GeneratedImages.absentMessage)))
  func pageEdgeAndPerspectiveDecisions() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = Fixtures.packageRoot.appendingPathComponent("Tools/generate").path
    try GeneratedImages.run(
      """
      import sys
      sys.path.insert(0, sys.argv[1])
      from pathlib import Path
      from families import photo
      for seed in (1032, 1013, 1039):
          photo.generate(seed, Path(sys.argv[2]))
      """, [tools, folder.path])
    func load(_ seed: Int) throws -> (LeptonicaImage, [Point], GrayPixels) {
      let image = try PhotoPageTests.decode(
        folder.appendingPathComponent("photo-\(seed).jpg").path)
      let truth = try Self.trueCorners(folder.appendingPathComponent("photo-\(seed).truth.json"))
      return (image, truth, try #require(PageDetection.measuringPixels(image)))
    }
    func decision(_ outline: PageOutline, _ image: LeptonicaImage) -> PageFrameStep.Decision? {
      PageFrameStep.decide(outline, steps: .default, width: image.width, height: image.height)
    }
    func isStraightened(_ d: PageFrameStep.Decision?) -> Bool {
      if case .straighten = d { return true }
      return false
    }
    // Flat, in perspective.
    do {
      let (image, truth, pixels) = try load(1032)
      let outline = try #require(PageDetection.find(image))
      let diagonal = Double(image.width * image.width + image.height * image.height).squareRoot()
      for (found, true_) in zip(outline.corners, truth) {
        #expect(distance(found, true_) <= 0.01 * diagonal, "corner \(found) against \(true_)")
      }
      let small = try #require(PageDetection.find(in: pixels))
      for bow in SideStraightness.bows(small.corners, in: pixels) {
        #expect((bow ?? .infinity) < 0.6, "photo-1032: bow \(String(describing: bow))")
      }
      #expect(outline.cornerAngleDeviation >= Preprocessor.minimumPerspective)
      #expect(isStraightened(decision(outline, image)))
    }
    // Curled toward its spine (on the right).
    do {
      let (image, truth, pixels) = try load(1013)
      let outline = try #require(PageDetection.find(image))
      let small = try #require(PageDetection.find(in: pixels))
      let bows = SideStraightness.bows(small.corners, in: pixels)
      #expect((bows[1] ?? .infinity) < 0.6, "the spine's side is straight: \(bows)")
      #expect((bows[2] ?? 0) >= 3, "the bottom edge bows: \(bows)")
      let diagonal = Double(image.width * image.width + image.height * image.height).squareRoot()
      let lifted = zip(outline.corners, truth).map { distance($0, $1) }.max() ?? 0
      #expect(lifted > 0.01 * diagonal, "the spine's corners are lifted: \(lifted)")
      #expect(isStraightened(decision(outline, image)))
    }
    // One side of the frame cutting into the page.
    do {
      let (image, truth, pixels) = try load(1039)
      #expect(
        !truth.allSatisfy {
          $0.x >= 0 && $0.y >= 0 && $0.x < Double(image.width)
            && $0.y < Double(image.height)
        }, "a corner is out of the photo")
      #expect(PageDetection.find(in: pixels) == nil)
      #expect(PageEdges.find(in: pixels) == nil)
    }
  }

  /// The two shared phone photos: the cookbook (`boston-cooking-a`, curled,
  /// its fourth side running into the facing page) shows three sides and
  /// is neither cropped nor straightened (it is dewarped: `DewarpTests`);
  /// the thesis (`linguistics-thesis-a`) is found by four sides, one a seam,
  /// and its outline is kept only if it reads no fewer confident words
  /// (`PageEdgesTests`).
  @Test(
    "The shared photos: the cookbook shows three sides and has no outline",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func theSharedPhotosOutlines() throws {
    let cookbook = try PhotoPageTests.decode(RealScans.path("ocrd/boston-cooking-a.jpg"))
    #expect(PageDetection.find(cookbook) == nil)
    let thesis = try PhotoPageTests.decode(RealScans.path("ocrd/linguistics-thesis-a.jpg"))
    let outline = try #require(PageDetection.find(thesis))
    #expect(outline.polygon != nil, "found by its sides")
  }

  /// A page cropped only (its corners under 1.5° from square) keeps no
  /// table in its box: what lies outside its outline is made white, as
  /// straightening would drop it. Develop seed 1037 (turned 5.6°, 1.47°
  /// from square, on a grained table): before, its box's corners held the
  /// table's streaks, the deskew step did not act, and it read CER 0.59,
  /// word recall 0.47; now it is deskewed (−5.92°) and reads CER 0, recall 1.
  @Test(
    "A turned page cropped only is deskewed, the table outside its outline made white",
    .enabled(if: GeneratedImages.python != nil, Comment(rawValue: GeneratedImages.absentMessage)))
  func aTurnedPageCroppedOnlyIsDeskewed() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = Fixtures.packageRoot.appendingPathComponent("Tools/generate").path
    try GeneratedImages.run(
      """
      import sys
      sys.path.insert(0, sys.argv[1])
      from pathlib import Path
      from families import photo
      photo.generate(1037, Path(sys.argv[2]))
      """, [tools, folder.path])
    let image = try PhotoPageTests.decode(folder.appendingPathComponent("photo-1037.jpg").path)
    let outline = try #require(PageDetection.find(image))
    #expect(outline.cornerAngleDeviation < Preprocessor.minimumPerspective)
    let decision = PageFrameStep.decide(
      outline, steps: .default, width: image.width, height: image.height)
    guard case .crop(_, let polygon) = decision else {
      Issue.record("not cropped only: \(String(describing: decision))")
      return
    }
    #expect(polygon?.count == 4, "the outline's corners whiten the box outside the page")
    let prepared = Preprocessor(steps: .default).prepare(image, dpi: nil)
    #expect(prepared.applied.first?.step == .crop, "\(prepared.recorded)")
    let deskew = try #require(
      prepared.applied.first { $0.step == .deskew }, "\(prepared.recorded)")
    #expect(abs(abs(deskew.measurement ?? 0) - 5.6) <= 0.6, "\(prepared.recorded)")
  }
}
