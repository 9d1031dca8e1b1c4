/// A word without the spaces at its ends.
///
/// Tesseract's LSTM sometimes reads a space glyph one pixel wide before a
/// word after a wide gap: `" outlives."` on a browser-set newsletter page
/// (`nknewsletter-2`: "committee every  outlives.", two spaces, in the
/// `tesseract` command's text too), `" derer"` and `" Gleidhivie:"` on the
/// real `fleming-jaeger-1719-0117.jpg`, `" +1151.0"` at the start of a
/// table cell (develop page `tables-1047`). A word is letters between
/// spaces, so such a space is none of its text: left in, the page's text
/// has two spaces where the page has one gap, the word's range and its
/// selection start at a space, and a table cell starts with one.
/// Tesseract's own TSV, imported, never keeps them either.
/// Words of nothing but spaces are left out when the reading is read
/// (as the `tesseract` command's text does); this takes the ends off
/// the rest. In Tesseract's own layout (`--no-preprocess`) the words
/// stay as read: that text is the `tesseract` command's, byte for byte.
public enum WordEnds {
  /// The word with the whitespace at its ends taken off its text, and its
  /// glyphs of nothing but whitespace dropped; the word itself when it has
  /// none at its ends, or nothing but whitespace.
  /// - Parameter word: A word as OCR read it.
  /// - Returns: The trimmed word (box and confidence unchanged).
  /// - Complexity: O(*n*) in the word's characters and glyphs.
  public static func trimmed(_ word: Word) -> Word {
    guard word.text.first?.isWhitespace == true || word.text.last?.isWhitespace == true else {
      return word
    }
    let text = String(
      word.text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    guard !text.isEmpty else { return word }
    var out = word
    out.text = text
    out.glyphs = word.glyphs.filter { !$0.text.allSatisfy(\.isWhitespace) }
    return out
  }

  /// The blocks with every word ``trimmed(_:)``.
  /// - Parameter blocks: A page's blocks.
  /// - Returns: The same blocks, words without spaces at their ends.
  /// - Complexity: O(*n*) in the page's characters.
  public static func trimming(_ blocks: [Block]) -> [Block] {
    SliverNoise.replacingWords(in: blocks) { [trimmed($0)] }
  }
}
