import Foundation

/// Repairs the geometry an OCR engine reports so that a page keeps the
/// contract ``Page/verify(tolerance:)`` checks: every glyph lies inside its
/// word, every word inside its line's selection outline, the outlines of
/// different lines do not overlap, and the centre of every glyph hit-tests
/// to that glyph.
///
/// Tesseract's real output breaks that contract in known ways: glyph boxes
/// with no area (`[0, 0, 0, 0]` on text it reads down the page), glyph boxes
/// outside their word or in the wrong order along it, and line boxes that
/// overlap their neighbours (descenders of one line reach into the next;
/// a stain read as a tall word makes a line as tall as three). The repair
/// never changes text, ranges, confidences or the element tree; it changes
/// only boxes and outlines, by these rules, each applied in the line's own
/// frame (`u` along the text, `v` across it):
///
/// 1. **Line direction.** A line keeps its quad when it has one. A line
///    without a quad whose baseline runs down or up the page (a page turned
///    by 90° read without orientation detection) and whose box is taller
///    than wide gets a quad in that direction, so selection, carets and hit
///    testing run along the text. Other lines keep their box (a baseline
///    sloped by under 45° is followed by the selection outline as before).
/// 2. **Glyphs.** A glyph box is clipped to its word's box. A glyph whose box
///    has no area (or nothing left after clipping) gets the gap between its
///    neighbours along the line, shared by grapheme count among the glyphs
///    of that gap. When the glyphs' centres do not advance along the line, or
///    a gap is narrower than a pixel per glyph, every glyph of the word gets
///    a share of the word's box along the line by grapheme count.
/// 3. **Overlapping lines.** Where the outlines of two lines overlap, both
///    are cut at the middle of the overlap: across the lines when they are
///    stacked (the overlap is shallower than it is long), along them when
///    they stand side by side. The boxes of the lines' words and glyphs are
///    clipped to their line's cut outline. A word or glyph with nothing left
///    keeps a one-pixel sliver at the cut, inside its line. Lines sloped
///    differently (within 10°: a curled or unevenly skewed page read as it
///    is) are cut in the longer one's frame, at the middle of their overlap
///    where both lie, and on a line of quads the cut keeps its angle to the
///    line and holds only where the other line lies along it: the line's
///    outline becomes a ``TextLine/polygon`` following its cuts, so that
///    its words lose only their part in the overlap.
/// 4. Each box holds its children: a line's outline is its words' union
///    (then cut), a word's box holds its clipped glyphs. Glyphs are
///    clipped in the line's frame; a word tilted against its line (the
///    words of a curled line follow the curve, its frame the chord) is then
///    written from its box in that frame whenever a glyph would leave the
///    word's own box by more than a pixel.
///
/// 5. **Sloped lines.** On a page read as it is while skewed, lines whose
///    baseline slopes by 0.5°–45°, and level lines within 1° of the page's
///    median slope, run along that median slope: their lines, words and
///    glyphs get quads along it (a word's height from its glyphs' boxes,
///    which follow the slope more closely than the word's upright box), so
///    that neighbouring lines can be cut apart exactly.
/// 6. **Words along a line** that overlap or run backwards are cut apart
///    at the middle of their overlap; the cuts are made to advance along
///    the line, keeping a pixel per glyph for each word. "Along the line"
///    is the reading direction: leftward in a right-to-left paragraph
///    (``Page/baseWritingDirection(for:in:)``), whose words and glyphs
///    advance from right to left.
///
/// A curved line (``TextLine/polygon``: a curled page's line, recognised on
/// the page straightened and repaired there by these rules before its
/// geometry was mapped back) is left as it is, and other lines are not cut
/// against it.
///
/// The repair is idempotent and leaves consistent geometry untouched:
/// an element whose box needs no change keeps its box and quad exactly.
public enum GeometryRepair {
  /// The blocks with repaired geometry; text, ranges and the element tree
  /// are unchanged.
  ///
  /// - Parameters:
  ///   - blocks: Blocks as an engine or importer produced them.
  ///   - slantedCuts: Whether a line cut apart from a neighbour sloped
  ///     differently keeps the cut at its angle, its outline becoming a
  ///     ``TextLine/polygon`` (the default). Off where the lines' outlines
  ///     are mapped onward as quads (a dewarped page's straightened lines,
  ///     which go back as curves): the cut is then held level at its worst
  ///     end.
  /// - Returns: The same blocks with boxes, quads and outlines repaired.
  /// - Complexity: O(*n* log *n*) in the glyphs, words and lines.
  public static func repair(_ blocks: [Block], slantedCuts: Bool = true) -> [Block] {
    var work = LineWork.collect(blocks)
    for i in work.indices { work[i].allowsSlantedCuts = slantedCuts }
    for i in work.indices {
      work[i].separateWords()
      work[i].repairGlyphs()
    }
    separateOverlappingLines(&work)
    var out = blocks
    for line in work {
      out[line.block].paragraphs[line.paragraph].lines[line.line] = line.finished()
    }
    for b in out.indices {
      for p in out[b].paragraphs.indices {
        let boxes = out[b].paragraphs[p].lines.map(\.bbox)
        out[b].paragraphs[p].bbox = PixelRect.union(boxes) ?? out[b].paragraphs[p].bbox
      }
      out[b].bbox = PixelRect.union(out[b].paragraphs.map(\.bbox)) ?? out[b].bbox
    }
    return out
  }

  /// Cuts every pair of overlapping lines apart (rule 3).
  static func separateOverlappingLines(_ lines: inout [LineWork]) {
    guard lines.count > 1 else { return }
    let index = SpatialIndex(lines.map(\.imageBounds))
    for i in lines.indices {
      var partners: [Int] = []
      index.forEachItem(intersecting: lines[i].imageBounds) { j in
        if j > i { partners.append(j) }
      }
      for j in partners.sorted() {
        guard let cut = Cut.between(lines[i], lines[j]) else { continue }
        lines[i].apply(cut.first)
        lines[j].apply(cut.second)
      }
    }
  }
}

