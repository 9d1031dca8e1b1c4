import Foundation
import ScanModel

/// Writes pages as one self-contained, accessible HTML file: each scan as
/// a picture, and over it a transparent text layer laid on the ink, with
/// the pages' structure in reading order.
///
/// The file needs no script. Its parts, for each page:
///
/// - a `div class="page"` (a `section` in a document of several pages)
///   that is a CSS size container as wide as the window and as tall as
///   the page shown, so every position and size is a fraction of its width
///   (`cqw`) and the layer stays on the ink at any zoom or window width;
/// - in it a `div class="frame"` in the model's frame (the image's pixels,
///   ``ScanModel/Page/width`` × ``ScanModel/Page/height``), turned upright when the page's
///   content was found turned (``ScanModel/Page/orientation``, unless
///   ``Options/keepRotation``), so the scan and the text layer turn
///   together;
/// - the scan as an `img` whose `alt` says the text follows, laid out as
///   the browser draws the file and turned or mirrored into the model's
///   frame when they differ (an orientation tag one applied and the other
///   did not: ``ShownPage/imageOrientation``);
/// - one absolutely positioned element per line, placed on the line's
///   selection outline (``ScanModel/Page/selectionRects(for:)``) and rotated by its
///   angle, as high as the outline; in it each word, and each gap between
///   words, is spaced out (`letter-spacing`) to the length of its
///   selection band. The text is set in an embedded font whose every
///   character is half an em wide and whose ascent and descent make
///   exactly one em, so lengths are known without measuring. The text is
///   transparent: selecting it highlights the ink, and find-in-page goes
///   to the right place;
/// - the structure, in the model's reading order: running heads in
///   `header`, the text in `main` (`h1`–`h6` for headings, never a level
///   more than one below the heading before; `p` for running text; `ul`/`li`
///   for list items, `ol` for numbered ones, a list nested one level
///   deeper inside an `li` of its own; `figure`/`figcaption` for captions; `aside` for
///   marginalia), then footnotes (`aside class="footnotes"`), running feet
///   and page numbers in `footer`;
/// - words hyphenated at a line end (``ScanModel/Page/hyphenBreaks``) read as one
///   word: the printed parts are hidden from assistive technology and the
///   joined word (``ScanModel/Page/spokenText(in:)``) is there for it, visually
///   hidden, taking no room and left out of a copy; a copy of a selection
///   has a line break after every line (a hidden `\n`), as the page text;
/// - words below a confidence threshold carry an `aria-description` (and
///   show with ``Options/showUncertain``);
/// - `lang` on the document (``ScanModel/Page/accessibilityLanguage``) and a `title`:
///   the first heading, else the image's name.
///
/// Each line element carries the model's outline in image pixels
/// (`data-quad`, the corners top-left, top-right, bottom-right,
/// bottom-left), each word its range in the page text (`data-range`, UTF-16
/// offsets) and the page its size (`data-width`, `data-height`, the
/// model's frame) and number (`data-page`, from 1; `id="page-N"`), so a
/// browser test can compare what the browser lays out with the model.
public struct AccessibleHTML: Sendable {
  /// What the reader sees besides the scan.
  public struct Options: OptionSet, Sendable {
    public let rawValue: Int
    /// Creates options from their raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Draws the text layer's text (normally transparent) over the scan.
    public static let showText = Options(rawValue: 1 << 0)
    /// Highlights the low-confidence words.
    public static let showUncertain = Options(rawValue: 1 << 1)
    /// Shows a page whose content was found turned (``ScanModel/Page/orientation``)
    /// as scanned, instead of turned upright.
    public static let keepRotation = Options(rawValue: 1 << 2)
  }

  /// Where the page's picture comes from.
  public enum ImageSource: Sendable, Equatable {
    /// A URL (or a path relative to the HTML file), written as it is.
    case url(String)
    /// The image's bytes, embedded as a `data:` URL of the given media
    /// type (`image/png`, `image/jpeg`…).
    case embedded(bytes: [UInt8], mediaType: String)
    /// No picture: the text layer over a white page.
    case none
  }

  /// One page of a document and the picture under its text layer.
  public struct ShownPage: Sendable {
    /// The page.
    public var page: Page
    /// Its picture.
    public var image: ImageSource
    /// The EXIF orientation (1–8) that turns the page's image file, as
    /// stored, into the picture the browser draws: for an image file's
    /// own bytes, ``browserOrientation(ofImage:)``; for pixels ScanText
    /// decoded and re-encoded, the tag its reader applied. The writer
    /// turns the picture into the model's frame (the stored pixels turned
    /// by ``ScanModel/Page/exifOrientation``) when the two differ.
    public var imageOrientation: Int
    /// The page's number in its document, from 1, as `--pages` counts:
    /// the page's `id` (`page-N`) and, in a document of several pages,
    /// its label.
    public var number: Int

