import Foundation
import ScanModel

/// The logical structure of a searchable PDF (a *tagged* PDF: ISO 32000-1
/// §14.7–14.8, PDF/UA-1), built from the model.
///
/// Each page's paragraphs become structure elements in the model's reading
/// order: headings `H1`–`H6` (levels never skip: a heading is at most one
/// level below the one before, as in the accessible HTML), running text
/// and margin notes `P`, list items `L`/`LI` with the marker a `Lbl` and the
/// rest an `LBody`, table cells `Table`/`TR`/`TH`/`TD` (a header cell,
/// ``ScanModel/TableCellPosition/isHeader``, a `TH` with `/Scope /Column`;
/// in a table with none, its first row, as PDF/UA-1 asks; spans as
/// `/RowSpan`, `/ColSpan`; places no cell covers as empty `TD`s, so every row
/// has as many cells as the table has columns), `Caption`, footnotes `Note`
/// (each with its `/ID`), and the hyphen that breaks a word at a line end
/// a `Span` of its own whose `/ActualText` is the soft hyphen U+00AD (PDF
/// 1.7 §10.7, "Incidental artifacts": in a tagged PDF an incidental word
/// division *must* be a soft hyphen, distinct from a hard one, so that a
/// consumer need not guess; a screen reader then reads the joined word,
/// and a reader that takes `/ActualText` still has both parts, each on its
/// ink, and finds the joined word: MuPDF's search). Running
/// heads, running feet and page numbers are pagination artifacts, as is the
/// page image (the scan's text is what the tags carry). The pages' elements
/// are the children of one `Document`.
///
/// The text layer ties its words to the elements with marked content: each
/// run of words of one element is `/Tag << /MCID n >> BDC … EMC`, numbered
/// from 0 on each page; the page's entry in the parent tree lists, for each
/// MCID, the element that holds it.
package struct PDFTags {
  /// What the text layer wraps a word in.
  package enum Mark: Equatable, Sendable {
    /// Real content of the element with this structure type.
    case content(type: String, mcid: Int)
    /// A pagination artifact (`/Header` or `/Footer`).
    case artifact(subtype: String)
    /// A word whose last `units` UTF-16 code units are a hyphen that breaks
    /// it at its line's end: the word real content like ``content(type:mcid:)``,
    /// the hyphen in a `Span` of its own with the MCID `hyphen` (its
    /// `/ActualText` the soft hyphen).
    case broken(type: String, mcid: Int, hyphen: Int, units: Int)

    /// The operator that opens the marked content.
    var opening: String {
      switch self {
      case .content(let type, let mcid): "/\(type) << /MCID \(mcid) >> BDC\n"
      case .artifact(let subtype):
        "/Artifact << /Type /Pagination /Subtype /\(subtype) >> BDC\n"
      case .broken(let type, let mcid, _, _): Mark.content(type: type, mcid: mcid).opening
      }
    }
  }

  /// A structure element being built.
  package struct Element: Sendable {
    /// The standard structure type (`P`, `H1`, `TD`, …).
    var type: String
    /// Its children in order.
    var kids: [Kid] = []
    /// Its attributes (`/A`), as a PDF dictionary's entries.
    var attributes: String?
    /// The text it stands for, when that differs from its content's.
    var actualText: String?
    /// Its identifier (`/ID`), for notes.
    var id: String?
    /// Its alternative description (`/Alt`), for figures.
    var alt: String?
    /// The boxes of the words it holds itself (not its children's), in
    /// the page's pixels: where an annotation covers its text.
    var words: [PixelRect] = []
    /// The annotations inside it (each with its parent tree key), written
    /// after its children.
    var annotations: [(annotation: Annotation, key: Int)] = []

    init(_ type: String, attributes: String? = nil) {
      self.type = type
      self.attributes = attributes
    }
  }

  /// A child of an element: another element, or a marked-content run of
  /// the element's page.
  package indirect enum Kid: Sendable {
    case element(Element)
    case content(mcid: Int)
  }

  /// One page's part: its elements (children of the document, in reading
  /// order), each word's mark in the text layer's order, and the number of
  /// MCIDs.
  package struct PagePlan: Sendable {
    /// The page's top-level elements.
    package var elements: [Element] = []
    /// For each word of the page, in the order of `blocks` → `paragraphs`
    /// → `lines` → `words`, its mark.
    package var marks: [Mark] = []
    /// The MCIDs used (0 ..< `mcidCount`).
    package var mcidCount = 0
    /// The page's figures: each one's MCID and outline in user space
    /// (points, y up), for the content that draws its part of the page
    /// image in marked content.
    package var figures: [(mcid: Int, outline: [Point])] = []

    /// An empty plan: a page with no part in the tags ScanText writes.
    package init() {}
  }

  /// Tags for a new document.
  package init() {}

  /// The highest heading level so far (headings never skip a level).
  private(set) var previousHeadingLevel = 0
  /// The notes numbered so far (each note's `/ID` is unique in the file).
  private var notes = 0

  /// Plans a page's tags (the next page of the document).
  ///
  /// A ``ScanModel/Figure`` of the page becomes a `Figure` element (its
  /// `/Alt` the figure's text, else "Picture" and the caption beside it,
  /// its `/BBox` in user space) before the first paragraph, in reading
  /// order, that starts at or below the figure's top in its column (whose
  /// extent across overlaps the figure's; page furniture aside), else
  /// after the last one above it in its column, else at the page's end. Its
  /// content is the part of the page image inside its outline, drawn again
  /// in marked content by the writer (the whole image stays an artifact
  /// beneath: the figure's part is then read once, as the figure).
  ///
  /// - Parameters:
  ///   - page: The page.
  ///   - pixelToUser: The map from the page's pixels to user space, for the
  ///     figures' boxes; `nil` leaves figures out (a writer that does not
  ///     draw them).
  /// - Complexity: O(*n* log *n* + *b* log *n* + *f* · *p*) in the page's
  ///   words, hyphen breaks, figures and paragraphs.
  package mutating func plan(_ page: Page, pixelToUser: ScanModel.AffineTransform? = nil)
    -> PagePlan
  {
    var plan = PagePlan()
    // The words that end in a hyphen breaking them at their line's end
    // (by where they start in the page text), and the hyphen's length.
    var softHyphens: [Int: Int] = [:]
    // The words by where they end in the page text (each break's word
    // found by binary search, not by a pass over every word).
    let words = page.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
      .sorted { $0.range.upperBound.offset < $1.range.upperBound.offset }
    // A compound's hyphen (`e-` / `mail`) is the word's own: not soft.
    for brk in page.hyphenBreaks where brk.kind == .wordBreak {
      let end = brk.hyphen.upperBound.offset
      var low = 0
      var high = words.count
      while low < high {
        let mid = (low + high) / 2
        if words[mid].range.upperBound.offset < end { low = mid + 1 } else { high = mid }
      }
      guard low < words.count, words[low].range.upperBound.offset == end,
        words[low].range.lowerBound.offset <= brk.hyphen.lowerBound.offset
      else { continue }
      softHyphens[words[low].range.lowerBound.offset] =
        brk.hyphen.upperBound.offset - brk.hyphen.lowerBound.offset
    }

    // The page's paragraphs in order, grouped: a list's items, a table's
    // cells.
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    // Each figure's place: the paragraph it goes before.
    let figures = pixelToUser == nil ? [] : Self.figurePlaces(page.figures, among: paragraphs)
    var nextFigure = 0
    func placeFigures(upTo index: Int) {
      while nextFigure < figures.count, figures[nextFigure].place <= index, let map = pixelToUser {
        let figure = figures[nextFigure].figure
        nextFigure += 1
        let outline = [
          figure.corners.topLeft, figure.corners.topRight, figure.corners.bottomRight,
          figure.corners.bottomLeft,
        ].map { map.apply(to: $0) }
        let xs = outline.map(\.x)
        let ys = outline.map(\.y)
        let box = [xs.min(), ys.min(), xs.max(), ys.max()].map {
          SearchablePDF.num($0 ?? 0)
        }
        var element = Element(
          "Figure", attributes: "/O /Layout /BBox [\(box.joined(separator: " "))]")
        element.alt = figure.alternativeText ?? Self.alternativeText(for: figure, in: paragraphs)
        let mcid = plan.mcidCount
        plan.mcidCount += 1
        element.kids.append(.content(mcid: mcid))
        plan.figures.append((mcid, outline))
        plan.elements.append(element)
      }
    }
    var index = 0
    while index < paragraphs.count {
      placeFigures(upTo: index)
      let paragraph = paragraphs[index]
      switch paragraph.role {
      case .header, .footer, .pageNumber:
        let top = paragraph.bbox.minY + paragraph.bbox.maxY < page.height
        let subtype = paragraph.role == .header || (paragraph.role == .pageNumber && top)
        for _ in paragraph.words {
          plan.marks.append(.artifact(subtype: subtype ? "Header" : "Footer"))
        }
        index += 1
      case .listItem:
        var list = Element("L")
        while index < paragraphs.count, paragraphs[index].role == .listItem {
          var item = Element("LI")
          let words = paragraphs[index].words
          var body = Element("LBody")
          if words.count >= 2,
            TextCues.startsLikeListItem(paragraphs[index].text)
              || RoleDetection.startsWithMisreadBullet(paragraphs[index])
          {
            var label = Element("Lbl")
            fill(&label, words: words[..<1], plan: &plan, hyphens: softHyphens)
            item.kids.append(.element(label))
            fill(&body, words: words[1...], plan: &plan, hyphens: softHyphens)
          } else {
            fill(&body, words: words[...], plan: &plan, hyphens: softHyphens)
          }
          item.kids.append(.element(body))
          list.kids.append(.element(item))
          index += 1
        }
        plan.elements.append(list)
      case .tableCell where paragraph.cell != nil:
        var cells: [(TableCellPosition, Paragraph)] = []
        while index < paragraphs.count, let cell = paragraphs[index].cell {
          cells.append((cell, paragraphs[index]))
          index += 1
        }
        plan.elements.append(table(cells, plan: &plan, hyphens: softHyphens))
      default:
        var element: Element
        switch paragraph.role {
        case .heading:
          let level = HeadingLevels.written(paragraph.headingLevel, after: previousHeadingLevel)
          previousHeadingLevel = level
          element = Element("H\(level)")
        case .caption: element = Element("Caption")
        case .footnote:
          notes += 1
          element = Element("Note")
          element.id = "note-\(notes)"
        default: element = Element("P")
        }
        fill(
          &element, words: paragraph.words[...], plan: &plan, hyphens: softHyphens)
        plan.elements.append(element)
        index += 1
      }
    }
    placeFigures(upTo: paragraphs.count)
    return plan
  }

  /// Where each figure goes in reading order: before the first paragraph
  /// that starts at or below the figure's top in its column (whose extent
  /// across overlaps the figure's; running heads, feet and page numbers
  /// aside), else after the last one above it in its column, else at the
  /// page's end. The tagged PDF and the Markdown place figures so.
  /// - Parameters:
  ///   - figures: The page's figures.
  ///   - paragraphs: The page's paragraphs in reading order.
  /// - Returns: Each figure with the index of the paragraph it goes before
  ///   (`paragraphs.count` for the end), in that order.
  /// - Complexity: O(*f* · *p*) in the figures and paragraphs.
  static func figurePlaces(_ figures: [Figure], among paragraphs: [Paragraph])
    -> [(place: Int, figure: Figure)]
  {
    var places: [(place: Int, figure: Figure)] = []
    for figure in figures {
      let f = figure.bbox
      // Page furniture (artifacts) has no place in reading order.
      func inColumn(_ p: Paragraph) -> Bool {
        ![.header, .footer, .pageNumber].contains(p.role) && p.bbox.minX < f.maxX
          && p.bbox.maxX > f.minX
      }
      let below = paragraphs.firstIndex { inColumn($0) && $0.bbox.minY >= f.minY }
      let above = paragraphs.lastIndex { inColumn($0) && $0.bbox.maxY <= f.minY }
      places.append((below ?? above.map { $0 + 1 } ?? paragraphs.count, figure))
    }
    return places.sorted { $0.place < $1.place }
  }

  /// "Picture", and the text of the caption beside the figure when the
  /// page has one: a caption paragraph overlapping the figure across, whose
  /// gap to the figure's top or bottom is at most a quarter of the
  /// figure's height.
  static func alternativeText(for figure: Figure, in paragraphs: [Paragraph]) -> String {
    let f = figure.bbox
    let reach = max(1, f.height / 4)
    let caption = paragraphs.first { p in
      p.role == .caption && p.bbox.minX < f.maxX && p.bbox.maxX > f.minX
        && p.bbox.minY < f.maxY + reach && p.bbox.maxY > f.minY - reach
    }
    guard let caption else { return "Picture" }
    return "Picture: " + caption.text
  }

  /// A table of cells read row by row.
  private func table(
    _ cells: [(TableCellPosition, Paragraph)], plan: inout PagePlan, hyphens: [Int: Int]
  ) -> Element {
    // The grid is rows × columns places, each written out: a page read
    // from a file is within ``ModelLimits/tablePlaceLimit(words:)``; a
    // page made otherwise beyond it (or with a place that overflows) gets
    // a row per cell, as two cells at one place do below.
    let words = cells.reduce(0) { $0 + $1.1.words.count }
    let limit = ModelLimits.tablePlaceLimit(words: words)
    func end(_ start: Int, _ span: Int) -> Int? {
      guard start >= 0, span >= 1, start < limit, span <= limit - start else { return nil }
      return start + span
    }
    let columnEnds = cells.map { end($0.0.column, $0.0.columnSpan) }
    let rowEnds = cells.map { end($0.0.row, $0.0.rowSpan) }
    let columns = columnEnds.map { $0 ?? 0 }.max() ?? 0
    let rows = rowEnds.map { $0 ?? 0 }.max() ?? 0
    guard !columnEnds.contains(nil), !rowEnds.contains(nil),
      rows.multipliedReportingOverflow(by: columns).partialValue <= limit
    else {
      var table = Element("Table")
      for (_, paragraph) in cells {
        var cell = Element("TD", attributes: "/O /Table")
        fill(&cell, words: paragraph.words[...], plan: &plan, hyphens: hyphens)
        var row = Element("TR")
        row.kids.append(.element(cell))
        table.kids.append(.element(row))
      }
      return table
    }
    // Which places a cell covers (its own row or, spanning, a lower one).
    var covered = Array(repeating: Array(repeating: false, count: columns), count: rows)
    for (cell, _) in cells {
      for r in cell.row..<(cell.row + cell.rowSpan) {
        for c in cell.column..<(cell.column + cell.columnSpan) { covered[r][c] = true }
      }
    }
    // Each cell's element, its content marked in the model's order (the
    // order of the text layer's words).
    var elements: [Element] = []
    // PDF/UA-1 asks every table for header cells (UA-15-003): a table
    // whose model marks none keeps its first row as the header, as
    // before header cells were told.
    let marked = cells.contains { $0.0.isHeader }
    for (position, paragraph) in cells {
      let header = marked ? position.isHeader : position.row == 0 && rows > 1
      var attributes = "/O /Table"
      if header { attributes += " /Scope /Column" }
      if position.rowSpan > 1 { attributes += " /RowSpan \(position.rowSpan)" }
      if position.columnSpan > 1 { attributes += " /ColSpan \(position.columnSpan)" }
      var cell = Element(header ? "TH" : "TD", attributes: attributes)
      fill(&cell, words: paragraph.words[...], plan: &plan, hyphens: hyphens)
      elements.append(cell)
    }
    var places: [[Int?]] = Array(repeating: Array(repeating: nil, count: columns), count: rows)
    for (k, (position, _)) in cells.enumerated() where places[position.row][position.column] == nil
    {
      places[position.row][position.column] = k
    }
    var table = Element("Table")
    for r in 0..<rows {
      var row = Element("TR")
      for c in 0..<columns {
        if let k = places[r][c] {
          row.kids.append(.element(elements[k]))
        } else if !covered[r][c] {
          // A place no cell covers: an empty cell keeps the row as wide as
          // the table.
          let header = r == 0 && rows > 1
          row.kids.append(
            .element(
              Element(header ? "TH" : "TD", attributes: header ? "/O /Table /Scope /Column" : nil)))
        }
      }
      table.kids.append(.element(row))
    }
    // Two cells at one place (never from the table step): the second in a
    // row of its own, so that no text is lost.
    for (k, (position, _)) in cells.enumerated() where places[position.row][position.column] != k {
      var row = Element("TR")
      row.kids.append(.element(elements[k]))
      table.kids.append(.element(row))
    }
    return table
  }

  /// Marks `words` as the content of `element`: one MCID for each run of
  /// words, and a `Span` with its own MCID for each hyphen that breaks a
  /// word (`hyphens`: the hyphen's length by the word's start), its
  /// `/ActualText` the soft hyphen; the words after it start a new run.
  private func fill(
    _ element: inout Element, words: ArraySlice<Word>, plan: inout PagePlan, hyphens: [Int: Int]
  ) {
    var run: Int?
    func newMCID() -> Int {
      defer { plan.mcidCount += 1 }
      return plan.mcidCount
    }
    for word in words {
      let units = hyphens[word.range.lowerBound.offset]
      // A hyphen read as a word of its own (`Men -⏎ſchen`) is all Span.
      if let units, units >= word.text.utf16.count {
        let mcid = newMCID()
        element.kids.append(.element(Self.softHyphen(mcid: mcid)))
        plan.marks.append(.content(type: "Span", mcid: mcid))
        run = nil
        continue
      }
      let mcid: Int
      if let run {
        mcid = run
      } else {
        mcid = newMCID()
        element.kids.append(.content(mcid: mcid))
      }
      run = mcid
      element.words.append(word.bbox)
      guard let units else {
        plan.marks.append(.content(type: element.type, mcid: mcid))
        continue
      }
      let hyphen = newMCID()
      element.kids.append(.element(Self.softHyphen(mcid: hyphen)))
      plan.marks.append(.broken(type: element.type, mcid: mcid, hyphen: hyphen, units: units))
      run = nil
    }
  }

  /// The `Span` of a hyphen that breaks a word: its `/ActualText` the soft
  /// hyphen (U+00AD).
  private static func softHyphen(mcid: Int) -> Element {
    var span = Element("Span")
    span.actualText = "\u{AD}"
    span.kids.append(.content(mcid: mcid))
    return span
  }
}

