import ScanModel

extension CompactModel {
  /// A page's record: every value the page is built from (its provenance
  /// and its element tree), in the order `docs/COMPACT-MODEL.md` gives.
  /// Ranges, texts of lines and the page, and the query index are not
  /// stored: ``ScanModel/Page/init(index:image:width:height:dpi:orientation:skew:language:blocks:steps:crop:perspective:pdf:source:dpiSource:exifOrientation:)``
  /// rebuilds them, as it does for JSON.
  /// - Complexity: O(*n*) in the page's elements.
  static func record(of page: Page) -> [UInt8] {
    var w = ByteWriter()
    w.bytes.reserveCapacity(64 + page.text.utf8.count * 24)
    w.int(page.index)
    w.optional(page.image) { $0.string($1) }
    w.int(page.width)
    w.int(page.height)
    w.optional(page.dpi) { $0.int($1) }
    w.int(page.orientation)
    w.double(page.skew)
    w.optional(page.language) { $0.string($1) }
    w.count(page.preprocessing.count)
    for step in page.preprocessing { w.string(step) }
    w.optional(page.crop) { $0.rect($1) }
    w.optional(page.perspective) { $0.quad($1) }
    w.optional(page.pdf) { w, pdf in
      w.int(pdf.page)
      w.double(pdf.width)
      w.double(pdf.height)
      w.count(pdf.pixelToPoint.count)
      for x in pdf.pixelToPoint { w.double(x) }
      w.flag(pdf.hasText)
      w.flag(pdf.nativeImage)
    }
    w.string(page.source.rawValue)
    w.optional(page.dpiSource) { $0.string($1.rawValue) }
    w.optional(page.exifOrientation) { $0.int($1) }
    w.count(page.figures.count)
    for figure in page.figures {
      w.rect(figure.bbox)
      w.optional(figure.quad) { $0.quad($1) }
      w.optional(figure.alternativeText) { $0.string($1) }
    }
    w.count(page.blocks.count)
    for block in page.blocks {
      w.rect(block.bbox)
      w.count(block.paragraphs.count)
      for paragraph in block.paragraphs {
        w.rect(paragraph.bbox)
        w.string(paragraph.role.rawValue)
        w.optional(paragraph.headingLevel ?? paragraph.listLevel.flatMap { $0 > 1 ? $0 : nil }) {
          $0.int($1)
        }
        // A cell's presence byte says whether it heads its column (2) or
        // not (1): files written before header cells read as they did.
        if let cell = paragraph.cell {
          w.byte(cell.isHeader ? 2 : 1)
          w.int(cell.row)
          w.int(cell.column)
          w.int(cell.rowSpan)
          w.int(cell.columnSpan)
        } else {
          w.byte(0)
        }
        w.count(paragraph.lines.count)
        for line in paragraph.lines {
          w.rect(line.bbox)
          w.optional(line.quad) { $0.quad($1) }
          w.optional(line.polygon) { w, points in
            w.count(points.count)
            for p in points { w.point(p) }
          }
          w.optional(line.baseline) { w, b in
            w.point(b.start)
            w.point(b.end)
          }
          w.count(line.words.count)
          for word in line.words {
            w.string(word.text)
            w.rect(word.bbox)
            w.optional(word.quad) { $0.quad($1) }
            w.optional(word.confidence) { $0.double($1) }
            w.count(word.glyphs.count)
            for glyph in word.glyphs {
              w.string(glyph.text)
              w.rect(glyph.bbox)
              w.optional(glyph.quad) { $0.quad($1) }
              w.optional(glyph.confidence) { $0.double($1) }
            }
          }
        }
      }
    }
    return w.bytes
  }

