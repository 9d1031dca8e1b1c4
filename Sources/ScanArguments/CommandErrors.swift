/// A command-line usage error: printed as
///
/// ```
/// Error: <message>
/// Help:  <helpLine>          (only for some errors, as swift-argument-parser does)
/// Usage: <usage>
///   See '<command> --help' for more information.
/// ```
///
/// to standard error, with exit code 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The text after `Error: `.
  public let message: String
  /// The text after `Help:  `, if any.
  public let helpLine: String?

  public init(_ message: String, helpLine: String? = nil) {
    self.message = message
    self.helpLine = helpLine
  }

  public var description: String { message }
}

extension UsageError {
  private static func help(_ label: String, _ spec: ArgumentSpec) -> String? {
    spec.abstract.isEmpty ? nil : "\(label)  \(spec.abstract)"
  }

  static func unknownOption(_ name: String, candidates: [ArgumentSpec]) -> UsageError {
    // swift-argument-parser suggests the closest long name within an edit distance of 3.
    if name.hasPrefix("--") {
      let names = candidates.filter { $0.kind != .positional }.map(\.id)
      let scored = names.map { ($0, HelpFormatter.editDistance($0, name)) }.filter { $0.1 < 4 }
      if let best = scored.min(by: { $0.1 < $1.1 }) {
        return UsageError("Unknown option '\(name)'. Did you mean '\(best.0)'?")
      }
    }
    return UsageError("Unknown option '\(name)'")
  }

  static func missingValue(_ name: String, spec: ArgumentSpec) -> UsageError {
    let synopsis = spec.synopsis(named: name)
    return UsageError("Missing value for '\(synopsis)'", helpLine: help(synopsis, spec))
  }

  static func flagWithValue(_ name: String, value: String) -> UsageError {
    UsageError("The option '\(name)' does not take any value, but '\(value)' was specified.")
  }

  static func duplicateOption(_ name: String) -> UsageError {
    UsageError("The option '\(name)' cannot be repeated")
  }

  /// `name` is the option name as typed; `nil` uses the preferred name
  /// (and `<value>` alone for positionals).
  static func invalidValue(_ value: String, spec: ArgumentSpec, name: String?, reason: String?)
    -> UsageError
  {
    let label: String
    switch spec.kind {
    case .positional: label = "<\(spec.valueName)>"
    case .option, .flag: label = spec.synopsis(named: name ?? spec.id)
    }
    let suffix: String
    if let reason, !reason.isEmpty {
      suffix = ": " + reason
    } else if !spec.allValues.isEmpty {
      suffix = valueList(spec.allValues)
    } else {
      suffix = ""
    }
    return UsageError(
      "The value '\(value)' is invalid for '\(label)'\(suffix)", helpLine: help(label, spec))
  }

  private static func valueList(_ values: [String]) -> String {
    let quoted = values.map { "'\($0)'" }
    guard quoted.count < 6 else {
      let bullets = values.map { "  - \($0)" }.joined(separator: "\n")
      return ". Please provide one of the following:\n\(bullets)"
    }
    let list: String
    if quoted.count <= 2 {
      list = quoted.joined(separator: " and ")
    } else {
      list = quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }
    return ". Please provide one of \(list)."
  }

  static func missingArgument(_ spec: ArgumentSpec) -> UsageError {
    let label =
      spec.kind == .positional ? "<\(spec.valueName)>" : spec.synopsis(named: spec.id)
    return UsageError(
      "Missing expected argument '\(spec.bareSynopsis)'", helpLine: help(label, spec))
  }

  static func unexpectedArguments(_ values: [String]) -> UsageError {
    if values.count == 1, let value = values.first {
      return UsageError("Unexpected argument '\(value)'")
    }
    return UsageError("\(values.count) unexpected arguments: '\(values.joined(separator: "', '"))'")
  }

  static func unknownSubcommand(_ name: String) -> UsageError {
    UsageError("Unknown subcommand '\(name)'")
  }
}

/// Throw from a command's `init(_:)` or `run(_:)` to reject the arguments it
/// was given: printed like a usage error (`Error: <message>` plus the usage
/// line) with exit code 64, like swift-argument-parser's `ValidationError`.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// A runtime failure of a command. `CommandLineTool` prints
/// `Error: <message>` to standard error (nothing when the message is empty)
/// and exits with 1.
///
/// Any other error thrown by a command is printed the same way, using its
/// `LocalizedError.errorDescription` or `String(describing:)`.
public protocol CommandFailure: Error {
  var message: String { get }
}

/// Throw to end a command successfully (exit 0) with output.
public enum CleanExit: Error, Sendable {
  /// Print the current command's help to standard output.
  case helpRequest
}