extension PDFTags {
  /// An annotation the structure holds (PDF/UA-1 §7.18): a link, or a form
  /// field's widget.
  package struct Annotation: Sendable {
    /// The annotation's reference (`12 0 R`).
    package var reference: String
    /// Its element's structure type: `Link`, or `Form` for a widget.
    package var type: String
    /// Its `/Rect` in user space (`[x0, y0, x1, y1]`), to find the element
    /// whose text it covers; `nil` puts it after the page's elements.
    package var rect: [Double]?

    /// An annotation to tag.
    /// - Parameters:
    ///   - reference: The annotation's reference (`12 0 R`).
    ///   - type: Its element's structure type (`Link`, `Form`).
    ///   - rect: Its `/Rect` in user space, if known.
    package init(_ reference: String, type: String, rect: [Double]? = nil) {
      self.reference = reference
      self.type = type
      self.rect = rect
    }
  }

  /// A page's part of the structure, kept until the tree is written.
  package struct PagePart: Sendable {
    /// The page's top-level elements.
    var elements: [Element]
    /// The number of MCIDs its content uses.
    var mcids: Int
    /// The page's links and form fields' widgets, each becoming an element
    /// (`Link`, `Form`) with an object reference (`OBJR`) to the annotation
    /// as its content (PDF/UA-1 §7.18.4–5): inside the element whose words
    /// its rectangle covers most (the deepest one holding words), else
    /// after the page's elements.
    package var annotations: [Annotation] = []
    /// The map from the page's pixels to its user space (the one its text
    /// layer or marks were made with), to compare annotations' rectangles
    /// with words; `nil` puts every annotation after the page's elements.
    package var pixelToUser: ScanModel.AffineTransform?

    /// A page's part from its plan.
    package init(_ plan: PagePlan) {
      elements = plan.elements
      mcids = plan.mcidCount
    }

    /// The page's elements with each annotation placed inside the element
    /// whose words its rectangle overlaps most (by area; the deepest such
    /// element, as words belong to the element that holds them), and
    /// those that cover no word.
    /// - Parameter firstKey: The parent tree key of the page's first
    ///   annotation (the others' follow in order).
    /// - Complexity: O(*a* · *w*) in the annotations and the page's words.
    func placingAnnotations(firstKey: Int) -> (
      elements: [Element], trailing: [(annotation: Annotation, key: Int)]
    ) {
      var elements = elements
      var trailing: [(annotation: Annotation, key: Int)] = []
      let toPixels = pixelToUser?.inverted
      for (k, annotation) in annotations.enumerated() {
        let placed = (annotation: annotation, key: firstKey + k)
        guard let rect = annotation.rect, rect.count == 4, let toPixels else {
          trailing.append(placed)
          continue
        }
        let corners = [(0, 1), (2, 1), (2, 3), (0, 3)].map {
          toPixels.apply(to: Point(x: rect[$0.0], y: rect[$0.1]))
        }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let box = (
          minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0
        )
        func overlap(_ words: [PixelRect]) -> Double {
          words.reduce(0) { sum, w in
            let dx = min(box.maxX, Double(w.maxX)) - max(box.minX, Double(w.minX))
            let dy = min(box.maxY, Double(w.maxY)) - max(box.minY, Double(w.minY))
            return sum + (dx > 0 && dy > 0 ? dx * dy : 0)
          }
        }
        // The element (a path of kid indexes) whose own words it overlaps
        // most.
        var best: (area: Double, path: [Int]) = (0, [])
        func search(_ element: Element, path: [Int]) {
          let area = overlap(element.words)
          if area > best.area { best = (area, path) }
          for (i, kid) in element.kids.enumerated() {
            if case .element(let child) = kid { search(child, path: path + [i]) }
          }
        }
        for (i, element) in elements.enumerated() { search(element, path: [i]) }
        guard let top = best.path.first else {
          trailing.append(placed)
          continue
        }
        func add(to element: inout Element, path: ArraySlice<Int>) {
          guard let first = path.first else {
            element.annotations.append(placed)
            return
          }
          guard case .element(var child) = element.kids[first] else { return }
          add(to: &child, path: path.dropFirst())
          element.kids[first] = .element(child)
        }
        add(to: &elements[top], path: best.path.dropFirst())
      }
      return (elements, trailing)
    }
  }

