import ScanModel

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
  public var languages: [LanguageCode]
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
  /// Whether to find the pictures on each page (``ScanModel/Page/figures``:
  /// drawings, woodcuts, photos; a tagged PDF tags them as `Figure`s). On
  /// by default: on every real scan and sample, and on the develop and
  /// check pages of every family measured, it finds the pictures and
  /// nothing else; a rubber stamp in colour is told by its saturated ink
  /// (see the README's "Tagged PDF" section). A stamp on a
  /// gray page (no colour to tell it by) can still be taken for a picture.
  public var findsFigures: Bool
  /// The threads one page is recognised on: a large page in the reader's
  /// layout is cut through blank paper into that many parts (two at most
  /// for now), read side by side by as many engines, one per thread
  /// (``OCREngine`` starts and keeps them). 1, the default, reads every
  /// page whole on one thread. A page read in parts is the same from run to
  /// run, but its words may differ from those of the page read whole.
  public var pageThreads: Int
  /// Whether to read weak lines again (`--second-look`): after the page's
  /// reading, each line read with low confidence or as junk is read again
  /// on its own from other renderings of its pixels (enlarged ×2 when its
  /// letters are small, binarised by Sauvola's local threshold,
  /// contrast-stretched), and the reading most confident and no less
  /// word-like is kept; the page's record names each line read again. Off
  /// by default (measured in docs/measurements/2026-12-07-second-look.md).
  public var secondLook = false

  /// The default pixel limit: 100 megapixels (a letter page at 1000 dpi).
  public static let defaultMaxPixels = 100_000_000

  /// Creates options; every value has the `tesseract` command's default,
  /// but the reading order and finding figures.
  public init(
    languages: [LanguageCode] = ["eng"], pageSegmentation: PageSegmentationMode = .automatic,
    dpi: Int? = nil, dataPath: String? = nil, maxPixels: Int = defaultMaxPixels,
    timeout: Double? = nil, preprocessing: Preprocessing = .default,
    layout: PageLayoutOrder = .reading, findsFigures: Bool = true, pageThreads: Int = 1
  ) {
    self.languages = languages
    self.pageSegmentation = pageSegmentation
    self.dpi = dpi
    self.dataPath = dataPath
    self.maxPixels = maxPixels
    self.timeout = timeout
    self.preprocessing = preprocessing
    self.layout = layout
    self.findsFigures = findsFigures
    self.pageThreads = max(1, pageThreads)
  }

  /// The languages as Tesseract takes them: `eng+deu`.
  public var languageString: String { LanguageCode.joined(languages) }
}

/// Image preprocessing steps applied before recognition, a set of the
/// steps' names (``ScanModel/ImageStepName``). Every coordinate in the
/// result is still in the original image's pixels.
///
/// A set of names rather than of bits, so that a step added to the
/// pipeline needs no bit of its own: its name is its member.
public struct Preprocessing: SetAlgebra, Sendable, Hashable {
  public typealias Element = ImageStepName
  public typealias ArrayLiteralElement = ImageStepName

  /// The steps' names.
  public private(set) var names: Set<ImageStepName>

  /// No steps.
  public init() { names = [] }
  /// The steps named.
  /// - Parameter names: The steps' names.
  public init(arrayLiteral names: ImageStepName...) { self.names = Set(names) }

  /// No preprocessing: the text is the same as the `tesseract` command's.
  public static let none: Preprocessing = []
  /// The steps applied by default, each only where it measures a need: the
  /// steps of the pipeline whose ``StepDescriptor/onByDefault`` is true.
  /// Upscaling is not among them: on the 100 and 150 dpi sample scans it
  /// changed no word, and on a real 150 dpi book page it lowered the mean
  /// word confidence from 92.5 to 88.3 while costing time.
  public static let `default` = Preprocessing(
    names: Set(StepDescriptor.pipeline.filter(\.onByDefault).map(\.name)))

  private init(names: Set<ImageStepName>) { self.names = names }

  /// The names in a stable order (by name), as the cache's key spells the
  /// options.
  public var sortedNames: [String] { names.map(\.rawValue).sorted() }

  public func contains(_ member: ImageStepName) -> Bool { names.contains(member) }
  public func union(_ other: Preprocessing) -> Preprocessing {
    Preprocessing(names: names.union(other.names))
  }
  public func intersection(_ other: Preprocessing) -> Preprocessing {
    Preprocessing(names: names.intersection(other.names))
  }
  public func symmetricDifference(_ other: Preprocessing) -> Preprocessing {
    Preprocessing(names: names.symmetricDifference(other.names))
  }
  @discardableResult
  public mutating func insert(_ newMember: ImageStepName) -> (
    inserted: Bool, memberAfterInsert: ImageStepName
  ) {
    names.insert(newMember)
  }
  @discardableResult
  public mutating func remove(_ member: ImageStepName) -> ImageStepName? { names.remove(member) }
  @discardableResult
  public mutating func update(with newMember: ImageStepName) -> ImageStepName? {
    names.update(with: newMember)
  }
  public mutating func formUnion(_ other: Preprocessing) { names.formUnion(other.names) }
  public mutating func formIntersection(_ other: Preprocessing) {
    names.formIntersection(other.names)
  }
  public mutating func formSymmetricDifference(_ other: Preprocessing) {
    names.formSymmetricDifference(other.names)
  }
}
