/// Puts a recognised page's paragraphs in the order a reader expects,
/// from their roles (``RoleDetection``) and their places on the page.
///
/// Tesseract's layout analysis already reads columns in order and a title
/// that spans them first; what it does not know is what the paragraphs are
/// for, so it reads a footer or footnotes at the height where they sit (in
/// the middle of a multi-column page) and marginal notes as a column of
/// their own. The rules, applied to the engine's order (stable: paragraphs
/// keep their order within each group):
///
/// 1. **Spread**: a landscape image (wider than 1.1 × its height, as two
///    portrait pages side by side are) with a vertical band of at least 2 %
///    of the width between 30 % and 70 % of it that no paragraph crosses,
///    and text on both sides, is two pages: every paragraph left of the
///    band is read before every paragraph right of it, and rules 2–6 apply
///    to each page on its own. A table's cells cross the band where the
///    table does.
/// 2. **Running headers** (``ParagraphRole/header``) first.
/// 3. Running text that runs **across the columns** (a title over them, a
///    paragraph below them) between the text above it and the text below
///    it (`acrossTheColumns(_:)`).
///    A grid of **numbered panels** ("1.", "2." across the top, "3.",
///    "4." below) is read in number order (`numberedInOrder(_:)`).
///    A paragraph that **starts higher** than one read before it in the
///    same column, beside whose first lines it lies (a large initial's
///    line), is read before it (`higherFirst(_:)`).
/// 4. **Marginalia** right after the paragraph they sit beside (a number
///    hanging left of its first line right before it: its number): the
///    running-text paragraph (not a header, footer, footnote, page number
///    or other marginalia) that overlaps them vertically the most, else the
///    nearest one above, else the nearest one below.
/// 5. **Footnotes**, each with the lines Tesseract read apart from it
///    (`footnotesWithTheirLines(_:_:)`), then **footers**, then **page
///    numbers**; a page number on the line of a running head or foot is
///    read in that line (`inTheirLines(_:_:)`). A note with running
///    text below it in its column (a table's notes under it:
///    `hasRunningTextBelow(_:_:)`) is read where it stands, as running
///    text is. On a page set in columns, a column's notes (as wide as
///    the column, beside the next column) are read when their column
///    ends (`columnEnd(of:in:)`).
/// 6. **Turned notes** last: marginalia whose lines run up or down the
///    upright page (a note or a slug printed sideways in a margin). A line
///    at right angles to the text is not a gloss on the paragraph it
///    overlaps most: on a multi-column page that paragraph is in another
///    column. Read there, the 11 sideways notes of the `columns` develop
///    seeds 1000–1039 cut a column in two and made 8 of those pages read
///    in a worse order than Tesseract, which reads them last.
///
/// Blocks are kept where their paragraphs stay together; a block whose
/// paragraphs are read apart is split, each part with the union of its
/// paragraphs' boxes. A page without those roles keeps the engine's order,
/// so `--layout tesseract` and this order differ only where a rule applies.
public enum ReadingOrder {
  /// The blocks of a page with their paragraphs in reading order.
  /// - Parameters:
  ///   - blocks: A page's blocks in the engine's order, with roles assigned.
  ///   - pageWidth: The page's width in pixels.
  ///   - pageHeight: The page's height in pixels.
  ///   - orientation: The clockwise turn of the page's content
  ///     (``Page/orientation``): the rules look at the page upright.
  ///   - page: Where a photographed page lies in its photo (its box, and
  ///     its corners when seen at an angle: ``Page/crop``,
  ///     ``Page/perspective``); the rules look at the page in its own frame.
  /// - Returns: The same paragraphs, regrouped into blocks in reading order.
  /// - Complexity: O(*p*²) in the number of paragraphs (a page has a few
  ///   dozen).
  public static func ordering(
    _ blocks: [Block], pageWidth: Int, pageHeight: Int, orientation: Int = 0,
    page: PageFrame? = nil
  ) -> [Block] {
    let frame = UprightFrame(
      orientation: orientation, width: pageWidth, height: pageHeight, page: page)
    var units: [Unit] = []
    for (b, block) in blocks.enumerated() {
      for paragraph in block.paragraphs {
        units.append(
          Unit(
            index: units.count, block: b, paragraph: paragraph, box: frame.rect(paragraph.bbox),
            isTurned: Self.runsAcross(paragraph, in: frame),
            firstBaseline: Self.firstBaseline(of: paragraph, in: frame)))
      }
    }
    guard units.count > 1 else { return blocks }
    var ordered: [Unit] = []
    for page in spreadPages(
      units, pageWidth: frame.uprightWidth, pageHeight: frame.uprightHeight)
    {
      ordered += orderedPage(page)
    }
    if ordered.map(\.index) == Array(units.indices) { return blocks }
    return regroup(ordered, original: blocks)
  }

