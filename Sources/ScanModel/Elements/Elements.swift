/// A quad kept out of line: most elements are upright and have none, so an
/// optional reference (8 bytes) is cheaper than an optional quad (72).
final class QuadBox: Hashable, Sendable {
  let quad: Quad
  init(_ quad: Quad) { self.quad = quad }
  static func == (a: QuadBox, b: QuadBox) -> Bool { a.quad == b.quad }
  func hash(into hasher: inout Hasher) { hasher.combine(quad) }
}

/// One recognised character (a "symbol" in Tesseract's terms).
public struct Glyph: Hashable, Sendable {
  /// The glyph's text: usually one grapheme cluster.
  public var text: String
  /// The glyph's ink box in original-image pixels.
  public var bbox: PixelRect
  private var quadBox: QuadBox?
  /// Recognition confidence in 0...100, when known.
  public var confidence: Double?
  /// The glyph's range in the page text; assigned when the page is built.
  public internal(set) var range: TextRange = .init(offsets: 0..<0)

  /// Creates a glyph; its range is assigned when its page is built.
  public init(text: String, bbox: PixelRect, quad: Quad? = nil, confidence: Double? = nil) {
    self.text = text
    self.bbox = bbox
    self.quadBox = quad.map(QuadBox.init)
    self.confidence = confidence
  }

  /// The glyph's corners when it is not upright in the original image (a
  /// skewed or rotated page); `nil` means the box itself.
  public var quad: Quad? {
    get { quadBox?.quad }
    set { quadBox = newValue.map(QuadBox.init) }
  }

  /// The glyph's corners: ``quad`` or the box's.
  public var corners: Quad { quad ?? Quad(bbox.rect) }
}

/// One recognised word: a run of glyphs without spaces, as the OCR engine
/// delimits it (the tokenizer's `.word` unit refines it further).
public struct Word: Hashable, Sendable {
  /// The word's text, as the OCR engine read it (no spaces).
  public var text: String
  /// The word's box in original-image pixels. On a tilted, turned or
  /// curved line, a recognised word's box is that of its glyphs' boxes
  /// (``GeometryRepair/fittingWordBoxesToGlyphs(_:)``), inside its quad's.
  public var bbox: PixelRect
  private var quadBox: QuadBox?
  /// Recognition confidence in 0...100, when known.
  public var confidence: Double?
  /// The word's glyphs, in reading order; may be empty (ground truth, importers).
  public var glyphs: [Glyph]
  /// The word's range in the page text; assigned when the page is built.
  public internal(set) var range: TextRange = .init(offsets: 0..<0)

  /// Creates a word; its range is assigned when its page is built.
  public init(
    text: String, bbox: PixelRect, quad: Quad? = nil, confidence: Double? = nil,
    glyphs: [Glyph] = []
  ) {
    self.text = text
    self.bbox = bbox
    self.quadBox = quad.map(QuadBox.init)
    self.confidence = confidence
    self.glyphs = glyphs
  }

  /// The word's corners when it is not upright in the original image (a
  /// skewed or rotated page); `nil` means the box itself.
  public var quad: Quad? {
    get { quadBox?.quad }
    set { quadBox = newValue.map(QuadBox.init) }
  }

  /// The word's corners: ``quad`` or the box's.
  public var corners: Quad { quad ?? Quad(bbox.rect) }
}

/// One text line. Its text is its words joined by single spaces; in the page
/// text it is followed by `\n`, which is not part of the line's range.
public struct TextLine: Hashable, Sendable {
  /// The line's box in original-image pixels.
  public var bbox: PixelRect
  /// The line's corners when it is not upright in the original image.
  public var quad: Quad?
  /// The line's outline when it follows a curve (a curled page's line,
  /// straightened for recognition and mapped back): `2k` points, `k ≥ 2`,
  /// clockwise from the top-left in the line's reading frame: `k` along
  /// the top edge in reading order, then `k` back along the bottom edge,
  /// so that the `i`-th top point and the `i`-th bottom point from the
  /// end stand across the line from each other. ``quad`` is then the
  /// rectangle along the line's chord that holds it. Selection rects,
  /// carets and hit tests follow the curve (``SelectionRect/polygon``).
  public var polygon: [Point]?
  /// The baseline, when known.
  public var baseline: Baseline?
  /// The words in reading order.
  public var words: [Word]
  /// The line's text (its words joined by single spaces); assigned when the page is built.
  public internal(set) var text: String = ""
  /// The line's range in the page text (without the trailing `\n`).
  public internal(set) var range: TextRange = .init(offsets: 0..<0)

