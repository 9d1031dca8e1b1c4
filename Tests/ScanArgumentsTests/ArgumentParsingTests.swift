import Testing

@testable import ScanArguments

// MARK: - Example command tree

private enum ExampleFormat: String, CaseIterable, ArgumentValue {
  case json, text
}

private struct ExamplePoint: Equatable, Sendable, CustomStringConvertible {
  var x: Int
  var y: Int

  static func parse(_ text: String) throws -> ExamplePoint {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else {
      throw ValidationError("expected two integers 'x,y'")
    }
    return ExamplePoint(x: x, y: y)
  }

  var description: String { "\(x),\(y)" }
}

private struct ExampleFailure: CommandFailure {
  var message: String
}

private struct ExampleTool: ScanCommand {
  static let configuration = CommandConfiguration(
    commandName: "scantext",
    abstract: "Recognize and query text in scanned pages.",
    version: "1.2.3",
    subcommands: [ExampleOCR.self, ExampleHit.self, ExampleEcho.self, ExampleFail.self])

  init(_ arguments: ParsedArguments) throws {}
}

private struct ExampleOCR: ScanCommand {
  static let images = Argument<[String]>("images", help: "The image files to recognize.")
  static let output = Option<String?>(
    "output", short: "o", help: "Write to this file instead of standard output.")
  static let format = Option<ExampleFormat>("format", help: "Output format.", default: .json)
  static let lang = Option<String>("lang", help: "Recognition language.", default: "eng")
  static let verbose = Flag("verbose", short: "v", help: "Print progress to standard error.")
  static let configuration = CommandConfiguration(
    commandName: "ocr",
    abstract: "Recognize text in scanned pages and export hOCR-like JSON.",
    arguments: [images, output, format, lang, verbose])

  let images: [String]
  let output: String?
  let format: ExampleFormat
  let lang: String
  let verbose: Bool

  init(_ arguments: ParsedArguments) throws {
    images = try arguments[Self.images]
    output = try arguments[Self.output]
    format = try arguments[Self.format]
    lang = try arguments[Self.lang]
    verbose = arguments[Self.verbose]
  }

  func run(_ io: CommandIO) throws -> Int32 {
    io.print(
      "images=\(images) output=\(output ?? "-") format=\(format) lang=\(lang) verbose=\(verbose)")
    return 0
  }
}

private struct ExampleHit: ScanCommand {
  static let image = Argument<String>("image", help: "The page image.")
  static let point = Option<ExamplePoint>(
    "point", help: "The point to test, as x,y.", parse: ExamplePoint.parse)
  static let rect = Option<String?>("rect", help: "A rectangle x,y,w,h.")
  static let psm = Option<Int>("psm", help: "Page segmentation mode.", default: 3)
  static let configuration = CommandConfiguration(
    commandName: "hit",
    abstract: "Find the word at a point.",
    arguments: [image, point, rect, psm])

  let image: String
  let point: ExamplePoint
  let rect: String?
  let psm: Int

  init(_ arguments: ParsedArguments) throws {
    image = try arguments[Self.image]
    point = try arguments[Self.point]
    rect = try arguments[Self.rect]
    psm = try arguments[Self.psm]
  }

  func run(_ io: CommandIO) throws -> Int32 {
    io.print("image=\(image) point=\(point) rect=\(rect ?? "-") psm=\(psm)")
    return 0
  }
}

/// Prints its words, then copies standard input.
private struct ExampleEcho: ScanCommand {
  static let prefix = Option<String?>("prefix", help: "Prefix each line.")
  static let count = Option<Int?>("count", help: "How many lines.")
  static let words = Argument<[String]>("words", help: "Words to print first.")
  static let configuration = CommandConfiguration(
    commandName: "echo", abstract: "Copy standard input to standard output.",
    arguments: [prefix, count, words])

  let prefix: String
  let count: Int?
  let words: [String]

  init(_ arguments: ParsedArguments) throws {
    prefix = try arguments[Self.prefix] ?? ""
    count = try arguments[Self.count]
    words = try arguments[Self.words]
  }

