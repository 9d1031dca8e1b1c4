extension RoleDetection {
  /// The blocks with each run of notes that was read into one paragraph
  /// with running text split off into its own paragraph.
  ///
  /// Notes are set smaller than the running text and start with their
  /// marker ("3)", "*", "※"): a table's notes right under it, a page's
  /// notes under the last lines of its column. Tesseract finds paragraphs
  /// from the lines' indents and lengths, not their type, so notes close
  /// to the running text often join it ("※ Source: … / The old policy
  /// covered …"), and no rule on whole paragraphs can call them notes. A
  /// paragraph is cut between two lines where the type changes size, the
  /// smaller at most 0.88 × the larger and at most 0.88 × the running text
  /// (the footnote rule's ratio), the larger at least the running text's
  /// size (within 8 %), and the run of smaller lines starting there (or
  /// ending there, from its first line) starts with a note's marker
  /// (`TextCues.startsLikeFootnote(_:)`) followed by more text: a
  /// raised marker read as a line of its own ("4)") is no note. The parts
  /// keep their lines, in order; roles are given afterwards
  /// (`assigningRoles(to:pageWidth:pageHeight:orientation:page:strokeWidth:listMarker:)`).
  /// - Parameter blocks: A page's blocks, in original-image pixels.
  /// - Returns: The blocks, with as many paragraphs or more.
  /// - Complexity: O(*w* log *w*) in the number of words.
  public static func splittingNotes(_ blocks: [Block]) -> [Block] {
    let facts = ParagraphFacts.of(blocks, strokes: nil)
    let multiLine = facts.filter { $0.lineSizes.count >= 2 }
    guard !multiLine.isEmpty else { return blocks }
    let bodySize = runningTextSize(multiLine)
    guard bodySize > 0 else { return blocks }
    var out = blocks
    // From the last, so the indices of the paragraphs not yet split hold.
    for f in multiLine.reversed() {
      let cuts = noteCuts(f, bodySize: bodySize)
      guard !cuts.isEmpty else { continue }
      let lines = out[f.block].paragraphs[f.index].lines
      let bounds = [0] + cuts + [lines.count]
      let parts = zip(bounds, bounds.dropFirst()).compactMap { start, end -> Paragraph? in
        let part = Array(lines[start..<end])
        return PixelRect.union(part.map(\.bbox)).map { Paragraph(bbox: $0, lines: part) }
      }
      out[f.block].paragraphs.replaceSubrange(f.index...f.index, with: parts)
    }
    return out
  }

  /// The indices of the lines of a paragraph where notes and running text
  /// meet (the first line of each part after the first), ascending.
  static func noteCuts(_ f: ParagraphFacts, bodySize: Double) -> [Int] {
    let sizes = f.lineSizes
    func isNote(_ line: Int) -> Bool {
      let words = f.paragraphLines[line]
      return words.count >= 2 && TextCues.startsLikeFootnote(words.joined(separator: " "))
    }
    func small(_ size: Double, beside larger: Double) -> Bool {
      size > 0 && size <= 0.88 * larger && size <= 0.88 * bodySize
    }
    var cuts: [Int] = []
    for k in sizes.indices.dropFirst() {
      let before = sizes[k - 1]
      let after = sizes[k]
      if after >= 0.92 * bodySize, small(before, beside: after) {
        // Notes above running text: from the first of the small lines.
        var first = k - 1
        while first > 0, small(sizes[first - 1], beside: after) { first -= 1 }
        if isNote(first) { cuts.append(k) }
      } else if before >= 0.92 * bodySize, small(after, beside: before), isNote(k) {
        // Running text, then its notes.
        cuts.append(k)
      }
    }
    return cuts
  }
}
