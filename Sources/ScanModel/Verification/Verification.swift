/// One way a page's geometry can be inconsistent.
public enum ViolationKind: String, Sendable, CaseIterable {
  /// A word's box reaches outside its line's box.
  case wordOutsideLine
  /// A glyph's box reaches outside its word's box.
  case glyphOutsideWord
  /// A line's selection rect does not cover one of its word boxes.
  case selectionMissesWord
  /// A line's selection rect does not cover one of its glyph boxes.
  case selectionMissesGlyph
  /// A line's selection rect reaches outside the line's box.
  case selectionOutsideLine
  /// The selection rects of two lines overlap.
  case selectionsOverlap
  /// Carets along a line do not advance in reading direction.
  case caretsOutOfOrder
  /// `characterRange(at:)` at a glyph's centre is not that glyph's range.
  case hitTestMissesGlyph
  /// `text(in: line.range)` differs from the line's text.
  case lineTextMismatch
  /// A box with no area.
  case emptyBox
  /// A box far too large for its text (a known Tesseract failure).
  case oversizedBox
}

/// One violation: what, where, and the numbers.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var kind: ViolationKind
  /// The page's index in its document.
  public var page: Int
  /// The element, such as `line 3 word 2 "quick"`.
  public var element: String
  /// The numbers behind the finding.
  public var detail: String

  public var description: String { "page \(page), \(element): \(kind.rawValue): \(detail)" }
}

/// How strict ``Page/verify(tolerance:)`` is.
public struct VerificationReport: Sendable {
  /// Every violation found, grouped by element in reading order.
  public var violations: [Violation]
  /// How many checks were made.
  public var checks: Int
  /// Whether no check failed.
  public var passed: Bool { violations.isEmpty }
}

extension Page {
  /// Checks the page's selection geometry against its OCR boxes.
  ///
  /// - Each word lies inside its line and each glyph inside its word.
  /// - The selection rect of each whole line covers all its word and glyph
  ///   boxes and stays within the line's box.
  /// - The selection rects of different lines do not overlap.
  /// - Carets advance along each line.
  /// - ``characterRange(at:)`` at each glyph's centre lies in the glyph's range.
  /// - `text(in: line.range) == line.text`.
  /// - No box is empty, and no word of a few characters covers a tenth of the
  ///   page while being over three times as tall and as wide as the page's
  ///   median word height (a known Tesseract failure; a page of large print
  ///   on a small image is not one).
  ///
  /// - Parameter tolerance: Pixels by which a box may stick out of the box
  ///   that should hold it.
  /// - Returns: A report listing every violation with the element and numbers.
  /// - Complexity: O(*n* log *n*) in the glyphs of the page.
  public func verify(tolerance: Double = 2) -> VerificationReport {
    var v = Verifier(page: self, tolerance: tolerance)
    v.run()
    return VerificationReport(violations: v.violations, checks: v.checks)
  }
}

private struct Verifier {
  let page: Page
  let tolerance: Double
  var violations: [Violation] = []
  var checks = 0

  init(page: Page, tolerance: Double) {
    self.page = page
    self.tolerance = tolerance
  }

  mutating func report(_ kind: ViolationKind, _ element: String, _ detail: String) {
    violations.append(Violation(kind: kind, page: page.index, element: element, detail: detail))
  }

  mutating func expect(
    _ ok: Bool, _ kind: ViolationKind, _ element: @autoclosure () -> String,
    _ detail: @autoclosure () -> String
  ) {
    checks += 1
    if !ok { report(kind, element(), detail()) }
  }

  /// The most characters of a word's text an element's name quotes.
  static let shownCharacters = 40

  /// A word's text as element names quote it: whole up to
  /// ``shownCharacters``, else its start and "…". A name is made for
  /// every glyph of the word, so quoting the whole text made a forged
  /// word of *n* glyphs cost O(*n*²) time and memory (40,000 glyphs took
  /// 1.7 GB); names now take O(1) each.
  static func shown(_ text: String) -> String {
    var end = text.startIndex
    guard text.formIndex(&end, offsetBy: shownCharacters, limitedBy: text.endIndex),
      end < text.endIndex
    else { return text }
    return text[..<end] + "…"
  }

