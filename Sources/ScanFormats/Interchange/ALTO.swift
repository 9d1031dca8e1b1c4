import Foundation
import ScanModel

/// ALTO XML: writes version 4.4, reads versions 2 to 4.
///
/// Each model block is a `ComposedBlock` holding one `TextBlock` per
/// paragraph (as Tesseract writes ALTO); lines are `TextLine`, words
/// `String` (with `WC`, the confidence in 0…1) separated by `SP`, glyphs
/// `Glyph` (with `GC`). Boxes are `HPOS`/`VPOS`/`WIDTH`/`HEIGHT` in pixels
/// (`MeasurementUnit` `pixel`); the quad of a tilted or turned element is a
/// `Shape`/`Polygon`, and so is a curved line's polygon
/// (``ScanModel/TextLine/polygon``, read back as one when it has that
/// shape); a line's baseline is `BASELINE` as two points.
///
/// Each `TextBlock` names in `STYLEREFS` the `ParagraphStyle` of its
/// paragraph's ``ScanModel/ParagraphFormat`` (alignment, indents, line spacing; one
/// style per distinct format) and in `TAGREFS` the `StructureTag` of its
/// role. A line end the model reads as hyphenated (``ScanModel/Page/hyphenBreaks``)
/// is written as ALTO intends: the hyphen leaves the last `String` for a
/// `HYP`, and the two parts carry `SUBS_TYPE` `HypPart1`/`HypPart2` with
/// the whole word in `SUBS_CONTENT`.
public enum ALTO {
  /// The ALTO 4 namespace.
  public static let namespace = "http://www.loc.gov/standards/alto/ns-v4#"

  /// The document as ALTO 4.4 XML (``DocumentWriter`` writes it page by
  /// page).
  public static func encode(_ document: Document, generator: Generator) -> String {
    var writer = Writer(generator: generator)
    let pages = document.pages.map { writer.page($0) }.joined()
    return writer.head() + pages + writer.tail()
  }

  /// ALTO written page by page: the `Layout`'s pages as they come, and
  /// what goes before them (the `Description`, the paragraph styles and
  /// the structure tags of every page) once the last is written.
  struct Writer {
    let generator: Generator
    private var styles = StyleTable()
    private var tags = TagSet()
    private var image: String?
    private var pageCount = 0
    /// Writes the pages inside `<alto><Layout>`.
    private var layout = XMLWriter(declaration: false, openElements: ["alto", "Layout"])

    init(generator: Generator) { self.generator = generator }

    /// A page's `Page` element.
    mutating func page(_ page: Page) -> String {
      if pageCount == 0 { image = page.image }
      pageCount += 1
      tags.add(page)
      ALTO.write(page, styles: styles.ids(for: page), to: &layout)
      return layout.take()
    }

    /// The text before the first page: for the pages written so far.
    func head() -> String {
      var w = XMLWriter()
      w.start(
        "alto",
        [
          ("xmlns", ALTO.namespace), ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
          ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
          (
            "xsi:schemaLocation",
            "http://www.loc.gov/standards/alto/ns-v4# http://www.loc.gov/alto/v4/alto-4-4.xsd"
          ),
        ])
      w.start("Description")
      w.leaf("MeasurementUnit", text: "pixel")
      if let image {
        w.start("sourceImageInformation")
        w.leaf("fileName", text: image)
        w.end()
      }
      w.start("OCRProcessing", [("ID", "OCR_0")])
      w.start("ocrProcessingStep")
      w.start("processingSoftware")
      w.leaf("softwareName", text: generator.name)
      w.leaf("softwareVersion", text: generator.version)
      w.end()
      w.end()
      w.end()
      w.end()
      styles.write(to: &w)
      tags.write(to: &w)
      w.start("Layout")
      return w.text
    }

    /// The text after the last page.
    mutating func tail() -> String {
      layout.end()
      layout.end()
      return layout.take()
    }
  }

  /// The `StructureTag` ID of a paragraph's role: `role_body`,
  /// `role_heading_2` (a heading's level is part of its tag).
  static func tagID(_ paragraph: Paragraph) -> String {
    if let level = paragraph.headingLevel { return "role_heading_\(level)" }
    return "role_\(paragraph.role.rawValue)"
  }

