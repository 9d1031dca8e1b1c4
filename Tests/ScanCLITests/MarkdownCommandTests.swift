import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

/// `--format markdown` for `ocr`, `convert` and `batch`, and `scantext
/// tables` (issue 44, point 6), run as a user runs them.
@Suite("Markdown and tables commands")
struct MarkdownCommandTests {
  /// A page typeset in code whose paragraphs get `roles` (`nil`: body)
  /// and, from `cellsFrom` on, the places of a table `columns` wide.
  static func page(
    _ paragraphs: [String], roles: [Int: ParagraphRole] = [:], cellsFrom: Int? = nil,
    columns: Int = 2
  ) -> Page {
    var blocks = TypesetPage.page(paragraphs.map { [$0] }).blocks
    for k in blocks[0].paragraphs.indices {
      if let role = roles[k] { blocks[0].paragraphs[k].role = role }
      if let first = cellsFrom, k >= first {
        blocks[0].paragraphs[k].role = .tableCell
        blocks[0].paragraphs[k].cell = TableCellPosition(
          row: (k - first) / columns, column: (k - first) % columns)
      }
    }
    return Page(width: 1000, height: 1000, blocks: blocks)
  }

  /// `pages` as a ScanText JSON model in a new folder.
  static func model(_ pages: [Page]) throws -> (folder: URL, path: String) {
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("model.json").path
    try DocumentJSON.encode(Document(pages: pages), generator: ScanText.generator)
      .write(toFile: path, atomically: true, encoding: .utf8)
    return (folder, path)
  }

  /// Three pages: a table with a comma and quotes in its cells, a page of
  /// text, a second table.
  static var threePages: [Page] {
    [
      page(["Item", "Note", "Flour", "sifted, twice", "Eggs", "12 \"large\""], cellsFrom: 0),
      page(["Only text here."]),
      page(["Year", "Total", "1887", "12"], cellsFrom: 0),
    ]
  }

  /// `convert MODEL OUT.md`: the model's heading, text, list and table as
  /// Markdown, the footer left out.
  @Test func convertWritesMarkdown() throws {
    let (folder, model) = try Self.model([
      Self.page(
        [
          "Notes from the Archive", "The first ledger.", "• Flour", "• Salt", "Page 3 of 9",
          "Item", "Amount", "Flour", "500 g",
        ], roles: [0: .heading, 2: .listItem, 3: .listItem, 4: .footer], cellsFrom: 5)
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("notes.md").path
    let r = scantext(["convert", model, out])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(
      try String(contentsOfFile: out, encoding: .utf8) == """
        # Notes from the Archive

        The first ledger.

        - Flour
        - Salt

        | Item | Amount |
        | --- | --- |
        | Flour | 500 g |

        """)
    // The same on standard output with --format.
    #expect(scantext(["convert", model, "-", "--format", "markdown"]).stdout.hasPrefix("# Notes"))
  }

  /// `ocr --format markdown` and `batch --format markdown` on the ruled
  /// table sample: the table as a pipe table, its first row the header;
  /// batch's `.md` is ocr's.
  @Test func ocrAndBatchWriteMarkdownOfARealTable() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
    let image = Fixtures.scans.appendingPathComponent("ruled-table.png").path
    let ocr = try ScanTextRun.run(["ocr", image, "--format", "markdown"], environment: cache)
    #expect(ocr.code == 0, "\(ocr.stderr)")
    #expect(
      ocr.stdout.hasPrefix(
        """
        | Item | Amount | Note |
        | --- | --- | --- |
        | Flour | 500 grams | sifted twice |

        """), "\(ocr.stdout)")
    #expect(ocr.stdout.split(separator: "\n").count == 9)
    let out = folder.appendingPathComponent("out")
    let batch = try ScanTextRun.run(
      ["batch", image, "--out-dir", out.path, "--format", "markdown", "-q"], environment: cache)
    #expect(batch.code == 0, "\(batch.stderr)")
    let written = try String(
      contentsOf: out.appendingPathComponent("ruled-table.md"), encoding: .utf8)
    #expect(written == ocr.stdout)
    // `tables` of the image, recognised first: the same table as CSV.
    let csv = try ScanTextRun.run(["tables", image], environment: cache)
    #expect(csv.code == 0, "\(csv.stderr)")
    #expect(csv.stdout.hasPrefix("Item,Amount,Note\nFlour,500 grams,sifted twice\n"))
  }

  /// `tables` prints every table of every page as CSV (RFC 4180 quoting), a
  /// blank line between tables; `--pages` picks pages.
  @Test func tablesPrintsCSV() throws {
    let (folder, model) = try Self.model(Self.threePages)
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = scantext(["tables", model])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(
      r.stdout == """
        Item,Note
        Flour,"sifted, twice"
        Eggs,"12 ""large\"\"\"

        Year,Total
        1887,12

        """)
    #expect(scantext(["tables", model, "--pages", "3"]).stdout == "Year,Total\n1887,12\n")
    let markdown = scantext(["tables", model, "--format", "markdown", "--pages", "3"])
    #expect(markdown.stdout == "| Year | Total |\n| --- | --- |\n| 1887 | 12 |\n")
  }

