/// Splits and matches the tokens of one command level.
enum CommandLineParser {
  static let helpNames: Set<String> = ["-h", "--help"]
  static let versionName = "--version"

  struct Level {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The first usage error found at this level.
    var error: UsageError?
    /// With `stopAtSubcommand`, the tokens from the subcommand name on.
    var remainder: ArraySlice<String> = []
    var sawHelp = false
    var sawVersion = false

    mutating func record(_ error: UsageError) {
      if self.error == nil { self.error = error }
    }
  }

  /// Whether `token` is a value rather than an option: it does not start
  /// with `-`, is `-` alone, or is a negative number (`-5`, `-5,3`, `-.5`).
  static func isValue(_ token: String) -> Bool {
    guard token.first == "-" else { return true }
    let rest = token.dropFirst()
    guard let next = rest.first else { return true }
    if next.isASCII && next.isNumber { return true }
    if next == ".", let after = rest.dropFirst().first, after.isASCII && after.isNumber {
      return true
    }
    return false
  }

  /// Parses the tokens of one command.
  ///
  /// - Parameters:
  ///   - stopAtSubcommand: the command has subcommands, so the first value
  ///     token ends this level and starts `remainder`.
  ///   - acceptsVersion: `--version` is recognised (root command with a version).
  static func parseLevel(
    _ tokens: ArraySlice<String>, specs: [ArgumentSpec], stopAtSubcommand: Bool,
    acceptsVersion: Bool
  ) -> Level {
    var level = Level()
    var index = tokens.startIndex
    var terminated = false

    while index < tokens.endIndex {
      let token = tokens[index]
      index += 1

      if terminated || isValue(token) {
        if stopAtSubcommand {
          level.remainder = tokens[(index - 1)...]
          break
        }
        level.positionals.append(token)
        continue
      }
      if token == "--" {
        terminated = true
        continue
      }
      if helpNames.contains(token) {
        level.sawHelp = true
        continue
      }
      if acceptsVersion && token == versionName {
        level.sawVersion = true
        continue
      }

      let (name, inlineValue) = splitName(token)
      guard let spec = match(name, in: specs) else {
        level.record(.unknownOption(name, candidates: specs))
        continue
      }

      switch spec.kind {
      case .positional:
        continue  // not reachable: positionals are never matched by name
      case .flag:
        if let inlineValue {
          level.record(.flagWithValue(name, value: inlineValue))
        } else {
          level.flags.insert(spec.id)
        }
      case .option:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < tokens.endIndex, tokens[index] != "--", isValue(tokens[index]) {
          value = tokens[index]
          index += 1
        } else {
          level.record(.missingValue(name, spec: spec))
          continue
        }
        if level.values[spec.id] != nil {
          level.record(.duplicateOption(name))
          continue
        }
        if let error = validate(value, spec: spec, name: name) {
          level.record(error)
        }
        level.values[spec.id, default: []].append(value)
      }
    }

    let extra = stopAtSubcommand ? [] : assignPositionals(&level, specs: specs)
    // Like swift-argument-parser: missing arguments before extra ones.
    for spec in specs where spec.isRequired && (level.values[spec.id] ?? []).isEmpty {
      if spec.kind == .positional && stopAtSubcommand { continue }
      level.record(.missingArgument(spec))
      break
    }
    if !extra.isEmpty {
      level.record(.unexpectedArguments(extra))
    }
    return level
  }

  /// Fills positional specs in declaration order; returns the values left over.
  private static func assignPositionals(_ level: inout Level, specs: [ArgumentSpec]) -> [String] {
    var remaining = level.positionals[...]
    for spec in specs where spec.kind == .positional {
      if spec.isRepeating {
        for value in remaining {
          if let error = validate(value, spec: spec, name: nil) { level.record(error) }
        }
        if !remaining.isEmpty { level.values[spec.id] = Array(remaining) }
        remaining = []
      } else if let value = remaining.popFirst() {
        if let error = validate(value, spec: spec, name: nil) { level.record(error) }
        level.values[spec.id] = [value]
      }
    }
    return Array(remaining)
  }

  private static func validate(_ value: String, spec: ArgumentSpec, name: String?) -> UsageError? {
    do {
      try spec.validate(value)
      return nil
    } catch let failure as ValueConversionFailure {
      return .invalidValue(value, spec: spec, name: name, reason: failure.reason)
    } catch {
      return .invalidValue(
        value, spec: spec, name: name, reason: CommandLineTool.message(for: error))
    }
  }

  /// `--name=value` → (`--name`, `value`); `-o=value` → (`-o`, `value`).
  private static func splitName(_ token: String) -> (String, String?) {
    guard let equals = token.firstIndex(of: "=") else { return (token, nil) }
    return (String(token[..<equals]), String(token[token.index(after: equals)...]))
  }

  private static func match(_ name: String, in specs: [ArgumentSpec]) -> ArgumentSpec? {
    if name.hasPrefix("--") {
      return specs.first { $0.kind != .positional && $0.id == name }
    }
    guard name.count == 2, let short = name.last else { return nil }
    return specs.first { $0.kind != .positional && $0.shortName == short }
  }
}
