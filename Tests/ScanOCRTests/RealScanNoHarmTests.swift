import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// Default preprocessing against `--no-preprocess` on every real scan in
/// `../shared/scans`: on no page may the default read fewer words with
/// confidence ≥ 60, or score worse against the page's text truth (CER and
/// WER through ``ScanModel/Page/evaluate(against:)``) where there is one.
///
/// The default's figures are also recorded in `Scans/real-noharm.json`, so
/// a change that loses what preprocessing gains (a turned page read upright,
/// a shadow left in) fails too. Improving a figure means recording it in
/// the same commit: `RECORD_NOHARM=1 swift test --filter RealScanNoHarm`
/// rewrites the file and fails, so a recording run never passes by mistake.
///
/// Each page is recognised once per test process through ``RealScans``,
/// shared with the other real-scan tests.
@Suite("Real scans: default preprocessing does no harm")
struct RealScanNoHarmTests {
  static let figuresURL = Fixtures.scans.appendingPathComponent("real-noharm.json")
  static let recording = ProcessInfo.processInfo.environment["RECORD_NOHARM"] != nil
  static let cerTolerance = 0.0005
  static let werTolerance = 0.002

  /// The text truth of a real page, when it has one: the `.txt` beside the
  /// Tesseract test pages, and `linn.txt` for the pages made from linn.
  static func truthText(_ image: String) -> String? {
    guard let folder = RealScans.folder else { return nil }
    let parts = image.split(separator: "/").map(String.init)
    guard parts.count == 2 else { return nil }
    let directory = parts[0]
    let name = Fixtures.stem(parts[1])
    let truthName: String
    switch directory {
    case "tesseract-test": truthName = name.hasPrefix("phototest") ? "phototest" : name
    case "ocrmypdf":
      guard name == "linn" || name == "skew-1" || name.hasPrefix("cardinal-") else { return nil }
      truthName = "linn"
    default: return nil
    }
    let url = folder.appendingPathComponent(directory).appendingPathComponent(truthName + ".txt")
    return try? String(contentsOf: url, encoding: .utf8)
  }

