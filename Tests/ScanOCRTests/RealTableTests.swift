import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Tables on real pages (beside the checkout in `../shared`, skipped when
/// absent), and the pages that must not gain one.
@Suite("Tables on real pages", .serialized)
struct RealTableTests {
  static let shared = RealDocuments.shared
  static let docling = shared.appendingPathComponent("docling")
  static let pubtabnet = shared.appendingPathComponent("pubtabnet")
  static let doclingPresent =
    FileManager.default.fileExists(
      atPath: docling.appendingPathComponent("2305.03393v1-pg9.pdf").path)
    && ExternalCheckers.pdftoppm != nil
  static let pubtabnetPresent = FileManager.default.fileExists(
    atPath: pubtabnet.appendingPathComponent("PMC4840965_004_00.png").path)
  static let camelot = shared.appendingPathComponent("camelot/files")
  static let camelotPresent =
    FileManager.default.fileExists(
      atPath: camelot.appendingPathComponent("clockwise_table_1.pdf").path)
    && ExternalCheckers.pdftoppm != nil
  static let camelotAbsent =
    "../shared/camelot or pdftoppm not found: the rotated table page test is skipped"
  static let doclingAbsent =
    "../shared/docling or pdftoppm not found: the real table page test is skipped"
  static let pubtabnetAbsent = "../shared/pubtabnet not found: the small table test is skipped"

  /// The sample pages with a table on them (every other must have none).
  static let tablePages: Set<String> = [
    "ruled-table.png", "ocrd/boston-cooking-a.jpg", "ocrd/linguistics-thesis-a.jpg",
  ]

  static func cells(_ page: Page) -> [Paragraph] {
    page.blocks.flatMap(\.paragraphs).filter { $0.cell != nil }
  }

  static func text(_ paragraph: Paragraph) -> String {
    paragraph.lines.flatMap(\.words).map(\.text).joined(separator: " ")
  }

  @Test func noSamplePageOfProseGainsATable() throws {
    for (image, result) in RecognizedScans.all().sorted(by: { $0.key < $1.key })
    where !Self.tablePages.contains(image) {
      let page = try result.get()
      #expect(
        !page.blocks.flatMap(\.paragraphs).contains { $0.role == .tableCell },
        "\(image): \(Self.cells(page).map(Self.text))")
    }
  }

  @Test(.enabled(if: RealScans.isAvailable, Comment(rawValue: RealScans.absentMessage)))
  func noRealPageOfProseGainsATable() throws {
    for image in RealScans.images where !Self.tablePages.contains(image) {
      for page in try RealScans.pages(image) {
        #expect(Self.cells(page).isEmpty, "\(image): \(Self.cells(page).map(Self.text))")
      }
    }
  }

  /// Page 9 of docling's `2305.03393v1` at 300 dpi: a paper's table ruled
  /// between its columns and between groups of two rows (OTSL over
  /// HTML), none round its sides, with two header rows (a "TEDs" title
  /// over three columns). Its outer columns are cells, each ruled group
  /// is a row (as docling's truth has it), the header rows are header
  /// cells and the rows of numbers are not.
  @Test(.enabled(if: doclingPresent, Comment(rawValue: doclingAbsent)))
  func aPapersTableIsReadCellByCellWithItsHeader() throws {
    let page = try RealDocumentRolesTests.page("2305.03393v1-pg9", 1)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    let first = try #require(cell("0.965 0.969"))
    let second = try #require(cell("0.938 0.952"))
    #expect(first.column == second.column && second.row == first.row + 1)
    #expect(!first.isHeader && !second.isHeader)
    let language = try #require(cell("Language"))
    #expect(language.isHeader && language.rowSpan == 2)
    let teds = try #require(cell("TEDs"))
    #expect(teds.isHeader && teds.columnSpan == 3 && teds.column == first.column)
    let simple = try #require(cell("simple"))
    #expect(simple.isHeader && simple.column == first.column && simple.row == 1)
    // The outer columns: the encoder's layers left, the times right.
    #expect(cell("# enc-layers")?.column == 0)
    #expect(cell("2.73 5.39")?.column == 7)
  }

  /// camelot's `clockwise_table_1.pdf` at 300 dpi: a ruled landscape
  /// table set sideways on a portrait page (read top to bottom), as
  /// camelot's lattice test expects it (`data_lattice_table_rotated`).
  /// The page is read turned, and its table's rows and columns are the
  /// ones a reader counts on the turned page, not the image's (before: no
  /// cell had a row or column).
  @Test(.enabled(if: camelotPresent, Comment(rawValue: camelotAbsent)))
  func aTableSetSidewaysOnThePageIsReadRowByRow() throws {
    let page = try RealDocuments.page(
      Self.camelot.appendingPathComponent("clockwise_table_1.pdf"), 1)
    #expect(page.orientation == 90)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    #expect(cell("State") == TableCellPosition(row: 0, column: 0, rowSpan: 2, isHeader: true))
    #expect(cell("1975-79") == TableCellPosition(row: 1, column: 1, isHeader: true))
    #expect(cell("Kerala") == TableCellPosition(row: 2, column: 0))
    #expect(cell("5738") == TableCellPosition(row: 2, column: 1))
    #expect(cell("2391") == TableCellPosition(row: 2, column: 9))
    #expect(cell("Tamil Nadu") == TableCellPosition(row: 3, column: 0))
    #expect(cell("10217") == TableCellPosition(row: 3, column: 2))
    #expect(cell("Pooled") == TableCellPosition(row: 12, column: 0))
    // The cells lie on the image where the words are: "Kerala" is in the
    // image's top right (the table's first row runs down its right side).
    let kerala = try #require(cells.first { Self.text($0) == "Kerala" })
    #expect(kerala.bbox.minX > page.width / 2 && kerala.bbox.maxY < page.height / 2)
    #expect(kerala.lines.first?.words.first?.quad != nil)
  }

  /// Page 12 of docling's `redp5110_sampled`: "Table 3-2 Built-in global
  /// variables" above a table of three columns is a caption, read just
  /// before the table's first cell. (Its header row, set apart by shading
  /// and bold type over columns of words, is not told as a header: the
  /// header rule reads the cells' text only.)
  @Test(.enabled(if: doclingPresent, Comment(rawValue: doclingAbsent)))
  func aTablesCaptionIsReadNextToIt() throws {
    let page = try RealDocumentRolesTests.page("redp5110_sampled", 12)
    let paragraphs = page.blocks.flatMap(\.paragraphs)
    let caption = try #require(
      paragraphs.firstIndex { Self.text($0).hasPrefix("Table 3-2 Built-in global variables") })
    #expect(paragraphs[caption].role == .caption)
    #expect(paragraphs.indices.contains(caption + 1))
    let first = paragraphs[caption + 1]
    #expect(first.cell?.row == 0 && first.cell?.column == 0, "\(Self.text(first))")
  }

  /// Pages 8 and 12 of docling's `redp5110_sampled`: a query (`SELECT`,
  /// `FROM`, `WHERE` beside their clauses, p8) and three calls with a
  /// common prefix (`VERIFY_GROUP_FOR_USER (CURRENT_USER, 'JANE', …`,
  /// p12) are code listings set at a fixed pitch, no tables; the ruled
  /// tables on the same pages stay tables, and the listings' lines keep
  /// their text.
  @Test(.enabled(if: doclingPresent, Comment(rawValue: doclingAbsent)))
  func aCodeListingIsNoTable() throws {
    for (number, listing, cell) in [
      (8, ["SELECT", "function_usage", "ORDER"], "FUNCTION_ID"),
      (12, ["VERIFY_GROUP_FOR_USER", "'JANE',", "'MGR')"], "CLIENT_IPADDR"),
    ] {
      let page = try RealDocumentRolesTests.page("redp5110_sampled", number)
      let cells = Self.cells(page)
      let words = Set(cells.flatMap { $0.lines.flatMap(\.words).map(\.text) })
      for word in listing {
        #expect(!words.contains(word), "p\(number): \(word) read as a table cell")
        #expect(
          page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
            .contains { $0.text == word }, "p\(number): \(word) lost")
      }
      let ruled = try #require(cells.first { Self.text($0) == cell }, "p\(number)")
      #expect(ruled.cell?.column == 0, "p\(number)")
      // One table: the ruled one (a table is one block of cells).
      #expect(
        page.blocks.count { $0.paragraphs.contains { $0.cell != nil } } == 1,
        "p\(number): \(cells.map(Self.text))")
    }
  }

  /// Page 14 of docling's `redp5110_sampled`: a screenshot's words read as
  /// an aligned table's cells put two lines that overlap in one cell
  /// ("Definition" over "Generate SQL…"); the cells are repaired like the
  /// rest of the page, so `verify` holds (before: 13 words and glyphs
  /// outside their lines' selections).
  @Test(.enabled(if: doclingPresent, Comment(rawValue: doclingAbsent)))
  func anAlignedTablesCellsKeepTheInvariants() throws {
    let page = try RealDocumentRolesTests.page("redp5110_sampled", 14)
    #expect(page.blocks.flatMap(\.paragraphs).contains { $0.role == .tableCell })
    let report = page.verify()
    #expect(report.passed, "\(report.violations.prefix(3))")
  }

  /// Page 11 of docling's `redp5110_sampled`: the rules over and under
  /// the header row of "Special register | Corresponding value" are 2
  /// points (8 pixels), the rules between the rows 4; the header row is a
  /// row of its own, each cell holding its text (before: "Special register
  /// USER or SESSION_USER", one cell with the first row's).
  @Test(.enabled(if: doclingPresent, Comment(rawValue: doclingAbsent)))
  func aHeaderRowBetweenHeavyRulesIsARowOfItsOwn() throws {
    let page = try RealDocumentRolesTests.page("redp5110_sampled", 11)
    let cells = Self.cells(page).map { ($0.cell?.row ?? -1, $0.cell?.column ?? -1, Self.text($0)) }
    #expect(cells.first { $0.2 == "Special register" }.map { [$0.0, $0.1] } == [0, 0])
    #expect(cells.first { $0.2 == "Corresponding value" }.map { [$0.0, $0.1] } == [0, 1])
    #expect(cells.first { $0.2 == "USER or SESSION_USER" }.map { [$0.0, $0.1] } == [1, 0])
    #expect(cells.first { $0.2 == "SYSTEM_USER" }.map { [$0.0, $0.1] } == [3, 0])
    #expect(
      cells.first { $0.2.hasPrefix("The effective user of the thread excluding") }.map {
        [$0.0, $0.1]
      } == [1, 1])
  }

  /// A PubTabNet crop (about 500 px wide, letters 5–9 px high, no dpi) is
  /// read enlarged: its words are read (before: `aT ae`), their boxes lie
  /// on the original image's pixels, and it is a table under a header.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func aSmallTableImageIsReadEnlarged() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC4840965_004_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    #expect(page.steps.contains { $0.step == .upscale }, "\(page.steps)")
    let words = page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
    let text = words.map(\.text).joined(separator: " ")
    #expect(text.contains("Hazard ratio"), "\(text)")
    #expect(text.contains("1.000"), "\(text)")
    // Read as a table whose first row is its header.
    let header = Self.cells(page).filter { $0.cell?.isHeader == true }.map(Self.text)
    #expect(header.contains("Hazard ratio") && header.contains("Variable"), "\(header)")
    #expect(
      words.allSatisfy {
        $0.bbox.minX >= 0 && $0.bbox.minY >= 0 && $0.bbox.maxX <= page.width
          && $0.bbox.maxY <= page.height
      })
    // "Hazard ratio" heads its column at the image's top (y 4–13 in the
    // ground truth's pixels).
    let hazard = try #require(words.first { $0.text == "Hazard" })
    #expect(hazard.bbox.minY < 20 && hazard.bbox.minX > 150)
  }

  /// PubTabNet's `PMC4682394_003_00` (develop half): an unruled table of
  /// eight columns, 486 px wide, letters 5–6 px high, read enlarged. Its
  /// rows are found as rows although Tesseract reads two cells of some
  /// rows as one stretch of words across a column gap (`eh (aT (93)`),
  /// and the title over the sign columns is one header cell spanning
  /// them (before: no table; the run of rows ended at the first row
  /// whose cells touched).
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func aSmallUnruledTableKeepsItsRowsWhereCellsTouch() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC4682394_003_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    let fever = try #require(cell("Fever"))
    #expect(fever.column == 0 && !fever.isHeader)
    let last = try #require(cell("1288 (4.1)"))
    #expect(last.row == fever.row && last.column > 3)
    let headache = try #require(cell("Headache"))
    #expect(headache.column == 0 && headache.row == fever.row + 6)
    #expect(cell("271 (23)") == TableCellPosition(row: headache.row, column: last.column))
    let title = try #require(
      cells.first { Self.text($0).hasPrefix("N (% of each presenting") }?.cell)
    #expect(title.isHeader && title.columnSpan >= 3 && title.row < fever.row)
  }

  /// The same crop's header row ("Presenting complaints  N  *Pulse  *BP
  /// …"), in the crop's top band and set apart, was called a running head
  /// and left out of the table; it lines up with the table's columns
  /// directly above them, so it is the table's first row, header cells
  /// (before: a `header` paragraph, the table starting at "(% of total
  /// sample"). The crop is read row by row, not as two pages of a spread.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func aCropsHeaderRowIsNoRunningHead() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC4682394_003_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    #expect(!page.blocks.flatMap(\.paragraphs).contains { $0.role == .header })
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    #expect(cell("Presenting complaints") == TableCellPosition(row: 0, column: 0, isHeader: true))
    // "N" over "(% of total sample n = 259288)": one header cell of two lines.
    let n = try #require(cells.first { Self.text($0).hasPrefix("N (% of total sample") }?.cell)
    #expect(n.row == 0 && n.column == 1 && n.isHeader)
    let fever = try #require(cell("Fever"))
    #expect(fever.column == 0 && fever.row > 0 && !fever.isHeader)
    // The body read "9964 (30.6)" and "9645 (30.6)" as one stretch of
    // words; the headers "*Pulse" and "*BP" over it split the column.
    let pulse = try #require(cells.first { Self.text($0).hasSuffix("Pulse") }?.cell)
    let bp = try #require(cells.first { Self.text($0).hasSuffix("BP") }?.cell)
    #expect(pulse.row == 0 && bp.row == 0 && bp.column == pulse.column + 1)
    let first = try #require(cells.first { Self.text($0).hasPrefix("9964") }?.cell)
    #expect(first.row == fever.row && first.column == pulse.column && first.columnSpan == 1)
    // Row by row: every cell of a row before the next row's.
    let rows = cells.compactMap(\.cell?.row)
    #expect(rows == rows.sorted())
  }

  /// `PMC5679144_002_01` (238 × 158, letters 5–7 px high, read enlarged):
  /// Tesseract's layout dropped the whole "Rate" column as noise, so the
  /// crop was one column of labels and no table. The ink of each rate
  /// stands on its label's row a column's gap away: read on its own and
  /// put in the row's line (``OCREngine/readRowInk(_:blocks:)``), the crop
  /// is the truth's 11 rows of 2 cells, "Rate" a header cell over the rates.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func aColumnTheLayoutDroppedIsReadOnItsRows() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC5679144_002_01.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    #expect(cell("Rate") == TableCellPosition(row: 0, column: 1, isHeader: true))
    #expect(cell("Abdominal pain") == TableCellPosition(row: 2, column: 0))
    #expect(cell("Dizzy") == TableCellPosition(row: 7, column: 0))
    let rates = cells.filter { $0.cell?.column == 1 && $0.cell?.isHeader == false }
    #expect(rates.compactMap(\.cell?.row) == Array(1...10))
    // One line a rate (some misread: "OM" for "8.6%"), none joined to
    // the next row's.
    #expect(rates.allSatisfy { $0.lines.count == 1 && !Self.text($0).isEmpty })
    #expect(rates.first { $0.cell?.row == 2 }.map(Self.text)?.hasSuffix("%") == true)
    #expect(cells.count == 22)
  }

  /// `PMC3907710_006_00` (251 × 65): the "Magnitude" and "Interval (s)"
  /// columns were not read at all, and no table found; read on the header
  /// row's and the body rows' lines, they are its last two columns.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func columnsTheLayoutDroppedJoinTheTable() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC3907710_006_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    #expect(cell("Number") == TableCellPosition(row: 0, column: 0, isHeader: true))
    #expect(cell("Magnitude") == TableCellPosition(row: 0, column: 3, isHeader: true))
    let interval = try #require(cells.first { Self.text($0).hasPrefix("interval") }?.cell)
    #expect(interval.row == 0 && interval.column == 4 && interval.isHeader)
    // The rows' numbers, 1 to 3, in the first column.
    let first = cells.filter { $0.cell?.column == 0 }
    #expect(first.map(Self.text) == ["Number", "1", "2", "3"])
    #expect(first.compactMap(\.cell?.row) == [0, 1, 2, 3])
  }

  /// `PMC1626454_002_00` (503 × 249, twelve columns): Tesseract read the
  /// last columns of numbers, at the crop's right side, as blocks of
  /// their own, which the role rule calls marginalia; the table stopped
  /// at the lay persons' "undecided" column. Standing on the table's
  /// rows, they are its last columns, each number in its row.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func numbersAtTheCropsSideAreColumnsOfItsTable() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC1626454_002_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    let columns = (cells.compactMap { $0.cell.map { $0.column + $0.columnSpan } }.max() ?? 0)
    #expect(columns >= 11)
    // The first statement's row: its label in column 0, a number of the
    // lay persons' last column ("9.7", read as "97") in the table's last.
    let first = try #require(cells.first { Self.text($0).hasPrefix("1.") }?.cell)
    #expect(first.column == 0)
    let row = cells.filter { $0.cell?.row == first.row }
    let last = try #require(row.max { ($0.cell?.column ?? 0) < ($1.cell?.column ?? 0) })
    #expect(last.cell?.column == columns - 1)
    #expect(Self.text(last).contains("9"))
    // Nothing of the table's rows is left beside it as a margin note.
    let table = try #require(
      PixelRect.union(cells.compactMap { $0.cell == nil ? nil : $0.bbox }))
    let notes = page.blocks.flatMap(\.paragraphs).filter {
      $0.role == .marginalia
        && $0.lines.contains { line in
          line.words.contains { $0.text.contains { $0.isNumber } && $0.text.count >= 2 }
        } && $0.bbox.minY >= table.minY && $0.bbox.maxY <= table.maxY
    }
    #expect(notes.count <= 1)
  }

  /// `PMC5402779_004_00` (473 × 120, no resolution tag, letters 5–7 px
  /// high): its header and every other row are tinted in light blue bands
  /// 12 px high. Taken for 300 dpi, the bands were thinner than a tenth
  /// of an inch, so the colour step took them for a stamp's strokes over
  /// the text and separated them; the table read as garbage ("Vw3teG° c2",
  /// "twiete"). A fill behind text is as thick as its letters: the tint
  /// stays, and the table is read row by row.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func rowsTintedInBandsAreNoStampOverTheText() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC5402779_004_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    #expect(!page.steps.contains { $0.decision == .stampsSeparated })
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    let sensitivity = try #require(cell("Sensitivity"))
    #expect(sensitivity.column == 0)
    #expect(cell("39.13") == TableCellPosition(row: sensitivity.row, column: 1))
    #expect(cell("31.55 to 47.12") == TableCellPosition(row: sensitivity.row, column: 2))
    let last = try #require(cell("Negative Predictive Value"))
    #expect(last.row == sensitivity.row + 6)
    #expect(cell("93.07 to 95.18") == TableCellPosition(row: last.row, column: 4))
  }

  /// `PMC5402779_004_00`: "Male" and "Female" each centred over a "%"
  /// column and a "95% CI" column, "Variable" beside them over both
  /// header rows (the truth: `rowspan="2"` and `colspan="2"`). Each title
  /// was a cell of the one column it touched, beside an empty cell, and
  /// "Variable" a cell of the first row only.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func titlesCentredOverTwoColumnsSpanThem() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC5402779_004_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { Self.text($0) == text }?.cell
    }
    #expect(cell("Variable") == TableCellPosition(row: 0, column: 0, rowSpan: 2, isHeader: true))
    #expect(cell("Male") == TableCellPosition(row: 0, column: 1, columnSpan: 2, isHeader: true))
    #expect(cell("Female") == TableCellPosition(row: 0, column: 3, columnSpan: 2, isHeader: true))
    let sensitivity = try #require(cell("Sensitivity"))
    #expect(sensitivity == TableCellPosition(row: 2, column: 0))
    // Under the titles, the second header row: its cells one column each.
    let second = cells.compactMap(\.cell).filter { $0.row == 1 }
    #expect(second.map(\.column).sorted() == [1, 2, 3, 4])
    #expect(second.allSatisfy { $0.isHeader && $0.columnSpan == 1 })
  }

  /// `PMC4172848_007_00` (486 × 263): ruled over and under, and under its
  /// header ("Agency level" over "6-Month" over "(n = 80)"), its body
  /// open; bold section titles in the label column start the body. The
  /// header's lower rows read as numbers ("6-Month", "(n=80)" start with
  /// a digit or hold mostly digits): told by the text alone the header was
  /// one row. The rule under it makes every row over it a header row, and
  /// the section title under the rule starts the body. (Its type, bold
  /// over regular, is 5–9 px high here: stems of one pixel either way, so
  /// the weight tells nothing on this crop.)
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func theRuleUnderAHeaderEndsIt() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC4172848_007_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    let months = cells.filter { Self.text($0).contains("Month") }
    let sizes = cells.filter { Self.text($0).hasPrefix("(n") }
    #expect(months.count >= 4 && sizes.count >= 4)
    #expect((months + sizes).allSatisfy { $0.cell?.isHeader == true })
    let last = try #require(sizes.compactMap(\.cell?.row).max())
    #expect(cells.compactMap(\.cell).filter(\.isHeader).map(\.row).max() == last)
    let section = try #require(cells.first { Self.text($0).hasPrefix("Number of") }?.cell)
    #expect(!section.isHeader && section.row == last + 1)
  }

  /// `PMC5198506_004_00` (238 × 99): three columns, a label and two of
  /// "0.12 ± 0.016" (a value and its error). OCR reads the "±" as a word
  /// of its own, so the value columns' cells were three words, like
  /// prose, and no table was found: the page read as lines.
  @Test(.enabled(if: pubtabnetPresent, Comment(rawValue: pubtabnetAbsent)))
  func valuesWithTheirErrorsAreCellsOfATable() throws {
    let path = Self.pubtabnet.appendingPathComponent("PMC5198506_004_00.png").path
    let page = try #require(
      try OCREngine(options: RecognitionOptions()).recognize(contentsOf: path).first)
    let cells = Self.cells(page)
    let columns = cells.compactMap { $0.cell.map { $0.column + $0.columnSpan } }.max() ?? 0
    #expect(columns == 3)
    // The group labels "(a)" and "(b)" in the first column, each on a row
    // of its own, and under each two rows of a label and two values.
    let groups = cells.filter { Self.text($0).hasSuffix("b)") && $0.cell?.column == 0 }
    let b = try #require(groups.first?.cell)
    #expect(cells.filter { $0.cell?.row == b.row }.count == 1)
    for row in [b.row + 1, b.row + 2] {
      let filled = Set(cells.filter { $0.cell?.row == row }.compactMap(\.cell?.column))
      #expect(filled == [0, 1, 2])
    }
  }
}

