import Foundation
import Synchronization

/// One run of the built `scantext` executable.
public struct ScanTextRun: Sendable {
  public var code: Int32
  public var stdout: String
  /// Standard output as bytes (a PDF, a PNG).
  public var stdoutData = Data()
  public var stderr: String
  /// How long the run took, in seconds.
  public var seconds: Double

  /// Runs `scantext` with `arguments`, `stdin` (or `stdinData`, or the file
  /// `stdinFile`) as standard input, and a private cache folder (never the
  /// user's) unless `environment` names one (`XDG_CACHE_HOME`). Standard
  /// output goes to `stdoutFile` when given (such as `/dev/full`), else is
  /// captured. A run still going after `timeout` seconds is killed (exit
  /// code 137 or the signal number).
  public static func run(
    _ arguments: [String], stdin: String? = nil, stdinData: Data? = nil,
    stdinFile: String? = nil, stdoutFile: String? = nil, environment extra: [String: String] = [:],
    timeout: Double = 120
  ) throws -> ScanTextRun {
    let process = Process()
    process.executableURL = Fixtures.executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = try Fixtures.temporaryFolder().path
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    if let stdoutFile {
      guard let handle = FileHandle(forWritingAtPath: stdoutFile) else {
        throw FixtureError("cannot open \(stdoutFile)")
      }
      process.standardOutput = handle
    } else {
      process.standardOutput = out
    }
    process.standardError = err
    if let stdinFile {
      guard let handle = FileHandle(forReadingAtPath: stdinFile) else {
        throw FixtureError("cannot open \(stdinFile)")
      }
      process.standardInput = handle
    } else {
      process.standardInput = input
    }
    let started = Date()
    try process.run()
    // Standard input is written on a thread of its own: the process may
    // answer (or fail) before it has read it all.
    let feed = stdinData ?? stdin.map { Data($0.utf8) } ?? Data()
    // A process that stops reading early must not kill the tests.
    signal(SIGPIPE, SIG_IGN)
    let writer = Thread {
      try? input.fileHandleForWriting.write(contentsOf: feed)
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    // Read both pipes to the end before waiting, so neither can fill up.
    let errData = Mutex(Data())
    let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    var outData = Data()
    if stdoutFile == nil {
      outData = out.fileHandleForReading.readDataToEndOfFile()
    }
    process.waitUntilExit()
    killer.cancel()
    while reader.isExecuting || !reader.isFinished { usleep(1000) }
    while writer.isExecuting || !writer.isFinished { usleep(1000) }
    return ScanTextRun(
      code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stdoutData: outData, stderr: errData.withLock { String(decoding: $0, as: UTF8.self) },
      seconds: Date().timeIntervalSince(started))
  }
}
