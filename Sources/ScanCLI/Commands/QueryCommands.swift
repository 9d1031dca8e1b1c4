import ScanArguments
import ScanFormats
import ScanModel
import ScanService

/// How the single-shot commands answer for several pages: through the
/// service (``ScanService/Recognizer/printAnswers(_:io:_:)``).
extension ModelOptions {
  /// Prints each page's answer (one page: the answer alone; several: a
  /// JSON array, each with its `"page"`).
  func printAnswers(_ io: CommandIO, _ answer: (Page) throws -> JSONValue) throws {
    try ocr.recognizer().printAnswers(path, io: io, answer)
  }

  /// The help text of a command that answers for every page in JSON.
  static let severalPages = """
    Every page of MODEL, or those --pages selects (from 1): for one page its \
    answer, as the query protocol gives it; for several, a JSON array of the \
    answers in page order, each with its "page" number (from 1).
    """
}

struct TextCommand: ScanCommand {
  static let range = Option<Range<Int>?>(
    "range", valueName: "start:end", help: "A range of UTF-16 offsets.", parse: ValueParsers.range)
  static let rect = Option<Rect?>(
    "rect", valueName: "x0,y0,x1,y1", help: "The words mostly inside this rectangle.",
    parse: ValueParsers.rect)
  static let line = Option<Int?>("line", help: "One line, by its reading-order number.")

  static let configuration = CommandConfiguration(
    commandName: "text", abstract: "Print the text of a page, a range, a rectangle or a line.",
    discussion: """
      Every page of MODEL, or those --pages selects, in order; a form feed \
      separates the pages, as in 'scantext ocr --format text' and 'tesseract'. \
      With --range, --rect or --line, that part of each page, each followed \
      by a newline.
      """,
    arguments: ModelOptions.arguments + [range, rect, line])

  let model: ModelOptions
  let selection: PageText

  init(_ a: ParsedArguments) throws {
    let chosen: [PageText] = [
      try a[Self.range].map(PageText.range), try a[Self.rect].map(PageText.rect),
      try a[Self.line].map(PageText.line),
    ].compactMap { $0 }
    guard chosen.count <= 1 else {
      throw ValidationError("Give at most one of '--range', '--rect' and '--line'")
    }
    selection = chosen.first ?? .page
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try model.ocr.recognizer().printTexts(model.path, io: io, selection.text)
    return 0
  }
}

struct RectsCommand: ScanCommand {
  static let range = Option<Range<Int>>(
    "range", valueName: "start:end", help: "A range of UTF-16 offsets.", parse: ValueParsers.range)
  static let configuration = CommandConfiguration(
    commandName: "rects",
    abstract: "Print the selection rectangles of a range, one per line, as JSON.",
    discussion: ModelOptions.severalPages,
    arguments: ModelOptions.arguments + [range])

  let model: ModelOptions
  let range: Range<Int>

  init(_ a: ParsedArguments) throws {
    range = try a[Self.range]
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try model.printAnswers(io) { page in
      Answers.rects(page.selectionRects(for: try Answers.checked(range, in: page)))
    }
    return 0
  }
}

struct HitCommand: ScanCommand {
  static let point = Option<Point>(
    "point", valueName: "x,y", help: "A point in image pixels.", parse: ValueParsers.point)
  static let configuration = CommandConfiguration(
    commandName: "hit",
    abstract:
      "Hit-test a point: the closest position, the line, character and word there, as JSON.",
    discussion: ModelOptions.severalPages,
    arguments: ModelOptions.arguments + [point])

  let model: ModelOptions
  let point: Point

  init(_ a: ParsedArguments) throws {
    point = try a[Self.point]
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try model.printAnswers(io) { Answers.hit($0, point) }
    return 0
  }
}

struct BoundaryCommand: ScanCommand {
  static let position = Option<Int>("position", help: "A UTF-16 offset in the page text.")
  static let granularity = Option<TextGranularity>("granularity", help: "The text unit.")
  static let direction = Option<DirectionName>(
    "direction", help: "The direction.", default: .forward)
  static let configuration = CommandConfiguration(
    commandName: "boundary",
    abstract:
      "Tokenizer queries at a position: enclosing unit, next boundary, at-boundary, within-unit.",
    discussion: ModelOptions.severalPages,
    arguments: ModelOptions.arguments + [position, granularity, direction])

