/// Bold type told from regular by the thickness of its strokes, measured
/// against the running text of the same page.
///
/// A word's *weight* is its ink's mean stroke width over its type size
/// (``RoleDetection/typeSize(of:)``), so larger type is not taken for
/// bolder. Bold faces draw their stems 1.4–1.9 times as thick as the
/// regular face (Liberation, DejaVu, Times, Helvetica; the stroke widths
/// the page image shows across blur and resolution agree with the fonts'
/// own: on the generated heading pages the running text's lines lie
/// within 0.87–1.06 times the page's median weight and bold lines at
/// 1.4–2.0), so a word is bold at ``boldRatio`` times the running text's
/// weight, halfway between.
enum TypeWeight {
  /// A word at this many times the running text's weight is bold.
  static let boldRatio = 1.3

  /// Type set at the running text's size in another face measures down
  /// to this share of it: the letters of one face reach higher in the em
  /// than another's (Liberation Sans Bold headings over DejaVu text of the
  /// same point size measure 0.91–0.94 of it), so a bold paragraph this
  /// large counts as set at the running text's size.
  static let otherFace = 0.88

  /// A word's weight: its stroke width over its type size.
  struct Measure: Equatable {
    var weight: Double
  }

  /// A word's measure: its stroke width over its type size
  /// (``RoleDetection/typeSize(of:)``); `nil` when either is unknown.
  static func measure(_ word: Word, stroke: Double?) -> Measure? {
    guard let stroke, let size = RoleDetection.typeSize(of: word), size > 0 else { return nil }
    return Measure(weight: stroke / size)
  }

  /// Whether a line is bold: the median weight of its measured words is.
  /// One word measured thin or thick (a capital Q's tail, a blot) does not
  /// move it; a bold run-in lead ("Methods.") before regular text on the
  /// same line holds it only when it is most of the line's words.
  static func isBold(line measures: [Measure?], body: Double) -> Bool {
    let known = measures.compactMap { $0?.weight }
    guard body > 0, !known.isEmpty else { return false }
    return RoleDetection.median(known) >= body * boldRatio
  }

  /// Whether a word is bold.
  static func isBold(_ measure: Measure?, body: Double) -> Bool {
    guard let measure, body > 0 else { return false }
    return measure.weight >= body * boldRatio
  }

  /// Whether every line of a paragraph is bold.
  static func isBold(_ lines: [[Measure?]], body: Double) -> Bool {
    !lines.isEmpty && lines.allSatisfy { isBold(line: $0, body: body) }
  }
}

/// The stroke widths of a page's words, by block, paragraph, line and
/// word, measured on the words where they lie.
struct WordStrokes {
  var values: [[[[Double?]]]]

  init?(_ blocks: [Block], _ strokeWidth: ((Word) -> Double?)?) {
    guard let strokeWidth else { return nil }
    values = blocks.map { block in
      block.paragraphs.map { paragraph in
        paragraph.lines.map { line in line.words.map(strokeWidth) }
      }
    }
  }

  /// One paragraph's strokes by line and word.
  func paragraph(_ block: Int, _ index: Int) -> [[Double?]]? {
    values[safe: block]?[safe: index]
  }
}

/// Whether the image shows a list marker left of each line
/// (``RoleDetection/splittingListItems(_:listMarker:)``), looked at once,
/// where the lines lie before any turn.
struct LineMarkers {
  var values: [[[Bool]]]

  init?(_ blocks: [Block], _ listMarker: ((TextLine) -> Bool)?) {
    guard let listMarker else { return nil }
    values = blocks.map { block in block.paragraphs.map { $0.lines.map(listMarker) } }
  }

  /// One paragraph's marks by line.
  func paragraph(_ block: Int, _ index: Int) -> [Bool]? {
    values[safe: block]?[safe: index]
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
