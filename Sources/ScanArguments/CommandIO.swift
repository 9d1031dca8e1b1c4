import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line of standard input read with a length limit.
public enum InputLine: Equatable, Sendable {
  /// A line (without its newline) that is valid UTF-8.
  case text(String)
  /// A line that is not valid UTF-8 (it is skipped, never repaired).
  case invalidUTF8
  /// A line longer than the limit, in bytes (it is skipped to its end
  /// without being kept in memory).
  case tooLong
}

/// Where a command reads and writes: standard streams in the executable,
/// a `CapturedIO` buffer in tests.
public struct CommandIO: Sendable {
  private let writeOutput: @Sendable (String) -> Void
  private let writeErrorOutput: @Sendable (String) -> Void
  private let readInputLine: @Sendable () -> String?
  private let readLimitedLine: (@Sendable (Int) -> InputLine?)?
  private let flushOutput: @Sendable () -> Void
  private let outputFailure: @Sendable () -> String?
  /// Whether standard error is a terminal (progress is shown only there).
  public let errorIsTerminal: Bool

  /// - Parameters:
  ///   - readLimitedLine: Reads a line of at most the given number of bytes
  ///     (`nil` at the end); by default built on `readLine`.
  ///   - outputFailure: Sends buffered output on its way and says why
  ///     standard output could not be written (`nil` when all went well).
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?,
    readLimitedLine: (@Sendable (Int) -> InputLine?)? = nil,
    flush: @escaping @Sendable () -> Void = {},
    outputFailure: @escaping @Sendable () -> String? = { nil },
    errorIsTerminal: Bool = false
  ) {
    self.writeOutput = writeOutput
    self.writeErrorOutput = writeError
    self.readInputLine = readLine
    self.readLimitedLine = readLimitedLine
    self.flushOutput = flush
    self.outputFailure = outputFailure
    self.errorIsTerminal = errorIsTerminal
  }

  /// Sends buffered standard output on its way (the query protocol answers
  /// one line at a time).
  public func flush() {
    flushOutput()
  }

  /// Flushes standard output and returns why it could not be written (such
  /// as "No space left on device"), or `nil` when every write succeeded.
  public func finishOutput() -> String? {
    outputFailure()
  }

  /// Writes `text` to standard output as is.
  public func write(_ text: String) {
    writeOutput(text)
  }

  /// Writes `line` and a newline to standard output.
  public func print(_ line: String = "") {
    writeOutput(line + "\n")
  }

  /// Writes `text` to standard error as is.
  public func writeError(_ text: String) {
    writeErrorOutput(text)
  }

  /// Writes `line` and a newline to standard error.
  public func printError(_ line: String) {
    writeErrorOutput(line + "\n")
  }

  /// The next line of standard input without its newline, or `nil` at the
  /// end (or once standard output has failed: nobody would see the answers).
  /// - Parameter limit: The longest line kept, in bytes; a longer line is
  ///   read to its end and discarded, as ``InputLine/tooLong``.
  public func readLine(limit: Int) -> InputLine? {
    if let readLimitedLine { return readLimitedLine(limit) }
    guard let line = readInputLine() else { return nil }
    return line.utf8.count > limit ? .tooLong : .text(line)
  }

  /// The process's standard output, standard error and standard input.
  public static let standard = CommandIO(
    writeOutput: { text in StandardOutput.write(text) },
    writeError: { text in writeToStandardError(text) },
    readLine: {
      switch StandardInput.shared.withLock({ $0.readLine(limit: .max) }) {
      case .text(let line): return line
      case .invalidUTF8, .tooLong: return "\u{FFFD}"
      case nil: return nil
      }
    },
    readLimitedLine: { limit in
      guard StandardOutput.failure() == nil else { return nil }
      return StandardInput.shared.withLock { $0.readLine(limit: limit) }
    },
    flush: { StandardOutput.flush() },
    outputFailure: {
      StandardOutput.flush()
      return StandardOutput.failure()
    },
    errorIsTerminal: isatty(STDERR_FILENO) != 0
  )
}

/// Standard output: buffered writes to descriptor 1, remembering the first
/// write error (a full disk, `/dev/full`) so that the tool can report it and
/// exit 1 instead of losing the data silently.
enum StandardOutput {
  private struct State {
    var buffer: [UInt8] = []
    var error: Int32 = 0
  }
  private static let state = Mutex(State())
  private static let bufferSize = 1 << 16