  func run(_ io: CommandIO) throws -> Int32 {
    for word in words { io.print(prefix + word) }
    var printed = 0
    while count.map({ printed < $0 }) ?? true, case .text(let line) = io.readLine(limit: 100) {
      io.print(prefix + line)
      printed += 1
    }
    return 0
  }
}

private struct ExampleFail: ScanCommand {
  static let mode = Argument<String>("mode", help: "How to fail.")
  static let configuration = CommandConfiguration(
    commandName: "fail", abstract: "Fail in various ways.", arguments: [mode])

  let mode: String
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws {
    self.arguments = arguments
    mode = try arguments[Self.mode]
    if mode == "init" { throw ValidationError("Mode 'init' is rejected.") }
  }

  func run(_ io: CommandIO) throws -> Int32 {
    switch mode {
    case "failure": throw ExampleFailure(message: "The page could not be read.")
    case "validation": throw ValidationError("Bad combination.")
    case "undeclared": _ = try arguments[ExampleOCR.lang]; return 0
    case "other": throw OtherError()
    case "code": return 7
    default: throw CleanExit.helpRequest
    }
  }

  struct OtherError: Error, CustomStringConvertible {
    var description: String { "something else went wrong" }
  }
}

private func run(_ arguments: [String], input: [String] = []) -> (
  code: Int32, out: String, err: String
) {
  let captured = CapturedIO(input: input)
  let code = CommandLineTool.run(ExampleTool.self, arguments: arguments, io: captured.io)
  return (code, captured.stdout, captured.stderr)
}

private let ocrUsage =
  "Usage: scantext ocr <images> ... [--output <output>] [--format <format>] [--lang <lang>] [--verbose]\n"
  + "  See 'scantext ocr --help' for more information.\n"
private let hitUsage =
  "Usage: scantext hit <image> --point <point> [--rect <rect>] [--psm <psm>]\n"
  + "  See 'scantext hit --help' for more information.\n"

// MARK: - Parsing forms

@Suite struct ParsingForms {
  @Test func separateAndInlineValuesAndShortNames() {
    let expected =
      "images=[\"a.png\", \"b.png\"] output=out.json format=text lang=deu verbose=false\n"
    for arguments in [
      ["ocr", "a.png", "--output", "out.json", "--format", "text", "--lang", "deu", "b.png"],
      ["ocr", "--output=out.json", "--format=text", "--lang=deu", "a.png", "b.png"],
      ["ocr", "-o", "out.json", "a.png", "b.png", "--format", "text", "--lang", "deu"],
      ["ocr", "-o=out.json", "--format", "text", "--lang", "deu", "a.png", "b.png"],
    ] {
      let result = run(arguments)
      #expect(result.code == 0, "\(arguments)")
      #expect(result.out == expected, "\(arguments)")
      #expect(result.err == "")
    }
  }

  @Test func defaultsApplyWhenOmitted() {
    let result = run(["ocr", "a.png"])
    #expect(result.code == 0)
    #expect(result.out == "images=[\"a.png\"] output=- format=json lang=eng verbose=false\n")
  }

  @Test func flagsByLongAndShortNameAndTwice() {
    #expect(run(["ocr", "--verbose", "a.png"]).out.hasSuffix("verbose=true\n"))
    #expect(run(["ocr", "-v", "a.png", "-v"]).out.hasSuffix("verbose=true\n"))
  }

  @Test func customParser() {
    let result = run(["hit", "page.png", "--point", "10,20", "--psm", "6"])
    #expect(result.code == 0)
    #expect(result.out == "image=page.png point=10,20 rect=- psm=6\n")
  }

  @Test func negativeNumbersAreValues() {
    let result = run(["hit", "page.png", "--point", "-5,3", "--rect", "-1,0,5,5", "--psm", "-2"])
    #expect(result.code == 0)
    #expect(result.out == "image=page.png point=-5,3 rect=-1,0,5,5 psm=-2\n")
    let other = run(["hit", "--point", "-5,-3", "page.png", "--rect", "-.5,0,1,1"])
    #expect(other.out == "image=page.png point=-5,-3 rect=-.5,0,1,1 psm=3\n")
    // A negative number is also a positional value.
    #expect(run(["echo", "-1", "-2.5"]).out == "-1\n-2.5\n")
  }

