import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command reads and writes: standard streams in the executable,
/// a `CapturedIO` buffer in tests.
public struct CommandIO: Sendable {
  private let writeOutput: @Sendable (String) -> Void
  private let writeErrorOutput: @Sendable (String) -> Void
  private let readInputLine: @Sendable () -> String?
  private let flushOutput: @Sendable () -> Void
  /// Whether standard error is a terminal (progress is shown only there).
  public let errorIsTerminal: Bool

  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?,
    flush: @escaping @Sendable () -> Void = {},
    errorIsTerminal: Bool = false
  ) {
    self.writeOutput = writeOutput
    self.writeErrorOutput = writeError
    self.readInputLine = readLine
    self.flushOutput = flush
    self.errorIsTerminal = errorIsTerminal
  }

  /// Sends buffered standard output on its way (the query protocol answers
  /// one line at a time).
  public func flush() {
    flushOutput()
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

  /// The next line of standard input without its newline, or `nil` at the end.
  public func readLine() -> String? {
    readInputLine()
  }

  /// The process's standard output, standard error and standard input.
  public static let standard = CommandIO(
    writeOutput: { text in Swift.print(text, terminator: "") },
    writeError: { text in writeToStandardError(text) },
    readLine: { Swift.readLine(strippingNewline: true) },
    flush: { fflush(nil) },
    errorIsTerminal: isatty(StandardStreams.errorDescriptor) != 0
  )
}

/// Where the tool's own messages go. Tesseract, Leptonica and libpng write
/// their chatter straight to file descriptor 2; the executable moves that
/// descriptor to /dev/null (unless `--verbose`) after copying the real
/// standard error to a new descriptor, which is recorded here.
public enum StandardStreams {
  private static let descriptor = Atomic<Int32>(STDERR_FILENO)

  /// The descriptor the tool writes its own error messages to.
  public static var errorDescriptor: Int32 { descriptor.load(ordering: .relaxed) }

  /// Keeps the real standard error for the tool's messages and, unless
  /// `verbose`, sends what C libraries write to descriptor 2 to /dev/null.
  public static func silenceLibraries(verbose: Bool) {
    guard !verbose else { return }
    let saved = dup(STDERR_FILENO)
    guard saved >= 0 else { return }
    let null = open("/dev/null", O_WRONLY)
    guard null >= 0 else {
      close(saved)
      return
    }
    _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
    descriptor.store(saved, ordering: .relaxed)
    dup2(null, STDERR_FILENO)
    close(null)
  }
}

private func writeToStandardError(_ text: String) {
  // Keep stdout and stderr in order when both go to the same terminal or file.
  fflush(nil)
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { buffer in
      write(StandardStreams.errorDescriptor, buffer.baseAddress, buffer.count)
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
    var input: ArraySlice<String>
  }

  private let state: Mutex<State>

  public init(input: [String] = []) {
    state = Mutex(State(input: input[...]))
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
      readLine: { [self] in state.withLock { $0.input.popFirst() } }
    )
  }
}