  /// The structure tree's objects: the tree root, one `Document` holding
  /// every page's elements in order, the elements, and the parent tree
  /// (page *i*'s entry is key *i*: for each MCID the element that holds
  /// it; the *k*-th annotation of the document, in page order and each
  /// page's ``PagePart/annotations`` order, is key `count + k`: its `Link`
  /// or `Form` element, which the annotation's `/StructParent` names).
  /// Object numbers come from `allocate` (a count in, that many
  /// references out), so that a new file and a file edited with qpdf
  /// write the same tree.
  ///
  /// - Parameters:
  ///   - pages: Each page's part, in order.
  ///   - pageReferences: Each page object's reference (`12 0 R`).
  ///   - count: The parent tree's next key (the number of pages).
  ///   - allocate: Gives references for new objects.
  /// - Returns: Each object's reference and dictionary, and the root's
  ///   reference.
  /// - Complexity: O(*n* + *a* · *w*) in the elements and MCIDs, the
  ///   annotations and the words.
  package static func objects(
    pages: [PagePart], pageReferences: [String], count: Int, allocate: (Int) -> [String]
  ) -> (objects: [(String, Value)], root: String) {
    let fixed = allocate(3)
    let (root, document, parentTree) = (fixed[0], fixed[1], fixed[2])
    var out: [(String, Value)] = []
    var documentKids: [Value] = []
    var nums: [Value] = []
    // Each annotation's element by its parent tree key.
    var annotationElements: [Int: String] = [:]
    var nextKey = count
    for (page, part) in pages.enumerated() where page < pageReferences.count {
      var holders = Array(repeating: document, count: part.mcids)
      let (elements, trailing) = part.placingAnnotations(firstKey: nextKey)
      nextKey += part.annotations.count
      for element in elements {
        documentKids.append(
          .reference(
            write(
              element, parent: document, page: pageReferences[page], holders: &holders,
              annotations: &annotationElements, into: &out, allocate: allocate)))
      }
      nums += [.raw("\(page)"), .array(holders.map(Value.reference))]
      for placed in trailing {
        let reference = annotationElement(
          placed.annotation, parent: document, page: pageReferences[page], into: &out,
          allocate: allocate)
        annotationElements[placed.key] = reference
        documentKids.append(.reference(reference))
      }
    }
    // (A number tree's keys ascend: the annotations' after the pages'.)
    for key in annotationElements.keys.sorted() {
      if let element = annotationElements[key] { nums += [.raw("\(key)"), .reference(element)] }
    }
    out.append(
      (
        root,
        .dictionary([
          ("/Type", .raw("/StructTreeRoot")), ("/K", .reference(document)),
          ("/ParentTree", .reference(parentTree)),
          ("/ParentTreeNextKey", .raw("\(nextKey)")),
        ])
      ))
    out.append(
      (
        document,
        .dictionary([
          ("/S", .raw("/Document")), ("/P", .reference(root)), ("/K", .array(documentKids)),
        ])
      ))
    out.append((parentTree, .dictionary([("/Nums", .array(nums))])))
    return (out, root)
  }

