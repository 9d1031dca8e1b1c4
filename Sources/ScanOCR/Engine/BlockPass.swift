import ScanImaging
import ScanModel

/// What every pass over a recognised page's blocks may read.
struct PassContext {
  /// The original image (the photo, the rendered PDF page).
  let image: LeptonicaImage
  /// What preprocessing did to it.
  let prepared: PreparedImage
  /// From the recognised image back to the original.
  let mapper: ElementMapper
  /// The order paragraphs are read in.
  let layout: PageLayoutOrder
  /// The page's ruled tables read cell by cell (``OCREngine/readTableCells(_:mapper:index:path:started:)``).
  var tables: [TableCells.Reading] = []
  /// The stroke widths of words' ink in ``image``, measured once a word
  /// for the passes that ask (the heading split and the roles).
  let strokeWidths: StrokeWidths

  init(
    image: LeptonicaImage, prepared: PreparedImage, mapper: ElementMapper,
    layout: PageLayoutOrder, tables: [TableCells.Reading] = []
  ) {
    self.image = image
    self.prepared = prepared
    self.mapper = mapper
    self.layout = layout
    self.tables = tables
    self.strokeWidths = StrokeWidths(image)
  }

  /// The page as a reader holds it, within its box in a photo.
  var frame: PageFrame? { prepared.crop.map { PageFrame(box: $0, corners: prepared.perspective) } }
}

/// One pass over a recognised page's blocks, between Tesseract's reading
/// and the ``ScanModel/Page``: mapping back to the original, repair, ink
/// fitting, roles, table cells, reading order, glyph fitting. The default
/// passes are a list (``OCREngine/blockPasses``), run in order.
protocol BlockPass: Sendable {
  /// Whether the pass runs on this page (by default, always).
  func isOn(_ context: PassContext) -> Bool
  /// The blocks after the pass.
  func run(_ blocks: [Block], _ context: PassContext) -> [Block]
}

extension BlockPass {
  func isOn(_ context: PassContext) -> Bool { true }
}

/// A dewarped page is repaired where its lines are straight, before they
/// go back as curves the repair leaves alone. Its cuts are held level: the
/// mapper draws each straightened line's curve from its quad
/// (``ElementMapper/linePolygon(_:turn:)``), so an outline cut at an angle
/// on the straightened page would not go back (`boston-cooking-a`: words
/// left outside their line's selection).
struct RepairBeforeMappingPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.prepared.dewarped }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    GeometryRepair.repair(blocks, slantedCuts: false)
  }
}

/// Every box into the original image's pixels (``ElementMapper``).
struct MapBackPass: BlockPass {
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    context.mapper.map(blocks)
  }
}

/// In the reader's layout, words without the spaces Tesseract read at their
/// ends (``ScanModel/WordEnds``); Tesseract's own layout keeps the
/// `tesseract` command's text.
struct WordEndsPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    WordEnds.trimming(blocks)
  }
}

/// ``GeometryRepair/repair(_:)``: boxes that break the model's invariants mended.
struct RepairPass: BlockPass {
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    GeometryRepair.repair(blocks)
  }
}

/// Boxes that came back through a map fitted to their ink in the original
/// (``InkFitting``); Tesseract's own boxes of the original are its ink's
/// already.
struct InkFitPass: BlockPass {
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    InkFitting.fitting(blocks, to: context.image, mapped: !context.mapper.isIdentity)
  }
}

/// What OCR read over the leaders the leaders step found taken out of the
/// words (``ScanModel/LeaderWords``), once the words are in original
/// pixels.
struct LeadersPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { !context.prepared.leaders.isEmpty }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    LeaderWords.removing(from: blocks, leaders: context.prepared.leaders)
  }
}

/// In the reader's layout, words that are slivers of noise dropped
/// (``ScanModel/SliverNoise``), once their boxes are their ink's;
/// Tesseract's layout keeps every word.
struct SliverNoisePass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    SliverNoise.removing(from: blocks, orientation: context.prepared.orientation)
  }
}

