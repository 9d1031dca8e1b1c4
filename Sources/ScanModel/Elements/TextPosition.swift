/// A caret position in a page's ``Page/text``, counted in UTF-16 code units
/// from the start of the page (the unit of `NSRange` and `UITextInput`).
///
/// A position sits *between* two code units: offset 0 is before the first
/// character and `text.utf16.count` is after the last. Character navigation
/// (``Page/position(from:offset:)`` and the tokenizer's `.character`
/// granularity) moves by whole grapheme clusters, so it never lands inside a
/// surrogate pair or a combining sequence.
public struct TextPosition: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The offset in UTF-16 code units from the start of the page text.
  public let offset: Int

  /// Creates a position at a UTF-16 offset.
  public init(offset: Int) { self.offset = offset }

  public static func < (a: TextPosition, b: TextPosition) -> Bool { a.offset < b.offset }
  public var description: String { "\(offset)" }
}

/// A half-open range of positions in a page's text.
public typealias TextRange = Range<TextPosition>

extension Range where Bound == TextPosition {
  /// Creates a range from UTF-16 offsets.
  public init(offsets: Range<Int>) {
    self = TextPosition(offset: offsets.lowerBound)..<TextPosition(offset: offsets.upperBound)
  }

  /// The range as UTF-16 offsets (an `NSRange`'s location ..< location + length).
  public var offsets: Range<Int> { lowerBound.offset..<upperBound.offset }
}