  /// The `StructureTag` ID of a table cell's place: `cell_0_1_1_2` (row,
  /// column, row span, column span), `cell_0_1_1_2_header` for a header
  /// cell.
  static func cellTagID(_ cell: TableCellPosition) -> String {
    "cell_\(cell.row)_\(cell.column)_\(cell.rowSpan)_\(cell.columnSpan)"
      + (cell.isHeader ? "_header" : "")
  }

  /// One `StructureTag` per role (and heading level) the document uses;
  /// each `TextBlock` names its own in `TAGREFS`. `LABEL` is the role's
  /// name, as in ScanText JSON.
  struct TagSet {
    private var tags: [String: Paragraph] = [:]
    private var cells: [String: TableCellPosition] = [:]

    /// Adds the tags of a page's paragraphs.
    mutating func add(_ page: Page) {
      for block in page.blocks {
        for paragraph in block.paragraphs {
          if tags[ALTO.tagID(paragraph)] == nil { tags[ALTO.tagID(paragraph)] = paragraph }
          if let cell = paragraph.cell { cells[ALTO.cellTagID(cell)] = cell }
        }
      }
    }

    func write(to w: inout XMLWriter) {
      guard !tags.isEmpty else { return }
      w.start("Tags")
      for (id, paragraph) in tags.sorted(by: { $0.key < $1.key }) {
        let description = paragraph.headingLevel.map { "heading, level \($0)" }
        w.empty(
          "StructureTag",
          [
            ("ID", id), ("TYPE", "role"), ("LABEL", paragraph.role.rawValue),
            ("DESCRIPTION", description),
          ])
      }
      // A table cell's place: ALTO has no table structure, so a tag per
      // place, which reading takes back.
      for (id, cell) in cells.sorted(by: { $0.key < $1.key }) {
        w.empty(
          "StructureTag",
          [
            ("ID", id), ("TYPE", "tableCell"), ("LABEL", "table cell"),
            (
              "DESCRIPTION",
              "row \(cell.row), column \(cell.column), rowSpan \(cell.rowSpan), columnSpan \(cell.columnSpan)"
                + (cell.isHeader ? ", header" : "")
            ),
          ])
      }
      w.end()
    }
  }

  /// One `ParagraphStyle` per distinct ``ParagraphFormat`` of the
  /// document's paragraphs (IDs `pstyle_0`, `pstyle_1`… in order of first
  /// use), gathered page by page.
  struct StyleTable {
    var formats: [ParagraphFormat] = []

    private var known: [ParagraphFormat: String] = [:]

    /// The style ID of each paragraph of `page`, by block: styles first
    /// used on it are added.
    mutating func ids(for page: Page) -> [[String]] {
      page.paragraphFormats.map { block in
        block.map { format in
          if let id = known[format] { return id }
          let id = "pstyle_\(formats.count)"
          known[format] = id
          formats.append(format)
          return id
        }
      }
    }

    /// ALTO's name of an alignment.
    static func align(_ a: ParagraphFormat.Alignment) -> String {
      switch a {
      case .left: "Left"
      case .right: "Right"
      case .center: "Center"
      case .justified: "Block"
      }
    }

    func write(to w: inout XMLWriter) {
      guard !formats.isEmpty else { return }
      w.start("Styles")
      for (i, f) in formats.enumerated() {
        w.empty(
          "ParagraphStyle",
          [
            ("ID", "pstyle_\(i)"), ("ALIGN", f.alignment.map(Self.align)),
            ("LEFT", String(f.leftIndent)), ("RIGHT", String(f.rightIndent)),
            ("LINESPACE", f.lineSpacing.map { String($0) }),
            ("FIRSTLINE", f.firstLineIndent != 0 ? String(f.firstLineIndent) : nil),
          ])
      }
      w.end()
    }
  }

  private static func position(_ r: PixelRect) -> [(String, String?)] {
    [
      ("HPOS", String(r.minX)), ("VPOS", String(r.minY)), ("WIDTH", String(r.width)),
      ("HEIGHT", String(r.height)),
    ]
  }

