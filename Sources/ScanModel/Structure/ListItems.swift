/// Lists as they are set: a marker (a bullet, a number, a check box), a
/// tab, then the item's text, its further lines hung under the text, not
/// the marker; items of a list inside another set further in.
///
/// OCR keeps the text but not always the marker: it drops a check box or
/// a pale bullet, reads a bullet as a letter ("e", "o") or a sign ("»",
/// "©"), and reads several short items into one paragraph. The cues here
/// follow from how lists are made, not from one document's look:
///
/// - **A marker read as text**: the first word is a bullet, a numbering
///   (``TextCues/startsLikeListItem(_:)``), or any one character but a
///   digit (or two signs: ">»") followed by a gap wider than a space (half an em, and half as
///   wide again as the paragraph's widest gap between its other words): a
///   tab, not a word space; and no taller than one and a half times most
///   of the line's words (taller, it is a large initial).
/// - **A marker not read**: the image holds one small glyph in the strip
///   left of the line (`listMarker`, measured by the engine on the page's
///   pixels), with paper between it and the text.
/// - **Items read as one paragraph** are split at each later line that
///   starts like the first one (a marker in the image, the same bullet,
///   or a numbering) and sits where the first line's marker or text
///   starts.
/// - **Nesting**: in a run of items one after another, the distinct
///   indents of their first lines (apart by more than half an em) are the
///   levels, from the leftmost (``Paragraph/listLevel``).
extension RoleDetection {
  /// The blocks with each paragraph that holds several list items split
  /// into one paragraph per item.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - listMarker: Whether the image shows a marker left of a line
  ///     (`nil`: markers are known only from the text).
  /// - Returns: The blocks, with as many paragraphs or more.
  /// - Complexity: O(*w*) in the number of words, plus one call to
  ///   `listMarker` per line.
  public static func splittingListItems(
    _ blocks: [Block], listMarker: ((TextLine) -> Bool)? = nil
  ) -> [Block] {
    var out = blocks
    for b in out.indices {
      var p = out[b].paragraphs.count - 1
      while p >= 0 {
        let paragraph = out[b].paragraphs[p]
        let starts = itemStarts(paragraph, listMarker: listMarker)
        if starts.count > 1 {
          let parts = zip(starts, starts.dropFirst() + [paragraph.lines.count]).compactMap {
            start, end -> Paragraph? in
            let lines = Array(paragraph.lines[start..<end])
            return PixelRect.union(lines.map(\.bbox)).map { Paragraph(bbox: $0, lines: lines) }
          }
          out[b].paragraphs.replaceSubrange(p...p, with: parts)
        }
        p -= 1
      }
    }
    return out
  }

  /// The indices of the lines of `paragraph` that start a list item: the
  /// first line when it does, and each later line that starts alike.
  static func itemStarts(_ paragraph: Paragraph, listMarker: ((TextLine) -> Bool)?) -> [Int] {
    let lines = paragraph.lines
    guard lines.count >= 2, let first = lines.first,
      let lead = ListLead(first, inkMarker: listMarker?(first) ?? false)
    else { return [0] }
    let em = Double(first.bbox.maxY - first.bbox.minY)
    var starts = [0]
    var previous = lead
    for (i, line) in lines.enumerated().dropFirst() {
      guard let next = ListLead(line, inkMarker: listMarker?(line) ?? false),
        next.follows(previous),
        abs(Double(next.startX - lead.startX)) <= em / 2
      else { continue }
      starts.append(i)
      previous = next
    }
    return starts
  }

  /// Whether a list item's first word is a bullet OCR misread as a letter
  /// or a sign ("e", "»" before a tab: ``ListLead/isTabbedMark(_:boxes:em:)``),
  /// which writers leave out of the item's text or mark as its label.
  /// - Complexity: O(*w*) in the words of the first line.
  package static func startsWithMisreadBullet(_ paragraph: Paragraph) -> Bool {
    guard let line = paragraph.lines.first,
      let first = line.words.first(where: { !$0.text.isEmpty })
    else { return false }
    let words = line.words.filter { !$0.text.isEmpty }
    return !TextCues.startsLikeListItem(words.map(\.text).joined(separator: " "))
      && ListLead.isTabbedMark(
        first.text, boxes: words.map(\.bbox), em: Double(line.bbox.maxY - line.bbox.minY))
  }

  /// Whether a paragraph starts like a list item from its first line: a
  /// marker in its text or in the image.
  static func startsListItem(_ f: ParagraphFacts) -> Bool {
    TextCues.startsLikeListItem(f.text) || f.markerInk.first == true
      || f.firstLineWordBoxes.count >= 2
        && ListLead.isTabbedMark(
          f.paragraphLines.first?.first ?? "", boxes: f.firstLineWordBoxes,
          em: f.lineSizes.first ?? 0)
  }

