import Foundation
import ScanModel

/// PAGE XML: writes the 2019-07-15 schema, reads 2013-07-15 to 2019-07-15.
///
/// Each model paragraph is a `TextRegion` whose `type` is its role
/// (`regionType(_:)`, `role(of:)`); the
/// `ReadingOrder` holds one `OrderedGroupIndexed` per model block listing
/// its regions in order, so blocks survive a round trip. Lines are
/// `TextLine` with `Coords` and `Baseline`, words `Word`, glyphs `Glyph`;
/// every level has its `TextEquiv` (`conf` in 0…1 for words and glyphs).
/// `Coords` are the element's quad when it is tilted or turned, else its
/// box, as whole non-negative pixels; box corners lie on the pixel cracks
/// (the right and bottom edges are exclusive, as everywhere in ScanText).
/// A curved line's `Coords` are its polygon (``ScanModel/TextLine/polygon``);
/// a line read back whose `Coords` have that shape
/// (``ScanModel/TextLine/isLinePolygon(_:)``) keeps it as its polygon.
public enum PAGEXML {
  /// The 2019-07-15 namespace.
  public static let namespace = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"

  /// The document as PAGE XML. PAGE holds one page per file: a document of
  /// several pages gives one text per page, in order.
  /// - Parameters:
  ///   - document: The pages to write.
  ///   - generator: Who wrote it (`Metadata/Creator`).
  ///   - created: The `Created`/`LastChange` time stamp (UTC, ISO 8601);
  ///     PAGE requires one.
  public static func encode(_ document: Document, generator: Generator, created: String)
    -> [String]
  {
    document.pages.map { encode($0, generator: generator, created: created) }
  }

  /// One page as PAGE XML.
  public static func encode(_ page: Page, generator: Generator, created: String) -> String {
    var w = XMLWriter()
    w.start(
      "PcGts",
      [
        ("xmlns", namespace), ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
        ("xsi:schemaLocation", namespace + " " + namespace + "/pagecontent.xsd"),
      ])
    w.start("Metadata")
    w.leaf("Creator", text: "\(generator.name) \(generator.version)")
    w.leaf("Created", text: created)
    w.leaf("LastChange", text: created)
    w.end()
    w.start(
      "Page",
      [
        ("imageFilename", page.image ?? ""), ("imageWidth", String(page.width)),
        ("imageHeight", String(page.height)),
        // PAGE's orientation: how far to turn clockwise to correct the page.
        (
          "orientation",
          page.orientation != 0 || page.skew != 0
            ? FormatNumbers.decimal(correction(page)) : nil
        ),
      ])
    var regionIDs: [[String]] = []
    var n = 0
    for block in page.blocks {
      var ids: [String] = []
      for _ in block.paragraphs {
        ids.append("r\(n)")
        n += 1
      }
      regionIDs.append(ids)
    }
    if n > 0 {
      w.start("ReadingOrder")
      w.start("OrderedGroup", [("id", "ro"), ("caption", "Blocks in reading order")])
      for (b, ids) in regionIDs.enumerated() {
        w.start("OrderedGroupIndexed", [("id", "ro_b\(b)"), ("index", String(b))])
        for (i, id) in ids.enumerated() {
          w.empty("RegionRefIndexed", [("index", String(i)), ("regionRef", id)])
        }
        w.end()
      }
      w.end()
      w.end()
    }
    var lineCount = 0
    for (b, block) in page.blocks.enumerated() {
      // A table read cell by cell: a `TableRegion` holding its cells'
      // text regions, each with its `TableCellRole`.
      let table = block.tableSize
      if let table {
        w.start(
          "TableRegion",
          [("id", "t\(b)"), ("rows", String(table.rows)), ("columns", String(table.columns))])
        coords(block.bbox, nil, to: &w)
      }
      for (p, paragraph) in block.paragraphs.enumerated() {
        let rid = regionIDs[b][p]
        w.start(
          "TextRegion",
          [
            ("id", rid), ("type", regionType(paragraph.role)),
            ("primaryLanguage", page.languages.first?.englishName),
            ("custom", structure(paragraph)),
          ])
        coords(paragraph.bbox, nil, to: &w)
        if table != nil, let cell = paragraph.cell {
          w.start("Roles")
          w.empty(
            "TableCellRole",
            [
              ("rowIndex", String(cell.row)), ("columnIndex", String(cell.column)),
              ("rowSpan", String(cell.rowSpan)), ("colSpan", String(cell.columnSpan)),
              ("header", cell.isHeader ? "true" : nil),
            ])
          w.end()
        }
        for line in paragraph.lines {
          let lid = "\(rid)_l\(lineCount)"
          lineCount += 1
          w.start("TextLine", [("id", lid)])
          if let polygon = line.polygon {
            w.empty("Coords", [("points", FormatNumbers.points(polygon))])
          } else {
            coords(line.bbox, line.quad, to: &w)
          }
          if let b = line.baseline {
            w.empty("Baseline", [("points", FormatNumbers.points([b.start, b.end]))])
          }
          for (wi, word) in line.words.enumerated() {
            let wid = "\(lid)_w\(wi)"
            w.start("Word", [("id", wid)])
            coords(word.bbox, word.quad, to: &w)
            for (gi, glyph) in word.glyphs.enumerated() {
              w.start("Glyph", [("id", "\(wid)_g\(gi)")])
              coords(glyph.bbox, glyph.quad, to: &w)
              textEquiv(glyph.text, confidence: glyph.confidence, to: &w)
              w.end()
            }
            textEquiv(word.text, confidence: word.confidence, to: &w)
            w.end()
          }
          textEquiv(line.text, confidence: nil, to: &w)
          w.end()
        }
        textEquiv(
          paragraph.lines.map(\.text).joined(separator: "\n"), confidence: nil, to: &w)
        w.end()
      }
      if table != nil { w.end() }
    }
    w.end()
    w.end()
    return w.text
  }