  let model: ModelOptions
  let position: Int
  let granularity: TextGranularity
  let direction: TextDirection

  init(_ a: ParsedArguments) throws {
    position = try a[Self.position]
    granularity = try a[Self.granularity]
    direction = try a[Self.direction].direction
    model = try ModelOptions(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try model.printAnswers(io) { page in
      Answers.boundary(
        page, try Answers.checked(position: position, in: page), granularity, direction)
    }
    return 0
  }
}

struct LinesCommand: ScanCommand {
  static let configuration = CommandConfiguration(
    commandName: "lines",
    abstract:
      "List the lines of a page with their text, range, box, frame and paragraph role, as JSON.",
    discussion: ModelOptions.severalPages,
    arguments: ModelOptions.arguments)

  let model: ModelOptions
  init(_ a: ParsedArguments) throws { model = try ModelOptions(a) }

  func run(_ io: CommandIO) throws -> Int32 {
    try model.printAnswers(io, Answers.lines)
    return 0
  }
}

struct QueryCommand: ScanCommand {
  static let model = Argument<String>(
    "model",
    help:
      "A document (JSON, hOCR, ALTO, PAGE XML, TSV), or an image or PDF to recognise (a file: the requests come on standard input)."
  )
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Answer JSON requests, one per line on standard input, one answer per line.",
    discussion: """
      Line answers carry the paragraph's "role" (and "level" for a heading). \
      "page" defaults to 0; an "id" is echoed back. A bad request gets {"error":"..."}. \
      Requests (the README's Query protocol table gives the answers):

      """ + QueryOp.help,
    arguments: [model, maxPagesInMemory] + OCROptions.arguments)
  static let maxPagesInMemory = Option<Int?>(
    "max-pages-in-memory",
    help:
      "For a compact model (.stm), ScanText JSON or a PDF, which are read a page at a time (a PDF page when a request names it): the most pages kept in memory, the least recently used dropped first (default: \(PagedDocument.defaultMaxPagesInMemory))."
  )

  let modelPath: String
  let ocr: ReadingSettings
  let maxPages: Int?

  init(_ a: ParsedArguments) throws {
    modelPath = try a[Self.model]
    maxPages = try a[Self.maxPagesInMemory]
    if let maxPages, maxPages < 1 {
      throw ValidationError("'--max-pages-in-memory' must be at least 1 (got \(maxPages))")
    }
    guard !InputFiles.isStandardInput(modelPath) else {
      throw ValidationError(
        "query reads its requests from standard input: give MODEL as a file, not '-'")
    }
    ocr = try ReadingSettings(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let document = try ocr.recognizer().queryDocument(modelPath, maxPagesInMemory: maxPages)
    QueryService(document: document, path: modelPath).serve(io)
    return 0
  }
}

struct VerifyCommand: ScanCommand {
  static let model = ModelOptions.model
  static let json = Flag("json", help: "Print the report as JSON.")
  static let tolerance = Option<Double>(
    "tolerance", help: "Pixels a box may stick out of the box that should hold it.", default: 2)
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check the selection geometry of every page against its OCR boxes.",
    discussion: """
      Every page of MODEL, or those --pages selects; violations name their page \
      by its number (from 1). Exits with 1 when any check fails.
      """,
    arguments: [model, json, tolerance] + OCROptions.arguments)

  let path: String
  let printsJSON: Bool
  let tolerance: Double
  let ocr: ReadingSettings

  init(_ a: ParsedArguments) throws {
    path = try a[Self.model]
    printsJSON = a[Self.json]
    tolerance = try a[Self.tolerance]
    guard tolerance >= 0 else { throw ValidationError("'--tolerance' must be 0 or more") }
    ocr = try ReadingSettings(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let passed = try ocr.recognizer().printVerification(
      path, tolerance: tolerance, json: printsJSON, io: io)
    return passed ? 0 : 1
  }
}