  private static func shape(_ q: Quad?, to w: inout XMLWriter) {
    guard let q else { return }
    w.start("Shape")
    w.empty("Polygon", [("POINTS", points(q.corners))])
    w.end()
  }

  private static func points(_ points: [Point]) -> String {
    points.map { FormatNumbers.decimal($0.x) + "," + FormatNumbers.decimal($0.y) }
      .joined(separator: " ")
  }

  /// What a line end hyphenated in the model (``Page/hyphenBreaks``)
  /// changes in ALTO: the line's last `String` loses its hyphen mark to a
  /// `HYP` and says `HypPart1`, the next line's first says `HypPart2`,
  /// both with the whole word as ``Page/spokenText(in:)`` gives it.
  struct Hyphenation {
    /// Breaks by the end of the line's last word (the hyphen's end).
    var atLineEnd: [Int: (mark: String, word: String)] = [:]
    /// The whole word by the start of the continuation.
    var atContinuation: [Int: String] = [:]

    init(_ page: Page) {
      for b in page.hyphenBreaks {
        let word = page.spokenText(in: b.word) ?? ""
        atLineEnd[b.hyphen.upperBound.offset] = (page.text(in: b.hyphen) ?? "-", word)
        atContinuation[b.continuation.offset] = word
      }
    }
  }

  private static func write(_ page: Page, styles: [[String]], to w: inout XMLWriter) {
    let hyphenation = Hyphenation(page)
    let p = page.index
    let whole = PixelRect(minX: 0, minY: 0, maxX: page.width, maxY: page.height)
    w.start(
      "Page",
      [
        ("ID", "page_\(p)"), ("PHYSICAL_IMG_NR", String(p + 1)), ("WIDTH", String(page.width)),
        ("HEIGHT", String(page.height)),
      ])
    w.start("PrintSpace", position(whole))
    var counters = (block: 0, paragraph: 0, line: 0, word: 0, glyph: 0)
    for block in page.blocks {
      // ROTATION: degrees counter-clockwise the content is turned.
      let turn = Double(page.orientation) + page.skew
      let rotation =
        turn == 0 ? nil : FormatNumbers.decimal((360 - turn).truncatingRemainder(dividingBy: 360))
      w.start(
        "ComposedBlock",
        [("ID", "p\(p)_cblock_\(counters.block)")] + position(block.bbox)
          + [("ROTATION", rotation), ("TYPE", block.tableSize == nil ? nil : "table")]
      )
      counters.block += 1
      for (pi, paragraph) in block.paragraphs.enumerated() {
        let bi = counters.block - 1
        let style =
          styles.indices.contains(bi) && styles[bi].indices.contains(pi) ? styles[bi][pi] : nil
        w.start(
          "TextBlock",
          [("ID", "p\(p)_block_\(counters.paragraph)")] + position(paragraph.bbox)
            + [
              ("LANG", page.languages.first?.xsdLanguage), ("STYLEREFS", style),
              (
                "TAGREFS",
                ([tagID(paragraph)] + [paragraph.cell.map(cellTagID)].compactMap { $0 }).joined(
                  separator: " ")
              ),
            ])
        counters.paragraph += 1
        for line in paragraph.lines {
          var attributes = [("ID", "p\(p)_line_\(counters.line)")] + position(line.bbox)
          if let b = line.baseline { attributes.append(("BASELINE", points([b.start, b.end]))) }
          w.start("TextLine", attributes)
          counters.line += 1
          if let polygon = line.polygon {
            w.start("Shape")
            w.empty("Polygon", [("POINTS", points(polygon))])
            w.end()
          } else {
            shape(line.quad, to: &w)
          }
          // A line-end hyphen of the model: a HYP after the last String
          // (or, when the hyphen is a word of its own, in its place).
          let lineEnd = line.words.last.flatMap {
            hyphenation.atLineEnd[$0.range.upperBound.offset]
          }
          let hyphenIsAWord =
            lineEnd != nil && line.words.count > 1 && line.words.last?.text == lineEnd?.mark
          var hyp: [(String, String?)]?
          for (i, word) in line.words.enumerated() {
            if i > 0 {
              let previous = line.words[i - 1].bbox
              let gap = PixelRect(
                minX: previous.maxX, minY: line.bbox.minY, maxX: max(previous.maxX, word.bbox.minX),
                maxY: line.bbox.maxY)
              w.empty("SP", [("WIDTH", String(gap.width)), ("HPOS", String(gap.minX))])
            }
            var part = WordPart()
            if i == 0, let whole = hyphenation.atContinuation[word.range.lowerBound.offset] {
              part.substitution = ("HypPart2", whole)
            }
            let last = i == line.words.count - 1
            if let lineEnd, hyphenIsAWord, last {
              hyp = [("CONTENT", lineEnd.mark)] + position(word.bbox)
              counters.word += 1
              continue
            }
            if let lineEnd, last || (hyphenIsAWord && i == line.words.count - 2) {
              part.substitution = ("HypPart1", lineEnd.word)
              if !hyphenIsAWord { part.mark = lineEnd.mark }
            }
            let attributes = writeWord(
              word, id: "p\(p)_word_\(counters.word)", part: part, glyphID: &counters.glyph, to: &w)
            if let attributes { hyp = attributes }
            counters.word += 1
          }
          if let hyp { w.empty("HYP", hyp) }
          w.end()
        }
        w.end()
      }
      w.end()
    }
    w.end()
    w.end()
  }