  /// The clockwise turn that corrects the page, in (-180, 180]: one
  /// remainder, no loop (a skew of 1e300 took for ever by steps of 360);
  /// 0 for an angle that is not finite.
  static func correction(_ page: Page) -> Double {
    let turn = -(Double(page.orientation) + page.skew)
    guard turn.isFinite else { return 0 }
    var a = turn.truncatingRemainder(dividingBy: 360)
    if a <= -180 { a += 360 }
    if a > 180 { a -= 360 }
    return a
  }

  private static func coords(_ box: PixelRect, _ quad: Quad?, to w: inout XMLWriter) {
    w.empty(
      "Coords", [("points", FormatNumbers.points(FormatNumbers.wholeCorners(quad, box: box)))])
  }

  private static func textEquiv(_ text: String, confidence: Double?, to w: inout XMLWriter) {
    w.start(
      "TextEquiv",
      [("conf", confidence.map { FormatNumbers.unitConfidence($0) })])
    w.leaf("Unicode", text: text)
    w.end()
  }
}

// MARK: - Reading

extension PAGEXML {
  /// Reads a PAGE XML document (any schema version from 2013-07-15 on:
  /// `Coords` with a `points` attribute).
  ///
  /// Regions come in reading order (`ReadingOrder`; regions it leaves out
  /// follow in document order). A group of the reading order that holds
  /// several regions becomes one block with a paragraph per region; other
  /// regions make one block each. Nested text regions count as regions of
  /// their own. Of several `TextEquiv`s the one with the lowest `index` is
  /// read. A line without `Word`s gets one word per run of its text, sharing
  /// its box.
  /// - Throws: ``DocumentFormatError`` naming the element path and the reason.
  public static func decode(_ data: Data) throws(DocumentFormatError) -> Document {
    let tree = try XMLTree(data: data)
    let root = tree.root
    guard root.name == "PcGts" else {
      throw root.error("the root element is '\(root.name)', not 'PcGts': not a PAGE document")
    }
    guard let pageElement = root.child(named: "Page") else { throw root.error("missing 'Page'") }
    return Document(pages: [try ModelLimits.checked(page(pageElement), name: "page 1")])
  }

