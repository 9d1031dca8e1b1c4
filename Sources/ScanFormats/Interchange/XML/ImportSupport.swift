import ScanModel

/// Helpers the importers share to turn foreign elements into model values.
enum ImportSupport {
  /// Words from a text that may hold spaces (a line without word elements,
  /// or a word whose text has spaces): one word per whitespace-separated
  /// run, each given a share of `box` in proportion to its characters.
  static func words(
    from text: String, box: PixelRect, confidence: Double? = nil, glyphs: [Glyph] = []
  ) -> [Word] {
    let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
    if parts.count == 1, let only = parts.first {
      return [Word(text: only, bbox: box, confidence: confidence, glyphs: glyphs)]
    }
    let total = parts.reduce(0) { $0 + $1.count } + max(0, parts.count - 1)
    guard total > 0 else { return [] }
    var out: [Word] = []
    var consumed = 0
    for part in parts {
      let x0 = box.minX + box.width * consumed / total
      consumed += part.count
      let x1 = max(x0 + (box.width > 0 ? 1 : 0), box.minX + box.width * consumed / total)
      consumed += 1
      out.append(
        Word(
          text: part, bbox: PixelRect(minX: x0, minY: box.minY, maxX: x1, maxY: box.maxY),
          confidence: confidence))
    }
    return out
  }

  /// A word with its glyphs kept only when they spell the word (so that
  /// their ranges are meaningful).
  static func word(
    text: String, box: PixelRect, quad: Quad?, confidence: Double?, glyphs: [Glyph]
  ) -> [Word] {
    let trimmed = text.trimmingWhitespace
    guard !trimmed.isEmpty else { return [] }
    if trimmed.contains(where: \.isWhitespace) {
      return words(from: trimmed, box: box, confidence: confidence)
    }
    return [Word(text: trimmed, bbox: box, quad: quad, confidence: confidence, glyphs: glyphs)]
  }

  /// A confidence clamped to 0...100.
  static func confidence(_ x: Double?) -> Double? {
    guard let x, x.isFinite, x >= 0 else { return nil }
    return min(100, x)
  }

  /// The language as the JSON writes it (`eng+deu`) from a list.
  static func language(_ codes: [String]) -> String? {
    let clean = codes.map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
    return clean.isEmpty ? nil : clean.joined(separator: "+")
  }
}

extension StringProtocol {
  /// The string without leading and trailing whitespace and newlines.
  var trimmingWhitespace: String {
    var s = Substring(self)
    while let c = s.first, c.isWhitespace { s.removeFirst() }
    while let c = s.last, c.isWhitespace { s.removeLast() }
    return String(s)
  }
}