  static func inside(_ inner: Rect, _ outer: Rect, tolerance: Double) -> Bool {
    inner.minX >= outer.minX - tolerance && inner.minY >= outer.minY - tolerance
      && inner.maxX <= outer.maxX + tolerance && inner.maxY <= outer.maxY + tolerance
  }

  mutating func run() {
    let page = self.page
    let tolerance = self.tolerance
    let pageArea = Double(max(page.width, 1) * max(page.height, 1))
    var selections: [(number: Int, outline: [Point])] = []
    let medianWordHeight = Self.medianWordHeight(page)
    for n in 0..<page.lineCount {
      guard let line = page.line(number: n) else { continue }
      let lineName = "line \(n)"
      let lineBox = line.corners.boundingRect
      let outline = SelectionBand(
        page.quad(forLineNumber: n) ?? line.corners, polygon: line.polygon)
      expect(!line.bbox.isEmpty, .emptyBox, lineName, "bbox \(line.bbox) has no area")
      expect(
        page.text(in: line.range) == line.text, .lineTextMismatch, lineName,
        "text(in: \(line.range.offsets)) is \"\(page.text(in: line.range) ?? "nil")\", line text is \"\(line.text)\""
      )

      let rects = page.selectionRects(for: line.range)
      expect(
        rects.count == 1, .selectionMissesWord, lineName,
        "a whole line has \(rects.count) selection rects")
      guard let selection = rects.first else { continue }
      expect(
        outline.covers(selection.polygon ?? selection.quad.corners, tolerance: tolerance),
        .selectionOutsideLine, lineName,
        "selection \(selection.bounds) reaches outside the line's outline \(outline.quad.boundingRect)"
      )
      selections.append((n, selection.polygon ?? selection.quad.corners))
      // A curved selection is seen along its polygon's chord, as a line
      // with a polygon is (its quad is the chord's rectangle): the quad of
      // its corners on the curve runs along its top edge, which a line cut
      // short at one end (a step in its outline) tilts against the chord,
      // and a word at that end then seemed to lie past the band's length.
      let selectionBand = SelectionBand(
        selection.polygon.flatMap { TextLine.chordRectangle(of: $0) } ?? selection.quad,
        polygon: selection.polygon)

      var lastU = -Double.infinity
      for (w, word) in line.words.enumerated() {
        let wordName = "\(lineName) word \(w) \"\(Self.shown(word.text))\""
        let wordBox = word.corners.boundingRect
        expect(!word.bbox.isEmpty, .emptyBox, wordName, "bbox \(word.bbox) has no area")
        expect(
          !(word.text.count <= 12 && Double(word.bbox.area) > pageArea / 10
            && word.corners.boundingRect.height > 3 * medianWordHeight
            && word.corners.boundingRect.width > 3 * medianWordHeight), .oversizedBox,
          wordName,
          "bbox \(word.bbox) covers \(ScanConventions.rounded(100 * Double(word.bbox.area) / pageArea))% of the page"
        )
        expect(
          Self.inside(wordBox, lineBox, tolerance: tolerance), .wordOutsideLine, wordName,
          "bbox \(word.bbox) is outside line box \(line.bbox)")
        expect(
          selectionBand.covers(
            word.corners.corners, tolerance: tolerance, upright: word.quad == nil),
          .selectionMissesWord, wordName,
          "bbox \(word.bbox) is not covered by line selection \(selection.bounds)")
        for offset in word.range.lowerBound.offset...word.range.upperBound.offset {
          guard let caret = page.caretRect(for: TextPosition(offset: offset)) else { continue }
          let u = selectionBand.along(caret.quad.topLeft)
          expect(
            u >= lastU - tolerance, .caretsOutOfOrder, wordName,
            "caret at \(offset) is at \(ScanConventions.rounded(u)) along the line, before the previous caret at \(ScanConventions.rounded(lastU))"
          )
          lastU = max(lastU, u)
        }
        for (g, glyph) in word.glyphs.enumerated() {
          let glyphName = "\(wordName) glyph \(g) \"\(Self.shown(glyph.text))\""
          expect(!glyph.bbox.isEmpty, .emptyBox, glyphName, "bbox \(glyph.bbox) has no area")
          expect(
            Self.inside(glyph.corners.boundingRect, wordBox, tolerance: tolerance),
            .glyphOutsideWord, glyphName,
            "bbox \(glyph.bbox) is outside word box \(word.bbox)")
          expect(
            selectionBand.covers(
              glyph.corners.corners, tolerance: tolerance, upright: glyph.quad == nil),
            .selectionMissesGlyph,
            glyphName, "bbox \(glyph.bbox) is not covered by line selection \(selection.bounds)")
          guard !glyph.range.isEmpty, !glyph.bbox.isEmpty else { continue }
          let centre = selectionBand.pointOnBand(glyph.corners.boundingRect.center)
          let hit = page.characterRange(at: centre)
          // A hit answers a whole grapheme cluster: a glyph of a combining
          // mark (Arabic tanwin, read as a glyph of its own) is hit when
          // its cluster is.
          let ok =
            hit.map {
              glyph.range.contains($0.lowerBound)
                || ($0.lowerBound.offset <= glyph.range.lowerBound.offset
                  && glyph.range.upperBound.offset <= $0.upperBound.offset)
            } ?? false
          expect(
            ok, .hitTestMissesGlyph, glyphName,
            "characterRange(at: \(centre)) is \(hit.map { "\($0.offsets)" } ?? "nil"), glyph range is \(glyph.range.offsets)"
          )
        }
      }
    }
    checkSelectionsApart(selections)
  }

