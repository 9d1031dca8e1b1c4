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
///
/// The header is set apart by how the table is made, too. First, a rule:
/// a table set with rules only over and under it and under its header
/// (booktabs' `\midrule`, a journal's house style) rules the header off
/// from its body across the table's whole width. The first rule across
/// the table between two of its rows ends the header when it lies under
/// one to three rows with text, in the table's top half, and the body
/// under it is open (fewer than half of the body's rows ruled off from
/// the next: a grid ruled between every row says nothing of its header).
/// A rule over part of the columns only (`\cmidrule` under a group title)
/// is no such rule. "6-Month" over "(n = 80)" over counts reads as
/// numbers, yet both rows lie over the rule (PubTabNet's
/// `PMC4172848_007_00`).
///
/// Then the type: typesetters set a header bold over a body in the
/// regular face. Where the cells' type weights are known (their words'
/// stroke widths over their type sizes, as the roles measure bold), a leading row
/// set bold against the table's body labels the data columns whatever it
/// holds. A bold row must still lie over a data column: a bold section
/// title in the label column ("Number of couples per facilitator")
/// starts the body. In a table of words only, the leading bold rows are
/// its header.
public enum TableHeader {
  /// The number of header rows of a table, from its cells' texts and,
  /// when known, their type weights and the rules across the table.
  /// - Parameters:
  ///   - cells: Each cell's place and text.
  ///   - weights: Each cell's type weight (its words' median stroke width
  ///     over type size; `nil` for a cell not measured), in the order of
  ///     `cells`; `nil` when the type was not measured.
  ///   - rules: The rows with a rule across the table's width over them
  ///     (row *k* when the rule lies between rows *k* − 1 and *k*); `nil`
  ///     when the rules were not looked for.
  /// - Returns: How many rows from the top are header rows (0 when none).
  /// - Complexity: O(*c* log *c*) in the cells.
  public static func rowCount(
    _ cells: [(position: TableCellPosition, text: String)], weights: [Double?]? = nil,
    rules: Set<Int>? = nil
  ) -> Int {
    let rows = cells.map { $0.position.row + $0.position.rowSpan }.max() ?? 0
    guard rows >= 3 else { return 0 }
    if let ruled = ruledHeader(cells, rules: rules, rows: rows) { return ruled }
    let bold = boldRows(cells, weights: weights, rows: rows)
    var numbers: [Int: Int] = [:]
    var filled: [Int: Int] = [:]
    for cell in cells where cell.position.row >= 1 && !cell.text.isEmpty {
      filled[cell.position.column, default: 0] += 1
      if isNumber(cell.text) { numbers[cell.position.column, default: 0] += 1 }
    }
    let data = Set(
      numbers.filter { column, count in count >= 2 && 2 * count >= filled[column] ?? 0 }.keys)
    let limit = (rows - 1) / 2
    guard !data.isEmpty else {
      // A table of words: its leading bold rows, when its type tells.
      var header = 0
      for row in 0..<limit where bold.contains(row) && header == row { header = row + 1 }
      return min(header, 3)
    }
    // A row with no text at all (its only marks read as no words) says
    // nothing: it is a header row when a header row follows it.
    var header = 0
    var labelled = 0
    for row in 0..<limit where labelled < 3 {
      let texts = cells.filter { $0.position.row == row && !$0.text.isEmpty }
      if texts.isEmpty { continue }
      let labels = texts.filter { data.contains($0.position.column) }
      guard
        !labels.isEmpty,
        bold.contains(row) || 2 * labels.count(where: { !isNumber($0.text) }) >= labels.count
      else { break }
      header = row + 1
      labelled += 1
    }
    return header
  }

  /// The header rows a rule under them tells (see ``TableHeader``), or
  /// `nil` when the rules tell nothing.
  static func ruledHeader(
    _ cells: [(position: TableCellPosition, text: String)], rules: Set<Int>?, rows: Int
  ) -> Int? {
    guard let rules, let k = rules.filter({ $0 >= 1 && $0 < rows }).min(), k <= (rows - 1) / 2
    else { return nil }
    let labelled = Set(cells.filter { $0.position.row < k && !$0.text.isEmpty }.map(\.position.row))
    guard (1...3).contains(labelled.count) else { return nil }
    // The body's rows under its first: how many a rule parts from the row above.
    let body = rows - k - 1
    guard 2 * rules.count(where: { $0 > k && $0 < rows }) < body else { return nil }
    return k
  }