  /// An annotation's element (`Link`, `Form`): its content an object
  /// reference to the annotation. Returns its reference.
  private static func annotationElement(
    _ annotation: Annotation, parent: String, page: String, into out: inout [(String, Value)],
    allocate: (Int) -> [String]
  ) -> String {
    let reference = allocate(1)[0]
    let object: Value = .dictionary([
      ("/Type", .raw("/OBJR")), ("/Obj", .reference(annotation.reference)),
      ("/Pg", .reference(page)),
    ])
    out.append(
      (
        reference,
        .dictionary([
          ("/S", .raw("/\(annotation.type)")), ("/P", .reference(parent)),
          ("/Pg", .reference(page)), ("/K", object),
        ])
      ))
    return reference
  }

  /// A PDF value of the structure tree, references apart (a file edited
  /// with qpdf makes each reference a handle; a new file writes its text).
  package indirect enum Value: Sendable {
    /// A value without references, as PDF writes it (`12`, `/P`,
    /// `<< /O /Table >>`, a string).
    case raw(String)
    /// An indirect object's reference (`12 0 R`).
    case reference(String)
    case array([Value])
    case dictionary([(String, Value)])

    /// The value as PDF writes it.
    package var text: String {
      switch self {
      case .raw(let s), .reference(let s): s
      case .array(let items): "[" + items.map(\.text).joined(separator: " ") + "]"
      case .dictionary(let entries):
        "<< " + entries.map { "\($0.0) \($0.1.text)" }.joined(separator: " ") + " >>"
      }
    }
  }