/// In the reader's layout, a column's lines as the page's whitespace
/// rivers cut them (``ColumnLines/mendingLines(_:)``): a justified line's
/// words Tesseract cut out at a wide space put back, a line merged across
/// a gutter cut there; Tesseract's layout keeps its lines. It runs on
/// Tesseract's own boxes, before the repair: the repair takes a fragment
/// and its line for two overlapping lines and cuts their boxes apart
/// (`columns-9014`'s "concerns." came out 5 px tall below its line).
struct ColumnLinesPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    ColumnLines.mendingLines(blocks)
  }
}

/// In the reader's layout, a heading Tesseract read into one paragraph
/// with the text below it split off
/// (``RoleDetection/splittingHeadings(_:strokeWidth:)``); Tesseract's
/// layout keeps its paragraphs.
struct HeadingSplitPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    RoleDetection.splittingHeadings(blocks, strokeWidth: context.strokeWidths.measure)
  }
}

/// In the reader's layout, notes Tesseract read into one paragraph with
/// running text split off (``RoleDetection/splittingNotes(_:)``);
/// Tesseract's layout keeps its paragraphs.
struct NoteSplitPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    RoleDetection.splittingNotes(blocks)
  }
}

/// In the reader's layout, a paragraph holding several list items split
/// into one paragraph per item
/// (``RoleDetection/splittingListItems(_:listMarker:)``), with the markers
/// OCR did not read looked for in the original image.
struct ListSplitPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    RoleDetection.splittingListItems(
      blocks, listMarker: context.strokeWidths.listMarker(words: blocks, context))
  }
}

/// Roles (headers, footnotes, page numbers…), decided on the page as a
/// reader holds it: turned upright, within its box in a photo; bold type
/// told by its strokes in the original image, list markers OCR did not
/// read by their ink there.
struct RolesPass: BlockPass {
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    RoleDetection.assigningRoles(
      to: blocks, pageWidth: context.image.width, pageHeight: context.image.height,
      orientation: context.prepared.orientation, page: context.frame,
      strokeWidth: context.strokeWidths.measure,
      listMarker: context.layout == .reading
        ? context.strokeWidths.listMarker(words: blocks, context) : nil)
  }
}

/// The stroke width of a word's ink in a page image (``StrokeWidth``),
/// measured once a word box: the heading split and the roles ask for the
/// same words, and a page of another depth than 1, 8 or 32 bits is turned
/// gray once, on first use.
final class StrokeWidths {
  private let image: LeptonicaImage
  /// The image as gray values (`nil` inside when it cannot be read so),
  /// made on first use and kept alive with its view.
  private var gray: (source: LeptonicaImage, pixels: GrayView)??
  private var widths: [PixelRect: Double?] = [:]
  /// The gray value halfway between ink and paper in each table's box.
  private var midpoints: [PixelRect: Int?] = [:]
  /// The marker ink found left of each line box looked at.
  private var markers: [PixelRect: PixelRect?] = [:]

  init(_ image: LeptonicaImage) { self.image = image }

  /// A function measuring a word's stroke width, or `nil` when the image's
  /// pixels cannot be read as gray values.
  var measure: ((Word) -> Double?)? {
    guard grayPixels() != nil else { return nil }
    return { [self] word in width(of: word.bbox) }
  }

  /// A function telling whether the image shows a list marker OCR did
  /// not read left of a line (``ListMarkerInk``): one small glyph, over
  /// no word of `blocks`. `nil` when the pixels cannot be read as gray
  /// values, or the page is turned (its lines' left is not the image's).
  func listMarker(words blocks: [Block], _ context: PassContext) -> ((TextLine) -> Bool)? {
    guard context.prepared.orientation == 0, let pixels = grayPixels() else { return nil }
    let words = blocks.flatMap {
      $0.paragraphs.flatMap { $0.lines.flatMap { $0.words.map(\.bbox) } }
    }
    return { [self] line in
      let mark: PixelRect?
      if let known = markers[line.bbox] {
        mark = known
      } else {
        mark = ListMarkerInk.marker(leftOf: line.bbox, in: pixels)
        markers[line.bbox] = .some(mark)
      }
      guard let mark else { return false }
      return !words.contains { $0.intersection(mark) != nil }
    }
  }