    /// Creates a page to write.
    /// - Parameters:
    ///   - page: The page.
    ///   - image: Its picture.
    ///   - imageOrientation: The EXIF orientation the browser applies to
    ///     the image file's stored pixels (default: the one the model
    ///     applied, so that the picture is drawn as it is).
    ///   - number: The page's number in its document, from 1.
    public init(page: Page, image: ImageSource, imageOrientation: Int? = nil, number: Int = 1) {
      self.page = page
      self.image = image
      self.imageOrientation = imageOrientation ?? page.exifOrientation ?? 1
      self.number = number
    }
  }

  /// The picture under the text layer (for ``html(for:)``).
  public var image: ImageSource
  /// What the reader sees besides the scan.
  public var options: Options
  /// Words whose confidence is below this (0–100) are marked uncertain.
  public var lowConfidenceThreshold: Double

  /// Creates a writer.
  /// - Parameters:
  ///   - image: The picture under the text layer, for ``html(for:)``
  ///     (``html(pages:)`` takes one per page).
  ///   - options: What the reader sees besides the scan.
  ///   - lowConfidenceThreshold: Words below this confidence are marked
  ///     uncertain (default 60, as elsewhere in ScanText).
  public init(
    image: ImageSource = .none, options: Options = [],
    lowConfidenceThreshold: Double = AttributedContent.defaultLowConfidenceThreshold
  ) {
    self.image = image
    self.options = options
    self.lowConfidenceThreshold = lowConfidenceThreshold
  }

  /// The scale of the line text's font against the line's height: lines are
  /// set in a font this many times too large and scaled down, so that the
  /// browser's rounding of font metrics to whole pixels is this many times
  /// smaller on the page.
  static let fontOversize = 8

  /// The HTML document for `page` over ``image`` (UTF-8 text); the
  /// browser is taken to draw an embedded image file's bytes with their
  /// orientation tag applied (``browserOrientation(ofImage:)``) and a URL
  /// in the model's frame.
  /// - Complexity: O(*n* log *n*) in the characters of the page.
  public func html(for page: Page) -> String {
    var orientation: Int?
    if case .embedded(let bytes, _) = image {
      orientation = Self.browserOrientation(ofImage: bytes)
    }
    return html(pages: [ShownPage(page: page, image: image, imageOrientation: orientation)])
  }

  /// The HTML document for `pages`, in order, each over its own picture
  /// (UTF-8 text).
  ///
  /// One page is written as one `div class="page"` holding its `header`,
  /// `main` and `footer`. Several pages are one `main` holding a `section`
  /// per page (labelled "Page N"), each with its own running heads and
  /// feet (a `header` or `footer` in a section is no landmark); heading
  /// levels never jump by more than one across the whole document.
  /// - Complexity: O(*n* log *n*) in the characters of the pages.
  public func html(pages: [ShownPage]) -> String {
    var writer = Writer(self, several: pages.count > 1)
    let body = pages.map { writer.page($0) }.joined()
    return writer.head() + body + writer.tail()
  }

  /// Writes the HTML document page by page (``html(pages:)`` gives the same
  /// text at once): each page's `section` or `div` as it comes, and, once
  /// the last is written, the head (its language and title come from the
  /// pages) to go before them and the tail after.
  public struct Writer {
    private let html: AccessibleHTML
    private let several: Bool
    private var language: String?
    private var headingTitle: String?
    private var firstImage: String??
    private var previousLevel = 0

    /// Starts a document.
    /// - Parameters:
    ///   - html: The options and threshold.
    ///   - several: Whether the document has more than one page (one page
    ///     is a `div` with landmarks, several are `section`s in a `main`).
    public init(_ html: AccessibleHTML, several: Bool) {
      self.html = html
      self.several = several
    }