  /// The page a record holds, checked as the JSON reader checks a page
  /// (coordinates within ``ScanModel/ScanConventions/coordinateLimit``,
  /// boxes not inverted, confidences 0–100, known roles, heading levels
  /// 1–6, table cells' places, line polygons, orientation, steps).
  /// - Throws: ``CompactModelError/damaged(reason:)`` with the element and
  ///   the reason.
  /// - Complexity: O(*n* log *n*) in the page's elements (the page's index
  ///   is built).
  static func page(record bytes: UnsafeRawBufferPointer) throws(CompactModelError) -> Page {
    var r = ByteReader(bytes)
    // Its range is checked with the page's other limits (``ModelLimits``).
    let index = try r.int()
    let image = try r.optional { r throws(CompactModelError) in try r.string() }
    let width = try r.dimension("width")
    let height = try r.dimension("height")
    let dpi = try r.optional { r throws(CompactModelError) in try r.int() }
    let orientation = try r.int()
    guard [0, 90, 180, 270].contains(orientation) else {
      throw r.fail("orientation \(orientation) is not 0, 90, 180 or 270")
    }
    let skew = try r.double()
    guard skew.isFinite else { throw r.fail("the skew is not a number") }
    let language = try r.optional { r throws(CompactModelError) in try r.string() }
    var steps: [StepRecord] = []
    for _ in 0..<(try r.count()) {
      let recorded = try r.string()
      guard let step = StepRecord(recorded: recorded) else {
        throw r.fail("\"\(recorded)\" is no preprocessing step's record")
      }
      steps.append(step)
    }
    let crop = try r.optional { r throws(CompactModelError) in try r.rect() }
    let perspective = try r.optional { r throws(CompactModelError) in try r.quad() }
    let pdf = try r.optional { r throws(CompactModelError) in try r.pdfSource() }
    let sourceName = try r.string()
    guard let source = PageTextSource(rawValue: sourceName) else {
      throw r.fail("unknown text source \"\(sourceName)\"")
    }
    let dpiSource = try r.optional { r throws(CompactModelError) -> ResolutionSource in
      let name = try r.string()
      guard let s = ResolutionSource(rawValue: name) else {
        throw r.fail("unknown resolution source \"\(name)\"")
      }
      return s
    }
    let exif = try r.optional { r throws(CompactModelError) in try r.int() }
    if let exif, !(1...8).contains(exif) {
      throw r.fail("EXIF orientation \(exif) is not 1-8")
    }
    var figures: [Figure] = []
    for _ in 0..<(try r.count(itemSize: 6)) {
      figures.append(
        Figure(
          bbox: try r.rect(), quad: try r.optional { r throws(CompactModelError) in try r.quad() },
          alternativeText: try r.optional { r throws(CompactModelError) in try r.string() }))
    }
    // Every list is reserved at its count: the page keeps these arrays
    // (its text builder changes them in place), so growth's spare
    // capacity would stay in memory (7 % more for a page read this way).
    var blocks: [Block] = []
    let blockCount = try r.count(itemSize: 5)
    blocks.reserveCapacity(blockCount)
    for _ in 0..<blockCount {
      let bbox = try r.rect()
      var paragraphs: [Paragraph] = []
      let paragraphCount = try r.count(itemSize: 5)
      paragraphs.reserveCapacity(paragraphCount)
      for _ in 0..<paragraphCount {
        paragraphs.append(try r.paragraph())
      }
      blocks.append(Block(bbox: bbox, paragraphs: paragraphs))
    }
    guard r.remaining == 0 else { throw r.fail("\(r.remaining) bytes follow the page's record") }
    return Page(
      index: index, image: image, width: width, height: height, dpi: dpi,
      orientation: orientation, skew: skew, language: language, blocks: blocks, steps: steps,
      crop: crop, perspective: perspective, pdf: pdf, source: source, dpiSource: dpiSource,
      exifOrientation: exif, figures: figures)
  }
}

extension CompactModel.ByteWriter {
  mutating func optional<T>(_ value: T?, _ write: (inout Self, T) -> Void) {
    guard let value else {
      byte(0)
      return
    }
    byte(1)
    write(&self, value)
  }

  mutating func rect(_ r: PixelRect) {
    int(r.minX)
    int(r.minY)
    int(r.maxX)
    int(r.maxY)
  }

  mutating func point(_ p: Point) {
    double(p.x)
    double(p.y)
  }

  mutating func quad(_ q: Quad) {
    for p in q.corners { point(p) }
  }
}

extension CompactModel.ByteReader {
  static let limit = ScanConventions.coordinateLimit

  @inline(__always)
  mutating func optional<T>(_ read: (inout Self) throws(CompactModelError) -> T)
    throws(CompactModelError) -> T?
  {
    try flag() ? try read(&self) : nil
  }

  mutating func coordinate() throws(CompactModelError) -> Int {
    let v = try int()
    guard abs(v) <= Self.limit else {
      throw fail("a coordinate is beyond ±\(Self.limit)")
    }
    return v
  }

  mutating func dimension(_ name: String) throws(CompactModelError) -> Int {
    let v = try int()
    guard (0...Self.limit).contains(v) else {
      throw fail("the page's \(name) \(v) is not between 0 and \(Self.limit)")
    }
    return v
  }

