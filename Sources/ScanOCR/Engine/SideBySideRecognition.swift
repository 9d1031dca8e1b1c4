import CScanOCR
import Foundation
import ScanImaging
import ScanModel

/// One page read on several cores: its layout decides the parts (a cut
/// through blank paper, ``ScanImaging/PageCut``), each part is recognised
/// by an engine of its own at the same time, and their blocks, moved from
/// the part's pixels back to the recognised image's, go through the block
/// passes as one reading's.
extension OCREngine {
  /// Pages with fewer pixels are read whole on one core: the second
  /// engine's start (about 0.1 s of processor time) and each part's own
  /// layout analysis would cost more than the part saves (phototest,
  /// 640 × 480, reads in 0.3 s).
  static let smallestPageToSplit = 1_500_000

  /// Where to cut a prepared page to recognise its parts side by side, or
  /// `nil` to read it whole: when ``RecognitionOptions/pageThreads`` is 1,
  /// in Tesseract's order (``PageLayoutOrder/tesseract``: its text is the
  /// `tesseract` command's, which reads the page whole), with a page
  /// segmentation other than the automatic ones, on a page with ruled
  /// tables, on a small page, when no blank band or gutter shares the
  /// page's ink evenly enough, or when the widest band goes through
  /// columns that go on below it (``ScanImaging/PageCut/gutterCrosses(above:below:minimumGap:)``).
  func sideBySideCut(_ prepared: PreparedImage) -> PageCut? {
    // A page with ruled tables is read whole: its cells are read one by
    // one afterwards, and a cut between a table's rows or columns changes
    // the lines Tesseract finds across it.
    guard options.pageThreads > 1, options.layout == .reading,
      [.automatic, .automaticWithOrientation].contains(options.pageSegmentation),
      prepared.tables.allSatisfy({ $0.tables.isEmpty })
    else { return nil }
    let image = prepared.image
    guard image.width * image.height >= Self.smallestPageToSplit,
      let ink = Self.ink(image)
    else { return nil }
    // The page inside its dark borders, which would close every blank band.
    var area = PixelRect(minX: 0, minY: 0, maxX: image.width, maxY: image.height)
    var profiles = Self.inkProfiles(ink, in: area)
    for _ in 0..<2 {
      let inner = PageCut.insideBorders(rowInk: profiles.rows, columnInk: profiles.columns)
      guard inner.width > 0, inner.height > 0 else { return nil }
      area = PixelRect(
        minX: area.minX + inner.minX, minY: area.minY + inner.minY,
        maxX: area.minX + inner.maxX, maxY: area.minY + inner.maxY)
      profiles = Self.inkProfiles(ink, in: area)
    }
    // Three pixels at 300 dpi: a blank band between lines of 10-point type
    // is about ten.
    let dpi = prepared.resolution ?? image.resolution ?? 300
    let gap = max(2, dpi / 100)
    // A gutter between columns of text is wider than a fifth of an inch
    // (two-columns.png's is a third); a borderless table's columns are
    // closer (a sixth in the tables family): never cut through a table.
    guard
      var cut = PageCut.cut(
        rowInk: profiles.rows, columnInk: profiles.columns, minimumGap: gap,
        minimumGutter: dpi / 5)
    else { return nil }
    cut.position += cut.direction == .acrossRows ? area.minY : area.minX
    // A band through columns that go on below it is not a place to cut:
    // the rows within a third of an inch (two or three lines) each side.
    if cut.direction == .acrossRows {
      let reach = max(3 * gap, dpi / 3)
      let above = PixelRect(
        minX: area.minX, minY: max(area.minY, cut.position - reach), maxX: area.maxX,
        maxY: cut.position)
      let below = PixelRect(
        minX: area.minX, minY: cut.position, maxX: area.maxX,
        maxY: min(area.maxY, cut.position + reach))
      guard
        !PageCut.gutterCrosses(
          above: Self.inkProfiles(ink, in: above).columns,
          below: Self.inkProfiles(ink, in: below).columns, minimumGap: gap)
      else { return nil }
    }
    return cut
  }

  /// Gray levels below this count as ink when the page is looked at for a
  /// cut: lighter than the middle gray, so that a faint stroke Tesseract's
  /// own threshold may keep is not taken for paper.
  static let cutInkLevel: Int32 = 160