    /// The markup of the next page.
    /// - Complexity: O(*n* log *n*) in the characters of the page.
    public mutating func page(_ shown: ShownPage) -> String {
      let page = shown.page
      if firstImage == nil { firstImage = .some(page.image) }
      if language == nil { language = page.accessibilityLanguage }
      if headingTitle == nil { headingTitle = AccessibleHTML.headingTitle(of: page) }
      var out = HTMLBuffer()
      // The frame shown: upright when the content was found turned, unless
      // the page is to be kept as scanned.
      let upright =
        html.options.contains(.keepRotation)
        ? FrameMap.identity : FrameMap(clockwise: -page.orientation)
      let (width, height) = (max(page.width, 1), max(page.height, 1))
      let (shownWidth, shownHeight) = upright.swapsSides ? (height, width) : (width, height)
      let tag = several ? "section" : "div"
      out.raw("<\(tag) class=\"page\" id=\"page-\(shown.number)\" data-page=\"\(shown.number)\"")
      if several { out.raw(" aria-label=\"Page \(shown.number)\"") }
      if let own = page.accessibilityLanguage, own != language {
        out.raw(" lang=\"\(AccessibleHTML.escape(own))\"")
      }
      out.raw(
        " data-width=\"\(page.width)\" data-height=\"\(page.height)\" style=\"--u:calc(100cqw / \(shownWidth));aspect-ratio:\(shownWidth) / \(shownHeight)\">\n"
      )
      // The model's frame, turned upright: the scan and the text layer
      // together.
      var frameStyle = "width:calc(\(width)*var(--u));height:calc(\(height)*var(--u))"
      if let turn = upright.css(width: width, height: height) { frameStyle += ";transform:\(turn)" }
      out.raw("<div class=\"frame\" style=\"\(frameStyle)\">\n")
      html.writeImage(shown, number: several ? shown.number : nil, into: &out)
      let writer = LayerWriter(page: page, threshold: html.lowConfidenceThreshold)
      writer.writeStructure(into: &out, landmarks: !several, previousLevel: &previousLevel)
      out.raw("</div>\n</\(tag)>\n")
      return out.text
    }

    /// The text before the pages: for the pages written so far.
    public func head() -> String {
      var out = HTMLBuffer()
      out.raw("<!DOCTYPE html>\n<html")
      if let language { out.raw(" lang=\"\(AccessibleHTML.escape(language))\"") }
      out.raw(">\n<head>\n<meta charset=\"utf-8\">\n")
      out.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
      out.raw("<meta name=\"generator\" content=\"scantext\">\n")
      let title = headingTitle ?? firstImage.flatMap { $0 } ?? "Scanned page"
      out.raw("<title>\(AccessibleHTML.escape(title))</title>\n")
      out.raw("<style>\n\(html.stylesheet())</style>\n</head>\n<body>\n")
      if several { out.raw("<main>\n") }
      return out.text
    }

    /// The text after the pages.
    public func tail() -> String {
      (several ? "</main>\n" : "") + "</body>\n</html>\n"
    }
  }

  /// The text of a page's first heading, its lines joined by spaces; `nil`
  /// when it has none (or an empty one). The document's title is the first
  /// page's that has one, else the first page's image name, else "Scanned
  /// page".
  static func headingTitle(of page: Page) -> String? {
    guard let heading = page.headings.first else { return nil }
    let text = (page.spokenText(in: heading.range) ?? heading.text)
      .split(whereSeparator: \.isNewline).joined(separator: " ")
    return text.isEmpty ? nil : text
  }

  /// The page's picture, in the model's frame: laid out as the browser
  /// draws it (its own width and height) and turned and mirrored onto the
  /// model's frame when the two differ.
  fileprivate func writeImage(_ shown: ShownPage, number: Int?, into out: inout HTMLBuffer) {
    let page = shown.page
    let name = (page.image ?? "the page") + (number.map { ", page \($0)" } ?? "")
    let alt = "Scan of \(name). Its recognised text follows."
    let source: String
    switch shown.image {
    case .url(let url):
      source = url
    case .embedded(let bytes, let mediaType):
      source = "data:\(mediaType);base64,\(Data(bytes).base64EncodedString())"
    case .none:
      out.raw("<div class=\"scan blank\" role=\"img\" aria-label=\"\(Self.escape(alt))\"></div>\n")
      return
    }
    // From the picture drawn to the model's frame, both counted from the
    // image file's stored pixels.
    let drawn = FrameMap(exifOrientation: shown.imageOrientation)
    let toModel = FrameMap(exifOrientation: page.exifOrientation ?? 1).after(drawn.inverse)
    let (width, height) =
      toModel.swapsSides
      ? (max(page.height, 1), max(page.width, 1)) : (max(page.width, 1), max(page.height, 1))
    var style = "width:calc(\(width)*var(--u));height:calc(\(height)*var(--u))"
    if let turn = toModel.css(width: width, height: height) { style += ";transform:\(turn)" }
    out.raw(
      "<img class=\"scan\" src=\"\(Self.escape(source))\" alt=\"\(Self.escape(alt))\" width=\"\(width)\" height=\"\(height)\" style=\"\(style)\">\n"
    )
  }