/// When a page's letters are too small to read as they are.
struct SmallTextTests {
  static func letters(height: Int, count: Int) -> [PixelRect] {
    (0..<count).map { PixelRect(minX: 10 * $0, minY: 0, maxX: 10 * $0 + height, maxY: height) }
  }

  @Test func smallLettersAreEnlargedToAReadableSize() {
    // Letters 6 px high (a web page's table cut out): 4 times.
    #expect(OCREngine.smallTextFactor(Self.letters(height: 6, count: 50)) == 4)
    // 8 px: 3 times; 9 px and more (10-point type at 120 dpi) as they are.
    #expect(OCREngine.smallTextFactor(Self.letters(height: 8, count: 50)) == 3)
    #expect(OCREngine.smallTextFactor(Self.letters(height: 9, count: 50)) == nil)
    #expect(OCREngine.smallTextFactor(Self.letters(height: 24, count: 500)) == nil)
    // Too few letters to say (a logo, a few specks).
    #expect(OCREngine.smallTextFactor(Self.letters(height: 6, count: 10)) == nil)
    // Rules and specks are no letters: pieces under 3 px high, or more
    // than three times as wide as high, are not measured.
    let rules = (0..<100).map { PixelRect(minX: 0, minY: 4 * $0, maxX: 400, maxY: 4 * $0 + 2) }
    #expect(OCREngine.smallTextFactor(rules + Self.letters(height: 24, count: 50)) == nil)
  }

