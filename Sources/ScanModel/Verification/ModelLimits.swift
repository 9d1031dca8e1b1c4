/// Why a page read from a file is refused by ``ModelLimits``: the element
/// and the field that break a limit, and the limit.
public struct ModelLimitError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The element within the page, as the JSON names it
  /// (`blocks[0].paragraphs[2]`); empty for the page itself.
  public var element: String
  /// What is wrong, naming the field (`'rowSpan' 9223372036854775807 …`).
  public var reason: String

  /// Creates an error.
  public init(element: String, reason: String) {
    self.element = element
    self.reason = reason
  }

  public var description: String { element.isEmpty ? reason : "\(element): \(reason)" }
}

/// The limits every page read from a file is checked against, whatever
/// its format (JSON, `.stm`, PAGE, ALTO, hOCR, TSV), before any command
/// trusts it: one rule, applied by every reader after it decodes a page,
/// so that a forged model is refused with a clear error instead of
/// crashing or exhausting a writer, and `convert` never writes a file
/// ScanText would refuse to read.
///
/// The limits are far above what a scan produces and each is tied to
/// what the page itself holds where it can be (a table's rows and
/// columns to the page's words). `docs/reliability-limits.md` lists
/// them with the errors a user sees.
public enum ModelLimits {
  /// The resolutions a page may record, in dots per inch: 1 to 100,000.
  /// `--dpi` takes 1 to 10,000; a PDF page rendered at its image's own
  /// resolution may record more (a small page holding a large image).
  public static let resolutions = 1...100_000

  /// The page indexes a page may record: 0 (the first page) to 9,999,999.
  /// Readers and writers number pages from it (`page \(index + 1)`), so
  /// a forged index must neither be negative nor overflow.
  public static let pageIndexes = 0...9_999_999

  /// The largest skew or angle magnitude, in degrees: 360.
  public static let angleLimit: Double = 360

  /// The most words a page may hold: 1,000,000 (a dense newspaper page
  /// holds about 20,000).
  public static let wordLimit = 1_000_000

  /// The most glyphs a page may hold: 4,000,000.
  public static let glyphLimit = 4_000_000

  /// The most points a line's polygon may hold: 10,000.
  public static let polygonPointLimit = 10_000

  /// The most figures a page may hold: 100,000.
  public static let figureLimit = 100_000

  /// The most places (rows × columns, spans included) the table cells of
  /// a page may lay out: 64 for each word of the page, and at least
  /// 16,384 (a 128 × 128 grid). A table's places are written out one by
  /// one (a tagged PDF's empty `TD`s), so this keeps a forged cell at row
  /// 20,000 from making a 20,000 × 20,000 grid, while a ruled form with
  /// few words filled in (a blank grid the table step found by its rules)
  /// still reads.
  /// - Parameter words: The number of words on the page.
  /// - Complexity: O(1).
  public static func tablePlaceLimit(words: Int) -> Int {
    64 * max(words, 256)
  }

  /// Checks `page` against every limit.
  ///
  /// - Parameter page: A page just decoded from a file.
  /// - Throws: ``ModelLimitError`` naming the first element and field
  ///   beyond a limit.
  /// - Complexity: O(*n*) in the page's elements and points.
  public static func check(_ page: Page) throws(ModelLimitError) {
    var checker = Checker()
    try checker.check(page)
  }
}

private struct Checker {
  var path: [String] = []
  var words = 0
  var glyphs = 0
  var lines = 0

  static let coordinateLimit = Double(ScanConventions.coordinateLimit)

  func fail(_ reason: String) -> ModelLimitError {
    ModelLimitError(element: path.joined(separator: "."), reason: reason)
  }

  func coordinate(_ v: Int, _ field: String) throws(ModelLimitError) {
    guard abs(v) <= ScanConventions.coordinateLimit else {
      throw fail("'\(field)' has the coordinate \(v), beyond ±\(ScanConventions.coordinateLimit)")
    }
  }

