extension Page {
  /// The lines of a page in reading order: a view over the page's element
  /// tree, indexed by reading-order line number.
  ///
  /// Getting ``Page/lines`` costs nothing (it shares the page's storage);
  /// each element is looked up through the page's index in O(1).
  public struct Lines: RandomAccessCollection, Sendable {
    let blocks: [Block]
    let entries: [PageLayout.LineEntry]

    /// The first line number, 0.
    public var startIndex: Int { 0 }
    /// One past the last line number.
    public var endIndex: Int { entries.count }

    /// The line at a reading-order line number.
    /// - Complexity: O(1).
    public subscript(position: Int) -> TextLine {
      let e = entries[position]
      return blocks[e.block].paragraphs[e.paragraph].lines[e.line]
    }
  }

  /// The words of a page in reading order (as the OCR engine delimits them):
  /// a view over the page's element tree.
  ///
  /// Getting ``Page/words`` costs nothing (it shares the page's storage);
  /// each element is looked up through the page's index in O(1).
  public struct Words: RandomAccessCollection, Sendable {
    let blocks: [Block]
    let entries: [PageLayout.WordEntry]

    /// The first word's index, 0.
    public var startIndex: Int { 0 }
    /// One past the last word's index.
    public var endIndex: Int { entries.count }

    /// The word at an index in reading order.
    /// - Complexity: O(1).
    public subscript(position: Int) -> Word {
      let e = entries[position]
      return blocks[e.block].paragraphs[e.paragraph].lines[e.line].words[e.word]
    }
  }
}