  /// `image` as 1-bit ink (a 1-bit image as it is, others thresholded at
  /// ``cutInkLevel``).
  static func ink(_ image: LeptonicaImage) -> LeptonicaImage? {
    if scantext_pixGetDepth(image.pix) == 1, scantext_pixGetColormap(image.pix) == nil {
      return image
    }
    return scantext_pixConvertTo1(image.pix, cutInkLevel).map(LeptonicaImage.init(taking:))
  }

  /// The ink pixels of each row and each column of `area` in the 1-bit
  /// image `ink`.
  /// - Complexity: O(*w* × *h*) in the area's pixels, a 32-pixel word at
  ///   a time where the page is blank.
  static func inkProfiles(_ ink: LeptonicaImage, in area: PixelRect) -> (
    rows: [Int], columns: [Int]
  ) {
    var rows = [Int](repeating: 0, count: max(0, area.height))
    var columns = [Int](repeating: 0, count: max(0, area.width))
    let wordsPerLine = Int(scantext_pixGetWpl(ink.pix))
    guard area.width > 0, area.height > 0, area.minX >= 0, area.minY >= 0,
      area.maxX <= ink.width, area.maxY <= ink.height,
      let data = scantext_pixGetData(ink.pix)
    else { return (rows, columns) }
    let firstWord = area.minX / 32
    let lastWord = (area.maxX - 1) / 32
    for y in area.minY..<area.maxY {
      let line = data + y * wordsPerLine
      var count = 0
      for i in firstWord...lastWord {
        var word = UInt32(line[i])
        // Only the area's pixels (the first pixel is the most significant bit).
        if i == firstWord { word &= UInt32.max >> UInt32(area.minX - i * 32) }
        if i == lastWord, area.maxX - i * 32 < 32 {
          word &= ~(UInt32.max >> UInt32(area.maxX - i * 32))
        }
        guard word != 0 else { continue }
        count += word.nonzeroBitCount
        while word != 0 {
          let bit = word.leadingZeroBitCount
          columns[i * 32 + bit - area.minX] += 1
          word &= ~(UInt32(0x8000_0000) >> UInt32(bit))
        }
      }
      rows[y - area.minY] = count
    }
    return (rows, columns)
  }

  /// Recognises the parts of `prepared` that `cut` makes side by side, on
  /// this engine and its partners (one engine per part, created on first
  /// need and kept); reads the whole page on this engine alone when a
  /// partner cannot be started.
  /// - Returns: The parts' blocks, the first part's first, in the prepared
  ///   image's pixels, and their signals summed.
  func recognizeSideBySide(
    _ prepared: PreparedImage, cut: PageCut, index: Int, path: String, started: Date
  ) throws(OCRError) -> ([Block], ResultReader.Signals)? {
    let image = prepared.image
    let parts = cut.parts(width: image.width, height: image.height)
    guard startPartners(parts.count - 1) else { return nil }
    let apis: [OpaquePointer?] = [api] + partners.prefix(parts.count - 1).map(\.raw)
    var monitors: [OpaquePointer?] = []
    defer { for case let monitor? in monitors { scantext_TessMonitorDelete(monitor) } }
    for (engine, part) in zip(apis, parts) {
      // Each engine gets its part as an image of its own, not the page
      // with a rectangle: with `TessBaseAPISetRectangle` and the automatic
      // layout, Tesseract 5.3's LSTM takes its lines' pixels as if the
      // rectangle reached the image's bottom (the top 700 rows of
      // `Scans/article.png` read as "ee", "OS", the footer's words).
      guard let engine, let piece = Self.clip(image, to: part) else { return nil }
      scantext_TessBaseAPISetPageSegMode(
        engine, TessPageSegMode(UInt32(options.pageSegmentation.rawValue)))
      // Tesseract copies the image: the piece goes when the loop moves on.
      scantext_TessBaseAPISetImage2(engine, piece.pix)
      if let dpi = options.dpi {
        scantext_TessBaseAPISetSourceResolution(engine, Int32(prepared.resolution ?? dpi))
      }
      // A monitor only when there is a deadline to watch.
      if let timeout = options.timeout, let m = scantext_TessMonitorCreate() {
        let left = timeout - Date().timeIntervalSince(started)
        scantext_TessMonitorSetDeadlineMSecs(
          m, Int32(max(1, min(left * 1000, Double(Int32.max)))))
        monitors.append(m)
      } else {
        monitors.append(nil)
      }
    }
    var statuses = [Int32](repeating: -1, count: apis.count)
    apis.withUnsafeBufferPointer { engines in
      monitors.withUnsafeBufferPointer { watches in
        statuses.withUnsafeMutableBufferPointer { results in
          scantext_recognize_side_by_side(
            engines.baseAddress, watches.baseAddress, Int32(engines.count),
            OpenMP.isAvailable ? 1 : 0, results.baseAddress)
        }
      }
    }
    defer { for engine in apis.dropFirst() { scantext_TessBaseAPIClear(engine) } }
    if let timeout = options.timeout, Date().timeIntervalSince(started) >= timeout {
      scantext_TessBaseAPIClear(api)
      throw .timedOut(path: path, page: index, seconds: timeout)
    }
    guard statuses.allSatisfy({ $0 == 0 }) else {
      scantext_TessBaseAPIClear(api)
      throw .recognitionFailed(path: path, page: index)
    }
    var read: [[Block]] = []
    var signals = ResultReader.Signals()
    for (engine, part) in zip(apis, parts) {
      guard let engine else { continue }
      let (partBlocks, partSignals) = ResultReader.read(engine)
      read.append(Self.moved(partBlocks, x: part.minX, y: part.minY))
      signals.add(partSignals)
    }
    guard cut.direction == .acrossRows, read.count == 2 else {
      return (read.flatMap(\.self), signals)
    }
    return (Self.joined(top: read[0], bottom: read[1]), signals)
  }

