import Synchronization

/// The query index of a page, built once when the page is built.
///
/// Everything here is flattened into arrays in reading order so that offset
/// lookups are binary searches and point lookups go through a spatial index.
final class PageLayout: Sendable {
  struct LineEntry: Sendable {
    var block: Int
    var paragraph: Int
    var line: Int
    var range: Range<Int>
    /// The line's reading frame: `u` runs in the reading direction (right
    /// to left on a right-to-left line).
    var frame: LineFrame
    /// The base writing direction of the line's paragraph.
    var direction: WritingDirection
    /// The line's full outline in image pixels: its box, or the rectangle
    /// along its quad or sloped baseline that holds all its words.
    var outline: Quad
    /// Indices into `words` of this line's words.
    var words: Range<Int>
    /// Indices into the caret-stop arrays; their `u` never decrease.
    var stops: Range<Int>
    var bounds: Rect
  }

  /// Where a word is, in 32-bit fields (there is one per word of the page).
  struct WordEntry: Sendable {
    private let indices:
      (block: Int32, paragraph: Int32, line: Int32, word: Int32, lineNumber: Int32)
    private let start: Int32
    private let end: Int32
    let bbox: PixelRect

    init(
      block: Int, paragraph: Int, line: Int, word: Int, lineNumber: Int, range: Range<Int>,
      bbox: PixelRect
    ) {
      indices = (
        Int32(clamping: block), Int32(clamping: paragraph), Int32(clamping: line),
        Int32(clamping: word), Int32(clamping: lineNumber)
      )
      start = Int32(clamping: range.lowerBound)
      end = Int32(clamping: range.upperBound)
      self.bbox = bbox
    }

    var block: Int { Int(indices.block) }
    var paragraph: Int { Int(indices.paragraph) }
    var line: Int { Int(indices.line) }
    var word: Int { Int(indices.word) }
    /// Reading-order line number.
    var lineNumber: Int { Int(indices.lineNumber) }
    var range: Range<Int> { Int(start)..<Int(end) }
  }

  /// The page text's length in UTF-16 code units.
  let length: Int
  /// The page text's UTF-8 bytes, for slicing in O(1) without transcoding.
  let utf8: [UInt8]
  /// For each UTF-16 offset `0...length`, its UTF-8 offset; `nil` when the
  /// text is ASCII and the two agree. An offset inside a surrogate pair
  /// maps to the start of its scalar.
  private let utf8Offsets: [Int32]?
  let lines: [LineEntry]
  /// `lines[i].range.lowerBound`, for binary search.
  let lineStarts: [Int]
  let words: [WordEntry]
  let wordStarts: [Int]
  let paragraphRanges: [Range<Int>]
  /// The base writing direction of each paragraph (first strong character).
  let paragraphDirections: [WritingDirection]
  /// Reader words (the tokenizer's `.word` unit), sorted, with the parts
  /// of words hyphenated at line ends joined.
  let readerWords: [Range<Int>]
  /// Words hyphenated at line ends, in text order.
  let hyphenBreaks: [HyphenBreak]
  /// The sentences (the tokenizer's `.sentence` unit), found on first use:
  /// sentence segmentation is a sixth of building a page's index
  /// (`perf` on a dense page read from a compact model) and only sentence
  /// queries need it.
  var sentences: [Range<Int>] {
    sentenceCache.withLock { cached in
      if let cached { return cached }
      let ranges = Self.sentenceRanges(in: sentenceText, units: Array(sentenceText.utf16))
      cached = ranges
      return ranges
    }
  }
  private let sentenceText: String
  private let sentenceCache = Mutex<[Range<Int>]?>(nil)
  /// Caret stops of all lines: a UTF-16 offset and its `u` in its line's frame.
  private let stopOffsets: [Int32]
  let stopU: [Double]
  let spatial: SpatialIndex

