import ScanModel

/// A table of a page read cell by cell: its cells with their places,
/// their text as a reader reads it and their boxes, for the exports that
/// write tables on their own (`scantext tables`: CSV, Markdown, JSON) and
/// the Markdown document.
///
/// A table is a run of consecutive paragraphs, in reading order and in one
/// block, that carry their place in a table (``ScanModel/Paragraph/cell``):
/// the block a table step makes of a table's cells. Table-cell paragraphs
/// without a place are no table here (they are read as text).
public struct PageTable: Hashable, Sendable {
  /// One cell: its place, its text and its box.
  public struct Cell: Hashable, Sendable {
    /// The cell's row, column, spans and whether it is a header cell.
    public var position: TableCellPosition
    /// The cell's text: its lines joined by spaces, words hyphenated at
    /// a line end joined (``ScanModel/Page/spokenText(in:)``).
    public var text: String
    /// The cell paragraph's box, in the page's pixels.
    public var bbox: PixelRect
    /// The cell paragraph's range in the page text.
    public var range: TextRange

    /// Creates a cell.
    public init(position: TableCellPosition, text: String, bbox: PixelRect, range: TextRange) {
      self.position = position
      self.text = text
      self.bbox = bbox
      self.range = range
    }
  }

  /// The cells, in the model's reading order.
  public var cells: [Cell]

  /// Creates a table of cells.
  public init(cells: [Cell]) {
    self.cells = cells
  }

  /// The number of rows: one past the last row a cell covers.
  public var rowCount: Int {
    cells.map { $0.position.row + $0.position.rowSpan }.max() ?? 0
  }

  /// The number of columns: one past the last column a cell covers.
  public var columnCount: Int {
    cells.map { $0.position.column + $0.position.columnSpan }.max() ?? 0
  }

  /// The box round every cell.
  public var bounds: PixelRect? { PixelRect.union(cells.map(\.bbox)) }

  /// Whether a cell spans more than one row or column.
  public var hasSpans: Bool {
    cells.contains { $0.position.rowSpan > 1 || $0.position.columnSpan > 1 }
  }

  /// Whether a cell heads its column or row: one marked so
  /// (``ScanModel/TableCellPosition/isHeader``) or, when no cell is, one of
  /// the first row of a table of several rows.
  public func isHeader(_ cell: Cell) -> Bool {
    if cells.contains(where: \.position.isHeader) { return cell.position.isHeader }
    return cell.position.row == 0 && rowCount > 1
  }

  /// The table's text as a grid of `rowCount` rows of `columnCount`
  /// texts: a cell's text at its first row and column (a spanning cell's
  /// other places empty), a place no cell covers empty, and two cells at
  /// one place (which no table step makes) joined by a space.
  /// - Complexity: O(*r* · *c* + *n*) in the rows, columns and cells.
  public var rows: [[String]] {
    var grid = Array(
      repeating: Array(repeating: "", count: columnCount), count: rowCount)
    for cell in cells {
      let (r, c) = (cell.position.row, cell.position.column)
      guard r >= 0, c >= 0 else { continue }
      grid[r][c] = grid[r][c].isEmpty ? cell.text : grid[r][c] + " " + cell.text
    }
    return grid
  }

  /// The tables of `page`, in reading order.
  /// - Complexity: O(*n*) in the page's characters.
  public static func tables(of page: Page) -> [PageTable] {
    runs(in: numbered(page)).map { PageTable($0, on: page) }
  }

  /// The table of a run of cell paragraphs of `page`.
  init(_ paragraphs: [Paragraph], on page: Page) {
    cells = paragraphs.map { paragraph in
      Cell(
        position: paragraph.cell ?? TableCellPosition(row: 0, column: 0),
        text: page.readingText(of: paragraph), bbox: paragraph.bbox, range: paragraph.range)
    }
  }

