import Foundation
import ScanModel

extension DocumentJSON {
  /// Reads a ScanText JSON document.
  ///
  /// The page text and every range are rebuilt from the element tree and
  /// checked against the ones in the file, so a decoded document is always
  /// consistent. Confidences, glyphs, baselines, quads, `dpi`, `image`,
  /// `orientation`, `skew` and `language` are optional (ground truth often
  /// has none of them).
  /// - Throws: ``DocumentFormatError`` naming the JSON path and the reason,
  ///   or ``JSONParseError`` for text that is not JSON.
  public static func decode(_ text: String) throws -> Document {
    try decode(JSONValue(parsing: text))
  }

  /// Reads a ScanText JSON document from its bytes (UTF-8), as
  /// ``DocumentFormat/decode(_:)`` does for ``DocumentFormat/json``.
  /// - Throws: ``DocumentFormatError`` naming the JSON path and the reason,
  ///   or ``JSONParseError`` for bytes that are not JSON.
  public static func decode(_ data: Data) throws -> Document {
    let value = try data.withUnsafeBytes { raw throws(JSONParseError) in
      try JSONValue(parsing: raw.bindMemory(to: UInt8.self))
    }
    return try decode(value)
  }

  /// Reads a ScanText JSON document from a parsed value.
  public static func decode(_ value: JSONValue) throws(DocumentFormatError) -> Document {
    var reader = Reader()
    return try reader.document(value)
  }

  /// Reads page `index` of a document from its parsed value (an item of
  /// `pages`); errors name it `pages[index]`.
  static func decodePage(_ value: JSONValue, index: Int) throws(DocumentFormatError) -> Page {
    var reader = Reader()
    reader.path = ["pages[\(index)]"]
    return try reader.page(value, index: index)
  }

  /// Reads the `generator` object of a document, if any.
  public static func generator(of value: JSONValue) -> Generator? {
    guard case .object(let o)? = value["generator"] else { return nil }
    var details: [String: String] = [:]
    for (k, v) in o where k != "name" && k != "version" { details[k] = v.stringValue }
    return Generator(
      name: o["name"]?.stringValue ?? "", version: o["version"]?.stringValue ?? "",
      details: details)
  }
}

private struct Reader {
  var path: [String] = []

  /// Coordinates beyond ``ScanConventions/coordinateLimit`` are refused.
  static let coordinateLimit = ScanConventions.coordinateLimit

  func fail(_ reason: String) -> DocumentFormatError {
    DocumentFormatError(path: path.joined(), reason: reason)
  }

  func object(_ v: JSONValue) throws(DocumentFormatError) -> [String: JSONValue] {
    guard case .object(let o) = v else { throw fail("expected an object") }
    return o
  }

  func member(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError) -> JSONValue {
    guard let v = o[key] else { throw fail("missing key '\(key)'") }
    return v
  }

  func int(_ v: JSONValue, _ key: String) throws(DocumentFormatError) -> Int {
    guard let n = v.intValue else { throw fail("'\(key)' must be an integer") }
    return n
  }

  func string(_ v: JSONValue, _ key: String) throws(DocumentFormatError) -> String {
    guard let s = v.stringValue else { throw fail("'\(key)' must be a string") }
    return s
  }

  func optionalInt(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError) -> Int? {
    guard let v = o[key], v != .null else { return nil }
    return try int(v, key)
  }

  func optionalString(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError)
    -> String?
  {
    guard let v = o[key], v != .null else { return nil }
    return try string(v, key)
  }

  func optionalBool(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError) -> Bool? {
    guard let v = o[key], v != .null else { return nil }
    guard case .bool(let b) = v else { throw fail("'\(key)' must be true or false") }
    return b
  }

  func optionalDouble(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError)
    -> Double?
  {
    guard let v = o[key], v != .null else { return nil }
    guard let d = v.doubleValue, d.isFinite else { throw fail("'\(key)' must be a number") }
    return d
  }

  /// A recognition confidence: a number from 0 to 100, as the model
  /// documents it (``Word/confidence``), or `nil` when absent.
  func confidence(_ o: [String: JSONValue]) throws(DocumentFormatError) -> Double? {
    guard let c = try optionalDouble(o, "confidence") else { return nil }
    guard (0...100).contains(c) else { throw fail("'confidence' must be a number from 0 to 100") }
    return c
  }