  /// How a word is written when it takes part in a line-end hyphenation.
  struct WordPart {
    /// The hyphen mark the word ends with, to be written as `HYP`.
    var mark: String?
    /// `SUBS_TYPE` and `SUBS_CONTENT`.
    var substitution: (type: String, content: String)?
  }

  /// ALTO's `CC` digit of a confidence: 0 (sure) to 9 (unsure).
  static func characterConfidence(_ c: Double) -> String {
    String(Int(((100 - min(100, max(0, c))) / 10).rounded()))
  }

  /// Writes a word as a `String`; returns the attributes of the `HYP` that
  /// must follow the line's last `String` when `part` takes a hyphen mark
  /// off the word.
  ///
  /// The mark leaves the `String`'s `CONTENT`; an upright word's box is
  /// cut where the mark starts (its last glyph, else in proportion to the
  /// characters), the `String` keeping the part before and the `HYP` the
  /// rest, so that reading joins them back into the word's box. A word with
  /// a quad keeps its box and quad; its `HYP` has the mark glyph's box.
  private static func writeWord(
    _ word: Word, id: String, part: WordPart, glyphID: inout Int, to w: inout XMLWriter
  ) -> [(String, String?)]? {
    // ALTO's Glyph CONTENT is exactly one character; glyphs are written
    // only when every one is a single character and they spell the word.
    let spelled =
      !word.glyphs.isEmpty && word.glyphs.map(\.text).joined() == word.text
      && word.glyphs.allSatisfy { $0.text.unicodeScalars.count == 1 }
    var text = word.text
    var box = word.bbox
    var glyphs = spelled ? word.glyphs : []
    var hyp: [(String, String?)]?
    if let mark = part.mark, text.hasSuffix(mark), text.count > mark.count {
      text.removeLast(mark.count)
      let markGlyph = glyphs.last.flatMap { $0.text == mark ? $0 : nil }
      if markGlyph != nil { glyphs.removeLast() }
      if word.quad != nil {
        hyp = [("CONTENT", mark)] + (markGlyph.map { position($0.bbox) } ?? [])
      } else {
        let share = box.minX + box.width * text.count / word.text.count
        let cut = min(box.maxX - 1, max(box.minX + 1, markGlyph?.bbox.minX ?? share))
        if box.width >= 2 {
          hyp =
            [("CONTENT", mark)]
            + position(PixelRect(minX: cut, minY: box.minY, maxX: box.maxX, maxY: box.maxY))
          box.maxX = cut
        } else {
          hyp = [("CONTENT", mark)]
        }
      }
    }
    var attributes = [("ID", id)] + position(box) + [("CONTENT", text)]
    if let (type, content) = part.substitution {
      attributes += [("SUBS_TYPE", type), ("SUBS_CONTENT", content)]
    }
    if let c = word.confidence {
      attributes.append(("WC", FormatNumbers.unitConfidence(c)))
    }
    let confidences = glyphs.compactMap(\.confidence)
    if !glyphs.isEmpty, confidences.count == glyphs.count {
      attributes.append(("CC", confidences.map(characterConfidence).joined(separator: " ")))
    }
    if word.quad == nil && glyphs.isEmpty {
      w.empty("String", attributes)
      return hyp
    }
    w.start("String", attributes)
    shape(word.quad, to: &w)
    for glyph in glyphs {
      var g = [("ID", "\(id)_g\(glyphID)"), ("CONTENT", glyph.text)]
      if let c = glyph.confidence {
        g.append(("GC", FormatNumbers.unitConfidence(c)))
      }
      glyphID += 1
      if let q = glyph.quad {
        w.start("Glyph", g + position(glyph.bbox))
        shape(q, to: &w)
        w.end()
      } else {
        w.empty("Glyph", g + position(glyph.bbox))
      }
    }
    w.end()
    return hyp
  }

}