  fileprivate func stylesheet() -> String {
    let font = Self.fontBase64.filter { !$0.isWhitespace }
    let textColour = options.contains(.showText) ? "rgba(200, 0, 0, 0.8)" : "transparent"
    let uncertain =
      options.contains(.showUncertain)
      ? ".uncertain { background: rgba(255, 160, 0, 0.45); }\n" : ""
    // Each page's size and unit are on the page (`--u`, `aspect-ratio`);
    // its frame and picture are placed in them (see ``FrameMap``).
    return """
      @font-face { font-family: "ScanText Layer"; src: url(data:font/ttf;base64,\(font)) format("truetype"); }
      html, body { margin: 0; padding: 0; }
      .page { position: relative; container-type: inline-size; width: 100%; overflow: hidden; }
      .frame { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
      .scan { position: absolute; left: 0; top: 0; display: block; transform-origin: 0 0;
        image-orientation: from-image; }
      .blank { width: 100%; height: 100%; background: white; }
      .page header, .page main, .page footer, .page aside, .page figure, .page figcaption,
      .page p, .page ul, .page ol, .page li, .page h1, .page h2, .page h3, .page h4, .page h5, .page h6 {
        display: block; margin: 0; padding: 0; font: inherit; list-style: none; }
      .line { position: absolute; left: 0; top: 0; margin: 0; padding: 0; border: 0;
        font-family: "ScanText Layer"; font-weight: normal; font-style: normal; line-height: 1;
        white-space: pre; letter-spacing: 0; word-spacing: 0; font-kerning: none;
        text-rendering: optimizeSpeed; transform-origin: 0 0; color: \(textColour); }
      .line::selection, .line *::selection { background: rgba(0, 110, 255, 0.35); color: \(textColour); }
      .joined, .eol { position: absolute; width: 1px; height: 1px; overflow: hidden;
        clip-path: inset(50%); white-space: nowrap; }
      .joined { user-select: none; }
      .eol { white-space: pre; }
      \(uncertain)
      """
  }

  /// Escapes text for HTML element content and attribute values: XML's
  /// escaping (the characters neither can carry become U+FFFD), with tab,
  /// newline and carriage return kept as they are.
  static func escape(_ text: String) -> String {
    XMLWriter.escape(text, whitespaceReferences: false)
  }

  /// How many grapheme clusters of a text the browser spaces out: those
  /// with at least one advance (``advanceCount(_:)``).
  static func clusterCount(_ text: String) -> Int {
    text.reduce(0) { n, c in advanceCount(String(c)) > 0 ? n + 1 : n }
  }

  /// How many half-em advances a text takes in the layer's font: one per
  /// Unicode scalar, except combining marks (which the browser sets at
  /// zero width over their base) and default-ignorable ones (soft hyphens,
  /// joiners, variation selectors), which it does not draw.
  static func advanceCount(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { n, s in
      switch s.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: return n
      default: return s.properties.isDefaultIgnorableCodePoint ? n : n + 1
      }
    }
  }
}

/// An HTML string being built.
struct HTMLBuffer {
  var text = ""
  mutating func raw(_ s: String) { text += s }
  mutating func escaped(_ s: String) { text += AccessibleHTML.escape(s) }
}

/// Writes the structure and the lines of one page.
private struct LayerWriter {
  let page: Page
  let threshold: Double
  /// For each line number, the ranges of that line hidden from assistive
  /// technology (parts of a hyphenated word) and, on the last line of
  /// each such word, where its joined form goes and what it is.
  var hidden: [Int: [Range<Int>]] = [:]
  var joined: [Int: [(after: Int, text: String)]] = [:]

  init(page: Page, threshold: Double) {
    self.page = page
    self.threshold = threshold
    var seen = Set<Range<Int>>()
    for brk in page.hyphenBreaks {
      let word = brk.word.lowerBound.offset..<brk.word.upperBound.offset
      guard seen.insert(word).inserted, let spoken = page.spokenText(in: brk.word) else {
        continue
      }
      // The joined form goes after the last part, and takes in the rest
      // of that part's printed word (its comma: hidden there), so that it
      // reads as the spoken text does ("serving," where a browser reading
      // the joined form apart from a printed comma says "serving ,").
      var parts: [(line: Int, range: Range<Int>)] = []
      for rect in page.selectionRects(for: brk.word) {
        let part = rect.range.lowerBound.offset..<rect.range.upperBound.offset
        guard !part.isEmpty else { continue }
        parts.append((rect.lineNumber, part))
      }
      guard var last = parts.popLast() else { continue }
      var text = spoken
      if let printed = page.line(number: last.line)?.words.first(where: {
        $0.range.offsets.contains(last.range.upperBound - 1)
      }), printed.range.upperBound.offset > last.range.upperBound,
        let rest = page.text(
          in: TextRange(offsets: last.range.upperBound..<printed.range.upperBound.offset))
      {
        text += rest
        last.range = last.range.lowerBound..<printed.range.upperBound.offset
      }
      for part in parts + [last] { hidden[part.line, default: []].append(part.range) }
      joined[last.line, default: []].append((last.range.upperBound, text))
    }
  }

