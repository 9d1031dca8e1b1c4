/// Mends the two ways Tesseract's page segmentation cuts a column's text
/// lines wrongly, judged by where the whitespace between columns (their
/// *rivers*) runs.
///
/// On the `columns` family's develop seeds 1000–1039 and the pages of that
/// kind Tesseract's lines go wrong in two ways (its words are right; only
/// their grouping is not):
///
/// 1. **Words of a justified line cut out.** A justified line of a narrow
///    column stretches its spaces, and Tesseract takes a wide one for a
///    gap between columns: the words after it (or between two such
///    spaces) come out as a paragraph of their own, read after the whole
///    column (`columns-1000`, `-1038`: "concerns." of "problems or
///    concerns. Each", "for communication" of "protocols for
///    communication"). ``mendingLines(_:)`` puts such a fragment back into
///    the line at its height when the gap between them is no river: the
///    fragment lies within the horizontal span of the line's paragraph and
///    a line above or below it in that paragraph runs across the gap.
/// 2. **A line merged across a gutter.** A note in the margin printed at
///    the height of a paragraph's first line is read into that line ("To
///    use this License in a document you Library in a tool for
///    writing."). A line is cut at a gap between two words when the gap is
///    at least the line's height and no other line of its paragraph (two
///    at least) reaches into it: the column's edge runs down the gap, and
///    the part beyond it is a paragraph of its own, read right after the
///    paragraph it sits beside.
///
/// Lines with a quad or an outline (turned, skewed or curved lines) and
/// lines running up or down the page are left as they are.
public enum ColumnLines {
  /// The blocks with fragments of justified lines put back into their
  /// lines and lines merged across a gutter cut there.
  /// - Parameter blocks: A page's blocks, boxes in original-image pixels.
  /// - Returns: The mended blocks; the same blocks when nothing applies.
  /// - Complexity: O(*l*²) in the number of lines.
  public static func mendingLines(_ blocks: [Block]) -> [Block] {
    // A fragment's row mended first may be the neighbour that shows
    // another fragment's gap to be no river ("conflict-of-law" and
    // "provisions." above "Nothing" "in this" "Section shall"): a few
    // rounds, until nothing moves.
    var joined = blocks
    for _ in 0..<4 {
      let next = joiningFragments(joined)
      if next == joined { break }
      joined = next
    }
    return splittingAtRivers(joined)
  }

  /// Whether a line is upright, straight and runs left to right.
  static func isPlain(_ line: TextLine) -> Bool {
    guard line.quad == nil, line.polygon == nil, !line.words.isEmpty else { return false }
    if let baseline = line.baseline {
      let d = baseline.end - baseline.start
      return abs(d.x) > abs(d.y)
    }
    return true
  }

