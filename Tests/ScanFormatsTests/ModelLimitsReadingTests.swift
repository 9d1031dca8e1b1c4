import Foundation
import ScanModel
import Testing

@testable import ScanFormats

/// Every reader checks each page it decodes against ``ModelLimits``
/// (issue 45, point 1): a page forged in code, written by a writer (which
/// checks nothing) or forged as text, is refused on reading with the page,
/// the element and the field, whatever its format.
@Suite("Model limits in every reader")
struct ModelLimitsReadingTests {
  /// A one-word page with its provenance and first paragraph as given.
  static func forged(dpi: Int? = 300, skew: Double = 0, cell: TableCellPosition? = nil) -> Document
  {
    let box = PixelRect(minX: 10, minY: 10, maxX: 60, maxY: 30)
    let line = TextLine(bbox: box, words: [Word(text: "cell", bbox: box, confidence: 90)])
    let paragraph = Paragraph(
      bbox: box, lines: [line], role: cell == nil ? .body : .tableCell, headingLevel: nil,
      cell: cell)
    return Document(pages: [
      Page(
        image: "page.png", width: 200, height: 100, dpi: dpi, skew: skew,
        blocks: [Block(bbox: box, paragraphs: [paragraph])])
    ])
  }

  func refusal(_ format: DocumentFormat, _ document: Document) throws -> DocumentFormatError? {
    let text = try format.encode(document, generator: Samples.generator)
    return #expect(throws: DocumentFormatError.self) { try format.decode(Data(text.utf8)) }
  }