  /// The selections of different lines do not overlap (beyond `tolerance`
  /// times the shorter one's length). A curved line's selection is the
  /// convex pieces between its cross-sections (``ConvexPolygon/pieces(of:)``).
  mutating func checkSelectionsApart(_ selections: [(number: Int, outline: [Point])]) {
    let bounds = selections.map { Rect(bounding: $0.outline) }
    let index = SpatialIndex(bounds)
    let pieces = selections.map { ConvexPolygon.pieces(of: $0.outline) }
    for (i, a) in selections.enumerated() {
      var overlaps: [Int] = []
      index.forEachItem(intersecting: bounds[i]) { j in
        if j > i { overlaps.append(j) }
      }
      for j in overlaps.sorted() {
        let b = selections[j]
        var overlap = 0.0
        for p in pieces[i] {
          let pb = Rect(bounding: p)
          for q in pieces[j] where Rect(bounding: q).overlapArea(with: pb) > 0 {
            overlap += ConvexPolygon.intersectionArea(p, q)
          }
        }
        let length = min(ConvexPolygon.length(of: a.outline), ConvexPolygon.length(of: b.outline))
        expect(
          overlap <= tolerance * max(length, 1), .selectionsOverlap, "line \(b.number)",
          "selection overlaps line \(a.number)'s by \(ScanConventions.rounded(overlap)) px²")
      }
    }
  }

  /// The median height of the page's words across their lines.
  static func medianWordHeight(_ page: Page) -> Double {
    var heights: [Double] = []
    for n in 0..<page.lineCount {
      guard let line = page.line(number: n) else { continue }
      let frame = LineFrame(page.quad(forLineNumber: n) ?? line.corners, polygon: line.polygon)
      for word in line.words {
        let v = frame.extentV(word.corners)
        heights.append(v.upperBound - v.lowerBound)
      }
    }
    heights.sort()
    return heights.isEmpty ? 0 : heights[heights.count / 2]
  }
}

/// A selection quad seen in its own frame, to test coverage of rotated boxes.
private struct SelectionBand {
  let frame: LineFrame
  let length: Double
  let quad: Quad

  init(_ quad: Quad, polygon: [Point]? = nil) {
    self.quad = quad
    frame = LineFrame(quad, polygon: polygon)
    length = frame.length
  }

  func along(_ p: Point) -> Double { frame.local(p).u }

