import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// `scantext outline MODEL`: the page's headings as a tree.
struct OutlineCommand: ScanCommand {
  static let json = Flag(
    "json", help: "Print the outline as JSON (each heading with its level, range and children).")
  static let configuration = CommandConfiguration(
    commandName: "outline",
    abstract: "Print the heading tree of a page, indented by depth.",
    discussion: """
      Headings are the paragraphs whose role is heading (detected on recognised pages, \
      or read from the document); each is nested under the nearest heading before it \
      of a higher level. A page without headings prints nothing. Every page of \
      MODEL, or those --pages selects, each page's tree after the last; with \
      --json, for several pages a JSON array of the pages' outlines, each with \
      its "page" number (from 1).
      """,
    arguments: ModelOptions.arguments + [json])

  let model: ModelOptions
  let printsJSON: Bool

  init(_ a: ParsedArguments) throws {
    printsJSON = a[Self.json]
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    if printsJSON {
      try model.printAnswers(io, Answers.outline)
      return 0
    }
    try model.ocr.recognizer().printOutlines(model.path, io: io)
    return 0
  }
}