  /// The blocks of the two parts of a page cut across its rows, each
  /// paragraph that the cut fell in one again: a top block and the bottom
  /// block that goes on below it (they overlap across at least half the
  /// narrower's width, start within two line heights of each other on the
  /// left) are joined when the gap between the top one's last line and
  /// the bottom one's first is no wider than the gaps between the top
  /// paragraph's lines (half as much again). Whole, the page's layout
  /// reads such a paragraph as one block; cut, the reading order would
  /// take the band of lines above the cut for a row of its own (columns
  /// read across, not down). A cut between paragraphs leaves them apart,
  /// as the page read whole has them.
  ///
  /// Each bottom block not joined then goes in after the blocks above it
  /// in its column (the last listed of the blocks above it that share any
  /// of its width), as the page's layout lists a column's blocks one after
  /// the other, and after the bottom blocks listed before it: the bottom
  /// part's own order is kept (the reading order starts from that list).
  /// Put just after the lowest block across half the narrower's width,
  /// the bottom blocks under one wide block went in last first (linn's
  /// right column before its left one), and a heading centred under a
  /// paragraph went in before the short line that ends the top part
  /// (headings-9000's "4. Soak the weaver behind the wagon." read last).
  /// - Complexity: O((*t* + *b*)²) in the blocks of the two parts.
  static func joined(top: [Block], bottom: [Block]) -> [Block] {
    var result = top
    var joinedBottom = Set<Int>()
    for (i, upper) in top.enumerated() {
      guard let lineHeight = medianLineHeight(upper) else { continue }
      func overlaps(_ a: Block, _ b: Block) -> Bool {
        let overlap = min(a.bbox.maxX, b.bbox.maxX) - max(a.bbox.minX, b.bbox.minX)
        return 2 * overlap >= min(a.bbox.width, b.bbox.width)
      }
      // The nearest block below, and no top block between them.
      guard
        let j = bottom.indices.filter({ !joinedBottom.contains($0) && overlaps(upper, bottom[$0]) })
          .min(by: { bottom[$0].bbox.minY < bottom[$1].bbox.minY })
      else { continue }
      let lower = bottom[j]
      let lowest = top.filter { overlaps($0, lower) }.max { $0.bbox.maxY < $1.bbox.maxY }
      guard lowest?.bbox == upper.bbox,
        abs(upper.bbox.minX - lower.bbox.minX) <= 2 * lineHeight,
        let block = join(upper, lower)
      else { continue }
      joinedBottom.insert(j)
      result[i] = block
    }
    // Just after the last bottom block put in.
    var earliest = 0
    for j in bottom.indices where !joinedBottom.contains(j) {
      let block = bottom[j]
      let above = result.indices.last {
        let a = result[$0].bbox
        return a.maxY <= block.bbox.minY
          && min(a.maxX, block.bbox.maxX) > max(a.minX, block.bbox.minX)
      }
      let position = max(earliest, above.map { $0 + 1 } ?? result.count)
      result.insert(block, at: position)
      earliest = position + 1
    }
    return result
  }