  @Test func doubleDashEndsOptions() {
    let result = run(["ocr", "--lang", "fra", "--", "--weird.png", "-h", "-o"])
    #expect(result.code == 0)
    #expect(
      result.out
        == "images=[\"--weird.png\", \"-h\", \"-o\"] output=- format=json lang=fra verbose=false\n")
  }

  @Test func singleDashIsAValue() {
    #expect(run(["ocr", "-", "--output", "-"]).out.hasPrefix("images=[\"-\"] output=- "))
  }

  @Test func optionalValuesAndStandardInput() {
    let result = run(
      ["echo", "--prefix", "> ", "--count", "2", "w"], input: ["one", "two", "three"])
    #expect(result.code == 0)
    #expect(result.out == "> w\n> one\n> two\n")
  }

  @Test func parsedArgumentsAPI() throws {
    let parsed = try ParsedArguments.parse(
      ["page.png", "--point", "1,2", "--psm", "12"], for: ExampleHit.self)
    #expect(try parsed[ExampleHit.point] == ExamplePoint(x: 1, y: 2))
    #expect(try parsed[ExampleHit.rect] == nil)
    #expect(try parsed[ExampleHit.image] == "page.png")
    #expect(try parsed[ExampleHit.psm] == 12)
    #expect(parsed.contains(ExampleHit.psm))
    #expect(!parsed.contains(ExampleHit.rect))
    #expect(!parsed[ExampleOCR.verbose])
    #expect(throws: UndeclaredArgumentError.self) { try parsed[ExampleOCR.lang] }

    let defaulted = try ParsedArguments.parse(["page.png", "--point", "1,2"], for: ExampleHit.self)
    #expect(try defaulted[ExampleHit.psm] == 3)
    #expect(!defaulted.contains(ExampleHit.psm))
  }
}

// MARK: - Declaration forms

private struct ExampleForms: ScanCommand {
  static let count = Argument<Int>("count", help: "C.")
  static let points = Argument<[Int]>("points", help: "P.")
  static let max = Option<Int?>("max", help: "M.")
  static let at = Option<ExamplePoint>("at", help: "A.", parse: ExamplePoint.parse)
  static let near = Option<ExamplePoint?>("near", help: "N.", parse: ExamplePoint.parse)
  static let format = Option<ExampleFormat>("format", help: "F.")
  static let scale = Option<Double>("scale", help: "S.", default: 1.5)
  static let dryRun = Flag("dry-run", help: "D.")
  static let configuration = CommandConfiguration(
    commandName: "forms",
    arguments: [count, points, max, at, near, format, scale, dryRun])

  init(_ arguments: ParsedArguments) {}
}