  /// The paragraphs in reading order with the number of their first line.
  private var paragraphs: [(paragraph: Paragraph, firstLine: Int)] {
    var out: [(Paragraph, Int)] = []
    var n = 0
    for block in page.blocks {
      for paragraph in block.paragraphs {
        out.append((paragraph, n))
        n += paragraph.lines.count
      }
    }
    return out
  }

  /// Writes the page's paragraphs in reading order: running heads, the
  /// text, footnotes, running feet. With `landmarks` (the document's only
  /// page) the text is the document's `main`; otherwise a `div` in the
  /// page's section. `previousLevel` is the level of the heading before,
  /// on this page or an earlier one.
  func writeStructure(into out: inout HTMLBuffer, landmarks: Bool, previousLevel: inout Int) {
    let all = paragraphs
    // Running heads first, the page's furniture (footnotes, feet, page
    // numbers) last: the model's reading order puts them there already.
    var start = 0
    while start < all.count, all[start].paragraph.role == .header { start += 1 }
    var end = all.count
    while end > start, all[end - 1].paragraph.role.isPageFurniture,
      all[end - 1].paragraph.role != .header
    {
      end -= 1
    }
    if start > 0 {
      out.raw("<header>\n")
      for item in all[0..<start] { write(item, tag: "p", into: &out) }
      out.raw("</header>\n")
    }
    out.raw(landmarks ? "<main>\n" : "<div class=\"text\">\n")
    var index = start
    while index < end {
      let item = all[index]
      switch item.paragraph.role {
      case .heading:
        let level = HeadingLevels.written(item.paragraph.headingLevel, after: previousLevel)
        previousLevel = level
        write(item, tag: "h\(level)", into: &out)
      case .listItem:
        // A list per run of items: `ol` when its first item is numbered;
        // an item one level deeper opens a list inside an item of its
        // own, closed when the items come back up.
        var open: [String] = []
        while index < end, all[index].paragraph.role == .listItem {
          let paragraph = all[index].paragraph
          let level = paragraph.listLevel ?? 1
          while open.count > level {
            out.raw("</\(open.removeLast())>\n" + (open.isEmpty ? "" : "</li>\n"))
          }
          while open.count < level {
            let tag =
              TextCues.startsNumberedListItem(
                paragraph.lines.flatMap { $0.words.map(\.text) }.prefix(2).joined(separator: " "))
              ? "ol" : "ul"
            out.raw((open.isEmpty ? "" : "<li>\n") + "<\(tag)>\n")
            open.append(tag)
          }
          write(all[index], tag: "li", into: &out)
          index += 1
        }
        while let tag = open.popLast() { out.raw("</\(tag)>\n" + (open.isEmpty ? "" : "</li>\n")) }
        continue
      case .caption:
        out.raw("<figure>")
        write(item, tag: "figcaption", into: &out)
        out.raw("</figure>\n")
      case .tableCell where item.paragraph.cell != nil:
        // A table read cell by cell: one row per row of the table, each
        // cell with its spans, and an empty cell where the table has none
        // (a column's cells stay under its header for a screen reader).
        var cells: [Int] = []
        while index < end, all[index].paragraph.cell != nil {
          cells.append(index)
          index += 1
        }
        let positions = cells.compactMap { all[$0].paragraph.cell }
        let rows = positions.map { $0.row + $0.rowSpan }.max() ?? 0
        let columns = positions.map { $0.column + $0.columnSpan }.max() ?? 0
        var covered = Array(repeating: Array(repeating: false, count: columns), count: rows)
        var starting: [Int: [Int: [Int]]] = [:]
        for k in cells {
          guard let cell = all[k].paragraph.cell else { continue }
          starting[cell.row, default: [:]][cell.column, default: []].append(k)
          for r in cell.row..<(cell.row + cell.rowSpan) {
            for c in cell.column..<(cell.column + cell.columnSpan) { covered[r][c] = true }
          }
        }
        out.raw("<table class=\"table\">\n")
        for r in 0..<rows {
          out.raw("<tr>\n")
          for c in 0..<columns {
            guard let here = starting[r]?[c] else {
              if !covered[r][c] { out.raw("<td class=\"table-cell\"></td>\n") }
              continue
            }
            for k in here {
              guard let cell = all[k].paragraph.cell else { continue }
              let spans =
                (cell.rowSpan > 1 ? " rowspan=\"\(cell.rowSpan)\"" : "")
                + (cell.columnSpan > 1 ? " colspan=\"\(cell.columnSpan)\"" : "")
              // A header cell is a `th`: a screen reader announces it with
              // the cells of its column.
              write(
                all[k], tag: cell.isHeader ? "th" : "td",
                attributes: (cell.isHeader ? " scope=\"col\"" : "") + spans, into: &out)
            }
          }
          out.raw("</tr>\n")
        }
        out.raw("</table>\n")
        continue
      case .marginalia:
        out.raw("<aside class=\"marginalia\" aria-label=\"Margin note\">")
        write(item, tag: "p", into: &out)
        out.raw("</aside>\n")
      default:
        write(item, tag: "p", into: &out)
      }
      index += 1
    }
    out.raw(landmarks ? "</main>\n" : "</div>\n")
    let trailing = all[end...]
    let footnotes = trailing.filter { $0.paragraph.role == .footnote }
    if !footnotes.isEmpty {
      out.raw("<aside class=\"footnotes\" aria-label=\"Footnotes\">\n")
      for item in footnotes { write(item, tag: "p", into: &out) }
      out.raw("</aside>\n")
    }
    let feet = trailing.filter { $0.paragraph.role != .footnote }
    if !feet.isEmpty {
      out.raw("<footer>\n")
      for item in feet { write(item, tag: "p", into: &out) }
      out.raw("</footer>\n")
    }
  }

