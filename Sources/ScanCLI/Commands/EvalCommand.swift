import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

struct EvalCommand: ScanCommand {
  static let model = ModelOptions.model
  static let truth = Option<String>(
    "truth",
    help:
      "The ground truth with the same pages: ScanText JSON, hOCR, ALTO, PAGE XML or Tesseract TSV ('-': standard input). --pages selects the same pages of both."
  )
  static let json = Flag("json", help: "Print the report as JSON.")
  static let configuration = CommandConfiguration(
    commandName: "eval",
    abstract:
      "Measure recognition against ground truth: CER, WER, word recall, line cover, hit rate.",
    discussion: """
      Metrics per page and in total: cer and wer (edit distance over the truth's \
      length; lower is better), wordRecall and meanIoU (truth words matched by an \
      OCR word with IoU >= 0.5 and the same text), lineCover and lineBleed (how \
      the selection of each matched OCR line covers its truth line, and spills \
      onto others), hitRate (truth word centres that hit-test to the same word). \
      See the README for exact definitions.
      """,
    arguments: [model, truth, json] + OCROptions.arguments)

  let modelPath: String
  let truthPath: String
  let printsJSON: Bool
  let ocr: OCROptions

  init(_ a: ParsedArguments) throws {
    modelPath = try a[Self.model]
    truthPath = try a[Self.truth]
    try InputFiles.checkStandardInputOnce([modelPath, truthPath])
    printsJSON = a[Self.json]
    ocr = try OCROptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    var truth = try DocumentFiles.read(truthPath)
    if let selection = ocr.pdfPages {
      // The truth's pages that go with the model's.
      truth = Document(
        pages: try selection.pages(of: truth.pages.count, path: truthPath).map { truth.pages[$0] })
    }
    var ocr = self.ocr
    // Recognise in the truth's language unless told otherwise.
    if !ocr.languageGiven, let first = truth.pages.first, first.language != nil {
      ocr.recognition.languages = first.languages
    }
    let pages = try ocr.recognizer().numberedPages(modelPath)
    let summary = evaluate(Document(pages: pages.map(\.page)), against: truth)
    // Pages are named by their number in the model, from 1 (a page only
    // the truth has goes on counting after the last).
    let numbers = pages.map(\.number)
    let number = { (i: Int) in
      i < numbers.count ? numbers[i] : (numbers.last ?? 0) + i - numbers.count + 1
    }
    if printsJSON {
      io.print(Self.report(summary, number: number).serialized(pretty: true))
    } else {
      io.print(
        Self.table(
          summary, name: URL(fileURLWithPath: modelPath).lastPathComponent, number: number))
    }
    return 0
  }

  static func metrics(_ tally: EvaluationTally) -> JSONValue {
    var o: [String: JSONValue] = [:]
    for metric in EvaluationMetric.allCases {
      o[metric.name] = .number((tally.value(of: metric) * 10_000).rounded() / 10_000)
    }
    o["truthWords"] = .number(Double(tally.truthWords))
    o["ocrWords"] = .number(Double(tally.ocrWords))
    o["matchedWords"] = .number(Double(tally.matchedWords))
    o["truthLines"] = .number(Double(tally.truthLines))
    return .object(o)
  }

  /// The JSON report: each page with its `index` (its position, from 0)
  /// and `page` (its number, from 1), and the totals.
  static func report(_ summary: EvaluationSummary, number: (Int) -> Int) -> JSONValue {
    .object([
      "pages": .array(
        summary.pages.map { page in
          guard case .object(var o) = metrics(page.tally) else { return .null }
          o["index"] = .number(Double(page.index))
          o["page"] = .number(Double(number(page.index)))
          o["pairing"] = .string(page.pairing.rawValue)
          return .object(o)
        }),
      "total": metrics(summary.total),
    ])
  }

  /// The report as a table, a row per page (its number, from 1) and one
  /// for the totals.
  static func table(_ summary: EvaluationSummary, name: String, number: (Int) -> Int) -> String {
    let metrics = EvaluationMetric.allCases
    var rows = [["page"] + metrics.map(\.name)]
    func cells(_ tally: EvaluationTally) -> [String] {
      metrics.map { String(format: "%.4f", tally.value(of: $0)) }
    }
    for page in summary.pages {
      let n = number(page.index)
      let label = page.pairing == .paired ? "\(n)" : "\(n) (\(page.pairing.rawValue))"
      rows.append([label] + cells(page.tally))
    }
    rows.append(["total"] + cells(summary.total))
    let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
    let lines = rows.map { row in
      row.enumerated().map { c, cell in
        c == 0
          ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[c] - cell.count) + cell
      }.joined(separator: "  ")
    }
    return
      "\(name): \(summary.total.truthWords) truth words, \(summary.total.matchedWords) matched\n"
      + lines.joined(separator: "\n")
  }
}
