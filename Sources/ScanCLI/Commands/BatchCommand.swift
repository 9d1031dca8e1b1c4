import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

/// `scantext batch`: a collection read into an output folder that mirrors
/// it, resumable, with a run report, one shard of many.
struct BatchCommand: ScanCommand {
  static let inputs = Argument<[String]>(
    "inputs",
    help:
      "Image files, PDFs and folders (searched recursively for images and PDFs).",
    allowsNone: true)
  static let outDir = Option<String>(
    "out-dir",
    help:
      "The output folder (made when missing): each input's outputs at its place in the input tree, and the run report."
  )
  static let format = Option<String>(
    "format",
    help:
      "The formats to write, joined with ',': \(FileFormat.all.map(\.name).joined(separator: ", ")).",
    default: "json")
  static let manifest = Option<String?>(
    "manifest",
    help:
      "A file listing inputs, one path per line (relative to the file's folder; blank lines and '#' lines skipped; '-': standard input)."
  )
  static let shard = Option<(index: Int, count: Int)?>(
    "shard", valueName: "I/N",
    help:
      "Read only shard I of N (I from 1): a stable share of the inputs by a hash of their names, so N runs cover every input once.",
    parse: BatchPlan.shard(parsing:))
  static let jobs = JobsOption.option
  static let quiet = Flag(
    "quiet", short: "q", help: "Show no progress and no summary (failures are still printed).")

  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Recognise a collection into a folder of outputs, resumably, with a run report.",
    discussion: """
      Each input gets its outputs at its place in the input tree under \
      --out-dir (scans/box3/p7.tif in the folder scans gives OUT/box3/p7.json). \
      Every input done is a line of OUT/scantext-report.jsonl (with --shard I/N, \
      scantext-report-I-of-N.jsonl): status, time, pages, words, confidence, \
      steps, errors and each output's size and SHA-256. A rerun skips the \
      inputs whose outputs are still those the report lists (same settings), \
      and does the rest: missing, damaged, failed. Outputs are written to a \
      temporary file and renamed, so a run killed at any moment leaves none \
      half written. The exit code is 1 when an input failed; every other \
      input's outputs are written. 'scantext report' prints a report's summary again.
      """,
    arguments: [inputs, outDir, format, manifest, shard, jobs, quiet] + OCROptions.arguments)

  let paths: [String]
  let folder: String
  let formats: [FileFormat]
  let manifestPath: String?
  let shardChoice: (index: Int, count: Int)?
  let jobCount: Int
  let quietRun: Bool
  let ocr: ReadingSettings

  init(_ a: ParsedArguments) throws {
    paths = try a[Self.inputs]
    folder = try a[Self.outDir]
    manifestPath = try a[Self.manifest]
    guard !paths.isEmpty || manifestPath != nil else {
      throw ValidationError("give the inputs: files, folders, or --manifest FILE")
    }
    guard !paths.contains("-") else {
      throw ValidationError("'-' (standard input) has no name to give its outputs: give files")
    }
    formats = try BatchPlan.formats(parsing: a[Self.format])
    shardChoice = try a[Self.shard]
    jobCount = try JobsOption.count(a)
    quietRun = a[Self.quiet]
    ocr = try ReadingSettings(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let started = Date()
    var batch = try BatchRun(
      inputs: paths, manifest: manifestPath, folder: folder, formats: formats, shard: shardChoice,
      settings: BatchRun.settings(formats: formats, reading: ocr), io: io, quiet: quietRun)
    return try batch.run(ocr, jobs: jobCount, started: started) ? 0 : 1
  }
}

/// `scantext report`: a batch run's report read back.
struct ReportCommand: ScanCommand {
  static let logs = Argument<[String]>(
    "reports", help: "Run reports (scantext-report*.jsonl), or output folders holding them.")
  static let worst = Option<Int>(
    "worst", help: "How many of the slowest and worst inputs to name.", default: 10)

  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Print the summary of batch run reports: counts, slowest and worst inputs, failures.",
    discussion: """
      Reports of several shards are read together; for an input listed more \
      than once (a rerun), its last line counts. The exit code is 1 when an \
      input failed.
      """,
    arguments: [logs, worst])

  let files: [String]
  let count: Int

  init(_ a: ParsedArguments) throws {
    files = try a[Self.logs]
    count = try a[Self.worst]
    guard count >= 0 else { throw ValidationError("'--worst' must be 0 or more") }
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let records = BatchLog.records(try BatchLog.reports(named: files))
    io.print(BatchLog.summary(records, worst: count))
    return records.contains { !$0.ok } ? 1 : 0
  }
}
