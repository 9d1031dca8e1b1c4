import ScanModel

/// Who made a document: recorded under `"generator"` in the JSON.
public struct Generator: Sendable, Equatable {
  /// The producing tool, such as `scantext`.
  public var name: String
  /// The producing tool's version.
  public var version: String
  /// Further facts such as the Tesseract version and the options used.
  public var details: [String: String]

  /// Creates a generator record.
  public init(name: String, version: String, details: [String: String] = [:]) {
    self.name = name
    self.version = version
    self.details = details
  }
}

/// Why a JSON document could not be read as a ScanText document: the JSON
/// path of the offending element and the reason.
public struct DocumentFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The JSON path of the offending element, such as `pages[0].blocks[1]`.
  public var path: String
  /// Why the element is refused.
  public var reason: String
  /// Creates an error.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// The hOCR-like ScanText JSON format, version 1.
///
/// ```
/// {"version": 1, "generator": {...}, "pages": [{"index", "image", "width", "height", "dpi",
///   "orientation", "skew", "language", "text", "blocks": [{"bbox", "range", "paragraphs": [{"bbox",
///   "range", "role", "level", "lines": [{"bbox", "baseline", "text", "range", "words": [{"bbox", "text",
///   "confidence", "range", "glyphs": [{"bbox", "text", "confidence", "range"}]}]}]}]}]}]}
/// ```
/// Boxes are `[x0, y0, x1, y1]` integer pixels of the original image with an
/// exclusive max; ranges are `[start, end]` UTF-16 offsets into the page
/// text; `baseline` is `[x0, y0, x1, y1]`; lines, words and glyphs of
/// skewed or rotated pages add `"quad": [[x, y] × 4]`; a line that follows
/// a curve (a dewarped page's) adds `"polygon": [[x, y] × 2k]`
/// (``ScanModel/TextLine/polygon``). A paragraph's
/// `"role"` is one of ``ScanModel/ParagraphRole``'s raw values (`heading`, `body`,
/// `pageNumber`…; `body` when absent) and a heading's `"level"` is 1–6. A recognised page
/// whose image was preprocessed lists the steps applied in `"preprocessing"` (strings, each a
/// step's ``ScanModel/StepRecord/recorded`` form, in
/// order; absent when none); a page cut out of a photo adds `"crop"` (the box
/// recognised) and, when its perspective was corrected, `"perspective"` (its
/// corners, `[[x, y] × 4]`). A page read from a PDF adds `"pdf"`:
/// `{"page": n (from 1), "size": [w, h] (points), "pixelToPoint": [a, b, c,
/// d, e, f], "hasText", "nativeImage"}` (see
/// ``ScanModel/PDFPageSource``). A page whose words were read from the
/// PDF's own text adds `"source": "pdf-text"` (absent: recognised);
/// `"dpiSource"` says where `dpi` came from (`tag`, `estimated`, `option`,
/// `pdf`) and `"exifOrientation"` (1–8) the orientation tag of the image
/// file, already applied to every coordinate. A page with regions that hold
/// pictures adds `"figures": [{"bbox", "quad"?, "alt"?}]` (``ScanModel/Figure``:
/// its box, its outline when not upright, the text a screen reader says).
/// Keys are sorted and numbers
/// rounded to two decimals, so the output is deterministic.
public enum DocumentJSON {
  /// The format version written and read.
  public static let version = 1

  /// The document as a JSON value.
  public static func value(of document: Document, generator: Generator) -> JSONValue {
    .object([
      "version": .number(Double(version)),
      "generator": value(of: generator),
      "pages": .array(document.pages.map(value(of:))),
    ])
  }

  /// The `generator` member.
  static func value(of generator: Generator) -> JSONValue {
    var members: [String: JSONValue] = [
      "name": .string(generator.name), "version": .string(generator.version),
    ]
    for (k, v) in generator.details { members[k] = .string(v) }
    return .object(members)
  }

  /// The document as pretty-printed JSON text with a trailing newline
  /// (``DocumentWriter`` writes the same text page by page).
  public static func encode(_ document: Document, generator: Generator) -> String {
    value(of: document, generator: generator).serialized(pretty: true) + "\n"
  }

  /// ScanText JSON written page by page, the same text as ``encode(_:generator:)``:
  /// the object's members in key order (`generator`, `pages`, `version`),
  /// each page an item of `pages` as ``JSONValue`` writes it there.
  struct Writer {
    /// The text before the first page: up to the opening of `pages`.
    let head: String
    private var pageCount = 0

    init(generator: Generator) {
      var text = "{\n  \"generator\": "
      DocumentJSON.value(of: generator).write(to: &text, pretty: true, indent: 1)
      head = text + ",\n  \"pages\": ["
    }

    /// The indent of a page's members' object in `pages`.
    static let pageIndent = 2

