import Foundation
import ScanFormats
import ScanModel

/// `eval`: a model measured against ground truth, and its report.
package enum EvaluationReport {
  /// Reads the truth, recognises (or reads) the model's pages and returns
  /// the report: a table, a row per page and one for the totals, or JSON.
  /// Pages are named by their number in the model, from 1 (a page only the
  /// truth has goes on counting after the last).
  /// - Parameters:
  ///   - recognizer: Reads the model; its ``Recognizer/pdfPages`` selects
  ///     the same pages of the truth.
  ///   - languageGiven: Whether the languages were given; if not, the model
  ///     is recognised in the truth's language.
  /// - Throws: ``ServiceError`` when either cannot be read.
  package static func make(
    model modelPath: String, truth truthPath: String, recognizer: Recognizer,
    languageGiven: Bool, json: Bool
  ) throws -> String {
    var truth = try DocumentFiles.read(truthPath)
    if let selection = recognizer.pdfPages {
      // The truth's pages that go with the model's.
      truth = Document(
        pages: try selection.pages(of: truth.pages.count, path: truthPath).map { truth.pages[$0] })
    }
    var recognizer = recognizer
    // Recognise in the truth's language unless told otherwise.
    if !languageGiven, let first = truth.pages.first, first.language != nil {
      recognizer.options.languages = first.languages
    }
    let pages = try recognizer.numberedPages(modelPath)
    let summary = evaluate(Document(pages: pages.map(\.page)), against: truth)
    let numbers = pages.map(\.number)
    let number = { (i: Int) in
      i < numbers.count ? numbers[i] : (numbers.last ?? 0) + i - numbers.count + 1
    }
    if json { return report(summary, number: number).serialized(pretty: true) }
    return table(summary, name: URL(fileURLWithPath: modelPath).lastPathComponent, number: number)
  }

  /// A tally's metrics (rounded to four decimals) and counts.
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