  /// The page's paragraphs in reading order, each with its block's index.
  static func numbered(_ page: Page) -> [(block: Int, paragraph: Paragraph)] {
    page.blocks.enumerated().flatMap { b, block in
      block.paragraphs.map { (block: b, paragraph: $0) }
    }
  }

  /// The tables among `paragraphs`: each run of consecutive paragraphs
  /// of one block that carry a cell.
  static func runs(in paragraphs: [(block: Int, paragraph: Paragraph)]) -> [[Paragraph]] {
    var out: [[Paragraph]] = []
    var index = 0
    while index < paragraphs.count {
      let end = tableEnd(from: index, in: paragraphs)
      if end > index {
        out.append(paragraphs[index..<end].map(\.paragraph))
        index = end
      } else {
        index += 1
      }
    }
    return out
  }

  /// The end of the table that starts at `start` (`start` itself when no
  /// table starts there): the first paragraph after it that carries no
  /// cell or is in another block.
  static func tableEnd(from start: Int, in paragraphs: [(block: Int, paragraph: Paragraph)])
    -> Int
  {
    guard start < paragraphs.count, paragraphs[start].paragraph.cell != nil else { return start }
    var end = start + 1
    while end < paragraphs.count, paragraphs[end].paragraph.cell != nil,
      paragraphs[end].block == paragraphs[start].block
    {
      end += 1
    }
    return end
  }
}

extension Page {
  /// A paragraph's text as a reader reads it: its lines joined by single
  /// spaces, words hyphenated at a line end joined
  /// (``ScanModel/Page/spokenText(in:)``).
  /// - Complexity: O(*k*) in the paragraph's characters.
  func readingText(of paragraph: Paragraph) -> String {
    let text =
      spokenText(in: paragraph.range) ?? paragraph.lines.map(\.text).joined(separator: "\n")
    return text.split { $0 == " " || $0 == "\t" || $0.isNewline }.joined(separator: " ")
  }
}

extension PageTable {
  /// The table as CSV: one record per row of ``rows`` (a spanning cell's
  /// text at its first row and column), fields quoted as RFC 4180 says
  /// (a field holding `,`, `"`, a line break or a space at either end is
  /// quoted, its `"` doubled); every record ends with `\n`.
  /// - Complexity: O(*r* · *c* + *n*) in the rows, columns and characters.
  public var csv: String {
    func field(_ text: String) -> String {
      let quoted =
        text.contains { $0 == "," || $0 == "\"" || $0.isNewline }
        || text.first == " " || text.last == " "
      return quoted ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
    return rows.map { $0.map(field).joined(separator: ",") + "\n" }.joined()
  }

  /// The table as JSON: its `page` (from 1) and `index` on the page (from
  /// 1), its `rows` and `columns`, its `bbox`, and its `cells` in reading
  /// order, each with its `row` and `column` (from 0), `rowSpan`,
  /// `columnSpan`, `header` (whether the model marks it a header cell:
  /// ``ScanModel/TableCellPosition/isHeader``), `text`, `bbox` and `range`
  /// (UTF-16 offsets in the page text).
  /// - Parameters:
  ///   - page: The page's number, from 1.
  ///   - index: The table's number on its page, from 1.
  public func json(page: Int, index: Int) -> JSONValue {
    .object([
      "page": .number(Double(page)), "index": .number(Double(index)),
      "rows": .number(Double(rowCount)), "columns": .number(Double(columnCount)),
      "bbox": bounds.map(DocumentJSON.box) ?? .null,
      "cells": .array(
        cells.map { cell in
          .object([
            "row": .number(Double(cell.position.row)),
            "column": .number(Double(cell.position.column)),
            "rowSpan": .number(Double(cell.position.rowSpan)),
            "columnSpan": .number(Double(cell.position.columnSpan)),
            "header": .bool(cell.position.isHeader), "text": .string(cell.text),
            "bbox": DocumentJSON.box(cell.bbox),
            "range": DocumentJSON.range(cell.range),
          ])
        }),
    ])
  }
}