  /// A paragraph, the block it came from, and its box on the upright page.
  struct Unit {
    /// The paragraph's place in the engine's order.
    var index: Int
    var block: Int
    var paragraph: Paragraph
    var box: PixelRect
    /// Whether its lines run up or down the upright page (rule 6).
    var isTurned = false
    /// The height on the upright page of its first line's baseline, where
    /// that line's letters stand, or `nil` when the line has none.
    var firstBaseline: Double?
  }

  /// The height on the upright page of the middle of `paragraph`'s first
  /// line's baseline, or `nil` when that line has none or it does not run
  /// across the upright page (a speck read as "|" or "이" gets a baseline
  /// up the page, which says nothing of where letters stand:
  /// `normal_4pages` p1).
  static func firstBaseline(of paragraph: Paragraph, in frame: UprightFrame) -> Double? {
    guard let line = paragraph.lines.first?.baseline else { return nil }
    let (start, end) = (frame.point(line.start), frame.point(line.end))
    guard abs(end.x - start.x) > abs(end.y - start.y) else { return nil }
    return (start.y + end.y) / 2
  }

  /// Whether every line of `paragraph` that has a baseline runs up or down
  /// the upright page (its baseline more vertical than horizontal), and
  /// at least one has one.
  static func runsAcross(_ paragraph: Paragraph, in frame: UprightFrame) -> Bool {
    let baselines = paragraph.lines.compactMap(\.baseline)
    return !baselines.isEmpty
      && baselines.allSatisfy { line in
        let d = frame.point(line.end) - frame.point(line.start)
        return abs(d.y) > abs(d.x)
      }
  }

  /// The units split into the pages of a double-page spread (rule 1), or
  /// all of them as one page.
  static func spreadPages(_ units: [Unit], pageWidth: Int, pageHeight: Int) -> [[Unit]] {
    guard Double(pageWidth) > 1.1 * Double(pageHeight) else { return [units] }
    let low = Int(0.3 * Double(pageWidth))
    let high = Int(0.7 * Double(pageWidth))
    let minimumGap = max(1, Int(0.02 * Double(pageWidth)))
    // Columns between `low` and `high` that a paragraph covers. A table's
    // cells cover the table's width: its columns are no pages (a crop of
    // a table with no cell across its middle, PubTabNet's
    // `PMC4682394_003_00` once its header row was cells, was read as two
    // pages, the left columns of every row before the right ones).
    var tables: [Int: ClosedRange<Int>] = [:]
    for unit in units where unit.paragraph.cell != nil {
      let span = unit.box.minX...unit.box.maxX
      tables[unit.block] =
        tables[unit.block].map {
          min($0.lowerBound, span.lowerBound)...max($0.upperBound, span.upperBound)
        } ?? span
    }
    var covered = [Bool](repeating: false, count: max(0, high - low))
    for unit in units {
      let table = unit.paragraph.cell == nil ? nil : tables[unit.block]
      let from = max(low, table?.lowerBound ?? unit.box.minX)
      let to = min(high, table?.upperBound ?? unit.box.maxX)
      if from < to { for x in from..<to { covered[x - low] = true } }
    }
    // The widest free run: its middle is the gutter.
    var best: (start: Int, length: Int)?
    var runStart: Int?
    for x in 0...covered.count {
      let free = x < covered.count && !covered[x]
      if free, runStart == nil { runStart = x }
      if !free, let start = runStart {
        if x - start > (best?.length ?? 0) { best = (start, x - start) }
        runStart = nil
      }
    }
    guard let gap = best, gap.length >= minimumGap else { return [units] }
    let gutter = low + gap.start + gap.length / 2
    let left = units.filter { $0.box.maxX <= gutter }
    let right = units.filter { $0.box.minX >= gutter }
    guard !left.isEmpty, !right.isEmpty, left.count + right.count == units.count else {
      return [units]
    }
    return [left, right]
  }

