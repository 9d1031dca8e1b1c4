/// Running heads and feet told by repetition across a document's pages:
/// a line that comes back at about the same height on a neighbouring page,
/// with the same text or the same text around a changing number ("28 Row
/// and Column Access Control", "© Copyright IBM Corp. 2014."), in the top
/// or bottom band of the page, is the document's furniture, not its
/// reading.
///
/// ``RoleDetection`` decides each page alone, from place and type; this
/// pass runs after the pages are read, over a small window of neighbouring
/// pages (``Window``), so a document of any length is never held whole.
///
/// The rules (each a fact of how running heads and feet are printed):
/// - **Where**: the paragraph lies in the page's top (bottom) band, the
///   same band ``RoleDetection`` gives running heads and feet (15 % of
///   the upright page), and has at most two lines; only running text
///   (``ParagraphRole/body``), a heading or a list item is looked at (a
///   table's cell, a footnote, a caption keep their roles; "© Copyright
///   …" reads, on a page alone, as an item whose bullet OCR read as "©").
/// - **Repeated**: a page at most ``reach`` pages away has a paragraph of
///   at most two lines whose text is the same once digits and a leading
///   or trailing roman numeral are set aside (`key(_:)`; up to one
///   character in ten may differ, for OCR's misreadings), with its centre
///   at the same height to within 2 % of the page's height (a scan's page
///   shifts by a few millimetres; verso and recto heads stand at the same
///   height but on different sides, so the horizontal place is not
///   compared).
/// - **Outermost**: no running text of its page lies above a head (below
///   a foot): what stands between it and the page's edge is furniture too.
///
/// A repeated paragraph in the top half becomes a ``ParagraphRole/header``,
/// in the bottom half a ``ParagraphRole/footer``; one that is a number
/// alone becomes a ``ParagraphRole/pageNumber``.
public enum RunningFurniture {
  /// How many pages before and after a page are compared with it.
  public static let reach = 2

  /// The page with the paragraphs repeated on its neighbours given the
  /// roles of running heads, feet and page numbers, its blocks put in
  /// reading order again when a role changed (`reorder`), else `page`
  /// itself.
  /// - Parameters:
  ///   - page: A recognised page.
  ///   - neighbours: The pages near it in its document (at most
  ///     ``reach`` on each side, in any order).
  ///   - reorder: Whether the page's blocks are in the reader's order
  ///     (``ReadingOrder``), to be ordered again after a change: running
  ///     heads are read first and feet last.
  /// - Returns: The page, rebuilt with the new roles when one changed.
  /// - Complexity: O(*p* · *q* · *c*²) for *p* paragraphs of the page,
  ///   *q* of its neighbours' bands and *c* characters in a paragraph
  ///   (a handful of short lines each).
  public static func marking(_ page: Page, neighbours: [Page], reorder: Bool = true) -> Page {
    marked(page, neighbours: neighbours, reorder: reorder) ?? page
  }

  /// The page marked as ``marking(_:neighbours:reorder:)`` does, or `nil`
  /// when no role changed.
  static func marked(_ page: Page, neighbours: [Page], reorder: Bool) -> Page? {
    let roles = repeatedRoles(page, neighbours: neighbours)
    guard !roles.isEmpty else { return nil }
    var blocks = page.blocks
    for ((b, p), role) in roles {
      blocks[b].paragraphs[p].role = role
      blocks[b].paragraphs[p].headingLevel = nil
      blocks[b].paragraphs[p].listLevel = nil
    }
    if reorder {
      blocks = ReadingOrder.ordering(
        blocks, pageWidth: page.width, pageHeight: page.height, orientation: page.orientation,
        page: page.crop.map { PageFrame(box: $0, corners: page.perspective) })
    }
    return Page(
      index: page.index, image: page.image, width: page.width, height: page.height, dpi: page.dpi,
      orientation: page.orientation, skew: page.skew, language: page.language, blocks: blocks,
      steps: page.steps, crop: page.crop, perspective: page.perspective, pdf: page.pdf,
      source: page.source, dpiSource: page.dpiSource, exifOrientation: page.exifOrientation,
      figures: page.figures)
  }