// MARK: - Reading

extension ALTO {
  /// Reads an ALTO document of version 2, 3 or 4 (any namespace whose
  /// root is `alto`).
  ///
  /// `ComposedBlock`s become blocks of their `TextBlock`s (as paragraphs); a
  /// `TextBlock` outside any makes a block of its own. `HYP` (a hyphen
  /// at the end of a line) is added to the last word, or is a word of its
  /// own when an `SP` comes before it. Styles are not read (the model
  /// measures its own ``ScanModel/ParagraphFormat``), nor `SUBS_CONTENT` (the model
  /// finds its own hyphenated words). Measurement units
  /// `pixel`, `mm10` and `inch1200` are read (the last two need the page's
  /// resolution, from `sourceImageInformation` or the caller).
  /// - Throws: ``DocumentFormatError`` naming the element path and the reason.
  public static func decode(_ data: Data) throws(DocumentFormatError) -> Document {
    let tree = try XMLTree(data: data)
    let root = tree.root
    guard root.name == "alto" else {
      throw root.error("the root element is '\(root.name)', not 'alto': not an ALTO document")
    }
    let description = root.child(named: "Description")
    let unit = description?.child(named: "MeasurementUnit")?.allText.trimmingWhitespace ?? "pixel"
    let image = description?.child(named: "sourceImageInformation")?.child(named: "fileName")?
      .allText.trimmingWhitespace.split(separator: "/").last.map(String.init)
    guard let layout = root.child(named: "Layout") else { throw root.error("missing 'Layout'") }
    let roles = roleTags(root)
    let cells = cellTags(root)
    var pages: [Page] = []
    for (i, pageElement) in layout.children(named: "Page").enumerated() {
      var reader = Reader(unit: unit, element: pageElement, roles: roles, cells: cells)
      try reader.setScale()
      pages.append(
        try ModelLimits.checked(
          reader.page(index: i, image: i == 0 ? image : nil), name: "page \(i + 1)"))
    }
    return Document(pages: pages)
  }

  /// The roles the document's tags name, by tag ID: a `StructureTag` (or
  /// any tag) whose `LABEL` is a ``ParagraphRole`` name, case-insensitively;
  /// a heading's level comes from an ID ending in `_2` (as written here)
  /// or a `DESCRIPTION` like "level 2", else 1. Tags that name no role are
  /// ignored.
  static func roleTags(_ root: XMLTree.Element) -> [String: (ParagraphRole, Int?)] {
    var roles: [String: (ParagraphRole, Int?)] = [:]
    for tag in root.child(named: "Tags")?.children ?? [] {
      guard let id = tag.attributes["ID"], let label = tag.attributes["LABEL"] else { continue }
      let name = label.trimmingWhitespace.lowercased()
      guard let role = ParagraphRole.allCases.first(where: { $0.rawValue.lowercased() == name })
      else { continue }
      guard role == .heading else {
        roles[id] = (role, nil)
        continue
      }
      let description = tag.attributes["DESCRIPTION"] ?? ""
      let fromID = id.split(separator: "_").last.flatMap { Int($0) }
      let fromDescription = description.range(of: "level ").flatMap {
        Int(description[$0.upperBound...].prefix { $0.isNumber })
      }
      roles[id] = (.heading, min(6, max(1, fromID ?? fromDescription ?? 1)))
    }
    return roles
  }

