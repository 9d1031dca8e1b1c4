import Foundation
import ScanModel

/// hOCR 1.2 (XHTML), as Tesseract writes it.
///
/// Pages are `ocr_page`, blocks `ocr_carea`, paragraphs `ocr_par`, lines
/// `ocr_line`, words `ocrx_word` and glyphs `ocrx_cinfo`. Properties:
/// `bbox` (exclusive max, as the model), `baseline` (slope and offset from
/// the line box's bottom-left corner), `x_size`, `x_wconf` (word confidence
/// rounded to a whole percent), `x_conf` and `x_bboxes` (glyphs), `poly`
/// (the quad of a tilted or turned element, or a curved line's polygon,
/// read back as one when it has that shape; in whole pixels), `image`,
/// `ppageno` and `scan_res` on pages; `lang` on paragraphs.
///
/// Roles: a line's class says what Tesseract's hOCR says of its block
/// (``lineClass(for:)``: `ocr_header` for a heading, `ocr_caption`,
/// `ocr_textfloat` for marginalia, `ocr_line` otherwise), so every reader
/// of Tesseract's hOCR finds every line; the paragraph's exact role (and a
/// heading's level) is ScanText's own `x_role` property of the `ocr_par`.
public enum HOCR {
  /// The document as hOCR text (``DocumentWriter`` writes it page by
  /// page).
  public static func encode(_ document: Document, generator: Generator) -> String {
    var writer = Writer(generator: generator)
    let pages = document.pages.map { writer.page($0) }.joined()
    return writer.head + pages + writer.tail()
  }

  /// hOCR written page by page: the head, then one `ocr_page` after
  /// another.
  struct Writer {
    /// The text before the first page.
    let head: String
    /// Writes the pages inside `<html><body>`.
    private var body: XMLWriter

    init(generator: Generator) {
      var w = XMLWriter(indent: " ")
      w.raw(
        """
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
            "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">

        """)
      w.start(
        "html", [("xmlns", "http://www.w3.org/1999/xhtml"), ("xml:lang", "en"), ("lang", "en")])
      w.start("head")
      w.leaf("title", text: "")
      w.empty("meta", [("http-equiv", "Content-Type"), ("content", "text/html;charset=utf-8")])
      w.empty(
        "meta", [("name", "ocr-system"), ("content", "\(generator.name) \(generator.version)")])
      w.empty(
        "meta",
        [
          ("name", "ocr-capabilities"),
          (
            "content",
            "ocr_page ocr_carea ocr_par ocr_line ocr_header ocr_caption ocr_textfloat ocrx_word ocrp_wconf ocrx_cinfo"
          ),
        ])
      w.end()
      w.start("body")
      head = w.take()
      body = w
    }

    /// A page's `ocr_page`.
    mutating func page(_ page: Page) -> String {
      HOCR.write(page, to: &body)
      return body.take()
    }

    /// The text after the last page.
    mutating func tail() -> String {
      body.end()
      body.end()
      return body.take()
    }
  }

  /// The class of a line of a paragraph with `role`: one of the four
  /// Tesseract writes (and readers such as OCRmyPDF take as lines).
  /// `ocr_header` is Tesseract's class for heading text (the hOCR
  /// specification also uses it for a running head, which here is an
  /// `ocr_line` of an `x_role header` paragraph).
  public static func lineClass(for role: ParagraphRole) -> String {
    switch role {
    case .heading: "ocr_header"
    case .caption: "ocr_caption"
    case .marginalia: "ocr_textfloat"
    default: "ocr_line"
    }
  }

  /// The role a class gives the lines it holds when no `x_role` says
  /// otherwise: ``lineClass(for:)`` read back, and the hOCR
  /// specification's `ocr_footer` and `ocr_pageno`.
  static func role(ofClass name: Substring) -> ParagraphRole? {
    switch name {
    case "ocr_header": .heading
    case "ocr_caption": .caption
    case "ocr_textfloat": .marginalia
    case "ocr_footer": .footer
    case "ocr_pageno": .pageNumber
    default: nil
    }
  }

