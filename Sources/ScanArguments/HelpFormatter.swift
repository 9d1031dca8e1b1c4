/// Renders usage lines, help screens and usage-error text with
/// swift-argument-parser's layout: an 80-column screen, rows indented by 2,
/// help text starting at column 26 (on the next line when the label is longer).
enum HelpFormatter {
  static let screenWidth = 80
  static let rowIndent = 2
  static let labelColumn = 26
  /// Above this many arguments the usage line shows `[<options>]` instead.
  static let maxUsageArguments = 12

  /// The command stack from the root: `[scantext, ocr]`.
  typealias Stack = [CommandConfiguration]

  static func toolName(_ stack: Stack) -> String {
    stack.map(\.commandName).joined(separator: " ")
  }

  /// `scantext ocr <images> ... [--output <output>]`.
  static func usage(_ stack: Stack) -> String {
    guard let command = stack.last else { return "" }
    let name = toolName(stack)
    var specs = command.specs
    if !command.subcommands.isEmpty {
      // A command with subcommands takes no positionals of its own.
      specs.removeAll { $0.kind == .positional }
    }
    var usage: String
    switch specs.count {
    case 0:
      usage = name
    case let count where count > maxUsageArguments:
      let kept = specs.filter { $0.kind == .positional || $0.isRequired }
      if !kept.isEmpty && kept.count <= maxUsageArguments {
        usage = "\(name) [<options>] " + kept.map(\.usageSynopsis).joined(separator: " ")
      } else {
        usage = "\(name) <options>"
      }
    default:
      usage = "\(name) " + specs.map(\.usageSynopsis).joined(separator: " ")
    }
    if !command.subcommands.isEmpty {
      usage += " <subcommand>"
    }
    return usage
  }

  /// The full help screen, without the final newline that `print` adds.
  static func help(_ stack: Stack) -> String {
    guard let command = stack.last else { return "" }

    var abstract = command.abstract
    if !command.discussion.isEmpty {
      if !abstract.isEmpty { abstract += "\n" }
      abstract += "\n" + command.discussion
    }
    let overview =
      abstract.isEmpty ? "" : wrap("OVERVIEW: " + abstract, width: screenWidth) + "\n\n"

    var specs = command.specs
    if !command.subcommands.isEmpty {
      specs.removeAll { $0.kind == .positional }
    }
    let argumentRows = specs.filter { $0.kind == .positional }.map {
      row($0.helpLabel, description($0))
    }
    var optionRows = specs.filter { $0.kind != .positional }.map {
      row($0.helpLabel, description($0))
    }
    if stack.count == 1, command.version != nil {
      optionRows.append(row("--version", "Show the version."))
    }
    optionRows.append(row("-h, --help", "Show help information."))
    let subcommandRows = command.subcommands.map { subcommand in
      let configuration = subcommand.configuration
      return row(configuration.commandName, configuration.abstract)
    }

    let sections = [
      section("ARGUMENTS", argumentRows),
      section("OPTIONS", optionRows),
      section("SUBCOMMANDS", subcommandRows),
    ].filter { !$0.isEmpty }.joined(separator: "\n")

    var seeHelp = ""
    if !subcommandRows.isEmpty {
      var names = stack.map(\.commandName)
      names.insert("help", at: 1)
      seeHelp = "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help."
    }
    return overview + "USAGE: " + usage(stack) + "\n\n" + sections + seeHelp
  }

  /// The text of a usage error, without the final newline that `print` adds.
  /// With `showFullHelp` (no arguments were given at all), the usage line is
  /// replaced by the full help, as swift-argument-parser does.
  static func usageError(_ error: UsageError, stack: Stack, showFullHelp: Bool = false) -> String {
    // Line by line: a usage error may list choices on lines of their own
    // (a path in it escapes its own newlines).
    let message = error.message.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0).escapingControlCharacters }.joined(separator: "\n")
    var text = "Error: \(message)\n"
    if let helpLine = error.helpLine {
      text += "Help:  \(helpLine)\n"
    }
    if showFullHelp, let root = stack.first {
      return text + "\n" + help([root])
    }
    text += "Usage: \(usage(stack))\n"
    text += "  See '\(toolName(stack)) --help' for more information."
    return text
  }

  // MARK: Rows

  private static func section(_ title: String, _ rows: [String]) -> String {
    rows.isEmpty ? "" : "\(title):\n" + rows.joined()
  }

  /// One help row, ending with a newline.
  static func row(_ label: String, _ abstract: String) -> String {
    let paddedLabel = String(repeating: " ", count: rowIndent) + label
    guard !abstract.isEmpty else { return paddedLabel + "\n" }
    let wrapped = wrap(abstract, width: screenWidth, indent: labelColumn)
    if paddedLabel.count < labelColumn {
      return paddedLabel + String(wrapped.dropFirst(paddedLabel.count)) + "\n"
    }
    return paddedLabel + "\n" + wrapped + "\n"
  }

  /// `Output format. (values: json, text; default: json)`.
  static func description(_ spec: ArgumentSpec) -> String {
    let values = spec.allValues.filter { !$0.isEmpty }
    let defaultValue = spec.defaultDescription ?? ""
    let suffix: String
    switch (values.isEmpty, defaultValue.isEmpty) {
    case (true, true): suffix = ""
    case (false, true): suffix = "(values: \(values.joined(separator: ", ")))"
    case (true, false): suffix = "(default: \(defaultValue))"
    case (false, false):
      suffix = "(values: \(values.joined(separator: ", ")); default: \(defaultValue))"
    }
    return [spec.abstract, suffix].filter { !$0.isEmpty }.joined(separator: " ")
  }

  // MARK: Wrapping

  /// Wraps `text` to `width` columns, indenting every non-empty line by
  /// `indent` (the first one included). Breaks at the last space that fits;
  /// a word longer than a line is kept whole; existing line breaks are kept.
  static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
    let columns = width - indent
    guard columns > 0 else { return text }

    var lines: [Substring] = []
    var rest = text[...]
    while true {
      let chunk = rest.prefix(columns)
      if let lineBreak = chunk.lastIndex(of: "\n") {
        lines.append(
          contentsOf: rest[..<lineBreak].split(separator: "\n", omittingEmptySubsequences: false))
        rest = rest[rest.index(after: lineBreak)...]
      } else if chunk.endIndex == rest.endIndex {
        lines.append(rest)
        break
      } else if let space = chunk.lastIndex(of: " ") {
        lines.append(rest[..<space])
        rest = rest[rest.index(after: space)...]
      } else if let space = rest.firstIndex(of: " ") {
        lines.append(rest[..<space])
        rest = rest[rest.index(after: space)...]
      } else {
        lines.append(rest)
        break
      }
    }
    let padding = String(repeating: " ", count: indent)
    return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
  }

  /// Levenshtein distance, used for "Did you mean ...?" suggestions.
  static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs), b = Array(rhs)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        if a[i - 1] == b[j - 1] {
          current[j] = previous[j - 1]
        } else {
          current[j] = min(previous[j], current[j - 1], previous[j - 1]) + 1
        }
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
