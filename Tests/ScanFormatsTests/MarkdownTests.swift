import Foundation
import ScanFormats
import ScanModel
import Testing

/// The Markdown export (issue 44, point 6): what a reader of the Markdown
/// sees of a page built in code, and the tables on their own.
@Suite("Markdown")
struct MarkdownTests {
  /// A paragraph of `lines` from (`x`, `y`): each character 10 px wide,
  /// lines 30 px apart.
  static func paragraph(
    _ lines: [String], x: Int = 100, y: Int, role: ParagraphRole = .body, level: Int? = nil,
    cell: TableCellPosition? = nil, listLevel: Int? = nil
  ) -> Paragraph {
    let built = lines.enumerated().map { i, text in
      var left = x
      let top = y + 30 * i
      let words = text.split(separator: " ").map { token in
        defer { left += 10 * token.count + 10 }
        return Word(
          text: String(token),
          bbox: PixelRect(minX: left, minY: top, maxX: left + 10 * token.count, maxY: top + 20),
          confidence: 90)
      }
      return TextLine(
        bbox: PixelRect.union(words.map(\.bbox))
          ?? PixelRect(minX: x, minY: top, maxX: x + 1, maxY: top + 20),
        words: words)
    }
    var p = Paragraph(
      bbox: PixelRect.union(built.map(\.bbox))
        ?? PixelRect(minX: x, minY: y, maxX: x + 1, maxY: y + 1),
      lines: built, role: role, headingLevel: level, cell: cell)
    if let listLevel { p.listLevel = listLevel }
    return p
  }