  /// List levels for the list items among `facts` (by index into
  /// `facts`), from the indents of runs of consecutive items.
  static func listLevels(_ facts: [ParagraphFacts], roles: [ParagraphRole]) -> [Int: Int] {
    var levels: [Int: Int] = [:]
    var run: [Int] = []
    func close() {
      guard !run.isEmpty else { return }
      let em = median(run.compactMap { facts[$0].lineSizes.first })
      let xs = run.map { Double(facts[$0].box.minX) }.sorted()
      var indents: [Double] = []
      for x in xs where indents.last.map({ x - $0 > em / 2 }) ?? true { indents.append(x) }
      for i in run {
        let x = Double(facts[i].box.minX)
        levels[i] = 1 + indents.filter { x - $0 > em / 2 }.count
      }
      run = []
    }
    for i in facts.indices {
      if roles[i] == .listItem, let last = run.last,
        facts[last].block != facts[i].block
          && facts[last].box.maxX <= facts[i].box.minX
      {
        // The next item is in another column: a list of its own.
        close()
      }
      if roles[i] == .listItem { run.append(i) } else { close() }
    }
    close()
    return levels
  }
}

extension TextCues {
  /// Whether `text` starts like an item of a numbered list ("1.", "b)",
  /// "(iv)"): an `ol`, not a `ul`.
  package static func startsNumberedListItem(_ text: String) -> Bool {
    guard startsLikeListItem(text), let first = text.split(separator: " ").first else {
      return false
    }
    return !ListLead.ordinals(String(first)).isEmpty
  }
}

/// How a line starts, for telling list items apart in one paragraph.
struct ListLead {
  /// The marker read as text ("•", "1.", "a)"), or `nil` for a marker
  /// only in the image.
  var token: String?
  /// Where the line's marker (read) or text (marker not read) starts.
  var startX: Int

  /// `nil` when the line does not start like a list item.
  init?(_ line: TextLine, inkMarker: Bool) {
    let words = line.words.filter { !$0.text.isEmpty }
    guard let first = words.first else { return nil }
    startX = first.bbox.minX
    if inkMarker {
      token = nil
      return
    }
    let em = Double(line.bbox.maxY - line.bbox.minY)
    guard
      TextCues.startsLikeListItem(words.map(\.text).joined(separator: " "))
        || Self.isTabbedMark(first.text, boxes: words.map(\.bbox), em: em)
    else { return nil }
    token = first.text
  }

  /// Whether a line starting like this one starts the item after
  /// `previous` in the same list: a marker in the image both times, the
  /// same bullet, or the next number or letter ("3." after "2.", "b)"
  /// after "a)"; a year or a count at the start of a line is not).
  func follows(_ previous: ListLead) -> Bool {
    switch (token, previous.token) {
    case (nil, nil): return true
    case (let a?, let b?):
      let next = Self.ordinals(a)
      let last = Self.ordinals(b)
      if !next.isEmpty || !last.isEmpty {
        return next.contains { n in last.contains { n == $0 + 1 } }
      }
      return a == b || (Self.isSign(a) && Self.isSign(b))
    default: return false
    }
  }

  /// One or two signs, neither letters nor digits: bullets, however OCR
  /// read the same one (">" and ">»" for one triangle).
  static func isSign(_ token: String) -> Bool {
    token.count <= 2 && token.allSatisfy { !$0.isLetter && !$0.isNumber }
  }

  /// The numbers a numbering marker may count ("3." 3, "(iv)" 4, "b)" 2,
  /// "i)" 9 as a letter or 1 as a roman numeral); none for a bullet.
  static func ordinals(_ token: String) -> [Int] {
    let core = token.filter { !"().:]".contains($0) }
    if let n = Int(core), core.count <= 3 { return [n] }
    var out: [Int] = []
    if core.count == 1, let c = core.lowercased().unicodeScalars.first, c.value >= 97,
      c.value <= 122
    {
      out.append(Int(c.value) - 96)
    }
    if TextCues.isRoman(core) {
      let values: [Character: Int] = ["i": 1, "v": 5, "x": 10, "l": 50, "c": 100]
      var total = 0
      var largest = 0
      for c in core.lowercased().reversed() {
        let v = values[c] ?? 0
        total += v < largest ? -v : v
        largest = max(largest, v)
      }
      out.append(total)
    }
    return out
  }

  /// One character but a digit (or two signs), then a tab: a gap of half
  /// an em or more, and half as wide again as the widest gap between the
  /// line's other words (a bullet OCR read as a letter or a sign: "e",
  /// "o", "»", ">»").
  static func isTabbedMark(_ word: String, boxes: [PixelRect], em: Double) -> Bool {
    // One sign but a digit, or two signs neither a letter nor a digit
    // (">»": a triangle read as two).
    let isMark =
      word.count == 1 && !(word.first?.isNumber ?? true)
      || word.count == 2 && isSign(word)
    guard isMark, boxes.count >= 2, em > 0 else { return false }
    // A bullet or a box stands no taller than the words it marks; a
    // letter one and a half times as tall as most of the line's words is
    // a large initial (a drop cap beside the first lines: `dropcap`
    // develop seed 1005, "N otwithstanding …" was a list item).
    let heights = boxes.dropFirst().map { Double($0.maxY - $0.minY) }.sorted()
    if Double(boxes[0].maxY - boxes[0].minY) > 1.5 * heights[heights.count / 2] { return false }
    let gap = Double(boxes[1].minX - boxes[0].maxX)
    let others = zip(boxes.dropFirst(), boxes.dropFirst(2)).map {
      Double($1.minX - $0.maxX)
    }
    return gap >= em / 2 && gap >= 1.5 * (others.max() ?? 0)
  }
}