  func box(_ r: PixelRect, _ field: String = "bbox") throws(ModelLimitError) {
    for v in [r.minX, r.minY, r.maxX, r.maxY] { try coordinate(v, field) }
    guard r.minX <= r.maxX, r.minY <= r.maxY else {
      throw fail("'\(field)' [\(r.minX), \(r.minY), \(r.maxX), \(r.maxY)] has x1 < x0 or y1 < y0")
    }
  }

  func point(_ p: Point, _ field: String) throws(ModelLimitError) {
    guard p.x.isFinite, p.y.isFinite, abs(p.x) <= Self.coordinateLimit,
      abs(p.y) <= Self.coordinateLimit
    else {
      throw fail(
        "'\(field)' has the point (\(p.x), \(p.y)), not finite or beyond ±\(ScanConventions.coordinateLimit)"
      )
    }
  }

  func quad(_ q: Quad?, _ field: String = "quad") throws(ModelLimitError) {
    guard let q else { return }
    for p in q.corners { try point(p, field) }
  }

  func confidence(_ c: Double?) throws(ModelLimitError) {
    guard let c else { return }
    guard c.isFinite, (0...100).contains(c) else {
      throw fail("'confidence' \(c) is not a number from 0 to 100")
    }
  }

  func angle(_ a: Double, _ field: String) throws(ModelLimitError) {
    guard a.isFinite, abs(a) <= ModelLimits.angleLimit else {
      throw fail("'\(field)' \(a) is not an angle within ±\(Int(ModelLimits.angleLimit))°")
    }
  }

  mutating func check(_ page: Page) throws(ModelLimitError) {
    guard ModelLimits.pageIndexes.contains(page.index) else {
      throw fail(
        "'index' \(page.index) is not between \(ModelLimits.pageIndexes.lowerBound) and \(ModelLimits.pageIndexes.upperBound)"
      )
    }
    let limit = ScanConventions.coordinateLimit
    guard (0...limit).contains(page.width), (0...limit).contains(page.height) else {
      throw fail("'width' and 'height' must be between 0 and \(limit)")
    }
    if let dpi = page.dpi, !ModelLimits.resolutions.contains(dpi) {
      throw fail(
        "'dpi' \(dpi) is not between \(ModelLimits.resolutions.lowerBound) and \(ModelLimits.resolutions.upperBound)"
      )
    }
    guard [0, 90, 180, 270].contains(page.orientation) else {
      throw fail("'orientation' \(page.orientation) is not 0, 90, 180 or 270")
    }
    try angle(page.skew, "skew")
    if let exif = page.exifOrientation, !(1...8).contains(exif) {
      throw fail("'exifOrientation' \(exif) is not between 1 and 8")
    }
    if let crop = page.crop { try box(crop, "crop") }
    try quad(page.perspective, "perspective")
    if let pdf = page.pdf { try check(pdf) }
    guard page.figures.count <= ModelLimits.figureLimit else {
      throw fail(
        "'figures' holds \(page.figures.count) figures, more than \(ModelLimits.figureLimit)")
    }
    for (k, figure) in page.figures.enumerated() {
      path.append("figures[\(k)]")
      try box(figure.bbox)
      try quad(figure.quad)
      path.removeLast()
    }
    var cells: [(String, TableCellPosition)] = []
    for (b, block) in page.blocks.enumerated() {
      path.append("blocks[\(b)]")
      try box(block.bbox)
      for (p, paragraph) in block.paragraphs.enumerated() {
        path.append("paragraphs[\(p)]")
        try box(paragraph.bbox)
        if let cell = paragraph.cell { cells.append((path.joined(separator: "."), cell)) }
        for (l, line) in paragraph.lines.enumerated() {
          path.append("lines[\(l)]")
          try check(line)
          path.removeLast()
        }
        path.removeLast()
      }
      path.removeLast()
    }
    try checkTable(cells)
  }