  /// Words read at confidence 60 or more, 120 px apart, `height` high.
  static func words(height: Int, count: Int) -> [Word] {
    (0..<count).map {
      Word(
        text: "word", bbox: PixelRect(minX: 120 * $0, minY: 0, maxX: 120 * $0 + 100, maxY: height),
        confidence: 90)
    }
  }

  /// Letters `height` high inside each of those words.
  static func ink(height: Int, count: Int) -> [PixelRect] {
    (0..<count).flatMap { w in
      (0..<4).map {
        PixelRect(minX: 120 * w + 20 * $0, minY: 2, maxX: 120 * w + 20 * $0 + 10, maxY: 2 + height)
      }
    }
  }

  @Test func wordBoxesOverSmallLettersAreNoReadableWords() {
    // PubTabNet's `PMC4172848_007_00`: Tesseract's few confident words
    // were boxes 28 px high over several lines of letters 6 px high, and
    // no ink on the page is that tall.
    let boxes = Self.words(height: 28, count: 5)
    #expect(!OCREngine.readsWordsOfReadableSize(boxes, ink: Self.ink(height: 6, count: 5)))
    // Without the ink to look at, the boxes' heights decide (as before).
    #expect(OCREngine.readsWordsOfReadableSize(boxes, ink: nil))
    // A degraded page: most pieces of ink are specks, but its letters
    // (30 px) are there too: its words are readable.
    #expect(
      OCREngine.readsWordsOfReadableSize(
        Self.words(height: 40, count: 5),
        ink: Self.ink(height: 6, count: 20) + Self.ink(height: 30, count: 5)))
    // Fewer than three confident words say nothing.
    #expect(
      !OCREngine.readsWordsOfReadableSize(
        Self.words(height: 40, count: 2), ink: Self.ink(height: 30, count: 2)))
  }
}