extension GeometryRepair {
  /// The blocks with the box of every word drawn along a tilted, turned or
  /// curved line (a word with a quad) made the box of its glyphs' boxes:
  /// its ink, where the box of its quad also takes in the empty corners of
  /// a slanted band. Words without a quad, or without a glyph with area,
  /// keep their box; the box never grows. Quads, glyphs, lines and text are
  /// unchanged.
  ///
  /// On the generated photos and skewed pages this brings the mean word
  /// box IoU against the ink's boxes (`scantext eval`) from 0.853–0.957
  /// to 0.912–0.974 (`photo-curl` 0.861 → 0.923, `photo-spread` 0.895 →
  /// 0.912, `photo-perspective` 0.912 → 0.945).
  ///
  /// - Parameter blocks: Blocks whose geometry has been repaired.
  /// - Returns: The same blocks with tighter word boxes.
  /// - Complexity: O(*n*) in the glyphs.
  public static func fittingWordBoxesToGlyphs(_ blocks: [Block]) -> [Block] {
    blocks.updatingWords { word in
      guard word.quad != nil,
        let ink = PixelRect.union(word.glyphs.map(\.bbox).filter { !$0.isEmpty }),
        let fitted = ink.intersection(word.bbox), !fitted.isEmpty
      else { return }
      word.bbox = fitted
    }
  }
}

extension Page {
  /// The same page with its geometry repaired by ``GeometryRepair``, its
  /// provenance (steps, crop, perspective, PDF source, resolution source,
  /// orientation tag) and its figures kept.
  ///
  /// - Complexity: O(*n* log *n*) in the elements of the page.
  public func repairingGeometry() -> Page {
    Page(
      index: index, image: image, width: width, height: height, dpi: dpi,
      orientation: orientation, skew: skew, language: language,
      blocks: GeometryRepair.repair(blocks), steps: steps, crop: crop, perspective: perspective,
      pdf: pdf, source: source, dpiSource: dpiSource, exifOrientation: exifOrientation,
      figures: figures)
  }
}

/// A box in a line's frame: `u` along the text, `v` across it toward the
/// descenders.
struct FrameBox: Equatable {
  var u0: Double
  var u1: Double
  var v0: Double
  var v1: Double

  var du: Double { u1 - u0 }
  var dv: Double { v1 - v0 }
  var centreU: Double { (u0 + u1) / 2 }

  func union(_ o: FrameBox) -> FrameBox {
    FrameBox(u0: min(u0, o.u0), u1: max(u1, o.u1), v0: min(v0, o.v0), v1: max(v1, o.v1))
  }

  /// The part inside `o`; its extents may be empty (negative).
  func clipped(to o: FrameBox) -> FrameBox {
    FrameBox(u0: max(u0, o.u0), u1: min(u1, o.u1), v0: max(v0, o.v0), v1: min(v1, o.v1))
  }

  /// The part inside `o`, keeping at least `minimum` across and
  /// `along` (by default `minimum`) along the line, as far as `o` allows
  /// (a sliver at the edge of `o` nearest the original).
  func clampedInside(_ o: FrameBox, minimum: Double, along: Double? = nil) -> FrameBox {
    func axis(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double, minimum: Double) -> (
      Double, Double
    ) {
      var lo = max(a0, b0)
      var hi = min(a1, b1)
      if hi - lo < minimum {
        let width = min(minimum, b1 - b0)
        let centre = min(max((a0 + a1) / 2, b0 + width / 2), b1 - width / 2)
        lo = centre - width / 2
        hi = centre + width / 2
      }
      return (lo, hi)
    }
    let (u0, u1) = axis(u0, u1, o.u0, o.u1, minimum: along ?? minimum)
    let (v0, v1) = axis(v0, v1, o.v0, o.v1, minimum: minimum)
    return FrameBox(u0: u0, u1: u1, v0: v0, v1: v1)
  }
}

/// A rotation of the image axes: `u` along a line, `v` across it.
struct FrameAxes: Equatable {
  var u: Point
  var v: Point { Point(x: -u.y, y: u.x) }

  /// Whether the axes are the image's axes turned by a multiple of 90°, so
  /// boxes in the frame are upright boxes in the image.
  var isImageAligned: Bool {
    (u.x == 0 || u.y == 0) && abs(abs(u.x) + abs(u.y) - 1) < 1e-12
  }

  static let image = FrameAxes(u: Point(x: 1, y: 0))

  func box(_ points: [Point]) -> FrameBox {
    var b = FrameBox(u0: .infinity, u1: -.infinity, v0: .infinity, v1: -.infinity)
    let v = self.v
    for p in points {
      let pu = p.dot(u)
      let pv = p.dot(v)
      b.u0 = min(b.u0, pu)
      b.u1 = max(b.u1, pu)
      b.v0 = min(b.v0, pv)
      b.v1 = max(b.v1, pv)
    }
    return b
  }

  /// The extent across the frame of a convex outline's part between two
  /// values along it, or `nil` when nothing of it lies there.
  func extentV(of points: [Point], from u0: Double, to u1: Double) -> ClosedRange<Double>? {
    let v = self.v
    let local = points.map { (u: $0.dot(u), v: $0.dot(v)) }
    let part = PageLayout.clipped(local, from: u0, to: u1)
    guard let low = part.map(\.v).min(), let high = part.map(\.v).max() else { return nil }
    return low...high
  }

  func quad(_ b: FrameBox) -> Quad {
    let v = self.v
    func p(_ pu: Double, _ pv: Double) -> Point { u * pu + v * pv }
    return Quad(
      topLeft: p(b.u0, b.v0), topRight: p(b.u1, b.v0), bottomRight: p(b.u1, b.v1),
      bottomLeft: p(b.u0, b.v1))
  }
}