  private func write(
    _ item: (paragraph: Paragraph, firstLine: Int), tag: String, attributes: String = "",
    into out: inout HTMLBuffer
  ) {
    let role = item.paragraph.role
    out.raw("<\(tag) class=\"\(Self.className(role))\"\(attributes)")
    if let first = item.paragraph.lines.first, !first.range.isEmpty,
      page.selectionRects(for: first.range).first?.writingDirection == .rightToLeft
    {
      out.raw(" dir=\"rtl\"")
    }
    out.raw(">")
    for (k, line) in item.paragraph.lines.enumerated() {
      writeLine(line, number: item.firstLine + k, into: &out)
    }
    out.raw("</\(tag)>\n")
  }

  private static func className(_ role: ParagraphRole) -> String {
    switch role {
    case .pageNumber: "page-number"
    case .listItem: "list-item"
    case .tableCell: "table-cell"
    default: role.rawValue
    }
  }

  private func writeLine(_ line: TextLine, number: Int, into out: inout HTMLBuffer) {
    guard !line.range.isEmpty, let outline = page.selectionRects(for: line.range).first else {
      return
    }
    let q = outline.quad
    // The element's frame: from the outline's left end along the line, and
    // down across it. A right-to-left line's quad starts at its right end
    // (its reading start); the browser lays its text out from the right of
    // the element all the same.
    let rtl = outline.writingDirection == .rightToLeft
    let origin = rtl ? q.topRight : q.topLeft
    let along = rtl ? q.topLeft : q.topRight
    let down = rtl ? q.bottomRight : q.bottomLeft
    let ux = along.x - origin.x
    let uy = along.y - origin.y
    let length = (ux * ux + uy * uy).squareRoot()
    let angle = length > 0 ? atan2(uy, ux) : 0
    let vx = down.x - origin.x
    let vy = down.y - origin.y
    // The height across the line (the outline is a parallelogram at most).
    let across = length > 0 ? abs(ux * vy - uy * vx) / length : (vx * vx + vy * vy).squareRoot()
    let height = max(across, 0.01)
    let oversize = Double(AccessibleHTML.fontOversize)
    var style = "left:calc(\(n(origin.x))*var(--u));top:calc(\(n(origin.y))*var(--u));"
    style += "font-size:calc(\(n(height * oversize))*var(--u));transform:"
    if abs(angle) > 1e-9 { style += "rotate(\(n(angle, digits: 6))rad) " }
    style += "scale(\(n(1 / oversize, digits: 6)))"
    let quadText = q.corners.map { "\(n($0.x)) \(n($0.y))" }.joined(separator: " ")
    var polygonText = ""
    if let polygon = outline.polygon {
      polygonText =
        " data-polygon=\"" + polygon.map { "\(n($0.x)) \(n($0.y))" }.joined(separator: " ") + "\""
    }
    out.raw(
      "<span class=\"line\" data-line=\"\(number)\" data-quad=\"\(quadText)\"\(polygonText) style=\"\(style)\">"
    )
    // Each word's selection band, asked once for its place along the line
    // and, on a curved line, its move from the chord onto its own stretch
    // of the curve (``curveOffsets(of:bands:extents:outline:height:rtl:)``).
    let bands = line.words.map { word in
      word.range.isEmpty ? nil : page.selectionRects(for: word.range).first
    }
    let extents = wordExtents(bands, outline: q)
    let offsets =
      outline.polygon == nil
      ? nil
      : curveOffsets(of: bands, extents: extents, outline: q, height: height, rtl: rtl)
    writeText(
      of: line, number: number, extents: extents, height: height, offsets: offsets, into: &out)
    // The line break, for a copy of the selection: taking no room, and
    // nothing for assistive technology to read.
    out.raw("<span class=\"eol\" aria-hidden=\"true\">\n</span></span>")
  }

