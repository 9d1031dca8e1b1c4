import ScanModel

/// Writes pages as one Markdown document (CommonMark, with GitHub's pipe
/// tables): the text a reader reads, in the model's reading order, for
/// search and language tools.
///
/// Each page's paragraphs, in order, pages one after another:
///
/// - headings as `#` to `######`, at the page's measured level but never
///   more than one below the heading before in the document (as the
///   accessible HTML and the tagged PDF);
/// - list items as `- ` (bulleted) or with their own number (`1.`, `2)`);
///   an item whose marker is a letter or a roman number (`a)`, `(iv)`)
///   keeps it after a `- `, which CommonMark's ordered lists cannot hold.
///   A nested item (``ScanModel/Paragraph/listLevel``) is indented to its
///   parent's text;
/// - tables read cell by cell (``PageTable``) as pipe tables, their header
///   the cells marked so, else the first row; a table with a spanning
///   cell, or with header cells elsewhere than in its first row, as an
///   HTML `table` (`th`, `td`, `rowspan`, `colspan`);
/// - captions in italics where the reading order has them; each figure
///   as an image placeholder `![alt](#)` where the tagged PDF places it
///   (its alternative text, else "Picture" and its caption);
/// - footnotes as plain paragraphs after the page's text;
/// - running heads, feet and page numbers left out;
/// - a paragraph's lines joined by spaces, words hyphenated at a line end
///   joined (``ScanModel/Page/spokenText(in:)``); blocks separated by a
///   blank line.
///
/// Text is escaped so that it reads as text: `\`, `*`, `_`, the backtick, `[`,
/// `]`, `<`, `~` and an `&` that starts an entity get a backslash, and so
/// does what would start a block at the start of a paragraph (`#`, `-`,
/// `+`, `>`, `1.`, `1)`); a `|` in a table cell.
public enum Markdown {
  /// The Markdown document of `pages`, in order.
  /// - Complexity: O(*n*) in the pages' characters, plus O(*f* · *p*) in
  ///   each page's figures and paragraphs.
  public static func markdown(pages: [Page]) -> String {
    var writer = Writer()
    return pages.map { writer.page($0) }.joined()
  }

  /// Writes the Markdown document page by page (``markdown(pages:)``
  /// gives the same text at once): each page's text as it comes; the
  /// document has no head or tail.
  public struct Writer: Sendable {
    /// The level written for the last heading (0 before the first).
    private var previousLevel = 0
    /// Whether a block was written (the next one is set apart by a blank
    /// line).
    private var wroteBlock = false
    /// The number of pages written.
    public private(set) var pageCount = 0

    /// Starts a document.
    public init() {}

    /// The text of the next page: its blocks, each followed by a newline
    /// and set apart from the one before by a blank line.
    /// - Complexity: O(*n*) in the page's characters, plus O(*f* · *p*) in
    ///   its figures and paragraphs.
    public mutating func page(_ page: Page) -> String {
      pageCount += 1
      var out = ""
      for block in blocks(of: page) {
        out += (wroteBlock ? "\n" : "") + block + "\n"
        wroteBlock = true
      }
      return out
    }

    /// The page's Markdown blocks, in reading order, footnotes last.
    private mutating func blocks(of page: Page) -> [String] {
      let numbered = PageTable.numbered(page)
      let paragraphs = numbered.map(\.paragraph)
      let figures = PDFTags.figurePlaces(page.figures, among: paragraphs)
      var nextFigure = 0
      var out: [String] = []
      var footnotes: [String] = []
      func placeFigures(upTo index: Int) {
        while nextFigure < figures.count, figures[nextFigure].place <= index {
          let figure = figures[nextFigure].figure
          nextFigure += 1
          let alt =
            figure.alternativeText ?? PDFTags.alternativeText(for: figure, in: paragraphs)
          let words = alt.split { $0 == " " || $0.isNewline }.joined(separator: " ")
          out.append("![\(Markdown.escaped(words))](#)")
        }
      }
      var index = 0
      while index < numbered.count {
        placeFigures(upTo: index)
        let paragraph = numbered[index].paragraph
        let tableEnd = PageTable.tableEnd(from: index, in: numbered)
        if tableEnd > index {
          let cells = numbered[index..<tableEnd].map(\.paragraph)
          let table = Markdown.table(PageTable(cells, on: page))
          if !table.isEmpty { out.append(table) }
          index = tableEnd
          continue
        }
        if paragraph.role == .listItem {
          var items: [Paragraph] = []
          // A figure whose place falls inside the list follows it (as in
          // the tagged PDF).
          while index < numbered.count, numbered[index].paragraph.role == .listItem {
            items.append(numbered[index].paragraph)
            index += 1
          }
          if let list = Markdown.list(items, on: page) { out.append(list) }
          continue
        }
        index += 1
        let text = page.readingText(of: paragraph)
        guard !text.isEmpty else { continue }
        switch paragraph.role {
        case .header, .footer, .pageNumber:
          continue
        case .footnote:
          footnotes.append(Markdown.escapedBlock(text))
        case .heading:
          let level = HeadingLevels.written(paragraph.headingLevel, after: previousLevel)
          previousLevel = level
          out.append(String(repeating: "#", count: level) + " " + Markdown.escapedHeading(text))
        case .caption:
          out.append("*" + Markdown.escaped(text) + "*")
        default:
          out.append(Markdown.escapedBlock(text))
        }
      }
      placeFigures(upTo: numbered.count)
      return out + footnotes
    }
  }