/// One half-plane constraint in a line's frame: keep `u` or `v` at most or
/// at least `value`, or, across a line cut at an angle to it (`slope` not
/// zero), `v` at most or at least `value + slope * u`.
struct FrameConstraint {
  enum Axis { case u, v }
  var axis: Axis
  var keepBelow: Bool
  var value: Double
  var slope = 0.0
  /// Where along the line the bound holds (a neighbour sloped differently
  /// lies only there); beyond, it eases off over ``LineWork/ramp(_:)``.
  var from = -Double.infinity
  var to = Double.infinity

  /// The bound at `u`.
  func value(at u: Double) -> Double { value + slope * u }

  /// Whether the bound is a slanted or partial cut, kept beside the
  /// line's level outline.
  var isPartial: Bool { slope != 0 || from.isFinite || to.isFinite }
}

/// How two overlapping lines are cut apart.
struct Cut {
  var first: FrameConstraint
  var second: FrameConstraint

  /// The cut between two lines, or `nil` when they do not overlap.
  ///
  /// Lines whose frames are parallel (to a millionth of the cosine: the
  /// lines of one skewed page share its slope exactly) or perpendicular
  /// are cut in the first line's frame; lines sloped differently but within
  /// ``nearlyParallelAngle`` of each other (the lines of a curled or
  /// skewed page read as it is) in the longer line's frame; lines at
  /// another angle to each other in the image's axes. Either way each line
  /// keeps one side of one straight cut. Stacked lines in a line's frame
  /// are cut at the middle of their overlap where both lie along the line
  /// (their common extent along it), so that a sloped line's far end,
  /// which no neighbour reaches, does not count as overlap; and a line
  /// sloped differently from its neighbour is cut only where the
  /// neighbour lies along it (``FrameConstraint/from``).
  ///
  /// Lines within 2.6° of each other once counted as parallel, and each was
  /// cut in the first one's frame over its whole length: on `photo-1002`
  /// the line ": Or unenforceable under any", at 1.4° to the short line
  /// above it, lost 36 of its 50 pixels at its far end, where "under" and
  /// "any" kept 6 and 4 of their 28 and 29 (truth boxes).
  static func between(_ a: LineWork, _ b: LineWork) -> Cut? {
    let parallel = abs(abs(a.axes.u.dot(b.axes.u)) - 1) < 1e-6
    let aligned = parallel || abs(abs(a.axes.u.dot(b.axes.v)) - 1) < 1e-3
    let nearlyParallel = abs(a.axes.u.dot(b.axes.u)) >= cos(nearlyParallelAngle * .pi / 180)
    let longer = (a.outline.du >= b.outline.du ? a : b).axes
    // Perpendicular lines (one read down the page across one read along
    // it) are cut in the longer one's frame, whichever comes first.
    let axes = parallel ? a.axes : aligned || nearlyParallel ? longer : FrameAxes.image
    let pointsA = a.outlinePoints
    let pointsB = b.outlinePoints
    let boxA = axes.box(pointsA)
    let boxB = axes.box(pointsB)
    let du = min(boxA.u1, boxB.u1) - max(boxA.u0, boxB.u0)
    var dv = min(boxA.v1, boxB.v1) - max(boxA.v0, boxB.v0)
    guard du > 0, dv > 0 else { return nil }
    // Stacked lines overlap less across than along: cut across them.
    let acrossCut = dv <= du
    if !acrossCut, aligned || nearlyParallel,
      let cut = yielding(a, boxA, b, boxB, axes: axes)
    {
      return cut
    }
    var (lo0, hi0, lo1, hi1) =
      acrossCut ? (boxA.v0, boxA.v1, boxB.v0, boxB.v1) : (boxA.u0, boxA.u1, boxB.u0, boxB.u1)
    if acrossCut, aligned || nearlyParallel {
      let from = max(boxA.u0, boxB.u0)
      let to = min(boxA.u1, boxB.u1)
      guard let common0 = axes.extentV(of: pointsA, from: from, to: to),
        let common1 = axes.extentV(of: pointsB, from: from, to: to)
      else { return nil }
      (lo0, hi0, lo1, hi1) = (
        common0.lowerBound, common0.upperBound, common1.lowerBound, common1.upperBound
      )
      dv = min(hi0, hi1) - max(lo0, lo1)
      guard dv > 0 else { return nil }
      if aligned, a.axes == b.axes, let cut = beside(a, b, from: from, to: to) { return cut }
    }
    var middle = (max(lo0, lo1) + min(hi0, hi1)) / 2
    if a.axes.isImageAligned && b.axes.isImageAligned { middle = middle.rounded() }
    // Lines sloped differently are cut only where the other lies along
    // them: the cut, straight in the longer line's frame, strays from a
    // line whose own slope differs (or whose frame does not follow its
    // words) beyond its neighbour's end.
    let partial = acrossCut && !aligned && nearlyParallel
    let aFirst = (lo0 + hi0) <= (lo1 + hi1)
    let n = acrossCut ? axes.v : axes.u
    return Cut(
      first: constraint(a, normal: n, middle: middle, atLeast: !aFirst, against: partial ? b : nil),
      second: constraint(b, normal: n, middle: middle, atLeast: aFirst, against: partial ? a : nil))
  }