  /// One page's units in reading order (rules 2–6).
  static func orderedPage(_ units: [Unit]) -> [Unit] {
    // A note with running text below it in its column (a table's notes
    // under the table) is read where it stands, not with the page's notes.
    let inPlace = Set(
      units.filter { $0.paragraph.role == .footnote && hasRunningTextBelow($0, units) }.map(\.index)
    )
    let notesAlone = units.filter {
      $0.paragraph.role == .footnote && !inPlace.contains($0.index)
    }
    // A page number on the line of a running head or foot is read in
    // that line.
    let numbers = units.filter { $0.paragraph.role == .pageNumber }
    let (headers, numbersLeft) = inTheirLines(
      numbers, units.filter { $0.paragraph.role == .header })
    let (footers, pageNumbers) = inTheirLines(
      numbersLeft, units.filter { $0.paragraph.role == .footer })
    let marginalia = units.filter { $0.paragraph.role == .marginalia && !$0.isTurned }
    let turned = units.filter { $0.paragraph.role == .marginalia && $0.isTurned }
    let running = units.filter {
      !Self.setAside.contains($0.paragraph.role) || inPlace.contains($0.index)
    }
    let (noteGroups, continued) = footnotesWithTheirLines(notesAlone, running)
    let flow = higherFirst(
      numberedInOrder(
        acrossTheColumns(running.filter { unit in !continued.contains(unit.index) })))
    guard !flow.isEmpty else {
      return headers + marginalia + noteGroups.flatMap { $0 } + footers + pageNumbers + turned
    }
    // Each note goes after its paragraph (several beside one keep their
    // order); a number hanging left of a paragraph's first line before it.
    var notesAfter: [Int: [Unit]] = [:]
    var numbersBefore: [Int: [Unit]] = [:]
    for note in marginalia {
      let i = host(of: note, in: flow) ?? flow.count - 1
      if isHangingNumber(note, of: flow[i]) {
        numbersBefore[i, default: []].append(note)
      } else {
        notesAfter[i, default: []].append(note)
      }
    }
    // A column's notes go after the column's last paragraph, after any
    // marginal note of it; the page's notes after the text.
    // A note that does not show its measure (one line) is a column's when
    // notes of that column do; a column's notes are read down the column.
    let ends = noteGroups.map { columnEnd(of: $0[0], in: flow) }
    let measured = Set(
      ends.indices.compactMap { ends[$0]?.measured == true ? ends[$0]?.last : nil })
    var footnotes: [Unit] = []
    var columnNotes: [Int: [[Unit]]] = [:]
    for (group, end) in zip(noteGroups, ends) {
      if let end, end.measured || measured.contains(end.last) {
        columnNotes[end.last, default: []].append(group)
      } else {
        footnotes += group
      }
    }
    for (last, groups) in columnNotes {
      notesAfter[last, default: []] += groups.sorted { $0[0].box.minY < $1[0].box.minY }
        .flatMap { $0 }
    }
    var body: [Unit] = []
    for (i, unit) in flow.enumerated() {
      body += numbersBefore[i] ?? []
      body.append(unit)
      body += notesAfter[i] ?? []
    }
    return headers + body + footnotes + footers + pageNumbers + turned
  }

