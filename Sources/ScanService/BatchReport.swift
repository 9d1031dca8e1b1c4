import Foundation
import ScanArguments
import ScanFormats
import ScanModel

/// One output file of a batch run, as the run report records it: enough
/// to tell, on a rerun, that the file is still the one written.
package struct BatchOutput: Sendable, Equatable {
  /// The file's path inside the output folder.
  package var path: String
  package var bytes: Int
  /// The SHA-256 of its bytes, in hex.
  package var sha256: String

  package init(path: String, bytes: Int, sha256: String) {
    self.path = path
    self.bytes = bytes
    self.sha256 = sha256
  }
}

/// One line of a batch run's report: what became of one input.
package struct BatchRecord: Sendable, Equatable {
  /// The input as given or found.
  package var path: String
  /// Its outputs' name inside the output folder (``BatchInput/name``).
  package var name: String
  /// Whether every page of it was read and written.
  package var ok: Bool
  /// The recognition time of its pages, summed (seconds).
  package var seconds: Double
  package var pages = 0
  package var words = 0
  /// The words' mean confidence; `nil` with no word.
  package var meanConfidence: Double?
  /// The share of words read with confidence below
  /// ``ScanModel/ScanConventions/lowConfidenceThreshold``; `nil` with no word.
  package var lowConfidenceShare: Double?
  /// The preprocessing the pages recorded, each record once, in order.
  package var steps: [String] = []
  /// Each page's orientation (degrees) and skew (degrees).
  package var orientations: [Int] = []
  package var skews: [Double] = []
  /// Why the input, or pages of it, failed.
  package var errors: [String] = []
  package var outputs: [BatchOutput] = []
  /// The run's settings (``BatchLog/settings(_:)``): a record made with
  /// other settings is not taken as done.
  package var settings: String

  package init(path: String, name: String, ok: Bool, seconds: Double, settings: String) {
    self.path = path
    self.name = name
    self.ok = ok
    self.seconds = seconds
    self.settings = settings
  }

  /// Adds a page's figures.
  package mutating func add(_ page: Page) {
    pages += 1
    var sum = 0.0
    var low = 0
    var count = 0
    for word in page.words {
      let confidence = word.confidence ?? 0
      sum += confidence
      if confidence < ScanConventions.lowConfidenceThreshold { low += 1 }
      count += 1
    }
    let before = Double(words)
    words += count
    if words > 0 {
      meanConfidence = ((meanConfidence ?? 0) * before + sum) / Double(words)
      lowConfidenceShare = ((lowConfidenceShare ?? 0) * before + Double(low)) / Double(words)
    }
    for step in page.preprocessing where !steps.contains(step) { steps.append(step) }
    orientations.append(page.orientation)
    skews.append(page.skew)
  }

  /// The record as one line of the report (JSON, no line break).
  package var line: String {
    func rounded(_ x: Double) -> JSONValue { .number((x * 1000).rounded() / 1000) }
    var o: [String: JSONValue] = [
      "path": .string(path), "name": .string(name), "status": .string(ok ? "ok" : "failed"),
      "seconds": rounded(seconds), "pages": .number(Double(pages)),
      "words": .number(Double(words)),
      "steps": .array(steps.map(JSONValue.string)),
      "orientation": .array(orientations.map { .number(Double($0)) }),
      "skew": .array(skews.map(rounded)),
      "outputs": .array(
        outputs.map {
          .object([
            "path": .string($0.path), "bytes": .number(Double($0.bytes)),
            "sha256": .string($0.sha256),
          ])
        }),
      "settings": .string(settings),
    ]
    if let meanConfidence { o["meanConfidence"] = rounded(meanConfidence) }
    if let lowConfidenceShare { o["lowConfidenceShare"] = rounded(lowConfidenceShare) }
    if !errors.isEmpty { o["errors"] = .array(errors.map(JSONValue.string)) }
    return JSONValue.object(o).serialized()
  }

  /// The record a report line holds; `nil` for a line that is not one (a
  /// line cut off by a run that was killed while writing it).
  package init?(line: String) {
    guard let value = try? JSONValue(parsing: line), let path = value["path"]?.stringValue,
      let name = value["name"]?.stringValue, let status = value["status"]?.stringValue,
      let settings = value["settings"]?.stringValue
    else { return nil }
    self.init(
      path: path, name: name, ok: status == "ok", seconds: value["seconds"]?.doubleValue ?? 0,
      settings: settings)
    pages = value["pages"]?.intValue ?? 0
    words = value["words"]?.intValue ?? 0
    meanConfidence = value["meanConfidence"]?.doubleValue
    lowConfidenceShare = value["lowConfidenceShare"]?.doubleValue
    steps = value["steps"]?.arrayValue?.compactMap(\.stringValue) ?? []
    orientations = value["orientation"]?.arrayValue?.compactMap(\.intValue) ?? []
    skews = value["skew"]?.arrayValue?.compactMap(\.doubleValue) ?? []
    errors = value["errors"]?.arrayValue?.compactMap(\.stringValue) ?? []
    outputs = (value["outputs"]?.arrayValue ?? []).compactMap { o in
      guard let path = o["path"]?.stringValue, let bytes = o["bytes"]?.intValue,
        let sha = o["sha256"]?.stringValue
      else { return nil }
      return BatchOutput(path: path, bytes: bytes, sha256: sha)
    }
  }
}

