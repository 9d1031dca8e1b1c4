/// The name of a preprocessing step, as a page records it in its
/// provenance (``Page/steps``) and every export writes it.
///
/// The set of names is open: the names of the steps ScanText has are
/// declared below, and a step added to the engine declares its own name
/// beside the step (`extension ImageStepName { static let margins =
/// ImageStepName("margins") }`), so adding a step touches no file of the
/// model. What runs each step, its flag, its summary and the order of the
/// steps live with the engine (ScanOCR's `StepDescriptor` and the
/// preprocessor's pipeline). A document written by a later ScanText with a
/// step this one does not have still opens, and keeps the step's name.
public struct ImageStepName: RawRepresentable, Sendable, Hashable {
  /// The name: lowercase ASCII words separated by one space (`"square
  /// pixels"`).
  public let rawValue: String

  /// Creates a name from its string; `nil` unless it is lowercase ASCII
  /// letters and digits in words separated by one space (what sets a name
  /// apart from a decision such as `"colour: red channel"`).
  /// - Parameter rawValue: The name.
  public init?(rawValue: String) {
    guard Self.isName(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// Creates a name a step declares.
  /// - Parameter name: The name, lowercase ASCII words separated by one
  ///   space; a name that is not is a programming error, caught by the
  ///   step table's tests.
  public init(_ name: String) {
    self.rawValue = name
  }

  /// Whether `s` is lowercase ASCII letters and digits in words separated
  /// by one space.
  static func isName(_ s: String) -> Bool {
    let words = s.split(separator: " ", omittingEmptySubsequences: false)
    return words.allSatisfy { word in
      !word.isEmpty
        && word.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }
  }
}

extension ImageStepName {
  /// Crop a photo to its page, when the page stands free on a darker
  /// background (a table) with all four corners in the photo. Coordinates
  /// stay in the photo's pixels; flat scans are never cropped.
  public static let crop = ImageStepName("crop")
  /// Correct the perspective of a photographed page from its four corners
  /// (found as for ``crop``), when its corners are not right angles; words
  /// then get their outlines in the photo as quads.
  public static let perspective = ImageStepName("perspective")
  /// Read a colour page in the gray that suits it: saturated colour
  /// (stamps, coloured marks) faded to its brightest channel, or coloured
  /// paper read in the channel where the text stands out most. Gray and
  /// 1-bit pages, and colour scans with little colour, are left alone.
  public static let colour = ImageStepName("colour")
  /// Normalise uneven illumination and low contrast.
  public static let illumination = ImageStepName("illumination")
  /// Remove salt-and-pepper speckle.
  public static let despeckle = ImageStepName("despeckle")
  /// Remove the ruling lines of tables and forms (long thin horizontal and
  /// vertical runs of ink) before recognition, when a page has them.
  public static let rules = ImageStepName("rules")
  /// Rescale a page whose horizontal and vertical resolutions differ (a
  /// fax at 200 × 100 dpi) to square pixels at the higher resolution.
  public static let squarePixels = ImageStepName("square pixels")
  /// Detect a page turned by 90°, 180° or 270° and recognise it upright.
  public static let orientation = ImageStepName("orientation")
  /// Estimate and correct the skew of the text lines.
  public static let deskew = ImageStepName("deskew")
  /// Straighten text lines that curl (a book page curving toward its
  /// spine), when Leptonica's page model finds lines bending by most of a
  /// line spacing; words then get their outlines in the original as quads.
  public static let dewarp = ImageStepName("dewarp")
  /// Upscale pages below about 200 dpi to about 300 dpi.
  public static let upscale = ImageStepName("upscale")
  /// A line read weakly at first (low confidence, or junk) read again on
  /// its own from other renderings of its pixels (`--second-look`); not a
  /// step of the image pipeline, recorded after it, one record per line
  /// (``StepDecision/reread(_:)``).
  public static let secondLook = ImageStepName("second look")
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
  /// The colour step read the page without the stamps that lie over its
  /// text (coloured marks that neutral print crosses): the print under
  /// them kept, every other colour read as it is.
  case stampsSeparated
  /// The perspective step straightened the two pages of a folded spread
  /// each on its own.
  case twoPages
  /// The perspective step straightened a page whose edges were not in
  /// view from its text: the lines' convergence and the column's margins.
  case fromText
  /// The orientation step turned the page, and the reading turned was
  /// kept; the evidence says what found the turn. A document read back
  /// records ``applied`` instead (its JSON has the step's name only).
  case turned(TurnEvidence)
  /// The second look read one weak line again: which line (its box in the
  /// original's pixels), why, and which rendering's reading was kept, as
  /// the record writes it after `"second look: "` (`"line [120,40,980,82]
  /// junk, kept upscaled ×2"`).
  case reread(String)
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
  /// records (neither a decision ScanText writes nor a step's name: a
  /// name this build has no step for is kept, see ``ImageStepName``).
  ///
  /// ``recorded`` of the result is `recorded` again.
  /// - Parameter recorded: One string of a page's `"preprocessing"` list.
  public init?(recorded: String) {
    switch recorded {
    case "contrast": self.init(.illumination, decision: .contrastStretched)
    case "colour: saturated colour suppressed":
      self.init(.colour, decision: .saturatedColourSuppressed)
    case "colour: stamps over the text separated":
      self.init(.colour, decision: .stampsSeparated)
    case "perspective: two pages": self.init(.perspective, decision: .twoPages)
    case "perspective: from text": self.init(.perspective, decision: .fromText)
    case _ where recorded.hasPrefix(Self.rereadPrefix) && recorded.count > Self.rereadPrefix.count:
      self.init(.secondLook, decision: .reread(String(recorded.dropFirst(Self.rereadPrefix.count))))
    default:
      if let c = Self.channels.firstIndex(where: { "colour: \($0) channel" == recorded }) {
        self.init(.colour, decision: .channel(c))
      } else if let step = ImageStepName(rawValue: recorded) {
        self.init(step)
      } else {
        return nil
      }
    }
  }

  /// What a second look's record begins with (``StepDecision/reread(_:)``).
  private static let rereadPrefix = "second look: "

  /// The colour channels' names, by their number in ``StepDecision/channel(_:)``.
  private static let channels = ["red", "green", "blue"]

  /// The record as the page's ``Page/preprocessing`` list, the JSON and
  /// every export hold it: the step's name, or for a decision among
  /// several the decision (`"colour: red channel"`, `"contrast"`,
  /// `"perspective: two pages"`, `"perspective: from text"`).
  public var recorded: String {
    switch decision {
    case .applied, .turned: step.rawValue
    case .contrastStretched: "contrast"
    case .channel(let c): "colour: \(Self.channels[min(max(c, 0), 2)]) channel"
    case .saturatedColourSuppressed: "colour: saturated colour suppressed"
    case .stampsSeparated: "colour: stamps over the text separated"
    case .twoPages: "perspective: two pages"
    case .fromText: "perspective: from text"
    case .reread(let line): Self.rereadPrefix + line
    }
  }
}
