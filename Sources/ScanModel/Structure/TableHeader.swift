/// The header rows of a table: the rows that label its columns.
///
/// A table's header is told from its body by what the cells hold, as
/// tables are made: the body's data columns hold numbers (amounts,
/// measures, years, scores), the header above them names what they are
/// in words. A column is a data column when, below its first row, at
/// least half of its cells (two or more) are numbers. The header is the
/// leading rows that label the data columns: half their cells in data
/// columns or more are words (`95% CI` over confidence intervals labels them
/// beside `Hazard ratio`), at most three rows with text and less than half
/// the table. A table of words only (a glossary, a list of names) has no
/// header told this way: its first row may be data. A row without text
/// (marks read as no words, PubTabNet's `PMC1626454_002_00`) neither
/// starts nor ends the header.
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
    var numbers: [Int: Int] = [:]
    var filled: [Int: Int] = [:]
    for cell in cells where cell.position.row >= 1 && !cell.text.isEmpty {
      filled[cell.position.column, default: 0] += 1
      if isNumber(cell.text) { numbers[cell.position.column, default: 0] += 1 }
    }
    let data = Set(
      numbers.filter { column, count in count >= 2 && 2 * count >= filled[column] ?? 0 }.keys)
    guard !data.isEmpty else { return 0 }
    // A row with no text at all (its only marks read as no words) says
    // nothing: it is a header row when a header row follows it.
    var header = 0
    var labelled = 0
    for row in 0..<((rows - 1) / 2) where labelled < 3 {
      let texts = cells.filter { $0.position.row == row && !$0.text.isEmpty }
      if texts.isEmpty { continue }
      let labels = texts.filter { data.contains($0.position.column) }
      guard !labels.isEmpty, 2 * labels.count(where: { !isNumber($0.text) }) >= labels.count
      else { break }
      header = row + 1
      labelled += 1
    }
    return header
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