  /// An element and its descendants; returns its reference.
  private static func write(
    _ element: Element, parent: String, page: String, holders: inout [String],
    annotations: inout [Int: String], into out: inout [(String, Value)],
    allocate: (Int) -> [String]
  ) -> String {
    let reference = allocate(1)[0]
    var kids: [Value] = []
    for kid in element.kids {
      switch kid {
      case .content(let mcid):
        if mcid < holders.count { holders[mcid] = reference }
        kids.append(.raw("\(mcid)"))
      case .element(let child):
        kids.append(
          .reference(
            write(
              child, parent: reference, page: page, holders: &holders,
              annotations: &annotations, into: &out, allocate: allocate)))
      }
    }
    for placed in element.annotations {
      let annotation = annotationElement(
        placed.annotation, parent: reference, page: page, into: &out, allocate: allocate)
      annotations[placed.key] = annotation
      kids.append(.reference(annotation))
    }
    // `/Type /StructElem` is optional: left out, as every byte of the
    // structure counts on a small page. One kid stands alone (an array of
    // one is the same; `pdfua` 0.1.3 cannot read a heading's array: it
    // skips its empty-heading rule).
    var entries: [(String, Value)] = [
      ("/S", .raw("/\(element.type)")), ("/P", .reference(parent)), ("/Pg", .reference(page)),
      ("/K", kids.count == 1 ? kids[0] : .array(kids)),
    ]
    if let attributes = element.attributes { entries.append(("/A", .raw("<< \(attributes) >>"))) }
    if let text = element.actualText {
      entries.append(("/ActualText", .raw(SearchablePDF.literal(text))))
    }
    if let id = element.id { entries.append(("/ID", .raw("(\(id))"))) }
    if let alt = element.alt { entries.append(("/Alt", .raw(SearchablePDF.literal(alt)))) }
    out.append((reference, .dictionary(entries)))
    return reference
  }
}