  /// Creates a line; its text and range are assigned when its page is built.
  public init(
    bbox: PixelRect, quad: Quad? = nil, polygon: [Point]? = nil, baseline: Baseline? = nil,
    words: [Word]
  ) {
    self.bbox = bbox
    self.quad = quad
    self.polygon = polygon
    self.baseline = baseline
    self.words = words
  }

  /// The line's corners: ``quad`` or the box's.
  public var corners: Quad { quad ?? Quad(bbox.rect) }
}

/// A paragraph: lines that belong together.
public struct Paragraph: Hashable, Sendable {
  /// The paragraph's box in original-image pixels.
  public var bbox: PixelRect
  /// The lines in reading order.
  public var lines: [TextLine]
  /// From the start of the first line to the end of the last (no trailing newlines).
  public internal(set) var range: TextRange = .init(offsets: 0..<0)
  /// What the paragraph is on the page (a heading, running text, a page
  /// number…).
  public var role: ParagraphRole
  /// For a heading, its level from 1 (the page's title or top section) to
  /// 6; `nil` for every other role.
  public var headingLevel: Int? {
    get { role == .heading ? storedLevel ?? 1 : nil }
    set { storedLevel = newValue.map { min(6, max(1, $0)) } }
  }
  private var storedLevel: Int?
  /// For a table cell (role ``ParagraphRole/tableCell``) read from a ruled
  /// table's grid, its row, column and spans; `nil` otherwise.
  public var cell: TableCellPosition?
  /// For a list item (role ``ParagraphRole/listItem``), how deeply it is
  /// nested: 1 for an item of a top-level list, 2 for an item of a list
  /// inside one, and so on up to ``maximumListLevel``; `nil` for every
  /// other role.
  public var listLevel: Int? {
    get { role == .listItem ? storedListLevel ?? 1 : nil }
    // 1, the default, is stored as none: a page read back from a format
    // that writes only deeper levels equals the page written.
    set {
      storedListLevel = newValue.flatMap { level in
        let clamped = min(Self.maximumListLevel, max(1, level))
        return clamped == 1 ? nil : clamped
      }
    }
  }
  /// The deepest ``listLevel``: lists nested further are read at it.
  public static let maximumListLevel = 9
  private var storedListLevel: Int?

  /// Creates a paragraph; its range is assigned when its page is built.
  /// - Parameters:
  ///   - bbox: The paragraph's box, in pixels of the original image.
  ///   - lines: Its lines, in reading order.
  ///   - role: What the paragraph is; running text unless said otherwise.
  ///   - headingLevel: For a heading, its level (clamped to 1–6; 1 when
  ///     `nil`); ignored for other roles.
  ///   - cell: For a table cell, its place in the table; ignored for
  ///     other roles.
  ///   - listLevel: For a list item, how deeply it is nested (1 when
  ///     `nil`); ignored for other roles.
  public init(
    bbox: PixelRect, lines: [TextLine], role: ParagraphRole = .body, headingLevel: Int? = nil,
    cell: TableCellPosition? = nil, listLevel: Int? = nil
  ) {
    self.bbox = bbox
    self.lines = lines
    self.role = role
    self.storedLevel = role == .heading ? min(6, max(1, headingLevel ?? 1)) : nil
    self.cell = role == .tableCell ? cell : nil
    self.listLevel = role == .listItem ? listLevel : nil
  }
}

/// A block: a column or region of paragraphs.
public struct Block: Hashable, Sendable {
  /// The block's box in original-image pixels.
  public var bbox: PixelRect
  /// The paragraphs in reading order.
  public var paragraphs: [Paragraph]
  /// From the start of the first paragraph to the end of the last.
  public internal(set) var range: TextRange = .init(offsets: 0..<0)

  /// Creates a block; its range is assigned when its page is built.
  public init(bbox: PixelRect, paragraphs: [Paragraph]) {
    self.bbox = bbox
    self.paragraphs = paragraphs
  }
}

extension Array where Element == Block {
  /// The blocks with every word changed by `update`, in reading order;
  /// the element tree, ranges and everything but the words are unchanged.
  ///
  /// - Parameter update: Changes one word in place.
  /// - Returns: The updated blocks.
  /// - Complexity: O(*n*) in the words, plus what `update` costs.
  public func updatingWords(_ update: (inout Word) throws -> Void) rethrows -> [Block] {
    var out = self
    for b in out.indices {
      for p in out[b].paragraphs.indices {
        for l in out[b].paragraphs[p].lines.indices {
          for w in out[b].paragraphs[p].lines[l].words.indices {
            try update(&out[b].paragraphs[p].lines[l].words[w])
          }
        }
      }
    }
    return out
  }
}
