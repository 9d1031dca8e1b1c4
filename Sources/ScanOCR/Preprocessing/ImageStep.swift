import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// One preprocessing step: it measures the page, decides from the
/// measurement whether (and how) to change it, and applies the decision,
/// returning the new image and the map of its points back to the image it
/// was given. A step that decides nothing leaves the page alone, so a clean
/// page is recognised exactly as the `tesseract` command would.
///
/// The default pipeline is a list of steps (``Preprocessor/frameSteps``,
/// ``Preprocessor/cleaningSteps``, ``Preprocessor/geometrySteps``; their
/// order is ``StepDescriptor/pipeline``'s); ``WorkingPage/run(_:_:)`` runs one, composes
/// its map into the page's ``PointMap`` and records what it did
/// (``StepRecord``).
protocol ImageStep: Sendable {
  /// What the step looks at on the page.
  associatedtype Measurement
  /// What the step decided to do.
  associatedtype Decision

  /// What the step is: its name (its member of ``Preprocessing`` and its
  /// record), its flag, its summary, whether it runs by default.
  var descriptor: StepDescriptor { get }

  /// Every step the type runs, in order (the page steps run crop or
  /// perspective); by default ``descriptor``.
  var descriptors: [StepDescriptor] { get }

  /// Whether the step runs at all with these options (by default: its
  /// option is on).
  func isOn(_ context: StepContext) -> Bool

  /// Measures the page; `nil` when there is nothing to measure.
  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Measurement?

  /// Decides from the measurement; `nil` leaves the page alone.
  func decide(_ measurement: Measurement, _ page: WorkingPage, _ context: StepContext)
    -> Decision?

  /// Applies the decision: the new image and the map from its points back
  /// to the page's image before the step (``PointMap/identity`` when no
  /// pixel moves); `nil` when it cannot be made. The step notes on `page`
  /// what the page keeps besides its image (its turn, its skew, its
  /// resolution, the tables whose rules went); the runner sets the image
  /// and composes the map.
  func apply(_ decision: Decision, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?

  /// The page's record of the step.
  func record(_ measurement: Measurement, _ decision: Decision) -> StepRecord
}

extension ImageStep {
  var descriptors: [StepDescriptor] { [descriptor] }
  /// The step's name.
  var name: ImageStepName { descriptor.name }
  func isOn(_ context: StepContext) -> Bool { context.steps.contains(name) }
  func record(_ measurement: Measurement, _ decision: Decision) -> StepRecord {
    StepRecord(name)
  }
}

/// What every step of one preparation may read.
struct StepContext {
  /// The preprocessing's options.
  let preprocessor: Preprocessor
  /// The image as decoded (a photo, for the page steps).
  let original: LeptonicaImage
  /// The `--dpi` option.
  let dpi: Int?
  /// Quarter turns clockwise the content is turned in the original (the
  /// orientation step turns it back).
  var quarterTurns = 0
  /// `original`'s 8-bit gray copy, when already made.
  var photoGray: LeptonicaImage?
  /// The image the cleaning steps clean: the page cut out of the photo,
  /// else the original.
  var source: LeptonicaImage

  init(_ preprocessor: Preprocessor, original: LeptonicaImage, dpi: Int?, quarterTurns: Int = 0) {
    self.preprocessor = preprocessor
    self.original = original
    self.dpi = dpi
    self.quarterTurns = quarterTurns
    self.source = original
  }

  var steps: Preprocessing { preprocessor.steps }
}

/// The page as it passes from step to step.
struct WorkingPage {
  /// The image the next step works on: the photo (or the page cut out of
  /// it) until the colour step or the gray conversion, 8-bit gray after.
  var image: LeptonicaImage
  /// From ``image`` back to the original.
  var map: PointMap = .identity
  /// The steps that changed the page, in order.
  var records: [StepRecord] = []
  /// The resolution to tell Tesseract, when known.
  var resolution: Int?
  /// How far the content is turned clockwise in the original.
  var orientation = 0
  /// The skew of the text lines in the original, in degrees.
  var skew = 0.0
  /// The page cut out of a photo, when the page steps found one.
  var frame: PageStep?
  /// The table grids whose rules the rules step removed, in original pixels.
  var tables: [TableGrid] = []
  /// The boxes of the leaders the leaders step found, in original pixels.
  var leaders: [PixelRect] = []
  /// ``image`` binarised at 128, when already made (shared by the
  /// measurements until a step changes the image).
  var binary: LeptonicaImage?

  init(_ image: LeptonicaImage, resolution: Int?) {
    self.image = image
    self.resolution = resolution
  }

  /// Whether a step changed the page.
  var changed: Bool { !records.isEmpty }

