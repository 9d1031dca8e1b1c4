extension RoleDetection {
  /// The blocks with each heading that was read into one paragraph with
  /// the text below it split off into its own paragraph.
  ///
  /// Tesseract finds paragraphs from the lines' indents and lengths, not
  /// their type, so a heading close above its text, a caption or a list
  /// item often joins it ("Notes on stables / The village was filled."),
  /// and no rule on whole paragraphs can call it a heading. A paragraph's
  /// first one to three lines are split off when they are set alike
  /// (sizes within 8 %, all bold or none) and differ from the line after
  /// them as a heading differs from its text: larger (1.2 times that line
  /// and the running text, the heading rule's ratio), or bold over
  /// regular at the running text's size (`TypeWeight`), or in capitals
  /// over mixed case with a blank below them; when they start
  /// with a capital or a number, the last of them not filling the measure
  /// (its block's and its column's running text's), and hold at most twenty words (bold ones
  /// also ending in a bold word and not like a sentence part, as a bold
  /// run-in lead before the regular text of its line does); and when the
  /// last line of the paragraph right above them is not set like
  /// them (a heading stands apart from the text above it too: a page's
  /// larger main text under a smaller table of contents is not one). The
  /// parts keep their lines, in order; roles are given afterwards
  /// (`assigningRoles(to:pageWidth:pageHeight:orientation:page:strokeWidth:)`).
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - strokeWidth: The mean stroke width, in pixels, of a word's ink
  ///     (`nil` where not measured); without it only size splits.
  /// - Returns: The blocks, with as many paragraphs or more.
  /// - Complexity: O(*w* log *w*) in the number of words, plus one call
  ///   to `strokeWidth` per word.
  public static func splittingHeadings(
    _ blocks: [Block], strokeWidth: ((Word) -> Double?)? = nil
  ) -> [Block] {
    let strokes = WordStrokes(blocks, strokeWidth)
    let facts = ParagraphFacts.of(blocks, strokes: strokes)
    let multiLine = facts.filter { $0.lineSizes.count >= 2 }
    guard !multiLine.isEmpty else { return blocks }
    let bodySize = runningTextSize(multiLine)
    let bodyWeight = median(multiLine.flatMap { $0.lineWeights.compactMap { $0 } })
    guard bodySize > 0 else { return blocks }
    var out = blocks
    // From the last, so the indices of the paragraphs not yet split hold.
    for var f in multiLine.reversed() {
      // The measure: its block and the running text in its column (a
      // block may be this paragraph alone).
      for other in multiLine where other.box.minX < f.box.maxX && f.box.minX < other.box.maxX {
        f.column = f.column.union(other.box)
      }
      let inType = linesInOtherType(f, bodySize: bodySize, bodyWeight: bodyWeight)
      guard let k = inType ?? linesInCapitals(f, bodySize: bodySize) else { continue }
      // Lines set like the last line of the paragraph above (in any block,
      // in their column) are its text's; in capitals, they are set alike
      // when that line is in capitals too.
      let above = facts.filter {
        $0.box.maxY <= f.box.minY + 1 && $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX
      }.max { $0.box.maxY < $1.box.maxY }
      if let above, let last = above.lineSizes.last,
        abs(last - f.lineSizes[0]) <= 0.08 * f.lineSizes[0],
        TypeWeight.isBold(line: above.wordWeights.last ?? [], body: bodyWeight)
          == TypeWeight.isBold(line: f.wordWeights[0], body: bodyWeight),
        inType != nil || TextCues.isCapitals(above.paragraphLines.last ?? [])
      {
        continue
      }
      let lines = out[f.block].paragraphs[f.index].lines
      let parts = [Array(lines[..<k]), Array(lines[k...])].compactMap { part in
        PixelRect.union(part.map(\.bbox)).map { Paragraph(bbox: $0, lines: part) }
      }
      out[f.block].paragraphs.replaceSubrange(f.index...f.index, with: parts)
    }
    return out
  }

  /// How many of a paragraph's first lines are set larger or bolder than
  /// the lines after them, as a heading; `nil` when none are.
  private static func linesInOtherType(
    _ f: ParagraphFacts, bodySize: Double, bodyWeight: Double
  ) -> Int? {
    let sizes = f.lineSizes
    let bold = f.wordWeights.map { TypeWeight.isBold(line: $0, body: bodyWeight) }
    guard sizes.count >= 2, sizes[0] > 0 else { return nil }
    var k = 1
    while k < sizes.count, bold[k] == bold[0], abs(sizes[k] - sizes[0]) <= 0.08 * sizes[0] {
      k += 1
    }
    guard k < sizes.count, k <= 3, sizes[k] > 0 else { return nil }
    let larger = sizes[0] >= 1.2 * sizes[k] && sizes[0] >= 1.2 * bodySize
    let bolder = bold[0] && !bold[k] && sizes[0] >= TypeWeight.otherFace * bodySize
    guard endsShort(f, k) else { return nil }
    let lead = f.paragraphLines[..<k].flatMap { $0 }
    // A bold run-in lead ends inside its line, before regular words.
    let endsBold = f.wordWeights[k - 1].last { $0 != nil }.map {
      TypeWeight.isBold($0, body: bodyWeight)
    }
    guard larger || (bolder && endsBold != false), lead.count <= 20,
      let first = lead.joined().first(where: { $0.isLetter || $0.isNumber }),
      first.isUppercase || first.isNumber,
      larger || !TextCues.endsLikeSentencePart(lead)
    else { return nil }
    return k
  }

  /// Whether the last of a paragraph's first `k` lines ends short of the
  /// column or is centred in it: a line filling the whole measure is
  /// running text going on (a line OCR read together with the one below
  /// it looks larger).
  private static func endsShort(_ f: ParagraphFacts, _ k: Int) -> Bool {
    let last = f.lineBoxes[k - 1]
    let halfEm = f.lineSizes[0] / 2
    return Double(last.minX - f.column.minX) > halfEm
      || Double(f.column.maxX - last.maxX) > halfEm
  }

  /// How many of a paragraph's first lines (one to three) are a heading
  /// set in capitals over text in mixed case, at the running text's size
  /// or more, with a blank below them: more space (by a quarter em) than
  /// between the lines of the text after them (capitals set a heading
  /// apart as bold type does; a paragraph opening with a word or two in
  /// capitals runs on without a blank). `nil` when none are.
  private static func linesInCapitals(_ f: ParagraphFacts, bodySize: Double) -> Int? {
    let lines = f.paragraphLines
    let k = lines.prefix { TextCues.isCapitals($0) }.count
    guard k >= 1, k <= 3, k < lines.count, f.lineSizes[0] >= 0.95 * bodySize else { return nil }
    let lead = lines[..<k].flatMap { $0 }
    // Capitals lines may fill a narrow measure (a cover's side column):
    // the blank below them, not their length, sets them apart.
    guard lead.count >= 2, lead.count <= 20, !TextCues.endsLikeSentencePart(lead)
    else { return nil }
    let gaps = f.lineBoxes.indices.dropFirst(k).map { l in
      Double(f.lineBoxes[l].minY - f.lineBoxes[l - 1].maxY)
    }
    let below = Array(gaps.dropFirst())
    let spacing = below.isEmpty ? 0 : median(below)
    return gaps[0] >= spacing + bodySize / 4 ? k : nil
  }
}
