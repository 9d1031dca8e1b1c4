import ScanModel

/// A page number OCR did not read: the ink of a folio printed alone in the
/// page's top or bottom band.
///
/// Tesseract's layout analysis drops a small number standing alone at the
/// foot of a page ("1", "27", "124", "xi") as noise: nothing of it comes
/// out. A folio is typeset as a few figures of the running text's size,
/// the outermost text of the page, set apart from any other text by at
/// least a tab. This finds ink that looks so among a band's connected
/// components, for a second look at it alone (the caller reads it with
/// Tesseract and keeps it only when it reads as a page number):
///
/// - **Not read**: the ink lies in no word's box (with a quarter of a
///   line's height round it).
/// - **A few glyphs of text size**: components closer than half a line's
///   height to each other (letters, the dots of "iii") make one group;
///   a group is a half to twice a line's height tall and at most five
///   times as wide as tall (four figures between dashes).
/// - **Alone**: no word and no other group within one and a half line
///   heights on its row, and none of it on the band's edge (a scan's dark
///   border).
/// - **Outermost**: no word and no other group lies further out (below a
///   foot, above a head) than its row.
/// - **One or two a band**: a page carries one folio, a spread two; more
///   such groups are the labels of a figure or a table.
package enum FolioInk {
  /// The boxes of ink in a band that stand where a page number is printed.
  /// - Parameters:
  ///   - components: The band's connected components of ink, in page
  ///     pixels.
  ///   - words: The boxes of the page's words OCR read.
  ///   - band: The band looked at (the page's top or bottom band).
  ///   - atTop: Whether the band is the page's top (else its bottom).
  ///   - lineHeight: The height of the page's words (the median), in
  ///     pixels.
  /// - Returns: At most two boxes, left to right; none when more stand
  ///   alone in the band, or when the band holds more than 400 components
  ///   (a picture, noise).
  /// - Complexity: O(*c*² + *c* · *w*) in the components *c* (at most
  ///   400) and the words *w*.
  package static func candidates(
    components: [PixelRect], words: [PixelRect], band: PixelRect, atTop: Bool,
    lineHeight: Double
  ) -> [PixelRect] {
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
    guard ink.count <= 400 else { return [] }
    let groups = grouped(ink, reach: h / 2)
    let others = groups + words
    let alone = groups.filter { g in
      let tall = Double(g.height)
      guard tall >= h / 2, tall <= 2 * h, Double(g.width) <= 5 * tall,
        g.minX > band.minX, g.maxX < band.maxX, g.minY > band.minY, g.maxY < band.maxY
      else { return false }
      let row = others.filter { $0 != g && $0.minY < g.maxY && g.minY < $0.maxY }
      let crowded = row.contains {
        Double(max($0.minX - g.maxX, g.minX - $0.maxX)) < 1.5 * h
      }
      let further = others.contains {
        $0 != g && !row.contains($0) && (atTop ? $0.maxY <= g.minY : $0.minY >= g.maxY)
      }
      return !crowded && !further
    }
    guard alone.count <= 2 else { return [] }
    return alone.sorted { $0.minX < $1.minX }
  }

  /// The boxes of `boxes` joined where they come within `reach` of each
  /// other across and down, until no two are that close.
  static func grouped(_ boxes: [PixelRect], reach: Double) -> [PixelRect] {
    var groups = boxes
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
          let down = Double(max(a.minY - b.maxY, b.minY - a.maxY))
          if across <= reach, down <= reach {
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