  /// The cut for a line that lies inside another's run, or `nil` when
  /// neither does: its extent along the other line within the other's.
  /// Such a line cannot stand beside the other (a cut along them, at the
  /// middle of the overlap, would end the long line there); it is a second
  /// reading of the other line's ink (Tesseract reads a glyph of a line
  /// again as a block of its own, or a few glyphs as a line down the page)
  /// or a mark inside it. It yields: it keeps what lies beyond the long
  /// line's nearer edge (at least a pixel there), and the long line keeps
  /// its outline.
  ///
  /// Cut along at the middle of the overlap, a one-glyph line "위" read
  /// again over the word "원" (`normal_4pages.pdf` page 3 at 300 dpi) ended
  /// the line holding it at that word: the eight words after it were left
  /// half a pixel wide, and `verify` found eight glyphs its hit tests missed.
  /// On page 1, "16 110" read down the page over the first words of a line
  /// cut that line's first three words to slivers.
  static func yielding(
    _ a: LineWork, _ boxA: FrameBox, _ b: LineWork, _ boxB: FrameBox, axes: FrameAxes
  ) -> Cut? {
    func inside(_ inner: FrameBox, _ outer: FrameBox) -> Bool {
      let margin = 1.0
      return inner.u0 >= outer.u0 - margin && inner.u1 <= outer.u1 + margin && inner.du < outer.du
    }
    let aInside = inside(boxA, boxB)
    guard aInside || inside(boxB, boxA) else { return nil }
    let (inner, outer) = aInside ? (boxA, boxB) : (boxB, boxA)
    let above = inner.v0 + inner.v1 <= outer.v0 + outer.v1
    var edge = above ? outer.v0 : outer.v1
    if a.axes.isImageAligned && b.axes.isImageAligned { edge = edge.rounded() }
    let innerCut = { (line: LineWork) in
      constraint(line, normal: axes.v, middle: edge, atLeast: !above)
    }
    let outerCut = { (line: LineWork) in
      constraint(line, normal: axes.v, middle: edge, atLeast: above)
    }
    return aInside
      ? Cut(first: innerCut(a), second: outerCut(b)) : Cut(first: outerCut(a), second: innerCut(b))
  }

  /// The cut between two lines of one frame whose outlines overlap where
  /// both lie along the line but whose words there do not: one of them is
  /// made taller by a word beyond the other's ends (a large initial beside
  /// the first lines of a paragraph, a brace or a tall sign), or `nil` when
  /// their words overlap there too (descenders reaching into the next
  /// line: the level cut at the middle of the overlap).
  ///
  /// Each line keeps one side of a level cut at the middle of the gap
  /// between the words, held only where the other line lies along it
  /// (``FrameConstraint/from``): the taller line keeps its tall word, and
  /// its outline becomes a ``TextLine/polygon`` stepping round the other
  /// line. Held over the whole line, as before, the cut went through the
  /// tall word or, on `dropcap-1005` (a four-line initial read as the first
  /// word of its line), left the line's other words one pixel high
  /// (`otwithstanding` [305, 592, 484, 593]), and the words of the two
  /// lines it overlapped lost half their height.
  static func beside(_ a: LineWork, _ b: LineWork, from: Double, to: Double) -> Cut? {
    guard a.allowsSlantedCuts, b.allowsSlantedCuts,
      let wordsA = a.wordExtentV(from: from, to: to),
      let wordsB = b.wordExtentV(from: from, to: to),
      min(wordsA.upperBound, wordsB.upperBound) <= max(wordsA.lowerBound, wordsB.lowerBound)
    else { return nil }
    let aFirst = wordsA.upperBound <= wordsB.lowerBound
    var middle =
      aFirst
      ? (wordsA.upperBound + wordsB.lowerBound) / 2 : (wordsB.upperBound + wordsA.lowerBound) / 2
    if a.axes.isImageAligned { middle = middle.rounded() }
    func cut(_ line: LineWork, keepBelow: Bool, besides other: LineWork) -> FrameConstraint {
      var c = FrameConstraint(axis: .v, keepBelow: keepBelow, value: middle)
      let margin = 1.0
      if other.outline.u0 - margin > line.outline.u0 { c.from = other.outline.u0 - margin }
      if other.outline.u1 + margin < line.outline.u1 { c.to = other.outline.u1 + margin }
      return c
    }
    return Cut(
      first: cut(a, keepBelow: aFirst, besides: b), second: cut(b, keepBelow: !aFirst, besides: a))
  }

  /// Lines within this many degrees of each other are cut in the longer
  /// one's frame rather than in the image's axes: on `photo-1002` (develop,
  /// a curled page read as it is) neighbouring lines slope by 2–6.5°, and
  /// a level cut between their upright bounding boxes went through the
  /// middle of the words of the one sloped most ("your": 11 of its 32
  /// pixels kept).
  ///
  /// A cut at a larger angle to a line is held level at its worst end, as
  /// before: kept at its angle, an 11° cut across a word drawn as a quad
  /// left the word's corners outside the line's selection on a real page
  /// (`bengel-abriss-1751-0007`, a large initial).
  static let nearlyParallelAngle = 10.0

  /// How far (pixels) a cut may drift across a line over its length
  /// before it is kept at its angle (``FrameConstraint/slope``) rather
  /// than held level at its worst end.
  static let slantedCutDrift = 1.0

  static func constraint(
    _ line: LineWork, normal n: Point, middle: Double, atLeast: Bool, against other: LineWork? = nil
  ) -> FrameConstraint {
    let onU = n.dot(line.axes.u)
    let onV = n.dot(line.axes.v)
    let axis: FrameConstraint.Axis = abs(onU) > abs(onV) ? .u : .v
    let (k, j) = axis == .u ? (onU, onV) : (onV, onU)
    let others =
      axis == .u ? [line.outline.v0, line.outline.v1] : [line.outline.u0, line.outline.u1]
    let bounds = others.map { (middle - j * $0) / k }
    // Dividing by a negative k turns the inequality.
    let lower = atLeast == (k > 0)
    if axis == .v, line.takesSlantedCuts, abs(j / k) <= tan(nearlyParallelAngle * .pi / 180),
      let first = bounds.first, let last = bounds.last,
      abs(first - last) > slantedCutDrift || other != nil
    {
      // A cut at an angle to the line (a neighbour sloped differently, on
      // a curled or skewed page read as it is) keeps its angle: held as a
      // level bound over the line's whole length it takes the length times
      // the angle from one end of the line, and cut its words to slivers.
      var c = FrameConstraint(axis: .v, keepBelow: !lower, value: middle / k, slope: -j / k)
      if let other {
        // The other line's outline lies between these values along this
        // line: this line's outline beyond them cannot overlap it.
        let us = other.outlinePoints.map { $0.dot(line.axes.u) }
        let margin = 1.0
        if let low = us.min(), low - margin > line.outline.u0 { c.from = low - margin }
        if let high = us.max(), high + margin < line.outline.u1 { c.to = high + margin }
      }
      return c
    }
    return FrameConstraint(
      axis: axis, keepBelow: !lower,
      value: lower ? (bounds.max() ?? middle) : (bounds.min() ?? middle))
  }
}