  // MARK: Lists

  /// A list of items: each on its line, indented under the item before
  /// of a lower level (to where that item's text starts, as CommonMark
  /// nests lists); `nil` when no item has text.
  static func list(_ items: [Paragraph], on page: Page) -> String? {
    var lines: [String] = []
    // The open items: each one's level and where its text starts.
    var open: [(level: Int, column: Int)] = []
    for item in items {
      let text = page.readingText(of: item)
      guard !text.isEmpty else { continue }
      let level = item.listLevel ?? 1
      while let last = open.last, last.level >= level { open.removeLast() }
      let indent = open.last?.column ?? 0
      // A bullet OCR read as a letter ("e" before a tab) is dropped too.
      let (marker, content) =
        RoleDetection.startsWithMisreadBullet(item)
        ? ("-", String(text.drop { $0 != " " }.dropFirst())) : listMarker(text)
      let body = escapedBlock(content)
      lines.append(
        String(repeating: " ", count: indent) + marker + (body.isEmpty ? "" : " " + body))
      open.append((level, indent + marker.count + 1))
    }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  /// The Markdown marker of a list item and the text after it: the item's
  /// own number when CommonMark can hold it (`1.`, `12)`), else `-` (a
  /// bullet dropped, a letter or roman marker kept in the text). The item's
  /// marker is its first word when it starts like a list item
  /// (``ScanModel/TextCues/startsLikeListItem(_:)``, the rule that finds
  /// list items).
  static func listMarker(_ text: String) -> (marker: String, content: String) {
    guard TextCues.startsLikeListItem(text) else { return ("-", text) }
    let space = text.firstIndex(of: " ") ?? text.endIndex
    let first = String(text[..<space])
    let rest = space == text.endIndex ? "" : String(text[text.index(after: space)...])
    if let ordered = orderedMarker(first) { return (ordered, rest) }
    return isBullet(first) ? ("-", rest) : ("-", text)
  }

  /// Whether a list item's marker is a bullet (no letter or digit in it).
  private static func isBullet(_ marker: String) -> Bool {
    !marker.contains { $0.isLetter || $0.isNumber }
  }

  /// The marker itself when it is an ordered list marker CommonMark knows:
  /// 1 to 9 ASCII digits, then `.` or `)`.
  private static func orderedMarker(_ marker: String) -> String? {
    guard let end = marker.last, end == "." || end == ")" else { return nil }
    let digits = marker.dropLast()
    guard (1...9).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return marker
  }

  // MARK: Tables

  /// A table as a pipe table: the header row first (the row of the header
  /// cells, else the first row), then a delimiter row, then the others; as
  /// an HTML table when a cell spans or header cells lie outside the first
  /// row. No trailing newline.
  /// - Complexity: O(*r* · *c* + *n*) in the rows, columns and cells.
  public static func table(_ table: PageTable) -> String {
    let headerRows = Set(table.cells.filter(\.position.isHeader).map(\.position.row))
    guard !table.hasSpans, headerRows.isSubset(of: [0]) else { return htmlTable(table) }
    let rows = table.rows
    guard !rows.isEmpty else { return "" }
    func line(_ cells: [String]) -> String {
      "| "
        + cells.map { escaped($0).replacingOccurrences(of: "|", with: "\\|") }
        .joined(separator: " | ") + " |"
    }
    var lines = [line(rows[0])]
    lines.append("|" + String(repeating: " --- |", count: table.columnCount))
    lines += rows.dropFirst().map(line)
    return lines.joined(separator: "\n")
  }

  /// A table as HTML, for what a pipe table cannot hold: every row a `tr`,
  /// each cell a `th` or `td` with its spans, a place no cell covers an
  /// empty `td`. One line per row, no blank line (CommonMark takes an HTML
  /// block to its first blank line).
  static func htmlTable(_ table: PageTable) -> String {
    let (rowCount, columnCount) = (table.rowCount, table.columnCount)
    var covered = Array(repeating: Array(repeating: false, count: columnCount), count: rowCount)
    var byRow = Array(repeating: [PageTable.Cell](), count: rowCount)
    for cell in table.cells {
      let p = cell.position
      guard p.row >= 0, p.column >= 0 else { continue }
      byRow[p.row].append(cell)
      for r in p.row..<(p.row + p.rowSpan) {
        for c in p.column..<(p.column + p.columnSpan) { covered[r][c] = true }
      }
    }
    var lines = ["<table>"]
    for r in 0..<rowCount {
      var row = "<tr>"
      var cells = byRow[r].sorted { $0.position.column < $1.position.column }[...]
      for c in 0..<columnCount {
        while let cell = cells.first, cell.position.column == c {
          cells.removeFirst()
          let tag = table.isHeader(cell) ? "th" : "td"
          let spans =
            (cell.position.rowSpan > 1 ? " rowspan=\"\(cell.position.rowSpan)\"" : "")
            + (cell.position.columnSpan > 1 ? " colspan=\"\(cell.position.columnSpan)\"" : "")
          row += "<\(tag)\(spans)>\(AccessibleHTML.escape(cell.text))</\(tag)>"
        }
        if !covered[r][c] { row += "<td></td>" }
      }
      lines.append(row + "</tr>")
    }
    lines.append("</table>")
    return lines.joined(separator: "\n")
  }

  // MARK: Escaping

  /// Text escaped so that no character in it starts Markdown inline
  /// syntax: a backslash before `\`, `*`, `_`, the backtick, `[`, `]`, `<`, `~`,
  /// and before an `&` that starts a character reference (`&amp;`,
  /// `&#38;`).
  /// - Complexity: O(*n*) in the text's characters.
  public static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    let characters = Array(text)
    for (i, c) in characters.enumerated() {
      if "\\*_`[]<~".contains(c) || (c == "&" && startsReference(characters[(i + 1)...])) {
        out.append("\\")
      }
      out.append(c)
    }
    return out
  }