  init(blocks: [Block], text: String) {
    let units = Array(text.utf16)
    length = units.count
    utf8 = Array(text.utf8)
    utf8Offsets = utf8.count == units.count ? nil : Self.utf8Offsets(of: text)
    var lines: [LineEntry] = []
    var words: [WordEntry] = []
    var paragraphRanges: [Range<Int>] = []
    var paragraphDirections: [WritingDirection] = []
    var readerWords: [Range<Int>] = []
    var stopOffsets: [Int32] = []
    var stopU: [Double] = []
    for (b, block) in blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        paragraphRanges.append(paragraph.range.offsets)
        let direction = Self.baseDirection(of: paragraph)
        paragraphDirections.append(direction)
        for (l, line) in paragraph.lines.enumerated() {
          let outline = Self.outline(of: line)
          let frame = LineFrame(
            direction == .rightToLeft ? outline.mirrored : outline, polygon: line.polygon)
          let firstWord = words.count
          let firstStop = stopOffsets.count
          for (w, word) in line.words.enumerated() {
            words.append(
              WordEntry(
                block: b, paragraph: p, line: l, word: w, lineNumber: lines.count,
                range: word.range.offsets, bbox: word.bbox))
            let base = word.range.lowerBound.offset
            for r in WordSegmentation.wordRanges(in: Substring(word.text)) {
              readerWords.append((base + r.lowerBound)..<(base + r.upperBound))
            }
            Self.appendStops(for: word, in: frame, offsets: &stopOffsets, us: &stopU)
          }
          let stops = firstStop..<stopOffsets.count
          Self.makeNonDecreasing(&stopU, in: stops)
          lines.append(
            LineEntry(
              block: b, paragraph: p, line: l, range: line.range.offsets, frame: frame,
              direction: direction, outline: outline, words: firstWord..<words.count, stops: stops,
              bounds: outline.boundingRect))
        }
      }
    }
    Self.trimOverlappingBands(&lines)
    self.lines = lines
    self.lineStarts = lines.map(\.range.lowerBound)
    self.words = words
    self.wordStarts = words.map(\.range.lowerBound)
    self.paragraphRanges = paragraphRanges
    self.paragraphDirections = paragraphDirections
    (self.readerWords, self.hyphenBreaks) = Dehyphenation.join(readerWords, blocks: blocks)
    self.stopOffsets = stopOffsets
    self.stopU = stopU
    self.sentenceText = text
    self.spatial = SpatialIndex(lines.map(\.bounds))
    _checkInvariants()
  }

  /// The paragraph's base writing direction: that of its first strong
  /// character, left to right when it has none (UAX #9, P2–P3).
  static func baseDirection(of paragraph: Paragraph) -> WritingDirection {
    for line in paragraph.lines {
      for word in line.words {
        if let d = BaseDirection.firstStrong(in: word.text) { return d }
      }
    }
    return .leftToRight
  }

  /// Baselines sloped by less than this (in degrees) count as level.
  static let levelBaselineAngle = 0.5

  /// The line's outline: its quad when it has one; on a level line its box;
  /// on a line whose baseline slopes (a skewed page), the smallest rectangle
  /// along the baseline that holds every word's corners.
  static func outline(of line: TextLine) -> Quad {
    if let quad = line.quad { return quad }
    guard let baseline = line.baseline, abs(baseline.angle) >= levelBaselineAngle,
      abs(baseline.angle) < 45
    else { return Quad(line.bbox.rect) }
    let d = baseline.end - baseline.start
    let u = d * (1 / d.length)
    let v = Point(x: -u.y, y: u.x)
    var uMin = Double.infinity
    var uMax = -Double.infinity
    var vMin = Double.infinity
    var vMax = -Double.infinity
    // Glyph boxes, being small, follow a sloped line more closely than the
    // upright boxes of whole words.
    func take(_ q: Quad) {
      for p in [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft] {
        uMin = min(uMin, p.dot(u))
        uMax = max(uMax, p.dot(u))
        vMin = min(vMin, p.dot(v))
        vMax = max(vMax, p.dot(v))
      }
    }
    for word in line.words {
      if word.glyphs.isEmpty {
        take(word.corners)
      } else {
        for glyph in word.glyphs { take(glyph.corners) }
      }
    }
    guard uMin < uMax, vMin < vMax else { return Quad(line.bbox.rect) }
    return Quad(
      topLeft: u * uMin + v * vMin, topRight: u * uMax + v * vMin,
      bottomRight: u * uMax + v * vMax, bottomLeft: u * uMin + v * vMax)
  }

  /// Caret stops of a word: its start, every glyph boundary (or, without
  /// glyphs, every grapheme boundary spread evenly over the word), its end.
  private static func appendStops(
    for word: Word, in frame: LineFrame, offsets: inout [Int32], us: inout [Double]
  ) {
    let extent = frame.extentU(word.corners)
    let start = word.range.lowerBound.offset
    let end = word.range.upperBound.offset
    offsets.append(Int32(clamping: start))
    us.append(extent.lowerBound)
    // The glyphs are read by index, never copied: copying a glyph (its
    // text, its boxed quad) for each comparison was a fifth of building
    // the stops.
    let glyphs = word.glyphs
    var glyphsCover =
      !glyphs.isEmpty && glyphs[0].range.lowerBound.offset == start
      && glyphs[glyphs.count - 1].range.upperBound.offset == end
    var g = 0
    while glyphsCover, g + 1 < glyphs.count {
      glyphsCover =
        glyphs[g].range.upperBound == glyphs[g + 1].range.lowerBound && !glyphs[g].range.isEmpty
      g += 1
    }
    if glyphsCover {
      // Between two glyphs the caret sits in the middle of the gap; where
      // the boxes overlap (LSTM glyph boxes often do), halfway between
      // their centres, so each glyph's centre stays inside its own span.
      let glyphExtents = glyphs.map { frame.extentU($0.corners) }
      // A caret never stands inside a grapheme cluster: glyphs that split
      // one (an accent read apart from its letter) share one span.
      // ASCII without a carriage return (the common word) has a boundary
      // after every unit; otherwise the clusters' ends, ascending, are
      // walked beside the glyphs' starts (a set per word was a tenth of
      // building a dense page's index).
      let everyUnit = word.text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
      var boundaries: [Int] = []
      if !everyUnit {
        var offset = start
        for c in word.text {
          offset += c.utf16.count
          boundaries.append(offset)
        }
      }
      var next = 0
      func isBoundary(_ offset: Int) -> Bool {
        if everyUnit { return true }
        while next < boundaries.count, boundaries[next] < offset { next += 1 }
        return next < boundaries.count && boundaries[next] == offset
      }
      var last = extent.lowerBound
      for g in glyphs.indices.dropFirst() where isBoundary(glyphs[g].range.lowerBound.offset) {
        let a = glyphExtents[g - 1]
        let b = glyphExtents[g]
        let boundary =
          a.upperBound <= b.lowerBound
          ? (a.upperBound + b.lowerBound) / 2
          : (a.lowerBound + a.upperBound + b.lowerBound + b.upperBound) / 4
        last = min(max(boundary, last), extent.upperBound)
        offsets.append(Int32(clamping: glyphs[g].range.lowerBound.offset))
        us.append(last)
      }
    } else {
      let characters = word.text.count
      var offset = start
      for (k, c) in word.text.enumerated() where k < characters - 1 {
        offset += c.utf16.count
        offsets.append(Int32(clamping: offset))
        let share = Double(k + 1) / Double(characters)
        us.append(extent.lowerBound + (extent.upperBound - extent.lowerBound) * share)
      }
    }
    offsets.append(Int32(clamping: end))
    us.append(extent.upperBound)
  }

  /// Makes the caret stops of a line advance along it. Tesseract's boxes of
  /// neighbouring glyphs and words sometimes overlap, so a stop can fall
  /// behind the one before it; pooling adjacent violators (the least-squares
  /// non-decreasing fit) moves such runs to their mean, so that every
  /// glyph's centre stays between its own stops and lookups can bisect.
  static func makeNonDecreasing(_ us: inout [Double], in range: Range<Int>) {
    var blocks: [(sum: Double, count: Int)] = []
    for i in range {
      blocks.append((us[i], 1))
      while blocks.count > 1 {
        let last = blocks[blocks.count - 1]
        let previous = blocks[blocks.count - 2]
        guard previous.sum / Double(previous.count) > last.sum / Double(last.count) else { break }
        blocks.removeLast(2)
        blocks.append((previous.sum + last.sum, previous.count + last.count))
      }
    }
    var i = range.lowerBound
    for block in blocks {
      let mean = block.sum / Double(block.count)
      for _ in 0..<block.count {
        us[i] = mean
        i += 1
      }
    }
  }

  /// Trims the selection bands of lines that overlap a neighbour above or
  /// below, at the middle of the overlap, so selection rects never overlap.
  private static func trimOverlappingBands(_ lines: inout [LineEntry]) {
    guard lines.count > 1 else { return }
    let index = SpatialIndex(lines.map(\.bounds))
    var trimmed = lines
    for i in lines.indices {
      let a = lines[i].frame
      index.forEachItem(intersecting: lines[i].bounds) { j in
        guard j != i else { return }
        let b = lines[j].frame
        // Parallel lines, read either way (a right-to-left line's frame
        // runs opposite to a left-to-right one's).
        guard abs(a.axisU.dot(b.axisU)) > 0.99 else { return }
        // A curved neighbour is compared only where the two lines run
        // side by side: beyond this line's ends its frame runs level while
        // the neighbour bends on. And by its own outline, not its band: on
        // `redp5110_sampled` p15 (a diagram's labels read as two lines) a
        // line tilted 4° against its chord has its bottom edge start 9 px
        // after its top edge; its band ran that edge on level to the
        // chord's start, 5 px into the step cut in the line below, whose
        // whole selection was then trimmed 3 px and missed its first word.
        var corners = b.outlinePoints
        if a.isCurved || b.isCurved {
          let middle = (a.bandTop + a.bandBottom) / 2
          let ends = [a.point(u: 0, v: middle), a.point(u: a.length, v: middle)].map {
            min(max(b.local($0).u, 0), b.length)
          }
          guard let first = ends.min(), let last = ends.max(), last > first else { return }
          corners = b.outline(from: first, to: last)
        }
        // Only the part of the neighbour alongside this line counts: a line
        // of the next column that touches this one's start, sloped a little
        // differently, reaches across its band far from it, not beside it.
        let alongside = Self.clipped(corners.map { a.local($0) }, from: 0, to: a.length)
        guard let uMin = alongside.map(\.u).min(), let uMax = alongside.map(\.u).max(),
          uMax > uMin, let vMin = alongside.map(\.v).min(), let vMax = alongside.map(\.v).max()
        else { return }
        let bv = vMin...vMax
        let top = max(a.bandTop, bv.lowerBound)
        let bottom = min(a.bandBottom, bv.upperBound)
        // Only lines stacked one above the other are trimmed; a line that
        // overlaps another by more than half of either's height is a
        // conflict that verification reports, not something to hide.
        let thinner = min(a.bandBottom - a.bandTop, bv.upperBound - bv.lowerBound)
        guard bottom > top, bottom - top < thinner / 2 else { return }
        let middle = (top + bottom) / 2
        let aCentre = (a.bandTop + a.bandBottom) / 2
        let bCentre = (bv.lowerBound + bv.upperBound) / 2
        if bCentre > aCentre {
          trimmed[i].frame.bandBottom = min(trimmed[i].frame.bandBottom, middle)
        } else if bCentre < aCentre {
          trimmed[i].frame.bandTop = max(trimmed[i].frame.bandTop, middle)
        }
      }
    }
    lines = trimmed
  }

  /// The part of a polygon (points in a line's frame) between two values
  /// of `u` (Sutherland–Hodgman against the two bounds).
  static func clipped(_ polygon: [(u: Double, v: Double)], from lower: Double, to upper: Double)
    -> [(u: Double, v: Double)]
  {
    func clip(_ points: [(u: Double, v: Double)], at bound: Double, keepAbove: Bool)
      -> [(u: Double, v: Double)]
    {
      var out: [(u: Double, v: Double)] = []
      for (i, p) in points.enumerated() {
        let q = points[(i + 1) % points.count]
        let pIn = keepAbove ? p.u >= bound : p.u <= bound
        let qIn = keepAbove ? q.u >= bound : q.u <= bound
        if pIn { out.append(p) }
        if pIn != qIn {
          let t = (bound - p.u) / (q.u - p.u)
          out.append((bound, p.v + (q.v - p.v) * t))
        }
      }
      return out
    }
    return clip(clip(polygon, at: lower, keepAbove: true), at: upper, keepAbove: false)
  }

  private static func sentenceRanges(in text: String, units: [UInt16]) -> [Range<Int>] {
    let starts = SentenceSegmentation.sentenceStarts(in: text)
    guard !starts.isEmpty else { return [] }
    var ranges: [Range<Int>] = []
    for (k, start) in starts.enumerated() {
      var end = k + 1 < starts.count ? starts[k + 1] : units.count
      while end > start, isSpace(units[end - 1]) { end -= 1 }
      if end > start { ranges.append(start..<end) }
    }
    return ranges
  }

  static func isSpace(_ unit: UInt16) -> Bool { unit == 0x20 || unit == 0x0A }

  // MARK: Lookups

  /// Index of the last element of `starts` that is `<= offset`, or `nil`.
  static func lastIndex(in starts: [Int], atOrBefore offset: Int) -> Int? {
    LayoutSearch.lastIndex(count: starts.count, atOrBefore: offset) { starts[$0] }
  }

  private static func utf8Offsets(of text: String) -> [Int32] {
    var map: [Int32] = []
    map.reserveCapacity(text.utf16.count + 1)
    var byte: Int32 = 0
    for scalar in text.unicodeScalars {
      let units = UTF16.width(scalar)
      for _ in 0..<units { map.append(byte) }
      byte += Int32(UTF8.width(scalar))
    }
    map.append(byte)
    return map
  }

  /// The UTF-8 offset of a UTF-16 offset in `0...length`.
  func utf8Offset(_ offset: Int) -> Int {
    guard let utf8Offsets else { return offset }
    return Int(utf8Offsets[offset])
  }

  /// Whether `offset` falls between the two halves of a surrogate pair.
  func splitsScalar(_ offset: Int) -> Bool {
    guard let utf8Offsets, offset > 0, offset < length else { return false }
    return utf8Offsets[offset] == utf8Offsets[offset - 1]
  }

  /// The UTF-8 bytes of a UTF-16 range that splits no scalar.
  func utf8Bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
    utf8[utf8Offset(range.lowerBound)..<utf8Offset(range.upperBound)]
  }

  /// The UTF-16 offset of caret stop `i`.
  func stopOffset(_ i: Int) -> Int { Int(stopOffsets[i]) }

  /// The line whose range contains `offset` (ends included), or `nil` when
  /// the offset falls in the newlines between lines.
  func lineNumber(containing offset: Int) -> Int? {
    guard let i = Self.lastIndex(in: lineStarts, atOrBefore: offset) else { return nil }
    return lines[i].range.upperBound >= offset ? i : nil
  }

  /// The line the caret at `offset` belongs to: the line containing it, else
  /// the previous line (after its end), else the first line.
  func caretLineNumber(for offset: Int) -> Int? {
    guard !lines.isEmpty else { return nil }
    return Self.lastIndex(in: lineStarts, atOrBefore: offset) ?? 0
  }

  /// The word whose range contains `offset` (ends included), preferring the
  /// word that starts at `offset`.
  func wordIndex(containing offset: Int) -> Int? {
    guard let i = Self.lastIndex(in: wordStarts, atOrBefore: offset) else { return nil }
    return words[i].range.upperBound >= offset ? i : nil
  }

  /// The caret's `u` in line `n`'s frame for `offset` (clamped to the line).
  func caretU(line n: Int, offset: Int) -> Double {
    let stops = lines[n].stops
    guard !stops.isEmpty else { return 0 }
    let first = stops.lowerBound
    let last = stops.upperBound - 1
    if offset <= stopOffset(first) { return stopU[first] }
    if offset >= stopOffset(last) { return stopU[last] }
    // Binary search within this line's stops.
    var lo = first
    var hi = last
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if stopOffset(mid) <= offset { lo = mid } else { hi = mid }
    }
    if stopOffset(lo) == offset { return stopU[lo] }
    // Between two stops only inside a multi-unit glyph: interpolate.
    let span = stopOffset(hi) - stopOffset(lo)
    let share = Double(offset - stopOffset(lo)) / Double(max(span, 1))
    return stopU[lo] + (stopU[hi] - stopU[lo]) * share
  }

  /// The caret stop in line `n` nearest to `u`, by bisection.
  func nearestStop(line n: Int, u: Double) -> Int? {
    let stops = lines[n].stops
    guard !stops.isEmpty else { return nil }
    var lo = stops.lowerBound
    var hi = stops.upperBound
    while lo < hi {
      let mid = (lo + hi) / 2
      if stopU[mid] < u { lo = mid + 1 } else { hi = mid }
    }
    if lo == stops.upperBound { return lo - 1 }
    if lo == stops.lowerBound { return lo }
    return u - stopU[lo - 1] <= stopU[lo] - u ? lo - 1 : lo
  }

  /// The line nearest to `point`: the smallest distance from the point to
  /// a line's selection band (zero inside it). Ties (a point on the edge
  /// two bands share, or as far from two lines) go to the line whose band
  /// centre is nearer across the line, then to the earlier line.
  func nearestLine(to point: Point) -> Int? {
    guard !lines.isEmpty else { return nil }
    return spatial.nearest(
      to: point,
      distance: { self.lines[$0].frame.distance(to: point) },
      tieBreak: {
        let f = self.lines[$0].frame
        return abs(f.local(point).v - (f.bandTop + f.bandBottom) / 2) + Double($0) * 1e-9
      })
  }
}