extension Paragraph {
  /// The paragraph's words in order.
  fileprivate var words: [Word] { lines.flatMap(\.words) }
  /// The paragraph's words joined by spaces (enough to tell a list
  /// marker).
  fileprivate var text: String { words.map(\.text).joined(separator: " ") }
}

/// Writes the text layer's marked content: a word's mark opens when it
/// differs from the one before, and the last one closes at the end.
struct MarkedContent {
  private let marks: [PDFTags.Mark]
  private var open: PDFTags.Mark?

  /// Marked content for a page's words (no marks: none written).
  init(_ marks: [PDFTags.Mark]) { self.marks = marks }

  /// The operators before the page's word number `index` (counted over
  /// every word, written or not).
  mutating func enter(word index: Int) -> String {
    guard index < marks.count else { return "" }
    var mark = marks[index]
    if case .broken(let type, let mcid, _, _) = mark { mark = .content(type: type, mcid: mcid) }
    return enter(mark)
  }

  /// For a word whose last code units are a hyphen that breaks it, the
  /// number of those units and the operators that go before them (the
  /// hyphen's own `Span`).
  mutating func hyphen(ofWord index: Int) -> (units: Int, operators: String)? {
    guard index < marks.count, case .broken(_, _, let mcid, let units) = marks[index] else {
      return nil
    }
    return (units, enter(.content(type: "Span", mcid: mcid)))
  }

