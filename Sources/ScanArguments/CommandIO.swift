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

/// Standard input read whole, with a size limit (`scantext ocr -`).
public enum InputBytes: Equatable, Sendable {
  /// Everything up to the end of input.
  case bytes([UInt8])
  /// More than the limit: reading stopped at the limit, and what was read
  /// is dropped.
  case tooLong
  /// Reading failed (the reason, as `strerror` gives it).
  case failed(String)
}

/// Where a command reads and writes: standard streams in the executable,
/// a `CapturedIO` buffer in tests.
public struct CommandIO: Sendable {
  private let writeOutput: @Sendable (String) -> Void
  private let writeOutputBytes: (@Sendable ([UInt8]) -> Void)?
  private let readAllInput: (@Sendable (Int) -> InputBytes)?
  private let readBlocksInput: (@Sendable (_ body: ([UInt8]) throws -> Void) throws -> String?)?
  private let writeErrorOutput: @Sendable (String) -> Void
  private let readInputLine: @Sendable () -> String?
  private let readLimitedLine: (@Sendable (Int) -> InputLine?)?
  private let flushOutput: @Sendable () -> Void
  private let outputFailure: @Sendable () -> String?
  /// Whether standard error is a terminal (progress is shown only there).
  public let errorIsTerminal: Bool
  /// Whether standard output is a terminal (a person reads it: `ocr`
  /// prints text there rather than JSON).
  public let outputIsTerminal: Bool

