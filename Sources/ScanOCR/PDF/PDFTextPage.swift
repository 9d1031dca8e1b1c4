import CScanOCR
import Foundation
import ScanModel

/// The text a PDF page already carries (born-digital text, or an earlier
/// text layer), as Poppler reads it: one entry per Unicode scalar.
struct PDFPageText: Sendable {
  /// One character of the text and where it is drawn.
  struct Character: Sendable {
    var scalar: Unicode.Scalar
    /// Its box in points on the page as displayed (after `/Rotate`),
    /// origin top-left: the glyph's advance along the line, the font's
    /// ascent to descent across it. A space's box is the gap between its
    /// words; a newline's is empty.
    var box: Rect
    /// Its font size in points; 0 when unknown.
    var fontSize: Double
  }

  /// In Poppler's order: its lines, each ended by `\n` (the last one not),
  /// words joined by one space.
  var characters: [Character]

  /// Whether the text is set at a slant: the median slope of Poppler's
  /// lines of at least four glyphs (least squares through their boxes'
  /// centres) is 0.5° or more, over at least three such lines. An OCR
  /// layer on a skewed scan draws each word turned; Poppler gives it in
  /// pieces ("Remov" + "e", lines split across blocks), so it is not read
  /// from (see ``PDFDocument/textPage(page:policy:options:)``). A level
  /// line's boxes share their top and bottom: its slope is 0.
  var isSlanted: Bool {
    var slopes: [Double] = []
    var line: [Rect] = []
    func endLine() {
      defer { line = [] }
      guard line.count >= 4 else { return }
      let xs = line.map(\.center.x)
      let ys = line.map(\.center.y)
      let mx = xs.reduce(0, +) / Double(xs.count)
      let my = ys.reduce(0, +) / Double(ys.count)
      let sxx = zip(xs, xs).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - mx) }
      let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
      // Lines read across (a turned page) have no slope to measure here.
      guard sxx > 0, (xs.max() ?? 0) - (xs.min() ?? 0) > (ys.max() ?? 0) - (ys.min() ?? 0)
      else { return }
      slopes.append(abs(sxy / sxx))
    }
    for c in characters {
      if c.scalar == "\n" {
        endLine()
      } else if !c.scalar.properties.isWhitespace {
        line.append(c.box)
      }
    }
    endLine()
    guard slopes.count >= 3 else { return false }
    let median = slopes.sorted()[slopes.count / 2]
    return median >= tan(0.5 * Double.pi / 180)
  }
}

extension PDFDocument {
  /// Page `index`'s own text with each character's box.
  ///
  /// - Returns: The text; `nil` when Poppler's text and its boxes do not
  ///   pair up one to one (never seen: checked on every page of the PDFs
  ///   in the test suite and of two born-digital manuals); the page is then
  ///   recognised as if it had no text.
  /// - Throws: ``OCRError/corruptPDFPage(path:page:)``.
  func text(page index: Int) throws(OCRError) -> PDFPageText? {
    var raw = scantext_pdf_text()
    guard let page = located(index), scantext_pdf_page_text(page.handle, page.index, &raw) == 0
    else {
      throw .corruptPDFPage(path: path, page: index)
    }
    defer { scantext_pdf_text_free(&raw) }
    guard raw.count > 0, let bytes = raw.text, let boxes = raw.boxes, let sizes = raw.sizes else {
      return PDFPageText(characters: [])
    }
    guard let string = String(validatingCString: bytes) else { return nil }
    var scalars = Array(string.unicodeScalars)
    if scalars.count == raw.count + 1, scalars.last == "\n" { scalars.removeLast() }
    guard scalars.count == raw.count else { return nil }
    var characters: [PDFPageText.Character] = []
    characters.reserveCapacity(scalars.count)
    for (i, scalar) in scalars.enumerated() {
      let b = (boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3])
      guard b.0.isFinite, b.1.isFinite, b.2.isFinite, b.3.isFinite else { return nil }
      characters.append(
        PDFPageText.Character(
          scalar: scalar,
          box: Rect(
            minX: min(b.0, b.2), minY: min(b.1, b.3), maxX: max(b.0, b.2), maxY: max(b.1, b.3)),
          fontSize: sizes[i].isFinite && sizes[i] > 0 ? sizes[i] : 0))
    }
    return PDFPageText(characters: characters)
  }
}