  /// The `x_role` property of a paragraph: its role's name, and a
  /// heading's level (`x_role heading 2`).
  static func roleProperty(_ paragraph: Paragraph) -> String {
    "x_role " + paragraph.role.rawValue + (paragraph.headingLevel.map { " \($0)" } ?? "")
  }

  private static func bbox(_ r: PixelRect) -> String {
    "bbox \(r.minX) \(r.minY) \(r.maxX) \(r.maxY)"
  }

  /// The `poly` of an element with a quad (whole pixels: the box's corners
  /// when the rounded quad has no area, ``FormatNumbers/wholeCorners(_:box:)``).
  private static func poly(_ q: Quad?, box: PixelRect) -> String? {
    guard q != nil else { return nil }
    return poly(FormatNumbers.wholeCorners(q, box: box))
  }

  private static func poly(_ points: [Point]) -> String {
    "poly "
      + points.map { "\(FormatNumbers.whole($0.x)) \(FormatNumbers.whole($0.y))" }
      .joined(separator: " ")
  }

  private static func title(_ parts: [String?]) -> String {
    parts.compactMap { $0 }.joined(separator: "; ")
  }

  /// A file name as an hOCR string: quotes and semicolons cannot be escaped
  /// inside a `title`, so they become underscores.
  private static func quoted(_ name: String) -> String {
    "\"" + String(name.map { $0 == "\"" || $0 == ";" ? "_" : $0 }) + "\""
  }

  private static func write(_ page: Page, to w: inout XMLWriter) {
    let p = page.index + 1
    let pageBox = PixelRect(minX: 0, minY: 0, maxX: page.width, maxY: page.height)
    w.start(
      "div",
      [
        ("class", "ocr_page"), ("id", "page_\(p)"), ("lang", page.language),
        (
          "title",
          title([
            page.image.map { "image " + quoted($0) }, bbox(pageBox), "ppageno \(page.index)",
            page.dpi.map { "scan_res \($0) \($0)" },
            page.orientation != 0 ? "x_orientation \(page.orientation)" : nil,
            page.skew != 0 ? "x_skew " + FormatNumbers.decimal(page.skew) : nil,
          ])
        ),
      ])
    var blockNumber = 0
    var paragraphNumber = 0
    var lineNumber = 0
    var wordNumber = 0
    for block in page.blocks {
      blockNumber += 1
      w.start(
        "div",
        [("class", "ocr_carea"), ("id", "block_\(p)_\(blockNumber)"), ("title", bbox(block.bbox))])
      for paragraph in block.paragraphs {
        paragraphNumber += 1
        w.start(
          "p",
          [
            ("class", "ocr_par"), ("id", "par_\(p)_\(paragraphNumber)"), ("lang", page.language),
            ("title", title([bbox(paragraph.bbox), roleProperty(paragraph)])),
          ])
        for line in paragraph.lines {
          lineNumber += 1
          w.start(
            "span",
            [
              ("class", lineClass(for: paragraph.role)), ("id", "line_\(p)_\(lineNumber)"),
              (
                "title",
                title([
                  bbox(line.bbox), line.baseline.map { baseline($0, in: line.bbox) },
                  "x_size \(line.bbox.height)",
                  line.polygon.map(poly) ?? poly(line.quad, box: line.bbox),
                ])
              ),
            ])
          for word in line.words {
            wordNumber += 1
            writeWord(word, id: "word_\(p)_\(wordNumber)", to: &w)
          }
          w.end()
        }
        w.end()
      }
      w.end()
    }
    w.end()
  }