  /// The running heads or feet (`furniture`) with each page number that
  /// shares a line with one of them read in that line, and the page
  /// numbers that share none (rule 5).
  ///
  /// A folio set on the line of a running foot ("20   Row and Column
  /// Access Control …", the left-hand page of a book) is part of that
  /// line: a reader, and Tesseract, read it where it stands along the
  /// line, not after every foot. It goes before the first paragraph of
  /// the line that lies after it in the line's writing direction (right
  /// of it, or left of it in a right-to-left line), else after the
  /// line's last.
  static func inTheirLines(_ numbers: [Unit], _ furniture: [Unit]) -> (
    furniture: [Unit], alone: [Unit]
  ) {
    var out = furniture
    var alone: [Unit] = []
    for number in numbers {
      let line = out.indices.filter {
        min(out[$0].box.maxY, number.box.maxY) > max(out[$0].box.minY, number.box.minY)
      }
      guard let last = line.last else {
        alone.append(number)
        continue
      }
      let rightToLeft = PageLayout.baseDirection(of: out[last].paragraph) == .rightToLeft
      let after = line.first {
        rightToLeft ? out[$0].box.maxX <= number.box.minX : out[$0].box.minX >= number.box.maxX
      }
      out.insert(number, at: after ?? last + 1)
    }
    return (out, alone)
  }

  /// The index in `flow` of the last paragraph of the column whose notes
  /// `note` is part of, and whether the note shows it is set to the
  /// column's measure; `nil` for a note of the page (rule 5).
  ///
  /// On a page set in columns, notes can be set at the foot of each
  /// column, as wide as the column (a report's or a paper's column notes);
  /// a reader reads them when the column ends, before the next column,
  /// not after the page's last column. A note is a column's when running
  /// text lies beside it, wholly left or right of it and starting higher
  /// (another column: the note does not cross the gutter), and it lies
  /// below running text of its own column (paragraphs above it that it
  /// overlaps horizontally, no title across both columns). It must show
  /// that it is set to the column's measure (two lines or more, or a
  /// column left of it), or be one of a column whose other notes do (a
  /// one-line note at the left margin alone may be a short note of the
  /// page, read after the page's text as before). A table's columns are
  /// no columns of the page.
  static func columnEnd(of note: Unit, in flow: [Unit]) -> (last: Int, measured: Bool)? {
    func overlapsX(_ a: PixelRect, _ b: PixelRect) -> Bool {
      min(a.maxX, b.maxX) > max(a.minX, b.minX)
    }
    func overlapsY(_ a: PixelRect, _ b: PixelRect) -> Bool {
      min(a.maxY, b.maxY) > max(a.minY, b.minY)
    }
    let above = flow.indices.filter { flow[$0].box.minY < note.box.minY }
    let mine = above.filter { overlapsX(flow[$0].box, note.box) }
    // Another column: clear of the note and of a paragraph of the note's
    // column at its height (a short line inside the note's own column
    // is not one; a table's columns are no columns of the page).
    let beside = above.filter { i in
      flow[i].paragraph.cell == nil && !overlapsX(flow[i].box, note.box)
        && mine.contains {
          flow[$0].paragraph.cell == nil && overlapsY(flow[$0].box, flow[i].box)
            && !overlapsX(flow[$0].box, flow[i].box)
        }
    }
    guard !beside.isEmpty else { return nil }
    // The column: what lies above the note in it, not across the gutter.
    let column = mine.filter { i in !beside.contains { overlapsX(flow[$0].box, flow[i].box) } }
    guard let last = column.max() else { return nil }
    let measured =
      note.paragraph.lines.count >= 2
      || beside.contains(where: { flow[$0].box.maxX <= note.box.minX })
    return (last, measured)
  }

  /// Whether running text lies below a note in its column: a paragraph
  /// of two lines or more, not set aside, set larger than the note by more
  /// than an eighth (notes are set at most 0.88 × the running text:
  /// ``RoleDetection``). A page's notes have none (their role says so);
  /// a table's notes under the table, marked by a reference mark, do.
  static func hasRunningTextBelow(_ note: Unit, _ units: [Unit]) -> Bool {
    let size = ParagraphFacts(
      note.paragraph, block: 0, index: 0, blockBox: note.paragraph.bbox, strokes: nil
    ).size
    guard size > 0 else { return false }
    return units.contains { unit in
      unit.index != note.index && !Self.setAside.contains(unit.paragraph.role)
        && unit.paragraph.lines.count >= 2 && unit.box.minY >= note.box.maxY - 1
        && min(unit.box.maxX, note.box.maxX) > max(unit.box.minX, note.box.minX)
        && ParagraphFacts(
          unit.paragraph, block: 0, index: 0, blockBox: unit.paragraph.bbox, strokes: nil
        ).size > size * 9 / 8
    }
  }

