#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a command reads and writes: standard streams in the executable,
/// a `CapturedIO` buffer in tests.
public struct CommandIO: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeErrorOutput: @Sendable (String) -> Void
    private let readInputLine: @Sendable () -> String?

    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?
    ) {
        self.writeOutput = writeOutput
        self.writeErrorOutput = writeError
        self.readInputLine = readLine
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
        readLine: { Swift.readLine(strippingNewline: true) }
    )
}

private func writeToStandardError(_ text: String) {
    // Keep stdout and stderr in order when both go to the same terminal or file.
    fflush(nil)
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