  /// `p` moved across the band onto it, a quarter pixel inside its edge
  /// when it lies beyond: the point of a glyph that a tap on its line
  /// reaches. A glyph may stick out of its line's band by the coverage
  /// tolerance, and a sliver of a glyph written in whole pixels (hOCR,
  /// PAGE: a speck's glyph under a pixel high, squeezed between two curled
  /// lines, rounds to a pixel that straddles their boundary) has its centre
  /// on the next line's band.
  func pointOnBand(_ p: Point) -> Point {
    let (u, v) = frame.local(p)
    let margin = min(0.25, (frame.bandBottom - frame.bandTop) / 4)
    let top = frame.bandTop + margin
    let bottom = frame.bandBottom - margin
    guard top <= bottom, v < top || v > bottom else { return p }
    return frame.point(u: u, v: min(max(v, top), bottom))
  }

  /// Whether the quad lies inside the band. An upright box on a sloped
  /// band (Tesseract's boxes on a skewed page) holds ink that follows the
  /// slope, so its corners may stick out across the band by its length
  /// times the slope's sine; that much is allowed.
  func covers(_ points: [Point], tolerance: Double, upright: Bool = false) -> Bool {
    let local = points.map { frame.local($0) }
    var across = tolerance
    if upright {
      let us = local.map(\.u)
      across += ((us.max() ?? 0) - (us.min() ?? 0)) * min(abs(frame.axisU.y), abs(frame.axisU.x))
    }
    return local.allSatisfy { (u, v) in
      u >= -tolerance && u <= length + tolerance && v >= frame.bandTop - across
        && v <= frame.bandBottom + across
    }
  }
}

/// Area of the intersection of two convex polygons (Sutherland–Hodgman).
enum ConvexPolygon {
  /// A band's outline as convex pieces: a quad as it is; a curved band
  /// (`2k` points, top edge then bottom edge back) as the `k − 1`
  /// quadrilaterals between its cross-sections.
  static func pieces(of outline: [Point]) -> [[Point]] {
    let k = outline.count / 2
    guard outline.count > 4, outline.count % 2 == 0 else { return [outline] }
    return (0..<(k - 1)).map { i in
      [outline[i], outline[i + 1], outline[2 * k - 2 - i], outline[2 * k - 1 - i]]
    }
  }

  /// A band's length: a quad's top edge; a curved band's chord, from
  /// the middle of its first cross-section to the middle of its last.
  static func length(of outline: [Point]) -> Double {
    if outline.count == 4 { return (outline[1] - outline[0]).length }
    guard let (start, end) = TextLine.chord(of: outline) else { return 0 }
    return (end - start).length
  }

  static func intersectionArea(_ a: [Point], _ b: [Point]) -> Double {
    var output = a
    let orientation = signedArea(b) >= 0 ? 1.0 : -1.0
    for i in b.indices {
      let p = b[i]
      let q = b[(i + 1) % b.count]
      let input = output
      output = []
      guard !input.isEmpty else { break }
      func inside(_ x: Point) -> Bool { orientation * cross(q - p, x - p) >= 0 }
      for j in input.indices {
        let cur = input[j]
        let prev = input[(j + input.count - 1) % input.count]
        if inside(cur) {
          if !inside(prev), let x = intersect(prev, cur, p, q) { output.append(x) }
          output.append(cur)
        } else if inside(prev), let x = intersect(prev, cur, p, q) {
          output.append(x)
        }
      }
    }
    return abs(signedArea(output))
  }

  private static func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - a.y * b.x }

  private static func signedArea(_ p: [Point]) -> Double {
    guard p.count > 2 else { return 0 }
    var s = 0.0
    for i in p.indices { s += cross(p[i], p[(i + 1) % p.count]) }
    return s / 2
  }

  private static func intersect(_ a: Point, _ b: Point, _ p: Point, _ q: Point) -> Point? {
    let r = b - a
    let s = q - p
    let d = cross(r, s)
    guard abs(d) > 1e-12 else { return nil }
    let t = cross(p - a, s) / d
    return a + r * t
  }
}
