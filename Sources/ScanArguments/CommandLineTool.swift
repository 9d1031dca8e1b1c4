#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Parses a command line against a tree of `ScanCommand`s and runs the
/// selected command.
///
/// In the executable:
///
/// ```swift
/// exit(CommandLineTool.run(ScanText.self, arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Exit codes: the command's own code; 0 for help and `--version`;
/// 64 (`EX_USAGE`) for usage errors; 1 for other errors thrown by a command,
/// and when standard output could not be written.
public enum CommandLineTool {
  /// Exit code for usage errors (`EX_USAGE`).
  public static let usageErrorCode: Int32 = 64

  /// Runs `root` with `arguments` (without the program name).
  ///
  /// When standard output cannot be written (a full disk, `/dev/full`),
  /// the run ends with `Error: cannot write to standard output (reason)`
  /// and exit code 1, whatever the command returned.
  public static func run(
    _ root: any ScanCommand.Type, arguments: [String], io: CommandIO = .standard
  ) -> Int32 {
    let code = runCommand(root, arguments: arguments, io: io)
    if let reason = io.finishOutput() {
      io.printError("Error: cannot write to standard output (\(reason))")
      return 1
    }
    return code
  }

  private static func runCommand(
    _ root: any ScanCommand.Type, arguments: [String], io: CommandIO
  ) -> Int32 {
    let rootConfiguration = root.configuration
    var stack: [CommandConfiguration] = [rootConfiguration]
    var types: [any ScanCommand.Type] = [root]
    var levels: [CommandLineParser.Level] = []
    var firstError: (error: UsageError, depth: Int)?
    var tokens = arguments[...]

    while let configuration = stack.last {
      let hasSubcommands = !configuration.subcommands.isEmpty
      let level = CommandLineParser.parseLevel(
        tokens, specs: configuration.specs, stopAtSubcommand: hasSubcommands,
        acceptsVersion: stack.count == 1 && configuration.version != nil)
      levels.append(level)
      if firstError == nil, let error = level.error {
        firstError = (error, stack.count)
      }
      guard hasSubcommands, let name = level.remainder.first else { break }

      let subcommand = configuration.subcommands.first { $0.configuration.commandName == name }
      if subcommand == nil, stack.count == 1, name == "help" {
        return runHelpCommand(root, names: Array(level.remainder.dropFirst()), io: io)
      }
      guard let subcommand else {
        if firstError == nil {
          firstError = (.unknownSubcommand(name), stack.count)
        }
        break
      }
      stack.append(subcommand.configuration)
      types.append(subcommand)
      tokens = level.remainder.dropFirst()
    }

    // `-h`/`--help` anywhere (before `--`) wins over errors; it shows the
    // help of the command whose arguments it is among.
    if let depth = levels.firstIndex(where: \.sawHelp) {
      io.print(HelpFormatter.help(Array(stack.prefix(depth + 1))))
      return 0
    }
    if levels.first?.sawVersion == true, let version = rootConfiguration.version {
      io.print(([version] + (rootConfiguration.versionDetails?() ?? [])).joined(separator: "\n"))
      return 0
    }
    if let (error, depth) = firstError {
      let text = HelpFormatter.usageError(
        error, stack: Array(stack.prefix(depth)), showFullHelp: arguments.isEmpty)
      io.printError(text)
      return usageErrorCode
    }

    // Only the selected command's own arguments reach it (a command with
    // subcommands declares none that its subcommands read).
    guard let type = types.last, let level = levels.last, let configuration = stack.last else {
      return 1
    }
    let parsed = ParsedArguments(
      commandPath: stack.map(\.commandName), specs: configuration.specs, values: level.values,
      flags: level.flags)

    do {
      let command = try type.init(parsed)
      return try command.run(io)
    } catch {
      return report(error, stack: stack, io: io)
    }
  }

  /// The help screen of `root`, or of the subcommand reached by `names`
  /// (unknown names are ignored), without the final newline.
  public static func helpText(_ root: any ScanCommand.Type, subcommands names: [String] = [])
    -> String
  {
    HelpFormatter.help(resolve(root, names: names).stack)
  }

  /// The text printed after `Error: ` for an error thrown by a command:
  /// the `message` of a `CommandFailure`, `ValidationError` or `UsageError`,
  /// else `LocalizedError.errorDescription`, else `String(describing:)`.
  public static func message(for error: any Error) -> String {
    switch error {
    case let failure as any CommandFailure:
      return failure.message
    case let validation as ValidationError:
      return validation.message
    case let usage as UsageError:
      return usage.message
    case let localized as any LocalizedError:
      return localized.errorDescription ?? String(describing: error)
    default:
      return String(describing: error)
    }
  }