  /// Where each word of a line starts and ends along the line, in image
  /// pixels from the line's reading start: the edges of its selection
  /// band. The first word starts at 0 and the last ends at the line's
  /// length, so the words and the gaps between them fill the line.
  private func wordExtents(_ bands: [SelectionRect?], outline q: Quad) -> [(Double, Double)] {
    let dx = q.topRight.x - q.topLeft.x
    let dy = q.topRight.y - q.topLeft.y
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0 else { return bands.map { _ in (0, 0) } }
    func along(_ p: Point) -> Double {
      ((p.x - q.topLeft.x) * dx + (p.y - q.topLeft.y) * dy) / length
    }
    var extents: [(Double, Double)] = bands.map { band in
      guard let band else { return (0, 0) }
      return (along(band.quad.topLeft), along(band.quad.topRight))
    }
    // Monotonic, and filling the line from end to end.
    var cursor = 0.0
    for i in extents.indices {
      let start = i == 0 ? 0 : min(max(extents[i].0, cursor), length)
      let end = i == extents.count - 1 ? length : min(max(extents[i].1, start), length)
      extents[i] = (start, end)
      cursor = end
    }
    return extents
  }

  /// How far each word of a curved line stands from where the line's
  /// element lays it out along the chord: across the chord and along it
  /// (in the line's height), the slope of its top edge against the chord
  /// (radians) and its height against the line's at its ends, from the
  /// word's selection band on the curve. The
  /// band's ends stand square to the chord (a curved line's cross-sections
  /// do), so the band is the word's place in the flow sheared by that
  /// slope: a word's span is an inline block moved, sheared (`skewY`) and
  /// scaled across about its centre, so the text follows the curve while it still flows
  /// (and copies) as one line.
  private func curveOffsets(
    of bands: [SelectionRect?], extents: [(Double, Double)], outline q: Quad, height: Double,
    rtl: Bool
  ) -> [(along: Double, across: Double, turn: Double, tall: Double)] {
    let origin = rtl ? q.topRight : q.topLeft
    let end = rtl ? q.topLeft : q.topRight
    let dx = end.x - origin.x
    let dy = end.y - origin.y
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0, height > 0 else { return bands.map { _ in (0, 0, 0, 1) } }
    let u = Point(x: dx / length, y: dy / length)
    // Down across the line in the element's frame (the screen's
    // clockwise quarter turn from `u`: the element is only rotated).
    let v = Point(x: -u.y, y: u.x)
    let chordAngle = atan2(u.y, u.x)
    return bands.enumerated().map { i, band in
      guard let band else { return (0, 0, 0, 1) }
      let b = band.quad
      let centre = Point(
        x: (b.topLeft.x + b.topRight.x + b.bottomRight.x + b.bottomLeft.x) / 4,
        y: (b.topLeft.y + b.topRight.y + b.bottomRight.y + b.bottomLeft.y) / 4)
      let local = Point(x: centre.x - origin.x, y: centre.y - origin.y)
      let along = local.x * u.x + local.y * u.y - (extents[i].0 + extents[i].1) / 2
      let across = local.x * v.x + local.y * v.y - height / 2
      let (start, stop) = rtl ? (b.topRight, b.topLeft) : (b.topLeft, b.topRight)
      var turn = atan2(stop.y - start.y, stop.x - start.x) - chordAngle
      // A difference of two angles in (-π, π]: one step brings it back.
      if turn > Double.pi { turn -= 2 * Double.pi }
      if turn < -Double.pi { turn += 2 * Double.pi }
      // The curve's height there (its cross-sections stand square to the
      // chord), against the line's at its ends.
      func span(_ a: Point, _ c: Point) -> Double {
        abs((c.x - a.x) * v.x + (c.y - a.y) * v.y)
      }
      let tall = (span(b.topLeft, b.bottomLeft) + span(b.topRight, b.bottomRight)) / 2 / height
      return (along / height, across / height, turn, tall > 0 ? tall : 1)
    }
  }

