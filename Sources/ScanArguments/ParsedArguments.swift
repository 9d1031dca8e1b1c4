/// The arguments given to one command, already checked against its
/// declaration: every value has been validated during parsing.
///
/// Read them once, with the keys the command declared, into the command's
/// own typed properties: `try arguments[Self.lang]`, `arguments[Self.verbose]`.
public struct ParsedArguments: Sendable {
  /// The command names from the root: `["scantext", "ocr"]`.
  public let commandPath: [String]

  let specs: [ArgumentSpec]
  /// Raw values by spec id (`--lang`, `<images>`), in command-line order.
  let values: [String: [String]]
  /// The flags given, by spec id.
  let flags: Set<String>

  init(
    commandPath: [String], specs: [ArgumentSpec], values: [String: [String]], flags: Set<String>
  ) {
    self.commandPath = commandPath
    self.specs = specs
    self.values = values
    self.flags = flags
  }

  /// Parses `arguments` as if they had been typed after the command's name
  /// (for tests of a single command).
  static func parse(_ arguments: [String], for command: any ScanCommand.Type) throws
    -> ParsedArguments
  {
    let configuration = command.configuration
    let level = CommandLineParser.parseLevel(
      arguments[...], specs: configuration.specs, stopAtSubcommand: false, acceptsVersion: false)
    if let error = level.error { throw error }
    return ParsedArguments(
      commandPath: [configuration.commandName], specs: configuration.specs, values: level.values,
      flags: level.flags)
  }

  /// The option's value: the one given, else its default.
  /// - Throws: `UsageError` when a required option is missing.
  public subscript<Value>(option: Option<Value>) -> Value {
    get throws {
      try option.resolve(try declared(option.spec))
    }
  }

  /// The positional's value (all values of a variadic one).
  public subscript<Value>(argument: Argument<Value>) -> Value {
    get throws {
      try argument.resolve(try declared(argument.spec))
    }
  }

  /// Whether the flag was given.
  public subscript(flag: Flag) -> Bool {
    flags.contains(flag.spec.id)
  }

  /// Whether the option was given explicitly (as opposed to defaulted).
  public func contains<Value>(_ option: Option<Value>) -> Bool {
    !(values[option.spec.id] ?? []).isEmpty
  }

  /// The raw values of a key this command declared.
  private func declared(_ spec: ArgumentSpec) throws -> [String] {
    guard specs.contains(where: { $0.id == spec.id && $0.kind == spec.kind }) else {
      throw UndeclaredArgumentError(name: spec.id, command: commandPath.joined(separator: " "))
    }
    return values[spec.id] ?? []
  }
}

/// A lookup of a key that the command did not declare: a programming
/// error, reported as a runtime error (exit 1).
struct UndeclaredArgumentError: CommandFailure {
  var name: String
  var command: String

  var message: String {
    "Internal error: '\(name)' is not declared by '\(command)'"
  }
}
