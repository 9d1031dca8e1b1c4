extension Page {
  /// The OCR words the engine is unsure of: those whose confidence is below
  /// `threshold`, in reading order. Words without a confidence (ground
  /// truth, some imported formats) are never uncertain.
  ///
  /// ```swift
  /// page.words(withConfidenceBelow: 60).map(\.text)  // ["StraBe"]
  /// ```
  ///
  /// - Parameter threshold: A confidence in 0...100; a word with exactly
  ///   this confidence is not below it.
  /// - Returns: The uncertain words in reading order.
  /// - Complexity: O(*n*) in the words of the page.
  public func words(withConfidenceBelow threshold: Double) -> [Word] {
    layout.words.indices.compactMap { i in
      let w = word(at: layout.words[i])
      return Self.isUncertain(w, threshold) ? w : nil
    }
  }

  /// The first uncertain word that starts at or after `position`: the next
  /// item of a "low confidence" rotor. To step through the words, pass the
  /// end of the current one (`word.range.upperBound`).
  ///
  /// - Parameters:
  ///   - position: Where to start looking, in the page text.
  ///   - threshold: The confidence below which a word is uncertain
  ///     (see ``words(withConfidenceBelow:)``).
  /// - Returns: The word, or `nil` when there is none after `position` or
  ///   the position is outside the page text.
  /// - Complexity: O(log *n* + *k*) in the words of the page and the words
  ///   skipped.
  public func nextUncertainWord(after position: TextPosition, threshold: Double) -> Word? {
    guard contains(position) else { return nil }
    let starts = layout.wordStarts
    var i = (PageLayout.lastIndex(in: starts, atOrBefore: position.offset - 1) ?? -1) + 1
    while i < layout.words.count {
      let w = word(at: layout.words[i])
      if Self.isUncertain(w, threshold) { return w }
      i += 1
    }
    return nil
  }

  /// The last uncertain word that ends at or before `position`: the
  /// previous item of a "low confidence" rotor. To step back through the
  /// words, pass the start of the current one (`word.range.lowerBound`).
  ///
  /// - Parameters:
  ///   - position: Where to start looking back, in the page text.
  ///   - threshold: The confidence below which a word is uncertain
  ///     (see ``words(withConfidenceBelow:)``).
  /// - Returns: The word, or `nil` when there is none before `position` or
  ///   the position is outside the page text.
  /// - Complexity: O(log *n* + *k*) in the words of the page and the words
  ///   skipped.
  public func previousUncertainWord(before position: TextPosition, threshold: Double) -> Word? {
    guard contains(position),
      var i = PageLayout.lastIndex(in: layout.wordStarts, atOrBefore: position.offset)
    else { return nil }
    while i >= 0 {
      let entry = layout.words[i]
      if entry.range.upperBound <= position.offset {
        let w = word(at: entry)
        if Self.isUncertain(w, threshold) { return w }
      }
      i -= 1
    }
    return nil
  }

  private static func isUncertain(_ word: Word, _ threshold: Double) -> Bool {
    guard let c = word.confidence else { return false }
    return c < threshold
  }
}
