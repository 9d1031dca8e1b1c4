/// The order of two text positions, as Foundation's `ComparisonResult`
/// (the answer of `UITextInput.compare(_:to:)`).
public enum TextComparisonResult: Int, Sendable {
  /// The first position comes before the second.
  case orderedAscending = -1
  /// The positions are the same.
  case orderedSame = 0
  /// The first position comes after the second.
  case orderedDescending = 1
}

/// Where a screen direction leads from a position: along its line (to the
/// next or previous character) or across the lines (to the next or
/// previous line).
enum ScreenMove: Equatable {
  case along(TextStorageDirection)
  case across(TextStorageDirection)

  var storage: TextStorageDirection {
    switch self {
    case .along(let s), .across(let s): s
    }
  }
}

extension TextLayoutDirection {
  /// The direction as a unit vector in image pixels (`y` grows downward).
  var vector: Point {
    switch self {
    case .right: Point(x: 1, y: 0)
    case .left: Point(x: -1, y: 0)
    case .up: Point(x: 0, y: -1)
    case .down: Point(x: 0, y: 1)
    }
  }

  var opposite: TextLayoutDirection {
    switch self {
    case .right: .left
    case .left: .right
    case .up: .down
    case .down: .up
    }
  }
}

extension Page {
  /// Where the screen direction `direction` leads from the caret at
  /// `offset`: the direction is compared with the reading frame of the
  /// caret's line in the image. Along the line (the reading direction or
  /// against it) it moves by characters; across it, by lines (toward the
  /// line's descenders is the next line).
  func screenMove(_ direction: TextLayoutDirection, at offset: Int) -> ScreenMove {
    guard let n = layout.caretLineNumber(for: offset) else {
      switch direction {
      case .right: return .along(.forward)
      case .left: return .along(.backward)
      case .down: return .across(.forward)
      case .up: return .across(.backward)
      }
    }
    let frame = layout.lines[n].frame
    let d = direction.vector
    let du = d.dot(frame.axisU)
    let dv = d.dot(frame.axisV)
    if abs(du) >= abs(dv) { return .along(du >= 0 ? .forward : .backward) }
    return .across(dv > 0 ? .forward : .backward)
  }

  /// The storage direction a tokenizer direction means at `offset`.
  func storageDirection(_ direction: TextDirection, at offset: Int) -> TextStorageDirection {
    switch direction {
    case .storage(let s): s
    case .layout(let l): screenMove(l, at: offset).storage
    }
  }

  /// The order of two positions (`UITextInput.compare(_:to:)`).
  ///
  /// - Parameters:
  ///   - position: The first position.
  ///   - other: The position to compare it with.
  /// - Returns: `.orderedAscending` when `position` comes first,
  ///   `.orderedSame` when they are equal, `.orderedDescending` otherwise.
  /// - Complexity: O(1).
  public func compare(_ position: TextPosition, to other: TextPosition) -> TextComparisonResult {
    position < other ? .orderedAscending : position == other ? .orderedSame : .orderedDescending
  }

  /// The position `offset` steps from `position` in a screen direction
  /// (`UITextInput.position(from:in:offset:)`).
  ///
  /// Directions are as the user sees the original image, whatever the
  /// page's ``orientation``: each step compares the direction with the
  /// reading frame of the caret's line. A direction along the line moves
  /// one character (grapheme cluster): `right` is forward on left-to-right
  /// text and backward on right-to-left text (``baseWritingDirection(for:in:)``);
  /// on a page turned by 90° (lines read down the image) `down` is forward
  /// and `up` backward. Whether the move is forward or backward is read at
  /// `position` and kept for every step, so a move that crosses into a
  /// paragraph of the other direction keeps going (never turns back);
  /// whether a step moves along the line or across lines is read at each
  /// step's line. A direction across the lines moves to the next or
  /// previous line in reading order, to the caret stop nearest the caret's
  /// place along the line (`down` on an upright page, `left` on a page
  /// turned by 90°, `right` on one turned by 270°); past the last line it
  /// goes to the end of the text, past the first to its start. A negative
  /// offset moves the opposite way.
  ///
  /// - Parameters:
  ///   - position: The starting position.
  ///   - direction: A screen direction.
  ///   - offset: The number of characters or lines to move.
  /// - Returns: The position reached, or `nil` when a step cannot be taken
  ///   (it would pass either end of the text) or `position` is outside the
  ///   page text.
  /// - Complexity: O(|*offset*| · log *n*) in the units of the page (plus
  ///   the caret stops of one line per step across lines).
  public func position(
    from position: TextPosition, in direction: TextLayoutDirection, offset: Int
  ) -> TextPosition? {
    guard contains(position) else { return nil }
    // Every step moves at least one code unit the same way in storage
    // order, so more steps than code units pass an end.
    guard offset.magnitude <= UInt(layout.length) else { return nil }
    let way = offset >= 0 ? direction : direction.opposite
    // The storage direction is read once, at the start: where the text's
    // direction changes (a right-to-left paragraph after a left-to-right
    // one) the move keeps going the same way instead of turning back.
    let storage = screenMove(way, at: position.offset).storage
    var p = position
    for _ in 0..<offset.magnitude {
      let next: TextPosition?
      switch screenMove(way, at: p.offset) {
      case .along:
        next = self.position(from: p, toBoundary: .character, inDirection: .storage(storage))
      case .across:
        next = verticalMove(from: p, down: storage == .forward)
      }
      guard let next else { return nil }
      p = next
    }
    return p
  }

