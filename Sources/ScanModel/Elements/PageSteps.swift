/// The preprocessing steps of the default pipeline, in the order they run
/// on a page: the one list that the steps' option bits, their `--no-…`
/// flags, the names the page records, the preprocessing benchmark and the
/// README's and `docs/ARCHITECTURE.md`'s step tables follow
/// (`ImageStepTableTests` checks the tables).
///
/// The names live here, beside ``Page``, because a page's provenance
/// (``Page/steps``) names its steps; what runs each step, its option bit
/// and its flag live with the engine (ScanOCR's `ImageStepName`
/// extension).
public enum ImageStepName: String, CaseIterable, Sendable, Hashable {
  case crop
  case perspective
  case colour
  case illumination
  case squarePixels = "square pixels"
  case despeckle
  case rules
  case orientation
  case deskew
  case dewarp
  case upscale
}

/// What found the turn the orientation step applied (see
/// ``StepDecision/turned(_:)``).
///
/// The turn is decided around recognition, not before it: a turn is kept
/// only when the page read turned is strong on its own or clearly better
/// than the page read as it is, and one way of finding a turn looks at
/// Tesseract's upright reading first. The evidence says which way ran.
public enum TurnEvidence: String, Sendable, Equatable, CaseIterable {
  /// Leptonica's measure of the text's ascenders and descenders was
  /// confident on its own (milliseconds, no orientation detection).
  case textShape = "text shape"
  /// Tesseract's orientation detection, run before reading the page
  /// because Leptonica's measure did not favour upright text.
  case detection
  /// Tesseract's orientation detection, run after the page read as it is
  /// came out laid down the page (sideways blocks or standing words).
  case detectionAfterReading = "detection after reading"
  /// The turn was given instead of measured (tests standing in for a
  /// wrong detection).
  case proposed
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
  /// The orientation step turned the page, and the reading turned was
  /// kept; the evidence says what found the turn. A document read back
  /// records ``applied`` instead (its JSON has the step's name only).
  case turned(TurnEvidence)
}

/// What one preprocessing step measured, decided and cost on a page: one
/// entry of the page's typed provenance (``Page/steps``).
///
/// The JSON and every export carry each record as ``recorded``, the
/// string the page has always written; the measurement, the time and the
/// evidence of a turn stay out of the exports, so a record read back from
/// a document (``init(recorded:)``) has its step and the decision the
/// string names, and no measurement or time.
public struct StepRecord: Sendable, Equatable {
  /// The step.
  public var step: ImageStepName
  /// What decided it, in the step's own unit when it has one: the skew
  /// angle (degrees) for deskew, the curl (line spacings) for dewarp, the
  /// scale factor for upscale and square pixels, the quarter turns for
  /// orientation, the share of saturated pixels for colour, the paper's
  /// spread or range (levels) for illumination, the share of specks for
  /// despeckle, the crossings of the rules for rules, the corners'
  /// deviation from right angles (degrees) for crop and perspective;
  /// `nil` when not measured or read back from a document.
  public var measurement: Double?
  /// What the step did.
  public var decision: StepDecision
  /// The time the step took (its measurement, decision and work), in
  /// seconds; `nil` when not timed or read back from a document.
  public var seconds: Double?

  /// Creates a record.
  /// - Parameters:
  ///   - step: The step.
  ///   - measurement: What decided it (see ``measurement``).
  ///   - decision: What the step did.
  ///   - seconds: The time it took.
  public init(
    _ step: ImageStepName, measurement: Double? = nil, decision: StepDecision = .applied,
    seconds: Double? = nil
  ) {
    self.step = step
    self.measurement = measurement
    self.decision = decision
    self.seconds = seconds
  }

  /// The record a document's `"preprocessing"` string stands for: its step
  /// and decision, no measurement or time; `nil` for a string no step
  /// records.
  ///
  /// ``recorded`` of the result is `recorded` again.
  /// - Parameter recorded: One string of a page's `"preprocessing"` list.
  public init?(recorded: String) {
    if let step = ImageStepName(rawValue: recorded) {
      self.init(step)
      return
    }
    switch recorded {
    case "contrast": self.init(.illumination, decision: .contrastStretched)
    case "colour: saturated colour suppressed":
      self.init(.colour, decision: .saturatedColourSuppressed)
    case "perspective: two pages": self.init(.perspective, decision: .twoPages)
    default:
      guard let c = Self.channels.firstIndex(where: { "colour: \($0) channel" == recorded })
      else { return nil }
      self.init(.colour, decision: .channel(c))
    }
  }

  /// The colour channels' names, by their number in ``StepDecision/channel(_:)``.
  private static let channels = ["red", "green", "blue"]

  /// The record as the page's ``Page/preprocessing`` list, the JSON and
  /// every export hold it: the step's name, or for a decision among
  /// several the decision (`"colour: red channel"`, `"contrast"`,
  /// `"perspective: two pages"`).
  public var recorded: String {
    switch decision {
    case .applied, .turned: step.rawValue
    case .contrastStretched: "contrast"
    case .channel(let c): "colour: \(Self.channels[min(max(c, 0), 2)]) channel"
    case .saturatedColourSuppressed: "colour: saturated colour suppressed"
    case .twoPages: "perspective: two pages"
    }
  }
}