  /// One block of `upper` and `lower` with the paragraph the cut fell in
  /// whole again, or `nil` when the gap between the halves is wider than
  /// 1.5 times the gaps between the upper half's lines (two lines or more).
  private static func join(_ upper: Block, _ lower: Block) -> Block? {
    var paragraphs = upper.paragraphs
    var rest = lower.paragraphs
    guard var last = paragraphs.last, let first = rest.first, last.lines.count >= 2,
      let end = last.lines.last, let start = first.lines.first
    else { return nil }
    let gaps = zip(last.lines, last.lines.dropFirst()).map { $1.bbox.minY - $0.bbox.maxY }
      .sorted()
    let usual = gaps[gaps.count / 2]
    guard Double(start.bbox.minY - end.bbox.maxY) <= 1.5 * Double(max(usual, 1)) else {
      return nil
    }
    last.lines += first.lines
    last.bbox = last.bbox.union(first.bbox)
    paragraphs[paragraphs.count - 1] = last
    rest.removeFirst()
    return Block(bbox: upper.bbox.union(lower.bbox), paragraphs: paragraphs + rest)
  }

  /// The median height of a block's lines, or `nil` when it has none.
  private static func medianLineHeight(_ block: Block) -> Int? {
    let heights = block.paragraphs.flatMap(\.lines).map(\.bbox.height).sorted()
    return heights.isEmpty ? nil : heights[heights.count / 2]
  }

  /// The part `rect` of `image` as an image of its own, with its
  /// resolution.
  static func clip(_ image: LeptonicaImage, to rect: PixelRect) -> LeptonicaImage? {
    var box = scantext_boxCreate(
      Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
    defer { scantext_boxDestroy(&box) }
    guard let box else { return nil }
    guard let pix = scantext_pixClipRectangle(image.pix, box, nil) else { return nil }
    scantext_pixCopyResolution(pix, image.pix)
    return LeptonicaImage(taking: pix)
  }

  /// `blocks` read from a part of the page whose top-left corner is at
  /// (`x`, `y`), in the page's pixels: every box and baseline moved.
  static func moved(_ blocks: [Block], x: Int, y: Int) -> [Block] {
    guard x != 0 || y != 0 else { return blocks }
    func move(_ r: PixelRect) -> PixelRect {
      PixelRect(minX: r.minX + x, minY: r.minY + y, maxX: r.maxX + x, maxY: r.maxY + y)
    }
    func move(_ p: Point) -> Point { Point(x: p.x + Double(x), y: p.y + Double(y)) }
    return blocks.map { block in
      var block = block
      block.bbox = move(block.bbox)
      block.paragraphs = block.paragraphs.map { paragraph in
        var paragraph = paragraph
        paragraph.bbox = move(paragraph.bbox)
        paragraph.lines = paragraph.lines.map { line in
          var line = line
          line.bbox = move(line.bbox)
          line.baseline = line.baseline.map { Baseline(start: move($0.start), end: move($0.end)) }
          line.words = line.words.map { word in
            var word = word
            word.bbox = move(word.bbox)
            word.glyphs = word.glyphs.map { glyph in
              var glyph = glyph
              glyph.bbox = move(glyph.bbox)
              return glyph
            }
            return word
          }
          return line
        }
        return paragraph
      }
      return block
    }
  }

  /// Starts partners until there are `count`, with this engine's languages;
  /// `false` when one cannot be started (the page is then read whole).
  private func startPartners(_ count: Int) -> Bool {
    while partners.count < count {
      let partner = TesseractHandle()
      guard Self.start(partner, folder: dataFolder, options: options) else { return false }
      partners.append(partner)
    }
    return true
  }
}

extension ResultReader.Signals {
  /// Adds the signals of another part of the same page.
  mutating func add(_ other: Self) {
    words += other.words
    wordsNotUpright += other.wordsNotUpright
    confidenceSum += other.confidenceSum
    longWords += other.longWords
    longWordsStanding += other.longWordsStanding
  }
}