  /// Rule 1: each fragment line put back into the line at its height.
  static func joiningFragments(_ blocks: [Block]) -> [Block] {
    var blocks = blocks
    typealias Path = (block: Int, paragraph: Int, line: Int)
    var paths: [Path] = []
    for (b, block) in blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        for l in paragraph.lines.indices { paths.append((b, p, l)) }
      }
    }
    var moved: [(from: Path, to: Path)] = []
    var taken = Set<Int>()
    var hosts = Set<Int>()
    for (i, from) in paths.enumerated() where !hosts.contains(i) {
      let fragment = blocks[from.block].paragraphs[from.paragraph].lines[from.line]
      guard isPlain(fragment) else { continue }
      for (j, to) in paths.enumerated()
      where j != i && !taken.contains(j) && !hosts.contains(i) {
        let host = blocks[to.block].paragraphs[to.paragraph]
        let line = host.lines[to.line]
        guard isPlain(line), isFragment(fragment, of: line, at: to.line, in: host) else {
          continue
        }
        moved.append((from, to))
        taken.insert(i)
        hosts.insert(j)
        break
      }
    }
    guard !moved.isEmpty else { return blocks }
    // Words into their hosts first, then the emptied lines out.
    for (from, to) in moved {
      let fragment = blocks[from.block].paragraphs[from.paragraph].lines[from.line]
      var line = blocks[to.block].paragraphs[to.paragraph].lines[to.line]
      line.words = (line.words + fragment.words).sorted { $0.bbox.minX < $1.bbox.minX }
      line.bbox = line.bbox.union(fragment.bbox)
      line.baseline = line.baseline.map { stretch($0, to: line.bbox) }
      blocks[to.block].paragraphs[to.paragraph].lines[to.line] = line
    }
    let emptied = moved.map(\.from).sorted {
      ($0.block, $0.paragraph, $0.line) > ($1.block, $1.paragraph, $1.line)
    }
    for from in emptied {
      blocks[from.block].paragraphs[from.paragraph].lines.remove(at: from.line)
    }
    return rebuilt(blocks, touched: Set(moved.flatMap { [$0.from.block, $0.to.block] }))
  }

  /// Whether `fragment` belongs in `line` (line `index` of `host`, which
  /// may hold the fragment too): at its height, its words beside or
  /// between the line's without touching them, within the paragraph's
  /// span, and the nearest line of the paragraph above or below the row
  /// runs across both: no river between them.
  static func isFragment(
    _ fragment: TextLine, of line: TextLine, at index: Int, in host: Paragraph
  ) -> Bool {
    let a = fragment.bbox
    let b = line.bbox
    // The same row: they share most of the smaller one's height, and the
    // fragment is no taller (a fragment of x-height letters, "concerns.",
    // is half as tall as its line).
    let shared = min(a.maxY, b.maxY) - max(a.minY, b.minY)
    guard shared * 10 >= min(a.height, b.height) * 6, a.height * 10 <= b.height * 14
    else { return false }
    // Words beside each other, never over each other ("use of file is"
    // and "the object" interleave: "use of the object file is").
    for w in fragment.words {
      for v in line.words where min(w.bbox.maxX, v.bbox.maxX) > max(w.bbox.minX, v.bbox.minX) {
        return false
      }
    }
    // Within the paragraph's column.
    let slack = max(2, b.height / 4)
    guard a.minX >= host.bbox.minX - slack, a.maxX <= host.bbox.maxX + slack else { return false }
    // The nearest line of the paragraph above the row or below it runs
    // across both (the fragment may be a line of the same paragraph:
    // it shares the row, so it is no neighbour). Middles, not edges:
    // boxes of tightly set lines overlap a little.
    let span = a.union(b)
    let rows = host.lines.indices.filter { $0 != index }.map { host.lines[$0].bbox }
    let above = rows.filter { ($0.minY + $0.maxY) / 2 < b.minY }.max { $0.maxY < $1.maxY }
    let below = rows.filter { ($0.minY + $0.maxY) / 2 > b.maxY }.min { $0.minY < $1.minY }
    return [above, below].contains { box in
      guard let box else { return false }
      return box.minX <= span.minX + slack && box.maxX >= span.maxX - slack
    }
  }

  /// Rule 2: lines merged across a gutter cut there, the stray part a
  /// paragraph of its own in a block right after its paragraph's.
  static func splittingAtRivers(_ blocks: [Block]) -> [Block] {
    var out: [Block] = []
    var changed = false
    for block in blocks {
      guard block.paragraphs.contains(where: { split($0) != nil }) else {
        out.append(block)
        continue
      }
      var current: [Paragraph] = []
      for paragraph in block.paragraphs {
        guard let (kept, stray) = split(paragraph) else {
          current.append(paragraph)
          continue
        }
        changed = true
        current.append(kept)
        out.append(
          Block(bbox: PixelRect.union(current.map(\.bbox)) ?? kept.bbox, paragraphs: current))
        out.append(Block(bbox: stray.bbox, paragraphs: [stray]))
        current = []
      }
      if !current.isEmpty {
        out.append(
          Block(bbox: PixelRect.union(current.map(\.bbox)) ?? block.bbox, paragraphs: current))
      }
    }
    return changed ? out : blocks
  }

  /// The paragraph without the stray part of its one line merged across a
  /// gutter, and that part as a paragraph; `nil` when no line is.
  static func split(_ paragraph: Paragraph) -> (Paragraph, Paragraph)? {
    guard paragraph.lines.count >= 3 else { return nil }
    for (i, line) in paragraph.lines.enumerated() where isPlain(line) && line.words.count >= 2 {
      let others = paragraph.lines.indices.filter { $0 != i }.map { paragraph.lines[$0].bbox }
      let words = line.words.sorted { $0.bbox.minX < $1.bbox.minX }
      // The widest gap between two words.
      guard
        let cut = words.indices.dropFirst().max(by: {
          words[$0].bbox.minX - words[$0 - 1].bbox.maxX
            < words[$1].bbox.minX - words[$1 - 1].bbox.maxX
        })
      else { continue }
      let gapStart = words[cut - 1].bbox.maxX
      let gapEnd = words[cut].bbox.minX
      guard gapEnd - gapStart >= line.bbox.height else { continue }
      // The paragraph's edge runs down the gap: no other line reaches its
      // middle (a ragged edge may reach a little into it: on the
      // `columns-9019` kind of page a longer line ends 5 px past the
      // first line's last word).
      let middle = (gapStart + gapEnd) / 2
      let strayRight = others.allSatisfy { $0.maxX <= middle }
      let strayLeft = others.allSatisfy { $0.minX >= middle }
      guard strayRight || strayLeft else { continue }
      let keptWords = strayRight ? Array(words[..<cut]) : Array(words[cut...])
      let strayWords = strayRight ? Array(words[cut...]) : Array(words[..<cut])
      // A note is words: a lone quote mark hung in the margin before a
      // line (`c02-22-embedded-000.jpg`, a real page) stays in its line.
      guard strayWords.reduce(0, { $0 + $1.text.filter(\.isLetter).count }) >= 4 else {
        continue
      }
      var kept = line
      kept.words = keptWords
      kept.bbox = PixelRect.union(keptWords.map(\.bbox)) ?? line.bbox
      kept.baseline = line.baseline.map { clip($0, to: kept.bbox) }
      var stray = line
      stray.words = strayWords
      stray.bbox = PixelRect.union(strayWords.map(\.bbox)) ?? line.bbox
      stray.baseline = line.baseline.map { clip($0, to: stray.bbox) }
      var lines = paragraph.lines
      lines[i] = kept
      var keptParagraph = paragraph
      keptParagraph.lines = lines
      keptParagraph.bbox = PixelRect.union(lines.map(\.bbox)) ?? paragraph.bbox
      return (keptParagraph, Paragraph(bbox: stray.bbox, lines: [stray]))
    }
    return nil
  }

  /// The baseline through the same line, from `box`'s left edge to its
  /// right edge.
  static func stretch(_ baseline: Baseline, to box: PixelRect) -> Baseline {
    clip(baseline, to: box)
  }

  /// The baseline's line between the vertical lines through `box`'s left
  /// and right edges.
  static func clip(_ baseline: Baseline, to box: PixelRect) -> Baseline {
    let d = baseline.end - baseline.start
    guard abs(d.x) > 0 else { return baseline }
    func at(_ x: Double) -> Point {
      Point(x: x, y: baseline.start.y + (x - baseline.start.x) * d.y / d.x)
    }
    return Baseline(start: at(Double(box.minX)), end: at(Double(box.maxX)))
  }

  /// The `touched` blocks without emptied lines and paragraphs, their
  /// boxes and their paragraphs' their contents' again; the other blocks
  /// as they are.
  static func rebuilt(_ blocks: [Block], touched: Set<Int>) -> [Block] {
    blocks.enumerated().compactMap { index, block -> Block? in
      guard touched.contains(index) else { return block }
      let paragraphs = block.paragraphs.compactMap { paragraph -> Paragraph? in
        guard let box = PixelRect.union(paragraph.lines.map(\.bbox)) else { return nil }
        var p = paragraph
        p.bbox = box
        return p
      }
      guard let box = PixelRect.union(paragraphs.map(\.bbox)) else { return nil }
      var b = block
      b.paragraphs = paragraphs
      b.bbox = box
      return b
    }
  }
}
