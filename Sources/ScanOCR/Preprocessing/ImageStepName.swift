/// The preprocessing steps of the default pipeline, in the order they run
/// on a page: the one list that the steps' option bits, their `--no-…`
/// flags, the names the page records, the preprocessing benchmark and the
/// README's and `docs/ARCHITECTURE.md`'s step tables follow
/// (`ImageStepTableTests` checks the tables).
public enum ImageStepName: String, CaseIterable, Sendable, Hashable {
  case crop
  case perspective
  case colour
  case illumination
  case despeckle
  case rules
  case squarePixels = "square pixels"
  case orientation
  case deskew
  case dewarp
  case upscale

  /// The option bit that turns the step on.
  public var option: Preprocessing {
    switch self {
    case .crop: .crop
    case .perspective: .perspective
    case .colour: .colour
    case .illumination: .illumination
    case .despeckle: .despeckle
    case .rules: .rules
    case .squarePixels: .squarePixels
    case .orientation: .orientation
    case .deskew: .deskew
    case .dewarp: .dewarp
    case .upscale: .upscale
    }
  }

  /// The command-line flag that changes the step from its default: a
  /// default step's turns it off (`--no-deskew`), the others' on
  /// (`--upscale`); `nil` for a step with no flag of its own (square
  /// pixels, which only a fax's header asks for).
  public var flag: (name: String, help: String)? {
    switch self {
    case .crop:
      (
        "no-crop",
        "Do not crop a photographed page out of its background (perspective may still cut it out)."
      )
    case .perspective:
      ("no-perspective", "Do not correct the perspective of a photographed page.")
    case .colour:
      ("no-colour", "Read colour pages in plain luminance (keep stamps, coloured paper).")
    case .illumination: ("no-illumination", "Do not even out shadows and low contrast.")
    case .despeckle: ("no-despeckle", "Do not remove salt-and-pepper speckle.")
    case .rules: ("no-rules", "Do not remove the ruling lines of tables and forms.")
    case .squarePixels: nil
    case .orientation: ("no-orientation", "Do not detect pages turned by 90°, 180° or 270°.")
    case .deskew: ("no-deskew", "Do not straighten skewed text lines.")
    case .dewarp:
      ("no-dewarp", "Do not straighten the curled text lines of a photographed book page.")
    case .upscale:
      (
        "upscale",
        "Upscale pages below 200 dpi to 300 dpi (off: it did not help on measured pages)."
      )
    }
  }

  /// Whether the step's ``flag`` turns it on (it is not a default step).
  public var flagTurnsOn: Bool { !Preprocessing.default.contains(option) }

  /// What the step does, in a few words (the step tables' second column).
  public var summary: String {
    switch self {
    case .crop: "cuts a photographed page out of its background"
    case .perspective:
      "straightens a photographed page from its corners (two pages of a spread each)"
    case .colour: "reads a colour page in the gray that suits it"
    case .illumination: "evens out shadows (`illumination`) or stretches low contrast (`contrast`)"
    case .despeckle: "removes salt-and-pepper speckle"
    case .rules: "removes the ruling lines of tables and forms"
    case .squarePixels: "resamples a page whose horizontal and vertical resolutions differ"
    case .orientation: "turns a page found on its side or upside down"
    case .deskew: "straightens skewed text lines"
    case .dewarp: "flattens the curled lines of a photographed book page"
    case .upscale: "enlarges a low-resolution page (off by default)"
    }
  }

  /// The steps in the order they run.
  public static var pipeline: [ImageStepName] { allCases }
}

/// What one step decided on a page.
public enum StepDecision: Sendable, Equatable {
  /// The step changed the page (the only decision most steps make).
  case applied
  /// The illumination step stretched low contrast instead of evening out
  /// a shadow.
  case contrastStretched
  /// The colour step read coloured paper in one channel: 0 red, 1 green,
  /// 2 blue.
  case channel(Int)
  /// The colour step faded saturated colour (stamps) to its brightest
  /// channel.
  case saturatedColourSuppressed
  /// The perspective step straightened the two pages of a folded spread
  /// each on its own.
  case twoPages
}

/// What one preprocessing step measured, decided and cost on a page: the
/// page's typed provenance. The page's `preprocessing` list holds each
/// record as ``recorded`` (the strings the JSON and every export carry);
/// the measurement and the time stay out of the exports.
public struct StepRecord: Sendable, Equatable {
  /// The step.
  public var step: ImageStepName
  /// What decided it, in the step's own unit when it has one: the skew
  /// angle (degrees) for deskew, the curl (line spacings) for dewarp, the
  /// scale factor for upscale and square pixels, the quarter turns for
  /// orientation; `nil` for the others.
  public var measurement: Double?
  /// What the step did.
  public var decision: StepDecision
  /// The time the step took (its measurement and its work), in seconds;
  /// 0 where it was not timed apart from another step.
  public var seconds: Double

  /// Creates a record.
  public init(
    _ step: ImageStepName, measurement: Double? = nil, decision: StepDecision = .applied,
    seconds: Double = 0
  ) {
    self.step = step
    self.measurement = measurement
    self.decision = decision
    self.seconds = seconds
  }

  /// The record as the page's `preprocessing` list holds it: the step's
  /// name, or for a decision among several the decision
  /// (`"colour: red channel"`, `"contrast"`, `"perspective: two pages"`).
  public var recorded: String {
    switch decision {
    case .applied: step.rawValue
    case .contrastStretched: "contrast"
    case .channel(let c): "colour: \(["red", "green", "blue"][min(max(c, 0), 2)]) channel"
    case .saturatedColourSuppressed: "colour: saturated colour suppressed"
    case .twoPages: "perspective: two pages"
    }
  }
}