  /// Declaration mistakes in the command tree, one line each (empty when the
  /// tree is sound): duplicate or reserved names, positionals that can never
  /// be filled, duplicate subcommands. Meant for a unit test:
  /// `#expect(CommandLineTool.lint(ScanText.self) == [])`.
  public static func lint(_ root: any ScanCommand.Type) -> [String] {
    lint(root, path: [], isRoot: true)
  }

  private static func lint(_ command: any ScanCommand.Type, path: [String], isRoot: Bool)
    -> [String]
  {
    let configuration = command.configuration
    let path = path + [configuration.commandName]
    let prefix = path.joined(separator: " ") + ": "
    let hasSubcommands = !configuration.subcommands.isEmpty
    var problems: [String] = []
    var reserved: Set<String> = ["--help"]
    if isRoot && configuration.version != nil { reserved.insert("--version") }
    var seenIDs: Set<String> = []
    var seenShorts: Set<Character> = ["h"]
    var variadic: String?

    for spec in configuration.specs {
      if hasSubcommands {
        // Only the selected command's own arguments reach it.
        let what = spec.kind == .positional ? "positional" : "option"
        problems.append(prefix + "\(what) '\(spec.id)' is ignored by a command with subcommands")
      } else if spec.kind == .positional {
        if let variadic {
          problems.append(
            prefix + "'\(spec.id)' follows variadic '\(variadic)' and never gets a value")
        } else if spec.isRepeating {
          variadic = spec.id
        }
      }
      if reserved.contains(spec.id) && spec.kind != .positional {
        problems.append(prefix + "'\(spec.id)' is reserved")
      } else if !seenIDs.insert(spec.id).inserted {
        problems.append(prefix + "'\(spec.id)' is declared more than once")
      }
      if let short = spec.shortName, !seenShorts.insert(short).inserted {
        problems.append(
          prefix + "'-\(short)' is " + (short == "h" ? "reserved" : "declared more than once"))
      }
    }

    var seenNames: Set<String> = []
    var unique: [any ScanCommand.Type] = []
    for subcommand in configuration.subcommands {
      let name = subcommand.configuration.commandName
      if seenNames.insert(name).inserted {
        unique.append(subcommand)
      } else {
        problems.append(prefix + "subcommand '\(name)' is declared more than once")
      }
    }
    for subcommand in unique {
      problems += lint(subcommand, path: path, isRoot: false)
    }
    return problems
  }

  /// `scantext help [<subcommand> ...]`.
  private static func runHelpCommand(_ root: any ScanCommand.Type, names: [String], io: CommandIO)
    -> Int32
  {
    let wanted = names.filter { !CommandLineParser.helpNames.contains($0) }
    let (stack, unknown) = resolve(root, names: wanted)
    if let unknown {
      io.printError(
        HelpFormatter.usageError(.unknownSubcommand(unknown), stack: [root.configuration]))
      return usageErrorCode
    }
    io.print(HelpFormatter.help(stack))
    return 0
  }

  private static func resolve(
    _ root: any ScanCommand.Type, names: [String]
  ) -> (stack: [CommandConfiguration], unknown: String?) {
    var stack = [root.configuration]
    for name in names {
      guard let current = stack.last,
        let next = current.subcommands.first(where: { $0.configuration.commandName == name })
      else { return (stack, name) }
      stack.append(next.configuration)
    }
    return (stack, nil)
  }

  private static func report(_ error: any Error, stack: [CommandConfiguration], io: CommandIO)
    -> Int32
  {
    switch error {
    case CleanExit.helpRequest:
      io.print(HelpFormatter.help(stack))
      return 0
    case let usage as UsageError:
      io.printError(HelpFormatter.usageError(usage, stack: stack))
      return usageErrorCode
    case let validation as ValidationError:
      io.printError(HelpFormatter.usageError(UsageError(validation.message), stack: stack))
      return usageErrorCode
    case let failure as any CommandFailure:
      if !failure.message.isEmpty { io.printErrorMessage(failure.message) }
      return 1
    default:
      let message = CommandLineTool.message(for: error)
      if !message.isEmpty { io.printErrorMessage(message) }
      return 1
    }
  }
}