  /// A truth page of `text`'s words, one line per line of text. The boxes
  /// are placeholders: only the text-based metrics (CER, WER) are used.
  static func truthPage(_ text: String, like page: Page) -> Page {
    var lines: [TextLine] = []
    for (row, line) in text.split(whereSeparator: \.isNewline).enumerated() {
      let words = line.split(whereSeparator: \.isWhitespace).enumerated().map { column, word in
        Word(
          text: String(word),
          bbox: PixelRect(
            minX: column * 10, minY: row * 10, maxX: column * 10 + 9, maxY: row * 10 + 9)
        )
      }
      guard let first = words.first, let last = words.last else { continue }
      lines.append(
        TextLine(
          bbox: PixelRect(
            minX: first.bbox.minX, minY: first.bbox.minY, maxX: last.bbox.maxX,
            maxY: last.bbox.maxY),
          words: words))
    }
    let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    return Page(
      width: page.width, height: page.height,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: lines)])])
  }

  /// What the test compares for one reading of a page.
  struct Figures: Equatable, CustomStringConvertible {
    var confidentWords: Int
    var cer: Double?
    var wer: Double?

    init(_ pages: [Page], truth: String?) {
      confidentWords = pages.reduce(0) { sum, page in
        sum + page.words.filter { ($0.confidence ?? 0) >= 60 }.count
      }
      if let truth, let page = pages.first {
        let evaluation = page.evaluate(against: RealScanNoHarmTests.truthPage(truth, like: page))
        cer = evaluation.cer
        wer = evaluation.wer
      }
    }

    var description: String {
      var parts = ["\(confidentWords) words at confidence ≥ 60"]
      if let cer, let wer { parts.append(String(format: "CER %.4f, WER %.4f", cer, wer)) }
      return parts.joined(separator: ", ")
    }
  }

  static func figures(_ image: String, _ preprocessing: Preprocessing) throws -> Figures {
    Figures(
      try RealScans.pages(image, preprocessing: preprocessing), truth: truthText(image))
  }

  /// The figures recorded for the default, by image.
  static func recorded() throws -> [String: [String: Double]] {
    let value = try JSONValue(parsing: String(contentsOf: figuresURL, encoding: .utf8))
    guard case .object(let pages)? = value["noHarm"] else { return [:] }
    return pages.compactMapValues { figures in
      guard case .object(let f) = figures else { return nil }
      return f.compactMapValues(\.doubleValue)
    }
  }

  @Test(
    "The default reads no fewer confident words than --no-preprocess, and no worse text",
    .enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)),
    arguments: RealScans.images)
  func defaultDoesNoHarm(_ image: String) throws {
    let plain = try Self.figures(image, .none)
    let preprocessed = try Self.figures(image, .default)
    #expect(
      preprocessed.confidentWords >= plain.confidentWords,
      "\(image): default \(preprocessed), --no-preprocess \(plain)")
    // Text scores within one character in 2,000 and one word in 500: a
    // page turned upright reads the same words as Tesseract's sideways
    // reading, bar a bracket or a symbol (cardinal-2: "(818}" for "(818)").
    if let cer = preprocessed.cer, let plainCER = plain.cer {
      #expect(
        cer <= plainCER + Self.cerTolerance,
        "\(image): default \(preprocessed), --no-preprocess \(plain)")
    }
    if let wer = preprocessed.wer, let plainWER = plain.wer {
      #expect(
        wer <= plainWER + Self.werTolerance,
        "\(image): default \(preprocessed), --no-preprocess \(plain)")
    }
  }

  @Test(
    "The default keeps its recorded figures on every real page",
    .enabled(if: RealScans.isAvailable && !recording, Comment(rawValue: RealScans.absentMessage)),
    arguments: RealScans.images)
  func defaultKeepsRecordedFigures(_ image: String) throws {
    let limits = try #require(
      try Self.recorded()[image], "\(image): no figures in Scans/real-noharm.json")
    let figures = try Self.figures(image, .default)
    let words = try #require(limits["confidentWords"])
    #expect(
      Double(figures.confidentWords) >= words,
      "\(image): \(figures.confidentWords) confident words, recorded \(Int(words))")
    if let cer = figures.cer, let limit = limits["cer"] {
      #expect(cer <= limit, "\(image): CER \(cer), recorded ≤ \(limit)")
    }
    if let wer = figures.wer, let limit = limits["wer"] {
      #expect(wer <= limit, "\(image): WER \(wer), recorded ≤ \(limit)")
    }
  }

  @Test(.enabled(if: RealScans.isAvailable && recording))
  func recordFigures() throws {
    var pages: [String: JSONValue] = [:]
    for image in RealScans.images {
      let figures = try Self.figures(image, .default)
      let plain = try Self.figures(image, .none)
      var o: [String: JSONValue] = [
        "confidentWords": .number(Double(figures.confidentWords)),
        "confidentWordsNoPreprocess": .number(Double(plain.confidentWords)),
      ]
      // Rounded up at four decimals: the lenient side for a maximum.
      if let cer = figures.cer { o["cer"] = .number((cer * 10_000).rounded(.up) / 10_000) }
      if let wer = figures.wer { o["wer"] = .number((wer * 10_000).rounded(.up) / 10_000) }
      if let cer = plain.cer { o["cerNoPreprocess"] = .number((cer * 10_000).rounded() / 10_000) }
      if let wer = plain.wer { o["werNoPreprocess"] = .number((wer * 10_000).rounded() / 10_000) }
      pages[image] = .object(o)
    }
    let document = JSONValue.object([
      "about": .string(
        "Default-preprocessing figures per real scan in ../shared/scans for Tests/ScanOCRTests/RealScanNoHarmTests.swift: confidentWords (words at confidence >= 60) is a minimum, cer and wer (against the page's .txt truth) maxima; the *NoPreprocess values are for reference. Record with RECORD_NOHARM=1 swift test --filter RealScanNoHarm."
      ),
      "noHarm": .object(pages),
    ])
    try (document.serialized(pretty: true) + "\n").write(
      to: Self.figuresURL, atomically: true, encoding: .utf8)
    Issue.record("Recorded new figures in \(Self.figuresURL.path)")
  }
}