/// Builds the model of a PDF page from the text it carries, in the pixels
/// of the page rendered as ``PDFDocument/rendering(page:info:dpi:maxPixels:)``
/// plans it, so that a page read from its text and the same page
/// recognised share one frame.
///
/// - **Glyphs** are grapheme clusters of Poppler's text; a glyph's box is
///   its characters' boxes (the advance along the line, the font's ascent
///   to descent across it: the boxes `pdftotext -bbox` reports), scaled
///   to pixels, edges rounded to the nearest pixel (at least one pixel
///   wide and tall). Confidence 100: the text is the file's own, not a
///   guess; no format shows such a word as uncertain.
/// - **Words** are split at spaces (Poppler puts one between words), a
///   word's box is its glyphs'. **Lines** are Poppler's lines. A line's
///   direction (read left to right, down, right to left or up, as drawn
///   on the displayed page) comes from its first and last glyphs; the
///   page's ``ScanModel/Page/orientation`` is the direction most glyphs
///   are read in, and lines of a turned page carry quads, as recognised
///   turned pages do.
/// - Fonts' ascent and descent often reach past the line spacing (set
///   solid, or a font with tall accents): where two lines of a column
///   overlap by less than half a line, both are cut at the middle of the
///   overlap, so that selections never overlap (`verify`).
/// - **Blocks and paragraphs** (Poppler's GLib API gives none) come from
///   the page turned upright, by recursive cuts along the white space
///   between lines (``Layout``); then ``ScanModel/RoleDetection`` assigns
///   roles and, for the reading layout, ``ScanModel/ReadingOrder`` orders
///   them, as on a recognised page. Roles are decided on boxes the height
///   of each word's ink (its font size times
///   ``ScanModel/RoleDetection/emShare(of:)``), the boxes the rules were
///   made for.
enum PDFTextPage {
  /// The blocks of a page and the way its text is turned.
  /// - Parameters:
  ///   - text: The page's text.
  ///   - width: The rendering's width in pixels.
  ///   - height: The rendering's height in pixels.
  ///   - pointsWide: The displayed page's width in points.
  ///   - pointsHigh: The displayed page's height in points.
  ///   - layout: The order paragraphs are read in.
  static func blocks(
    _ text: PDFPageText, width: Int, height: Int, pointsWide: Double, pointsHigh: Double,
    layout: PageLayoutOrder
  ) -> (blocks: [Block], orientation: Int) {
    let sx = Double(width) / pointsWide
    let sy = Double(height) / pointsHigh
    let scale = (sx + sy) / 2
    let displayed = lines(
      text, scaleX: sx, scaleY: sy, fontScale: scale, width: Double(width),
      height: Double(height))
    guard !displayed.isEmpty else { return ([], 0) }
    // The page's orientation: the direction most glyphs are read in.
    var counts: [Int: Int] = [:]
    for line in displayed {
      counts[line.direction, default: 0] += line.words.reduce(0) { $0 + $1.glyphs.count }
    }
    let orientation = [0, 90, 180, 270].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? 0
    let frame = TurnedFrame(orientation: orientation, width: Double(width), height: Double(height))
    var upright = displayed.map { frame.upright($0) }
    if sizesFollowWords(upright) {
      // Sizes that tell nothing of the type: treated as unknown.
      for l in upright.indices {
        for w in upright[l].words.indices {
          for g in upright[l].words[w].glyphs.indices { upright[l].words[w].glyphs[g].size = 0 }
        }
      }
    }
    Layout.trimOverlaps(&upright)
    let groups = Layout(lines: upright).blocks()
    var blocks = build(groups, upright, frame: frame, forRoles: false)
    let roles = RoleDetection.assigningRoles(
      to: build(groups, upright, frame: frame, forRoles: true),
      pageWidth: Int(frame.uprightWidth.rounded()), pageHeight: Int(frame.uprightHeight.rounded()))
    for b in blocks.indices {
      for p in blocks[b].paragraphs.indices {
        blocks[b].paragraphs[p].role = roles[b].paragraphs[p].role
        blocks[b].paragraphs[p].headingLevel = roles[b].paragraphs[p].headingLevel
      }
    }
    guard layout == .reading else { return (blocks, orientation) }
    return (
      ReadingOrder.ordering(
        blocks, pageWidth: width, pageHeight: height, orientation: orientation),
      orientation
    )
  }