  /// How the page waits to be prepared again (``compacted(original:)``).
  enum Waiting {
    /// ``image`` is the page, 8 bits deep, as the steps take it.
    case working
    /// ``image`` is the page's 1-bit image, which is also its ink: a
    /// black-and-white page the cleaning steps left black and white.
    case oneBit
    /// ``image`` is the original itself: no step changed the page, so
    /// its cleaning is the original's 8-bit gray copy, made again when a
    /// preparation needs it.
    case original
  }

  /// How ``image`` waits (``compacted(original:)``); the steps take the
  /// page ``expanded()``.
  private(set) var waiting = Waiting.working

  /// Whether ``image`` is not the 8-bit page the steps take: the page
  /// waits 1 bit deep or as its original (``waiting``).
  var isCompact: Bool { waiting != .working }

  /// The page kept in less memory while it waits to be prepared again (a
  /// turn found late, the small-text measure):
  /// - a page no step changed is the original's 8-bit gray copy, so it
  ///   waits as the original itself, with no copy (a colour page's gray
  ///   copy is 3 MB for a 2083 × 1457 scan, an 8-bit page's copy its own
  ///   size);
  /// - the 8-bit gray copy of a 1-bit original whose cleaning left every
  ///   pixel black or white (8.4 MB for a 300 dpi letter page, the
  ///   largest block of a dense page's reading) waits as its 1-bit
  ///   image, which is also its ink.
  ///
  /// Any other page is returned as it is.
  /// - Complexity: O(*n*) in the pixels.
  func compacted(original: LeptonicaImage) -> WorkingPage {
    guard waiting == .working else { return self }
    // The cleaning starts from the original's gray copy (the page steps
    // and the colour step start elsewhere, and record that they did).
    if records.isEmpty, frame == nil {
      var page = self
      page.image = original
      page.waiting = .original
      return page
    }
    guard scantext_pixGetDepth(original.pix) == 1, Preprocessor.isTwoLevel(image),
      let bits = binary ?? Preprocessor.binarize(image)
    else { return self }
    var page = self
    page.image = bits
    page.binary = nil
    page.waiting = .oneBit
    return page
  }

  /// The page 8 bits deep again, as the steps take it: the same pixels
  /// as before ``compacted(original:)``, in an image of its own. `nil`
  /// when the copy cannot be made.
  func expanded() -> WorkingPage? {
    switch waiting {
    case .working: return self
    case .oneBit:
      guard let gray = Preprocessor.gray(image) else { return nil }
      var page = self
      page.image = gray
      page.binary = image
      page.waiting = .working
      return page
    case .original:
      guard let gray = Preprocessor.gray(image) else { return nil }
      var page = self
      page.image = gray
      page.waiting = .working
      return page
    }
  }

  /// ``image`` binarised at 128.
  mutating func ink() -> LeptonicaImage? {
    if waiting == .oneBit { return image }
    if let binary { return binary }
    binary = waiting == .original ? ink(below: 128) : Preprocessor.binarize(image)
    return binary
  }

  /// The page's pixels darker than `threshold` (0–255) on its 8-bit gray
  /// page, as a 1-bit image of its own; `nil` when it cannot be made. A
  /// page waiting as its original is thresholded directly when the
  /// original is 1 or 8 bits deep without a colour map (its gray copy
  /// has the same values), else through a gray copy made for it.
  func ink(below threshold: Int32) -> LeptonicaImage? {
    var source = image
    if waiting == .original,
      scantext_pixGetColormap(image.pix) != nil
        || ![1, 8].contains(scantext_pixGetDepth(image.pix))
    {
      guard let gray = Preprocessor.gray(image) else { return nil }
      source = gray
    }
    return scantext_pixConvertTo1(source.pix, threshold).map(LeptonicaImage.init(taking:))
  }

  /// Runs one step: measure, decide, apply; when it applies, the page takes
  /// its image, composes its map and records it with the time it took.
  mutating func run<Step: ImageStep>(_ step: Step, _ context: StepContext) {
    guard step.isOn(context) else { return }
    let clock = ContinuousClock()
    let start = clock.now
    guard let measurement = step.measure(&self, context),
      let decision = step.decide(measurement, self, context),
      let applied = step.apply(decision, to: &self, context)
    else { return }
    image = applied.image
    binary = nil
    map = map.composed(after: applied.map)
    var record = step.record(measurement, decision)
    record.seconds = (clock.now - start).inSeconds
    records.append(record)
  }
}

extension Duration {
  /// The duration in seconds, as a step's record holds its time.
  var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

// MARK: - The page steps (crop, perspective)

/// Crop and perspective: a page standing free on a darker background in a
/// photo is cut out of it, and straightened from its corners when they are
/// not right angles (``Preprocessor/straightenPage(_:gray:)``).
struct PageFrameStep: ImageStep {
  let descriptor = StepDescriptor(
    .crop,
    flag: (
      "no-crop",
      "Do not crop a photographed page out of its background (perspective may still cut it out)."
    ),
    summary: "cuts a photographed page out of its background")
  var descriptors: [StepDescriptor] {
    [
      descriptor,
      StepDescriptor(
        .perspective,
        flag: ("no-perspective", "Do not correct the perspective of a photographed page."),
        summary:
          "straightens a photographed page from its corners (two pages of a spread each)"),
    ]
  }