  func check(_ pdf: PDFPageSource) throws(ModelLimitError) {
    guard pdf.page >= 1 else { throw fail("'pdf.page' \(pdf.page) is below 1") }
    // Positive at export precision: a size that rounds to 0 would be
    // written as 0, which no reader takes back.
    guard pdf.width.isFinite, pdf.height.isFinite,
      ScanConventions.rounded(pdf.width) > 0, ScanConventions.rounded(pdf.height) > 0,
      pdf.width <= Self.coordinateLimit, pdf.height <= Self.coordinateLimit
    else {
      throw fail(
        "'pdf.size' must be positive numbers (0.01 or more) within \(ScanConventions.coordinateLimit)"
      )
    }
    guard pdf.pixelToPoint.count == 6,
      pdf.pixelToPoint.allSatisfy({ $0.isFinite && abs($0) <= Self.coordinateLimit })
    else {
      throw fail(
        "'pdf.pixelToPoint' must be 6 finite numbers within ±\(ScanConventions.coordinateLimit)")
    }
  }

  mutating func check(_ line: TextLine) throws(ModelLimitError) {
    lines += 1
    try box(line.bbox)
    try quad(line.quad)
    if let polygon = line.polygon {
      guard polygon.count <= ModelLimits.polygonPointLimit else {
        throw fail(
          "'polygon' has \(polygon.count) points, more than \(ModelLimits.polygonPointLimit)")
      }
      for p in polygon { try point(p, "polygon") }
    }
    if let baseline = line.baseline {
      try point(baseline.start, "baseline")
      try point(baseline.end, "baseline")
    }
    for (w, word) in line.words.enumerated() {
      path.append("words[\(w)]")
      words += 1
      guard words <= ModelLimits.wordLimit else {
        throw fail("the page holds more than \(ModelLimits.wordLimit) words")
      }
      try box(word.bbox)
      try quad(word.quad)
      try confidence(word.confidence)
      glyphs += word.glyphs.count
      guard glyphs <= ModelLimits.glyphLimit else {
        throw fail("the page holds more than \(ModelLimits.glyphLimit) glyphs")
      }
      for (g, glyph) in word.glyphs.enumerated() {
        path.append("glyphs[\(g)]")
        try box(glyph.bbox)
        try quad(glyph.quad)
        try confidence(glyph.confidence)
        path.removeLast()
      }
      path.removeLast()
    }
  }

  /// Every cell's row and column count from 0 and its spans from 1; the
  /// rows and columns the cells reach, multiplied, stay within
  /// ``ModelLimits/tablePlaceLimit(words:)`` (no sum or product
  /// overflows on the way).
  func checkTable(_ cells: [(String, TableCellPosition)]) throws(ModelLimitError) {
    guard !cells.isEmpty else { return }
    let places = ModelLimits.tablePlaceLimit(words: words)
    var rows = 0
    var columns = 0
    for (element, cell) in cells {
      func refuse(_ reason: String) -> ModelLimitError {
        ModelLimitError(element: element, reason: reason)
      }
      guard cell.row >= 0, cell.column >= 0 else {
        throw refuse("a table cell's 'row' and 'column' count from 0 (\(cell.row), \(cell.column))")
      }
      guard cell.rowSpan >= 1, cell.columnSpan >= 1 else {
        throw refuse("a table cell spans at least 1 row and 1 column")
      }
      for (field, start, span) in [
        ("row", cell.row, cell.rowSpan), ("column", cell.column, cell.columnSpan),
      ] {
        guard start < places, span <= places - start else {
          throw refuse(
            "the table cell at \(field) \(start) spanning \(span) reaches beyond the \(places) places a table of this page's \(words) words may have"
          )
        }
      }
      rows = max(rows, cell.row + cell.rowSpan)
      columns = max(columns, cell.column + cell.columnSpan)
    }
    let (product, overflow) = rows.multipliedReportingOverflow(by: columns)
    guard !overflow, product <= places else {
      throw ModelLimitError(
        element: "",
        reason:
          "the page's table cells lay out \(rows) rows × \(columns) columns, more than the \(places) places a table of this page's \(words) words may have"
      )
    }
  }
}
