/// How a paragraph is set in its column: alignment, indents and line
/// spacing, measured from the boxes of its lines (what ALTO's
/// `ParagraphStyle` records).
///
/// Measurements are in pixels in the upright frame of the page (on a page
/// turned by 90°, "left" is the side where its lines start). ``Page/paragraphFormats``
/// measures every paragraph of a page against its block, its column.
///
/// ## Alignment
///
/// The edges of two lines *agree* when they lie within a quarter of the
/// paragraph's median line height of each other (at least 2 pixels).
/// The first line may be indented and the last one short, so the left
/// edges compared are those of every line but the first, the right edges
/// those of every line but the last:
/// - left and right edges agree: ``Alignment/justified``;
/// - only the left edges agree: ``Alignment/left``;
/// - the right edges of every line agree (the last included), and the left
///   ones do not: ``Alignment/right``;
/// - the centres of every line agree: ``Alignment/center``;
/// - otherwise `nil`.
///
/// A paragraph of two lines compares both lines' edges. A paragraph of one
/// line is ``Alignment/center`` when it is centred in its column (its
/// margins there agree within a tenth of the column's width and each is
/// wider than that tenth, the rule ``RoleDetection`` uses for centred
/// headings), ``Alignment/right`` when it ends at the column's right edge
/// and starts well inside it, ``Alignment/left`` when it starts at the
/// column's left edge and ends well inside it, and `nil` when it fills
/// the column (nothing tells how it is set).
public struct ParagraphFormat: Hashable, Sendable {
  /// How the lines of a paragraph line up.
  public enum Alignment: String, Hashable, Sendable, CaseIterable {
    /// Ragged right: the lines start at the same place.
    case left
    /// Ragged left: the lines end at the same place.
    case right
    /// Every line centred.
    case center
    /// Both edges straight (justified); the last line may be short.
    case justified
  }

  /// The alignment, or `nil` when the lines do not tell.
  public var alignment: Alignment?
  /// From the column's left edge to where the paragraph's lines start
  /// (the first line's own indent aside), in pixels.
  public var leftIndent: Int
  /// From where the paragraph's lines end to the column's right edge, in
  /// pixels.
  public var rightIndent: Int
  /// How far the first line starts to the right of the others (negative:
  /// to the left, a hanging indent); 0 for a paragraph of one line and
  /// when the first line's left edge agrees with the others'.
  public var firstLineIndent: Int
  /// The median distance from one line's baseline to the next (from one
  /// line's top to the next where a baseline is missing), in pixels; `nil`
  /// for a paragraph of one line.
  public var lineSpacing: Int?

  /// Creates a format.
  public init(
    alignment: Alignment?, leftIndent: Int, rightIndent: Int, firstLineIndent: Int,
    lineSpacing: Int?
  ) {
    self.alignment = alignment
    self.leftIndent = leftIndent
    self.rightIndent = rightIndent
    self.firstLineIndent = firstLineIndent
    self.lineSpacing = lineSpacing
  }

  /// Measures a paragraph in its column; every box is in the same
  /// (upright) frame.
  ///
  /// - Parameters:
  ///   - paragraph: The paragraph, with at least one line.
  ///   - column: The box of the column (the paragraph's block).
  /// - Returns: The paragraph's format, by the rules in the type's
  ///   discussion.
  /// - Complexity: O(*l* log *l*) in the paragraph's lines.
  public init(measuring paragraph: Paragraph, inColumn column: PixelRect) {
    let boxes = paragraph.lines.map(\.bbox)
    guard let first = boxes.first else {
      self.init(
        alignment: nil, leftIndent: 0, rightIndent: 0, firstLineIndent: 0, lineSpacing: nil)
      return
    }
    let tolerance = max(2, Self.median(boxes.map(\.height)) / 4)
    func agree(_ values: [Int]) -> Bool {
      guard let low = values.min(), let high = values.max() else { return true }
      return high - low <= tolerance
    }
    let body = boxes.count > 2 ? Array(boxes.dropFirst()) : boxes
    let full = boxes.count > 2 ? Array(boxes.dropLast()) : boxes
    let left = Self.median(body.map(\.minX))
    let right = Self.median(full.map(\.maxX))
    let alignment: Alignment?
    if boxes.count == 1 {
      alignment = Self.alignment(ofOneLine: first, inColumn: column)
    } else {
      let lefts = agree(body.map(\.minX))
      let rights = agree(full.map(\.maxX))
      if lefts && rights {
        alignment = .justified
      } else if lefts {
        alignment = .left
      } else if agree(boxes.map(\.maxX)) {
        alignment = .right
      } else if agree(boxes.map { $0.minX + $0.maxX }) {
        alignment = .center
      } else {
        alignment = nil
      }
    }
    var spacing: Int?
    if boxes.count > 1 {
      let levels = paragraph.lines.map { line in
        line.baseline.map { Int((($0.start.y + $0.end.y) / 2).rounded()) } ?? line.bbox.minY
      }
      spacing = Self.median(zip(levels, levels.dropFirst()).map { $1 - $0 })
    }
    self.init(
      alignment: alignment, leftIndent: max(0, left - column.minX),
      rightIndent: max(0, column.maxX - right),
      firstLineIndent: boxes.count > 1 && abs(first.minX - left) > tolerance
        ? first.minX - left : 0,
      lineSpacing: spacing)
  }

  /// The alignment of a paragraph of one line in its column.
  private static func alignment(ofOneLine box: PixelRect, inColumn column: PixelRect)
    -> Alignment?
  {
    if isCentred(box, inColumn: column) { return .center }
    let tenth = max(1, column.width / 10)
    let leftMargin = box.minX - column.minX
    let rightMargin = column.maxX - box.maxX
    if leftMargin < tenth && rightMargin >= tenth { return .left }
    if rightMargin < tenth && leftMargin >= tenth { return .right }
    return nil
  }

  /// Whether `box` is centred in `column`: its margins left and right
  /// agree within a tenth of the column's width, and each is wider than
  /// that tenth.
  static func isCentred(_ box: PixelRect, inColumn column: PixelRect) -> Bool {
    let left = Double(box.minX - column.minX)
    let right = Double(column.maxX - box.maxX)
    let width = Double(max(1, column.maxX - column.minX))
    return min(left, right) > width * 0.1 && abs(left - right) < width * 0.1
  }

  /// The median of integers (the lower middle one of an even count); 0
  /// for none.
  private static func median(_ values: [Int]) -> Int {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
  }
}

extension Page {
  /// The format of every paragraph, by block and paragraph index
  /// (`paragraphFormats[b][p]` is `blocks[b].paragraphs[p]`'s), each
  /// measured against its block in the upright frame of the page.
  ///
  /// ```swift
  /// page.paragraphFormats[0][1].alignment  // .justified
  /// ```
  ///
  /// - Complexity: O(*l* log *l*) in the lines of the page.
  public var paragraphFormats: [[ParagraphFormat]] {
    let frame = UprightFrame(orientation: orientation, width: width, height: height)
    return frame.blocks(blocks).map { block in
      block.paragraphs.map { ParagraphFormat(measuring: $0, inColumn: block.bbox) }
    }
  }
}