/// The run reports of a batch output folder: JSON lines, one per input
/// read, appended as each input is done (`scantext-report.jsonl`, or
/// `scantext-report-I-of-N.jsonl` for shard I of N, so shards never write
/// one file); what a rerun reads to skip what is done.
package enum BatchLog {
  /// The report's file name in the output folder.
  package static func fileName(shard: (index: Int, count: Int)?) -> String {
    shard.map { "scantext-report-\($0.index)-of-\($0.count).jsonl" } ?? "scantext-report.jsonl"
  }

  /// Whether a file name is a report's.
  package static func isReport(_ name: String) -> Bool {
    name.hasPrefix("scantext-report") && name.hasSuffix(".jsonl")
  }

  /// The records of report files, the last one of each name winning (a
  /// rerun appends after the run it resumes); lines that are not records
  /// are skipped.
  package static func records(_ files: [String]) -> [BatchRecord] {
    var order: [String] = []
    var last: [String: BatchRecord] = [:]
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else { continue }
      for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        guard let record = BatchRecord(line: String(line)) else { continue }
        if last[record.name] == nil { order.append(record.name) }
        last[record.name] = record
      }
    }
    return order.compactMap { last[$0] }
  }

  /// The report files `files` names: each file itself, or the reports in
  /// each folder.
  /// - Throws: ``ServiceError`` for a file or folder that is not there, or
  ///   a folder that holds no report.
  package static func reports(named files: [String]) throws -> [String] {
    var found: [String] = []
    for file in files {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
        throw ServiceError.inputUnreadable(path: file, reason: "no such file or folder")
      }
      if isFolder.boolValue {
        let inFolder = reports(in: file)
        guard !inFolder.isEmpty else {
          throw ServiceError.inputUnreadable(path: file, reason: "the folder holds no run report")
        }
        found += inFolder
      } else {
        found.append(file)
      }
    }
    return found
  }

  /// The report files in an output folder.
  package static func reports(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter(isReport).sorted().map { (folder as NSString).appendingPathComponent($0) }
  }

  /// The files the reports in `folder` list as outputs and that are still
  /// there, by identity: what a rerun never takes as an input (an output
  /// folder inside, or equal to, an input folder).
  /// - Complexity: O(*n*) in the reports' lines.
  package static func outputs(in folder: String) -> Set<FileIdentity> {
    var found = Set<FileIdentity>()
    for record in records(reports(in: folder)) {
      for output in record.outputs {
        let path = (folder as NSString).appendingPathComponent(output.path)
        if let identity = FileIdentity(path) { found.insert(identity) }
      }
    }
    return found
  }

  /// Whether the record says its input is done with these settings and
  /// every output it lists is in `folder` with the bytes it wrote.
  package static func isDone(_ record: BatchRecord, settings: String, in folder: String) -> Bool {
    guard record.ok, record.settings == settings, !record.outputs.isEmpty else { return false }
    return record.outputs.allSatisfy { output in
      let path = (folder as NSString).appendingPathComponent(output.path)
      guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int,
        size == output.bytes
      else { return false }
      return digest(of: path) == output.sha256
    }
  }

  /// The SHA-256 of a file's bytes in hex; `nil` when it cannot be read.
  package static func digest(of path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var hash = SHA256()
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      chunk.withUnsafeBytes { hash.update($0) }
    }
    return SHA256.hex(digest: hash.finalize())
  }

  /// The summary of a run's records: counts, pages, words and time, the
  /// slowest and the worst inputs (lowest mean confidence), and each
  /// failure. File names and messages have their control characters
  /// escaped (`escapingControlCharacters`), as every error
  /// line has: a name holding an escape sequence never reaches the
  /// terminal raw.
  /// - Parameters:
  ///   - records: The records.
  ///   - skipped: Inputs a rerun found done (not in `records`).
  ///   - wall: The run's wall time, when it is a run (not a report read
  ///     back).
  ///   - worst: How many of the slowest and worst inputs to name.
  package static func summary(
    _ records: [BatchRecord], skipped: Int = 0, wall: Double? = nil, worst: Int = 3
  ) -> String {
    let failed = records.filter { !$0.ok }
    let pages = records.reduce(0) { $0 + $1.pages }
    let words = records.reduce(0) { $0 + $1.words }
    let seconds = records.reduce(0) { $0 + $1.seconds }
    var lines: [String] = []
    var head =
      "\(records.count + skipped) inputs: \(records.count - failed.count) done, \(failed.count) failed"
    if skipped > 0 { head += ", \(skipped) done before (skipped)" }
    head += "; \(pages) pages, \(words) words, recognition \(format(seconds)) s"
    if let wall, wall > 0 {
      head += " in \(format(wall)) s (\(format(Double(pages) / wall)) pages/s)"
    }
    lines.append(head)
    let slowest = records.filter { $0.pages > 0 }.sorted { $0.seconds > $1.seconds }.prefix(worst)
    if !slowest.isEmpty {
      lines.append(
        "slowest: "
          + slowest.map { "\($0.path.escapingControlCharacters) \(format($0.seconds)) s" }.joined(
            separator: ", "))
    }
    let poorest = records.filter { $0.meanConfidence != nil }.sorted {
      ($0.meanConfidence ?? 0) < ($1.meanConfidence ?? 0)
    }.prefix(worst)
    if !poorest.isEmpty {
      lines.append(
        "worst: "
          + poorest.map {
            "\($0.path.escapingControlCharacters) (mean confidence \(format($0.meanConfidence ?? 0)), \(Int((100 * ($0.lowConfidenceShare ?? 0)).rounded())) % of words low)"
          }.joined(separator: ", "))
    }
    for record in failed {
      let error = record.errors.first ?? "\(record.path): failed"
      lines.append("failed: \(error.escapingControlCharacters)")
    }
    return lines.joined(separator: "\n")
  }

  private static func format(_ x: Double) -> String { String(format: "%.1f", x) }
}

extension BatchLog {
  /// A report file opened for appending: each line is one `write`, made
  /// after the input's outputs are renamed into place, so a run killed at
  /// any moment leaves at most a cut-off last line (skipped when read).
  package final class Appender {
    private let descriptor: Int32
    private let path: String

    /// Opens (or makes) `path` for appending.
    /// - Throws: ``ServiceError`` naming the file and the reason.
    package init(_ path: String) throws(ServiceError) {
      let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        throw .outputNotWritable(path: path, reason: String(cString: strerror(errno)))
      }
      descriptor = fd
      self.path = path
    }

    deinit { close(descriptor) }

    /// Appends `text` and flushes it to the disk.
    /// - Throws: ``ServiceError`` naming the file and the reason (a full
    ///   disk).
    package func append(_ text: String) throws(ServiceError) {
      let bytes = Array(text.utf8)
      var done = 0
      while done < bytes.count {
        let n = bytes[done...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          throw .outputNotWritable(path: path, reason: String(cString: strerror(errno)))
        }
        done += n
      }
      guard fsync(descriptor) == 0 else {
        throw .outputNotWritable(path: path, reason: String(cString: strerror(errno)))
      }
    }
  }
}