  /// Whether the text after an `&` makes it a character reference: a
  /// name or `#` and digits, then `;`.
  private static func startsReference(_ rest: ArraySlice<Character>) -> Bool {
    let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }
    return !name.isEmpty && name.count <= 32 && rest.dropFirst(name.count).first == ";"
  }

  /// A paragraph's text escaped (``escaped(_:)``), and what would start a
  /// block at its start escaped too: a heading's `#`s, a list's `-` or
  /// `+` or number (`1.`, `1)`) followed by a space, a thematic break
  /// (`---`), a block quote's `>`.
  /// - Complexity: O(*n*) in the text's characters.
  public static func escapedBlock(_ text: String) -> String {
    let inline = escaped(text)
    guard let first = inline.first else { return inline }
    func endsMarker(_ rest: Substring) -> Bool { rest.first.map { $0 == " " } ?? true }
    switch first {
    case ">":
      return "\\" + inline
    case "#":
      let hashes = inline.prefix { $0 == "#" }
      return hashes.count <= 6 && endsMarker(inline.dropFirst(hashes.count))
        ? "\\" + inline : inline
    case "-", "+":
      let rule = first == "-" && inline.allSatisfy { $0 == "-" || $0 == " " }
      return rule || endsMarker(inline.dropFirst()) ? "\\" + inline : inline
    default:
      let digits = inline.prefix { $0.isASCII && $0.isNumber }
      let after = inline.dropFirst(digits.count)
      guard (1...9).contains(digits.count), let mark = after.first, mark == "." || mark == ")",
        endsMarker(after.dropFirst())
      else { return inline }
      return String(digits) + "\\" + after
    }
  }

  /// A heading's text escaped (``escaped(_:)``), and a `#` at its end, which
  /// CommonMark would take for the heading's closing sequence.
  static func escapedHeading(_ text: String) -> String {
    let inline = escaped(text)
    guard inline.hasSuffix("#") else { return inline }
    return inline.dropLast() + "\\#"
  }
}