  /// The line's text: each OCR word in a span whose letter spacing makes
  /// it as long as its selection band (the font's advances are all half an
  /// em, so the spacing follows from the word's length), and so each gap
  /// between words; a low-confidence word carries its description, and the
  /// parts of a hyphenated word are hidden from assistive technology,
  /// followed by the joined word.
  private func writeText(
    of line: TextLine, number: Int, extents: [(Double, Double)], height: Double,
    offsets: [(along: Double, across: Double, turn: Double, tall: Double)]?,
    into out: inout HTMLBuffer
  ) {
    let hiddenParts = hidden[number] ?? []
    let insertions = joined[number] ?? []
    let units = Array(line.text.utf16)
    let lineStart = line.range.lowerBound.offset
    func text(_ r: Range<Int>) -> String {
      let a = max(0, min(units.count, r.lowerBound - lineStart))
      let b = max(a, min(units.count, r.upperBound - lineStart))
      return String(decoding: units[a..<b], as: UTF16.self)
    }
    /// The letter spacing (in em of the line's font) that makes `text`
    /// `width` image pixels long: the browser adds it once per grapheme
    /// cluster it draws (`👍🏽` takes two advances and one spacing).
    func spacing(_ text: String, width: Double) -> String {
      let count = AccessibleHTML.advanceCount(text)
      let clusters = AccessibleHTML.clusterCount(text)
      guard count > 0, clusters > 0 else { return "" }
      let em = (width / height - Double(count) / 2) / Double(clusters)
      return abs(em) < 0.0005 ? "" : "letter-spacing:\(n(em, digits: 4))em"
    }
    for (i, word) in line.words.enumerated() {
      let range = word.range.lowerBound.offset..<word.range.upperBound.offset
      if i > 0 {
        let gapRange = line.words[i - 1].range.upperBound.offset..<range.lowerBound
        let gap = text(gapRange)
        let style = spacing(gap, width: extents[i].0 - extents[i - 1].1)
        out.raw(style.isEmpty ? "" : "<span style=\"\(style)\">")
        out.escaped(gap)
        out.raw(style.isEmpty ? "" : "</span>")
      }
      let wordText = text(range)
      out.raw("<span class=\"w")
      if let c = word.confidence, c < threshold {
        let percent = FormatNumbers.percent(c)
        out.raw(
          " uncertain\" aria-description=\"uncertain recognition, confidence \(percent) %")
      }
      out.raw("\" data-range=\"\(range.lowerBound) \(range.upperBound)\"")
      var style = spacing(wordText, width: extents[i].1 - extents[i].0)
      if let offset = offsets?[i] {
        style += style.isEmpty ? "" : ";"
        style +=
          "display:inline-block;transform:translate(\(n(offset.along, digits: 4))em,\(n(offset.across, digits: 4))em) skewY(\(n(offset.turn, digits: 6))rad) scaleY(\(n(offset.tall, digits: 5)))"
      }
      out.raw(style.isEmpty ? ">" : " style=\"\(style)\">")
      // Cut where a hidden part starts or ends, or a joined word goes.
      var cuts = Set([range.lowerBound, range.upperBound])
      for r in hiddenParts { cuts.formUnion([r.lowerBound, r.upperBound]) }
      for i in insertions { cuts.insert(i.after) }
      let points = cuts.filter { range.contains($0) || $0 == range.upperBound }.sorted()
      for (a, b) in zip(points, points.dropFirst()) {
        let isHidden = hiddenParts.contains { $0.lowerBound <= a && b <= $0.upperBound }
        out.raw(isHidden ? "<span aria-hidden=\"true\">" : "")
        out.escaped(text(a..<b))
        out.raw(isHidden ? "</span>" : "")
        for insertion in insertions where insertion.after == b {
          out.raw("<span class=\"joined\">")
          out.escaped(insertion.text)
          out.raw("</span>")
        }
      }
      out.raw("</span>")
    }
  }

  /// A number for CSS: at most `digits` decimals, no trailing zeros, no
  /// exponent.
  private func n(_ value: Double, digits: Int = 3) -> String {
    guard value.isFinite else { return "0" }
    var s = String(format: "%.\(digits)f", value)
    if s.contains(".") {
      while s.hasSuffix("0") { s.removeLast() }
      if s.hasSuffix(".") { s.removeLast() }
    }
    return s == "-0" ? "0" : s
  }
}