  private static func writeWord(_ word: Word, id: String, to w: inout XMLWriter) {
    let attributes: [(String, String?)] = [
      ("class", "ocrx_word"), ("id", id),
      (
        "title",
        title([
          bbox(word.bbox), word.confidence.map { "x_wconf \(FormatNumbers.percent($0))" },
          poly(word.quad, box: word.bbox),
        ])
      ),
    ]
    // Glyphs only when they spell the word: the word's text is their text.
    let spelled = !word.glyphs.isEmpty && word.glyphs.map(\.text).joined() == word.text
    guard spelled else {
      w.leaf("span", attributes, text: word.text)
      return
    }
    var line = "<span" + XMLWriter.attributes(attributes) + ">"
    for glyph in word.glyphs {
      let t = title([
        "x_bboxes \(glyph.bbox.minX) \(glyph.bbox.minY) \(glyph.bbox.maxX) \(glyph.bbox.maxY)",
        glyph.confidence.map { "x_conf " + FormatNumbers.decimal($0) },
        poly(glyph.quad, box: glyph.bbox),
      ])
      line +=
        "<span" + XMLWriter.attributes([("class", "ocrx_cinfo"), ("title", t)]) + ">"
        + XMLWriter.escape(glyph.text) + "</span>"
    }
    line += "</span>"
    w.raw(String(repeating: " ", count: 6) + line + "\n")
  }

  /// hOCR's `baseline slope offset`: the offset is from the bottom of the
  /// line box at its left edge.
  private static func baseline(_ b: Baseline, in box: PixelRect) -> String {
    let run = b.end.x - b.start.x
    let slope = run != 0 ? (b.end.y - b.start.y) / run : 0
    let yAtLeft = b.start.y + slope * (Double(box.minX) - b.start.x)
    return "baseline " + FormatNumbers.decimal(slope, digits: 3) + " "
      + FormatNumbers.decimal(yAtLeft - Double(box.maxY))
  }
}

// MARK: - Reading

extension HOCR {
  /// Reads an hOCR document (XHTML; HTML that is not well-formed XML is
  /// refused).
  ///
  /// Lines are `ocr_line`, `ocrx_line`, `ocr_header`, `ocr_caption` and
  /// `ocr_textfloat`; their nearest `ocr_par` and `ocr_carea` ancestors
  /// make paragraphs and blocks (one of each is made up where they are
  /// missing). A line without `ocrx_word` elements gets one word per run
  /// of its text, sharing its box. A paragraph's role is its `x_role`,
  /// else the one its first line's class, or the nearest ancestor's,
  /// names (``lineClass(for:)``; `ocr_footer` and `ocr_pageno` too), else
  /// running text.
  /// - Throws: ``DocumentFormatError`` naming the element path and the reason.
  public static func decode(_ data: Data) throws(DocumentFormatError) -> Document {
    let tree = try XMLTree(data: data)
    var pages: [XMLTree.Element] = []
    collect(tree.root, classes: ["ocr_page"], into: &pages)
    guard !pages.isEmpty else {
      throw tree.root.error("no element of class 'ocr_page': not an hOCR document")
    }
    var out: [Page] = []
    for (i, element) in pages.enumerated() {
      out.append(try ModelLimits.checked(page(element, index: i), name: "page \(i + 1)"))
    }
    return Document(pages: out)
  }

  static let lineClasses: Set<String> = [
    "ocr_line", "ocrx_line", "ocr_header", "ocr_caption", "ocr_textfloat",
  ]

  static func classes(_ e: XMLTree.Element) -> [Substring] {
    (e.attributes["class"] ?? "").split(whereSeparator: \.isWhitespace)
  }

  static func has(_ e: XMLTree.Element, _ names: Set<String>) -> Bool {
    classes(e).contains { names.contains(String($0)) }
  }

  /// Elements of the given classes under `e` (not inside one another).
  static func collect(_ e: XMLTree.Element, classes: Set<String>, into out: inout [XMLTree.Element])
  {
    if has(e, classes) {
      out.append(e)
      return
    }
    for c in e.children { collect(c, classes: classes, into: &out) }
  }