  /// - Parameters:
  ///   - readLimitedLine: Reads a line of at most the given number of bytes
  ///     (`nil` at the end); by default built on `readLine`.
  ///   - outputFailure: Sends buffered output on its way and says why
  ///     standard output could not be written (`nil` when all went well).
  ///   - writeOutputBytes: Writes bytes to standard output (a PDF, a PNG);
  ///     by default decoded as UTF-8 and given to `writeOutput`.
  ///   - readAll: Reads the rest of standard input, at most the given number
  ///     of bytes; by default the lines of `readLine`, each with a newline.
  ///   - readBlocks: Reads the rest of standard input a block at a time,
  ///     handing each to the closure it is given, and returns why reading
  ///     failed (`nil` at the end); by default `readAll`'s bytes as one
  ///     block.
  ///   - outputIsTerminal: Whether standard output is a terminal.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?,
    readLimitedLine: (@Sendable (Int) -> InputLine?)? = nil,
    writeOutputBytes: (@Sendable ([UInt8]) -> Void)? = nil,
    readAll: (@Sendable (Int) -> InputBytes)? = nil,
    readBlocks: (@Sendable (_ body: ([UInt8]) throws -> Void) throws -> String?)? = nil,
    flush: @escaping @Sendable () -> Void = {},
    outputFailure: @escaping @Sendable () -> String? = { nil },
    errorIsTerminal: Bool = false,
    outputIsTerminal: Bool = false
  ) {
    self.writeOutput = writeOutput
    self.writeOutputBytes = writeOutputBytes
    self.readAllInput = readAll
    self.readBlocksInput = readBlocks
    self.writeErrorOutput = writeError
    self.readInputLine = readLine
    self.readLimitedLine = readLimitedLine
    self.flushOutput = flush
    self.outputFailure = outputFailure
    self.errorIsTerminal = errorIsTerminal
    self.outputIsTerminal = outputIsTerminal
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

  /// Writes `bytes` to standard output as they are (a PDF, a PNG).
  public func write(bytes: [UInt8]) {
    if let writeOutputBytes {
      writeOutputBytes(bytes)
    } else {
      writeOutput(String(decoding: bytes, as: UTF8.self))
    }
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

  /// The rest of standard input, whole, when it holds at most `limit`
  /// bytes; ``InputBytes/tooLong`` (without keeping what was read) past it.
  /// Lines already read are not read again.
  public func readAll(limit: Int) -> InputBytes {
    if let readAllInput { return readAllInput(limit) }
    var bytes: [UInt8] = []
    while let line = readInputLine() {
      bytes += Array(line.utf8) + [UInt8(ascii: "\n")]
      if bytes.count > limit { return .tooLong }
    }
    return .bytes(bytes)
  }

  /// The rest of standard input handed to `body` a block at a time, so
  /// that it need not be held whole (a long model is spooled to a file).
  /// Lines already read are not read again.
  /// - Returns: Why reading failed (as `strerror` says it), or `nil` when
  ///   the end was reached.
  /// - Throws: What `body` throws; reading stops.
  public func readAll(inBlocks body: ([UInt8]) throws -> Void) throws -> String? {
    if let readBlocksInput { return try readBlocksInput(body) }
    switch readAll(limit: .max) {
    case .bytes(let bytes):
      if !bytes.isEmpty { try body(bytes) }
      return nil
    case .tooLong: return "more than the memory can hold"
    case .failed(let reason): return reason
    }
  }

  /// The process's standard output, standard error and standard input.
  public static let standard = CommandIO(
    writeOutput: { text in StandardOutput.write(Array(text.utf8)) },
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
    writeOutputBytes: { bytes in StandardOutput.write(bytes) },
    readAll: { limit in
      // Nothing would ever come: a person is not going to type an image.
      guard isatty(STDIN_FILENO) == 0 else {
        return .failed("it is a terminal (pipe or redirect a file into it)")
      }
      return StandardInput.shared.withLock { $0.readAll(limit: limit) }
    },
    readBlocks: { body in
      guard isatty(STDIN_FILENO) == 0 else {
        return "it is a terminal (pipe or redirect a file into it)"
      }
      return try StandardInput.shared.withLock { try $0.readBlocks(body) }
    },
    flush: { StandardOutput.flush() },
    outputFailure: {
      StandardOutput.flush()
      return StandardOutput.failure()
    },
    errorIsTerminal: isatty(STDERR_FILENO) != 0,
    outputIsTerminal: isatty(STDOUT_FILENO) != 0
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

  static func write(_ bytes: [UInt8]) {
    state.withLock { state in
      state.buffer.append(contentsOf: bytes)
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

  /// The rest of the input (what is buffered, then up to the end), or
  /// ``InputBytes/tooLong`` as soon as it passes `limit` (the bytes read
  /// are dropped and the rest is not read).
  mutating func readAll(limit: Int) -> InputBytes {
    var bytes = Array(buffer[start...])
    buffer.removeAll()
    start = 0
    guard !atEnd else { return bytes.count > limit ? .tooLong : .bytes(bytes) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= limit {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes += chunk[..<n]
      } else if n == 0 {
        atEnd = true
        return .bytes(bytes)
      } else if errno != EINTR {
        let code = errno
        atEnd = true
        return .failed(String(cString: strerror(code)))
      }
    }
    return .tooLong
  }

  /// The rest of the input (what is buffered, then up to the end) handed
  /// to `body` a block at a time; why reading failed, or `nil` at the end.
  mutating func readBlocks(_ body: ([UInt8]) throws -> Void) throws -> String? {
    let buffered = Array(buffer[start...])
    buffer.removeAll()
    start = 0
    if !buffered.isEmpty { try body(buffered) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while !atEnd {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n > 0 {
        try body(Array(chunk[..<n]))
      } else if n == 0 {
        atEnd = true
      } else if errno != EINTR {
        let code = errno
        atEnd = true
        return String(cString: strerror(code))
      }
    }
    return nil
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
/// error, and serves standard input from a list of lines (read whole, they
/// are joined by newlines: `CapturedIO(inputBytes: [png])` is a PNG on
/// standard input).
///
/// ```swift
/// let captured = CapturedIO(input: ["line 1"])
/// let code = CommandLineTool.run(ScanText.self, arguments: ["ocr", "--help"], io: captured.io)
/// #expect(captured.stdout.hasPrefix("OVERVIEW:"))
/// ```
public final class CapturedIO: Sendable {
  private struct State {
    var stdout: [UInt8] = []
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

  /// Everything written to standard output so far, as UTF-8 text.
  public var stdout: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }

  /// Everything written to standard output so far, as bytes.
  public var stdoutBytes: [UInt8] { state.withLock { $0.stdout } }

  /// Everything written to standard error so far.
  public var stderr: String { state.withLock { $0.stderr } }

  /// The `CommandIO` that writes into this capture.
  public var io: CommandIO {
    CommandIO(
      writeOutput: { [self] text in state.withLock { $0.stdout += Array(text.utf8) } },
      writeError: { [self] text in state.withLock { $0.stderr += text } },
      readLine: { [self] in
        state.withLock { $0.input.popFirst() }.map { String(decoding: $0, as: UTF8.self) }
      },
      readLimitedLine: { [self] limit in
        guard let line = state.withLock({ $0.input.popFirst() }) else { return nil }
        if line.count > limit { return .tooLong }
        return String(validating: line, as: UTF8.self).map { .text($0) } ?? .invalidUTF8
      },
      writeOutputBytes: { [self] bytes in state.withLock { $0.stdout += bytes } },
      readAll: { [self] limit in
        // The lines left, joined by newlines: one item is given as it is.
        let lines = state.withLock { state in
          defer { state.input = [] }
          return state.input
        }
        let bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        return bytes.count > limit ? .tooLong : .bytes(bytes)
      }
    )
  }
}
