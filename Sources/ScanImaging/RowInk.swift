import ScanModel

/// Cells OCR's page layout left out of a row: ink of letters on the row
/// of a line OCR read, a column's gap away from every word it read.
///
/// Tesseract's layout analysis drops short pieces of text standing apart
/// on small type as noise: on PubTabNet's crops (about 500 px wide,
/// letters 5–7 px high, read enlarged) a whole column of short cells
/// came out of no reading ("Rate" and its percentages in
/// `PMC5679144_002_01`; "Magnitude" and "Interval" in
/// `PMC3907710_006_00`), while the same ink read as part of a line
/// (PSM 4) reads. A table's cells stand on their row's baseline, apart
/// from the cells beside them by the column's gap; this finds ink that
/// stands so beside a line OCR read, for a second look at it alone (the
/// caller reads it with Tesseract restricted to it):
///
/// - **Not read**: the ink lies in no word's box (with a quarter of a
///   line's height round it).
/// - **Letters**: pieces closer than half a line's height across, and
///   overlapping down, make one group (the letters of a word, the words
///   of a cell set a space apart); a group is half to twice a line's
///   height tall (no rule, no picture, no speck).
/// - **On a read row**: its middle lies within the height of a line OCR
///   read whose words are a line's height (no taller than twice the
///   page's median word).
/// - **A column's gap away**: no word OCR read lies within a line's
///   height of it on that row (a word cut short is no cell).
package enum RowInk {
  /// The boxes of ink on read rows that OCR left out, each with the line
  /// whose row it stands on (the nearest across, of those whose height
  /// holds its middle), top to bottom and left to right on a row.
  /// - Parameters:
  ///   - components: The page's connected components of ink, in page
  ///     pixels.
  ///   - lines: The boxes of the lines OCR read.
  ///   - words: The boxes of the words OCR read.
  ///   - lineHeight: The height of the page's words (the median), in
  ///     pixels.
  /// - Returns: The groups of ink to read again, with the index in `lines`
  ///   of their row's line; none when the page holds more than
  ///   ``maxGroups`` groups left out (a picture, noise).
  /// - Complexity: O(*c*² + *c* · (*w* + *l*)) in the components *c* left
  ///   out, the words *w* and the lines *l*.
  package static func candidates(
    components: [PixelRect], lines: [PixelRect], words: [PixelRect], lineHeight: Double
  ) -> [(ink: PixelRect, line: Int)] {
    guard lineHeight >= 4 else { return [] }
    let h = lineHeight
    let margin = Int(h / 4)
    let read = words.map {
      PixelRect(
        minX: $0.minX - margin, minY: $0.minY - margin, maxX: $0.maxX + margin,
        maxY: $0.maxY + margin)
    }
    let ink = components.filter { c in
      Double(max(c.width, c.height)) >= h / 8 && !read.contains { $0.intersection(c) != nil }
    }
    guard ink.count <= 20 * maxGroups else { return [] }
    let groups = grouped(ink, reach: h / 2).filter {
      Double($0.height) >= h / 2 && Double($0.height) <= 2 * h
    }
    guard groups.count <= maxGroups else { return [] }
    func across(_ a: PixelRect, _ b: PixelRect) -> Int {
      max(a.minX - b.maxX, b.minX - a.maxX)
    }
    var found: [(ink: PixelRect, line: Int)] = []
    for g in groups {
      let middle = Double(g.minY + g.maxY) / 2
      let rows = lines.indices.filter {
        Double(lines[$0].height) <= 2 * h && Double(lines[$0].minY) <= middle
          && middle <= Double(lines[$0].maxY)
      }
      guard let row = rows.min(by: { across(lines[$0], g) < across(lines[$1], g) }) else {
        continue
      }
      let line = lines[row]
      let beside = words.filter {
        $0.minY < max(g.maxY, line.maxY) && min(g.minY, line.minY) < $0.maxY
      }
      if beside.contains(where: { Double(across($0, g)) < h }) { continue }
      found.append((g, row))
    }
    return found.sorted { ($0.ink.minY, $0.ink.minX) < ($1.ink.minY, $1.ink.minX) }
  }

  /// More groups of ink left out than this: the page holds a picture or
  /// noise, not cells.
  package static let maxGroups = 100

  /// The boxes of `boxes` joined where they come within `reach` of each
  /// other across and overlap down, until no two do.
  static func grouped(_ boxes: [PixelRect], reach: Double) -> [PixelRect] {
    var groups = boxes.sorted { ($0.minX, $0.minY) < ($1.minX, $1.minY) }
    var merged = true
    while merged {
      merged = false
      var i = 0
      while i < groups.count {
        var j = i + 1
        while j < groups.count {
          let a = groups[i]
          let b = groups[j]
          let across = Double(max(a.minX - b.maxX, b.minX - a.maxX))
          if across <= reach, a.minY < b.maxY, b.minY < a.maxY {
            groups[i] = a.union(b)
            groups.remove(at: j)
            merged = true
          } else {
            j += 1
          }
        }
        i += 1
      }
    }
    return groups
  }
}