  private mutating func enter(_ mark: PDFTags.Mark) -> String {
    guard mark != open else { return "" }
    let out = (open == nil ? "" : "EMC\n") + mark.opening
    open = mark
    return out
  }

  /// The operator that closes the last mark, if one is open.
  mutating func close() -> String {
    defer { open = nil }
    return open == nil ? "" : "EMC\n"
  }
}

extension PDFTags {
  /// A figure's content: `drawing` (what paints the page image, in user
  /// space) clipped to the figure's outline, inside the figure's marked
  /// content. Drawn over the page image (an artifact), it paints the same
  /// pixels on the same pixels: the page looks the same, and the figure's
  /// part of the image is read once, as the figure.
  /// - Parameters:
  ///   - figure: The figure's MCID and outline (user space, from
  ///     ``PagePlan/figures``).
  ///   - drawing: Operators that paint the page image (balanced `q … Q`).
  /// - Returns: Content-stream operators, ending with a newline; none for
  ///   an outline without points.
  package static func figureContent(
    _ figure: (mcid: Int, outline: [Point]), drawing: String
  ) -> String {
    guard let first = figure.outline.first else { return "" }
    let num = SearchablePDF.num
    var path = "\(num(first.x)) \(num(first.y)) m"
    for p in figure.outline.dropFirst() { path += " \(num(p.x)) \(num(p.y)) l" }
    return "/Figure << /MCID \(figure.mcid) >> BDC\nq \(path) h W n\n\(drawing)Q\nEMC\n"
  }
}