  @Test func jsonNamesThePageAndTheField() throws {
    let dpi = try refusal(.json, Self.forged(dpi: 0))
    #expect(
      dpi == DocumentFormatError(path: "pages[0]", reason: "'dpi' 0 is not between 1 and 100000"))
    let skew = try refusal(.json, Self.forged(skew: 1e300))
    #expect(skew?.reason == "'skew' 1e+300 is not an angle within ±360°")
    let cell = try refusal(.json, Self.forged(cell: TableCellPosition(row: 20_000, column: 0)))
    #expect(cell?.path == "pages[0].blocks[0].paragraphs[0]")
    #expect(cell?.reason.hasPrefix("the table cell at row 20000 spanning 1 reaches beyond") == true)
  }

  @Test func compactModelsNameThePageAndTheField() throws {
    for (document, reason) in [
      (Self.forged(dpi: 0), "'dpi' 0 is not between 1 and 100000"),
      (Self.forged(skew: -1e12), "'skew' -1000000000000.0 is not an angle within ±360°"),
    ] {
      let data = CompactModel.encode(document, generator: Samples.generator)
      let error = #expect(throws: DocumentFormatError.self) { try CompactModel.decode(data) }
      #expect(error == DocumentFormatError(path: "page 1", reason: reason))
    }
    let cell = CompactModel.encode(
      Self.forged(cell: TableCellPosition(row: 0, column: 30_000)), generator: Samples.generator)
    let error = #expect(throws: DocumentFormatError.self) { try CompactModel.decode(cell) }
    #expect(error?.path == "page 1, blocks[0].paragraphs[0]")
  }

  /// A PDF page size below the format's precision (found by
  /// FuzzModelJSON): the JSON writer wrote it as 0, which the readers
  /// refuse; now the readers refuse it at once, JSON and `.stm` alike.
  @Test func aPDFSizeThatRoundsToZeroIsRefused() throws {
    func document(width: Double) -> Document {
      let box = PixelRect(minX: 10, minY: 10, maxX: 60, maxY: 30)
      let line = TextLine(bbox: box, words: [Word(text: "cell", bbox: box, confidence: 90)])
      return Document(pages: [
        Page(
          image: "page.png", width: 200, height: 100, dpi: 300, skew: 0,
          blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])],
          pdf: PDFPageSource(
            page: 1, width: width, height: 36, pixelToPoint: [0.24, 0, 0, -0.24, 0, 36],
            hasText: false, nativeImage: true))
      ])
    }
    let json =
      #"{"version":1,"pages":[{"image":"p.png","width":200,"height":100,"blocks":[],"#
      + #""pdf":{"page":1,"size":[0.004,36],"pixelToPoint":[0.24,0,0,-0.24,0,36]}}]}"#
    let error = #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(json) }
    #expect(error?.reason == "'size' must be positive (0.01 or more)")
    let data = CompactModel.encode(document(width: 0.004), generator: Samples.generator)
    let compact = #expect(throws: DocumentFormatError.self) { try CompactModel.decode(data) }
    #expect(compact?.reason.hasPrefix("'pdf.size' must be positive numbers (0.01 or more)") == true)
    // The smallest size the format holds is read and written back.
    let written = DocumentJSON.encode(document(width: 0.01), generator: Samples.generator)
    #expect(try DocumentJSON.decode(written).pages[0].pdf?.width == 0.01)
  }

  /// FuzzModelJSON (2026-12-06): a JSON page with `"index": -1` was read,
  /// and the `.stm` written of it was refused.
  @Test func aNegativeOrHugePageIndexIsRefusedByEveryReader() throws {
    for index in [-1, Int(Int32.max)] {
      let json =
        #"{"version":1,"pages":[{"index":"# + String(index)
        + #","image":"p.png","width":200,"height":100,"blocks":[]}]}"#
      let error = #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(json) }
      #expect(error?.reason == "'index' \(index) is not between 0 and 9999999")
      let page = Page(index: index, image: "p.png", width: 200, height: 100, blocks: [])
      let data = CompactModel.encode(Document(pages: [page]), generator: Samples.generator)
      #expect(throws: DocumentFormatError.self) { try CompactModel.decode(data) }
    }
    let last =
      #"{"version":1,"pages":[{"index":9999999,"image":"p.png","width":200,"height":100,"#
      + #""blocks":[]}]}"#
    #expect(try DocumentJSON.decode(last).pages[0].index == 9_999_999)
  }

  @Test func altoAndHOCRAreChecked() throws {
    let alto = try refusal(.alto, Self.forged(cell: TableCellPosition(row: 20_000, column: 0)))
    #expect(alto?.path == "page 1, blocks[0].paragraphs[0]")
    #expect(alto?.reason.hasPrefix("the table cell at row 20000") == true)
    // `scan_res 0.4` was read as 0 dpi (rounded), which killed PDF output.
    let text = try DocumentFormat.hocr.encode(Self.forged(dpi: 300), generator: Samples.generator)
    #expect(text.contains("scan_res 300 300"))
    let hocr = #expect(throws: DocumentFormatError.self) {
      try HOCR.decode(
        Data(text.replacingOccurrences(of: "scan_res 300 300", with: "scan_res 0.4 0.4").utf8))
    }
    #expect(
      hocr == DocumentFormatError(path: "page 1", reason: "'dpi' 0 is not between 1 and 100000"))
  }

  /// PAGE XML with `rowSpan="9223372036854775807"` killed `convert` to
  /// PDF by SIGSEGV, and with that `rowIndex` by SIGILL.
  @Test(arguments: [("0", "9223372036854775807"), ("9223372036854775807", "1")])
  func pageTableCells(row: String, rowSpan: String) throws {
    let error = #expect(throws: DocumentFormatError.self) {
      try PAGEXML.decode(Data(Self.pageXML(row: row, rowSpan: rowSpan).utf8))
    }
    #expect(error?.path == "page 1, blocks[0].paragraphs[0]")
    #expect(
      error?.reason
        == "the table cell at row \(row) spanning \(rowSpan) reaches beyond the 16384 places a table of this page's 1 words may have"
    )
  }

  /// A PAGE document whose one table cell is at `row` spanning `rowSpan`.
  static func pageXML(row: String, rowSpan: String) -> String {
    let coords = #"<Coords points="10,10 60,10 60,30 10,30"/>"#
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
      <Page imageFilename="page.png" imageWidth="200" imageHeight="100">
      <TableRegion id="t0">\(coords)<TextRegion id="r0">\(coords)
      <Roles><TableCellRole rowIndex="\(row)" columnIndex="0" rowSpan="\(rowSpan)" colSpan="1"/></Roles>
      <TextLine id="l0">\(coords)<Word id="w0">\(coords)<TextEquiv><Unicode>cell</Unicode></TextEquiv></Word>
      <TextEquiv><Unicode>cell</Unicode></TextEquiv></TextLine></TextRegion></TableRegion>
      </Page></PcGts>
      """
  }

  /// `"skew": 1e300` made the PAGE writer loop for ever (`while a <= -180
  /// { a += 360 }` adds nothing to 1e300); a page made in code may still
  /// carry it, and the writer now takes one remainder. (No time limit: a
  /// limit counts from when the test is scheduled, and on a loaded 2-core
  /// machine it expired while the test waited for a thread; a loop again
  /// would hang the suite, which CI's own limit reports.)
  @Test func pageWriterTurnsByRemainder() throws {
    for (skew, expected) in [(1e300, "orientation=\""), (1e12, "orientation=\"80")] {
      let xml = try DocumentFormat.page.encode(
        Self.forged(skew: skew), generator: Samples.generator)
      #expect(xml.contains(expected), "\(skew)")
    }
  }

  /// A compact model's trailer claiming a page table of 8 MiB over a
  /// hole of zeros (its checksum matching) was read whole before any
  /// entry was checked (8 GiB: "failed to allocate"). The table is checked
  /// against the bytes before it first.
  @Test func aCompactTableLargerThanItsPagesIsRefusedFirst() throws {
    var bytes = [UInt8](CompactModel.encode(Self.forged(), generator: Samples.generator))
    let trailer = Array(bytes.suffix(32))
    let tableOffset = trailer[0..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
    let hole = 24 * (8 << 20 / 24)
    bytes = Array(bytes[..<tableOffset]) + [UInt8](repeating: 0, count: hole)
    var t: [UInt8] = []
    func put(_ v: UInt64, _ size: Int) {
      for i in 0..<size { t.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }
    put(UInt64(tableOffset), 8)
    put(UInt64(hole / 24), 8)
    put(UInt64(Self.crc32(zeros: hole)), 4)
    put(1, 4)
    bytes += t + Array("\nSTMEND\n".utf8)
    let error = #expect(throws: DocumentFormatError.self) { try CompactModel.decode(Data(bytes)) }
    #expect(
      error?.reason.hasPrefix("damaged: the page table lists \(hole / 24) pages, but the") == true)
  }

  /// CRC-32 (zlib's) of `zeros` zero bytes.
  static func crc32(zeros: Int) -> UInt32 {
    var table = [UInt32](repeating: 0, count: 256)
    for i in 0..<256 {
      var c = UInt32(i)
      for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      table[i] = c
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for _ in 0..<zeros { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
    return ~crc
  }
}

/// The tagged-PDF writer laid every table out as a rows × columns grid:
/// a cell at row 20,000 made 20,000 × 20,000 places (3.6 GB, then "failed
/// to allocate"). A page read from a file is within the model's limit; a
/// page made in code beyond it gets a row per cell.
@Suite("Tagged PDF tables beyond the limit")
struct TaggedTableLimitTests {
  @Test func aFarCellGetsARowOfItsOwn() {
    let cells = [
      TableCellPosition(row: 0, column: 0), TableCellPosition(row: 100_000, column: 100_000),
      TableCellPosition(row: Int.max, column: 0),
    ]
    let paragraphs = cells.enumerated().map { i, cell in
      let box = PixelRect(minX: 10 + 60 * i, minY: 10, maxX: 60 + 60 * i, maxY: 30)
      let line = TextLine(bbox: box, words: [Word(text: "c\(i)", bbox: box, confidence: 90)])
      return Paragraph(bbox: box, lines: [line], role: .tableCell, headingLevel: nil, cell: cell)
    }
    let page = Page(
      width: 300, height: 100,
      blocks: [
        Block(bbox: PixelRect(minX: 10, minY: 10, maxX: 190, maxY: 30), paragraphs: paragraphs)
      ])
    var tags = PDFTags()
    let plan = tags.plan(page)
    #expect(plan.elements.map(\.type) == ["Table"])
    let rows = plan.elements.first?.kids ?? []
    #expect(rows.count == 3)
    #expect(plan.mcidCount == 3)
  }
}
