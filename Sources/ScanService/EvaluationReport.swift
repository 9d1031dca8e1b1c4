import Foundation
import ScanArguments
import ScanFormats
import ScanModel

/// `eval`: a model measured against ground truth, and its report.
package enum EvaluationReport {
  /// Reads the truth, recognises (or reads) the model's pages and returns
  /// the report: a table, a row per page and one for the totals, or JSON.
  /// Pages are named by their number in the model, from 1 (a page only the
  /// truth has goes on counting after the last).
  ///
  /// Both documents are read a page at a time (a long model is never held
  /// whole): each model page is measured against its truth page as it is
  /// read, and the report's rows wait in a temporary file (``HeldOutput``)
  /// until the totals, which come first in the table, are known.
  /// - Parameters:
  ///   - recognizer: Reads the model; its ``Recognizer/pdfPages`` selects
  ///     the same pages of the truth.
  ///   - languageGiven: Whether the languages were given; if not, the model
  ///     is recognised in the truth's language.
  ///   - io: Where the report is printed, once complete.
  /// - Throws: ``ServiceError`` when either cannot be read.
  package static func write(
    model modelPath: String, truth truthPath: String, recognizer: Recognizer,
    languageGiven: Bool, json: Bool, io: CommandIO
  ) throws {
    let truth = try DocumentFiles.open(truthPath, maxPagesInMemory: 1)
    // The truth's pages that go with the model's.
    let chosen =
      try recognizer.pdfPages?.pages(of: truth.pageCount, path: truthPath)
      ?? Array(0..<truth.pageCount)
    func truthPage(_ i: Int) throws -> Page {
      try DocumentFiles.page(chosen[i], of: truth, path: truthPath)
    }
    var recognizer = recognizer
    // Recognise in the truth's language unless told otherwise.
    if !languageGiven, !chosen.isEmpty {
      let first = try truthPage(0)
      if first.language != nil { recognizer.options.languages = first.languages }
    }
    let rows = try json ? ReportRows.json(io) : ReportRows.table()
    var total = EvaluationTally()
    var position = 0
    var lastNumber = 0
    func add(_ evaluation: PageEvaluation, number: Int) throws {
      total += evaluation.tally
      try rows.add(evaluation, number: number)
    }
    try recognizer.eachPage(modelPath) { number, page, _ in
      let i = position
      position += 1
      lastNumber = number
      if i < chosen.count {
        let t = try truthPage(i)
        try add(
          PageEvaluation(index: i, pairing: .paired, tally: page.evaluate(against: t).tally),
          number: number)
        PageTraffic.pageDone()
      } else {
        let empty = Page(index: page.index, width: page.width, height: page.height, blocks: [])
        try add(
          PageEvaluation(
            index: i, pairing: .missingInTruth, tally: page.evaluate(against: empty).tally),
          number: number)
      }
    }
    let modelPages = position
    for i in modelPages..<max(modelPages, chosen.count) {
      let t = try truthPage(i)
      let empty = Page(index: t.index, width: t.width, height: t.height, blocks: [])
      try add(
        PageEvaluation(index: i, pairing: .missingInOCR, tally: empty.evaluate(against: t).tally),
        number: lastNumber + i - modelPages + 1)
      PageTraffic.pageDone()
    }
    try rows.finish(
      total: total, name: URL(fileURLWithPath: modelPath).lastPathComponent, io: io)
  }

  /// The report's rows as the pages come: JSON written out as
  /// `report(…).serialized(pretty: true)` would write it, or the table's
  /// cells, whose column widths are known only at the end.
  private final class ReportRows {
    /// The JSON, held until complete.
    private let json: HeldOutput?
    /// The table's rows, a line of tab-separated cells each.
    private let spool: Spool?
    private var count = 0
    private var widths = (["page"] + EvaluationMetric.allCases.map(\.name)).map(\.count)

    private init(json: HeldOutput?, spool: Spool?) {
      self.json = json
      self.spool = spool
    }

    static func json(_ io: CommandIO) throws -> ReportRows {
      let out = HeldOutput(io: io)
      // As `report(…).serialized(pretty: true)` writes it.
      try out.write("{\n  \"pages\": [")
      return ReportRows(json: out, spool: nil)
    }

    static func table() throws -> ReportRows { ReportRows(json: nil, spool: try Spool()) }

    func add(_ page: PageEvaluation, number: Int) throws {
      count += 1
      if let json {
        try json.write(
          (count == 1 ? "" : ",") + "\n    "
            + EvaluationReport.pageJSON(page, number: number).serialized(prettyAtDepth: 2))
        return
      }
      let label = page.pairing == .paired ? "\(number)" : "\(number) (\(page.pairing.rawValue))"
      let cells = [label] + EvaluationReport.cells(page.tally)
      for (c, cell) in cells.enumerated() { widths[c] = max(widths[c], cell.count) }
      // The cells hold no tab nor newline: a page's number and numbers.
      try spool?.write(cells.joined(separator: "\t") + "\n")
    }

    func finish(total: EvaluationTally, name: String, io: CommandIO) throws {
      if let json {
        try json.write(count == 0 ? "]" : "\n  ]")
        try json.print(
          ",\n  \"total\": " + EvaluationReport.metrics(total).serialized(prettyAtDepth: 1)
            + "\n}")
        try json.release()
        return
      }
      let out = HeldOutput(io: io)
      let totals = ["total"] + EvaluationReport.cells(total)
      for (c, cell) in totals.enumerated() { widths[c] = max(widths[c], cell.count) }
      try out.print("\(name): \(total.truthWords) truth words, \(total.matchedWords) matched")
      try out.print(row(["page"] + EvaluationMetric.allCases.map(\.name)))
      try spool?.eachLine { line in
        try out.print(row(line.split(separator: "\t").map(String.init)))
      }
      try out.print(row(totals))
      try out.release()
    }

    /// A row's cells padded to the columns' widths: the first to the
    /// left, the numbers to the right.
    private func row(_ cells: [String]) -> String {
      cells.enumerated().map { c, cell in
        c == 0
          ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[c] - cell.count) + cell
      }.joined(separator: "  ")
    }
  }

  /// A page's row in the JSON report: its metrics, `index` (its position,
  /// from 0), `page` (its number, from 1) and `pairing`.
  static func pageJSON(_ page: PageEvaluation, number: Int) -> JSONValue {
    guard case .object(var o) = metrics(page.tally) else { return .null }
    o["index"] = .number(Double(page.index))
    o["page"] = .number(Double(number))
    o["pairing"] = .string(page.pairing.rawValue)
    return .object(o)
  }

  /// A tally's metrics as the table shows them.
  static func cells(_ tally: EvaluationTally) -> [String] {
    EvaluationMetric.allCases.map { String(format: "%.4f", tally.value(of: $0)) }
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
}