  /// The footnotes, each followed by the lines Tesseract read apart from
  /// it (rule 5), one group a note, and the engine indices of those lines.
  ///
  /// A footnote's second line often comes out as a paragraph of its own
  /// (`columns` develop seed 1003: "and will automatically terminate your
  /// rights under this License." below "1 Any attempt otherwise…"), and
  /// as running text it would be read before the footnote it ends. A
  /// running-text paragraph is such a line when it starts no higher than a
  /// footnote it overlaps horizontally: ``RoleDetection`` gives the
  /// footnote role only to a paragraph with no running text of body size
  /// and two lines or more below it, so what lies below a footnote is
  /// footnote matter. It goes after the lowest such footnote above it.
  static func footnotesWithTheirLines(_ footnotes: [Unit], _ running: [Unit]) -> (
    [[Unit]], Set<Int>
  ) {
    guard !footnotes.isEmpty else { return ([], []) }
    var after: [Int: [Unit]] = [:]
    var moved: Set<Int> = []
    for unit in running {
      let above = footnotes.indices.filter { i in
        footnotes[i].box.minY <= unit.box.minY
          && min(footnotes[i].box.maxX, unit.box.maxX) > max(footnotes[i].box.minX, unit.box.minX)
      }
      guard let host = above.max(by: { footnotes[$0].box.minY < footnotes[$1].box.minY }) else {
        continue
      }
      after[host, default: []].append(unit)
      moved.insert(unit.index)
    }
    let out = footnotes.enumerated().map { i, note in
      [note] + (after[i] ?? []).sorted { $0.box.minY < $1.box.minY }
    }
    return (out, moved)
  }

  /// The running text with each paragraph that runs across the columns
  /// read between the text above it and the text below it (rule 3).
  ///
  /// Tesseract reads a title centred over the middle columns of a
  /// four-column page after the first column, which it does not overlap,
  /// and footnotes it did not tell from the text (type nearly the body's
  /// size) between two columns (`columns` develop seeds 1000, 1010, 1059). A paragraph *runs across the
  /// columns* when it overlaps horizontally two running-text paragraphs
  /// (not a table's cells) that lie side by side (one's right edge left of the other's left
  /// edge, sharing some height) and no other running-text paragraph
  /// shares any of its height:
  /// a horizontal cut along its top and bottom edges then crosses no
  /// text, so everything above it comes before it and everything below
  /// after it. The paragraphs are sorted, stably, into the bands between
  /// such paragraphs and the paragraphs themselves, top to bottom; within
  /// a band the engine's order stays. A page with none keeps the engine's
  /// order, and so does one whose spanning paragraph has a column beside
  /// it (a figure over two of three columns).
  static func acrossTheColumns(_ flow: [Unit]) -> [Unit] {
    func overlapsX(_ a: PixelRect, _ b: PixelRect) -> Bool {
      min(a.maxX, b.maxX) > max(a.minX, b.minX)
    }
    let cuts = flow.filter { unit in
      let others = flow.filter { $0.index != unit.index }
      guard
        others.allSatisfy({
          $0.box.maxY <= unit.box.minY || $0.box.minY >= unit.box.maxY
        })
      else { return false }
      // A table's cells stand side by side too, but they are no columns
      // of text: a column's last paragraph over a table that crosses the
      // page's gutter is no paragraph across the columns (read after
      // the next column, it was: a paper's page set by a browser).
      let under = others.filter { overlapsX($0.box, unit.box) && $0.paragraph.cell == nil }
      // Side by side: one left of the other, at a common height (two
      // columns, not a short line above and another far below it).
      return under.contains { a in
        under.contains { b in
          a.box.maxX <= b.box.minX && min(a.box.maxY, b.box.maxY) > max(a.box.minY, b.box.minY)
        }
      }
    }
    guard !cuts.isEmpty else { return flow }
    // Every other paragraph lies wholly above or wholly below each cut, so
    // the bands between cuts and the cuts alternate: band k (k cuts above
    // it) has key 2k, the cut below it 2k + 1.
    let cutIndices = Set(cuts.map(\.index))
    let keyed = flow.map { unit in
      let above = cuts.filter { $0.index != unit.index && $0.box.maxY <= unit.box.minY }.count
      return (unit, 2 * above + (cutIndices.contains(unit.index) ? 1 : 0))
    }
    return keyed.enumerated().sorted { a, b in
      a.element.1 != b.element.1 ? a.element.1 < b.element.1 : a.offset < b.offset
    }.map(\.element.0)
  }