  /// The measures of tables' type and rules in the image (``TableInk``),
  /// or `nil` when its pixels cannot be read as gray values.
  var tableInk: TableInk? {
    guard let measure = self.measure else { return nil }
    return TableInk(strokeWidth: measure) { [self] band, table in inkAcross(band, within: table) }
  }

  private func grayPixels() -> GrayView? {
    if let gray { return gray?.pixels }
    // 1-bit, gray or RGB pixels are read where they are; other depths converted.
    let source = GrayView(image) != nil ? image : Preprocessor.gray(image)
    let made = source.flatMap { source in GrayView(source).map { (source: source, pixels: $0) } }
    gray = .some(made)
    return made.map(\.pixels)
  }

  /// The largest share of one pixel row of `band` that is ink, ink darker
  /// than halfway between the ink and the paper of `table` (0 when `table`
  /// holds no contrast).
  private func inkAcross(_ band: PixelRect, within table: PixelRect) -> Double {
    guard let pixels = grayPixels() else { return 0 }
    let threshold: Int?
    if let known = midpoints[table] {
      threshold = known
    } else {
      threshold = pixels.inkMidpoint(in: table)
      midpoints[table] = .some(threshold)
    }
    guard let threshold else { return 0 }
    let x0 = max(0, band.minX)
    let x1 = min(pixels.width, band.maxX)
    let y0 = max(0, band.minY)
    let y1 = min(pixels.height, band.maxY)
    guard x1 > x0, y1 > y0 else { return 0 }
    var most = 0
    for y in y0..<y1 {
      var ink = 0
      for x in x0..<x1 where pixels.value(x, y) < threshold { ink += 1 }
      most = max(most, ink)
    }
    return Double(most) / Double(x1 - x0)
  }

  private func width(of box: PixelRect) -> Double? {
    if let known = widths[box] { return known }
    guard let pixels = grayPixels() else { return nil }
    let width = StrokeWidth.of(box, in: pixels)
    widths[box] = .some(width)
    return width
  }
}

