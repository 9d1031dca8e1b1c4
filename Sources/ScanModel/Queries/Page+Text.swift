extension Page {
  /// Whether `position` lies within the page text (`0...text.utf16.count`).
  public func contains(_ position: TextPosition) -> Bool {
    position.offset >= 0 && position.offset <= layout.length
  }

  /// Whether `range` lies within the page text.
  public func contains(_ range: TextRange) -> Bool {
    contains(range.lowerBound) && contains(range.upperBound)
  }

  /// The position `offset` UTF-16 code units away from `position`, or `nil`
  /// when the result falls outside the page text (as `UITextInput`).
  ///
  /// The result may fall inside a grapheme cluster; use
  /// ``position(from:offsetByCharacters:)`` to move by characters.
  /// - Complexity: O(1).
  public func position(from position: TextPosition, offset: Int) -> TextPosition? {
    let (result, overflow) = position.offset.addingReportingOverflow(offset)
    guard !overflow, contains(position) else { return nil }
    let p = TextPosition(offset: result)
    return contains(p) ? p : nil
  }

  /// The position `count` characters (grapheme clusters) away from
  /// `position`, forward for a positive count and backward for a negative
  /// one, or `nil` when that passes either end of the text.
  /// - Complexity: O(|*count*| + log *n*) in the words of the page.
  public func position(from position: TextPosition, offsetByCharacters count: Int)
    -> TextPosition?
  {
    guard contains(position) else { return nil }
    var p: TextPosition? = position
    let direction: TextStorageDirection = count >= 0 ? .forward : .backward
    for _ in 0..<count.magnitude {
      guard let current = p else { return nil }
      p = self.position(from: current, toBoundary: .character, inDirection: .storage(direction))
    }
    return p
  }

  /// The number of UTF-16 code units from `from` to `to` (negative when
  /// `to` comes first).
  /// - Complexity: O(1).
  public func offset(from: TextPosition, to: TextPosition) -> Int {
    to.offset - from.offset
  }

  /// The range between two positions, in either order, or `nil` when either
  /// lies outside the page text.
  public func textRange(from: TextPosition, to: TextPosition) -> TextRange? {
    guard contains(from), contains(to) else { return nil }
    return min(from, to)..<max(from, to)
  }

  /// The text in `range`, or `nil` when the range lies outside the page text.
  ///
  /// A range that splits a surrogate pair yields the replacement character
  /// for the split half.
  /// - Complexity: O(*k*) in the length of the range.
  public func text(in range: TextRange) -> String? {
    guard contains(range) else { return nil }
    let r = range.offsets
    if layout.splitsScalar(r.lowerBound) || layout.splitsScalar(r.upperBound) {
      // Decode by UTF-16 so that the split halves become replacement characters.
      return String(decoding: Array(text.utf16)[r], as: UTF16.self)
    }
    return String(decoding: layout.utf8Bytes(r), as: UTF8.self)
  }

  /// The OCR words whose boxes lie mostly (more than half their area) inside
  /// `rect`, in reading order.
  /// - Complexity: O(log *n* + *k*) in the lines of the page and the words
  ///   of the lines that meet the rectangle.
  public func words(in rect: Rect) -> [Word] {
    var words: [Word] = []
    forEachWord(in: rect) { words.append(word(at: layout.words[$0])) }
    return words
  }

  /// The text of ``words(in:)``: words on the same line joined by single
  /// spaces, lines joined by `\n`.
  /// - Complexity: As ``words(in:)``.
  public func text(in rect: Rect) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    var lastLine = -1
    let layout = self.layout
    let words = layout.words
    forEachWord(in: rect) { w in
      let entry = words[w]
      if lastLine >= 0 { out.append(lastLine == entry.lineNumber ? 0x20 : 0x0A) }
      out.append(contentsOf: layout.utf8Bytes(entry.range))
      lastLine = entry.lineNumber
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Calls `body` with the layout index of each word mostly inside `rect`,
  /// in reading order.
  func forEachWord(in rect: Rect, _ body: (Int) -> Void) {
    var lineNumbers: [Int] = []
    lineNumbers.reserveCapacity(16)
    layout.spatial.forEachItem(intersecting: rect) { lineNumbers.append($0) }
    lineNumbers.sort()
    let lines = layout.lines
    let words = layout.words
    for n in lineNumbers {
      for w in lines[n].words {
        // A word's box is the bounds of its quad when it has one.
        let box = words[w].bbox.rect
        let inside =
          box.area > 0 ? rect.overlapArea(with: box) * 2 > box.area : rect.contains(box.center)
        if inside { body(w) }
      }
    }
  }
}