  /// The running text with a grid of numbered panels read in number
  /// order (rule 3b).
  ///
  /// Boxes numbered "1.", "2." across the top and "3.", "4." below are
  /// read by Tesseract column by column: 1, 3, 2, 4. Their author's order
  /// is the numbers'. The rule holds when the paragraphs that start with a
  /// number ("3." or "3)", no other number starting a paragraph twice) are
  /// three or more consecutive numbers, read out of order, of which two
  /// stand side by side (a grid, not a list in one column), and each next
  /// number stands right of or below the one before (the order a reader
  /// follows). Each numbered paragraph is moved with the paragraphs read
  /// after it up to the next numbered one (its panel's text); what comes
  /// before the first stays first.
  static func numberedInOrder(_ flow: [Unit]) -> [Unit] {
    let numbers = flow.map { Self.leadingNumber($0.paragraph) }
    let heads = flow.indices.filter { numbers[$0] != nil }
    guard heads.count >= 3 else { return flow }
    let values = heads.compactMap { numbers[$0] }
    let sorted = values.sorted()
    guard Set(values).count == values.count, let low = sorted.first,
      sorted == Array(low..<(low + sorted.count)), values != sorted
    else { return flow }
    let byNumber = heads.sorted { (numbers[$0] ?? 0) < (numbers[$1] ?? 0) }
    for (a, b) in zip(byNumber, byNumber.dropFirst()) {
      let (p, q) = (flow[a].box, flow[b].box)
      guard q.minX >= p.maxX || q.minY >= p.maxY else { return flow }
    }
    let sideBySide = heads.contains { a in
      heads.contains { b in
        flow[a].box.maxX <= flow[b].box.minX
          && min(flow[a].box.maxY, flow[b].box.maxY) > max(flow[a].box.minY, flow[b].box.minY)
      }
    }
    guard sideBySide, let first = heads.first else { return flow }
    var panels: [Int: [Unit]] = [:]
    for (k, head) in heads.enumerated() {
      let end = k + 1 < heads.count ? heads[k + 1] : flow.count
      panels[numbers[head] ?? 0] = Array(flow[head..<end])
    }
    return Array(flow[..<first]) + sorted.flatMap { panels[$0] ?? [] }
  }

  /// The running text with each paragraph that starts higher than one
  /// read before it in the same column, and lies beside that one's first
  /// lines, moved before it (rule 3c).
  ///
  /// Tesseract reads the first line of a paragraph that opens with a
  /// large initial (a drop cap three or four lines high) as a block of its
  /// own, after the lines set beside the initial: "covered work with …"
  /// before "Notwithstanding any other provision …" (`dropcap` develop
  /// seeds 1004 and 1005). In one column a reader goes down the page, so
  /// of two paragraphs whose boxes overlap (the second's top lies within
  /// the first's height) and which share most of their width (half of the
  /// narrower one: one column, not two side by side), the one that starts
  /// higher is read first. An inset within a paragraph (a box starting
  /// below that paragraph's top) keeps its place; so does everything
  /// else, in the order it had.
  ///
  /// Which paragraph starts higher is told by their first lines'
  /// baselines, where the letters stand, when both have one; else by
  /// their boxes' tops. A large initial hangs below its line and takes the
  /// line's box with it: on `8071_093.3B` (tesseract-test) the box of the
  /// first line ("She moped. She sighed. She", beside a three-line drop
  /// cap) came out 18 px lower than the box of the line below it
  /// ("wandered around the house"), which Tesseract read first, while its
  /// baseline lies 45 px higher.
  static func higherFirst(_ flow: [Unit]) -> [Unit] {
    var out: [Unit] = []
    for unit in flow {
      let p = unit.box
      let before = out.firstIndex { other in
        let q = other.box
        let shared = min(p.maxX, q.maxX) - max(p.minX, q.minX)
        let higher =
          if let a = unit.firstBaseline, let b = other.firstBaseline {
            a < b && p.minY < q.maxY
          } else {
            p.minY < q.minY
          }
        return higher && p.maxY > q.minY
          && 2 * shared >= min(p.maxX - p.minX, q.maxX - q.minX)
      }
      out.insert(unit, at: before ?? out.count)
    }
    return out
  }

