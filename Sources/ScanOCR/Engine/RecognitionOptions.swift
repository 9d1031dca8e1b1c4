/// Tesseract's page segmentation modes (`--psm`).
public enum PageSegmentationMode: Int, Sendable, CaseIterable {
  case orientationAndScriptOnly = 0
  case automaticWithOrientation = 1
  case automaticLayoutOnly = 2
  /// Fully automatic page segmentation, without orientation detection: the
  /// `tesseract` command's default.
  case automatic = 3
  case singleColumn = 4
  case singleVerticalBlock = 5
  case singleBlock = 6
  case singleLine = 7
  case singleWord = 8
  case circledWord = 9
  case singleCharacter = 10
  case sparseText = 11
  case sparseTextWithOrientation = 12
  case rawLine = 13
}

/// The order in which a recognised page's paragraphs are read (and its text
/// is joined).
public enum PageLayoutOrder: String, Sendable, Hashable, CaseIterable {
  /// The order a reader expects (``ScanModel/ReadingOrder``): running
  /// headers first; footnotes, footers and page numbers last; marginal
  /// notes after their paragraph; the pages of a spread one after the other.
  case reading
  /// Tesseract's own order, so that the text is the `tesseract` command's.
  case tesseract

  /// The order that goes with a set of preprocessing steps: Tesseract's
  /// when there are none (the `tesseract` command's text, as
  /// `--no-preprocess` promises), else the reader's.
  public static func `default`(for preprocessing: Preprocessing) -> PageLayoutOrder {
    preprocessing == .none ? .tesseract : .reading
  }
}

/// How to recognise pages.
public struct RecognitionOptions: Sendable, Hashable {
  /// Languages to recognise, such as `["eng", "deu"]` (`-l eng+deu`).
  public var languages: [String]
  /// How Tesseract segments the page; `.automatic` (PSM 3) by default.
  public var pageSegmentation: PageSegmentationMode
  /// The resolution to assume; `nil` uses the image's tag, else Tesseract's estimate.
  public var dpi: Int?
  /// The folder holding `*.traineddata`; `nil` uses Tesseract's default.
  public var dataPath: String?
  /// The largest image accepted, in pixels (width × height), checked from
  /// the header before decoding.
  public var maxPixels: Int
  /// A deadline per page in seconds; `nil` for none.
  public var timeout: Double?
  /// The preprocessing steps to apply.
  public var preprocessing: Preprocessing
  /// The order paragraphs are read in: ``PageLayoutOrder/reading`` by
  /// default, ``PageLayoutOrder/tesseract`` for the `tesseract` command's.
  public var layout: PageLayoutOrder

  /// The default pixel limit: 100 megapixels (a letter page at 1000 dpi).
  public static let defaultMaxPixels = 100_000_000

  /// Creates options; every value has the `tesseract` command's default.
  public init(
    languages: [String] = ["eng"], pageSegmentation: PageSegmentationMode = .automatic,
    dpi: Int? = nil, dataPath: String? = nil, maxPixels: Int = defaultMaxPixels,
    timeout: Double? = nil, preprocessing: Preprocessing = .default,
    layout: PageLayoutOrder = .reading
  ) {
    self.languages = languages
    self.pageSegmentation = pageSegmentation
    self.dpi = dpi
    self.dataPath = dataPath
    self.maxPixels = maxPixels
    self.timeout = timeout
    self.preprocessing = preprocessing
    self.layout = layout
  }

  /// The languages as Tesseract takes them: `eng+deu`.
  public var languageString: String { languages.joined(separator: "+") }
}

/// Image preprocessing steps applied before recognition. Every coordinate
/// in the result is still in the original image's pixels.
public struct Preprocessing: OptionSet, Sendable, Hashable {
  /// The steps as bits.
  public let rawValue: Int
  /// Creates a set of steps from its bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Detect a page turned by 90°, 180° or 270° and recognise it upright.
  public static let orientation = Preprocessing(rawValue: 1 << 0)
  /// Estimate and correct the skew of the text lines.
  public static let deskew = Preprocessing(rawValue: 1 << 1)
  /// Normalise uneven illumination and low contrast.
  public static let illumination = Preprocessing(rawValue: 1 << 2)
  /// Remove salt-and-pepper speckle.
  public static let despeckle = Preprocessing(rawValue: 1 << 3)
  /// Upscale pages below about 200 dpi to about 300 dpi.
  public static let upscale = Preprocessing(rawValue: 1 << 4)
  /// Rescale a page whose horizontal and vertical resolutions differ (a
  /// fax at 200 × 100 dpi) to square pixels at the higher resolution.
  public static let squarePixels = Preprocessing(rawValue: 1 << 5)
  /// Read a colour page in the gray that suits it: saturated colour
  /// (stamps, coloured marks) faded to its brightest channel, or coloured
  /// paper read in the channel where the text stands out most. Gray and
  /// 1-bit pages, and colour scans with little colour, are left alone.
  public static let colour = Preprocessing(rawValue: 1 << 6)
  /// Remove the ruling lines of tables and forms (long thin horizontal and
  /// vertical runs of ink) before recognition, when a page has them.
  public static let rules = Preprocessing(rawValue: 1 << 7)
  /// Crop a photo to its page, when the page stands free on a darker
  /// background (a table) with all four corners in the photo. Coordinates
  /// stay in the photo's pixels; flat scans are never cropped.
  public static let crop = Preprocessing(rawValue: 1 << 8)
  /// Correct the perspective of a photographed page from its four corners
  /// (found as for ``crop``), when its corners are not right angles; words
  /// then get their outlines in the photo as quads.
  public static let perspective = Preprocessing(rawValue: 1 << 9)
  /// Straighten text lines that curl (a book page curving toward its
  /// spine), when Leptonica's page model finds lines bending by most of a
  /// line spacing; words then get their outlines in the original as quads.
  public static let dewarp = Preprocessing(rawValue: 1 << 10)

  /// No preprocessing: the text is the same as the `tesseract` command's.
  public static let none: Preprocessing = []
  /// The steps applied by default, each only where it measures a need.
  /// Upscaling is not among them: on the 100 and 150 dpi sample scans it
  /// changed no word, and on a real 150 dpi book page it lowered the mean
  /// word confidence from 92.5 to 88.3 while costing time.
  public static let `default`: Preprocessing = [
    .orientation, .deskew, .illumination, .despeckle, .squarePixels, .colour, .rules, .crop,
    .perspective, .dewarp,
  ]
}
