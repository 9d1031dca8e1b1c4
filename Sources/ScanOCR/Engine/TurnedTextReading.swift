import CScanOCR
import ScanImaging
import ScanModel

extension OCREngine {
  /// The least confidence (0–100) of every word of a line read turned.
  static let turnedConfidence = 60.0

  /// Lines set turned a quarter inside the upright page, read turned: the
  /// columns of stacked glyphs ``ScanImaging/TurnedInk`` finds, each
  /// cropped with paper round it, turned clockwise (text read upward) and
  /// counter-clockwise (read downward) and read by Tesseract as one line
  /// (PSM 7). The turn whose reading is confident (every word at least
  /// ``turnedConfidence``) and word-like (``SecondLook/isWordLike(_:)``)
  /// and the more confident of the two is kept, in place of the words
  /// Tesseract's reading had there, when those are junk or read less
  /// confidently; a line Tesseract did not read at all is added.
  ///
  /// Why: Tesseract's layout analysis reads a header set upward over a
  /// narrow column of figures as upright symbols ("= foe =", "§"); the
  /// header read turned is one plain line. Upside-down type reads with
  /// low confidence, so the two turns tell reading upward from downward.
  ///
  /// A line kept has its words' and glyphs' boxes mapped back from the
  /// turned crop, each with its quad (corners in reading order) and the
  /// line's baseline running up or down the page, as the lines
  /// Tesseract itself reads sideways.
  ///
  /// Only in the reader's layout, on a page that is no photo (no crop,
  /// perspective or dewarp: a column of the recognised image is one of the
  /// page).
  /// - Parameters:
  ///   - prepared: The recognised image.
  ///   - blocks: Tesseract's reading of it, in its pixels.
  /// - Returns: The reading with the turned lines in it, each a block of
  ///   its own after the others.
  func readTurnedLines(_ prepared: PreparedImage, blocks: [Block]) -> [Block] {
    guard options.layout == .reading, prepared.crop == nil, prepared.perspective == nil,
      !prepared.dewarped
    else { return blocks }
    let words = blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
    let heights = words.filter { $0.text.contains { $0.isLetter || $0.isNumber } }
      .map { Double($0.bbox.height) }.sorted()
    guard !heights.isEmpty else { return blocks }
    let lineHeight = heights[heights.count / 2]
    let image = prepared.image
    guard let ink = Self.ink(image) else { return blocks }
    let candidates = TurnedInk.candidates(
      components: Preprocessor.componentBoxes(ink), lineHeight: lineHeight)
    // A ruled table's cells are read one by one, turned where they read
    // so (``readTableCells(_:mapper:index:path:started:)``).
    let cells = prepared.tables.flatMap(\.tables).flatMap { $0.cells.map(\.box) }
    let inCells = candidates.filter { candidate in
      cells.contains { Self.share(of: candidate, inside: $0) >= 0.5 }
    }
    let free = candidates.filter { !inCells.contains($0) }
    // There Tesseract's page reading keeps only confident, word-like
    // words: what it read from a turned line's ink is junk (a word across
    // two turned headers, "Ae", is in no one cell to be replaced).
    let page = Self.removingWords(inside: inCells, from: blocks) { word in
      (word.confidence ?? 0) >= Self.turnedConfidence && SecondLook.isWordLike(word.text)
    }
    guard !free.isEmpty else { return page }
    defer { scantext_TessBaseAPIClear(api) }
    var replaced: [PixelRect] = []
    var added: [Block] = []
    for candidate in free {
      // Paper across the line (its glyphs' sides, as a line's spacing),
      // less along it: a rule under a column's header lies a cell's
      // padding past its end.
      let across = Int(lineHeight / 2)
      let along = Int(lineHeight / 4)
      let crop = PixelRect(
        minX: max(0, candidate.minX - across), minY: max(0, candidate.minY - along),
        maxX: min(image.width, candidate.maxX + across),
        maxY: min(image.height, candidate.maxY + along))
      guard let reading = readTurned(image, crop: crop, resolution: prepared.resolution) else {
        continue
      }
      // Tesseract's words there: replaced when junk or less confident.
      let there = words.filter { Self.share(of: $0.bbox, inside: candidate) >= Self.overShare }
      let mean = Self.meanConfidence(reading.line.words)
      if !there.isEmpty, !SecondLook.isJunk(there.map(\.text)),
        Self.meanConfidence(there) >= mean
      {
        continue
      }
      replaced.append(candidate)
      added.append(
        Block(
          bbox: reading.line.bbox,
          paragraphs: [Paragraph(bbox: reading.line.bbox, lines: [reading.line])]))
    }
    guard !added.isEmpty else { return page }
    return Self.removingWords(inside: replaced, from: page) + added
  }

