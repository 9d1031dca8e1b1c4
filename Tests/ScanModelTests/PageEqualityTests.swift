import Testing

@testable import ScanModel

/// `Page ==` is written by hand (it leaves out ``PageLayout``, which is
/// derived from the blocks): every other stored property must take part.
@Suite("Page equality")
struct PageEqualityTests {
  static let base = PageFixtures.page([["The quick brown fox."]])

  /// Stored properties derived from `blocks`, which `==` need not compare
  /// on their own: `text` is the blocks' text joined, `layout` their index.
  static let derived: Set<String> = ["text", "layout"]

  /// For each stored property, the base page with that property changed.
  static let variants: [String: Page] = {
    let b = base
    let moved = PageFixtures.page([["The quick brown fox."]], origin: Point(x: 110, y: 100))
    func page(
      width: Int = 1000, height: Int = 1000, dpi: Int? = 300, orientation: Int = 0,
      skew: Double = 0, language: String? = nil, steps: [StepRecord] = [],
      crop: PixelRect? = nil, perspective: Quad? = nil, pdf: PDFPageSource? = nil,
      source: PageTextSource = .ocr, dpiSource: ResolutionSource? = nil,
      exifOrientation: Int? = nil, figures: [Figure] = []
    ) -> Page {
      Page(
        width: width, height: height, dpi: dpi, orientation: orientation, skew: skew,
        language: language, blocks: b.blocks, steps: steps, crop: crop, perspective: perspective,
        pdf: pdf, source: source, dpiSource: dpiSource, exifOrientation: exifOrientation,
        figures: figures)
    }
    let quad = Quad(
      topLeft: Point(x: 0, y: 0), topRight: Point(x: 10, y: 0), bottomRight: Point(x: 10, y: 10),
      bottomLeft: Point(x: 0, y: 10))
    return [
      "index": b.withIndex(1),
      "image": b.withImage("other.png"),
      "width": page(width: 999),
      "height": page(height: 999),
      "dpi": page(dpi: 150),
      "orientation": page(orientation: 90),
      "skew": page(skew: 0.5),
      "language": page(language: "deu"),
      "steps": page(steps: [StepRecord(.deskew)]),
      "crop": page(crop: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10)),
      "perspective": page(perspective: quad),
      "pdf": page(pdf: Self.pdf),
      "source": page(source: .pdfText),
      "dpiSource": page(dpiSource: .tag),
      "exifOrientation": page(exifOrientation: 6),
      "figures": page(figures: [Figure(bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10))]),
      "blocks": moved,
    ]
  }()

  static let pdf = PDFPageSource(
    page: 1, width: 612, height: 792, pixelToPoint: [0.24, 0, 0, 0.24, 0, 0], hasText: false,
    nativeImage: true)

  /// The labels and printed values of a page's stored properties.
  static func stored(_ page: Page) -> [(label: String, value: String)] {
    Mirror(reflecting: page).children.map { ($0.label ?? "", String(describing: $0.value)) }
  }

  @Test func everyStoredPropertyHasAVariant() {
    let labels = Set(Self.stored(Self.base).map(\.label))
    #expect(labels.subtracting(Self.derived) == Set(Self.variants.keys))
  }

  @Test(arguments: PageEqualityTests.variants.keys.sorted())
  func aPageDifferingInOnePropertyIsUnequal(_ label: String) throws {
    let variant = try #require(Self.variants[label])
    // The variant differs from the base in `label` and nothing else (but
    // what is derived from the blocks).
    let differing = zip(Self.stored(Self.base), Self.stored(variant))
      .filter { $0.0.value != $0.1.value && !Self.derived.contains($0.0.label) }.map(\.0.label)
    #expect(differing == [label])
    // Booleans, so that a failure names the property, not two whole pages.
    let equal = (Self.base == variant, variant == Self.base, variant == variant)
    #expect(!equal.0, "pages differing in \(label) compare equal: add it to Page ==")
    #expect(!equal.1, "pages differing in \(label) compare equal: add it to Page ==")
    #expect(equal.2)
  }

  @Test func equalPagesBuiltApartAreEqual() {
    let blocks = PageFixtures.page([["The quick brown fox."]]).blocks
    let a = Page(width: 1000, height: 1000, dpi: 300, blocks: Self.base.blocks, pdf: Self.pdf)
    let b = Page(width: 1000, height: 1000, dpi: 300, blocks: blocks, pdf: Self.pdf)
    #expect(a == b)
  }

  /// Steps take part as the page records them: a step's measurement and
  /// time (observations of one run, which no document keeps) do not make
  /// two pages differ, its decision does where the record shows it.
  @Test func stepsCompareAsRecorded() {
    func page(_ steps: [StepRecord]) -> Page {
      Page(width: 1000, height: 1000, dpi: 300, blocks: Self.base.blocks, steps: steps)
    }
    let timed = page([
      StepRecord(.illumination, measurement: 52, seconds: 0.03),
      StepRecord(.orientation, measurement: 1, decision: .turned(.detection), seconds: 0.4),
    ])
    let readBack = page([StepRecord(.illumination), StepRecord(.orientation)])
    #expect(timed == readBack)
    #expect(timed.preprocessing == ["illumination", "orientation"])
    #expect(timed != page([StepRecord(.illumination, decision: .contrastStretched)]))
    #expect(
      page([StepRecord(.colour, decision: .channel(0))])
        != page([StepRecord(.colour, decision: .channel(2))]))
    #expect(timed != page([StepRecord(.orientation), StepRecord(.illumination)]))
  }
}