/// In the reader's layout, each ruled table read cell by cell takes the
/// place of Tesseract's reading of it where it reads no worse
/// (``TableCells/composing(_:reading:ink:)``), else its cells hold
/// Tesseract's own words in them; paragraphs inside any other
/// ruled table split into its cells (``TableCells``); tables without a
/// grid found from aligned whitespace (``AlignedTables``) read as cells;
/// Tesseract's layout keeps its paragraphs.
///
/// A page turned as a whole and nothing else (a landscape table set
/// sideways on a portrait page, found by the orientation step) has its
/// tables found in its upright frame (``TableCells/inUprightFrame(_:grids:orientation:width:height:_:)``),
/// where a reader counts their rows and columns: in the image's pixels its
/// rows run down the page (`clockwise_table_1.pdf` of camelot's tests: no
/// table before, on a page read turned).
struct CellsPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    let grids = context.prepared.tables
    if context.prepared.orientation != 0, context.mapper.onlyTurns {
      return TableCells.inUprightFrame(
        blocks, grids: grids, orientation: context.prepared.orientation,
        width: context.image.width, height: context.image.height
      ) { upright, grids in
        // Its cells are not read alone (that reading needs the
        // original's pixels): a grid's table holds Tesseract's words.
        let readings = grids.flatMap(\.tables).map {
          AlignedTables.reading(of: $0, in: upright)
        }
        return Self.cells(upright, readings: readings, grids: grids, aligned: true)
      }
    }
    // Tables without a grid come from the words' places: only where those
    // are the original's own, or only scaled (a small page read enlarged);
    // a moved page's lines may slant.
    return Self.cells(
      blocks, readings: context.tables, grids: grids,
      aligned: context.mapper.isIdentity || context.mapper.onlyScales,
      leaders: context.prepared.leaders, ink: context.strokeWidths.tableInk)
  }

  /// The blocks with the page's tables as cells: `readings` (ruled tables
  /// read cell by cell) where they read no worse, else the grids' tables
  /// holding Tesseract's own words; then what else lies in a grid split at
  /// its rules, and when `aligned`, tables whose rows are joined by
  /// `leaders` (``ScanModel/LeaderTables``) and tables found from aligned
  /// whitespace. Header rows are told by their type and rules too where
  /// `ink` measures them in the blocks' pixels (``ScanModel/TableHeader``).
  static func cells(
    _ blocks: [Block], readings: [TableCells.Reading], grids: [TableGrid], aligned: Bool,
    leaders: [PixelRect] = [], ink: TableInk? = nil
  ) -> [Block] {
    // Where the cells read alone read worse than Tesseract's words in them
    // (the no-harm rule), the table is still composed, from Tesseract's
    // own words cell by cell: its text is Tesseract's, its order the
    // grid's. Left as Tesseract read it, the page it read is the one with
    // the rules removed, which it reads column by column (develop
    // `tables-1055`, a clean 3 × 10 grid: reading-order CER 0.72 against
    // Tesseract's 0.064 on the page with its rules).
    let composed = readings.reduce(blocks) { blocks, reading in
      TableCells.composing(blocks, reading: reading, ink: ink)
        ?? TableCells.composing(
          blocks, reading: AlignedTables.reading(of: reading.table, in: blocks), ink: ink)
        ?? blocks
    }
    let split = TableCells.splitting(composed, grids: grids)
    guard aligned else { return split }
    let ruled = grids.compactMap(\.bounds)
    let leadered = TableCells.composingLeadered(split, leaders: leaders, excluding: ruled)
    return repairingCells(
      TableCells.composingAligned(leadered, excluding: ruled, ink: ink))
  }

  /// The blocks, those holding table cells repaired (``GeometryRepair``).
  ///
  /// Why: a cell holds the lines Tesseract read in it, cut from lines that
  /// ran across cells, and two of them may overlap in one cell (a
  /// screenshot's "Definition" over "Generate SQL…" in one cell of
  /// `redp5110_sampled` p14 of the docling set: `verify` found 13 words
  /// and glyphs outside their lines' selections). Only the cells' blocks:
  /// the rest of the page was repaired before its boxes were fitted to
  /// the ink, and repairing it again undoes that fit.
  static func repairingCells(_ blocks: [Block]) -> [Block] {
    blocks.map { block in
      guard block.paragraphs.contains(where: { $0.role == .tableCell }) else { return block }
      return GeometryRepair.repair([block]).first ?? block
    }
  }
}

/// In the reader's layout, the blocks in reading order (``ReadingOrder``).
struct OrderPass: BlockPass {
  func isOn(_ context: PassContext) -> Bool { context.layout == .reading }
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    ReadingOrder.ordering(
      blocks, pageWidth: context.image.width, pageHeight: context.image.height,
      orientation: context.prepared.orientation, page: context.frame)
  }
}

/// A tilted word's box is that of its glyphs, once the geometry is final.
struct GlyphFitPass: BlockPass {
  func run(_ blocks: [Block], _ context: PassContext) -> [Block] {
    GeometryRepair.fittingWordBoxesToGlyphs(blocks)
  }
}

extension OCREngine {
  /// The passes from Tesseract's blocks to the page's, in order.
  static let blockPasses: [any BlockPass] = [
    RepairBeforeMappingPass(), MapBackPass(), WordEndsPass(), LeadersPass(), ColumnLinesPass(),
    RepairPass(),
    InkFitPass(),
    SliverNoisePass(), HeadingSplitPass(), NoteSplitPass(), ListSplitPass(),
    RolesPass(),
    CellsPass(), OrderPass(), GlyphFitPass(),
  ]

  /// Runs ``blockPasses`` on a reading's blocks.
  static func finish(_ blocks: [Block], _ context: PassContext) -> [Block] {
    blockPasses.reduce(blocks) { blocks, pass in
      pass.isOn(context) ? pass.run(blocks, context) : blocks
    }
  }
}