/// A cell read from ink the layout left out joins its row's line
/// (``OCREngine/add(_:to:paragraph:line:)``).
struct RowInkLineTests {
  static func word(_ text: String, _ x: Int, _ width: Int) -> Word {
    Word(
      text: text, bbox: PixelRect(minX: x, minY: 100, maxX: x + width, maxY: 124),
      confidence: 90)
  }

  @Test func aCellReadAloneJoinsItsRowsLineWhereItStands() {
    let label = [Self.word("Abdominal", 10, 140), Self.word("pain", 160, 60)]
    let line = TextLine(
      bbox: PixelRect(minX: 10, minY: 100, maxX: 220, maxY: 124),
      baseline: Baseline(start: Point(x: 10, y: 120), end: Point(x: 220, y: 120)), words: label)
    let paragraph = Paragraph(bbox: line.bbox, lines: [line], role: .body)
    var block = Block(bbox: line.bbox, paragraphs: [paragraph])
    OCREngine.add([Self.word("19.4%", 860, 70)], to: &block, paragraph: 0, line: 0)
    let joined = block.paragraphs[0].lines[0]
    #expect(joined.words.map(\.text) == ["Abdominal", "pain", "19.4%"])
    let box = PixelRect(minX: 10, minY: 100, maxX: 930, maxY: 124)
    #expect(joined.bbox == box && block.paragraphs[0].bbox == box && block.bbox == box)
    #expect(
      joined.baseline == Baseline(start: Point(x: 10, y: 120), end: Point(x: 930, y: 120)))
  }
}