extension PageLayout {
  /// Checks the index's invariants in debug builds (every page the tests
  /// build is checked); does nothing in release builds.
  func _checkInvariants() {
    assert(
      invariantViolations().isEmpty,
      "page layout invariants: \(invariantViolations().joined(separator: "; "))")
  }

  /// Every broken invariant of the index, described (empty when sound).
  ///
  /// Lines, words and caret stops partition the page in reading order: line
  /// and word ranges ascend without overlap inside the text, each word lies
  /// in its line, each line's words and stops are contiguous runs that
  /// follow the previous line's, stops lie in their line and their positions
  /// along the line never decrease; the search arrays mirror the entries;
  /// reader words and sentences ascend without overlap; the UTF-8 map has one
  /// entry per offset and never decreases; the spatial index is sound and
  /// holds one item per line.
  ///
  /// - Complexity: O(*n*) in the size of the page.
  func invariantViolations() -> [String] {
    var problems: [String] = []
    func check(_ ok: Bool, _ message: @autoclosure () -> String) {
      if !ok { problems.append(message()) }
    }
    check(lineStarts == lines.map(\.range.lowerBound), "lineStarts differ from the lines")
    check(wordStarts == words.map(\.range.lowerBound), "wordStarts differ from the words")
    var previousEnd = 0
    var nextWord = 0
    var nextStop = 0
    for (n, line) in lines.enumerated() {
      check(
        previousEnd <= line.range.lowerBound && line.range.upperBound <= length,
        "line \(n) range \(line.range) is out of order or outside the text")
      previousEnd = line.range.upperBound
      check(line.words.lowerBound == nextWord, "line \(n) words do not follow the previous line's")
      check(line.stops.lowerBound == nextStop, "line \(n) stops do not follow the previous line's")
      nextWord = line.words.upperBound
      nextStop = line.stops.upperBound
      var wordEnd = line.range.lowerBound
      for w in line.words where w < words.count {
        let word = words[w]
        check(word.lineNumber == n, "word \(w) names line \(word.lineNumber), not \(n)")
        check(
          wordEnd <= word.range.lowerBound && word.range.upperBound <= line.range.upperBound,
          "word \(w) range \(word.range) is out of order or outside line \(n)")
        wordEnd = word.range.upperBound
      }
      for s in line.stops where s < stopOffsets.count {
        check(
          line.range.contains(stopOffset(s)) || stopOffset(s) == line.range.upperBound,
          "stop \(s) at \(stopOffset(s)) is outside line \(n)")
        if s > line.stops.lowerBound {
          check(stopU[s - 1] <= stopU[s], "stops of line \(n) go backwards at \(s)")
        }
      }
    }
    check(nextWord == words.count, "\(words.count - nextWord) words belong to no line")
    check(nextStop == stopOffsets.count, "\(stopOffsets.count - nextStop) stops belong to no line")
    check(stopU.count == stopOffsets.count, "stop arrays differ in length")
    for (name, ranges) in [("reader word", readerWords), ("sentence", sentences)] {
      var end = 0
      for (i, r) in ranges.enumerated() {
        check(end <= r.lowerBound && r.upperBound <= length, "\(name) \(i) \(r) is out of order")
        end = r.upperBound
      }
    }
    if let utf8Offsets {
      check(utf8Offsets.count == length + 1, "the UTF-8 map has \(utf8Offsets.count) entries")
      check(
        zip(utf8Offsets, utf8Offsets.dropFirst()).allSatisfy { $0 <= $1 }, "the UTF-8 map decreases"
      )
      check(
        Int(utf8Offsets.last ?? 0) == utf8.count, "the UTF-8 map does not end at the text's end")
    } else {
      check(utf8.count == length, "no UTF-8 map for a text that is not ASCII")
    }
    problems += spatial.invariantViolations().map { "spatial index: \($0)" }
    check(
      spatial.count == lines.count,
      "the spatial index holds \(spatial.count) items for \(lines.count) lines")
    return problems
  }
}