  /// A paragraph of a page's top or bottom band, seen upright.
  struct Candidate {
    var block: Int
    var index: Int
    var role: ParagraphRole
    var key: [Character]
    var box: PixelRect
    /// The centre's height as a fraction of the upright page's height.
    var centre: Double
    var isTop: Bool
  }

  /// The paragraphs of `page` in its bands (any role but a table's cell),
  /// and the boxes of every paragraph on the upright page.
  static func bands(_ page: Page) -> (candidates: [Candidate], all: [(PixelRect, ParagraphRole)]) {
    let frame = UprightFrame(
      orientation: page.orientation, width: page.width, height: page.height,
      page: page.crop.map { PageFrame(box: $0, corners: page.perspective) })
    let height = Double(max(1, frame.uprightHeight))
    var candidates: [Candidate] = []
    var all: [(PixelRect, ParagraphRole)] = []
    for (b, block) in page.blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        let box = frame.rect(paragraph.bbox)
        all.append((box, paragraph.role))
        guard paragraph.lines.count <= 2, paragraph.role != .tableCell else { continue }
        let isTop = Double(box.maxY) < height * RoleDetection.runningBand
        let isBottom = Double(box.minY) > height * (1 - RoleDetection.runningBand)
        guard isTop || isBottom else { continue }
        let text = paragraph.lines.flatMap(\.words).map(\.text).joined(separator: " ")
        let key = Self.key(text)
        guard !key.isEmpty else { continue }
        candidates.append(
          Candidate(
            block: b, index: p, role: paragraph.role, key: key, box: box,
            centre: Double(box.minY + box.maxY) / 2 / height, isTop: isTop))
      }
    }
    return (candidates, all)
  }

  /// The new role of each paragraph of `page` repeated on a neighbour.
  static func repeatedRoles(_ page: Page, neighbours: [Page]) -> [(
    (Int, Int), ParagraphRole
  )] {
    let (candidates, all) = bands(page)
    // A list item too: "© Copyright …" reads, on a page alone, as an
    // item whose bullet OCR read as "©".
    let open = candidates.filter { [.body, .heading, .listItem].contains($0.role) }
    guard !open.isEmpty, !neighbours.isEmpty else { return [] }
    let others = neighbours.flatMap { bands($0).candidates }
    let repeated = open.filter { c in
      others.contains { o in
        o.isTop == c.isTop && abs(o.centre - c.centre) <= 0.02 && Self.matches(o.key, c.key)
      }
    }
    guard !repeated.isEmpty else { return [] }
    let furniture: Set<ParagraphRole> = [.header, .footer, .pageNumber]
    let repeatedBoxes = repeated.map(\.box)
    return repeated.compactMap { c in
      // Outermost: only furniture between it and the page's edge.
      let beyond = all.filter { box, _ in
        c.isTop ? box.maxY <= c.box.minY : box.minY >= c.box.maxY
      }
      guard
        beyond.allSatisfy({ box, role in furniture.contains(role) || repeatedBoxes.contains(box) })
      else { return nil }
      let role: ParagraphRole =
        c.key == ["#"] ? .pageNumber : c.isTop ? .header : .footer
      return ((c.block, c.index), role)
    }
  }

  /// The text as compared across pages: lowercased letters and digits,
  /// each run of digits one `#` (in a word with a digit, "o", "l" and "i"
  /// count as digits: OCR reads "1 of 5" as "1of5" and "2 of 5" as
  /// "20f5"), a roman numeral first or last one `#` (a folio "xi"), words
  /// apart by one space; signs dropped.
  static func key(_ text: String) -> [Character] {
    var words = text.lowercased().split(whereSeparator: \.isWhitespace).map { word in
      // In a word with a digit, "o", "l" and "i" are the digits OCR
      // misreads ("1of5" is "1 of 5", "20f5" is "2 of 5").
      let numeric = word.contains(where: \.isNumber)
      var out = ""
      for ch in word where ch.isLetter || ch.isNumber {
        if ch.isNumber || numeric && "oli".contains(ch) {
          if out.last != "#" { out.append("#") }
        } else {
          out.append(ch)
        }
      }
      return out
    }.filter { !$0.isEmpty }
    for i in [0, words.count - 1] where words.indices.contains(i) {
      if words[i].count <= 7, words[i].allSatisfy({ "ivxlc".contains($0) }) { words[i] = "#" }
    }
    return Array(words.joined(separator: " "))
  }

  /// Whether two keys name the same line: equal, or, for keys of ten
  /// characters or more, at most one character in ten apart (edits).
  static func matches(_ a: [Character], _ b: [Character]) -> Bool {
    if a == b { return true }
    let longer = max(a.count, b.count)
    guard min(a.count, b.count) >= 10 else { return false }
    let allowed = longer / 10
    guard abs(a.count - b.count) <= allowed else { return false }
    return editDistance(a, b, atMost: allowed) <= allowed
  }

  /// The number of single-character edits from `a` to `b`, or more than
  /// `limit` once it is known to exceed it.
  static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = current[0]
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMin = min(rowMin, current[j])
      }
      if rowMin > limit { return limit + 1 }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// A document's pages passing through in order, each handed on once the
  /// ``reach`` pages after it have come (or the document has ended), marked
  /// against its neighbours (``marking(_:neighbours:reorder:)``). Memory
  /// holds at most 2 × ``reach`` + 1 pages.
  ///
  /// Each page travels with a value of the caller's (where it came from,
  /// its encoding), handed back with it.
  public struct Window<Payload> {
    private var pages: [(page: Page, payload: Payload)] = []
    /// How many of `pages` have been handed on (the earlier ones are kept
    /// as neighbours).
    private var done = 0
    private let reorder: Bool

    /// An empty window.
    /// - Parameter reorder: Whether pages are put in reading order again
    ///   after a change (the reader's layout; see
    ///   ``RunningFurniture/marking(_:neighbours:reorder:)``).
    public init(reorder: Bool = true) { self.reorder = reorder }

    /// Takes the document's next page; returns the pages now decided, in
    /// order, each with its payload and whether it changed.
    /// - Complexity: That of one ``RunningFurniture/marking(_:neighbours:reorder:)``.
    public mutating func append(_ page: Page, _ payload: Payload) -> [(
      page: Page, payload: Payload, changed: Bool
    )] {
      pages.append((page, payload))
      var out: [(page: Page, payload: Payload, changed: Bool)] = []
      while done < pages.count, pages.count - 1 - done >= RunningFurniture.reach {
        out.append(decide(done))
        done += 1
      }
      trim()
      return out
    }

    /// The pages not yet handed on, decided against what came before.
    /// - Complexity: That of ``RunningFurniture/reach`` calls of
    ///   ``RunningFurniture/marking(_:neighbours:reorder:)``.
    public mutating func finish() -> [(page: Page, payload: Payload, changed: Bool)] {
      var out: [(page: Page, payload: Payload, changed: Bool)] = []
      while done < pages.count {
        out.append(decide(done))
        done += 1
      }
      pages = []
      done = 0
      return out
    }

    private func decide(_ i: Int) -> (page: Page, payload: Payload, changed: Bool) {
      let near = pages.indices.filter { $0 != i && abs($0 - i) <= RunningFurniture.reach }
      let marked = RunningFurniture.marked(
        pages[i].page, neighbours: near.map { pages[$0].page }, reorder: reorder)
      return (marked ?? pages[i].page, pages[i].payload, marked != nil)
    }

    /// Drops the pages no later page will compare with.
    private mutating func trim() {
      let drop = max(0, done - RunningFurniture.reach)
      guard drop > 0 else { return }
      pages.removeFirst(drop)
      done -= drop
    }
  }
}