  /// The `title` properties: `bbox 1 2 3 4; x_wconf 90` → ["bbox": "1 2 3 4", …].
  static func properties(_ e: XMLTree.Element) -> [String: String] {
    var out: [String: String] = [:]
    for part in (e.attributes["title"] ?? "").split(separator: ";") {
      let trimmed = part.trimmingWhitespace
      guard !trimmed.isEmpty else { continue }
      let key = trimmed.prefix { !$0.isWhitespace }
      out[String(key)] = String(trimmed.dropFirst(key.count)).trimmingWhitespace
    }
    return out
  }

  /// The numbers of a property's value; `nil` when one is not a number or
  /// lies beyond ``ImportGeometry/coordinateLimit`` (no hOCR number, a
  /// coordinate, a resolution or a confidence, is that large; a larger one
  /// would not even fit a pixel coordinate).
  static func numbers(_ raw: String) -> [Double]? {
    let parts = raw.split(whereSeparator: \.isWhitespace)
    var out: [Double] = []
    for p in parts {
      guard let d = Double(p), d.isFinite, abs(d) <= ImportGeometry.coordinateLimit else {
        return nil
      }
      out.append(d)
    }
    return out
  }

  static func box(_ e: XMLTree.Element, key: String = "bbox") throws(DocumentFormatError)
    -> PixelRect?
  {
    guard let raw = properties(e)[key] else { return nil }
    guard let n = numbers(raw), n.count == 4 else {
      throw e.error(
        "'\(key)' must be four numbers x0 y0 x1 y1 within ±\(Int(ImportGeometry.coordinateLimit)), not \"\(raw)\""
      )
    }
    let r = PixelRect(
      minX: Int(n[0].rounded(.down)), minY: Int(n[1].rounded(.down)),
      maxX: Int(n[2].rounded(.up)), maxY: Int(n[3].rounded(.up)))
    return try ImportGeometry.checked(r, e)
  }

  static func quad(_ e: XMLTree.Element, turned: Bool) throws(DocumentFormatError) -> Quad? {
    guard let raw = properties(e)["poly"] else { return nil }
    guard let n = numbers(raw), n.count >= 6, n.count % 2 == 0 else {
      throw e.error(
        "'poly' must be pairs of numbers within ±\(Int(ImportGeometry.coordinateLimit)), not \"\(raw)\""
      )
    }
    let points = stride(from: 0, to: n.count, by: 2).map { Point(x: n[$0], y: n[$0 + 1]) }
    return ImportGeometry.quad(of: points, turned: turned)
  }

  static func polyBox(_ e: XMLTree.Element) throws(DocumentFormatError) -> PixelRect? {
    guard let raw = properties(e)["poly"], let n = numbers(raw), n.count >= 6, n.count % 2 == 0
    else { return nil }
    let points = stride(from: 0, to: n.count, by: 2).map { Point(x: n[$0], y: n[$0 + 1]) }
    return try ImportGeometry.checked(ImportGeometry.box(of: points), e)
  }

  static func boxOrPoly(_ e: XMLTree.Element) throws(DocumentFormatError) -> PixelRect? {
    if let b = try box(e) { return b }
    return try polyBox(e)
  }