extension PDFTags.PagePlan {
  /// The plan of a page whose own content is marked in place
  /// (``PDFContentMarking``): each element's content, a run of the plan's
  /// MCIDs, becomes the marked-content sequences written for it, in the
  /// content's order; an element left with no content (its words' text
  /// shown from another one's place, or a broken word's hyphen, which the
  /// page shows in the word's own string) is left out.
  /// - Parameter owners: For each MCID written, the plan's MCID that holds
  ///   it (``PDFContentMarking/Result/owners``).
  /// - Returns: The plan with the MCIDs written; its marks are the plan's.
  /// - Complexity: O(*n* + *m*) in the elements and MCIDs.
  package func remapped(owners: [Int]) -> PDFTags.PagePlan {
    var written: [Int: [Int]] = [:]
    for (mcid, owner) in owners.enumerated() { written[owner, default: []].append(mcid) }
    func remap(_ element: PDFTags.Element) -> PDFTags.Element? {
      var copy = element
      copy.kids = []
      for kid in element.kids {
        switch kid {
        case .content(let mcid):
          copy.kids += (written[mcid] ?? []).map { PDFTags.Kid.content(mcid: $0) }
        case .element(let child):
          if let child = remap(child) { copy.kids.append(.element(child)) }
        }
      }
      return copy.kids.isEmpty && !element.kids.isEmpty ? nil : copy
    }
    var plan = self
    plan.elements = elements.compactMap(remap)
    plan.mcidCount = owners.count
    plan.figures = []
    return plan
  }
}