  static func page(_ e: XMLTree.Element) throws(DocumentFormatError) -> Page {
    guard let width = try e.number("imageWidth"), let height = try e.number("imageHeight") else {
      throw e.error("missing attribute 'imageWidth' or 'imageHeight'")
    }
    let limit = ImportGeometry.coordinateLimit
    guard (0...limit).contains(width), (0...limit).contains(height) else {
      throw e.error("'imageWidth' and 'imageHeight' must be between 0 and \(Int(limit))")
    }
    let image = e.attributes["imageFilename"].flatMap { name -> String? in
      let last = name.split(separator: "/").last.map(String.init)
      return last?.isEmpty == false ? last : nil
    }

    // Every text region, in document order (nested ones included).
    var regions: [XMLTree.Element] = []
    func collect(_ node: XMLTree.Element) {
      for child in node.children where child.name.hasSuffix("Region") {
        if child.name == "TextRegion" { regions.append(child) }
        collect(child)
      }
    }
    collect(e)
    var byID: [String: XMLTree.Element] = [:]
    for r in regions {
      if let id = r.attributes["id"] { byID[id] = r }
    }

    // Reading order: groups of region ids.
    var groups: [[XMLTree.Element]] = []
    var used: Set<ObjectIdentifier> = []
    func indexed(_ children: [XMLTree.Element]) -> [XMLTree.Element] {
      children.enumerated().sorted { a, b in
        let ia = Int(a.element.attributes["index"] ?? "") ?? a.offset
        let ib = Int(b.element.attributes["index"] ?? "") ?? b.offset
        return (ia, a.offset) < (ib, b.offset)
      }.map(\.element)
    }
    func refs(_ group: XMLTree.Element) -> [XMLTree.Element] {
      var out: [XMLTree.Element] = []
      for child in indexed(group.children) {
        if child.name.hasPrefix("RegionRef"), let id = child.attributes["regionRef"],
          let r = byID[id]
        {
          out.append(r)
        } else if child.name.hasSuffix("Group") || child.name.hasSuffix("GroupIndexed") {
          out += refs(child)
        }
      }
      return out
    }
    if let order = e.child(named: "ReadingOrder"),
      let top = order.children.first(where: { $0.name.hasSuffix("Group") })
    {
      for child in indexed(top.children) {
        var members: [XMLTree.Element] = []
        if child.name.hasPrefix("RegionRef"), let id = child.attributes["regionRef"],
          let r = byID[id]
        {
          members = [r]
        } else if child.name.hasSuffix("GroupIndexed") || child.name.hasSuffix("Group") {
          members = refs(child)
          // A group may name a region itself.
          if members.isEmpty, let id = child.attributes["regionRef"], let r = byID[id] {
            members = [r]
          }
        }
        members = members.filter { used.insert(ObjectIdentifier($0)).inserted }
        if !members.isEmpty { groups.append(members) }
      }
    }
    for r in regions where used.insert(ObjectIdentifier(r)).inserted { groups.append([r]) }

    let (orientation, skew) = ImportGeometry.orientationAndSkew(-(try e.number("orientation") ?? 0))
    let turned = orientation != 0 || skew != 0
    var blocks: [Block] = []
    for group in groups {
      var paragraphs: [Paragraph] = []
      for r in group {
        if let p = try paragraph(r, turned: turned) { paragraphs.append(p) }
      }
      guard let first = paragraphs.first else { continue }
      let box = PixelRect.union(paragraphs.map(\.bbox)) ?? first.bbox
      blocks.append(Block(bbox: box, paragraphs: paragraphs))
    }
    let language =
      regions.lazy.compactMap {
        $0.attributes["primaryLanguage"]
          ?? $0.children(named: "TextLine").lazy.compactMap { $0.attributes["primaryLanguage"] }
          .first
      }.first ?? e.attributes["primaryLanguage"]
    return Page(
      image: image, width: Int(width.rounded(.up)), height: Int(height.rounded(.up)),
      orientation: orientation, skew: skew,
      language: language.flatMap { LanguageCode(englishName: $0)?.rawValue },
      blocks: blocks)
  }

