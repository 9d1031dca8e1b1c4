import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Accuracy and geometry of every sample scan, against the thresholds
/// recorded in `Scans/thresholds.json`. A change that makes a number worse
/// fails here; one that makes it better should tighten the threshold in the
/// same commit: run `RECORD_THRESHOLDS=1 swift test --filter Regression`,
/// which rewrites the file from the current values (and fails, so a
/// recording run is never mistaken for a passing one).
@Suite("Regression on the sample scans")
struct RegressionTests {
  static let thresholdsURL = Fixtures.scans.appendingPathComponent("thresholds.json")

  static func thresholds() throws -> [String: [String: Double]] {
    let value = try JSONValue(parsing: String(contentsOf: thresholdsURL, encoding: .utf8))
    guard case .object(let pages)? = value["pages"] else { return [:] }
    var out: [String: [String: Double]] = [:]
    for (image, metrics) in pages {
      guard case .object(let m) = metrics else { continue }
      out[image] = m.compactMapValues(\.doubleValue)
    }
    return out
  }

  static func evaluation(_ image: String) throws -> PageEvaluation {
    try RecognizedScans.page(image).evaluate(against: Fixtures.truth(image))
  }

  @Test("Metrics stay within their thresholds", arguments: Fixtures.scanImages)
  func metricsHold(_ image: String) throws {
    guard ProcessInfo.processInfo.environment["RECORD_THRESHOLDS"] == nil else { return }
    let limits = try #require(
      try Self.thresholds()[image], "no thresholds for \(image) in Scans/thresholds.json")
    let evaluation = try Self.evaluation(image)
    for metric in EvaluationMetric.allCases {
      let limit = try #require(limits[metric.name], "\(image): no threshold for \(metric.name)")
      let value = evaluation.value(of: metric)
      let holds = metric.higherIsBetter ? value >= limit : value <= limit
      #expect(
        holds,
        "\(image): \(metric.name) is \(value), threshold \(metric.higherIsBetter ? "≥" : "≤") \(limit)"
      )
    }
  }

  @Test func recordThresholds() throws {
    guard ProcessInfo.processInfo.environment["RECORD_THRESHOLDS"] != nil else { return }
    var pages: [String: JSONValue] = [:]
    for image in Fixtures.scanImages {
      let evaluation = try Self.evaluation(image)
      var metrics: [String: JSONValue] = [:]
      for metric in EvaluationMetric.allCases {
        // Round toward the lenient side at three decimals.
        let v = evaluation.value(of: metric) * 1000
        metrics[metric.name] = .number(
          (metric.higherIsBetter ? v.rounded(.down) : v.rounded(.up)) / 1000)
      }
      pages[image] = .object(metrics)
    }
    let document = JSONValue.object([
      "about": .string(
        "Thresholds per sample scan for Tests/ScanOCRTests/RegressionTests.swift: cer, wer and lineBleed are maxima; the others minima. Record with RECORD_THRESHOLDS=1 swift test --filter Regression."
      ),
      "pages": .object(pages),
    ])
    try (document.serialized(pretty: true) + "\n").write(
      to: Self.thresholdsURL, atomically: true, encoding: .utf8)
    Issue.record("Recorded new thresholds in \(Self.thresholdsURL.path)")
  }

  /// Issue 10's bar for the headings rotor: over all sample pages, headings
  /// are found with an F1 of at least 0.95.
  @Test func headingsAreFoundOnTheSamplePages() throws {
    var total = EvaluationTally()
    for image in Fixtures.scanImages { total += try Self.evaluation(image).tally }
    #expect(total.truthHeadings >= 3)
    #expect(
      total.headingF1 >= 0.95, "precision \(total.headingPrecision), recall \(total.headingRecall)")
    #expect(total.headingLevelAccuracy >= 0.95)
  }

  /// Issue 10's bar for reading order: on every sample page, the text in
  /// the page's reading order is within 0.002 of the CER of its words.
  @Test("The reading order costs at most 0.002 of CER", arguments: Fixtures.scanImages)
  func readingOrderMatchesTheTruth(_ image: String) throws {
    let e = try Self.evaluation(image)
    #expect(
      e.readingOrderCER <= e.cer + 0.002,
      "\(image): reading-order CER \(e.readingOrderCER), CER \(e.cer)")
  }

  /// The ruled table's paragraphs are split into its 24 cells; without
  /// the rules step there are no cells.
  @Test func theRuledTableIsReadAsCells() throws {
    let page = try RecognizedScans.page("ruled-table.png")
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    #expect(paragraphs.count == 24)
    #expect(paragraphs.allSatisfy { $0.role == .tableCell })
    #expect(paragraphs.map { $0.lines.count } == Array(repeating: 1, count: 24))
    let plain = try RecognizedScans.page("ruled-table.png", preprocessing: .none)
    #expect(!plain.blocks.flatMap(\.paragraphs).contains { $0.role == .tableCell })
  }

  /// The pages made for reading order are read out of order in
  /// Tesseract's own order: the rules are what puts them right.
  @Test func tesseractsOrderReadsTheLayoutPagesOutOfOrder() throws {
    let engine = try OCREngine(options: RecognitionOptions(layout: .tesseract))
    for image in ["article.png", "marginalia.png"] {
      let path = Fixtures.scans.appendingPathComponent(image).path
      let page = try #require(try engine.recognize(contentsOf: path).first)
      let e = page.evaluate(against: try Fixtures.truth(image))
      #expect(e.cer <= 0.002, "\(image): CER \(e.cer)")
      #expect(e.readingOrderCER > 0.05, "\(image): reading-order CER \(e.readingOrderCER)")
      let ours = try RecognizedScans.page(image)
      #expect(page.words.map(\.text).sorted() == ours.words.map(\.text).sorted())
    }
  }

  @Test("Preprocessing finds the orientation and skew of the page", arguments: Fixtures.scanImages)
  func orientationAndSkew(_ image: String) throws {
    let page = try RecognizedScans.page(image)
    let truth = try Fixtures.truth(image)
    #expect(page.orientation == truth.orientation)
    #expect(abs(page.skew - truth.skew) < 0.3, "\(image): skew \(page.skew), truth \(truth.skew)")
  }

  @Test("Turned and skewed pages are read about as well as the upright one")
  func turnedPagesMatchTheUprightOne() throws {
    let upright = try Self.evaluation("clean.png")
    for image in Fixtures.scanImages where image.hasPrefix("rotated") || image.hasPrefix("skew") {
      let e = try Self.evaluation(image)
      #expect(e.wordRecall >= upright.wordRecall - 0.05, "\(image): word recall \(e.wordRecall)")
      #expect(e.cer <= 0.01, "\(image): CER \(e.cer)")
      #expect(e.hitRate >= upright.hitRate - 0.05, "\(image): hit rate \(e.hitRate)")
    }
  }

  @Test func theExportRecordsOrientationSkewAndQuads() throws {
    let page = try RecognizedScans.page("rotated-90.png")
    let json = DocumentJSON.value(
      of: Document(pages: [page]), generator: Generator(name: "t", version: "0"))
    let exported = try #require(json["pages"]?.arrayValue?.first)
    #expect(exported["orientation"] == .number(90))
    let line = try #require(
      exported["blocks"]?.arrayValue?.first?["paragraphs"]?.arrayValue?.first?["lines"]?.arrayValue?
        .first)
    #expect(line["quad"]?.arrayValue?.count == 4)
    // On a page turned 90° clockwise, lines run down the image.
    #expect(page.selectionRects(for: page.documentRange).allSatisfy { $0.isVertical })
    let skewed = try RecognizedScans.page("skew-plus2.png")
    #expect(abs(skewed.skew - 2) < 0.3)
  }
}