  func numbers(_ v: JSONValue, _ key: String, count: Int) throws(DocumentFormatError) -> [Double] {
    guard let a = v.arrayValue, a.count == count else {
      throw fail("'\(key)' must be an array of \(count) numbers")
    }
    var out: [Double] = []
    for x in a {
      guard let d = x.doubleValue else {
        throw fail("'\(key)' must be an array of \(count) numbers")
      }
      guard d.isFinite, abs(d) <= Double(Self.coordinateLimit) else {
        throw fail("'\(key)' has a coordinate beyond ±\(Self.coordinateLimit)")
      }
      out.append(d)
    }
    return out
  }

  func box(_ o: [String: JSONValue], _ key: String = "bbox") throws(DocumentFormatError)
    -> PixelRect
  {
    let v = try member(o, key)
    guard let a = v.arrayValue, a.count == 4, a.allSatisfy({ $0.intValue != nil }) else {
      throw fail("'\(key)' must be [x0, y0, x1, y1] integers")
    }
    let n = a.compactMap(\.intValue)
    guard n.allSatisfy({ abs($0) <= Self.coordinateLimit }) else {
      throw fail("'\(key)' \(n) has a coordinate beyond ±\(Self.coordinateLimit)")
    }
    guard n[0] <= n[2], n[1] <= n[3] else { throw fail("'\(key)' \(n) has x1 < x0 or y1 < y0") }
    return PixelRect(minX: n[0], minY: n[1], maxX: n[2], maxY: n[3])
  }

