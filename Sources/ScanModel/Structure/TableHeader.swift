/// The header rows of a table: the rows that label its columns.
///
/// A table's header is told from its body by what the cells hold, as
/// tables are made: the body's data columns hold numbers (amounts,
/// measures, years, scores), the header above them names what they are
/// in words. The header is the leading rows with no number in any cell,
/// when below them some column holds a number in at least half of the
/// remaining rows, and the header is at most three rows and less than half
/// the table. A table of words only (a glossary, a list of names) has no
/// header told this way: its first row may be data.
///
/// A cell spanning rows down from the header (a label beside a group
/// title) is a header cell too.
public enum TableHeader {
  /// The number of header rows of a table, from its cells' texts.
  /// - Parameter cells: Each cell's place and text.
  /// - Returns: How many rows from the top are header rows (0 when none).
  /// - Complexity: O(*c*) in the cells.
  public static func rowCount(_ cells: [(position: TableCellPosition, text: String)]) -> Int {
    let rows = cells.map { $0.position.row + $0.position.rowSpan }.max() ?? 0
    guard rows >= 3 else { return 0 }
    var numericRow = Array(repeating: false, count: rows)
    for cell in cells where isNumber(cell.text) { numericRow[cell.position.row] = true }
    guard let firstData = numericRow.firstIndex(of: true), firstData >= 1, firstData <= 3,
      2 * firstData < rows
    else { return 0 }
    // Some column holds numbers in at least half the rows below.
    var byColumn: [Int: Set<Int>] = [:]
    for cell in cells where cell.position.row >= firstData && isNumber(cell.text) {
      byColumn[cell.position.column, default: []].insert(cell.position.row)
    }
    let body = rows - firstData
    guard body >= 2, byColumn.values.contains(where: { 2 * $0.count >= body }) else { return 0 }
    return firstData
  }

  /// Whether a cell's text is a number: its first letter or digit is a
  /// digit (`12`, `3.71T`, `−0.5`, `$1,200`, `500 grams`, `(2019)`), or
  /// most of its letters and digits are digits.
  public static func isNumber(_ text: String) -> Bool {
    let alphanumerics = text.filter { $0.isLetter || $0.isNumber }
    guard let first = alphanumerics.first else { return false }
    if first.isNumber { return true }
    return 2 * alphanumerics.count(where: \.isNumber) > alphanumerics.count
  }

  /// The positions with ``TableCellPosition/isHeader`` set for the cells
  /// in the header rows (``rowCount(_:)``).
  /// - Complexity: O(*c*) in the cells.
  public static func marking(_ cells: [(position: TableCellPosition, text: String)])
    -> [TableCellPosition]
  {
    let header = rowCount(cells)
    return cells.map { cell in
      var position = cell.position
      position.isHeader = position.row < header
      return position
    }
  }
}