  /// How the page is cut out.
  enum Decision {
    /// Cropped to `box`, what lies beyond `polygon` (the page's outline:
    /// its sides or its corners, in the crop's pixels) made white.
    case crop(box: PixelRect, polygon: [Point]?)
    /// Straightened from the quadrilaterals of its pages.
    case straighten(pages: [[Point]], box: PixelRect, quad: Quad)
    /// Straightened from a quadrilateral measured on its text
    /// (``Preprocessor/textPerspective``).
    case fromText(corners: [Point], box: PixelRect, quad: Quad)
  }

  func isOn(_ context: StepContext) -> Bool {
    context.steps.contains(.crop) || context.steps.contains(.perspective)
  }

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> PageOutline? {
    if let corners = context.preprocessor.textPerspective, corners.count == 4 {
      return PageOutline(corners: corners, paper: 0, background: 0)
    }
    return PageDetection.find(context.original, gray: context.photoGray)
  }

  func decide(_ outline: PageOutline, _ page: WorkingPage, _ context: StepContext) -> Decision? {
    if context.preprocessor.textPerspective != nil {
      guard context.steps.contains(.perspective) else { return nil }
      let box = outline.boundingBox(width: page.image.width, height: page.image.height)
      let c = outline.corners
      let quad = Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
      return .fromText(corners: c, box: box, quad: quad)
    }
    return Self.decide(
      outline, steps: context.steps, width: page.image.width, height: page.image.height)
  }

  static func decide(_ outline: PageOutline, steps: Preprocessing, width: Int, height: Int)
    -> Decision?
  {
    let box = outline.boundingBox(width: width, height: height)
    let c = outline.corners.map(ScanConventions.rounded)
    let quad = Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    if steps.contains(.perspective), let pages = outline.pageQuads {
      return .straighten(pages: pages, box: box, quad: quad)
    }
    guard steps.contains(.perspective),
      outline.cornerAngleDeviation >= Preprocessor.minimumPerspective
    else {
      guard steps.contains(.crop) else { return nil }
      // What lies outside the page's outline in its box is table, as the
      // straightening drops it: made white. A turned page's box holds
      // wedges of table at its corners, and a grained table's streaks
      // there (horizontal in the photo) outweighed the turned lines in
      // the skew search: `photo-1037` (develop; turned 5.6°, 1.47° from
      // square, found within 0.1 % of its corners) was cropped and not
      // deskewed, and read CER 0.59.
      let local = (outline.polygon ?? outline.corners).map {
        Point(x: $0.x - Double(box.minX), y: $0.y - Double(box.minY))
      }
      return .crop(box: box, polygon: local)
    }
    return .straighten(pages: [c], box: box, quad: quad)
  }

  /// The page cut out (and planned to be straightened) as decided.
  func frame(_ decision: Decision, of original: LeptonicaImage, _ preprocessor: Preprocessor)
    -> PageStep?
  {
    switch decision {
    case .crop(let box, let polygon):
      guard let clipped = Preprocessor.clip(original, box) else { return nil }
      // What lies beyond the page's outline in the crop (a slanted side
      // leaves a wedge of table or border) is made white.
      if let polygon { Preprocessor.whitenOutside(clipped, polygon: polygon) }
      return PageStep(
        image: clipped, transform: .undoCrop(x: box.minX, y: box.minY), crop: box,
        perspective: nil)
    case .straighten(let pages, let box, let quad):
      guard let clipped = Preprocessor.clip(original, box) else { return nil }
      return preprocessor.straighten(clipped, pages: pages, box: box, quad: quad)
    case .fromText(let corners, let box, let quad):
      guard let clipped = Preprocessor.clip(original, box) else { return nil }
      return preprocessor.straighten(clipped, pages: [corners], box: box, quad: quad)
    }
  }

  func apply(_ decision: Decision, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    guard let frame = frame(decision, of: page.image, context.preprocessor),
      let image = frame.image
    else { return nil }
    page.frame = frame
    return (image, frame.map)
  }

  func record(_ outline: PageOutline, _ decision: Decision) -> StepRecord {
    switch decision {
    case .crop: StepRecord(.crop, measurement: outline.cornerAngleDeviation)
    case .straighten(let pages, _, _):
      StepRecord(
        .perspective, measurement: outline.cornerAngleDeviation,
        decision: pages.count == 2 ? .twoPages : .applied)
    case .fromText:
      StepRecord(.perspective, measurement: outline.cornerAngleDeviation, decision: .fromText)
    }
  }
}