  /// Whether the font sizes follow each word's height rather than the
  /// type's: an OCR text layer (ScanText's, Tesseract's, OCRmyPDF's) sets
  /// each invisible word in the size that makes it as tall as its box, so
  /// "third" and "page" get different sizes on one line. When at least
  /// 30 % of the lines of three or more words have a word whose size is
  /// more than 5 % off the line's median (born-digital lines have one size,
  /// but for the odd superscript), sizes are not used: paragraphs are not
  /// split at a size change, and roles are decided on the boxes themselves
  /// (which, on such a layer, are the recognised words' ink boxes).
  static func sizesFollowWords(_ lines: [TextLine]) -> Bool {
    var counted = 0
    var varied = 0
    for line in lines where line.words.count >= 3 {
      let sizes = line.words.map { $0.glyphs.map(\.size).max() ?? 0 }
      let middle = median(sizes)
      guard middle > 0 else { continue }
      counted += 1
      if sizes.contains(where: { abs($0 - middle) > 0.05 * middle }) { varied += 1 }
    }
    return counted > 0 && Double(varied) >= 0.3 * Double(counted)
  }

  /// A glyph: its text, box in pixels and font size in pixels.
  struct TextGlyph {
    var text: String
    var box: Rect
    var size: Double
  }

  /// A word: its glyphs.
  struct TextWord {
    var glyphs: [TextGlyph]
    var text: String { glyphs.map(\.text).joined() }
    var box: Rect { union(glyphs.map(\.box)) }
  }

  /// One of Poppler's lines.
  struct TextLine {
    var words: [TextWord]
    /// The way it is read on the displayed page: 0 (left to right), 90
    /// (down), 180 (right to left, upside down) or 270 (up).
    var direction: Int
    var box: Rect { union(words.map(\.box)) }
    /// Its font size in pixels: the median of its glyphs' (0 when unknown).
    var size: Double {
      median(words.flatMap { $0.glyphs.map(\.size) }.filter { $0 > 0 })
    }
  }

