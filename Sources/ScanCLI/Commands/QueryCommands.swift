import ScanFormats
import ScanModel

struct TextCommand: ScanCommand {
  static let range = Option<Range<Int>?>(
    "range", valueName: "start:end", help: "A range of UTF-16 offsets.", parse: ValueParsers.range)
  static let rect = Option<Rect?>(
    "rect", valueName: "x0,y0,x1,y1", help: "The words mostly inside this rectangle.",
    parse: ValueParsers.rect)
  static let line = Option<Int?>("line", help: "One line, by its reading-order number.")

  static let configuration = CommandConfiguration(
    commandName: "text", abstract: "Print the text of a page, a range, a rectangle or a line.",
    arguments: ModelArguments.all + [range, rect, line])

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) throws {
    let chosen = [try a[Self.range] != nil, try a[Self.rect] != nil, try a[Self.line] != nil]
    guard chosen.filter({ $0 }).count <= 1 else {
      throw ValidationError("Give at most one of '--range', '--rect' and '--line'")
    }
    arguments = a
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let page = try ModelArguments.page(arguments)
    if let r = try arguments[Self.range] {
      io.print(page.text(in: try Answers.checked(r, in: page)) ?? "")
    } else if let rect = try arguments[Self.rect] {
      io.print(page.text(in: rect))
    } else if let n = try arguments[Self.line] {
      guard let text = page.content(forLineNumber: n) else {
        throw CLIError(
          "there is no line \(n) (the page has \(page.lineCount) lines, numbered from 0)")
      }
      io.print(text)
    } else {
      io.write(page.text)
    }
    return 0
  }
}

struct RectsCommand: ScanCommand {
  static let range = Option<Range<Int>>(
    "range", valueName: "start:end", help: "A range of UTF-16 offsets.", parse: ValueParsers.range)
  static let configuration = CommandConfiguration(
    commandName: "rects",
    abstract: "Print the selection rectangles of a range, one per line, as JSON.",
    arguments: ModelArguments.all + [range])

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) throws {
    _ = try a[Self.range]
    arguments = a
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let page = try ModelArguments.page(arguments)
    let range = try Answers.checked(try arguments[Self.range], in: page)
    io.print(Answers.rects(page.selectionRects(for: range)).serialized(pretty: true))
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
    arguments: ModelArguments.all + [point])

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) throws {
    _ = try a[Self.point]
    arguments = a
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let page = try ModelArguments.page(arguments)
    io.print(Answers.hit(page, try arguments[Self.point]).serialized(pretty: true))
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
    arguments: ModelArguments.all + [position, granularity, direction])

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) throws {
    _ = try a[Self.position]
    _ = try a[Self.granularity]
    arguments = a
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let page = try ModelArguments.page(arguments)
    let p = try Answers.checked(position: try arguments[Self.position], in: page)
    let answer = Answers.boundary(
      page, p, try arguments[Self.granularity], try arguments[Self.direction].direction)
    io.print(answer.serialized(pretty: true))
    return 0
  }
}

struct LinesCommand: ScanCommand {
  static let configuration = CommandConfiguration(
    commandName: "lines",
    abstract: "List the lines of a page with their text, range, box and frame, as JSON.",
    arguments: ModelArguments.all)

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) { arguments = a }

  func run(_ io: CommandIO) throws -> Int32 {
    let page = try ModelArguments.page(arguments)
    let lines = JSONValue.object([
      "lines": .array((0..<page.lineCount).map { Answers.line(page, $0) })
    ])
    io.print(lines.serialized(pretty: true))
    return 0
  }
}

struct QueryCommand: ScanCommand {
  static let model = Argument<String>(
    "model", help: "A ScanText JSON document, or an image to recognise.")
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Answer JSON requests, one per line on standard input, one answer per line.",
    discussion: """
      Requests: {"op":"text","range":[s,e]} or {"op":"text","rect":[x0,y0,x1,y1]}, \
      {"op":"rects","range":[s,e]}, {"op":"caret","position":p}, {"op":"hit","point":[x,y]}, \
      {"op":"enclosing"|"boundary","position":p,"granularity":g,"direction":d}, \
      {"op":"line","point":[x,y]}, {"op":"lineContent","line":i}, {"op":"lines"}, {"op":"pages"}. \
      "page" defaults to 0; an "id" is echoed back. A bad request gets {"error":"..."}.
      """,
    arguments: [model] + OCRArguments.all)

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) { arguments = a }

  func run(_ io: CommandIO) throws -> Int32 {
    let document = try ModelLoader.document(
      arguments[Self.model], options: OCRArguments.options(arguments),
      useCache: !arguments[OCRArguments.noCache])
    let service = QueryService(document: document)
    while let input = io.readLine(limit: QueryService.maxRequestBytes) {
      if case .text(let line) = input, line.allSatisfy(\.isWhitespace) { continue }
      io.print(service.answer(input))
      io.flush()
    }
    return 0
  }
}

struct VerifyCommand: ScanCommand {
  static let model = Argument<String>(
    "model", help: "A ScanText JSON document, or an image to recognise.")
  static let json = Flag("json", help: "Print the report as JSON.")
  static let tolerance = Option<Double>(
    "tolerance", help: "Pixels a box may stick out of the box that should hold it.", default: 2)
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check the selection geometry of every page against its OCR boxes.",
    discussion: "Exits with 1 when any check fails.",
    arguments: [model, json, tolerance] + OCRArguments.all)

  let arguments: ParsedArguments
  init(_ a: ParsedArguments) throws {
    guard try a[Self.tolerance] >= 0 else {
      throw ValidationError("'--tolerance' must be 0 or more")
    }
    arguments = a
  }

  func run(_ io: CommandIO) throws -> Int32 {
    let path = try arguments[Self.model]
    let document = try ModelLoader.document(
      path, options: OCRArguments.options(arguments), useCache: !arguments[OCRArguments.noCache])
    let tolerance = try arguments[Self.tolerance]
    let reports = document.pages.map { $0.verify(tolerance: tolerance) }
    let violations = reports.flatMap(\.violations)
    let checks = reports.map(\.checks).reduce(0, +)
    if arguments[Self.json] {
      let report = JSONValue.object([
        "passed": .bool(violations.isEmpty), "checks": .number(Double(checks)),
        "pages": .number(Double(document.pages.count)),
        "violations": .array(
          violations.map {
            .object([
              "kind": .string($0.kind.rawValue), "page": .number(Double($0.page)),
              "element": .string($0.element), "detail": .string($0.detail),
            ])
          }),
      ])
      io.print(report.serialized(pretty: true))
    } else {
      for v in violations { io.print(v.description) }
      let pages = document.pages.count
      io.print(
        "\(path): \(pages) page\(pages == 1 ? "" : "s"), \(checks) checks, \(violations.count) violation\(violations.count == 1 ? "" : "s")"
      )
    }
    return violations.isEmpty ? 0 : 1
  }
}