@Suite struct DeclarationForms {
  @Test func usageAndHelpRows() {
    #expect(
      HelpFormatter.usage([ExampleForms.configuration])
        == "forms <count> <points> ... [--max <max>] --at <at> [--near <near>] "
        + "--format <format> [--scale <scale>] [--dry-run]")
    #expect(
      CommandLineTool.helpText(ExampleForms.self) == """
        USAGE: \(HelpFormatter.usage([ExampleForms.configuration]))

        ARGUMENTS:
          <count>                 C.
          <points>                P.

        OPTIONS:
          --max <max>             M.
          --at <at>               A.
          --near <near>           N.
          --format <format>       F. (values: json, text)
          --scale <scale>         S. (default: 1.5)
          --dry-run               D.
          -h, --help              Show help information.

        """)
  }

  @Test func typedValues() throws {
    let parsed = try ParsedArguments.parse(
      ["3", "4", "5", "--format", "text", "--at=-1,-1", "--scale", "-2", "--near", "0,9"],
      for: ExampleForms.self)
    let count: Int = try parsed[ExampleForms.count]
    let points: [Int] = try parsed[ExampleForms.points]
    let max: Int? = try parsed[ExampleForms.max]
    let at: ExamplePoint = try parsed[ExampleForms.at]
    let near: ExamplePoint? = try parsed[ExampleForms.near]
    let format: ExampleFormat = try parsed[ExampleForms.format]
    let scale: Double = try parsed[ExampleForms.scale]
    #expect(count == 3 && points == [4, 5])
    #expect(
      max == nil && at == ExamplePoint(x: -1, y: -1) && near == ExamplePoint(x: 0, y: 9)
        && format == .text)
    #expect(scale == -2 && !parsed[ExampleForms.dryRun])

    let minimal = try ParsedArguments.parse(
      ["7", "8", "--format", "json", "--at", "0,0", "--dry-run"], for: ExampleForms.self)
    #expect(try minimal[ExampleForms.near] == nil && minimal[ExampleForms.points] == [8])
    #expect(try minimal[ExampleForms.scale] == 1.5 && minimal[ExampleForms.dryRun])
  }

  @Test func missingAndInvalidValues() {
    #expect(
      throws: UsageError(
        "Missing expected argument '--at <at>'", helpLine: "--at <at>  A.")
    ) {
      try ParsedArguments.parse(["7", "8", "--format", "json"], for: ExampleForms.self)
    }
    #expect(
      throws: UsageError(
        "Missing expected argument '<points> ...'", helpLine: "<points>  P.")
    ) {
      try ParsedArguments.parse(["7", "--format", "json", "--at", "0,0"], for: ExampleForms.self)
    }
    #expect(
      throws: UsageError(
        "The value 'x' is invalid for '<count>'", helpLine: "<count>  C.")
    ) {
      try ParsedArguments.parse(
        ["x", "1", "--format", "json", "--at", "0,0"], for: ExampleForms.self)
    }
    #expect(
      throws: UsageError(
        "The value '9' is invalid for '--near <near>': expected two integers 'x,y'",
        helpLine: "--near <near>  N.")
    ) {
      try ParsedArguments.parse(
        ["1", "1", "--format", "json", "--at", "0,0", "--near", "9"], for: ExampleForms.self)
    }
  }

  @Test func lintFindsDeclarationMistakes() {
    struct Bad: ScanCommand {
      static let configuration = CommandConfiguration(
        commandName: "bad",
        arguments: [
          Argument<[String]>("files", help: ""), Argument<String>("last", help: ""),
          Flag("help", help: ""), Option<String?>("x", short: "o", help: ""),
          Option<String?>("y", short: "o", help: ""), Flag("x", help: ""),
        ])
      init(_ arguments: ParsedArguments) {}
    }
    struct Group: ScanCommand {
      static let configuration = CommandConfiguration(
        commandName: "group",
        arguments: [Argument<String>("file", help: ""), Flag("verbose", help: "")],
        subcommands: [Bad.self, Bad.self])
      init(_ arguments: ParsedArguments) {}
    }
    #expect(CommandLineTool.lint(ExampleTool.self) == [])
    #expect(
      CommandLineTool.lint(Group.self) == [
        "group: positional '<file>' is ignored by a command with subcommands",
        "group: option '--verbose' is ignored by a command with subcommands",
        "group: subcommand 'bad' is declared more than once",
        "group bad: '<last>' follows variadic '<files>' and never gets a value",
        "group bad: '--help' is reserved",
        "group bad: '-o' is declared more than once",
        "group bad: '--x' is declared more than once",
      ])
  }
}

// MARK: - Usage errors

@Suite struct UsageErrors {
  private func expectUsageError(
    _ arguments: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let result = run(arguments)
    #expect(result.code == 64, sourceLocation: sourceLocation)
    #expect(result.out == "", sourceLocation: sourceLocation)
    #expect(result.err == expected, sourceLocation: sourceLocation)
  }

  @Test func unknownOption() {
    expectUsageError(["ocr", "a.png", "--foo"], "Error: Unknown option '--foo'\n" + ocrUsage)
    expectUsageError(["ocr", "a.png", "-x"], "Error: Unknown option '-x'\n" + ocrUsage)
    expectUsageError(["ocr", "a.png", "--foo=bar"], "Error: Unknown option '--foo'\n" + ocrUsage)
  }