  /// Poppler's lines in display pixels, words split at white space,
  /// glyphs grouped into grapheme clusters.
  static func lines(
    _ text: PDFPageText, scaleX: Double, scaleY: Double, fontScale: Double, width: Double,
    height: Double
  ) -> [TextLine] {
    func pixels(_ r: Rect) -> Rect {
      Rect(
        minX: min(max(r.minX * scaleX, 0), width), minY: min(max(r.minY * scaleY, 0), height),
        maxX: min(max(r.maxX * scaleX, 0), width), maxY: min(max(r.maxY * scaleY, 0), height))
    }
    var out: [TextLine] = []
    var words: [TextWord] = []
    var run: [PDFPageText.Character] = []
    func endWord() {
      guard !run.isEmpty else { return }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: run.map(\.scalar))
      var glyphs: [TextGlyph] = []
      var next = 0
      for cluster in String(scalars) {
        let n = cluster.unicodeScalars.count
        let part = run[next..<min(run.count, next + n)]
        next += n
        glyphs.append(
          TextGlyph(
            text: String(cluster), box: pixels(union(part.map(\.box))),
            size: (part.map(\.fontSize).max() ?? 0) * fontScale))
      }
      words.append(TextWord(glyphs: glyphs))
      run = []
    }
    func endLine() {
      endWord()
      guard !words.isEmpty else { return }
      out += split(words)
      words = []
    }
    for c in text.characters {
      if c.scalar == "\n" {
        endLine()
      } else if c.scalar.properties.isWhitespace {
        endWord()
      } else {
        run.append(c)
      }
    }
    endLine()
    // A line of one glyph has no direction of its own: its neighbours'.
    for i in out.indices where out[i].words.count == 1 && out[i].words[0].glyphs.count == 1 {
      out[i].direction = (i > 0 ? out[i - 1] : out.count > 1 ? out[1] : out[i]).direction
    }
    return out
  }

  /// A line of Poppler's, as lines of glyphs that follow each other.
  /// Poppler sometimes runs a word on into a word of another row or column
  /// without a space or a newline (a code listing's columns, in the shared
  /// MIME spec: "12*N_GLOBS" then "N_GLOBS" of the row above, as one word;
  /// on ScanText's own PDF of two narrow columns, "rest" then
  /// "millimetres" of the next column): a glyph whose centre stands off
  /// the previous glyph's across the line by more than half the taller
  /// one's height, or that goes back along it by as much, starts a new
  /// line, and so does a glyph of the same word after a gap wider than
  /// that height (within a word, nothing is that far apart).
  static func split(_ words: [TextWord]) -> [TextLine] {
    let direction = direction(of: words)
    let along = direction % 180 == 0
    let sign: Double = direction == 0 || direction == 90 ? 1 : -1
    func start(_ r: Rect) -> Double {
      sign * (along ? (sign > 0 ? r.minX : r.maxX) : (sign > 0 ? r.minY : r.maxY))
    }
    func end(_ r: Rect) -> Double {
      sign * (along ? (sign > 0 ? r.maxX : r.minX) : (sign > 0 ? r.maxY : r.minY))
    }
    func across(_ r: Rect) -> Double { along ? r.center.y : r.center.x }
    func height(_ r: Rect) -> Double { along ? r.height : r.width }
    var lines: [[TextWord]] = [[]]
    var previous: Rect?
    for word in words {
      var current = TextWord(glyphs: [])
      for glyph in word.glyphs {
        if let p = previous {
          let tall = max(height(p), height(glyph.box))
          let back = end(p) - start(glyph.box)
          if abs(across(glyph.box) - across(p)) > tall / 2 || back > tall / 2
            || (-back > tall && !current.glyphs.isEmpty)
          {
            if !current.glyphs.isEmpty { lines[lines.count - 1].append(current) }
            current = TextWord(glyphs: [])
            lines.append([])
          }
        }
        current.glyphs.append(glyph)
        previous = glyph.box
      }
      if !current.glyphs.isEmpty { lines[lines.count - 1].append(current) }
    }
    return lines.filter { !$0.isEmpty }.map { TextLine(words: $0, direction: direction) }
  }

  /// The way a line is read: from its first glyph's centre to the next
  /// one's in its first word of several glyphs, else to its last glyph's.
  static func direction(of words: [TextWord]) -> Int {
    let pair = words.first { $0.glyphs.count > 1 }.map { ($0.glyphs[0], $0.glyphs[1]) }
    guard let first = (pair?.0 ?? words.first?.glyphs.first)?.box.center,
      let last = (pair?.1 ?? words.last?.glyphs.last)?.box.center
    else { return 0 }
    let dx = last.x - first.x
    let dy = last.y - first.y
    if abs(dx) >= abs(dy) { return dx >= 0 ? 0 : 180 }
    return dy > 0 ? 90 : 270
  }

  /// The model's blocks from the layout's groups (blocks of paragraphs of
  /// line indices), in display pixels; or, `forRoles`, in the upright
  /// frame with each word as tall as its ink would be.
  static func build(
    _ groups: [[[Int]]], _ lines: [TextLine], frame: TurnedFrame, forRoles: Bool
  ) -> [Block] {
    groups.map { paragraphs in
      let built = paragraphs.map { indices in
        let built = indices.map { i in
          let line = lines[i]
          let direction = forRoles ? 0 : frame.displayed(direction: line.direction)
          let words = line.words.map { word in
            let glyphs = word.glyphs.map { glyph in
              let box = forRoles ? pixelRect(glyph.box) : pixelRect(frame.displayed(glyph.box))
              return Glyph(
                text: glyph.text, bbox: box, quad: quad(box, direction: direction),
                confidence: 100)
            }
            var box = PixelRect.union(glyphs.map(\.bbox)) ?? pixelRect(word.box)
            if forRoles { box = inkBox(word, line: line) }
            return Word(
              text: word.text, bbox: box, quad: quad(box, direction: direction),
              confidence: 100, glyphs: glyphs)
          }
          let box =
            PixelRect.union(words.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
          return ScanModel.TextLine(bbox: box, quad: quad(box, direction: direction), words: words)
        }
        return Paragraph(
          bbox: PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1),
          lines: built)
      }
      return Block(
        bbox: PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1),
        paragraphs: built)
    }
  }

  /// A word's box in the upright frame cut across its line to the height
  /// its ink would have (its font size times its letters' share of the em),
  /// centred on its box; its box when its size or share is unknown.
  static func inkBox(_ word: TextWord, line: TextLine) -> PixelRect {
    let box = word.box
    let size = word.glyphs.map(\.size).max() ?? 0
    guard size > 0, let share = RoleDetection.emShare(of: word.text) else { return pixelRect(box) }
    let ink = max(1, size * share)
    var r = box
    if line.direction % 180 == 0 {
      let mid = (box.minY + box.maxY) / 2
      (r.minY, r.maxY) = (mid - ink / 2, mid + ink / 2)
    } else {
      let mid = (box.minX + box.maxX) / 2
      (r.minX, r.maxX) = (mid - ink / 2, mid + ink / 2)
    }
    return pixelRect(r)
  }

  /// A box's edges rounded to the nearest pixel, at least one pixel each way.
  static func pixelRect(_ r: Rect) -> PixelRect {
    let minX = Int(r.minX.rounded())
    let minY = Int(r.minY.rounded())
    return PixelRect(
      minX: minX, minY: minY, maxX: max(minX + 1, Int(r.maxX.rounded())),
      maxY: max(minY + 1, Int(r.maxY.rounded())))
  }

  /// The corners of a box read in `direction` (top-left first, in reading
  /// order); `nil` for upright text (the box itself).
  static func quad(_ r: PixelRect, direction: Int) -> Quad? {
    let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
    switch direction {
    case 90:
      return Quad(
        topLeft: p(x1, y0), topRight: p(x1, y1), bottomRight: p(x0, y1), bottomLeft: p(x0, y0))
    case 180:
      return Quad(
        topLeft: p(x1, y1), topRight: p(x0, y1), bottomRight: p(x0, y0), bottomLeft: p(x1, y0))
    case 270:
      return Quad(
        topLeft: p(x0, y1), topRight: p(x0, y0), bottomRight: p(x1, y0), bottomLeft: p(x1, y1))
    default: return nil
    }
  }

  static func union(_ rects: [Rect]) -> Rect {
    guard let first = rects.first else { return Rect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
    return rects.dropFirst().reduce(first) {
      Rect(
        minX: min($0.minX, $1.minX), minY: min($0.minY, $1.minY), maxX: max($0.maxX, $1.maxX),
        maxY: max($0.maxY, $1.maxY))
    }
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}

/// The page turned upright: the content of a page turned by `orientation`
/// degrees clockwise, turned back so that its text runs left to right.
struct TurnedFrame {
  let orientation: Int
  /// The displayed page's size in pixels.
  let width: Double
  let height: Double

  var uprightWidth: Double { orientation % 180 == 0 ? width : height }
  var uprightHeight: Double { orientation % 180 == 0 ? height : width }

  /// A displayed point in the upright frame.
  func upright(_ p: Point) -> Point {
    switch orientation {
    case 90: Point(x: p.y, y: width - p.x)
    case 180: Point(x: width - p.x, y: height - p.y)
    case 270: Point(x: height - p.y, y: p.x)
    default: p
    }
  }

  /// An upright point on the displayed page.
  func displayed(_ p: Point) -> Point {
    switch orientation {
    case 90: Point(x: width - p.y, y: p.x)
    case 180: Point(x: width - p.x, y: height - p.y)
    case 270: Point(x: p.y, y: height - p.x)
    default: p
    }
  }

  func upright(_ r: Rect) -> Rect {
    Rect(bounding: [upright(Point(x: r.minX, y: r.minY)), upright(Point(x: r.maxX, y: r.maxY))])
  }

  func displayed(_ r: Rect) -> Rect {
    Rect(bounding: [displayed(Point(x: r.minX, y: r.minY)), displayed(Point(x: r.maxX, y: r.maxY))])
  }

  /// A line's direction on the displayed page, from its direction upright.
  func displayed(direction: Int) -> Int { (direction + orientation) % 360 }

  /// A displayed line in the upright frame (its direction relative to it).
  func upright(_ line: PDFTextPage.TextLine) -> PDFTextPage.TextLine {
    var out = line
    out.direction = (line.direction - orientation + 360) % 360
    for w in out.words.indices {
      for g in out.words[w].glyphs.indices {
        out.words[w].glyphs[g].box = upright(line.words[w].glyphs[g].box)
      }
    }
    return out
  }
}