  static func page(_ e: XMLTree.Element, index: Int) throws(DocumentFormatError) -> Page {
    let props = properties(e)
    guard let pageBox = try box(e) else { throw e.error("the page has no 'bbox'") }
    var image: String?
    if let raw = props["image"] {
      var name = raw.trimmingWhitespace
      if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 {
        name = String(name.dropFirst().dropLast())
      }
      image = name.split(separator: "/").last.map(String.init)
    }
    var dpi: Int?
    if let raw = props["scan_res"] {
      guard let n = numbers(raw), let first = n.first, first > 0,
        first <= Double(ModelLimits.resolutions.upperBound)
      else {
        throw e.error("'scan_res' must be a positive number, not \"\(raw)\"")
      }
      dpi = Int(first.rounded())
    }
    var turn = 0.0
    for key in ["x_orientation", "x_skew"] {
      guard let raw = props[key] else { continue }
      guard let n = numbers(raw), n.count == 1 else {
        throw e.error("'\(key)' must be a number, not \"\(raw)\"")
      }
      turn += n[0]
    }
    let (orientation, skew) = ImportGeometry.orientationAndSkew(turn)
    let turned = orientation != 0 || skew != 0
    var lineElements: [XMLTree.Element] = []
    collect(e, classes: lineClasses, into: &lineElements)
    // Ancestors by identity: the parser gives each element one object.
    var parents:
      [ObjectIdentifier: (block: XMLTree.Element?, par: XMLTree.Element?, role: ParagraphRole?)] =
        [:]
    func mark(
      _ node: XMLTree.Element, block: XMLTree.Element?, par: XMLTree.Element?, role: ParagraphRole?
    ) {
      var block = block
      var par = par
      let own = classes(node).lazy.compactMap(HOCR.role(ofClass:)).first
      let role = own ?? role
      // The specification's floats (ocr_footer, ocr_pageno…) are areas.
      if has(node, ["ocr_carea", "ocrx_block"]) || (own != nil && !has(node, lineClasses)) {
        block = node
        par = nil
      }
      if has(node, ["ocr_par"]) { par = node }
      if has(node, lineClasses) {
        parents[ObjectIdentifier(node)] = (block, par, role)
        return
      }
      for c in node.children { mark(c, block: block, par: par, role: role) }
    }
    mark(e, block: nil, par: nil, role: nil)

    var language = e.attributes["lang"]
    var blocks: [Block] = []
    var paragraphs: [Paragraph] = []
    var lines: [TextLine] = []
    var currentBlock: ObjectIdentifier?
    var currentPar: ObjectIdentifier?
    var blockElement: XMLTree.Element?
    var parElement: XMLTree.Element?
    var classRole: ParagraphRole?
    func finishParagraph() throws(DocumentFormatError) {
      guard !lines.isEmpty else { return }
      let union =
        PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
      let own = try parElement.map { p throws(DocumentFormatError) in try box(p) } ?? nil
      let stated = try parElement.flatMap { p throws(DocumentFormatError) in try roleProperty(p) }
      paragraphs.append(
        Paragraph(
          bbox: (own ?? union).union(all: lines.map(\.bbox)), lines: lines,
          role: stated?.role ?? classRole ?? .body, headingLevel: stated?.level))
      lines = []
      classRole = nil
    }
    func finishBlock() throws(DocumentFormatError) {
      try finishParagraph()
      guard !paragraphs.isEmpty else { return }
      let union =
        PixelRect.union(paragraphs.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
      let own = try blockElement.map { b throws(DocumentFormatError) in try box(b) } ?? nil
      blocks.append(
        Block(bbox: (own ?? union).union(all: paragraphs.map(\.bbox)), paragraphs: paragraphs))
      paragraphs = []
    }
    for lineElement in lineElements {
      let (b, p, role) = parents[ObjectIdentifier(lineElement)] ?? (nil, nil, nil)
      let blockID = b.map(ObjectIdentifier.init)
      // Lines outside any paragraph share one per block.
      let parID = p.map(ObjectIdentifier.init) ?? blockID
      if blockID != currentBlock {
        try finishBlock()
        currentBlock = blockID
        blockElement = b
        currentPar = parID
        parElement = p
      } else if parID != currentPar {
        try finishParagraph()
        currentPar = parID
        parElement = p
      }
      if language == nil, let l = p?.attributes["lang"] { language = l }
      if let line = try line(lineElement, turned: turned) {
        if lines.isEmpty { classRole = role }
        lines.append(line)
      }
    }
    try finishBlock()
    return Page(
      index: index, image: image, width: pageBox.maxX, height: pageBox.maxY, dpi: dpi,
      orientation: orientation, skew: skew, language: language, blocks: blocks)
  }

  /// A paragraph's `x_role`: a role name (any case) and, for a heading,
  /// an optional level; `nil` when there is none.
  static func roleProperty(_ e: XMLTree.Element) throws(DocumentFormatError) -> (
    role: ParagraphRole, level: Int?
  )? {
    guard let raw = properties(e)["x_role"] else { return nil }
    let parts = raw.split(whereSeparator: \.isWhitespace)
    guard let name = parts.first?.lowercased(),
      let role = ParagraphRole.allCases.first(where: { $0.rawValue.lowercased() == name })
    else {
      let names = ParagraphRole.allCases.map(\.rawValue).joined(separator: ", ")
      throw e.error("'x_role' must be one of \(names), not \"\(raw)\"")
    }
    guard parts.count > 1 else { return (role, nil) }
    guard parts.count == 2, role == .heading, let level = Int(parts[1]), (1...6).contains(level)
    else {
      throw e.error("'x_role' takes a level from 1 to 6 after 'heading' only, not \"\(raw)\"")
    }
    return (role, level)
  }

  static func line(_ e: XMLTree.Element, turned: Bool) throws(DocumentFormatError) -> TextLine? {
    var wordElements: [XMLTree.Element] = []
    collect(e, classes: ["ocrx_word"], into: &wordElements)
    let ownBox = try boxOrPoly(e)
    var words: [Word] = []
    if wordElements.isEmpty {
      guard let ownBox else { throw e.error("a line without words has no 'bbox'") }
      words = ImportSupport.words(from: e.allText, box: ownBox)
    }
    for we in wordElements {
      guard let wordBox = try boxOrPoly(we) else {
        throw we.error("the word has no 'bbox'")
      }
      var confidence: Double?
      if let raw = properties(we)["x_wconf"] {
        guard let n = numbers(raw), n.count == 1 else {
          throw we.error("'x_wconf' must be a number, not \"\(raw)\"")
        }
        confidence = ImportSupport.confidence(n[0])
      }
      var glyphElements: [XMLTree.Element] = []
      collect(we, classes: ["ocrx_cinfo"], into: &glyphElements)
      var glyphs: [Glyph] = []
      for ge in glyphElements {
        let glyphBox: PixelRect
        if let b = try box(ge, key: "x_bboxes") {
          glyphBox = b
        } else if let b = try box(ge) {
          glyphBox = b
        } else {
          continue
        }
        var glyphConfidence: Double?
        if let raw = properties(ge)["x_conf"], let n = numbers(raw), n.count == 1 {
          glyphConfidence = ImportSupport.confidence(n[0])
        }
        glyphs.append(
          Glyph(
            text: ge.allText, bbox: glyphBox, quad: try quad(ge, turned: turned),
            confidence: glyphConfidence))
      }
      words += ImportSupport.word(
        text: we.allText, box: wordBox, quad: try quad(we, turned: turned), confidence: confidence,
        glyphs: glyphs)
    }
    guard !words.isEmpty else { return nil }
    let lineBox = (ownBox ?? words[0].bbox).union(all: words.map(\.bbox))
    var baseline: Baseline?
    if let raw = properties(e)["baseline"] {
      guard let n = numbers(raw), n.count == 2 else {
        throw e.error("'baseline' must be two numbers (slope offset), not \"\(raw)\"")
      }
      let y0 = Double(lineBox.maxY) + n[1]
      baseline = Baseline(
        start: Point(x: Double(lineBox.minX), y: y0),
        end: Point(x: Double(lineBox.maxX), y: y0 + n[0] * Double(lineBox.width)))
    }
    // A `poly` of more than four points in the shape of a curved line's
    // outline is its polygon, as in ALTO and PAGE XML.
    if let raw = properties(e)["poly"], let n = numbers(raw), n.count > 8, n.count % 4 == 0 {
      let points = stride(from: 0, to: n.count, by: 2).map { Point(x: n[$0], y: n[$0 + 1]) }
      if TextLine.isLinePolygon(points),
        let chord = TextLine.chordRectangle(of: points, holding: words.flatMap(\.corners.corners))
      {
        return TextLine(
          bbox: lineBox, quad: chord, polygon: points, baseline: baseline, words: words)
      }
    }
    return TextLine(
      bbox: lineBox, quad: try quad(e, turned: turned), baseline: baseline, words: words)
  }
}