  /// `-o DIR` writes one file per table, named by page and table; JSON
  /// gives every table with its page, index and cells.
  @Test func tablesWritesOneFilePerTable() throws {
    let (folder, model) = try Self.model(Self.threePages)
    defer { try? FileManager.default.removeItem(at: folder) }
    let dir = folder.appendingPathComponent("tables/new").path
    let r = scantext(["tables", model, "-o", dir])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [
        "p1-t1.csv", "p3-t1.csv",
      ])
    #expect(
      try String(contentsOfFile: dir + "/p3-t1.csv", encoding: .utf8) == "Year,Total\n1887,12\n")
    let json = try JSONValue(parsing: scantext(["tables", model, "--format", "json"]).stdout)
    guard case .array(let tables) = json else {
      Issue.record("not an array: \(json)")
      return
    }
    #expect(tables.map { $0["page"] } == [.number(1), .number(3)])
    #expect(tables.map { $0["index"] } == [.number(1), .number(1)])
    #expect(tables[0]["rows"] == .number(3) && tables[0]["columns"] == .number(2))
    #expect(tables[0]["cells"]?.arrayValue?[3]["text"] == .string("sifted, twice"))
    #expect(tables[0]["cells"]?.arrayValue?[3]["row"] == .number(1))
  }

  /// Bad format names are usage errors; an output folder that cannot be
  /// one is named; a model without tables prints nothing and says so.
  @Test func tablesErrorsAndNoTables() throws {
    let (folder, model) = try Self.model([Self.page(["Only text here."])])
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = scantext(["tables", model, "--format", "xml"])
    #expect(bad.code == 64)
    #expect(
      bad.stderr.hasPrefix(
        "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'csv', 'markdown' or 'json'."
      ))
    let ocr = scantext(["ocr", model, "--format", "md"])
    #expect(ocr.code == 64)
    #expect(ocr.stderr.hasPrefix("Error: The value 'md' is invalid for '--format"))
    let file = folder.appendingPathComponent("taken").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let unwritable = scantext(["tables", model, "-o", file])
    #expect(unwritable.code == 1)
    #expect(unwritable.stderr == "Error: \(file): cannot write the output: it is not a folder\n")
    // A link to nothing is not followed to make a folder elsewhere, and a
    // folder that cannot be made says why in the system's words (both
    // said "The operation could not be completed. …"; hostile sweep,
    // 2026-12-07).
    let link = folder.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: folder.appendingPathComponent("elsewhere").path)
    let linked = scantext(["tables", model, "-o", link])
    #expect(linked.code == 1)
    #expect(
      linked.stderr
        == "Error: \(link): cannot write the output: it is a symbolic link to a missing folder\n")
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("elsewhere").path))
    let under = file + "/tables"
    let underFile = scantext(["tables", model, "-o", under])
    #expect(underFile.code == 1)
    #expect(
      underFile.stderr
        == "Error: \(under): cannot write the output: cannot make the folder (not a directory)\n")
    let none = scantext(["tables", model])
    #expect(none.code == 0)
    #expect(none.stdout.isEmpty)
    #expect(none.stderr == "\(model): no table found\n")
    #expect(scantext(["tables", model, "--format", "json"]).stdout == "[]\n")
  }

  /// A page of running text and, close under it in the running text's
  /// type (no rule of the page alone makes it furniture), the line `foot`.
  static func pageWithFoot(_ foot: String) -> Page {
    func line(_ text: String, y: Int) -> TextLine {
      var x = 100
      let words = text.split(separator: " ").map { token in
        defer { x += 10 * token.count + 10 }
        return Word(
          text: String(token),
          bbox: PixelRect(minX: x, minY: y, maxX: x + 10 * token.count, maxY: y + 20))
      }
      return TextLine(bbox: PixelRect.union(words.map(\.bbox)) ?? words[0].bbox, words: words)
    }
    func paragraph(_ lines: [String], y: Int) -> Paragraph {
      let built = lines.enumerated().map { line($1, y: y + 30 * $0) }
      return Paragraph(bbox: PixelRect.union(built.map(\.bbox)) ?? built[0].bbox, lines: built)
    }
    let text = [
      "The ferry left the harbour at dawn and the sea was calm",
      "all the way to the island where the keeper was waiting",
      "with a lantern in his hand and a dog at his side today.",
    ]
    let paragraphs = [paragraph(text, y: 100), paragraph(text, y: 780), paragraph([foot], y: 880)]
    return Page(
      width: 1000, height: 1000,
      blocks: paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) })
  }

  /// `ocr` of a document whose pages repeat a line at their foot (the
  /// same text around a changing number): a running foot, left out of
  /// the Markdown and given the footer role in the JSON; a one-page
  /// document keeps it as text.
  @Test func aFootRepeatedOnEveryPageIsLeftOutOfTheMarkdown() throws {
    let pages = (1...3).map { Self.pageWithFoot("Annual Report of the Harbour Board \($0)") }
    let (folder, model) = try Self.model(pages)
    defer { try? FileManager.default.removeItem(at: folder) }
    let markdown = scantext(["ocr", model, "--format", "markdown", "-q"])
    #expect(markdown.code == 0, "\(markdown.stderr)")
    #expect(markdown.stdout.contains("The ferry left the harbour"))
    #expect(!markdown.stdout.contains("Annual Report"), "\(markdown.stdout)")
    let out = folder.appendingPathComponent("out.json").path
    #expect(scantext(["ocr", model, "-o", out, "-q"]).code == 0)
    let read = try DocumentJSON.decode(try String(contentsOfFile: out, encoding: .utf8))
    #expect(read.pages.count == 3)
    for page in read.pages {
      let foot = page.blocks.flatMap(\.paragraphs).last
      #expect(foot?.role == .footer, "\(page.text)")
      #expect(page.text.hasSuffix("Annual Report of the Harbour Board \(page.index + 1)\n"))
    }
    let (alone, single) = try Self.model([pages[0]])
    defer { try? FileManager.default.removeItem(at: alone) }
    let one = scantext(["ocr", single, "--format", "markdown", "-q"])
    #expect(one.stdout.contains("Annual Report of the Harbour Board 1"), "\(one.stdout)")
  }

  static let camelot = Fixtures.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/camelot/files")
  static let camelotPresent =
    FileManager.default.fileExists(
      atPath: camelot.appendingPathComponent("vertical_header.pdf").path)
    && ExternalCheckers.pdftoppm != nil
  static let camelotAbsent =
    "../shared/camelot or pdftoppm not found: the real running head test is skipped"

  /// A real report's pages (camelot's vertical_header.pdf, an election
  /// count, at 300 dpi): each repeats "PRIMARY ELECTION, AUGUST 7, 2018"
  /// above its table and "N of 5" below it. On a page alone the head reads
  /// as a heading and the first page's "1 of 5" as text; read as one
  /// document, both are furniture on every page, out of the Markdown.
  @Test(.enabled(if: camelotPresent, Comment(rawValue: camelotAbsent)))
  func aRealReportsRunningHeadAndFootAreFurniture() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stem = folder.appendingPathComponent("p").path
    let (status, output) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftoppm),
      [
        "-r", "300", "-png", "-f", "1", "-l", "2",
        Self.camelot.appendingPathComponent("vertical_header.pdf").path, stem,
      ])
    #expect(status == 0, "\(output)")
    let out = folder.appendingPathComponent("doc.json").path
    let read = scantext(["ocr", stem + "-1.png", stem + "-2.png", "-o", out, "-q", "--no-cache"])
    #expect(read.code == 0, "\(read.stderr)")
    let document = try DocumentJSON.decode(try String(contentsOfFile: out, encoding: .utf8))
    #expect(document.pages.count == 2)
    for page in document.pages {
      let paragraphs = page.blocks.flatMap(\.paragraphs).map {
        ($0.lines.map(\.text).joined(separator: " "), $0.role)
      }
      let head = paragraphs.first { $0.0.hasPrefix("PRIMARY ELECTION") }
      #expect(head?.1 == .header, "\(paragraphs)")
      let foot = paragraphs.last { $0.0.hasSuffix("f5") }
      #expect(foot.map { $0.1.isPageFurniture } == true, "\(paragraphs)")
    }
    let markdown = scantext(["convert", out, "-", "--format", "markdown"])
    #expect(markdown.code == 0)
    #expect(!markdown.stdout.contains("PRIMARY ELECTION"), "\(markdown.stdout)")
    #expect(markdown.stdout.contains("DEMOCRATIC PARTY"))
  }

  /// `html` of the same report's PDF (its pages read from their text):
  /// the repeated head is each page's `header` and "N of 5" its `footer`,
  /// as `ocr` marks them (the pass over neighbouring pages ran for `ocr`
  /// and `batch` only: `html` of a PDF or a multi-page TIFF kept running
  /// heads and feet as text in `main`).
  @Test(.enabled(if: camelotPresent, Comment(rawValue: camelotAbsent)))
  func aRealReportsRunningHeadAndFootAreFurnitureInTheHTML() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("report.html").path
    let run = scantext([
      "html", Self.camelot.appendingPathComponent("vertical_header.pdf").path, "-o", out,
    ])
    #expect(run.code == 0, "\(run.stderr)")
    let html = try String(contentsOfFile: out, encoding: .utf8)
    func texts(_ element: String) -> [String] {
      html.components(separatedBy: "<\(element)>").dropFirst().map {
        $0.components(separatedBy: "</\(element)>")[0]
          .replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
          .split(whereSeparator: \.isWhitespace).joined(separator: " ")
      }
    }
    let heads = texts("header")
    #expect(heads.count >= 4, "\(heads)")
    #expect(heads.allSatisfy { $0 == "PRIMARY ELECTION, AUGUST 7, 2018" }, "\(heads)")
    let feet = texts("footer")
    for n in 1...4 { #expect(feet.contains("\(n) of 5"), "\(feet)") }
  }
}
