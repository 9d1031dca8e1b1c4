import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

/// The `scantext` root command.
public struct ScanText: ScanCommand {
  /// The tool's version.
  public static let version = ToolIdentity.version

  public static let configuration = CommandConfiguration(
    commandName: "scantext",
    abstract: "Turn scanned pages into text you can navigate, select, query and verify.",
    discussion: """
      MODEL arguments take a document (ScanText JSON from 'scantext ocr', hOCR, \
      ALTO, PAGE XML or Tesseract TSV) or an image, which is recognised first. Coordinates are pixels of the original \
      image (top-left origin); text offsets are UTF-16 code units.
      """,
    version: version,
    versionDetails: {
      ["tesseract \(OCREngine.tesseractVersion)", OCREngine.leptonicaVersion]
    },
    subcommands: [
      OCRCommand.self, BatchCommand.self, ReportCommand.self, TextCommand.self,
      RectsCommand.self, HitCommand.self,
      BoundaryCommand.self, LinesCommand.self, OutlineCommand.self, TablesCommand.self,
      QueryCommand.self,
      VerifyCommand.self,
      EvalCommand.self, ConvertCommand.self, DrawCommand.self, HTMLCommand.self,
    ])

  public init(_ arguments: ParsedArguments) {}

  /// Runs the tool: parses `arguments` (without the program name), runs the
  /// command, and returns the exit code (0, 1 for failures, 64 for usage errors).
  public static func main(_ arguments: [String], io: CommandIO = .standard) -> Int32 {
    if arguments.contains("--verbose") { OCREngine.showLibraryMessages() }
    InputFiles.begin(io)
    defer { InputFiles.end() }
    return CommandLineTool.run(ScanText.self, arguments: arguments, io: io)
  }

  /// What `generator` records in JSON exports.
  static var generator: Generator { ToolIdentity.generator }
}
