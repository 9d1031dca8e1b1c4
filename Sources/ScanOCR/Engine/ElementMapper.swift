import CScanOCR
import ScanImaging
import ScanModel

/// Moves elements recognised on a preprocessed image into the original
/// image's pixels: every box becomes the axis-aligned box of its mapped
/// outline (clamped to the image), and lines and words keep their mapped
/// corners as a quad when the mapping turns or tilts them.
///
/// A point maps through the page's ``PointMap``: the steps that moved
/// pixels, the last one's map first.
struct ElementMapper {
  let map: PointMap
  let width: Int
  let height: Int

  init(map: PointMap, width: Int, height: Int) {
    (self.map, self.width, self.height) = (map, width, height)
  }

  /// The one projective map to the original, when there is one (no
  /// dewarping, no folded spread): then a box maps corner by corner and
  /// an upright one may stay a box.
  private var transform: ImageTransform? { map.projective }

  /// Whether the dewarp step bent the recognised image's lines.
  private var dewarped: Bool { map.bends }

  /// Whether the recognised image is the original, pixel for pixel: boxes
  /// come back as Tesseract gave them.
  var isIdentity: Bool { map.isIdentity }

  /// Whether the recognised image is the original only enlarged or
  /// reduced (the upscale step): its lines stay as level as the
  /// original's, and their places scale with it.
  var onlyScales: Bool {
    guard let t = map.projective else { return false }
    return t.keepsBoxesUpright && t.c == 0 && t.f == 0
  }

  /// Whether the recognised image is the original turned by quarter
  /// turns and nothing else (the orientation step alone): every box maps
  /// to a box of the same pixels, turned.
  var onlyTurns: Bool {
    guard let t = map.projective, t.g == 0, t.h == 0 else { return false }
    let quarter = t.a == 0 && t.e == 0 && abs(t.b) == 1 && t.d == -t.b
    let half = t.b == 0 && t.d == 0 && t.a == -1 && t.e == -1
    return quarter || half
  }

  /// A point of the recognised image in the original.
  func apply(_ p: Point) -> Point { map.apply(p) }

  /// A box's corners in the original.
  func mappedQuad(_ r: PixelRect) -> Quad {
    if let transform { return transform.quad(r) }
    return mappedQuad(Quad(r.rect))
  }

  /// A quad's corners in the original.
  func mappedQuad(_ q: Quad) -> Quad {
    Quad(
      topLeft: apply(q.topLeft), topRight: apply(q.topRight),
      bottomRight: apply(q.bottomRight), bottomLeft: apply(q.bottomLeft))
  }

  /// The shape of an element in the recognised image: under dewarping, its
  /// quad when the repair there gave it one (the lines of a dewarped page
  /// that still slopes a little run along its slope), else its box.
  func shape(_ r: PixelRect, _ q: Quad?) -> Quad {
    dewarped ? q ?? Quad(r.rect) : Quad(r.rect)
  }

  /// Points along a box's edges in the original: its corners, and under
  /// dewarping (which bends straight edges) eight more along each edge.
  func outline(_ r: PixelRect) -> [Point] {
    guard dewarped else { return mappedQuad(r).corners }
    return outline(Quad(r.rect))
  }