  /// The rows in the table's top half set bold against its body: the
  /// median weight of the row's measured cells is bold
  /// (``TypeWeight/isBold(line:body:)``) against the median weight of the
  /// cells in the table's bottom half (its body, whatever its header),
  /// which must have at least two measured cells. Empty when the type
  /// was not measured.
  static func boldRows(
    _ cells: [(position: TableCellPosition, text: String)], weights: [Double?]?, rows: Int
  ) -> Set<Int> {
    guard let weights, weights.count == cells.count else { return [] }
    let measured = zip(cells, weights).compactMap { cell, weight in
      weight.map { (row: cell.position.row, weight: $0) }
    }
    let body = measured.filter { 2 * $0.row >= rows }.map(\.weight)
    guard body.count >= 2 else { return [] }
    let bodyWeight = RoleDetection.median(body)
    var out: Set<Int> = []
    for row in 0..<(rows / 2) {
      let line = measured.filter { $0.row == row }.map { TypeWeight.Measure(weight: $0.weight) }
      if TypeWeight.isBold(line: line, body: bodyWeight) { out.insert(row) }
    }
    return out
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
  /// in the header rows (``rowCount(_:weights:rules:)``).
  /// - Parameters:
  ///   - cells: Each cell's place and text.
  ///   - weights: Each cell's type weight, as
  ///     ``rowCount(_:weights:rules:)`` takes them; `nil` when the type
  ///     was not measured.
  ///   - rules: The rows with a rule across the table over them, as
  ///     ``rowCount(_:weights:rules:)`` takes them; `nil` when not looked for.
  /// - Complexity: O(*c* log *c*) in the cells.
  public static func marking(
    _ cells: [(position: TableCellPosition, text: String)], weights: [Double?]? = nil,
    rules: Set<Int>? = nil
  ) -> [TableCellPosition] {
    let header = rowCount(cells, weights: weights, rules: rules)
    return cells.map { cell in
      var position = cell.position
      position.isHeader = position.row < header
      return position
    }
  }
}

/// What the page image shows of a table besides its words, for its header
/// rows (``TableHeader``): how heavy its words' type is, and where rules
/// run across it.
public struct TableInk {
  /// The mean stroke width, in pixels, of a word's ink (`nil` for a word
  /// not measured).
  public var strokeWidth: (Word) -> Double?
  /// The largest share of one pixel row of a band (the first box) that is
  /// ink, ink told against the ink and paper of the table's box (the
  /// second).
  public var inkAcross: (PixelRect, PixelRect) -> Double

  /// Creates the measures of a table's ink.
  /// - Parameters:
  ///   - strokeWidth: A word's mean stroke width, in pixels.
  ///   - inkAcross: The largest share of one pixel row of a band that is
  ///     ink, against the ink and paper of a table's box.
  public init(
    strokeWidth: @escaping (Word) -> Double?, inkAcross: @escaping (PixelRect, PixelRect) -> Double
  ) {
    self.strokeWidth = strokeWidth
    self.inkAcross = inkAcross
  }

  /// A rule runs across a table when ink fills this share of a pixel row
  /// over the table's cells (the rule is as wide as the table or wider;
  /// the share leaves room for a rule's faded ends).
  static let ruleShare = 0.9

  /// The rows of a table with a rule across its whole width over them:
  /// row *k* when, between the ink of rows *k* − 1 and *k* (the cells
  /// spanning one row), a pixel row of the table's width is ink
  /// (``ruleShare``).
  /// - Parameter cells: Each cell's place and box.
  /// - Complexity: O(*r* · *c* + *p*) in the rows, the cells and the
  ///   pixels looked at.
  func ruledRows(_ cells: [(position: TableCellPosition, box: PixelRect)]) -> Set<Int> {
    guard let table = PixelRect.union(cells.map(\.box)) else { return [] }
    let rows = cells.map { $0.position.row + $0.position.rowSpan }.max() ?? 0
    var out: Set<Int> = []
    for row in 1..<max(1, rows) {
      let above = cells.filter { $0.position.row == row - 1 && $0.position.rowSpan == 1 }
      let below = cells.filter { $0.position.row == row && $0.position.rowSpan == 1 }
      guard let bottom = above.map(\.box.maxY).max(), let top = below.map(\.box.minY).min()
      else { continue }
      let band = PixelRect(
        minX: table.minX, minY: min(bottom, top) - 1, maxX: table.maxX, maxY: max(bottom, top) + 1)
      if inkAcross(band, table) >= Self.ruleShare { out.insert(row) }
    }
    return out
  }
}
