import Foundation
import ScanModel

/// Tesseract's TSV: one row per page, block, paragraph, line and word.
///
/// Columns: `level page_num block_num par_num line_num word_num left top
/// width height conf text`. Levels are 1 (page), 2 (block), 3 (paragraph),
/// 4 (line) and 5 (word); numbers count from 1 within their parent (0 for
/// levels above the row's); boxes are left, top, width and height; `conf` is
/// `-1` above the word level and the word's confidence with six decimals,
/// as `tesseract IMAGE - tsv` prints it.
public enum TSV {
  /// The header row.
  public static let header =
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"

  /// The document as TSV, header first, one row per line ending in `\n`.
  public static func encode(_ document: Document) -> String {
    header + "\n" + document.pages.map(rows(of:)).joined()
  }

  /// A page's rows (``DocumentWriter`` writes them page by page).
  static func rows(of page: Page) -> String {
    var out = ""
    let n = page.index + 1
    func row(
      _ level: Int, _ ids: (Int, Int, Int, Int), _ r: PixelRect, _ conf: String, _ text: String
    ) {
      out +=
        "\(level)\t\(n)\t\(ids.0)\t\(ids.1)\t\(ids.2)\t\(ids.3)\t\(r.minX)\t\(r.minY)\t\(r.width)\t\(r.height)\t\(conf)\t\(text)\n"
    }
    row(
      1, (0, 0, 0, 0), PixelRect(minX: 0, minY: 0, maxX: page.width, maxY: page.height), "-1", "")
    for (b, block) in page.blocks.enumerated() {
      row(2, (b + 1, 0, 0, 0), block.bbox, "-1", "")
      for (p, paragraph) in block.paragraphs.enumerated() {
        row(3, (b + 1, p + 1, 0, 0), paragraph.bbox, "-1", "")
        for (l, line) in paragraph.lines.enumerated() {
          row(4, (b + 1, p + 1, l + 1, 0), line.bbox, "-1", "")
          for (w, word) in line.words.enumerated() {
            row(
              5, (b + 1, p + 1, l + 1, w + 1), word.bbox, confidence(word.confidence),
              clean(word.text))
          }
        }
      }
    }
    return out
  }

  /// A confidence as C's `%f` prints it (Tesseract's `std::to_string`).
  static func confidence(_ c: Double?) -> String {
    guard let c, c.isFinite else { return "-1" }
    return String(format: "%f", c)
  }

  /// Tabs and newlines cannot appear in a TSV cell: they become spaces.
  static func clean(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }
}

// MARK: - Reading

extension TSV {
  /// Reads Tesseract TSV (the header row first). Words whose text is empty
  /// or only spaces are left out, as Tesseract's text output leaves them
  /// out; a confidence of -1 means none.
  /// - Throws: ``DocumentFormatError`` naming the row (`line N`) and the reason.
  public static func decode(_ text: String) throws(DocumentFormatError) -> Document {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasSuffix("\r") ? $0.dropLast() : $0
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    guard let first = lines.first else {
      throw DocumentFormatError(path: "line 1", reason: "empty: no TSV header")
    }
    let expected = header.split(separator: "\t")
    guard first.split(separator: "\t", omittingEmptySubsequences: false).elementsEqual(expected)
    else {
      throw DocumentFormatError(
        path: "line 1", reason: "not Tesseract TSV: the header must be '\(header)'")
    }

    struct PageDraft {
      var number: Int
      var box: PixelRect
      var blocks:
        [(box: PixelRect, paragraphs: [(box: PixelRect, lines: [(box: PixelRect, words: [Word])])])] =
          []
    }
    var drafts: [PageDraft] = []
    var keys = (block: -1, par: -1, line: -1)
    for (i, raw) in lines.enumerated().dropFirst() {
      let path = "line \(i + 1)"
      func fail(_ reason: String) -> DocumentFormatError {
        DocumentFormatError(path: path, reason: reason)
      }
      if raw.isEmpty { continue }
      let cells = raw.split(separator: "\t", maxSplits: 11, omittingEmptySubsequences: false)
      guard cells.count == 12 else {
        throw fail("expected 12 tab-separated columns, found \(cells.count)")
      }
      var ints: [Int] = []
      for (c, name) in [
        "level", "page_num", "block_num", "par_num", "line_num", "word_num", "left", "top", "width",
        "height",
      ].enumerated() {
        guard let v = Int(cells[c]) else {
          throw fail("'\(name)' is not an integer: '\(cells[c])'")
        }
        // Not `abs(v)`: it traps on Int.min, which `Int(_:)` reads from
        // "-9223372036854775808" (found by Tools/check/fuzz.sh on CI).
        let limit = Int(ImportGeometry.coordinateLimit)
        guard -limit <= v, v <= limit else {
          throw fail("'\(name)' lies beyond ±\(Int(ImportGeometry.coordinateLimit))")
        }
        ints.append(v)
      }
      guard ints[8] >= 0, ints[9] >= 0 else { throw fail("negative width or height") }
      let box = PixelRect(
        minX: ints[6], minY: ints[7], maxX: ints[6] + ints[8], maxY: ints[7] + ints[9])
      guard let conf = Double(cells[10]), conf.isFinite else {
        throw fail("'conf' is not a number: '\(cells[10])'")
      }
      let level = ints[0]
      if level == 1 {
        drafts.append(PageDraft(number: ints[1], box: box))
        keys = (-1, -1, -1)
        continue
      }
      guard (2...5).contains(level) else { throw fail("'level' must be 1 to 5, not \(level)") }
      guard !drafts.isEmpty else {
        throw fail("a level \(level) row before any page row (level 1)")
      }
      let d = drafts.count - 1
      if ints[2] != keys.block {
        drafts[d].blocks.append((box, []))
        keys = (ints[2], -1, -1)
      }
      let b = drafts[d].blocks.count - 1
      if level == 2 { continue }
      if ints[3] != keys.par {
        drafts[d].blocks[b].paragraphs.append((box, []))
        keys.par = ints[3]
        keys.line = -1
      }
      let p = drafts[d].blocks[b].paragraphs.count - 1
      if level == 3 { continue }
      if ints[4] != keys.line {
        drafts[d].blocks[b].paragraphs[p].lines.append((box, []))
        keys.line = ints[4]
      }
      if level == 4 { continue }
      let l = drafts[d].blocks[b].paragraphs[p].lines.count - 1
      let text = String(cells[11])
      drafts[d].blocks[b].paragraphs[p].lines[l].words += ImportSupport.word(
        text: text, box: box, quad: nil, confidence: ImportSupport.confidence(conf), glyphs: [])
    }
    var pages: [Page] = []
    for draft in drafts {
      let blocks = draft.blocks.map { block in
        let paragraphs = block.paragraphs.map { paragraph in
          let lines = paragraph.lines.map { line in
            TextLine(bbox: line.box.union(all: line.words.map(\.bbox)), words: line.words)
          }
          return Paragraph(bbox: paragraph.box.union(all: lines.map(\.bbox)), lines: lines)
        }
        return Block(bbox: block.box.union(all: paragraphs.map(\.bbox)), paragraphs: paragraphs)
      }
      pages.append(
        try ModelLimits.checked(
          Page(index: pages.count, width: draft.box.maxX, height: draft.box.maxY, blocks: blocks),
          name: "page \(pages.count + 1)"))
    }
    return Document(pages: pages)
  }
}
