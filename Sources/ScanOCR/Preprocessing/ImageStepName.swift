import ScanModel

/// What runs each of the pipeline's steps (``ScanModel/ImageStepName``,
/// whose order is the one list the steps' option bits, their `--no-…`
/// flags, the names the page records, the preprocessing benchmark and the
/// README's and `docs/ARCHITECTURE.md`'s step tables follow;
/// `ImageStepTableTests` checks the tables): its option bit, its flag and
/// its summary.
extension ImageStepName {
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