  /// Points along a quad's edges in the original, mapped through the
  /// dewarp step: its corners and eight more along each edge.
  func outline(_ q: Quad) -> [Point] {
    var points = mappedQuad(q).corners
    func at(_ a: Point, _ b: Point, _ t: Double) -> Point {
      apply(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
    }
    for i in 1..<9 {
      let t = Double(i) / 9
      points += [
        at(q.topLeft, q.topRight, t), at(q.bottomLeft, q.bottomRight, t),
        at(q.topLeft, q.bottomLeft, t), at(q.topRight, q.bottomRight, t),
      ]
    }
    return points
  }

  func map(_ blocks: [Block]) -> [Block] {
    guard !isIdentity else { return blocks }
    return blocks.map { block in
      Block(
        bbox: box(block.bbox),
        paragraphs: block.paragraphs.map { paragraph in
          Paragraph(
            bbox: box(paragraph.bbox),
            lines: paragraph.lines.map { line in
              let turn = Self.turn(of: line)
              let polygon = linePolygon(line, turn: turn)
              return TextLine(
                bbox: box(line.bbox, line.quad),
                quad: lineQuad(line, turn: turn, polygon: polygon), polygon: polygon,
                baseline: line.baseline.map {
                  Baseline(
                    start: ScanConventions.rounded(apply($0.start)),
                    end: ScanConventions.rounded(apply($0.end)))
                },
                words: line.words.map { word in
                  Word(
                    text: word.text, bbox: box(word.bbox, word.quad),
                    quad: quad(word.bbox, word.quad, turn: turn), confidence: word.confidence,
                    glyphs: word.glyphs.map {
                      Glyph(
                        text: $0.text, bbox: box($0.bbox, $0.quad),
                        quad: quad($0.bbox, $0.quad, turn: turn), confidence: $0.confidence)
                    })
                })
            })
        })
    }
  }

  /// Quarter turns (clockwise) from a box's corners to a line's reading
  /// order: 1 for a line Tesseract read down the image it recognised (its
  /// baseline runs down), 3 for one read up, 0 otherwise.
  static func turn(of line: TextLine) -> Int {
    guard let b = line.baseline else { return 0 }
    let dx = b.end.x - b.start.x
    let dy = b.end.y - b.start.y
    guard abs(dy) > abs(dx) else { return 0 }
    return dy > 0 ? 1 : 3
  }

  /// A quad's corners named from `turn` quarter turns on (see
  /// ``turn(of:)``): the top-left corner of a line read down is the box's
  /// top-right one.
  static func turned(_ q: Quad, _ turn: Int) -> Quad {
    switch turn {
    case 1:
      Quad(
        topLeft: q.topRight, topRight: q.bottomRight, bottomRight: q.bottomLeft,
        bottomLeft: q.topLeft)
    case 3:
      Quad(
        topLeft: q.bottomLeft, topRight: q.topLeft, bottomRight: q.topRight,
        bottomLeft: q.bottomRight)
    default: q
    }
  }

  /// The mapped corners, rounded to the export's precision, or `nil` when
  /// the mapping keeps boxes upright. On a turned or dewarped page, the
  /// corners of a line read down or up (`turn`) are named in its reading
  /// order, as its line's are.
  func quad(_ r: PixelRect, _ recognised: Quad? = nil, turn: Int = 0) -> Quad? {
    guard transform?.keepsBoxesUpright != true else { return nil }
    // A quad the repair made is named in reading order already.
    let q =
      dewarped && recognised != nil
      ? mappedQuad(shape(r, recognised)) : Self.turned(mappedQuad(r), turn)
    return ScanConventions.rounded(q)
  }

  /// A line's outline: its mapped corners; under perspective (where a box
  /// maps to a trapezoid, which a line's selection band, a rectangle along
  /// the line, cannot follow) the rectangle along the mapped line that
  /// holds them; under dewarping (where a straightened line maps back to
  /// a curve) the rectangle along the chord of its polygon (`polygon`,
  /// ``linePolygon(_:turn:)``) that holds the polygon and its words' mapped
  /// corners (``TextLine/chordRectangle(of:holding:)``).
  func lineQuad(_ line: TextLine, turn: Int = 0, polygon: [Point]? = nil) -> Quad? {
    let r = line.bbox
    let q: Quad
    if dewarped, let polygon,
      let chord = TextLine.chordRectangle(
        of: polygon, holding: line.words.flatMap { mappedQuad(shape($0.bbox, $0.quad)).corners })
    {
      q = chord
    } else if map.splitsSpread || map.hasPerspective {
      q = Self.enclosingRectangle(mappedQuad(r))
    } else {
      return quad(r, turn: turn)
    }
    return ScanConventions.rounded(q)
  }

  /// Cross-sections of a curved line are at most this far apart along it,
  /// in pixels of the recognised image: the disparity is sampled every 60
  /// px (Leptonica's `sampling` 30 on the page halved), so a chord between
  /// cross-sections strays from the mapped edge by a small fraction of a
  /// pixel.
  static let polygonStep = 48.0

  /// Under dewarping, the line's outline in the recognised image (its
  /// quad, else its box named in reading order from `turn`) mapped back as
  /// a polygon following the curve (``TextLine/polygon``): points along its
  /// top edge, at most ``polygonStep`` apart, then back along its bottom
  /// edge. `nil` without dewarping, or when the mapped outline does not
  /// have a curved line's shape (``TextLine/isLinePolygon(_:)``).
  func linePolygon(_ line: TextLine, turn: Int = 0) -> [Point]? {
    guard dewarped else { return nil }
    let q = line.quad ?? Self.turned(Quad(line.bbox.rect), turn)
    let dx = q.topRight.x - q.topLeft.x
    let dy = q.topRight.y - q.topLeft.y
    let length = (dx * dx + dy * dy).squareRoot()
    // At least three cross-sections, so that the polygon (six points or
    // more) is told from a quad when read back from ALTO or PAGE XML.
    let k = max(3, Int((length / Self.polygonStep).rounded(.up)) + 1)
    func along(_ a: Point, _ b: Point) -> [Point] {
      (0..<k).map { i in
        let t = Double(i) / Double(k - 1)
        return ScanConventions.rounded(
          apply(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)))
      }
    }
    let polygon = along(q.topLeft, q.topRight) + along(q.bottomRight, q.bottomLeft)
    // Only an outline that reads back as one (every export is read back
    // through this test); otherwise the line keeps its chord's rectangle.
    return TextLine.isLinePolygon(polygon) ? polygon : nil
  }