  @Test func unknownOptionSuggestsCloseName() {
    expectUsageError(
      ["ocr", "a.png", "--fromat", "json"],
      "Error: Unknown option '--fromat'. Did you mean '--format'?\n" + ocrUsage)
    expectUsageError(
      ["ocr", "a.png", "--langs=x"],
      "Error: Unknown option '--langs'. Did you mean '--lang'?\n" + ocrUsage)
  }

  @Test func missingValue() {
    expectUsageError(
      ["ocr", "a.png", "--lang"],
      "Error: Missing value for '--lang <lang>'\nHelp:  --lang <lang>  Recognition language.\n"
        + ocrUsage)
    expectUsageError(
      ["ocr", "a.png", "-o", "--lang", "x"],
      "Error: Missing value for '-o <output>'\nHelp:  -o <output>  Write to this file instead of standard output.\n"
        + ocrUsage)
  }

  @Test func missingExpectedArgument() {
    expectUsageError(
      ["ocr"],
      "Error: Missing expected argument '<images> ...'\nHelp:  <images>  The image files to recognize.\n"
        + ocrUsage)
    expectUsageError(
      ["hit", "page.png"],
      "Error: Missing expected argument '--point <point>'\nHelp:  --point <point>  The point to test, as x,y.\n"
        + hitUsage)
    expectUsageError(
      ["hit", "--point", "1,2"],
      "Error: Missing expected argument '<image>'\nHelp:  <image>  The page image.\n" + hitUsage)
  }

  @Test func unexpectedArguments() {
    expectUsageError(
      ["hit", "a.png", "--point", "1,1", "extra"], "Error: Unexpected argument 'extra'\n" + hitUsage
    )
    expectUsageError(
      ["hit", "a.png", "b", "c", "--point", "1,1"],
      "Error: 2 unexpected arguments: 'b', 'c'\n" + hitUsage)
  }

  @Test func invalidValues() {
    expectUsageError(
      ["hit", "a.png", "--point", "1,1", "--psm", "abc"],
      "Error: The value 'abc' is invalid for '--psm <psm>'\nHelp:  --psm <psm>  Page segmentation mode.\n"
        + hitUsage)
    expectUsageError(
      ["hit", "a.png", "--point", "1;1"],
      "Error: The value '1;1' is invalid for '--point <point>': expected two integers 'x,y'\n"
        + "Help:  --point <point>  The point to test, as x,y.\n" + hitUsage)
    expectUsageError(
      ["ocr", "a.png", "--format", "xml"],
      "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'json' and 'text'.\n"
        + "Help:  --format <format>  Output format.\n" + ocrUsage)
  }

  @Test func duplicateOption() {
    expectUsageError(
      ["ocr", "a.png", "--lang", "a", "--lang=b"],
      "Error: The option '--lang' cannot be repeated\n" + ocrUsage)
    expectUsageError(
      ["ocr", "a.png", "--output", "a", "-o", "b"],
      "Error: The option '-o' cannot be repeated\n" + ocrUsage)
  }

  @Test func flagWithValue() {
    expectUsageError(
      ["ocr", "--verbose=yes", "a.png"],
      "Error: The option '--verbose' does not take any value, but 'yes' was specified.\n"
        + ocrUsage)
  }

  @Test func unknownSubcommand() {
    let rootUsage =
      "Usage: scantext <subcommand>\n  See 'scantext --help' for more information.\n"
    expectUsageError(["orc", "a.png"], "Error: Unknown subcommand 'orc'\n" + rootUsage)
    expectUsageError(["help", "orc"], "Error: Unknown subcommand 'orc'\n" + rootUsage)
    expectUsageError(["help", "ocr", "more"], "Error: Unknown subcommand 'more'\n" + rootUsage)
  }

  @Test func firstErrorInCommandLineOrderWins() {
    expectUsageError(
      ["ocr", "--foo", "a.png", "--bar"], "Error: Unknown option '--foo'\n" + ocrUsage)
  }
}

// MARK: - Help, version, dispatch