  static func write(_ text: String) {
    state.withLock { state in
      state.buffer.append(contentsOf: text.utf8)
      if state.buffer.count >= bufferSize { drain(&state) }
    }
  }

  static func flush() {
    state.withLock { drain(&$0) }
  }

  /// Writes the buffer out; after an error, output is dropped.
  private static func drain(_ state: inout State) {
    defer { state.buffer.removeAll(keepingCapacity: true) }
    guard state.error == 0 else { return }
    var done = 0
    while done < state.buffer.count {
      let written = state.buffer[done...].withUnsafeBytes {
        Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if written > 0 {
        done += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        state.error = written < 0 ? errno : EIO
        return
      }
    }
  }

  /// Why writing failed, or `nil`.
  static func failure() -> String? {
    let code = state.withLock { $0.error }
    return code == 0 ? nil : String(cString: strerror(code))
  }
}

/// Standard input read in blocks from descriptor 0, split into lines with
/// a length limit, checked as UTF-8 without repair.
struct StandardInput: ~Copyable {
  static let shared = Mutex(StandardInput())

  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false

  /// Reads more bytes; false at the end of input.
  private mutating func fill() -> Bool {
    guard !atEnd else { return false }
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n > 0 {
        buffer += chunk[..<n]
        return true
      }
      if n < 0 && errno == EINTR { continue }
      atEnd = true
      return false
    }
  }

  mutating func readLine(limit: Int) -> InputLine? {
    var scanned = 0
    var tooLong = false
    while true {
      if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        defer { start = newline + 1 }
        if tooLong || newline - start > limit { return .tooLong }
        return Self.decode(buffer[start..<newline])
      }
      scanned = buffer.count - start
      if scanned > limit {
        // Keep nothing of an over-long line: drop what was read so far.
        tooLong = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
      }
      guard fill() else {
        guard tooLong || buffer.count > start else { return nil }
        defer {
          buffer.removeAll()
          start = 0
        }
        return tooLong ? .tooLong : Self.decode(buffer[start...])
      }
    }
  }

  private static func decode(_ bytes: ArraySlice<UInt8>) -> InputLine {
    var line = bytes
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard let text = String(validating: line, as: UTF8.self) else { return .invalidUTF8 }
    return .text(text)
  }
}

private func writeToStandardError(_ text: String) {
  // Keep stdout and stderr in order when both go to the same terminal or file.
  StandardOutput.flush()
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { buffer in
      write(STDERR_FILENO, buffer.baseAddress, buffer.count)
    }
    if written > 0 {
      bytes = bytes.dropFirst(written)
    } else if written < 0 && errno == EINTR {
      continue
    } else {
      return
    }
  }
}

/// An in-memory `CommandIO` for tests: collects standard output and standard
/// error, and serves standard input from a list of lines.
///
/// ```swift
/// let captured = CapturedIO(input: ["line 1"])
/// let code = CommandLineTool.run(ScanText.self, arguments: ["ocr", "--help"], io: captured.io)
/// #expect(captured.stdout.hasPrefix("OVERVIEW:"))
/// ```
public final class CapturedIO: Sendable {
  private struct State {
    var stdout = ""
    var stderr = ""
    var input: ArraySlice<[UInt8]>
  }

  private let state: Mutex<State>

  public init(input: [String] = []) {
    state = Mutex(State(input: input.map { Array($0.utf8) }[...]))
  }

  /// Standard input as raw lines (each without its newline), such as lines
  /// that are not valid UTF-8.
  public init(inputBytes: [[UInt8]]) {
    state = Mutex(State(input: inputBytes[...]))
  }

  /// Everything written to standard output so far.
  public var stdout: String { state.withLock { $0.stdout } }

  /// Everything written to standard error so far.
  public var stderr: String { state.withLock { $0.stderr } }

  /// The `CommandIO` that writes into this capture.
  public var io: CommandIO {
    CommandIO(
      writeOutput: { [self] text in state.withLock { $0.stdout += text } },
      writeError: { [self] text in state.withLock { $0.stderr += text } },
      readLine: { [self] in
        state.withLock { $0.input.popFirst() }.map { String(decoding: $0, as: UTF8.self) }
      },
      readLimitedLine: { [self] limit in
        guard let line = state.withLock({ $0.input.popFirst() }) else { return nil }
        if line.count > limit { return .tooLong }
        return String(validating: line, as: UTF8.self).map { .text($0) } ?? .invalidUTF8
      }
    )
  }
}