  /// The better of the two turned readings of `crop`, as a line in the
  /// page's pixels, or `nil` when neither is confident and word-like.
  /// Leaves Tesseract reading one line (PSM 7) of the turned crop.
  func readTurned(_ image: LeptonicaImage, crop: PixelRect, resolution: Int?) -> (
    line: TextLine, turns: Int
  )? {
    guard let upright = Self.clip(image, to: crop) else { return nil }
    var best: (line: TextLine, turns: Int, confidence: Double)?
    scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
    for turns in [1, 3] {
      guard let pix = scantext_pixRotateOrth(upright.pix, Int32(turns)) else { continue }
      let turned = LeptonicaImage(taking: pix)
      scantext_TessBaseAPISetImage2(api, turned.pix)
      if let dpi = options.dpi {
        scantext_TessBaseAPISetSourceResolution(api, Int32(resolution ?? dpi))
      }
      guard scantext_TessBaseAPIRecognize(api, nil) == 0 else { continue }
      let lines = ResultReader.read(api).blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
      guard lines.count == 1, let line = lines.first, !line.words.isEmpty,
        line.words.allSatisfy({
          ($0.confidence ?? 0) >= Self.turnedConfidence && SecondLook.isWordLike($0.text)
        })
      else { continue }
      let confidence = Self.meanConfidence(line.words)
      if best.map({ confidence > $0.confidence }) ?? true {
        best = (Self.placed(line, turns: turns, crop: crop), turns, confidence)
      }
    }
    return best.map { ($0.line, $0.turns) }
  }

  /// A line read in a crop turned `turns` quarter turns clockwise, in the
  /// page: boxes, quads and baseline mapped back.
  static func placed(_ line: TextLine, turns: Int, crop: PixelRect) -> TextLine {
    func back(_ r: PixelRect) -> (quad: Quad, box: PixelRect) {
      TurnedInk.placed(r, quarterTurns: turns, crop: crop)
    }
    func point(_ p: Point) -> Point {
      let q = TurnedInk.unturned(p, quarterTurns: turns, width: crop.width, height: crop.height)
      return Point(x: q.x + Double(crop.minX), y: q.y + Double(crop.minY))
    }
    let words = line.words.map { word in
      let (quad, box) = back(word.bbox)
      return Word(
        text: word.text, bbox: box, quad: quad, confidence: word.confidence,
        glyphs: word.glyphs.map { glyph in
          let (quad, box) = back(glyph.bbox)
          return Glyph(text: glyph.text, bbox: box, quad: quad, confidence: glyph.confidence)
        })
    }
    let (quad, box) = back(line.bbox)
    let baseline =
      line.baseline.map { Baseline(start: point($0.start), end: point($0.end)) }
      ?? Baseline(start: quad.bottomLeft, end: quad.bottomRight)
    return TextLine(bbox: box, quad: quad, baseline: baseline, words: words)
  }

  /// The share of a word's box inside a turned line's box from which the
  /// word was read in the turned line's ink: upright type beside a turned
  /// line does not reach into it by a quarter of its box.
  static let overShare = 0.25

  /// The mean confidence of `words` (0 for words without one).
  static func meanConfidence(_ words: [Word]) -> Double {
    guard !words.isEmpty else { return 0 }
    return words.reduce(0) { $0 + ($1.confidence ?? 0) } / Double(words.count)
  }

  /// The share of `r`'s area inside `area`.
  static func share(of r: PixelRect, inside area: PixelRect) -> Double {
    guard let common = r.intersection(area), r.width > 0, r.height > 0 else { return 0 }
    return Double(common.width * common.height) / Double(r.width * r.height)
  }

  /// `blocks` without the words lying ``overShare`` or more inside
  /// `areas` (which do not overlap) but those `keeps` keeps; lines,
  /// paragraphs and blocks left empty go, and those that lost words shrink
  /// to what they keep.
  static func removingWords(
    inside areas: [PixelRect], from blocks: [Block], keeping keeps: (Word) -> Bool = { _ in false }
  ) -> [Block] {
    guard !areas.isEmpty else { return blocks }
    func gone(_ word: Word) -> Bool {
      areas.reduce(0) { $0 + share(of: word.bbox, inside: $1) } >= overShare && !keeps(word)
    }
    return blocks.compactMap { block in
      let paragraphs = block.paragraphs.compactMap { paragraph -> Paragraph? in
        let lines = paragraph.lines.compactMap { line -> TextLine? in
          guard line.words.contains(where: gone) else { return line }
          let kept = line.words.filter { !gone($0) }
          guard let box = PixelRect.union(kept.map(\.bbox)) else { return nil }
          return TextLine(bbox: box, baseline: line.baseline, words: kept)
        }
        guard lines != paragraph.lines else { return paragraph }
        guard let box = PixelRect.union(lines.map(\.bbox)) else { return nil }
        var kept = paragraph
        kept.lines = lines
        kept.bbox = box
        return kept
      }
      guard paragraphs != block.paragraphs else { return block }
      guard let box = PixelRect.union(paragraphs.map(\.bbox)) else { return nil }
      return Block(bbox: box, paragraphs: paragraphs)
    }
  }
}
