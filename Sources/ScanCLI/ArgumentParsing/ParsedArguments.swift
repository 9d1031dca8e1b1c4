/// The arguments given to one command, already checked against its
/// declaration: every option value and positional has been converted once
/// during parsing, so lookups only fail for keys the command did not declare.
///
/// Typed lookup (preferred): `try arguments[Self.lang]`, `arguments[Self.verbose]`.
/// String lookup: `string("--lang")`, `int("--psm")`, `flag("--verbose")`,
/// `value("--point", as: Point.parse)`, `positionals`.
///
/// A key declared by a parent command (e.g. a root option given before the
/// subcommand name) is found through `parent` automatically.
public struct ParsedArguments: Sendable {
  /// The command names from the root: `["scantext", "ocr"]`.
  public let commandPath: [String]
  /// Every positional value, in order (including those after `--`).
  public let positionals: [String]

  let specs: [ArgumentSpec]
  /// Raw values by spec id (`--lang`, `<images>`), in command-line order.
  let values: [String: [String]]
  /// Occurrence counts of flags by spec id.
  let flagCounts: [String: Int]
  private let parentStorage: [ParsedArguments]

  /// The parsed arguments of the parent command, if any.
  public var parent: ParsedArguments? { parentStorage.first }

  init(
    commandPath: [String], specs: [ArgumentSpec], values: [String: [String]],
    flagCounts: [String: Int], positionals: [String], parent: ParsedArguments?
  ) {
    self.commandPath = commandPath
    self.specs = specs
    self.values = values
    self.flagCounts = flagCounts
    self.positionals = positionals
    self.parentStorage = parent.map { [$0] } ?? []
  }

  /// Builds arguments for a command directly, as if `arguments` had been
  /// typed after its name (useful in tests of a single command).
  public static func parse(_ arguments: [String], for command: any ScanCommand.Type) throws
    -> ParsedArguments
  {
    let configuration = command.configuration
    let level = CommandLineParser.parseLevel(
      arguments[...], specs: configuration.specs, stopAtSubcommand: false, acceptsVersion: false)
    if let error = level.error { throw error }
    return ParsedArguments(
      commandPath: [configuration.commandName], specs: configuration.specs, values: level.values,
      flagCounts: level.flagCounts, positionals: level.positionals, parent: nil)
  }

  // MARK: Typed lookup

  public subscript<Value>(option: Option<Value>) -> Value {
    get throws {
      let owner = try owner(of: option.spec)
      return try option.resolve(owner.values[option.spec.id] ?? [])
    }
  }

  public subscript<Value>(argument: Argument<Value>) -> Value {
    get throws {
      let owner = try owner(of: argument.spec)
      return try argument.resolve(owner.values[argument.spec.id] ?? [])
    }
  }

  /// Whether the flag was given (at this level or a parent's).
  public subscript(flag: Flag) -> Bool {
    count(of: flag) > 0
  }

  /// How many times the flag was given.
  public func count(of flag: Flag) -> Int {
    guard let owner = try? owner(of: flag.spec) else { return 0 }
    return owner.flagCounts[flag.spec.id] ?? 0
  }

  /// Whether the argument was given explicitly (as opposed to defaulted).
  public func contains(_ key: any ArgumentKey) -> Bool {
    guard let owner = try? owner(of: key.spec) else { return false }
    switch key.spec.kind {
    case .flag: return (owner.flagCounts[key.spec.id] ?? 0) > 0
    case .option, .positional: return !(owner.values[key.spec.id] ?? []).isEmpty
    }
  }

  // MARK: String lookup

  /// The last value of an option or positional, by name: `"--lang"`, `"-o"`,
  /// `"<image>"`, or a bare `"lang"` (option first, then positional).
  /// Returns `nil` when it was not given; declared defaults are not applied.
  public func string(_ name: String) -> String? {
    strings(name).last
  }

  /// All values of a repeatable option or variadic positional, by name.
  public func strings(_ name: String) -> [String] {
    guard let (owner, spec) = find(name) else { return [] }
    return owner.values[spec.id] ?? []
  }

  /// Whether a flag was given, by name: `"--verbose"`, `"-v"` or `"verbose"`.
  public func flag(_ name: String) -> Bool {
    guard let (owner, spec) = find(name), spec.kind == .flag else { return false }
    return (owner.flagCounts[spec.id] ?? 0) > 0
  }

  /// The value converted to `Int`, or `nil` when not given; a non-integer
  /// throws "The value 'abc' is invalid for '--psm <psm>'".
  public func int(_ name: String) throws -> Int? {
    try value(name) { raw in
      guard let number = Int(raw) else { throw ValueConversionFailure(reason: nil) }
      return number
    }
  }

  /// The value converted to `Double`, or `nil` when not given.
  public func double(_ name: String) throws -> Double? {
    try value(name) { raw in
      guard let number = Double(raw) else { throw ValueConversionFailure(reason: nil) }
      return number
    }
  }

  /// The value converted by `parse`, or `nil` when not given. An error thrown
  /// by `parse` becomes a usage error:
  /// "The value 'x' is invalid for '--point <point>': <reason>".
  public func value<T>(_ name: String, as parse: (String) throws -> T) throws -> T? {
    guard let (_, spec) = find(name) else { return nil }
    guard let raw = string(name) else { return nil }
    do {
      return try parse(raw)
    } catch let failure as ValueConversionFailure {
      throw UsageError.invalidValue(raw, spec: spec, name: nil, reason: failure.reason)
    } catch {
      throw UsageError.invalidValue(
        raw, spec: spec, name: nil, reason: CommandLineTool.message(for: error))
    }
  }

  // MARK: Resolution

  private func owner(of spec: ArgumentSpec) throws -> ParsedArguments {
    var level: ParsedArguments? = self
    while let current = level {
      if current.specs.contains(where: { $0.id == spec.id && $0.kind == spec.kind }) {
        return current
      }
      level = current.parent
    }
    throw UndeclaredArgumentError(name: spec.id, command: commandPath.joined(separator: " "))
  }

  private func find(_ name: String) -> (ParsedArguments, ArgumentSpec)? {
    var level: ParsedArguments? = self
    while let current = level {
      if let spec = current.lookup(name) { return (current, spec) }
      level = current.parent
    }
    return nil
  }

  private func lookup(_ name: String) -> ArgumentSpec? {
    if name.hasPrefix("--") {
      return specs.first { $0.kind != .positional && $0.id == name }
    }
    if name.hasPrefix("<") && name.hasSuffix(">") {
      return specs.first { $0.kind == .positional && $0.id == name }
    }
    if name.hasPrefix("-") && name.count == 2 {
      return specs.first { $0.kind != .positional && $0.shortName == name.last }
    }
    return specs.first { $0.kind != .positional && $0.longName == name }
      ?? specs.first { $0.kind == .positional && $0.valueName == name }
  }
}

/// A lookup of a key that the command (and its parents) did not declare:
/// a programming error, reported as a runtime error (exit 1).
struct UndeclaredArgumentError: CommandFailure {
  var name: String
  var command: String

  var message: String {
    "Internal error: '\(name)' is not declared by '\(command)'"
  }
}
