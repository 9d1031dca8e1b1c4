import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// A batch run (`scantext batch`): a collection read into an output folder
/// that mirrors its tree, one output per input and format, resumably, with
/// a run report of one line per input done.
///
/// Planning (``init(inputs:manifest:folder:formats:shard:settings:io:quiet:)``)
/// finds the inputs, skips those an earlier run finished and left intact,
/// and refuses an input one of whose outputs would replace an input;
/// ``read(with:writerSettings:progress:clearProgress:)`` reads the rest
/// through a ``Pipeline`` into one ``DocumentSink`` per format. An input
/// that fails (or whose outputs cannot be written) is recorded as failed
/// and the run goes on, unless the file system fails (full, read-only):
/// every later output would fail too.
package struct BatchRun {
  /// The output folder.
  package let folder: String
  /// The formats written, each input in each.
  package let formats: [FileFormat]
  /// The run's settings as one digest (a report line made with others is
  /// not taken as done).
  package let settings: String
  /// The inputs to read.
  package private(set) var todo: [BatchInput] = []
  /// The inputs an earlier run finished.
  package private(set) var skipped = 0
  /// The records written so far (inputs refused before reading).
  package private(set) var records: [BatchRecord] = []
  private let log: BatchLog.Appender
  private let io: CommandIO
  private let quiet: Bool

  /// A batch run's settings as one digest: a report line made with others
  /// (other formats, options or program) is not taken as done.
  package static func settings(formats: [FileFormat], reading: ReadingSettings) -> String {
    let extra = [
      "batch", formats.map(\.name).joined(separator: ","), "pdf text \(reading.pdfText.rawValue)",
      "pages \(reading.pdfPages.map { "\($0)" } ?? "all")",
      "keep rotation \(reading.keepRotation)",
    ].joined(separator: "\n")
    return RecognitionCache.key(imageDigest: [], options: reading.recognition, extra: extra).name
  }

  /// Reads ``todo`` as `reading` says on up to `jobs` workers, without the
  /// cache (a collection is read once: its pages would fill the user's
  /// cache; the report is what a rerun resumes from), the progress shown
  /// on a terminal and the run's summary printed after, unless quiet.
  /// - Parameters:
  ///   - reading: The recognition settings, and those of each output.
  ///   - jobs: The most inputs or pages read at once.
  ///   - started: When the command started (the summary's wall time).
  /// - Returns: Whether every input was read and written.
  /// - Throws: As ``read(with:writerSettings:progress:clearProgress:)``.
  package mutating func run(_ reading: ReadingSettings, jobs: Int, started: Date) throws -> Bool {
    let progress: ProgressLine? =
      !quiet && io.errorIsTerminal && !todo.isEmpty ? ProgressLine(io: io, unit: "pieces") : nil
    defer { progress?.finish() }
    var pipeline = Pipeline(reading.recognizer(jobs: jobs))
    pipeline.cache = nil
    let io = self.io
    let records = try read(
      with: pipeline, writerSettings: { reading.writerSettings(writing: $0, io: io) },
      progress: progress?.show, clearProgress: { progress?.clear() })
    progress?.finish()
    if !quiet {
      io.printError(
        BatchLog.summary(records, skipped: skipped, wall: Date().timeIntervalSince(started)))
    }
    return !records.contains { !$0.ok }
  }

  /// Plans the run: the inputs of `arguments` and `manifest` (of shard
  /// `shard`), those not done yet, the report opened for appending.
  /// - Throws: ``ServiceError`` naming the input or folder when an input
  ///   cannot be found, the folder cannot be made or the report written.
  package init(
    inputs arguments: [String], manifest: String?, folder: String, formats: [FileFormat],
    shard: (index: Int, count: Int)?, settings: String, io: CommandIO, quiet: Bool
  ) throws {
    self.folder = folder
    self.formats = formats
    self.settings = settings
    self.io = io
    self.quiet = quiet
    // What earlier runs wrote is never read as an input.
    let (all, notes) = try BatchPlan.inputs(
      arguments: arguments, manifest: manifest, skipping: folder,
      excluding: BatchLog.outputs(in: folder))
    if !quiet {
      for note in notes { io.printError("Note: " + note.escapingControlCharacters) }
    }
    let mine = shard.map { BatchPlan.shard(all, index: $0.index, count: $0.count) } ?? all
    try OutputFolder.create(folder)
    // What earlier runs (of any shard) finished and left intact.
    let done = Dictionary(
      BatchLog.records(BatchLog.reports(in: folder)).map { ($0.name, $0) },
      uniquingKeysWith: { _, last in last })
    let pending = mine.filter { input in
      guard let record = done[input.name] else { return true }
      return !BatchLog.isDone(record, settings: settings, in: folder)
    }
    skipped = mine.count - pending.count
    log = try BatchLog.Appender(
      (folder as NSString).appendingPathComponent(BatchLog.fileName(shard: shard)))
    try refuseClashes(pending, all: all)
  }

  /// The file an output of `input` in `format` is written to, inside the
  /// output folder.
  private static func outputName(_ input: BatchInput, _ format: FileFormat) -> String {
    input.name + format.outputEnding
  }

  /// Keeps in ``todo`` the inputs of `pending` none of whose outputs is an
  /// input (the same file: a PDF written over itself, through a link or a
  /// hard link too); each other is refused, alone, with its record.
  private mutating func refuseClashes(_ pending: [BatchInput], all: [BatchInput]) throws {
    var inputsByIdentity: [FileIdentity: String] = [:]
    for input in all {
      if let identity = FileIdentity(input.path) { inputsByIdentity[identity] = input.path }
    }
    let folder = self.folder
    for input in pending {
      let clash = formats.lazy.compactMap { format -> ServiceError? in
        let path = (folder as NSString).appendingPathComponent(Self.outputName(input, format))
        guard let identity = FileIdentity(path), let other = inputsByIdentity[identity] else {
          return nil
        }
        return OutputFile.replacesInput(path, other)
      }.first
      guard let clash else {
        todo.append(input)
        continue
      }
      var record = BatchRecord(
        path: input.path, name: input.name, ok: false, seconds: 0, settings: settings)
      record.errors = [clash.message]
      try log.append(record.line + "\n")
      records.append(record)
      io.printErrorMessage(clash.message)
    }
  }

  /// Reads ``todo`` with `pipeline` into the outputs, appending each
  /// input's record to the report as it is done.
  /// - Parameters:
  ///   - pipeline: How the inputs are read (a collection is read once, so
  ///     without a cache: its pages would fill the user's).
  ///   - writerSettings: The settings of the output at a path.
  ///   - progress: Called after each piece read.
  ///   - clearProgress: Called before a failure is printed.
  /// - Returns: Every record of the run, refused inputs first.
  /// - Throws: What fails every output (the file system full or
  ///   read-only, standard error or the report unwritable).
  package mutating func read(
    with pipeline: Pipeline, writerSettings: @escaping (String) -> WriterSettings,
    progress: Recognizer.Progress?, clearProgress: () -> Void
  ) throws -> [BatchRecord] {
    let todo = self.todo
    let (folder, formats, settings, io) = (self.folder, self.formats, self.settings, self.io)
    let sinks = formats.map { format in
      let sink = DocumentSink(format: format, destination: .folder(folder))
      sink.io = io
      sink.settingsForPath = writerSettings
      sink.treeNames = todo.map(\.name)
      return sink
    }
    var current: (input: Int, record: BatchRecord)?
    // The input whose output could not be written: its other pieces are
    // passed over (its record is written), and the run goes on.
    var abandoned: Int?
    var records = self.records
    let log = self.log
    func close(_ i: Int, _ record: BatchRecord, finishing: Bool) throws {
      var record = record
      let written = finishing ? (sinks.first?.inputPageCount ?? 0) : 0
      if written > 0 {
        do {
          for (format, sink) in zip(formats, sinks) {
            try sink.finishInput()
            let name = Self.outputName(todo[i], format)
            let path = (folder as NSString).appendingPathComponent(name)
            let bytes =
              (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            record.outputs.append(
              BatchOutput(path: name, bytes: bytes, sha256: BatchLog.digest(of: path) ?? ""))
          }
        } catch {
          // This input failed; the run goes on, unless the file system
          // failed.
          sinks.forEach { $0.abandonInput() }
          if OutputFile.failsEveryOutput(error) { throw error }
          record.ok = false
          record.errors.append(ServiceError.wrap(error).message)
        }
      } else {
        sinks.forEach { $0.abandonInput() }
        record.ok = false
        if record.errors.isEmpty { record.errors = ["no page read"] }
      }
      try log.append(record.line + "\n")
      records.append(record)
      // A failure is printed however quiet the run: `--quiet` hides the
      // progress and the summary, never an input's error.
      if !record.ok {
        clearProgress()
        for error in record.errors { io.printErrorMessage(error) }
      }
    }
    for sink in sinks {
      try sink.open(paths: todo.map(\.path), options: pipeline.options, pdfText: pipeline.pdfText)
    }
    do {
      try pipeline.recognizer.read(todo.map(\.path), progress: progress) { part in
        if abandoned == part.input { return }
        // A write that fails fails its input only, unless the file system
        // fails (full, read-only): then every later output would too.
        func failed(_ error: any Error) throws {
          if error is BatchFailure || OutputFile.failsEveryOutput(error) { throw error }
          guard var now = current else { throw error }
          current = nil
          sinks.forEach { $0.abandonInput() }
          now.record.ok = false
          now.record.errors.append(ServiceError.wrap(error).message)
          try close(now.input, now.record, finishing: false)
          if !part.isLast { abandoned = now.input }
        }
        if current?.input != part.input {
          if let open = current { try close(open.input, open.record, finishing: true) }
          current = (
            part.input,
            BatchRecord(
              path: todo[part.input].path, name: todo[part.input].name, ok: true, seconds: 0,
              settings: settings)
          )
          do {
            for sink in sinks { try sink.openInput(part.input) }
          } catch {
            try failed(error)
            return
          }
        }
        guard var now = current else { return }
        now.record.seconds += part.result.seconds
        switch part.result.pages {
        case .success(let pages):
          for page in pages.map(\.page) {
            do {
              for sink in sinks { try sink.writePages([page], from: part.result.path) }
            } catch {
              current = now
              try failed(error)
              return
            }
            now.record.add(page)
          }
        case .failure(let error):
          now.record.ok = false
          now.record.errors.append(error.message)
        }
        for error in part.result.pageErrors {
          now.record.ok = false
          now.record.errors.append(error.message)
        }
        current = now
        if part.isLast {
          current = nil
          try close(now.input, now.record, finishing: true)
        }
      }
    } catch {
      sinks.forEach { $0.abandonInput() }
      throw error
    }
    self.records = records
    return records
  }
}
