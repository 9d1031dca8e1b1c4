/// The static description of a command: its name, help text, arguments and
/// subcommands.
public struct CommandConfiguration: Sendable {
  /// The name typed on the command line (`"ocr"`); the root's is the tool name.
  public var commandName: String
  /// One line, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
  public var abstract: String
  /// Optional longer text shown after the abstract in this command's help.
  public var discussion: String
  /// The version printed by `--version`; honoured on the root command only.
  public var version: String?
  /// More lines `--version` prints after ``version``, made only when asked
  /// (the versions of the libraries loaded, which loading costs time).
  public var versionDetails: (@Sendable () -> [String])?
  /// The declared arguments, in the order they appear in usage and help.
  public var arguments: [any ArgumentKey]
  /// Subcommands, in the order they are listed in help. A command with
  /// subcommands treats its first positional value as a subcommand name.
  public var subcommands: [any ScanCommand.Type]

  public init(
    commandName: String,
    abstract: String = "",
    discussion: String = "",
    version: String? = nil,
    versionDetails: (@Sendable () -> [String])? = nil,
    arguments: [any ArgumentKey] = [],
    subcommands: [any ScanCommand.Type] = []
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.discussion = discussion
    self.version = version
    self.versionDetails = versionDetails
    self.arguments = arguments
    self.subcommands = subcommands
  }

  var specs: [ArgumentSpec] { arguments.map(\.spec) }
}

/// A command: declares its configuration, builds itself from parsed
/// arguments, and runs.
///
/// ```swift
/// struct Greet: ScanCommand {
///     static let name = Argument<String>("name", help: "Who to greet.")
///     static let times = Option<Int>("times", short: "n", help: "Repeat count.", default: 1)
///     static let configuration = CommandConfiguration(
///         commandName: "greet", abstract: "Say hello.", arguments: [name, times])
///
///     let who: String, times: Int
///     init(_ arguments: ParsedArguments) throws {
///         who = try arguments[Self.name]
///         times = try arguments[Self.times]
///     }
///     func run(_ io: CommandIO) throws -> Int32 {
///         for _ in 0..<times { io.print("Hello, \(who)!") }
///         return 0
///     }
/// }
/// ```
public protocol ScanCommand: SendableMetatype {
  static var configuration: CommandConfiguration { get }

  /// Reads typed values. Throwing `UsageError` or `ValidationError` here is a
  /// usage error (exit 64); any other error is a runtime error (exit 1).
  init(_ arguments: ParsedArguments) throws

  /// Runs the command and returns its exit code. The default implementation
  /// (for commands that only group subcommands) prints the command's help.
  func run(_ io: CommandIO) throws -> Int32
}

extension ScanCommand {
  public func run(_ io: CommandIO) throws -> Int32 {
    throw CleanExit.helpRequest
  }
}