  /// The table cells' places the document's tags name, by tag ID: a
  /// `StructureTag` of `TYPE` `tableCell` whose `DESCRIPTION` reads "row 0,
  /// column 1, rowSpan 1, columnSpan 2" (as written here), ending in
  /// ", header" for a header cell.
  static func cellTags(_ root: XMLTree.Element) -> [String: TableCellPosition] {
    var cells: [String: TableCellPosition] = [:]
    for tag in root.child(named: "Tags")?.children ?? [] where tag.attributes["TYPE"] == "tableCell"
    {
      guard let id = tag.attributes["ID"] else { continue }
      let description = tag.attributes["DESCRIPTION"] ?? ""
      func number(after key: String) -> Int? {
        description.range(of: key + " ").flatMap {
          Int(description[$0.upperBound...].prefix { $0.isNumber })
        }
      }
      guard let row = number(after: "row"), let column = number(after: "column") else { continue }
      cells[id] = TableCellPosition(
        row: row, column: column, rowSpan: number(after: "rowSpan") ?? 1,
        columnSpan: number(after: "columnSpan") ?? 1,
        isHeader: description.hasSuffix(", header"))
    }
    return cells
  }

  private struct Reader {
    let unit: String
    let element: XMLTree.Element
    let roles: [String: (ParagraphRole, Int?)]
    let cells: [String: TableCellPosition]
    var scale = 1.0
    var turned = false

    init(
      unit: String, element: XMLTree.Element, roles: [String: (ParagraphRole, Int?)],
      cells: [String: TableCellPosition]
    ) {
      self.unit = unit
      self.element = element
      self.roles = roles
      self.cells = cells
    }

    mutating func setScale() throws(DocumentFormatError) {
      switch unit {
      case "pixel", "": scale = 1
      case "mm10", "inch1200":
        // Tenths of a millimetre or 1200ths of an inch: pixels need the
        // resolution, which ALTO keeps outside the page (if at all).
        throw element.error(
          "MeasurementUnit '\(unit)' needs the image resolution, which the file does not give; only 'pixel' is read"
        )
      default:
        throw element.error("unknown MeasurementUnit '\(unit)'")
      }
    }

    func number(_ e: XMLTree.Element, _ name: String) throws(DocumentFormatError) -> Double? {
      guard let v = try e.number(name) else { return nil }
      guard abs(v) <= ImportGeometry.coordinateLimit else {
        throw e.error("'\(name)' lies beyond ±\(Int(ImportGeometry.coordinateLimit))")
      }
      return v * scale
    }

    /// The box of `HPOS`/`VPOS`/`WIDTH`/`HEIGHT`, or `nil` when one is missing.
    func box(_ e: XMLTree.Element) throws(DocumentFormatError) -> PixelRect? {
      guard let x = try number(e, "HPOS"), let y = try number(e, "VPOS"),
        let w = try number(e, "WIDTH"), let h = try number(e, "HEIGHT")
      else { return nil }
      guard w >= 0, h >= 0 else { throw e.error("negative WIDTH or HEIGHT") }
      let r = PixelRect(
        minX: Int(x.rounded(.down)), minY: Int(y.rounded(.down)),
        maxX: Int((x + w).rounded(.up)), maxY: Int((y + h).rounded(.up)))
      return try ImportGeometry.checked(r, e)
    }

    func polygon(_ e: XMLTree.Element) throws(DocumentFormatError) -> [Point]? {
      guard let polygon = e.child(named: "Shape")?.child(named: "Polygon") else { return nil }
      let raw = try polygon.attribute("POINTS")
      guard let points = ImportGeometry.points(raw), points.count >= 3 else {
        throw polygon.error(
          "'POINTS' must list three or more x,y points within ±\(Int(ImportGeometry.coordinateLimit)), not \"\(raw)\""
        )
      }
      return points.map { Point(x: $0.x * scale, y: $0.y * scale) }
    }

