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
      skew: Double = 0, language: String? = nil
    ) -> Page {
      Page(
        width: width, height: height, dpi: dpi, orientation: orientation, skew: skew,
        language: language, blocks: b.blocks)
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
      "preprocessing": b.withPreprocessing(["deskew"]),
      "crop": b.withPageGeometry(
        crop: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10), perspective: nil),
      "perspective": b.withPageGeometry(crop: nil, perspective: quad),
      "pdf": b.withPDF(
        PDFPageSource(
          page: 1, width: 612, height: 792, pixelToPoint: [0.24, 0, 0, 0.24, 0, 0], hasText: false,
          nativeImage: true)),
      "source": b.withSource(.pdfText),
      "dpiSource": b.withImageInfo(dpiSource: .tag, exifOrientation: nil),
      "exifOrientation": b.withImageInfo(dpiSource: nil, exifOrientation: 6),
      "blocks": moved,
    ]
  }()

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
    let a = Self.base.withPDF(
      PDFPageSource(
        page: 2, width: 595, height: 842, pixelToPoint: [1, 0, 0, 1, 0, 0], hasText: true,
        nativeImage: false))
    let b = PageFixtures.page([["The quick brown fox."]]).withPDF(a.pdf)
    #expect(a == b)
  }
}