  mutating func rect() throws(CompactModelError) -> PixelRect {
    let x0 = try coordinate()
    let y0 = try coordinate()
    let x1 = try coordinate()
    let y1 = try coordinate()
    guard x0 <= x1, y0 <= y1 else {
      throw fail("a box [\(x0), \(y0), \(x1), \(y1)] has x1 < x0 or y1 < y0")
    }
    return PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  mutating func point() throws(CompactModelError) -> Point {
    let x = try double()
    let y = try double()
    guard x.isFinite, y.isFinite, abs(x) <= Double(Self.limit), abs(y) <= Double(Self.limit)
    else { throw fail("a point is beyond ±\(Self.limit)") }
    return Point(x: x, y: y)
  }

  mutating func quad() throws(CompactModelError) -> Quad {
    Quad(
      topLeft: try point(), topRight: try point(), bottomRight: try point(), bottomLeft: try point()
    )
  }

  mutating func confidence() throws(CompactModelError) -> Double? {
    try optional { r throws(CompactModelError) -> Double in
      let c = try r.double()
      guard c.isFinite, (0...100).contains(c) else {
        throw r.fail("a confidence is not a number from 0 to 100")
      }
      return c
    }
  }

  mutating func pdfSource() throws(CompactModelError) -> PDFPageSource {
    let number = try int()
    guard number >= 1 else { throw fail("the PDF page number \(number) is below 1") }
    let width = try double()
    let height = try double()
    guard width.isFinite, height.isFinite, width > 0, height > 0 else {
      throw fail("the PDF page's size is not positive")
    }
    let n = try count(itemSize: 8)
    guard n == 6 else { throw fail("the PDF page's map has \(n) numbers, not 6") }
    var map: [Double] = []
    for _ in 0..<n {
      let x = try double()
      guard x.isFinite else { throw fail("the PDF page's map is not finite") }
      map.append(x)
    }
    return PDFPageSource(
      page: number, width: width, height: height, pixelToPoint: map, hasText: try flag(),
      nativeImage: try flag())
  }

  mutating func paragraph() throws(CompactModelError) -> Paragraph {
    let bbox = try rect()
    let roleName = try string()
    guard let role = ParagraphRole(rawValue: roleName) else {
      throw fail("unknown paragraph role \"\(roleName)\"")
    }
    let level = try optional { r throws(CompactModelError) in try r.int() }
    if let level {
      guard
        role == .heading && (1...6).contains(level)
          || role == .listItem && (1...Paragraph.maximumListLevel).contains(level)
      else {
        throw fail("a level \(level) is not a heading's 1-6 or a list item's")
      }
    }
    // A cell's presence byte: 0 none, 1 a cell, 2 a header cell (files
    // written before header cells hold 0 and 1 only).
    var cell: TableCellPosition?
    switch try byte() {
    case 0: cell = nil
    case let kind where kind <= 2:
      let row = try int()
      let column = try int()
      let rowSpan = try int()
      let columnSpan = try int()
      guard role == .tableCell, row >= 0, column >= 0, rowSpan >= 1, columnSpan >= 1,
        row <= Self.limit, column <= Self.limit, rowSpan <= Self.limit, columnSpan <= Self.limit
      else { throw fail("a table cell's place is not valid") }
      cell = TableCellPosition(
        row: row, column: column, rowSpan: rowSpan, columnSpan: columnSpan, isHeader: kind == 2)
    case let kind: throw fail("a table cell's flag is \(kind), not 0, 1 or 2")
    }
    var lines: [TextLine] = []
    let lineCount = try count(itemSize: 5)
    lines.reserveCapacity(lineCount)
    for _ in 0..<lineCount {
      lines.append(try line())
    }
    return Paragraph(
      bbox: bbox, lines: lines, role: role, headingLevel: level, cell: cell, listLevel: level)
  }

  mutating func line() throws(CompactModelError) -> TextLine {
    let bbox = try rect()
    let quad = try optional { r throws(CompactModelError) in try r.quad() }
    let polygon = try optional { r throws(CompactModelError) -> [Point] in
      var points: [Point] = []
      for _ in 0..<(try r.count(itemSize: 16)) { points.append(try r.point()) }
      guard TextLine.isLinePolygon(points) else {
        throw r.fail("a line's polygon does not run along its top edge and back along its bottom")
      }
      return points
    }
    let baseline = try optional { r throws(CompactModelError) in
      Baseline(start: try r.point(), end: try r.point())
    }
    var words: [Word] = []
    let wordCount = try count(itemSize: 7)
    words.reserveCapacity(wordCount)
    for _ in 0..<wordCount {
      let text = try string()
      let bbox = try rect()
      let quad = try optional { r throws(CompactModelError) in try r.quad() }
      let wordConfidence = try confidence()
      var glyphs: [Glyph] = []
      let glyphCount = try count(itemSize: 7)
      glyphs.reserveCapacity(glyphCount)
      for _ in 0..<glyphCount {
        glyphs.append(
          Glyph(
            text: try string(), bbox: try rect(),
            quad: try optional { r throws(CompactModelError) in try r.quad() },
            confidence: try confidence()))
      }
      words.append(
        Word(text: text, bbox: bbox, quad: quad, confidence: wordConfidence, glyphs: glyphs))
    }
    return TextLine(bbox: bbox, quad: quad, polygon: polygon, baseline: baseline, words: words)
  }
}