  static func coords(_ e: XMLTree.Element, turned: Bool) throws(DocumentFormatError) -> (
    PixelRect, Quad?
  ) {
    guard let c = e.child(named: "Coords") else { throw e.error("missing 'Coords'") }
    guard let raw = c.attributes["points"] else {
      throw c.error("missing attribute 'points' (PAGE 2010 'Point' elements are not read)")
    }
    guard let points = ImportGeometry.points(raw), !points.isEmpty else {
      throw c.error(
        "'points' must be x,y pairs within ±\(Int(ImportGeometry.coordinateLimit)), not \"\(raw)\"")
    }
    let box = try ImportGeometry.checked(ImportGeometry.box(of: points), c)
    return (box, ImportGeometry.quad(of: points, turned: turned))
  }

  /// The text and confidence of the element's first `TextEquiv` by `index`.
  static func textEquiv(_ e: XMLTree.Element) throws(DocumentFormatError) -> (String, Double?)? {
    let equivs = e.children(named: "TextEquiv")
    guard
      let best = equivs.enumerated().min(by: { a, b in
        let ia = Int(a.element.attributes["index"] ?? "") ?? Int.max
        let ib = Int(b.element.attributes["index"] ?? "") ?? Int.max
        return (ia, a.offset) < (ib, b.offset)
      })?.element
    else { return nil }
    let text = best.child(named: "Unicode")?.allText ?? ""
    let conf = try best.number("conf")
    return (text, ImportSupport.confidence(conf.map { $0 * 100 }))
  }

  static func paragraph(_ r: XMLTree.Element, turned: Bool) throws(DocumentFormatError)
    -> Paragraph?
  {
    var lines: [TextLine] = []
    for le in r.children(named: "TextLine") {
      if let l = try line(le, turned: turned) { lines.append(l) }
    }
    guard let first = lines.first else { return nil }
    let own = try? coords(r, turned: false).0
    let (role, level) = role(of: r)
    // A cell's place, from its `TableCellRole` (in a `TableRegion`).
    let cell = r.child(named: "Roles")?.child(named: "TableCellRole").flatMap { c in
      Int(c.attributes["rowIndex"] ?? "").flatMap { row in
        Int(c.attributes["columnIndex"] ?? "").map { column in
          TableCellPosition(
            row: max(0, row), column: max(0, column),
            rowSpan: Int(c.attributes["rowSpan"] ?? "") ?? 1,
            columnSpan: Int(c.attributes["colSpan"] ?? "") ?? 1,
            isHeader: ["true", "1"].contains(c.attributes["header"] ?? ""))
        }
      }
    }
    return Paragraph(
      bbox: (own ?? first.bbox).union(all: lines.map(\.bbox)), lines: lines,
      role: cell != nil ? .tableCell : role, headingLevel: level, cell: cell)
  }

  /// The PAGE region type of a role. PAGE has no list-item or table-cell
  /// text type: those are `paragraph` regions whose `custom` attribute
  /// names the structure (see ``structure(_:)``).
  static func regionType(_ role: ParagraphRole) -> String {
    switch role {
    case .heading: "heading"
    case .body, .listItem, .tableCell: "paragraph"
    case .caption: "caption"
    case .header: "header"
    case .footer: "footer"
    case .pageNumber: "page-number"
    case .footnote: "footnote"
    case .marginalia: "marginalia"
    }
  }