  /// The end of `range` farthest in a screen direction
  /// (`UITextInput.position(within:farthestIn:)`).
  ///
  /// The direction is read at the range's start as in
  /// ``position(from:in:offset:)``: a direction that means forward (`right`
  /// or `down` on upright left-to-right text) gives the range's end, one
  /// that means backward gives its start.
  ///
  /// - Parameters:
  ///   - range: A range of the page text.
  ///   - direction: A screen direction.
  /// - Returns: `range.lowerBound` or `range.upperBound`, or `nil` when
  ///   the range is outside the page text.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func position(
    within range: TextRange, farthestIn direction: TextLayoutDirection
  ) -> TextPosition? {
    guard contains(range) else { return nil }
    switch screenMove(direction, at: range.lowerBound.offset).storage {
    case .forward: return range.upperBound
    case .backward: return range.lowerBound
    }
  }

  /// The range from `position` to its farthest extent in a screen
  /// direction (`UITextInput.characterRange(byExtending:inDirection:)`).
  ///
  /// Along the line (read as in ``position(from:in:offset:)``), the range
  /// runs to the line's start or end: `right` on left-to-right text ends at
  /// the end of the caret's line, `left` starts at its start (on
  /// right-to-left text the other way round). Across the lines it runs to
  /// the start (`up` on an upright page) or the end (`down`) of the text.
  /// From a position in the newlines after a line, the caret's line is that
  /// line, so extending toward its end gives an empty range.
  ///
  /// - Parameters:
  ///   - position: The position to extend from.
  ///   - direction: A screen direction.
  /// - Returns: The range, which holds `position` at one of its ends;
  ///   an empty range on a page without lines; `nil` when `position` is
  ///   outside the page text.
  /// - Complexity: O(log *n*) in the lines of the page.
  public func characterRange(
    byExtending position: TextPosition, inDirection direction: TextLayoutDirection
  ) -> TextRange? {
    guard contains(position) else { return nil }
    let p = position.offset
    guard let n = layout.caretLineNumber(for: p) else { return position..<position }
    let line = layout.lines[n].range
    switch screenMove(direction, at: p) {
    case .along(.forward): return TextRange(offsets: p..<max(p, line.upperBound))
    case .along(.backward): return TextRange(offsets: min(p, line.lowerBound)..<p)
    case .across(.forward): return position..<endPosition
    case .across(.backward): return startPosition..<position
    }
  }

  /// The base writing direction of the paragraph at `position`
  /// (`UITextInput.baseWritingDirection(for:in:)`), computed from the text:
  /// the direction of the paragraph's first strong character (Unicode
  /// Bidirectional Algorithm, rules P2–P3, as `NSWritingDirection.natural`
  /// resolves): Hebrew or Arabic letters make it right to left, Latin
  /// (and any other left-to-right script) left to right; a paragraph with
  /// no strong character (digits, punctuation) is left to right.
  ///
  /// Paragraphs are the OCR's (the lines of a paragraph share its
  /// direction). Forward, the paragraph holding the character after
  /// `position`; backward, the one holding the character before it. In
  /// the newlines between two paragraphs, forward means the next paragraph
  /// and backward the previous one; past the last paragraph, the last one;
  /// before the first, the first one. A page without text is left to right.
  ///
  /// - Parameters:
  ///   - position: A position in the page text.
  ///   - direction: Which side of the position to look at.
  /// - Returns: `.leftToRight` or `.rightToLeft`.
  /// - Precondition: `position` lies within the page text.
  /// - Complexity: O(log *p*) in the paragraphs of the page.
  public func baseWritingDirection(
    for position: TextPosition, in direction: TextStorageDirection
  ) -> WritingDirection {
    precondition(contains(position), "TextPosition \(position) is out of bounds for this page")
    let ranges = layout.paragraphRanges
    guard !ranges.isEmpty else { return .leftToRight }
    let p = position.offset
    let i: Int
    switch direction {
    case .forward:
      if let j = Self.lastRange(in: ranges, startingAtOrBefore: p) {
        i = ranges[j].upperBound > p || j + 1 == ranges.count ? j : j + 1
      } else {
        i = 0
      }
    case .backward:
      i = Self.lastRange(in: ranges, startingAtOrBefore: p - 1) ?? 0
    }
    return layout.paragraphDirections[i]
  }

  /// The tokenizer's `.word` unit under `point`: the word
  /// (``TextGranularity/word``) that holds the character under the point
  /// (``characterRange(at:)``). Unlike ``word(at:)``, which gives the OCR
  /// word with its punctuation (`fox.`), this is the word a double tap
  /// selects (`fox`), and a word hyphenated at a line end is the whole
  /// word with both parts. `nil` off every line's band, and over a space
  /// or punctuation outside a word.
  ///
  /// - Parameter point: A point in image pixels.
  /// - Returns: The word's range, or `nil`.
  /// - Complexity: O(log *n*) in the lines and words of the page.
  public func wordRange(at point: Point) -> TextRange? {
    guard lineNumber(at: point) != nil, let c = characterRange(at: point), !c.isEmpty else {
      return nil
    }
    return rangeEnclosingPosition(c.lowerBound, with: .word, inDirection: .forward)
  }
}