/// A line under repair: its frame and its elements' boxes in that frame.
struct LineWork {
  enum Kind {
    /// Elements carry quads (a turned or deskewed page).
    case quads
    /// Upright boxes in a frame turned by a multiple of 90°.
    case aligned
    /// Upright boxes on a sloped baseline; only while the frame is chosen:
    /// such lines become `.quads` along the page's slope.
    case sloped
  }

  var block: Int
  var paragraph: Int
  var line: Int
  var original: TextLine
  var kind: Kind
  var axes: FrameAxes
  var words: [FrameBox]
  var glyphs: [[FrameBox]]
  /// The line's outline: its words' union, then cut.
  var outline: FrameBox
  /// The outline's axis-aligned bounds in the image, for the spatial index.
  var imageBounds: Rect

  static func collect(_ blocks: [Block]) -> [LineWork] {
    let all = blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
    let slope = pageSlope(all)
    var out: [LineWork] = []
    for (b, block) in blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        let rightToLeft = PageLayout.baseDirection(of: paragraph) == .rightToLeft
        // A curved line (one with a polygon) is left as it is: it was
        // repaired where it was straight, before it was mapped back.
        for (l, line) in paragraph.lines.enumerated()
        where !line.words.isEmpty && line.polygon == nil {
          out.append(
            LineWork(
              block: b, paragraph: p, line: l, line: line, pageSlope: slope,
              rightToLeft: rightToLeft))
        }
      }
    }
    return out
  }

  /// The median angle of the page's sloped baselines (a skewed page read
  /// as it is), or `nil` when none slopes.
  static func pageSlope(_ lines: [TextLine]) -> Double? {
    let angles = lines.compactMap { line -> Double? in
      guard line.quad == nil, let b = line.baseline else { return nil }
      let a = b.angle
      return abs(a) >= PageLayout.levelBaselineAngle && abs(a) < 45 ? a : nil
    }.sorted()
    return angles.isEmpty ? nil : angles[angles.count / 2]
  }

  /// Whether upright boxes become quads along a sloped line.
  var makesQuads = false
  /// Whether the frame runs right to left (a right-to-left paragraph's
  /// line); quads are written back named as the OCR names them, in the
  /// upright glyphs' frame.
  var mirrored = false
  /// Whether cuts at an angle to the line may keep their angle
  /// (``GeometryRepair/repair(_:slantedCuts:)``).
  var allowsSlantedCuts = true
  /// Cuts at an angle to the line (``Cut/constraint(_:normal:middle:atLeast:)``):
  /// its top edge lies on or below each of `topCuts`, its bottom edge on or
  /// above each of `bottomCuts`, besides the level `outline`.
  var topCuts: [FrameConstraint] = []
  var bottomCuts: [FrameConstraint] = []
  /// The boxes as read, to leave untouched what needs no repair.
  var originalWords: [FrameBox] = []
  var originalGlyphs: [[FrameBox]] = []
  var originalOutline = FrameBox(u0: 0, u1: 0, v0: 0, v1: 0)

  init(
    block: Int, paragraph: Int, line l: Int, line: TextLine, pageSlope: Double?,
    rightToLeft: Bool = false
  ) {
    self.block = block
    self.paragraph = paragraph
    self.line = l
    original = line
    (kind, axes) = Self.frame(of: line)
    let angle = line.baseline?.angle ?? 0
    let level = kind == .aligned && axes == .image
    if kind == .sloped || (level && pageSlope.map { abs($0 - angle) <= 1 } == true) {
      // Lines of one skewed page share its slope (within a degree, level
      // lines included), so that their outlines are parallel and can be cut
      // apart exactly.
      let a = (pageSlope.map { abs($0 - angle) <= 1 ? $0 : angle } ?? angle) * Double.pi / 180
      axes = FrameAxes(u: Point(x: cos(a), y: sin(a)))
      kind = .quads
      makesQuads = true
    }
    if rightToLeft {
      // A right-to-left line's words advance leftward: repair them in the
      // mirrored frame, so that they do not count as running backwards.
      axes = FrameAxes(u: axes.u * -1)
      mirrored = true
    }
    let axes = self.axes
    let glyphs = line.words.map { word in word.glyphs.map { axes.box($0.corners.corners) } }
    self.glyphs = glyphs
    let alongSlope = makesQuads
    let words = line.words.indices.map { w in
      let word = line.words[w]
      let own = axes.box(word.corners.corners)
      // An upright box on a sloped line overstates the word's height by its
      // length times the slope: its glyphs' boxes follow the line closely.
      let inked = line.words[w].glyphs.indices.filter { !word.glyphs[$0].bbox.isEmpty }
      guard alongSlope, let first = inked.first else { return own }
      var box = inked.dropFirst().reduce(glyphs[w][first]) { $0.union(glyphs[w][$1]) }
      box.u0 = own.u0
      box.u1 = own.u1
      return box
    }
    self.words = words
    originalWords = words
    originalGlyphs = glyphs
    originalOutline = axes.box(line.corners.corners)
    let union = words.dropFirst().reduce(words[0]) { $0.union($1) }
    if line.quad != nil || kind != .quads {
      // A line box may be taller than its words (Tesseract's line box holds
      // every word's ascenders and descenders); keep it where it holds them.
      let own = axes.box(line.corners.corners)
      outline = own.union(union)
    } else {
      outline = union
    }
    imageBounds = axes.quad(outline).boundingRect
  }

  /// The frame a line is repaired in (rule 1).
  static func frame(of line: TextLine) -> (Kind, FrameAxes) {
    if let q = line.quad {
      let d = q.topRight - q.topLeft
      let length = d.length
      guard length > 0 else { return (.quads, .image) }
      return (.quads, FrameAxes(u: d * (1 / length)))
    }
    guard let baseline = line.baseline else { return (.aligned, .image) }
    let angle = baseline.angle
    if abs(abs(angle) - 90) < 45, line.bbox.height > line.bbox.width {
      return (.aligned, FrameAxes(u: Point(x: 0, y: angle > 0 ? 1 : -1)))
    }
    if abs(angle) >= PageLayout.levelBaselineAngle, abs(angle) < 45 { return (.sloped, .image) }
    return (.aligned, .image)
  }

  /// Rule 2a: words that overlap or run backwards along the line are cut
  /// apart. The boundary between two words is the middle of the gap (or
  /// overlap) between them; boundaries are made to advance along the line
  /// (pooling, keeping a pixel per word), and each word keeps the part of
  /// its box between its boundaries, or the span between them when nothing
  /// is left.
  mutating func separateWords() {
    let n = words.count
    guard n > 1 else { return }
    // Each word keeps a pixel per glyph (or character), so that each
    // glyph's centre stays its own.
    let minimum = original.words.map { Double(max(1, $0.glyphs.count, $0.text.count)) }
    var before = 0.0
    var floors: [Double] = []
    for i in 0..<(n - 1) {
      before += minimum[i]
      floors.append(before)
    }
    var cuts = (0..<(n - 1)).map { i in Self.boundary(words[i], words[i + 1]) - floors[i] }
    PageLayout.makeNonDecreasing(&cuts, in: cuts.indices)
    for i in cuts.indices { cuts[i] += floors[i] }
    for i in 0..<n {
      let lo = i > 0 ? cuts[i - 1] : min(words[i].u0, cuts[0] - minimum[0])
      let hi = i < n - 1 ? cuts[i] : max(words[i].u1, cuts[n - 2] + minimum[i])
      var u0 = max(words[i].u0, lo)
      var u1 = min(words[i].u1, hi)
      if u1 - u0 < minimum[i] {
        u0 = lo
        u1 = max(hi, lo + minimum[i])
      }
      words[i].u0 = u0
      words[i].u1 = u1
    }
  }

  /// The boundary between two words along the line: the middle of the gap
  /// or overlap between them; where one lies within the other's span, the
  /// start of the inner one (or its end, when the inner one comes first).
  /// Tesseract reads an identifier joined by underscores as a word whose
  /// box spans its parts, and its parts again as words inside that box
  /// (`BANK_SCHEMA.MASK_DRIVERS` over 498–1335, `LICENSE` at 960–1098 on
  /// `redp5110_sampled` page 16 of ../shared/docling): the middle of the
  /// overlap, 1147, lay past the inner word's end and squeezed it to a
  /// pixel per letter, which then read as a sliver of noise and was lost.
  static func boundary(_ a: FrameBox, _ b: FrameBox) -> Double {
    if a.u0 <= b.u0, b.u1 <= a.u1 { return b.u0 }
    if b.u0 <= a.u0, a.u1 <= b.u1 { return a.u1 }
    return (a.u1 + b.u0) / 2
  }

  /// Rule 2: clip glyphs to their word, fill degenerate ones from the gaps.
  mutating func repairGlyphs() {
    for w in words.indices where !glyphs[w].isEmpty {
      let word = words[w]
      let shares = original.words[w].glyphs.map { max(1, $0.text.count) }
      var boxes = glyphs[w]
      var valid = boxes.indices.map { g in
        let original = boxes[g]
        boxes[g] = original.clipped(to: word)
        return original.du > 0 && original.dv > 0 && boxes[g].du >= 0.5 && boxes[g].dv >= 0.5
      }
      // Centres must advance along the line, or no caret stops can hold
      // each glyph's centre between its own.
      var lastCentre = -Double.infinity
      var ordered = true
      for g in boxes.indices where valid[g] {
        if boxes[g].centreU <= lastCentre { ordered = false }
        lastCentre = boxes[g].centreU
      }
      if !ordered { valid = valid.map { _ in false } }
      if valid.allSatisfy({ $0 }) {
        glyphs[w] = boxes
        continue
      }
      var g = 0
      var evenly = false
      while g < boxes.count, !evenly {
        guard !valid[g] else {
          g += 1
          continue
        }
        var end = g
        while end < boxes.count, !valid[end] { end += 1 }
        let left = g > 0 ? boxes[g - 1].u1 : word.u0
        let right = end < boxes.count ? boxes[end].u0 : word.u1
        if right - left < Double(end - g) {
          evenly = true
        } else {
          Self.share(&boxes, g..<end, from: left, to: right, word: word, shares: shares)
        }
        g = end
      }
      if evenly {
        Self.share(&boxes, boxes.indices, from: word.u0, to: word.u1, word: word, shares: shares)
      }
      glyphs[w] = boxes
    }
  }

  static func share(
    _ boxes: inout [FrameBox], _ range: Range<Int>, from left: Double, to right: Double,
    word: FrameBox, shares: [Int]
  ) {
    let total = Double(range.reduce(0) { $0 + shares[$1] })
    var u = left
    for g in range {
      let next = u + (right - left) * Double(shares[g]) / max(total, 1)
      boxes[g] = FrameBox(u0: u, u1: next, v0: word.v0, v1: word.v1)
      u = next
    }
  }

  /// Whether cuts at an angle to this line are kept at their angle: on a
  /// line of quads (a sloped or turned line) read left to right whose
  /// words are written as quads too. An upright word box on such a line
  /// (a word Tesseract boxed upright on a deskewed page) reaches past a
  /// slanted edge at its corners (`bengel-abriss-1751-0007`, `boston-cooking-a`).
  var takesSlantedCuts: Bool {
    allowsSlantedCuts && kind == .quads && !mirrored
      && (makesQuads || original.words.allSatisfy { $0.quad != nil })
  }

  /// The extent across the line of its words whose middles lie between two
  /// values along it, or `nil` when none does.
  ///
  /// Words reaching in from outside once counted too: on `8071_093.3B.tif`
  /// a drop cap "S" (120 px tall) at the start of a line, reaching 35 px
  /// under the line above it, made the two lines' words overlap there, and
  /// the level cut at the middle of their overlap left the line's four
  /// other words one pixel high (`mopep.` [341, 223, 463, 224]).
  func wordExtentV(from u0: Double, to u1: Double) -> ClosedRange<Double>? {
    var low = Double.infinity
    var high = -Double.infinity
    // A word counts when its middle lies there: a large initial beside
    // the other line's start only reaches into the common extent.
    for w in words where w.centreU > u0 && w.centreU < u1 {
      low = min(low, w.v0)
      high = max(high, w.v1)
    }
    return low <= high ? low...high : nil
  }

  /// Rule 3: applies a cut to the outline.
  mutating func apply(_ c: FrameConstraint) {
    if c.isPartial {
      if c.keepBelow { bottomCuts.append(c) } else { topCuts.append(c) }
      imageBounds = Rect(bounding: outlinePoints)
      return
    }
    switch (c.axis, c.keepBelow) {
    case (.u, true): outline.u1 = min(outline.u1, c.value)
    case (.u, false): outline.u0 = max(outline.u0, c.value)
    case (.v, true): outline.v1 = min(outline.v1, c.value)
    case (.v, false): outline.v0 = max(outline.v0, c.value)
    }
    // A line is never cut to nothing: keep a pixel, at the cut.
    switch (c.axis, c.keepBelow) {
    case (.u, true) where outline.du < 1: outline.u0 = outline.u1 - 1
    case (.u, false) where outline.du < 1: outline.u1 = outline.u0 + 1
    case (.v, true) where outline.dv < 1: outline.v0 = outline.v1 - 1
    case (.v, false) where outline.dv < 1: outline.v1 = outline.v0 + 1
    default: break
    }
    imageBounds = Rect(bounding: outlinePoints)
  }

  /// Whether the outline with its slanted cuts has a curved line's shape
  /// (``TextLine/isLinePolygon(_:)``), as written.
  var hasPolygonOutline: Bool {
    TextLine.isLinePolygon(outlinePoints.map(ScanConventions.rounded))
  }

  /// The line with its slanted cuts held level at their worst end, as
  /// every cut was before they kept their angle.
  func levelled() -> LineWork {
    var work = self
    let (u0, u1) = (outline.u0, outline.u1)
    for c in topCuts { work.outline.v0 = max(work.outline.v0, c.value(at: u0), c.value(at: u1)) }
    for c in bottomCuts {
      work.outline.v1 = min(work.outline.v1, c.value(at: u0), c.value(at: u1))
    }
    // (A partial cut is held over the whole line, as every cut was.)
    if work.outline.dv < 1 { work.outline.v1 = work.outline.v0 + 1 }
    work.topCuts = []
    work.bottomCuts = []
    work.imageBounds = Rect(bounding: work.outlinePoints)
    return work
  }

  /// The top and bottom of the outline at `u`, slanted cuts included,
  /// keeping a pixel between them.
  func edges(at u: Double) -> (top: Double, bottom: Double) {
    let ramp = self.ramp
    // A partial cut's bound, eased off linearly over `ramp` past its ends
    // toward the level edge `level`.
    func bound(_ c: FrameConstraint, level: Double) -> Double {
      let full = c.value(at: u)
      let outside = max(c.from - u, u - c.to, 0)
      guard outside > 0 else { return full }
      guard outside < ramp else { return level }
      return full + (level - full) * outside / ramp
    }
    let top = topCuts.reduce(outline.v0) { max($0, bound($1, level: outline.v0)) }
    let bottom = bottomCuts.reduce(outline.v1) { min($0, bound($1, level: outline.v1)) }
    return (top, max(bottom, top + 1))
  }

  /// How far past its ends a partial cut eases off: enough that the
  /// outline's edges still advance along the chord of the polygon they
  /// make (a step would turn back at an angle to it).
  var ramp: Double { 2 + 0.1 * outline.dv }

  /// Where the outline's edges change direction along the line: its ends
  /// and the crossings of its cuts between them, sorted (at least three,
  /// so that the outline reads back as a curved line's polygon).
  var stations: [Double] {
    let (u0, u1) = (outline.u0, outline.u1)
    var us = [u0, (u0 + u1) / 2, u1]
    for c in topCuts + bottomCuts {
      for u in [c.from - ramp, c.from, c.to, c.to + ramp] where u > u0 && u < u1 { us.append(u) }
    }
    for cuts in [
      topCuts + [FrameConstraint(axis: .v, keepBelow: false, value: outline.v0)],
      bottomCuts + [FrameConstraint(axis: .v, keepBelow: true, value: outline.v1)],
    ] {
      for i in cuts.indices {
        for j in cuts.indices where j > i && cuts[i].slope != cuts[j].slope {
          let u = (cuts[j].value - cuts[i].value) / (cuts[i].slope - cuts[j].slope)
          if u > u0, u < u1 { us.append(u) }
        }
      }
    }
    return us.sorted()
  }

  /// The outline in the image: the quad of `outline`, or with slanted
  /// cuts its top edge at ``stations`` in reading order, then its bottom
  /// edge back (a ``TextLine/polygon``).
  var outlinePoints: [Point] {
    guard !topCuts.isEmpty || !bottomCuts.isEmpty else { return axes.quad(outline).corners }
    let us = stations
    let v = axes.v
    let edges = us.map { self.edges(at: $0) }
    let top = zip(us, edges).map { axes.u * $0 + v * $1.top }
    let bottom = zip(us, edges).reversed().map { axes.u * $0 + v * $1.bottom }
    return top + bottom
  }

  /// A word's box in the frame kept inside the slanted cuts too: the
  /// outline's edges are straight between stations, the top edge the
  /// highest of its bounds and the bottom the lowest, so over a word's
  /// extent they are worst at its ends.
  func insideSlantedCuts(_ box: FrameBox, minimum: Double) -> FrameBox {
    guard !topCuts.isEmpty || !bottomCuts.isEmpty else { return box }
    let inside = stations.filter { $0 > box.u0 && $0 < box.u1 }
    let edges = ([box.u0, box.u1] + inside).map { self.edges(at: $0) }
    let top = edges.map(\.top).max() ?? box.v0
    let bottom = edges.map(\.bottom).min() ?? box.v1
    let band = FrameBox(u0: box.u0, u1: box.u1, v0: top, v1: max(top, bottom))
    return box.clampedInside(band, minimum: minimum)
  }

  /// The line with its repaired geometry written back (rule 4).
  func finished() -> TextLine {
    guard topCuts.isEmpty && bottomCuts.isEmpty || hasPolygonOutline else {
      return levelled().finished()
    }
    var line = original
    let minimum = kind == .aligned ? 1.0 : 0.5
    // A word rewritten to hold its glyphs may reach past its line's box
    // by the rounding of the line's: the line is then written too.
    var wordsLeaveLine = false
    for w in line.words.indices {
      // A word cut to a sliver keeps a pixel per glyph along the line
      // where its line has room: on `normal_4pages` p1 a number read down
      // the page across a line ("16 110") kept "110" one pixel long, its
      // three glyphs in that one pixel, which no hit test tells apart.
      let along = minimum * Double(max(1, line.words[w].glyphs.count))
      let wordBox = insideSlantedCuts(
        words[w].clampedInside(outline, minimum: minimum, along: along), minimum: minimum)
      var word = line.words[w]
      let hadQuad = word.quad != nil
      // A glyph clamped inside the word's box in the line's frame can
      // still leave the word's own box when the word is tilted against
      // its line (a curled line, whose words follow the curve while the
      // line's frame follows its chord): the word is then written from
      // its box in the line's frame too, which holds its glyphs.
      var glyphsLeaveWord = false
      var boxes = glyphs[w].map { $0.clampedInside(wordBox, minimum: minimum) }
      // Glyphs cut off by a cut through their word keep slivers at the cut,
      // all at one place: their centres no longer advance along the line
      // and no hit test can tell them apart. The word's glyphs then share
      // what is left of it (rule 2).
      if zip(boxes, boxes.dropFirst()).contains(where: { $1.centreU <= $0.centreU }) {
        let shares = line.words[w].glyphs.map { max(1, $0.text.count) }
        Self.share(
          &boxes, boxes.indices, from: wordBox.u0, to: wordBox.u1, word: wordBox, shares: shares)
      }
      for g in word.glyphs.indices {
        let box = boxes[g]
        if box != originalGlyphs[w][g] || makesQuads {
          (word.glyphs[g].bbox, word.glyphs[g].quad) = written(box, keepQuad: hadQuad)
          if !word.bbox.contains(word.glyphs[g].bbox, tolerance: 1) { glyphsLeaveWord = true }
        }
      }
      if wordBox != originalWords[w] || makesQuads || glyphsLeaveWord {
        (word.bbox, word.quad) = written(wordBox, keepQuad: hadQuad)
        if !line.bbox.contains(word.bbox) { wordsLeaveLine = true }
      }
      line.words[w] = word
    }
    if !topCuts.isEmpty || !bottomCuts.isEmpty {
      return withPolygon(line)
    }
    let upright = mirrored ? FrameAxes(u: axes.u * -1) : axes
    let turned = kind == .aligned && upright != .image
    if outline == originalOutline && !turned && !makesQuads && !wordsLeaveLine { return line }
    let (bbox, quad) = written(outline, keepQuad: line.quad != nil || makesQuads)
    line.bbox = bbox
    switch kind {
    case .quads: line.quad = quad
    case .aligned, .sloped: line.quad = turned ? named(axes.quad(outline)) : nil
    }
    return line
  }

  /// A line cut at an angle to it: its outline as a polygon (top edge in
  /// reading order, bottom edge back), its quad the rectangle along the
  /// polygon's chord that holds the polygon and its words
  /// (``TextLine/chordRectangle(of:holding:)``), its box the polygon's.
  private func withPolygon(_ line: TextLine) -> TextLine {
    var line = line
    let polygon = outlinePoints.map(ScanConventions.rounded)
    let words = line.words.flatMap(\.corners.corners)
    guard TextLine.isLinePolygon(polygon),
      let quad = TextLine.chordRectangle(of: polygon, holding: words)
    else { return line }
    line.polygon = polygon
    line.quad = ScanConventions.rounded(quad)
    let r = Rect(bounding: polygon + words)
    let minX = Int(r.minX.rounded(.down))
    let minY = Int(r.minY.rounded(.down))
    line.bbox = PixelRect(
      minX: minX, minY: minY, maxX: max(minX + 1, Int(r.maxX.rounded(.up))),
      maxY: max(minY + 1, Int(r.maxY.rounded(.up))))
    return line
  }

  /// A frame box as a box and, on a line of quads, a quad.
  /// A quad of this frame named as the OCR names corners (mirrored back
  /// on a right-to-left line).
  private func named(_ q: Quad) -> Quad { mirrored ? q.mirrored : q }

  private func written(_ box: FrameBox, keepQuad: Bool) -> (PixelRect, Quad?) {
    let q = named(axes.quad(box))
    var quad: Quad?
    if kind == .quads, keepQuad || makesQuads {
      quad = ScanConventions.rounded(q)
    }
    // Box edges lie on the cracks between pixels: the nearest crack,
    // keeping at least a pixel.
    let r = q.boundingRect
    let minX = Int(r.minX.rounded())
    let minY = Int(r.minY.rounded())
    return (
      PixelRect(
        minX: minX, minY: minY, maxX: max(minX + 1, Int(r.maxX.rounded())),
        maxY: max(minY + 1, Int(r.maxY.rounded()))),
      quad
    )
  }
}