    /// A page's item of `pages`, with the comma before it after the first:
    /// `encoded`'s text when the page was encoded already (its `image` and
    /// `index` written from `page`), else the page encoded now.
    mutating func page(_ page: Page, encoded: PageText? = nil) -> String {
      var text = pageCount == 0 ? "\n    " : ",\n    "
      pageCount += 1
      if let encoded {
        encoded.write(page, to: &text)
      } else {
        var marks: [String: Range<Int>] = [:]
        DocumentJSON.write(page, to: &text, marking: [], at: &marks)
      }
      return text
    }

    /// The text after the last page.
    func tail() -> String {
      var text = pageCount == 0 ? "]" : "\n  ]"
      text += ",\n  \"version\": "
      JSONValue.number(Double(DocumentJSON.version)).write(to: &text, pretty: true, indent: 1)
      return text + "\n}\n"
    }
  }

  /// A page as an item of the document's `pages`.
  /// - Complexity: O(*n*) in the page's elements.
  public static func value(of page: Page) -> JSONValue { .object(members(of: page)) }

  /// A page's `image` member.
  static func image(of page: Page) -> JSONValue { page.image.map(JSONValue.string) ?? .null }

  /// Writes a page's item of `pages` (pretty, sorted keys, at
  /// ``Writer/pageIndent``) as ``value(of:)-(Page)`` writes it, but a
  /// block at a time: the values of one block exist at once, never the
  /// whole page's (on a dense page, `8071_093.3B.tif`, they took more
  /// memory than its image), and records where the values of the members
  /// named in `keys` are in `out` (UTF-8 offsets).
  /// - Complexity: O(*n*) in the page's elements.
  static func write(
    _ page: Page, to out: inout String, marking keys: Set<String>,
    at marks: inout [String: Range<Int>]
  ) {
    // The page's object with its blocks empty, then the blocks written
    // where its `[]` is.
    var shell = ""
    var inShell: [String: Range<Int>] = [:]
    JSONValue.writeObject(
      members(of: page, blocks: false), to: &shell, pretty: true, indent: Writer.pageIndent,
      marking: keys.union(["blocks"]), at: &inShell)
    let base = out.utf8.count
    guard let empty = inShell["blocks"], !page.blocks.isEmpty else {
      out += shell
      for key in keys { marks[key] = inShell[key].map { $0.shifted(by: base) } }
      return
    }
    let utf8 = shell.utf8
    let cut = utf8.index(utf8.startIndex, offsetBy: empty.lowerBound)
    out += shell[..<cut]
    let start = out.utf8.count
    // As an array of objects is written at the page's members' indent.
    let indent = String(repeating: "  ", count: Writer.pageIndent + 2)
    out += "["
    for (i, block) in page.blocks.enumerated() {
      out += i > 0 ? ",\n" : "\n"
      out += indent
      value(of: block).write(to: &out, pretty: true, indent: Writer.pageIndent + 2)
    }
    out += "\n" + String(repeating: "  ", count: Writer.pageIndent + 1) + "]"
    let grown = out.utf8.count - start - empty.count
    out += shell[utf8.index(cut, offsetBy: empty.count)...]
    for key in keys where key != "blocks" {
      marks[key] = inShell[key].map {
        $0.shifted(by: base + ($0.lowerBound >= empty.upperBound ? grown : 0))
      }
    }
  }

  /// A page's members; its `blocks` an empty array when `blocks` is false.
  static func members(of page: Page, blocks: Bool = true) -> [String: JSONValue] {
    var o: [String: JSONValue] = [
      "index": int(page.index),
      "image": image(of: page),
      "width": int(page.width),
      "height": int(page.height),
      "dpi": page.dpi.map(int) ?? .null,
      "orientation": int(page.orientation),
      "skew": number(page.skew),
      "text": .string(page.text),
      "blocks": .array(blocks ? page.blocks.map(value(of:)) : []),
    ]
    if let language = page.language { o["language"] = .string(language) }
    if !page.preprocessing.isEmpty {
      o["preprocessing"] = .array(page.preprocessing.map(JSONValue.string))
    }
    if let crop = page.crop { o["crop"] = box(crop) }
    if let corners = page.perspective { o["perspective"] = quad(corners) }
    if let pdf = page.pdf { o["pdf"] = value(of: pdf) }
    if page.source != .ocr { o["source"] = .string(page.source.rawValue) }
    if let source = page.dpiSource { o["dpiSource"] = .string(source.rawValue) }
    if let tag = page.exifOrientation { o["exifOrientation"] = int(tag) }
    if !page.figures.isEmpty { o["figures"] = .array(page.figures.map(value(of:))) }
    return o
  }

