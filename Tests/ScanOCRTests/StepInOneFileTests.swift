import CScanOCR
import ScanImaging
import ScanModel
import Testing

@testable import ScanOCR

// The hypothetical step of `docs/ARCHITECTURE.md` ("Adding a step"), whole:
// a page printed light on dark (a microfilm negative) made dark on light.
// Everything a step is, besides its place in the pipeline's list, is this
// one file: its name, its flag and summary, its work and its record.

extension ImageStepName {
  /// A negative page made positive.
  static let negative = ImageStepName("negative")
}

/// Negative: a page whose paper is dark inverted.
struct NegativeStep: ImageStep {
  let descriptor = StepDescriptor(
    .negative, flag: ("no-negative", "Do not turn a negative page positive."),
    summary: "turns a negative page (light print on dark paper) positive")

  /// The share of the page's pixels that are dark.
  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Double? {
    guard let ink = page.ink() else { return nil }
    var dark: Int32 = 0
    guard scantext_pixCountPixels(ink.pix, &dark, nil) == 0 else { return nil }
    return Double(dark) / Double(max(1, ink.width * ink.height))
  }

  /// Paper is most of a page: a page mostly dark is a negative.
  func decide(_ dark: Double, _ page: WorkingPage, _ context: StepContext) -> Double? {
    dark > 0.5 ? dark : nil
  }

  func apply(_ dark: Double, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    scantext_pixInvert(nil, page.image.pix).map { (LeptonicaImage(taking: $0), .identity) }
  }

  func record(_ dark: Double, _ decision: Double) -> StepRecord {
    StepRecord(.negative, measurement: dark)
  }
}

/// A step declared in one file runs, records itself and reads back from
/// its record with no other file knowing it (issue 28: adding a step
/// touches one file, plus its place in the list, and its test).
@Suite("A step in one file")
struct StepInOneFileTests {
  /// A gray page: a dark bar on light paper, or its negative.
  static func page(negative: Bool) throws -> LeptonicaImage {
    try OCRLibraries.load()
    let image = LeptonicaImage(taking: try #require(scantext_pixCreate(40, 20, 8)))
    for y in 0..<20 {
      for x in 0..<40 {
        let ink = (8..<12).contains(y) && (4..<36).contains(x)
        scantext_pixSetPixel(image.pix, Int32(x), Int32(y), ink != negative ? 0 : 255)
      }
    }
    return image
  }

  static func run(_ image: LeptonicaImage, steps: Preprocessing) -> WorkingPage {
    let context = StepContext(Preprocessor(steps: steps), original: image, dpi: nil)
    var page = WorkingPage(image, resolution: nil)
    page.run(NegativeStep(), context)
    return page
  }

  static func pixel(_ image: LeptonicaImage, _ x: Int, _ y: Int) -> UInt32 {
    var value: UInt32 = 0
    _ = scantext_pixGetPixel(image.pix, Int32(x), Int32(y), &value)
    return value
  }

  @Test func aNegativePageIsMadePositiveAndRecorded() throws {
    let page = Self.run(
      try Self.page(negative: true), steps: Preprocessing.default.union([.negative]))
    #expect(page.records.map(\.recorded) == ["negative"])
    #expect(page.records.first?.measurement.map { $0 > 0.8 } == true)
    // The paper is light again, the bar dark.
    #expect(Self.pixel(page.image, 0, 0) == 255)
    #expect(Self.pixel(page.image, 20, 10) == 0)
    // Its record reads back from a document as the same step.
    #expect(StepRecord(recorded: "negative") == StepRecord(.negative))
  }

  @Test func aPositivePageIsLeftAlone() throws {
    let image = try Self.page(negative: false)
    let page = Self.run(image, steps: Preprocessing.default.union([.negative]))
    #expect(page.records.isEmpty)
    #expect(page.image === image)
  }

  @Test func theStepRunsOnlyWhenItsNameIsInTheOptions() throws {
    let page = Self.run(try Self.page(negative: true), steps: .default)
    #expect(page.records.isEmpty)
    #expect(!Preprocessing.default.contains(.negative))
  }
}
