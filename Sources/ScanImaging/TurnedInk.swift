import ScanModel

/// Text set turned a quarter inside an upright page: the ink of a line
/// whose glyphs stand one above the other (a table's column header set
/// upward over a narrow column, a label along a chart's axis, a spine).
///
/// Tesseract's layout analysis finds a long sideways line (a note in the
/// margin) but reads a short one (one or two words over a column of
/// figures) as upright junk ("= foe =", "§"). Type set turned has a shape
/// upright type never has: its glyphs are stacked down the page, each a
/// letter space from the next, all of them on one baseline running down
/// the page, so the line is a narrow column of ink as wide as a line of
/// type is high. This finds such columns among the page's connected
/// components, for a reading of each turned (the caller reads it turned
/// both ways and keeps a confident, word-like reading):
///
/// - **Glyph-sized ink**: components no longer than three line heights
///   (rules and pictures are not glyphs) and not specks.
/// - **Stacked**: two components join when one lies under the other,
///   sharing at least half of the narrower one's width, less than half a
///   line height apart (a letter or word space of the turned line; the
///   rows of a table or the lines of a paragraph lie further apart).
/// - **A turned line**: at least three components, at least twice as tall
///   as wide and one and a half line heights tall, between two fifths of
///   a line height and two line heights wide (one line of type).
/// - **Alone across**: no other glyph-sized component beside it, within
///   half a line height, on its rows (upright text has its next letter
///   there). A component on its rows and with half its width in its
///   columns is the line's own mark, not a neighbour, and the line takes
///   it in: the dot of an "i" set upward lies beside the stem, on the
///   side of the ascenders, more than half a line height from the glyphs
///   before and after it, and may stand a pixel past the capitals.
/// - **One line**: the words of one turned line, stacked in one column
///   less than a line height apart (a word space), are one candidate.
package enum TurnedInk {
  /// The boxes of ink that look like lines turned a quarter.
  /// - Parameters:
  ///   - components: Connected components of the page's ink, in page
  ///     pixels.
  ///   - lineHeight: The height of the page's words (the median), in
  ///     pixels.
  /// - Returns: The candidate lines' boxes, left to right, top to bottom.
  /// - Complexity: O(*c*²) in the glyph-sized components *c*; none are
  ///   looked at past 20 000 (a picture, noise).
  package static func candidates(components: [PixelRect], lineHeight: Double) -> [PixelRect] {
    guard lineHeight >= 6 else { return [] }
    let h = lineHeight
    let glyphs = components.filter { c in
      let long = Double(max(c.width, c.height))
      return long <= 3 * h && long >= h / 6
    }
    guard glyphs.count <= 20_000 else { return [] }
    let order = glyphs.indices.sorted { glyphs[$0].minX < glyphs[$1].minX }
    var parent = Array(glyphs.indices)
    func root(_ i: Int) -> Int {
      var i = i
      while parent[i] != i {
        parent[i] = parent[parent[i]]
        i = parent[i]
      }
      return i
    }
    // Pairs that overlap across: sweep by left edge.
    for (k, i) in order.enumerated() {
      let a = glyphs[i]
      for j in order[(k + 1)...] {
        let b = glyphs[j]
        if b.minX >= a.maxX { break }
        let shared = min(a.maxX, b.maxX) - max(a.minX, b.minX)
        guard 2 * shared >= min(a.width, b.width) else { continue }
        let gap = max(a.minY - b.maxY, b.minY - a.maxY)
        guard Double(gap) < h / 2 else { continue }
        parent[root(i)] = root(j)
      }
    }
    var members: [Int: [Int]] = [:]
    for i in glyphs.indices { members[root(i), default: []].append(i) }
    var found: [PixelRect] = []
    for group in members.values where group.count >= 3 {
      guard let box = PixelRect.union(group.map { glyphs[$0] }) else { continue }
      let wide = Double(box.width)
      let tall = Double(box.height)
      guard tall >= 2 * wide, tall >= 1.5 * h, wide >= 0.4 * h, wide <= 2 * h else { continue }
      let inGroup = Set(group)
      // The line's own marks lie on its rows and in its columns (half of
      // their width at least, as stacked glyphs share): an "i"'s dot
      // stands beside its stem across the turned line, further from the
      // glyphs before and after it than a letter space, and may reach a
      // pixel past the capitals.
      let marks = glyphs.indices.filter { k in
        let c = glyphs[k]
        let shared = min(c.maxX, box.maxX) - max(c.minX, box.minX)
        return !inGroup.contains(k) && c.minY >= box.minY && c.maxY <= box.maxY
          && 2 * shared >= c.width
      }
      let crowded = glyphs.indices.contains { k in
        guard !inGroup.contains(k), !marks.contains(k) else { return false }
        let c = glyphs[k]
        guard c.minY < box.maxY, box.minY < c.maxY else { return false }
        return Double(max(c.minX - box.maxX, box.minX - c.maxX)) < h / 2
      }
      if !crowded { found.append(PixelRect.union(marks.map { glyphs[$0] }).map(box.union) ?? box) }
    }
    return joiningWords(found, lineHeight: h).sorted { ($0.minX, $0.minY) < ($1.minX, $1.minY) }
  }

  /// The words of one turned line joined: candidates in one column (each
  /// sharing half of the narrower's width) less than a line height apart
  /// down it, a word space of the turned line (an em at most).
  static func joiningWords(_ boxes: [PixelRect], lineHeight h: Double) -> [PixelRect] {
    var lines = boxes.sorted { $0.minY < $1.minY }
    var i = 0
    while i < lines.count {
      var j = i + 1
      while j < lines.count {
        let a = lines[i]
        let b = lines[j]
        let shared = min(a.maxX, b.maxX) - max(a.minX, b.minX)
        let gap = max(a.minY - b.maxY, b.minY - a.maxY)
        if 2 * shared >= min(a.width, b.width), Double(gap) < h {
          lines[i] = a.union(b)
          lines.remove(at: j)
          j = i + 1
        } else {
          j += 1
        }
      }
      i += 1
    }
    return lines
  }

  /// A point of a crop turned `quarterTurns` clockwise, back in the
  /// crop's upright pixels.
  /// - Parameters:
  ///   - point: A point of the turned crop.
  ///   - quarterTurns: 1 (the crop was turned clockwise: text read upward
  ///     in the page) or 3 (turned counter-clockwise: text read downward).
  ///   - width: The upright crop's width.
  ///   - height: The upright crop's height.
  package static func unturned(_ point: Point, quarterTurns: Int, width: Int, height: Int)
    -> Point
  {
    // Clockwise: (x, y) -> (height - y, x); counter-clockwise: (x, y) ->
    // (y, width - x). Each undone.
    quarterTurns == 1
      ? Point(x: point.y, y: Double(height) - point.x)
      : Point(x: Double(width) - point.y, y: point.x)
  }

  /// A box read in a turned crop as a quad in the page, corners in
  /// reading order, and its box there.
  /// - Parameters:
  ///   - box: A box in the turned crop's pixels.
  ///   - quarterTurns: As for ``unturned(_:quarterTurns:width:height:)``.
  ///   - crop: The upright crop's box in the page.
  package static func placed(_ box: PixelRect, quarterTurns: Int, crop: PixelRect) -> (
    quad: Quad, box: PixelRect
  ) {
    func back(_ x: Int, _ y: Int) -> Point {
      let p = unturned(
        Point(x: Double(x), y: Double(y)), quarterTurns: quarterTurns, width: crop.width,
        height: crop.height)
      return Point(x: p.x + Double(crop.minX), y: p.y + Double(crop.minY))
    }
    let quad = Quad(
      topLeft: back(box.minX, box.minY), topRight: back(box.maxX, box.minY),
      bottomRight: back(box.maxX, box.maxY), bottomLeft: back(box.minX, box.maxY))
    let xs = quad.corners.map(\.x)
    let ys = quad.corners.map(\.y)
    let rect = PixelRect(
      minX: Int(xs.min() ?? 0), minY: Int(ys.min() ?? 0), maxX: Int(xs.max() ?? 0),
      maxY: Int(ys.max() ?? 0))
    return (quad, rect)
  }
}