  /// A figure: `{"bbox", "quad"?, "alt"?}`.
  static func value(of figure: Figure) -> JSONValue {
    var o: [String: JSONValue] = ["bbox": box(figure.bbox)]
    if let q = figure.quad { o["quad"] = quad(q) }
    if let alt = figure.alternativeText { o["alt"] = .string(alt) }
    return .object(o)
  }

  static func value(of pdf: PDFPageSource) -> JSONValue {
    // The map keeps six decimals (``ScanConventions/mapFractionDigits``).
    .object([
      "page": int(pdf.page), "size": .array([number(pdf.width), number(pdf.height)]),
      "pixelToPoint": .array(pdf.pixelToPoint.map { .number(ScanConventions.mapRounded($0)) }),
      "hasText": .bool(pdf.hasText), "nativeImage": .bool(pdf.nativeImage),
    ])
  }

  static func value(of block: Block) -> JSONValue {
    .object([
      "bbox": box(block.bbox), "range": range(block.range),
      "paragraphs": .array(block.paragraphs.map(value(of:))),
    ])
  }

  static func value(of paragraph: Paragraph) -> JSONValue {
    var object: [String: JSONValue] = [
      "bbox": box(paragraph.bbox), "range": range(paragraph.range),
      "role": .string(paragraph.role.rawValue),
      "lines": .array(paragraph.lines.map(value(of:))),
    ]
    // A list item's level is written when it is nested (1 is the default).
    if let level = paragraph.headingLevel ?? paragraph.listLevel.flatMap({ $0 > 1 ? $0 : nil }) {
      object["level"] = .number(Double(level))
    }
    if let cell = paragraph.cell {
      object["row"] = .number(Double(cell.row))
      object["column"] = .number(Double(cell.column))
      object["rowSpan"] = .number(Double(cell.rowSpan))
      object["columnSpan"] = .number(Double(cell.columnSpan))
      if cell.isHeader { object["header"] = .bool(true) }
    }
    return .object(object)
  }

  static func value(of line: TextLine) -> JSONValue {
    var o: [String: JSONValue] = [
      "bbox": box(line.bbox), "text": .string(line.text), "range": range(line.range),
      "baseline": line.baseline.map {
        .array([number($0.start.x), number($0.start.y), number($0.end.x), number($0.end.y)])
      } ?? .null,
      "words": .array(line.words.map(value(of:))),
    ]
    if let q = line.quad { o["quad"] = quad(q) }
    if let p = line.polygon { o["polygon"] = points(p) }
    return .object(o)
  }

  static func value(of word: Word) -> JSONValue {
    var o: [String: JSONValue] = [
      "bbox": box(word.bbox), "text": .string(word.text), "range": range(word.range),
      "confidence": word.confidence.map(number) ?? .null,
      "glyphs": .array(word.glyphs.map(value(of:))),
    ]
    if let q = word.quad { o["quad"] = quad(q) }
    return .object(o)
  }

  static func value(of glyph: Glyph) -> JSONValue {
    var o: [String: JSONValue] = [
      "bbox": box(glyph.bbox), "text": .string(glyph.text), "range": range(glyph.range),
      "confidence": glyph.confidence.map(number) ?? .null,
    ]
    if let q = glyph.quad { o["quad"] = quad(q) }
    return .object(o)
  }

  static func int(_ n: Int) -> JSONValue { .number(Double(n)) }

  /// A number rounded to two decimals.
  public static func number(_ x: Double) -> JSONValue { .number(rounded(x)) }

  /// Rounds to the precision of the format,
  /// ``ScanModel/ScanConventions/exportFractionDigits`` (two decimals).
  public static func rounded(_ x: Double) -> Double { ScanConventions.rounded(x) }

  /// A box as `[x0, y0, x1, y1]` integers.
  public static func box(_ r: PixelRect) -> JSONValue {
    .array([int(r.minX), int(r.minY), int(r.maxX), int(r.maxY)])
  }

  /// A fractional box as `[x0, y0, x1, y1]`, rounded to two decimals.
  public static func box(_ r: Rect) -> JSONValue {
    .array([number(r.minX), number(r.minY), number(r.maxX), number(r.maxY)])
  }

  /// A range as `[start, end]` UTF-16 offsets.
  public static func range(_ r: TextRange) -> JSONValue {
    .array([int(r.lowerBound.offset), int(r.upperBound.offset)])
  }

  /// A quad as four `[x, y]` points, rounded to two decimals.
  public static func quad(_ q: Quad) -> JSONValue { points(q.corners) }

  /// Points as `[x, y]` pairs, rounded to two decimals.
  public static func points(_ p: [Point]) -> JSONValue {
    .array(p.map { .array([number($0.x), number($0.y)]) })
  }
}

extension Range<Int> {
  /// The range moved by `offset`.
  fileprivate func shifted(by offset: Int) -> Range<Int> {
    (lowerBound + offset)..<(upperBound + offset)
  }
}