  /// The number a paragraph starts with, written "3." or "3)" (one or two
  /// digits), or `nil`.
  static func leadingNumber(_ paragraph: Paragraph) -> Int? {
    guard let word = paragraph.lines.first?.words.first?.text, let mark = word.last,
      mark == "." || mark == ")"
    else { return nil }
    let digits = word.dropLast()
    guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return Int(digits)
  }

  /// The roles read apart from the running text.
  private static let setAside: Set<ParagraphRole> = [
    .header, .footnote, .footer, .pageNumber, .marginalia,
  ]

  /// Whether a marginal note is the number of the paragraph it sits
  /// beside (rule 4): one word, a number written "28." or "28)", wholly
  /// left of the paragraph and level with its first line (its top within
  /// its own height of the paragraph's top). A list's or a questionnaire's
  /// numbers hang in the margin before their items' first lines
  /// (`table_mislabeled_as_picture` p1, develop: "28." left of "Are
  /// specialized legal aid services …"); read after the item, as a gloss
  /// is, the number would follow its own text.
  static func isHangingNumber(_ note: Unit, of host: Unit) -> Bool {
    guard note.paragraph.lines.count == 1, note.paragraph.lines[0].words.count == 1,
      leadingNumber(note.paragraph) != nil
    else { return false }
    let (n, p) = (note.box, host.box)
    return n.maxX <= p.minX && abs(n.minY - p.minY) < n.maxY - n.minY
  }

  /// The index in `flow` of the paragraph a marginal note sits beside.
  static func host(of note: Unit, in flow: [Unit]) -> Int? {
    var best: (index: Int, overlap: Int)?
    for (i, unit) in flow.enumerated() {
      let overlap = min(note.box.maxY, unit.box.maxY) - max(note.box.minY, unit.box.minY)
      if overlap > 0, overlap > (best?.overlap ?? 0) { best = (i, overlap) }
    }
    if let best { return best.index }
    let above = flow.indices.filter { flow[$0].box.maxY <= note.box.minY }
      .max { flow[$0].box.maxY < flow[$1].box.maxY }
    if let above { return above }
    return flow.indices.filter { flow[$0].box.minY >= note.box.maxY }
      .min { flow[$0].box.minY < flow[$1].box.minY }
  }

  /// Blocks again: consecutive paragraphs from the same original block
  /// stay one block; a block read in several parts becomes several blocks.
  static func regroup(_ units: [Unit], original: [Block]) -> [Block] {
    var blocks: [Block] = []
    var current: (block: Int, paragraphs: [Paragraph])?
    func close() {
      guard let part = current else { return }
      let whole = original[part.block]
      let box =
        part.paragraphs.count == whole.paragraphs.count
        ? whole.bbox : PixelRect.union(part.paragraphs.map(\.bbox)) ?? whole.bbox
      blocks.append(Block(bbox: box, paragraphs: part.paragraphs))
    }
    for unit in units {
      if current?.block == unit.block {
        current?.paragraphs.append(unit.paragraph)
      } else {
        close()
        current = (unit.block, [unit.paragraph])
      }
    }
    close()
    return blocks
  }
}