  static func block(_ paragraphs: [Paragraph]) -> Block {
    Block(
      bbox: PixelRect.union(paragraphs.map(\.bbox))
        ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1), paragraphs: paragraphs)
  }

  /// A table's cells from rows of texts (`nil`: no cell there), from `y`.
  static func cells(
    _ rows: [[String?]], y: Int, header: Bool, spans: [Int: Int] = [:]
  ) -> [Paragraph] {
    rows.enumerated().flatMap { r, row in
      row.enumerated().compactMap { c, text -> Paragraph? in
        guard let text else { return nil }
        return paragraph(
          [text], x: 100 + 200 * c, y: y + 40 * r, role: .tableCell,
          cell: TableCellPosition(
            row: r, column: c, columnSpan: r == rows.count - 1 ? spans[c] ?? 1 : 1,
            isHeader: header && r == 0))
      }
    }
  }

  /// A page with the structure a reader meets: running head and foot,
  /// headings, a hyphenated word, text to escape, a nested list, a figure
  /// with its caption, a footnote before the tables in reading order, a
  /// table with a header row and one with a spanning cell.
  static var page: Page {
    let text = [
      paragraph(["The Harbour Quarterly"], y: 20, role: .header),
      paragraph(["Notes from the Archive"], y: 100, role: .heading, level: 1),
      paragraph(["Scanning"], y: 140, role: .heading, level: 3),
      paragraph(["Character recog-", "nition of *old* ledgers"], y: 180),
      paragraph(["# not a heading"], y: 250),
      paragraph(["1984. A year [see <note>] & AT&T &amp; x_y"], y: 290),
      paragraph(["• First item"], y: 330, role: .listItem, listLevel: 1),
      paragraph(["1. Sub one"], y: 360, role: .listItem, listLevel: 2),
      paragraph(["2. Sub two"], y: 390, role: .listItem, listLevel: 2),
      paragraph(["a) deeper"], y: 420, role: .listItem, listLevel: 3),
      paragraph(["• Second item"], y: 450, role: .listItem, listLevel: 1),
      paragraph(["Figure 1. The harbour office."], y: 810, role: .caption),
      paragraph(["1 The ledgers were kept in the office."], y: 1300, role: .footnote),
    ]
    let first = cells(
      [["Item", "Amount"], ["Flour", "500 g"], ["Salt", "a|b"]], y: 900, header: true)
    let second = cells(
      [["Year", "Total"], ["1887", "12"], ["Lost & found", nil]], y: 1050, header: true,
      spans: [0: 2])
    let furniture = [
      paragraph(["Harbour Quarterly, winter"], y: 1350, role: .footer),
      paragraph(["3"], x: 900, y: 1350, role: .pageNumber),
    ]
    return Page(
      width: 1000, height: 1400,
      blocks: [block(text), block(first), block(second), block(furniture)],
      figures: [Figure(bbox: PixelRect(minX: 100, minY: 700, maxX: 500, maxY: 800))])
  }

  static let expected = """
    # Notes from the Archive

    ## Scanning

    Character recognition of \\*old\\* ledgers

    \\# not a heading

    1984\\. A year \\[see \\<note>\\] & AT&T \\&amp; x\\_y

    - First item
      1. Sub one
      2. Sub two
         - a) deeper
    - Second item

    ![Picture: Figure 1. The harbour office.](#)

    *Figure 1. The harbour office.*

    | Item | Amount |
    | --- | --- |
    | Flour | 500 g |
    | Salt | a\\|b |

    <table>
    <tr><th>Year</th><th>Total</th></tr>
    <tr><td>1887</td><td>12</td></tr>
    <tr><td colspan="2">Lost &amp; found</td></tr>
    </table>

    1 The ledgers were kept in the office.

    """

  /// Headings (levels that never jump), a word broken at a line end
  /// joined, text escaped, a nested list, the figure before its caption,
  /// a pipe table and an HTML one where a cell spans, the footnote after
  /// the page's text; the running head, foot and page number left out.
  @Test func aPageReadsAsMarkdown() {
    #expect(Markdown.markdown(pages: [Self.page]) == Self.expected)
  }

  /// Pages follow each other in one document, a blank line between them;
  /// heading levels run on across pages; an empty page adds nothing.
  @Test func pagesMakeOneDocument() {
    let second = Page(
      width: 1000, height: 1400,
      blocks: [
        Self.block([
          Self.paragraph(["Deep"], y: 100, role: .heading, level: 5),
          Self.paragraph(["Page two text."], y: 140),
        ])
      ])
    let empty = Page(width: 10, height: 10, blocks: [])
    let text = Markdown.markdown(pages: [Self.page, empty, second])
    #expect(text == Self.expected + "\n### Deep\n\nPage two text.\n")
    #expect(Markdown.markdown(pages: [empty]) == "")
  }

  /// The venv's Python, when it has markdown-it-py.
  static let renderer: String? = {
    let python = PackageFiles.root.appending(path: ".build/tools-venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import markdown_it"]
    guard (try? probe.run()) != nil else { return nil }
    probe.waitUntilExit()
    return probe.terminationStatus == 0 ? python : nil
  }()

  /// `markdown` as an independent CommonMark reader (markdown-it-py, with
  /// pipe tables) renders it to HTML.
  static func rendered(_ markdown: String, python: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [PackageFiles.root.appending(path: "Tools/check/render-markdown.py").path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data(markdown.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// A CommonMark reader reads the page as meant: the escaped text as
  /// text, the list nested three deep (a bulleted list holding a numbered
  /// one holding a bulleted one), the pipe table with its header, the HTML
  /// table as it is.
  @Test(
    .enabled(
      if: renderer != nil,
      "markdown-it-py not in .build/tools-venv (run Tools/install/install-dependencies.sh): CommonMark check skipped"
    ))
  func commonMarkReadsItAsMeant() throws {
    let html = try Self.rendered(Self.expected, python: try #require(Self.renderer))
    #expect(
      html == """
        <h1>Notes from the Archive</h1>
        <h2>Scanning</h2>
        <p>Character recognition of *old* ledgers</p>
        <p># not a heading</p>
        <p>1984. A year [see &lt;note&gt;] &amp; AT&amp;T &amp;amp; x_y</p>
        <ul>
        <li>First item
        <ol>
        <li>Sub one</li>
        <li>Sub two
        <ul>
        <li>a) deeper</li>
        </ul>
        </li>
        </ol>
        </li>
        <li>Second item</li>
        </ul>
        <p><img src="#" alt="Picture: Figure 1. The harbour office." /></p>
        <p><em>Figure 1. The harbour office.</em></p>
        <table>
        <thead>
        <tr>
        <th>Item</th>
        <th>Amount</th>
        </tr>
        </thead>
        <tbody>
        <tr>
        <td>Flour</td>
        <td>500 g</td>
        </tr>
        <tr>
        <td>Salt</td>
        <td>a|b</td>
        </tr>
        </tbody>
        </table>
        <table>
        <tr><th>Year</th><th>Total</th></tr>
        <tr><td>1887</td><td>12</td></tr>
        <tr><td colspan="2">Lost &amp; found</td></tr>
        </table>
        <p>1 The ledgers were kept in the office.</p>

        """)
    // What would start a block, or inline syntax, at a paragraph's start
    // reads as text.
    for text in [
      "- a", "+ b", "> c", "12) d", "3. e", "---", "### f", "*g*", "_h_", "`i`", "[j](k)",
      "<b>l</b>", "~~m~~", "&amp;", "\\n", "![o](p)",
    ] {
      let markdown = Markdown.escapedBlock(text)
      let escaped = text.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      let expected = "<p>\(escaped)</p>\n"
      #expect(
        try Self.rendered(markdown, python: try #require(Self.renderer)) == expected, "\(text)")
    }
  }

  /// The registry's `markdown` row (`.md`) writes the same document page
  /// by page, with no head or tail.
  @Test func theRegistryRowWritesTheDocument() throws {
    #expect(FileFormat(fileName: "notes.MD") == .markdown)
    #expect(FileFormat(fileName: "notes.markdown") == .markdown)
    #expect(FileFormat.named("markdown") == .markdown)
    var writer = try FileFormat.markdown.makeWriter(
      WriterSettings(generator: Generator(name: "scantext", version: "test")))
    var bytes = writer.headBytes()
    for (n, page) in [Self.page, Self.page].enumerated() {
      bytes += try writer.page(
        page, from: PageOrigin(path: "a.json", page: n, number: n + 1), images: nil)
    }
    bytes += try writer.tailBytes()
    #expect(String(decoding: bytes, as: UTF8.self) == Self.expected + "\n" + Self.expected)
  }

  /// What would start a block is escaped at a paragraph's start, inline
  /// syntax everywhere; a heading's closing `#` too.
  /// A bullet OCR read as a letter before a tab ("e   IBM MT/ST …") is
  /// dropped like a bullet read right: the item reads "- IBM MT/ST …".
  @Test func aBulletReadAsALetterIsDropped() {
    var item = Self.paragraph(["IBM introduced the tape"], x: 140, y: 100, role: .listItem)
    let bullet = Word(
      text: "e", bbox: PixelRect(minX: 100, minY: 100, maxX: 110, maxY: 120), confidence: 40)
    item.lines[0].words.insert(bullet, at: 0)
    item.lines[0].bbox = item.lines[0].bbox.union(bullet.bbox)
    item.bbox = item.bbox.union(bullet.bbox)
    let plain = Self.paragraph(["y luego vino"], y: 200, role: .listItem)
    let page = Page(width: 500, height: 500, blocks: [Self.block([item, plain])])
    #expect(Markdown.markdown(pages: [page]) == "- IBM introduced the tape\n- y luego vino\n")
  }

  @Test func escaping() {
    #expect(Markdown.escapedBlock("- not a list") == "\\- not a list")
    #expect(Markdown.escapedBlock("+ no") == "\\+ no")
    #expect(Markdown.escapedBlock("> no quote") == "\\> no quote")
    #expect(Markdown.escapedBlock("12) not ordered") == "12\\) not ordered")
    #expect(Markdown.escapedBlock("1234567890. too long") == "1234567890. too long")
    #expect(Markdown.escapedBlock("2.5 litres") == "2.5 litres")
    #expect(Markdown.escapedBlock("-5 degrees") == "-5 degrees")
    #expect(Markdown.escapedBlock("---") == "\\---")
    #expect(Markdown.escapedBlock("#hashtag") == "#hashtag")
    #expect(Markdown.escaped("`code` ~x~ \\") == "\\`code\\` \\~x\\~ \\\\")
    #expect(Markdown.escaped("&#38; &copy; & ;") == "\\&#38; \\&copy; & ;")
    let heading = Self.paragraph(["Learning C#"], y: 100, role: .heading, level: 1)
    let page = Page(width: 500, height: 500, blocks: [Self.block([heading])])
    #expect(Markdown.markdown(pages: [page]) == "# Learning C\\#\n")
  }

  /// A table on its own: CSV with RFC 4180 quoting, a spanning cell's
  /// text in its first row and column; Markdown as in the document; JSON
  /// with each cell's place, spans, header mark, text and box.
  @Test func tablesOnTheirOwn() throws {
    let tables = PageTable.tables(of: Self.page)
    #expect(tables.count == 2)
    let quoting = PageTable(cells: [
      .init(
        position: TableCellPosition(row: 0, column: 0), text: "a, b",
        bbox: PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10), range: TextRange(offsets: 0..<4)),
      .init(
        position: TableCellPosition(row: 0, column: 1), text: "say \"hi\"",
        bbox: PixelRect(minX: 10, minY: 0, maxX: 20, maxY: 10), range: TextRange(offsets: 5..<13)),
      .init(
        position: TableCellPosition(row: 1, column: 1), text: "x",
        bbox: PixelRect(minX: 10, minY: 10, maxX: 20, maxY: 20), range: TextRange(offsets: 14..<15)),
    ])
    #expect(quoting.csv == "\"a, b\",\"say \"\"hi\"\"\"\n,x\n")
    #expect(tables[1].csv == "Year,Total\n1887,12\nLost & found,\n")
    #expect(tables[0].csv == "Item,Amount\nFlour,500 g\nSalt,a|b\n")
    #expect(Markdown.table(tables[0]).hasPrefix("| Item | Amount |\n| --- | --- |\n"))
    let json = tables[1].json(page: 2, index: 1)
    guard case .object(let o) = json, case .array(let cells)? = o["cells"],
      case .object(let last)? = cells.last
    else {
      Issue.record("not a table: \(json)")
      return
    }
    #expect(o["page"] == .number(2) && o["index"] == .number(1))
    #expect(o["rows"] == .number(3) && o["columns"] == .number(2))
    #expect(last["text"] == .string("Lost & found"))
    #expect(last["columnSpan"] == .number(2) && last["row"] == .number(2))
    #expect(last["header"] == .bool(false))
    #expect(
      cells.first.flatMap { if case .object(let c) = $0 { c["header"] } else { nil } }
        == .bool(true))
    #expect(
      last["bbox"] == DocumentJSON.box(PixelRect(minX: 100, minY: 1130, maxX: 220, maxY: 1150)))
  }
}