  func quad(_ o: [String: JSONValue], _ key: String = "quad") throws(DocumentFormatError) -> Quad? {
    guard let v = o[key], v != .null else { return nil }
    guard let a = v.arrayValue, a.count == 4 else {
      throw fail("'\(key)' must be four [x, y] points")
    }
    var points: [Point] = []
    for p in a {
      let xy = try numbers(p, key, count: 2)
      points.append(Point(x: xy[0], y: xy[1]))
    }
    return Quad(
      topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
  }

  /// A curved line's polygon: an even number of `[x, y]` points, at least
  /// four, within the coordinate limit.
  func polygon(_ o: [String: JSONValue]) throws(DocumentFormatError) -> [Point]? {
    let key = "polygon"
    guard let v = o[key], v != .null else { return nil }
    guard let a = v.arrayValue, a.count >= 4, a.count % 2 == 0 else {
      throw fail("'\(key)' must be an even number of [x, y] points, at least four")
    }
    var points: [Point] = []
    for p in a {
      let xy = try numbers(p, key, count: 2)
      points.append(Point(x: xy[0], y: xy[1]))
    }
    guard TextLine.isLinePolygon(points) else {
      throw fail(
        "'\(key)' must run along the line's top edge, then back along its bottom edge")
    }
    return points
  }

  /// The array under `key`. Page drops lines without words, paragraphs
  /// without lines and blocks without paragraphs, so those arrays must not be
  /// empty (`nonEmpty`): `check` pairs the JSON with the page by index.
  func items(
    _ o: [String: JSONValue], _ key: String, optional: Bool = false, nonEmpty: Bool = false
  )
    throws(DocumentFormatError) -> [JSONValue]
  {
    guard let v = o[key], v != .null else {
      if optional { return [] }
      throw fail("missing key '\(key)'")
    }
    guard let a = v.arrayValue else { throw fail("'\(key)' must be an array") }
    if nonEmpty, a.isEmpty { throw fail("'\(key)' must not be empty") }
    return a
  }

  mutating func document(_ v: JSONValue) throws(DocumentFormatError) -> Document {
    let o = try object(v)
    let version = try int(member(o, "version"), "version")
    guard version == DocumentJSON.version else {
      throw fail("unsupported version \(version) (this tool reads version \(DocumentJSON.version))")
    }
    var pages: [Page] = []
    for (i, p) in try items(o, "pages").enumerated() {
      path = ["pages[\(i)]"]
      pages.append(try page(p, index: i))
    }
    return Document(pages: pages)
  }

  /// A paragraph's `role` (`body` when absent) and a heading's or a list
  /// item's `level`.
  func paragraphRole(_ o: [String: JSONValue]) throws(DocumentFormatError) -> (
    ParagraphRole, Int?
  ) {
    guard let name = try optionalString(o, "role") else {
      if o["level"] != nil { throw fail("\"level\" without \"role\": \"heading\"") }
      return (.body, nil)
    }
    guard let role = ParagraphRole(rawValue: name) else {
      let known = ParagraphRole.allCases.map(\.rawValue).joined(separator: ", ")
      throw fail("unknown role \"\(name)\" (known: \(known))")
    }
    let level = try optionalInt(o, "level")
    if let level {
      switch role {
      case .heading:
        guard (1...6).contains(level) else { throw fail("heading level \(level) is not 1-6") }
      case .listItem:
        guard (1...Paragraph.maximumListLevel).contains(level) else {
          throw fail("list level \(level) is not 1-\(Paragraph.maximumListLevel)")
        }
      default: throw fail("\"level\" is only for headings and list items")
      }
    }
    return (role, role == .heading ? level ?? 1 : role == .listItem ? level : nil)
  }

  /// A table cell's `row`, `column`, `rowSpan`, `columnSpan` and `header`
  /// (``TableCellPosition``): `nil` when the paragraph has none; only for
  /// role `tableCell`, `row` and `column` together, spans 1 and `header`
  /// false when absent.
  func cellPosition(_ o: [String: JSONValue], role: ParagraphRole) throws(DocumentFormatError)
    -> TableCellPosition?
  {
    let row = try optionalInt(o, "row")
    let column = try optionalInt(o, "column")
    let rowSpan = try optionalInt(o, "rowSpan")
    let columnSpan = try optionalInt(o, "columnSpan")
    let header = try optionalBool(o, "header")
    guard row != nil || column != nil || rowSpan != nil || columnSpan != nil || header != nil
    else { return nil }
    guard role == .tableCell else {
      throw fail("\"row\", \"column\" and their spans are only for role \"tableCell\"")
    }
    guard let row, let column else { throw fail("a table cell needs both \"row\" and \"column\"") }
    guard row >= 0, column >= 0 else { throw fail("a table cell's row and column count from 0") }
    guard (rowSpan ?? 1) >= 1, (columnSpan ?? 1) >= 1 else {
      throw fail("a table cell spans at least 1 row and 1 column")
    }
    return TableCellPosition(
      row: row, column: column, rowSpan: rowSpan ?? 1, columnSpan: columnSpan ?? 1,
      isHeader: header ?? false)
  }

  mutating func page(_ v: JSONValue, index: Int) throws(DocumentFormatError) -> Page {
    let o = try object(v)
    var blocks: [Block] = []
    for (b, bv) in try items(o, "blocks").enumerated() {
      path.append(".blocks[\(b)]")
      let bo = try object(bv)
      var paragraphs: [Paragraph] = []
      for (p, pv) in try items(bo, "paragraphs", nonEmpty: true).enumerated() {
        path.append(".paragraphs[\(p)]")
        let po = try object(pv)
        let lineValues = try items(po, "lines", nonEmpty: true)
        var lines: [TextLine] = []
        lines.reserveCapacity(lineValues.count)
        for (l, lv) in lineValues.enumerated() {
          path.append(".lines[\(l)]")
          lines.append(try line(lv))
          path.removeLast()
        }
        let (role, level) = try paragraphRole(po)
        paragraphs.append(
          Paragraph(
            bbox: try box(po), lines: lines, role: role, headingLevel: level,
            cell: try cellPosition(po, role: role), listLevel: level))
        path.removeLast()
      }
      blocks.append(Block(bbox: try box(bo), paragraphs: paragraphs))
      path.removeLast()
    }
    // The page is built once, with all its provenance; the text is checked
    // against the built page's (a bad provenance field is told first).
    let crop: PixelRect? =
      if let v = o["crop"], v != .null { try box(o, "crop") } else { nil }
    let page = Page(
      index: try o["index"].map { v throws(DocumentFormatError) in try int(v, "index") } ?? index,
      image: try optionalString(o, "image"),
      width: try dimension(o, "width"),
      height: try dimension(o, "height"),
      dpi: try optionalInt(o, "dpi"),
      orientation: try orientation(o),
      skew: try optionalDouble(o, "skew") ?? 0,
      language: try optionalString(o, "language"),
      blocks: blocks, steps: try preprocessingSteps(o), crop: crop,
      perspective: try quad(o, "perspective"), pdf: try pdfSource(o), source: try textSource(o),
      dpiSource: try resolutionSource(o), exifOrientation: try exifOrientation(o),
      figures: try figures(o))
    try check(page, against: o)
    return try ModelLimits.checked(page, name: "pages[\(index)]")
  }

  /// The optional `"source"` of a page: `ocr` (the default) or `pdf-text`.
  func textSource(_ o: [String: JSONValue]) throws(DocumentFormatError) -> PageTextSource {
    guard let v = o["source"], v != .null else { return .ocr }
    guard case .string(let s) = v, let source = PageTextSource(rawValue: s) else {
      throw fail(
        "'source' must be one of \(PageTextSource.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    return source
  }

  /// The optional `"dpiSource"` of a page.
  func resolutionSource(_ o: [String: JSONValue]) throws(DocumentFormatError) -> ResolutionSource? {
    guard let v = o["dpiSource"], v != .null else { return nil }
    guard case .string(let s) = v, let source = ResolutionSource(rawValue: s) else {
      throw fail(
        "'dpiSource' must be one of \(ResolutionSource.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    return source
  }

  /// The optional `"figures"` of a page: each `{"bbox", "quad"?, "alt"?}`
  /// (``ScanModel/Figure``); none when absent (older documents).
  mutating func figures(_ o: [String: JSONValue]) throws(DocumentFormatError) -> [Figure] {
    var out: [Figure] = []
    for (k, v) in try items(o, "figures", optional: true).enumerated() {
      path.append(".figures[\(k)]")
      let f = try object(v)
      out.append(
        Figure(bbox: try box(f), quad: try quad(f), alternativeText: try optionalString(f, "alt")))
      path.removeLast()
    }
    return out
  }

  /// The optional `"exifOrientation"` of a page: 1–8.
  func exifOrientation(_ o: [String: JSONValue]) throws(DocumentFormatError) -> Int? {
    guard let n = try optionalInt(o, "exifOrientation") else { return nil }
    guard (1...8).contains(n) else { throw fail("'exifOrientation' must be between 1 and 8") }
    return n
  }

  /// The optional `"pdf"` object of a page.
  mutating func pdfSource(_ o: [String: JSONValue]) throws(DocumentFormatError) -> PDFPageSource? {
    guard let v = o["pdf"], v != .null else { return nil }
    path.append(".pdf")
    defer { path.removeLast() }
    let p = try object(v)
    let number = try int(member(p, "page"), "page")
    guard number >= 1 else { throw fail("'page' must be 1 or more") }
    let size = try numbers(member(p, "size"), "size", count: 2)
    guard size.allSatisfy({ ScanConventions.rounded($0) > 0 }) else {
      throw fail("'size' must be positive (0.01 or more)")
    }
    let map = try numbers(member(p, "pixelToPoint"), "pixelToPoint", count: 6)
    func flag(_ key: String) throws(DocumentFormatError) -> Bool {
      guard let v = p[key], v != .null else { return false }
      guard case .bool(let b) = v else { throw fail("'\(key)' must be true or false") }
      return b
    }
    return PDFPageSource(
      page: number, width: size[0], height: size[1], pixelToPoint: map,
      hasText: try flag("hasText"), nativeImage: try flag("nativeImage"))
  }

  /// The optional `"preprocessing"` list of a page: strings, each a step's
  /// record as ``ScanModel/StepRecord/recorded`` writes it (its step and
  /// decision; a document keeps no measurement or time). A step's name
  /// this build has no step for (a later ScanText's) is kept.
  func preprocessingSteps(_ o: [String: JSONValue]) throws(DocumentFormatError) -> [StepRecord] {
    guard let v = o["preprocessing"], v != .null else { return [] }
    guard case .array(let items) = v else { throw fail("'preprocessing' must be an array") }
    var steps: [StepRecord] = []
    for item in items {
      guard case .string(let recorded) = item else {
        throw fail("'preprocessing' must hold strings")
      }
      guard let step = StepRecord(recorded: recorded) else {
        throw fail(
          "'preprocessing' holds \"\(recorded)\", which is no preprocessing step's record")
      }
      steps.append(step)
    }
    return steps
  }

  func dimension(_ o: [String: JSONValue], _ key: String) throws(DocumentFormatError) -> Int {
    let n = try int(member(o, key), key)
    guard (0...Self.coordinateLimit).contains(n) else {
      throw fail("'\(key)' must be between 0 and \(Self.coordinateLimit)")
    }
    return n
  }

  func orientation(_ o: [String: JSONValue]) throws(DocumentFormatError) -> Int {
    let n = try optionalInt(o, "orientation") ?? 0
    guard [0, 90, 180, 270].contains(n) else {
      throw fail("'orientation' must be 0, 90, 180 or 270")
    }
    return n
  }

  mutating func line(_ v: JSONValue) throws(DocumentFormatError) -> TextLine {
    let o = try object(v)
    // Reserved at their counts: the page keeps these arrays as they are
    // (its text builder changes them in place), spare capacity and all.
    let wordValues = try items(o, "words", nonEmpty: true)
    var words: [Word] = []
    words.reserveCapacity(wordValues.count)
    for (w, wv) in wordValues.enumerated() {
      path.append(".words[\(w)]")
      let wo = try object(wv)
      let glyphValues = try items(wo, "glyphs", optional: true)
      var glyphs: [Glyph] = []
      glyphs.reserveCapacity(glyphValues.count)
      for (g, gv) in glyphValues.enumerated() {
        path.append(".glyphs[\(g)]")
        let go = try object(gv)
        glyphs.append(
          Glyph(
            text: try string(member(go, "text"), "text"), bbox: try box(go), quad: try quad(go),
            confidence: try confidence(go)))
        path.removeLast()
      }
      words.append(
        Word(
          text: try string(member(wo, "text"), "text"), bbox: try box(wo), quad: try quad(wo),
          confidence: try confidence(wo), glyphs: glyphs))
      path.removeLast()
    }
    var baseline: Baseline?
    if let b = o["baseline"], b != .null {
      let n = try numbers(b, "baseline", count: 4)
      baseline = Baseline(start: Point(x: n[0], y: n[1]), end: Point(x: n[2], y: n[3]))
    }
    return TextLine(
      bbox: try box(o), quad: try quad(o), polygon: try polygon(o), baseline: baseline,
      words: words)
  }

  /// Checks the file's text and ranges against the ones rebuilt from the tree.
  mutating func check(_ page: Page, against o: [String: JSONValue]) throws(DocumentFormatError) {
    if let t = o["text"], t != .null {
      guard let s = t.stringValue else { throw fail("'text' must be a string") }
      // UTF-16 equality: ranges count code units, so canonical equivalence is not enough.
      guard s.utf16.elementsEqual(page.text.utf16) else {
        throw fail("'text' does not match the words joined as Tesseract joins them")
      }
    }
    let blocks = (try? items(o, "blocks")) ?? []
    for (b, block) in page.blocks.enumerated() where b < blocks.count {
      let bo = blocks[b]
      path.append(".blocks[\(b)]")
      try checkRange(bo, block.range)
      for (p, paragraph) in block.paragraphs.enumerated() {
        let po = bo["paragraphs"]?.arrayValue?[p] ?? .null
        path.append(".paragraphs[\(p)]")
        try checkRange(po, paragraph.range)
        for (l, line) in paragraph.lines.enumerated() {
          let lo = po["lines"]?.arrayValue?[l] ?? .null
          path.append(".lines[\(l)]")
          try checkRange(lo, line.range)
          if let t = lo["text"]?.stringValue, !t.utf16.elementsEqual(line.text.utf16) {
            throw fail("'text' \"\(t)\" does not match its words \"\(line.text)\"")
          }
          for (w, word) in line.words.enumerated() {
            let wo = lo["words"]?.arrayValue?[w] ?? .null
            path.append(".words[\(w)]")
            try checkRange(wo, word.range)
            for (g, glyph) in word.glyphs.enumerated() {
              path.append(".glyphs[\(g)]")
              try checkRange(wo["glyphs"]?.arrayValue?[g] ?? .null, glyph.range)
              path.removeLast()
            }
            path.removeLast()
          }
          path.removeLast()
        }
        path.removeLast()
      }
      path.removeLast()
    }
  }

  func checkRange(_ v: JSONValue, _ expected: TextRange) throws(DocumentFormatError) {
    guard let r = v["range"], r != .null else { return }
    guard let a = r.arrayValue, a.count == 2, let s = a[0].intValue, let e = a[1].intValue else {
      throw fail("'range' must be [start, end] integers")
    }
    guard s == expected.lowerBound.offset, e == expected.upperBound.offset else {
      throw fail(
        "'range' [\(s), \(e)] does not match the page text (expected [\(expected.lowerBound.offset), \(expected.upperBound.offset)])"
      )
    }
  }
}