  /// The `custom` attribute (Transkribus's convention) for what the region
  /// type cannot say: a heading's level, a list item, a table cell.
  static func structure(_ paragraph: Paragraph) -> String? {
    switch paragraph.role {
    case .heading: "structure {type:heading; level:\(paragraph.headingLevel ?? 1);}"
    case .listItem: "structure {type:list-item;}"
    case .tableCell: "structure {type:table-cell;}"
    default: nil
    }
  }

  /// A region's role from its `type` (and, for what PAGE's types cannot
  /// say, its `custom` structure). Catch-words and signature marks are
  /// page furniture at the foot of the page (`footer`), a continued footnote
  /// or an endnote is a `footnote`, a table-of-contents entry or list label a
  /// `listItem`, a credit a `caption`; drop capitals, floating and other text
  /// are running text.
  static func role(of region: XMLTree.Element) -> (ParagraphRole, Int?) {
    let custom = region.attributes["custom"] ?? ""
    if custom.contains("type:list-item") { return (.listItem, nil) }
    if custom.contains("type:table-cell") { return (.tableCell, nil) }
    let role: ParagraphRole =
      switch region.attributes["type"] ?? "paragraph" {
      case "heading": .heading
      case "caption", "credit": .caption
      case "header": .header
      case "footer", "catch-word", "signature-mark": .footer
      case "page-number": .pageNumber
      case "footnote", "footnote-continued", "endnote": .footnote
      case "marginalia": .marginalia
      case "TOC-entry", "list-label": .listItem
      default: .body
      }
    guard role == .heading else { return (role, nil) }
    // "structure {type:heading; level:2;}"
    guard let range = custom.range(of: "level:") else { return (.heading, 1) }
    let digits = custom[range.upperBound...].prefix { $0.isNumber }
    return (.heading, Int(digits).map { min(6, max(1, $0)) } ?? 1)
  }

  static func line(_ e: XMLTree.Element, turned: Bool) throws(DocumentFormatError) -> TextLine? {
    let (box, quad) = try coords(e, turned: turned)
    var words: [Word] = []
    let wordElements = e.children(named: "Word")
    if wordElements.isEmpty {
      if let (text, conf) = try textEquiv(e) {
        words = ImportSupport.words(from: text, box: box, confidence: conf)
      }
    }
    for we in wordElements {
      let (wordBox, wordQuad) = try coords(we, turned: turned)
      var glyphs: [Glyph] = []
      for ge in we.children(named: "Glyph") {
        let (gb, gq) = try coords(ge, turned: turned)
        let (gt, gc) = try textEquiv(ge) ?? ("", nil)
        glyphs.append(Glyph(text: gt, bbox: gb, quad: gq, confidence: gc))
      }
      var (text, conf) = try textEquiv(we) ?? ("", nil)
      if text.isEmpty, !glyphs.isEmpty { text = glyphs.map(\.text).joined() }
      words += ImportSupport.word(
        text: text, box: wordBox, quad: wordQuad, confidence: conf, glyphs: glyphs)
    }
    guard !words.isEmpty else { return nil }
    var baseline: Baseline?
    if let b = e.child(named: "Baseline") {
      let raw = try b.attribute("points")
      guard let points = ImportGeometry.points(raw), let s = points.first, let t = points.last,
        points.count >= 2
      else { throw b.error("'points' must be two or more x,y pairs, not \"\(raw)\"") }
      baseline = Baseline(start: s, end: t)
    }
    // Coords of more than four points in the shape of a curved line's
    // outline are its polygon; the quad is then the rectangle along its
    // chord that holds it and the words.
    if let raw = e.child(named: "Coords")?.attributes["points"],
      let points = ImportGeometry.points(raw), points.count > 4, TextLine.isLinePolygon(points),
      let chord = TextLine.chordRectangle(
        of: points, holding: words.flatMap(\.corners.corners))
    {
      return TextLine(
        bbox: box.union(all: words.map(\.bbox)), quad: chord, polygon: points,
        baseline: baseline, words: words)
    }
    return TextLine(
      bbox: box.union(all: words.map(\.bbox)), quad: quad, baseline: baseline, words: words)
  }
}