    /// The element's box, from its position or else its polygon.
    func geometry(_ e: XMLTree.Element) throws(DocumentFormatError) -> (PixelRect?, Quad?) {
      let points = try polygon(e)
      let quad = points.flatMap { ImportGeometry.quad(of: $0, turned: turned) }
      if let b = try box(e) { return (b, quad) }
      if let points { return (try ImportGeometry.checked(ImportGeometry.box(of: points), e), quad) }
      return (nil, quad)
    }

    func confidence(_ e: XMLTree.Element, _ name: String) throws(DocumentFormatError) -> Double? {
      guard let v = try e.number(name) else { return nil }
      return ImportSupport.confidence(v * 100)
    }

    mutating func page(index: Int, image: String?) throws(DocumentFormatError) -> Page {
      let e = element
      // The page's turn: the first block's ROTATION (counter-clockwise).
      func firstRotation(_ node: XMLTree.Element) -> String? {
        for child in node.children {
          if let r = child.attributes["ROTATION"] { return r }
          if let r = firstRotation(child) { return r }
        }
        return nil
      }
      var turn = (orientation: 0, skew: 0.0)
      if let raw = firstRotation(e) {
        guard let r = Double(raw.trimmingWhitespace), r.isFinite else {
          throw e.error("'ROTATION' is not a number: \"\(raw)\"")
        }
        turn = ImportGeometry.orientationAndSkew(-r)
      }
      turned = turn.orientation != 0 || turn.skew != 0
      var width = try number(e, "WIDTH").map { Int($0.rounded(.up)) }
      var height = try number(e, "HEIGHT").map { Int($0.rounded(.up)) }
      var blocks: [Block] = []
      var language: String?
      func visit(_ node: XMLTree.Element) throws(DocumentFormatError) {
        for child in node.children {
          switch child.name {
          case "ComposedBlock":
            // Nested composed blocks flatten into the outermost one.
            var paragraphs: [Paragraph] = []
            try textBlocks(in: child, into: &paragraphs, language: &language)
            if !paragraphs.isEmpty {
              let (own, _) = try geometry(child)
              let union = PixelRect.union(paragraphs.map(\.bbox)) ?? paragraphs[0].bbox
              blocks.append(
                Block(
                  bbox: (own ?? union).union(all: paragraphs.map(\.bbox)), paragraphs: paragraphs))
            }
          case "TextBlock":
            if let p = try paragraph(child, language: &language) {
              blocks.append(Block(bbox: p.bbox, paragraphs: [p]))
            }
          case "TopMargin", "LeftMargin", "RightMargin", "BottomMargin", "PrintSpace":
            try visit(child)
          default:
            continue
          }
        }
      }
      try visit(e)
      let extent = PixelRect.union(blocks.map(\.bbox))
      if width == nil { width = extent?.maxX }
      if height == nil { height = extent?.maxY }
      guard let width, let height else { throw e.error("the page has no WIDTH and HEIGHT") }
      return Page(
        index: index, image: image, width: width, height: height,
        orientation: turn.orientation, skew: turn.skew, language: language, blocks: blocks)
    }

    func textBlocks(
      in node: XMLTree.Element, into out: inout [Paragraph], language: inout String?
    ) throws(DocumentFormatError) {
      for child in node.children {
        if child.name == "TextBlock", let p = try paragraph(child, language: &language) {
          out.append(p)
        } else if child.name == "ComposedBlock" {
          try textBlocks(in: child, into: &out, language: &language)
        }
      }
    }