  /// The smallest rectangle along a quad's mean top and bottom direction
  /// that holds its corners, corners in the same reading order.
  static func enclosingRectangle(_ q: Quad) -> Quad {
    let top = Point(x: q.topRight.x - q.topLeft.x, y: q.topRight.y - q.topLeft.y)
    let bottom = Point(x: q.bottomRight.x - q.bottomLeft.x, y: q.bottomRight.y - q.bottomLeft.y)
    let along = Point(x: top.x + bottom.x, y: top.y + bottom.y)
    let length = (along.x * along.x + along.y * along.y).squareRoot()
    guard length > 0 else { return q }
    let u = Point(x: along.x / length, y: along.y / length)
    // Across the line, toward the bottom edge.
    var v = Point(x: -u.y, y: u.x)
    if (q.bottomLeft.x - q.topLeft.x) * v.x + (q.bottomLeft.y - q.topLeft.y) * v.y < 0 {
      v = Point(x: -v.x, y: -v.y)
    }
    let corners = [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft]
    let us = corners.map { $0.x * u.x + $0.y * u.y }
    let vs = corners.map { $0.x * v.x + $0.y * v.y }
    let u0 = us.min() ?? 0
    let u1 = us.max() ?? 0
    let v0 = vs.min() ?? 0
    let v1 = vs.max() ?? 0
    func point(_ a: Double, _ b: Double) -> Point {
      Point(x: u.x * a + v.x * b, y: u.y * a + v.y * b)
    }
    return Quad(
      topLeft: point(u0, v0), topRight: point(u1, v0), bottomRight: point(u1, v1),
      bottomLeft: point(u0, v1))
  }

  /// The box of an element in the original: that of its shape's mapped
  /// outline (``shape(_:_:)``).
  func box(_ r: PixelRect, _ recognised: Quad?) -> PixelRect {
    guard dewarped, let recognised else { return box(r) }
    return box(points: outline(recognised))
  }

  func box(_ r: PixelRect) -> PixelRect { box(points: outline(r)) }

  private func box(points: [Point]) -> PixelRect {
    let bounds = Rect(
      minX: points.map(\.x).min() ?? 0, minY: points.map(\.y).min() ?? 0,
      maxX: points.map(\.x).max() ?? 0, maxY: points.map(\.y).max() ?? 0)
    // Box edges lie on the cracks between pixels: round each to the
    // nearest crack, keeping at least one pixel.
    let minX = min(max(0, Int(bounds.minX.rounded())), max(0, width - 1))
    let minY = min(max(0, Int(bounds.minY.rounded())), max(0, height - 1))
    return PixelRect(
      minX: minX, minY: minY,
      maxX: max(minX + 1, min(width, Int(bounds.maxX.rounded()))),
      maxY: max(minY + 1, min(height, Int(bounds.maxY.rounded()))))
  }
}