@Suite struct HelpAndVersion {
  static let ocrHelp = """
    OVERVIEW: Recognize text in scanned pages and export hOCR-like JSON.

    USAGE: scantext ocr <images> ... [--output <output>] [--format <format>] [--lang <lang>] [--verbose]

    ARGUMENTS:
      <images>                The image files to recognize.

    OPTIONS:
      -o, --output <output>   Write to this file instead of standard output.
      --format <format>       Output format. (values: json, text; default: json)
      --lang <lang>           Recognition language. (default: eng)
      -v, --verbose           Print progress to standard error.
      -h, --help              Show help information.


    """

  static let rootHelp = """
    OVERVIEW: Recognize and query text in scanned pages.

    USAGE: scantext <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      ocr                     Recognize text in scanned pages and export hOCR-like
                              JSON.
      hit                     Find the word at a point.
      echo                    Copy standard input to standard output.
      fail                    Fail in various ways.

      See 'scantext help <subcommand>' for detailed help.

    """

  @Test func subcommandHelpGolden() {
    for arguments in [
      ["ocr", "--help"], ["ocr", "-h"], ["ocr", "a.png", "--bogus", "-h"], ["help", "ocr"],
      ["help", "ocr", "-h"],
    ] {
      let result = run(arguments)
      #expect(result.code == 0, "\(arguments)")
      #expect(result.err == "")
      #expect(result.out == Self.ocrHelp, "\(arguments)")
    }
  }

  @Test func rootHelpGolden() {
    for arguments in [[], ["--help"], ["-h"], ["help"], ["--help", "ocr"]] {
      let result = run(arguments)
      #expect(result.code == 0, "\(arguments)")
      #expect(result.out == Self.rootHelp, "\(arguments)")
    }
    #expect(CommandLineTool.helpText(ExampleTool.self) + "\n" == Self.rootHelp)
    #expect(CommandLineTool.helpText(ExampleTool.self, subcommands: ["ocr"]) + "\n" == Self.ocrHelp)
  }

  @Test func helpAfterDoubleDashIsAValue() {
    #expect(run(["ocr", "--", "--help"]).out.hasPrefix("images=[\"--help\"]"))
  }

  @Test func version() {
    let result = run(["--version"])
    #expect(result.code == 0)
    #expect(result.out == "1.2.3\n")
    #expect(run(["ocr", "a.png", "--version"]).code == 64)  // root only
  }

  @Test func longLabelsAndWrapping() {
    struct Wide: ScanCommand {
      static let configuration = CommandConfiguration(
        commandName: "wide",
        abstract:
          "A command whose abstract is long enough that the overview line has to wrap at eighty columns.",
        discussion: "Discussion text follows a blank line.",
        arguments: [
          Option<String?>(
            "a-very-long-option-name", short: "l", valueName: "value",
            help: "Goes on the next line."),
          Option<String?>("medium-name", valueName: "v", help: "Fits."),
          Flag("twenty-two-characters", help: "Label is 25 columns, the help starts at 26."),
          Flag("twenty-three-characters", help: "Label is 27 columns."),
          Option<ExampleFormat>(
            "format",
            help:
              "A long help text that needs to be wrapped onto a second line because it is long.",
            default: .text),
        ])
      init(_ arguments: ParsedArguments) {}
      func run(_ io: CommandIO) -> Int32 { 0 }
    }
    let expected = """
      OVERVIEW: A command whose abstract is long enough that the overview line has to
      wrap at eighty columns.

      Discussion text follows a blank line.

      USAGE: wide [--a-very-long-option-name <value>] [--medium-name <v>] [--twenty-two-characters] [--twenty-three-characters] [--format <format>]

      OPTIONS:
        -l, --a-very-long-option-name <value>
                                Goes on the next line.
        --medium-name <v>       Fits.
        --twenty-two-characters Label is 25 columns, the help starts at 26.
        --twenty-three-characters
                                Label is 27 columns.
        --format <format>       A long help text that needs to be wrapped onto a
                                second line because it is long. (values: json, text;
                                default: text)
        -h, --help              Show help information.


      """
    let captured = CapturedIO()
    #expect(CommandLineTool.run(Wide.self, arguments: ["--help"], io: captured.io) == 0)
    #expect(captured.stdout == expected)
  }