    func paragraph(_ e: XMLTree.Element, language: inout String?) throws(DocumentFormatError)
      -> Paragraph?
    {
      if language == nil { language = e.attributes["LANG"] ?? e.attributes["language"] }
      var lines: [TextLine] = []
      for le in e.children(named: "TextLine") {
        if let l = try line(le) { lines.append(l) }
      }
      guard !lines.isEmpty else { return nil }
      let (own, _) = try geometry(e)
      let union = PixelRect.union(lines.map(\.bbox)) ?? lines[0].bbox
      // The first of its tags that names a role.
      let refs = (e.attributes["TAGREFS"] ?? "").split(separator: " ").map(String.init)
      let role = refs.lazy.compactMap { roles[$0] }.first
      let cell = refs.lazy.compactMap { cells[$0] }.first
      return Paragraph(
        bbox: (own ?? union).union(all: lines.map(\.bbox)), lines: lines,
        role: cell != nil ? .tableCell : role?.0 ?? .body, headingLevel: role?.1, cell: cell)
    }

    func line(_ e: XMLTree.Element) throws(DocumentFormatError) -> TextLine? {
      var words: [Word] = []
      // Whether an SP came after the last String: a HYP after a space is
      // a word of its own (a hyphen set apart, `Men -`).
      var spaced = false
      for child in e.children {
        switch child.name {
        case "SP":
          spaced = true
        case "String":
          spaced = false
          let text = try child.attribute("CONTENT")
          let (b, quad) = try geometry(child)
          guard let b else { throw child.error("the String has no HPOS, VPOS, WIDTH and HEIGHT") }
          var glyphs: [Glyph] = []
          for g in child.children(named: "Glyph") {
            let (gb, gq) = try geometry(g)
            guard let gb else { continue }
            glyphs.append(
              Glyph(
                text: try g.attribute("CONTENT"), bbox: gb, quad: gq,
                confidence: try confidence(g, "GC")))
          }
          words += ImportSupport.word(
            text: text, box: b, quad: quad, confidence: try confidence(child, "WC"),
            glyphs: glyphs)
        case "HYP":
          // The hyphen printed at the end of the line belongs to its last word.
          let text = try child.attribute("CONTENT").trimmingWhitespace
          let hb = try box(child)
          // Its box makes a glyph when the line's words have glyphs.
          let glyphed = words.last.map { !$0.glyphs.isEmpty } ?? false
          if spaced, let hb {
            words += ImportSupport.word(
              text: text, box: hb, quad: nil, confidence: nil,
              glyphs: glyphed ? [Glyph(text: text, bbox: hb)] : [])
            continue
          }
          guard var last = words.popLast() else { continue }
          last.text += text
          if let hb {
            last.bbox = last.bbox.union(hb)
            if !last.glyphs.isEmpty { last.glyphs.append(Glyph(text: text, bbox: hb)) }
          }
          words.append(last)
        default:
          continue
        }
      }
      guard !words.isEmpty else { return nil }
      let (own, quad) = try geometry(e)
      let lineBox = (own ?? words[0].bbox).union(all: words.map(\.bbox))
      var baseline: Baseline?
      if let raw = e.attributes["BASELINE"] {
        let trimmed = raw.trimmingWhitespace
        if let y = Double(trimmed), y.isFinite {
          // ALTO 2 and 3: one y coordinate for the whole line.
          baseline = Baseline(
            start: Point(x: Double(lineBox.minX), y: y * scale),
            end: Point(x: Double(lineBox.maxX), y: y * scale))
        } else if let points = ImportGeometry.points(trimmed), let first = points.first,
          let last = points.last, points.count >= 2
        {
          baseline = Baseline(
            start: Point(x: first.x * scale, y: first.y * scale),
            end: Point(x: last.x * scale, y: last.y * scale))
        } else {
          throw e.error("'BASELINE' must be a number or x,y points, not \"\(raw)\"")
        }
      }
      // A polygon of more than four points in the shape of a curved
      // line's outline is its polygon, as PAGE XML's.
      if let points = try polygon(e), points.count > 4, TextLine.isLinePolygon(points),
        let chord = TextLine.chordRectangle(of: points, holding: words.flatMap(\.corners.corners))
      {
        return TextLine(
          bbox: lineBox, quad: chord, polygon: points, baseline: baseline, words: words)
      }
      return TextLine(bbox: lineBox, quad: quad, baseline: baseline, words: words)
    }
  }
}