  @Test func manyOptionsCollapseInUsage() {
    struct Many: ScanCommand {
      static let configuration = CommandConfiguration(
        commandName: "many",
        arguments: (1...13).map { Flag("f\($0)", help: "") } + [Argument<String>("file", help: "")])
      init(_ arguments: ParsedArguments) {}
    }
    #expect(HelpFormatter.usage([Many.configuration]) == "many [<options>] <file>")
  }

  @Test func noArgumentsErrorShowsFullHelp() {
    struct Leaf: ScanCommand {
      static let configuration = CommandConfiguration(
        commandName: "leaf", abstract: "A leaf.",
        arguments: [Argument<String>("file", help: "A file.")])
      init(_ arguments: ParsedArguments) {}
    }
    let captured = CapturedIO()
    #expect(CommandLineTool.run(Leaf.self, arguments: [], io: captured.io) == 64)
    #expect(
      captured.stderr == """
        Error: Missing expected argument '<file>'
        Help:  <file>  A file.

        OVERVIEW: A leaf.

        USAGE: leaf <file>

        ARGUMENTS:
          <file>                  A file.

        OPTIONS:
          -h, --help              Show help information.


        """)
  }
}

@Suite struct CommandErrors {
  @Test func runtimeFailure() {
    let result = run(["fail", "failure"])
    #expect(result.code == 1)
    #expect(result.out == "")
    #expect(result.err == "Error: The page could not be read.\n")
  }

  @Test func otherErrorsExitWithOne() {
    #expect(run(["fail", "other"]) == (1, "", "Error: something else went wrong\n"))
    #expect(
      run(["fail", "undeclared"]) == (
        1, "", "Error: Internal error: '--lang' is not declared by 'scantext fail'\n"
      ))
  }

  @Test func validationErrorsAreUsageErrors() {
    let usage = "Usage: scantext fail <mode>\n  See 'scantext fail --help' for more information.\n"
    #expect(run(["fail", "validation"]) == (64, "", "Error: Bad combination.\n" + usage))
    #expect(run(["fail", "init"]) == (64, "", "Error: Mode 'init' is rejected.\n" + usage))
  }

  @Test func exitCodesAndCleanExit() {
    #expect(run(["fail", "code"]).code == 7)
    let help = run(["fail", "help"])
    #expect(help.code == 0 && help.err == "")
    #expect(help.out.hasPrefix("OVERVIEW: Fail in various ways.\n\nUSAGE: scantext fail <mode>\n"))
  }
}

@Suite struct Wrapping {
  @Test func wrapsAtLastFittingSpace() {
    #expect(HelpFormatter.wrap("aaa bbb ccc", width: 8) == "aaa bbb\nccc")
    // The last line may fill the width.
    #expect(HelpFormatter.wrap("aaa bbb ccc", width: 7) == "aaa\nbbb ccc")
    #expect(HelpFormatter.wrap("aaa bbb ccc d", width: 7) == "aaa\nbbb\nccc d")
    #expect(HelpFormatter.wrap("aaaaaaaaaa bb", width: 5) == "aaaaaaaaaa\nbb")
    #expect(HelpFormatter.wrap("one\n\ntwo", width: 80, indent: 2) == "  one\n\n  two")
  }

  @Test func rowsAlignAtColumn26() {
    #expect(HelpFormatter.row("<images>", "Text.") == "  <images>                Text.\n")
    #expect(
      HelpFormatter.row(String(repeating: "x", count: 24), "Text.") == "  "
        + String(repeating: "x", count: 24) + "\n" + String(repeating: " ", count: 26) + "Text.\n")
    #expect(HelpFormatter.row("label", "") == "  label\n")
  }

  @Test func editDistance() {
    #expect(HelpFormatter.editDistance("kitten", "sitting") == 3)
    #expect(HelpFormatter.editDistance("--foo", "--format") == 4)
    #expect(HelpFormatter.editDistance("", "abc") == 3)
  }
}
