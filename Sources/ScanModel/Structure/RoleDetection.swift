/// Gives every paragraph of a recognised page its role (heading, running
/// text, page number…) from what the page shows: the size of its type
/// against the running text's, its place on the page, the gaps around it
/// and the marks it starts with.
///
/// OCR tells nothing of fonts (Tesseract's LSTM engine reports no bold or
/// size), so every rule works on boxes and text. The rules, in the order
/// they are tried (the first that holds decides):
///
/// 1. **Page number**: one line in the top or bottom eighth of the page
///    whose text, without dashes, brackets and a "page"/"p." word, is 1–4
///    digits or a roman numeral, outside the text block (as rule 2 says).
/// 2. **Header / footer**: at most two lines in the top (bottom) tenth of
///    the page, set no larger than 1.2 × the running text, with no text
///    above (below) it and a gap of at least two text lines to the next
///    text below (above); or within the top (bottom) 15 % carrying its
///    page number a tab away; or there set at most 0.9 × the running text
///    a line's space from the text, a foot with nothing below it in its
///    column. Never beside text of the page's text block (a paragraph
///    reaching out of the 15 % band) that starts higher (ends lower) by
///    half a line: a head is printed above the block, a foot below it.
/// 3. **Footnote**: type at most 0.88 × the running text, in the bottom
///    two fifths, below every paragraph of running-text size, starting
///    with a note's marker (a number of at most three figures, bracketed
///    or not, `*`, `†`, `‡`, `※`) or holding a line that starts with one
///    hanging out left of the line after it (notes read as one paragraph);
///    or anywhere, starting with a reference mark (`※`, `†`, `‡`: a
///    table's notes). Notes read into one paragraph with running text are
///    split off first (``splittingNotes(_:)``).
/// 4. **Caption**: starts with "Fig.", "Figure", "Table", "Plate",
///    "Listing", "Example", "Abb." or "Abbildung" (and a few more labels)
///    followed by a number that ends in a sign or is followed by a
///    capital ("Table 3-2 lists …" is a sentence), or with a label and
///    its number in brackets ("[표 1]", "<그림 2>", "[Table 3]"), at most
///    four lines; at most eight when the number ends in a sign or is
///    bracketed ("Table 1. HPO performed …": a paper's table caption of a
///    few sentences). A line of running text OCR split off a caption's
///    last line, level with it and an em or less after it, is the
///    caption's.
/// 5. **Marginalia**: narrower than a third of the running text's column
///    (the median width of the multi-line paragraphs), beside a multi-line
///    paragraph (at least half the column wide) and overlapping none of
///    those horizontally (notes stacked in one margin do not exclude each
///    other).
/// 6. **List item**: starts with a bullet (`•`, `◦`, `▪`, `–`, `-`, `*`), a
///    lone symbol before a capitalised word (a bullet OCR read as `¢` or
///    `©`; `§` and `¶` excepted) or a marker like "1.", "a)", "(iv)" —
///    unless it is one line like "2. Results" (a numbered heading), or a
///    numbered line ("1.", "(1)") set larger or bolder than the running
///    text and not a sentence, or one line in display type (larger or
///    bold) whose only marker is ink OCR did not read (a section number
///    in a badge).
/// 7. **Heading**: short (at most three lines and twenty words, at least
///    three letters: not a stray initial), starting with a capital or a
///    number, followed by more text, and either set at
///    least 1.2 × the running text (older books end headings with a full
///    stop), or one line of at most twelve words at running-text size or
///    more that does not end like a sentence part (`.`, `,`, `;`, `:`; a
///    numbering such as "2.1." excepted) and is numbered and capitalised
///    ("2.1 The Harbour"), in capitals, centred in its column, or in title
///    case (in capitals, up to three lines); below 1.2 × the running text (bold or not) it is centred or set
///    flush with its column's text, left or right (not set in from both
///    edges by more than half an em: a syntax diagram's "FOR ROWS").
/// 8. Otherwise **body**.
///
/// The running text's size is the median height of the lines of the
/// page's multi-line paragraphs (all lines when there are none), each line
/// counted by its length (`runningTextSize(_:)`); a line's
/// height is the median of its words' heights across the line (quads
/// measured across, so skew does not inflate it). Heading levels follow
/// size: the largest headings are level 1, and each drop of more than 8 %
/// starts the next level (at most 6).
///
/// Table cells are not told here (a grid of cells needs the rules between
/// them, which the page model does not hold): ``TableCells`` splits the
/// paragraphs inside a ruled table found on the image into cells;
/// importers that know cells keep them.
public enum RoleDetection {
  /// The top and bottom bands of a page where running heads and feet are
  /// printed, as a fraction of its height: a paper's running head sits at
  /// 12 % of the page, a handbook's foot at 95 %.
  static let runningBand = 0.15

  /// The top and bottom bands of a page where a page number standing
  /// alone is printed, as a fraction of its height (rule 1).
  package static let pageNumberBand = 1.0 / 8

  /// The blocks with every paragraph's role (and heading level) assigned.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - pageWidth: The page's width in pixels.
  ///   - pageHeight: The page's height in pixels.
  ///   - orientation: The clockwise turn of the page's content
  ///     (``Page/orientation``): the rules look at the page upright.
  ///   - page: Where a photographed page lies in its photo (its box, and
  ///     its corners when seen at an angle: ``Page/crop``,
  ///     ``Page/perspective``): the rules measure margins and bands from
  ///     the page's edges in its own frame, not the photo's.
  ///   - strokeWidth: The mean stroke width, in pixels, of a word's ink in
  ///     the image (`nil` where it cannot be measured), which tells bold
  ///     type from regular; without it no paragraph is taken for bold.
  ///   - listMarker: Whether the image shows a list item's marker left of
  ///     a line (``splittingListItems(_:listMarker:)``); `nil`: markers
  ///     are known only from the text.
  /// - Complexity: O(*p*²) in the number of paragraphs (a page has a few
  ///   dozen) plus O(*w* log *w*) in the number of words, plus the calls
  ///   to `strokeWidth`, one per word, and to `listMarker`, one per line.
  public static func assigningRoles(
    to blocks: [Block], pageWidth: Int, pageHeight: Int, orientation: Int,
    page: PageFrame? = nil, strokeWidth: ((Word) -> Double?)? = nil,
    listMarker: ((TextLine) -> Bool)? = nil
  ) -> [Block] {
    // Strokes and markers are measured where the words lie, before any turn.
    let strokes = WordStrokes(blocks, strokeWidth)
    let markers = LineMarkers(blocks, listMarker)
    let frame = UprightFrame(
      orientation: orientation, width: pageWidth, height: pageHeight, page: page)
    guard !frame.isIdentity else {
      return assigningRoles(
        to: blocks, pageWidth: pageWidth, pageHeight: pageHeight, strokes: strokes,
        markers: markers)
    }
    // The rules speak of the top of the page and its columns: run them on
    // the page turned upright (and cut to its box) and carry the roles back.
    let upright = assigningRoles(
      to: frame.blocks(blocks), pageWidth: frame.uprightWidth, pageHeight: frame.uprightHeight,
      strokes: strokes, markers: markers)
    var out = blocks
    for b in out.indices {
      for p in out[b].paragraphs.indices {
        out[b].paragraphs[p].role = upright[b].paragraphs[p].role
        out[b].paragraphs[p].headingLevel = upright[b].paragraphs[p].headingLevel
        out[b].paragraphs[p].listLevel = upright[b].paragraphs[p].listLevel
      }
    }
    return out
  }

  /// The blocks of an upright page with every paragraph's role (and
  /// heading level) assigned.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - pageWidth: The page's width in pixels.
  ///   - pageHeight: The page's height in pixels.
  /// - Complexity: O(*p*²) in the number of paragraphs plus O(*w* log *w*)
  ///   in the number of words.
  public static func assigningRoles(to blocks: [Block], pageWidth: Int, pageHeight: Int)
    -> [Block]
  {
    assigningRoles(to: blocks, pageWidth: pageWidth, pageHeight: pageHeight, strokes: nil)
  }

  static func assigningRoles(
    to blocks: [Block], pageWidth: Int, pageHeight: Int, strokes: WordStrokes?,
    markers: LineMarkers? = nil
  ) -> [Block] {
    var facts = ParagraphFacts.of(blocks, strokes: strokes, markers: markers)
    guard !facts.isEmpty else { return blocks }
    let multiLine = facts.filter { $0.lineSizes.count >= 2 }
    let bodySize = runningTextSize(multiLine.isEmpty ? facts : multiLine)
    guard bodySize > 0 else { return blocks }
    let bodyWeight = median(
      (multiLine.isEmpty ? facts : multiLine).flatMap { $0.lineWeights.compactMap { $0 } })
    for i in facts.indices { facts[i].judgeWeight(against: bodyWeight) }
    let bodyLineHeight = bodySize
    let columnWidth: Double? =
      multiLine.isEmpty ? nil : median(multiLine.map { Double($0.box.maxX - $0.box.minX) })
    let height = Double(max(1, pageHeight))
    var roles: [ParagraphRole] = []
    for (i, f) in facts.enumerated() {
      let others = facts.indices.filter { $0 != i }.map { facts[$0] }
      let above = others.filter { Double($0.box.maxY) <= Double(f.box.minY) + 1 }
      let below = others.filter { Double($0.box.minY) >= Double(f.box.maxY) - 1 }
      let gapAbove = above.map { Double(f.box.minY - $0.box.maxY) }.min()
      let gapBelow = below.map { Double($0.box.minY - f.box.maxY) }.min()
      let centreY = Double(f.box.minY + f.box.maxY) / 2
      let relative = f.size / bodySize
      let role: ParagraphRole
      // Running heads and feet: in the top (bottom) band with no text
      // above (below), set apart by two lines of space, or carrying a
      // page number a tab away from their text, or set smaller than the
      // running text (one line's space apart).
      let apartBelow = (gapBelow ?? 0) >= 2 * bodyLineHeight
      let apartAbove = (gapAbove ?? 0) >= 2 * bodyLineHeight
      let running =
        f.lineSizes.count <= 2 && relative < 1.2 && TextCues.hasLettersOrDigits(f.text)
      let folio = hasFolio(f)
      // A running head (foot) is printed in the margin outside the text
      // block: text of the block (a paragraph reaching out of the band)
      // that starts higher (ends lower) by half a line or more lies beside
      // it, so it is inside the block (a stray sign of a listing's line),
      // not above (below) it. A logo's lettering beside a foot stays in
      // the band.
      let halfLine = max(1, f.size / 2)
      let textBlockAbove = others.contains {
        Double($0.box.minY) < Double(f.box.minY) - halfLine
          && Double($0.box.maxY) > height * runningBand
      }
      let textBlockBelow = others.contains {
        Double($0.box.maxY) > Double(f.box.maxY) + halfLine
          && Double($0.box.minY) < height * (1 - runningBand)
      }
      if f.lineSizes.count == 1,
        centreY < height * pageNumberBand && !textBlockAbove
          || centreY > height * (1 - pageNumberBand) && !textBlockBelow,
        TextCues.isPageNumber(f.text)
      {
        role = .pageNumber
      } else if running, above.isEmpty, !textBlockAbove,
        Double(f.box.maxY) < height / 10 && apartBelow
          || Double(f.box.maxY) < height * runningBand
            && (folio || relative <= 0.9 && (gapBelow ?? 0) >= bodyLineHeight)
      {
        role = .header
      } else if running, below.isEmpty, !textBlockBelow,
        Double(f.box.minY) > height * 9 / 10 && apartAbove
          || Double(f.box.minY) > height * (1 - runningBand) && folio
      {
        role = .footer
      } else if relative <= 0.88,
        TextCues.startsWithReferenceMark(f.text)
          || centreY > height * 3 / 5
            && (TextCues.startsLikeFootnote(f.text) || hasHangingNoteMarker(f))
            && !below.contains(where: { $0.size / bodySize > 0.95 && $0.lineSizes.count >= 2 })
      {
        // Before a foot told by its small type alone: a note's marker
        // ("9)", "*") says what it is. A reference mark ("※", "†") marks a
        // note wherever it stands (a table's notes under it).
        role = .footnote
      } else if running, !textBlockBelow, Double(f.box.minY) > height * (1 - runningBand),
        relative <= 0.9 && (gapAbove ?? 0) >= bodyLineHeight,
        // Nothing below it in its column: another column's foot may run
        // lower (a publisher's address beside its logo).
        !below.contains(where: { $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX })
      {
        role = .footer
      } else if f.lineSizes.count <= 4
        || f.lineSizes.count <= TextCues.longCaptionLines && TextCues.startsWithSignedLabel(f.text),
        TextCues.startsLikeCaption(f.text)
      {
        role = .caption
      } else if let columnWidth, isBeside(f, textParagraphs: multiLine, columnWidth: columnWidth) {
        role = .marginalia
      } else if isTitleAfterABadge(f, relative: relative) {
        // The badge stands at the column's edge: the title is not set in.
        role = .heading
      } else if startsListItem(f), !startsNumberedHeading(f),
        !startsNumberedHeadingInDisplayType(f, relative: relative)
      {
        role = .listItem
      } else if isHeading(
        f, relative: relative,
        // Followed by text in its column: a library stamp or a footer off
        // to the side does not make the last lines of a page a heading.
        hasTextBelow: below.contains { $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX },
        gapAbove: above.filter { $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX }
          .map { Double(f.box.minY - $0.box.maxY) }.min(),
        bodySize: bodySize,
        indent: columnWidth.flatMap { indent(of: f, textParagraphs: multiLine, columnWidth: $0) })
      {
        role = .heading
      } else {
        role = .body
      }
      roles.append(role)
    }
    continueFootnotes(facts, roles: &roles, bodySize: bodySize, pageHeight: height)
    continueCaptions(facts, roles: &roles)
    let listLevels = listLevels(facts, roles: roles)
    let levels = headingLevels(
      facts.indices.filter { roles[$0] == .heading }.map { facts[$0].look })
    var out = blocks
    var nextHeading = 0
    for (i, f) in facts.enumerated() {
      var level: Int?
      if roles[i] == .heading {
        level = levels[nextHeading]
        nextHeading += 1
      }
      out[f.block].paragraphs[f.index].role = roles[i]
      out[f.block].paragraphs[f.index].headingLevel = level
      out[f.block].paragraphs[f.index].listLevel = listLevels[i]
    }
    return out
  }

  /// The running text's size: the median size of the paragraphs' lines,
  /// each line counted by its length (the running text is the type that
  /// fills most of the page's lines, not the one with most lines: a
  /// table's short cells, a box of notes in a page Tesseract's layout
  /// breaks into many short lines).
  static func runningTextSize(_ paragraphs: [ParagraphFacts]) -> Double {
    weightedMedian(
      paragraphs.flatMap { f in
        zip(f.lineSizes, f.lineBoxes).map { ($0, Double(max(1, $1.maxX - $1.minX))) }
      })
  }

  /// The value at which half the weight lies below: the median of
  /// `values` each counted `weight` times (the lower middle value on a
  /// tie); 0 for none.
  static func weightedMedian(_ values: [(value: Double, weight: Double)]) -> Double {
    let sorted = values.sorted { $0.value < $1.value }
    let total = sorted.reduce(0) { $0 + $1.weight }
    var seen = 0.0
    for (value, weight) in sorted {
      seen += weight
      if seen >= total / 2 { return value }
    }
    return 0
  }

  /// A footnote's further paragraphs: right below a footnote in its
  /// column, in the bottom two fifths, set as small as it (at most 0.88 ×
  /// the running text), with no paragraph of running text below them.
  /// The paragraph above may reach half a line into it (OCR's boxes of
  /// one note's lines overlap), and a paragraph made a note's is itself
  /// continued by the one below it (they are taken from the top down).
  private static func continueFootnotes(
    _ facts: [ParagraphFacts], roles: inout [ParagraphRole], bodySize: Double,
    pageHeight: Double
  ) {
    let topDown = facts.indices.sorted { facts[$0].box.minY < facts[$1].box.minY }
    for i in topDown where roles[i] == .body {
      let f = facts[i]
      guard Double(f.box.minY + f.box.maxY) / 2 > pageHeight * 3 / 5, f.size / bodySize <= 0.88
      else { continue }
      let overlapping = facts.indices.filter {
        $0 != i && facts[$0].box.minX < f.box.maxX && f.box.minX < facts[$0].box.maxX
      }
      let above = overlapping.filter {
        facts[$0].box.minY < f.box.minY
          && Double(facts[$0].box.maxY) <= Double(f.box.minY) + max(1, f.size / 2)
      }
      .max { facts[$0].box.maxY < facts[$1].box.maxY }
      let textBelow = overlapping.contains {
        facts[$0].box.minY >= f.box.maxY - 1 && facts[$0].size / bodySize > 0.95
          && facts[$0].lineSizes.count >= 2
      }
      if let above, roles[above] == .footnote, !textBelow { roles[i] = .footnote }
    }
  }

  /// A caption's line OCR read as two paragraphs ("Figure 3-10 Colu" and
  /// "mn masks shown in System i Navigator"): a paragraph of running text
  /// of one line, level with a caption's last line (each line's middle
  /// within the other) and starting at most an em right of its end, is the
  /// caption's.
  private static func continueCaptions(_ facts: [ParagraphFacts], roles: inout [ParagraphRole]) {
    for i in facts.indices where roles[i] == .body && facts[i].lineBoxes.count == 1 {
      let line = facts[i].lineBoxes[0]
      let em = max(1, facts[i].size)
      let onCaptionLine = facts.indices.contains { c in
        guard roles[c] == .caption, let last = facts[c].lineBoxes.last else { return false }
        let middle = (line.minY + line.maxY) / 2
        let captionMiddle = (last.minY + last.maxY) / 2
        return (last.minY...last.maxY).contains(middle)
          && (line.minY...line.maxY).contains(captionMiddle)
          && line.minX >= last.maxX - 1 && Double(line.minX - last.maxX) <= em
      }
      if onCaptionLine { roles[i] = .caption }
    }
  }

  /// A line after the first starting with a note's marker that hangs:
  /// flush with the paragraph's left edge, half an em or more left of the
  /// line after it (notes set one under another, each marker out in the
  /// margin of its text, read as one paragraph whose first note OCR lost
  /// or misread).
  static func hasHangingNoteMarker(_ f: ParagraphFacts) -> Bool {
    f.lineBoxes.indices.dropFirst().dropLast().contains { l in
      let halfEm = f.lineSizes[l] / 2
      let words = f.paragraphLines[l]
      return words.count >= 2 && TextCues.startsLikeFootnote(words.joined(separator: " "))
        && Double(f.lineBoxes[l].minX - f.box.minX) <= halfEm
        && Double(f.lineBoxes[l + 1].minX - f.lineBoxes[l].minX) >= halfEm
    }
  }

  /// One line whose first or last word is a page number set a tab (one
  /// and a half ems) away from the rest: a running head or foot with its
  /// folio ("Chapter 3. Row and Column Access Control   19").
  private static func hasFolio(_ f: ParagraphFacts) -> Bool {
    let boxes = f.firstLineWordBoxes
    guard f.lineSizes.count == 1, boxes.count >= 2, let em = f.lineSizes.first, em > 0,
      let first = f.words.first, let last = f.words.last
    else { return false }
    if TextCues.isPageNumber(last),
      Double(boxes[boxes.count - 1].minX - boxes[boxes.count - 2].maxX) >= 1.5 * em
    {
      return true
    }
    return TextCues.isPageNumber(first) && Double(boxes[1].minX - boxes[0].maxX) >= 1.5 * em
  }

  /// Marginalia: narrower than a third of the running text's column, beside
  /// a paragraph of running text (one at least half the column wide), and
  /// overlapping none of those horizontally.
  private static func isBeside(
    _ f: ParagraphFacts, textParagraphs: [ParagraphFacts], columnWidth: Double
  ) -> Bool {
    guard Double(f.box.maxX - f.box.minX) < columnWidth / 3 else { return false }
    // Running text is at least half the column wide: notes stacked in the
    // same margin do not count against each other.
    let text = textParagraphs.filter {
      ($0.block != f.block || $0.index != f.index)
        && Double($0.box.maxX - $0.box.minX) >= columnWidth / 2
    }
    let overlapsText = text.contains { $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX }
    let besideText = text.contains { $0.box.minY < f.box.maxY && f.box.minY < $0.box.maxY }
    return !overlapsText && besideText
  }

  /// "2. Results" or "IV. The Harbour" on one line: a numbered heading,
  /// not a list item (which ends in punctuation or runs on).
  private static func startsNumberedHeading(_ f: ParagraphFacts) -> Bool {
    f.lineSizes.count == 1 && f.words.count >= 2 && f.words.count <= 12
      && TextCues.isNumbering(f.words[0])
      && f.words[1].first(where: \.isLetter)?.isUppercase == true
      && !TextCues.endsLikeSentencePart(f.words)
  }

  /// "1. A Long Account of the Mills / and the Rivers" (or "(1) …") in
  /// type larger or bolder than the running text: numbered list items are
  /// set in the
  /// running text's type, numbered headings apart from it (bulleted
  /// lists are sometimes set larger as a lead, so a bullet stays a list
  /// item).
  private static func startsNumberedHeadingInDisplayType(_ f: ParagraphFacts, relative: Double)
    -> Bool
  {
    guard let first = f.words.first,
      TextCues.isNumbering(first) || TextCues.isParenthesisedNumber(first)
    else { return false }
    // A numbered sentence of more than eight words is an item, whatever
    // its size (headings that end in a full stop are a few words).
    if f.words.count > 8, TextCues.endsLikeSentence(f.words) { return false }
    if relative >= 1.2 { return true }
    // Bold numbered items that read as sentences ("23. If your country
    // has …?", "1. Run the statements.") are a list's, not headings.
    return f.isBold && relative >= TypeWeight.otherFace && f.words.count <= 20
      && !TextCues.endsLikeSentence(f.words)
  }

  /// One line in display type (1.2 × the running text or more, or bold
  /// at its size) whose only marker is ink left of it that OCR did not
  /// read as text: a section's number set in a badge (a white figure in
  /// a dark square) before its title, not a list's bullet, which is set
  /// in the items' type. A title: at most twelve words, not ending like
  /// a sentence part.
  private static func isTitleAfterABadge(_ f: ParagraphFacts, relative: Double) -> Bool {
    f.markerInk.first == true && f.lineSizes.count == 1
      && (relative >= 1.2 || f.isBold && relative >= TypeWeight.otherFace)
      && f.words.count <= 12 && !TextCues.startsLikeListItem(f.text)
      && !TextCues.endsLikeSentencePart(f.words)
  }

  /// How far `f` starts right of the left edge of its column's running
  /// text: the median left edge of the multi-line paragraphs it overlaps
  /// horizontally that are a column wide (half to one and a half times
  /// the running text's column: not a title across two columns, not a
  /// narrow listing), how far it ends left of their right edge (the
  /// median of their right edges), and how far its centre lies from that
  /// column's centre; `nil` when there are none.
  private static func indent(
    of f: ParagraphFacts, textParagraphs: [ParagraphFacts], columnWidth: Double
  ) -> (left: Double, right: Double, offCentre: Double)? {
    let column = textParagraphs.filter {
      let width = Double($0.box.maxX - $0.box.minX)
      return ($0.block != f.block || $0.index != f.index) && width >= columnWidth / 2
        && width <= columnWidth * 1.5 && $0.box.minX < f.box.maxX && f.box.minX < $0.box.maxX
    }
    guard !column.isEmpty else { return nil }
    let left = median(column.map { Double($0.box.minX) })
    let right = median(column.map { Double($0.box.maxX) })
    return (
      Double(f.box.minX) - left, right - Double(f.box.maxX),
      abs(Double(f.box.minX + f.box.maxX) / 2 - (left + right) / 2)
    )
  }

  private static func isHeading(
    _ f: ParagraphFacts, relative: Double, hasTextBelow: Bool, gapAbove: Double?,
    bodySize: Double, indent: (left: Double, right: Double, offCentre: Double)?
  ) -> Bool {
    // Headings are short, start with a capital or a numbering, and do not
    // end like a sentence part (a numbering such as "2." excepted). They
    // are words (not code: "CUSTOMER_ID", "x = 1;"), set as one run (a
    // line with a tab inside is a table's row or a running head), and
    // stand apart from the text above them: a line at the running text's
    // size as close to the text above as its lines are to each other is
    // that text's (a capitalised line of a code listing).
    guard f.lineSizes.count <= 3, f.words.count <= 20, hasTextBelow,
      f.text.filter(\.isLetter).count >= 3, !TextCues.looksLikeCode(f.words),
      !hasTab(f),
      relative >= 1.2 || (gapAbove.map { $0 >= bodySize / 2 } ?? true),
      let first = f.text.first(where: { $0.isLetter || $0.isNumber }),
      first.isUppercase || first.isNumber || !first.isCased || TextCues.isNumbering(f.words[0])
    else { return false }
    // Larger type is cue enough; older books end their headings with a
    // full stop ("Berlinische Monatsschrift.").
    if relative >= 1.2 { return TextCues.hasLetters(f.text) }
    // At the running text's size, bold or not, a heading is set flush
    // with its column's text (left, or right as in a right-to-left
    // script) or centred (in its block or its column, to an em): a line
    // set in from both edges by more than half an em (a letter's side
    // bearing is a tenth of one) is a line of something set in (a syntax
    // diagram's bold "FOR ROWS", a quotation).
    if let indent, indent.left > bodySize / 2, indent.right > bodySize / 2, !f.isCentred,
      indent.offCentre > bodySize
    {
      return false
    }
    // Bold type at the running text's size, every line of it (a bold word
    // or a bold run-in lead inside running text is not a heading), not
    // ending like a sentence part.
    if f.isBold, relative >= TypeWeight.otherFace, !TextCues.endsLikeSentencePart(f.words) {
      return true
    }
    // Up to three lines in capitals at the running text's size are a
    // heading as one line is (a back cover's "BUILDING TECHNICAL /
    // INFORMATION BASED ON / PRACTICAL EXPERIENCE").
    if f.lineSizes.count <= 3, relative >= 0.95, f.words.count <= 12,
      TextCues.isCapitals(f.words), !TextCues.endsLikeSentencePart(f.words)
    {
      return true
    }
    guard f.lineSizes.count == 1, relative >= 0.95, f.words.count <= 12,
      !TextCues.endsLikeSentencePart(f.words)
    else { return false }
    let numbered =
      f.words.count >= 2 && TextCues.isNumbering(f.words[0])
      && f.words[1].first(where: \.isLetter)?.isUppercase == true
    return numbered || TextCues.isCapitals(f.words)
      || f.isCentred || TextCues.isTitleCase(f.words)
  }

  /// Whether the first line has a gap of more than one and a half ems
  /// between two words, past a leading numbering ("5.1   Results").
  private static func hasTab(_ f: ParagraphFacts) -> Bool {
    let boxes = f.firstLineWordBoxes
    guard boxes.count >= 2, let em = f.lineSizes.first, em > 0 else { return false }
    let skip = TextCues.isNumbering(f.words[0]) ? 1 : 0
    return zip(boxes.dropFirst(skip), boxes.dropFirst(skip + 1)).contains {
      Double($1.minX - $0.maxX) > 1.5 * em
    }
  }

  /// How a heading is set: what tells its level from the others'.
  struct HeadingLook: Equatable {
    /// Its type size (its em, in pixels).
    var size: Double
    /// Whether it is set in bold.
    var bold = false
    /// Whether it is set in capitals.
    var capitals = false
  }

  /// Levels for headings (in the headings' order), from how they are set:
  /// a larger size ranks higher (sizes fall into tiers where they drop by
  /// more than 8 %), then, within a tier, bold above regular and capitals
  /// above mixed case, as typesetters mark one level from the next when
  /// they keep the size (a bold run of body-size headings over regular
  /// ones, "CHAPTER" over "Section"). Each distinct look is one level.
  static func headingLevels(_ looks: [HeadingLook]) -> [Int] {
    // Sizes in tiers: sorted, a new tier wherever one size is more than
    // 8 % below the next larger one (measured sizes of one level spread by
    // a few per cent with their letters; typeset levels differ by 12 % or
    // more: 18/14/12 pt, 14/12/11 pt).
    let sizes = looks.map(\.size).sorted(by: >)
    var tierOf: [(size: Double, tier: Int)] = []
    var tier = 0
    for (i, s) in sizes.enumerated() {
      if i > 0, s < sizes[i - 1] * 0.92 { tier += 1 }
      tierOf.append((s, tier))
    }
    func key(_ look: HeadingLook) -> [Int] {
      let tier = tierOf.first { $0.size == look.size }?.tier ?? 0
      return [tier, look.bold ? 0 : 1, look.capitals ? 0 : 1]
    }
    let keys = Set(looks.map(key)).sorted { $0.lexicographicallyPrecedes($1) }
    return looks.map { look in min(6, 1 + (keys.firstIndex(of: key(look)) ?? 0)) }
  }

  /// Levels for heading sizes alone (in the headings' order): 1 for the
  /// largest tier, one more for each drop of more than 8 %.
  static func headingLevels(_ sizes: [Double]) -> [Int] {
    headingLevels(sizes.map { HeadingLook(size: $0) })
  }

  /// The size of a word's type (its em, in pixels): its height divided by
  /// ``emShare(of:)`` of its text. `nil` for a word with no letter or digit.
  static func typeSize(of word: Word) -> Double? {
    emShare(of: word.text).map { height(of: word) / $0 }
  }

  /// The share of the em that the ink of a word with this text spans,
  /// from the top of its tallest letter to the bottom of its lowest. In
  /// Latin type the capitals and ascenders reach about 0.70 em above the
  /// baseline, descenders 0.21 em below it, and the x-height is about
  /// 0.48 em, so "Scanning" (capital and descender) is 0.91 em tall and
  /// "one" 0.48 em: dividing a word's ink height by its share makes words
  /// with different letters comparable. Letters of other scripts count as
  /// spanning 0.8 em.
  ///
  /// A page whose words' boxes are not their ink (a PDF's text, whose
  /// boxes span the font's ascent and descent) gives `assigningRoles(to:pageWidth:pageHeight:orientation:page:)`
  /// boxes of this height times the font size, so its rules see the same
  /// sizes as on a recognised page.
  /// - Parameter text: A word's text.
  /// - Returns: The share, in 0.48...0.91; `nil` when the text has no
  ///   letter or digit.
  /// - Complexity: O(*n*) in the characters of `text`.
  public static func emShare(of text: String) -> Double? {
    var ascends = false
    var descends = false
    var other = false
    var any = false
    for c in text {
      // Quotes, apostrophes, "!" and "?" reach the capitals' height;
      // brackets and slashes from there to the descenders ("museum's" is
      // as tall as "Museum", "(see" as "gyp" with a capital).
      if "'’‘\"“”!?".contains(c) { ascends = true }
      if "()[]{}/|".contains(c) {
        ascends = true
        descends = true
      }
      guard c.isLetter || c.isNumber else { continue }
      any = true
      // The dots of i and j reach about as high as an ascender.
      if c.isUppercase || c.isNumber || "bdfhkltij".contains(c)
        || "ßäöüÄÖÜàáâèéêìíîòóôùúûç".contains(c)
      {
        ascends = true
      }
      if "gjpqyç".contains(c) { descends = true }
      if !c.isASCII, !"ßäöüÄÖÜàáâèéêìíîòóôùúûç".contains(c) { other = true }
    }
    guard any else { return nil }
    return other ? 0.8 : (ascends && descends ? 0.91 : ascends ? 0.70 : descends ? 0.69 : 0.48)
  }

  /// A word's height across its line: its quad's side, else its box's.
  static func height(of word: Word) -> Double {
    if let q = word.quad {
      return ((q.bottomLeft - q.topLeft).length + (q.bottomRight - q.topRight).length) / 2
    }
    return Double(word.bbox.maxY - word.bbox.minY)
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }
}

/// What the rules look at for one paragraph.
struct ParagraphFacts {
  var block: Int
  var index: Int
  var box: PixelRect
  var lineSizes: [Double]
  var size: Double
  var words: [String]
  /// Its block's box, and its lines' boxes.
  var column: PixelRect
  var lineBoxes: [PixelRect]
  /// The words' texts, line by line.
  var paragraphLines: [[String]]
  var text: String
  var isCentred: Bool
  /// For each line, its words' stroke widths over their type sizes
  /// (`nil` for a word not measured).
  var wordWeights: [[TypeWeight.Measure?]]
  /// For each line, the median of its words' weights.
  var lineWeights: [Double?]
  /// Every line bold (``judgeWeight(against:)``).
  var isBold = false
  /// For each line, whether the image shows a list marker left of it
  /// (all `false` when not measured).
  var markerInk: [Bool]
  /// The boxes of the first line's words.
  var firstLineWordBoxes: [PixelRect]

  var look: RoleDetection.HeadingLook {
    // "ll. HOW THE PONDS": the numbering is not the heading's case.
    .init(
      size: size, bold: isBold,
      capitals: TextCues.isCapitals(
        words.count > 1 && TextCues.isNumbering(words[0]) ? Array(words.dropFirst()) : words))
  }

  /// The facts of every paragraph with lines, in the blocks' order.
  static func of(_ blocks: [Block], strokes: WordStrokes?, markers: LineMarkers? = nil)
    -> [ParagraphFacts]
  {
    blocks.enumerated().flatMap { b, block in
      block.paragraphs.enumerated().filter { !$0.element.lines.isEmpty }.map { p, paragraph in
        ParagraphFacts(
          paragraph, block: b, index: p, blockBox: block.bbox, strokes: strokes?.paragraph(b, p),
          markers: markers?.paragraph(b, p))
      }
    }
  }

  init(
    _ paragraph: Paragraph, block: Int, index: Int, blockBox: PixelRect, strokes: [[Double?]]?,
    markers: [Bool]? = nil
  ) {
    self.block = block
    self.index = index
    box = paragraph.bbox
    if let first = paragraph.lines.first {
      box = paragraph.lines.dropFirst().reduce(first.bbox) { $0.union($1.bbox) }
    }
    column = blockBox
    lineBoxes = paragraph.lines.map(\.bbox)
    markerInk = markers ?? paragraph.lines.map { _ in false }
    firstLineWordBoxes = paragraph.lines.first?.words.filter { !$0.text.isEmpty }.map(\.bbox) ?? []
    lineSizes = paragraph.lines.map { line in
      RoleDetection.median(line.words.compactMap(RoleDetection.typeSize(of:)))
    }
    size = RoleDetection.median(lineSizes)
    paragraphLines = paragraph.lines.map { $0.words.map(\.text).filter { !$0.isEmpty } }
    words = paragraphLines.flatMap { $0 }
    text = words.joined(separator: " ")
    // Centred: the margins left and right in its block agree and are wide.
    isCentred = ParagraphFormat.isCentred(box, inColumn: blockBox)
    wordWeights = paragraph.lines.enumerated().map { l, line in
      line.words.enumerated().map { w, word in
        TypeWeight.measure(word, stroke: strokes?[safe: l]?[safe: w] ?? nil)
      }
    }
    lineWeights = wordWeights.map { weights in
      let known = weights.compactMap { $0?.weight }
      return known.isEmpty ? nil : RoleDetection.median(known)
    }
  }

  /// Decides ``isBold``: every line is bold (``TypeWeight/isBold(line:body:)``).
  mutating func judgeWeight(against body: Double) {
    isBold = TypeWeight.isBold(wordWeights, body: body)
  }

}

/// The textual cues of the role rules.
package enum TextCues {
  static func hasLetters(_ text: String) -> Bool { text.contains { $0.isLetter } }

  static func hasLettersOrDigits(_ text: String) -> Bool {
    text.contains { $0.isLetter || $0.isNumber }
  }

  /// Whether `text` is a page number: without dashes, brackets and a
  /// "page"/"p." word, 1–4 digits or a roman numeral.
  package static func isPageNumber(_ text: String) -> Bool {
    var words = text.lowercased().split(separator: " ").map {
      $0.trimmingCharacters(in: "-–—()[].,·|")
    }.filter { !$0.isEmpty }
    if let first = words.first, ["page", "p", "seite", "s", "pag"].contains(first) {
      words.removeFirst()
    }
    guard words.count == 1, let number = words.first else { return false }
    if number.count <= 4, number.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
    return number.count <= 7 && number.allSatisfy { "ivxlc".contains($0) }
  }

  /// Whether `text` starts with a note's marker: a number of at most
  /// three figures (a note is numbered on through a document, not to
  /// "07233", a postcode starting an address), bracketed or not, or `*`,
  /// `†`, `‡`, `※`, a raised figure.
  static func startsLikeFootnote(_ text: String) -> Bool {
    guard let first = text.first else { return false }
    if "([".contains(first) {
      let figures = text.dropFirst().prefix(while: \.isNumber)
      return !figures.isEmpty && figures.count <= 3
    }
    if first.isNumber { return text.prefix(while: \.isNumber).count <= 3 }
    return "*†‡※".contains(first) || "¹²³⁴⁵⁶⁷⁸⁹⁰".contains(first)
  }

  /// Whether `text` starts with a reference mark (`※`, `†`, `‡`): signs
  /// that mark notes only, wherever they stand (a table's notes under
  /// it), unlike a number or `*`, which also start list items.
  static func startsWithReferenceMark(_ text: String) -> Bool {
    text.first.map { "※†‡".contains($0) } ?? false
  }

  /// "(1)", "(12)", "(iv)": a number in brackets, as sub-sections and
  /// list items are numbered.
  static func isParenthesisedNumber(_ word: String) -> Bool {
    guard word.count >= 3, word.hasPrefix("("), word.hasSuffix(")") else { return false }
    let core = word.dropFirst().dropLast()
    return core.count <= 3 && core.allSatisfy { $0.isASCII && $0.isNumber }
      || isRoman(String(core))
  }

  /// Text that is code, not words: two or more of the signs of program
  /// text (`= ; { } < > | \ $ # @`, a dot standing alone, an identifier
  /// joined by underscores, a call such as `USER(`; a heading may name
  /// one identifier).
  static func looksLikeCode(_ words: [String]) -> Bool {
    let signs =
      words.joined().filter { "=;{}<>|\\$#@".contains($0) }.count
      + words.filter { word in
        word == "." || (word.contains("_") && word.count > 1)
          || zip(word, word.dropFirst()).contains { $0.isLetter && $1 == "(" }
      }.count
    return signs >= 2
  }

  /// Whether the last word ends a sentence or a sentence part (`.`, `?`,
  /// `!`, `:`, `;`, `,`); a numbering alone ("2.") does not.
  static func endsLikeSentence(_ words: [String]) -> Bool {
    guard let last = words.last, let end = last.last else { return false }
    if words.count == 1, isNumbering(last) { return false }
    return ".?!:;,".contains(end)
  }

  /// The labels that start a caption before its number.
  static let captionLabels: Set<String> = [
    "fig", "fig.", "figure", "table", "tab.", "plate", "abb.", "abbildung", "tafel", "listing",
    "example", "exhibit", "chart", "scheme", "algorithm",
  ]

  /// Caption labels of Korean, Chinese and Japanese documents ("표",
  /// "그림", "表", "图", "図"), which set them in brackets ("[표 1]",
  /// "<그림 2>", "【表 3】") or followed by a number and a sign ("그림 2.").
  static let bracketedCaptionLabels: Set<String> = ["표", "그림", "表", "图", "図"]

  /// The most lines of a caption whose label and number end in a sign
  /// ("Table 1.", "Figure 3:", "[표 1]"): a paper's table caption runs to
  /// a few sentences, set as one paragraph over the table; a paragraph
  /// starting so is no sentence of running text, however long.
  static let longCaptionLines = 8

  /// Whether `text` starts with a caption's label and a number ending in
  /// a sign (`.`, `:`) or in brackets: "Table 1. HPO performed …",
  /// "Listing 1: …", "[표 1] …"; not "Table 3-2 lists …".
  static func startsWithSignedLabel(_ text: String) -> Bool {
    if let open = text.first, "[<〈【".contains(open) { return startsLikeCaption(text) }
    let words = text.split(separator: " ").prefix(2)
    guard words.count == 2, let last = words.last?.last, ".:".contains(last) else {
      return false
    }
    return startsLikeCaption(text)
  }

  static func startsLikeCaption(_ text: String) -> Bool {
    // A label and its number in brackets: "[표 1] …", "[Table 2] …".
    if let open = text.first, "[<〈【".contains(open) {
      let inside = text.dropFirst().prefix { !"]>〉】".contains($0) }.split(separator: " ")
      return inside.count == 2 && inside[1].allSatisfy(\.isNumber)
        && (captionLabels.contains(inside[0].lowercased())
          || bracketedCaptionLabels.contains(String(inside[0])))
    }
    let words = text.split(separator: " ").prefix(2).map(String.init)
    guard words.count == 2 else { return false }
    let lead = words[0].lowercased()
    if bracketedCaptionLabels.contains(words[0]) {
      // Unbracketed, the number ends in a sign: "표 1에서 보듯이" is a sentence.
      return words[1].first?.isNumber == true && words[1].last.map { ".:".contains($0) } == true
    }
    guard captionLabels.contains(lead), words[1].first?.isNumber ?? false || isRoman(words[1])
    else {
      return false
    }
    // The number ends in a sign (":", "."), or what follows it is a
    // title, not the rest of a sentence ("Table 3-2 lists the …").
    let all = text.split(separator: " ")
    guard all.count > 2, let after = all[2].first(where: { $0.isLetter }) else { return true }
    return words[1].last.map { ".:—–-".contains($0) } == true || after.isUppercase
      || !after.isCased
  }

  package static func startsLikeListItem(_ text: String) -> Bool {
    guard let first = text.split(separator: " ").first.map(String.init) else { return false }
    if ["•", "◦", "▪", "●", "·", "–", "-", "*", "○", "■"].contains(first) { return true }
    if let bullet = first.first, "•◦▪●○■".contains(bullet) { return true }
    // A lone symbol before a capitalised word: a bullet OCR read as another
    // sign ("¢", "©", "«"); not a section or paragraph sign.
    let words = text.split(separator: " ")
    if first.count == 1, let c = first.first, !c.isLetter, !c.isNumber, !"§¶([{\"'„“‘".contains(c),
      words.count >= 2, words[1].first?.isUppercase == true
    {
      return true
    }
    // "1." "12)" "a." "b)" "(iv)" "(3)"
    var core = Substring(first)
    if core.hasPrefix("("), core.hasSuffix(")") {
      core = core.dropFirst().dropLast()
    } else if core.hasSuffix(".") || core.hasSuffix(")") {
      core = core.dropLast()
    } else {
      return false
    }
    guard !core.isEmpty, core.count <= 4 else { return false }
    return core.allSatisfy { $0.isASCII && $0.isNumber }
      || (core.count == 1 && core.allSatisfy { $0.isLowercase && $0.isASCII })
      || isRoman(String(core))
  }

  static func isRoman(_ word: String) -> Bool {
    let core = word.trimmingCharacters(in: ".:)")
    return !core.isEmpty && core.count <= 6 && core.lowercased().allSatisfy { "ivxlc".contains($0) }
      && (core == core.uppercased() || core == core.lowercased())
  }

  /// "2", "2.1", "2.1.", "IV.", "A.", "ll." (OCR's "II.")
  static func isNumbering(_ word: String) -> Bool {
    let parts = word.split(separator: ".", omittingEmptySubsequences: false)
    let numeric = parts.dropLast(parts.last?.isEmpty == true ? 1 : 0)
    if !numeric.isEmpty,
      numeric.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) })
    {
      return true
    }
    guard word.hasSuffix(".") else { return false }
    let core = word.dropLast()
    // "A.": a letter numbering sections under roman ones.
    if core.count == 1, let c = core.first, c.isASCII, c.isUppercase { return true }
    // "ll." and "Il." are "II." as OCR reads a serifless capital I.
    if core.count <= 4, core.contains("l"), core.allSatisfy({ "IlVX".contains($0) }) { return true }
    return isRoman(String(core)) && word.first?.isUppercase == true
  }

  static func endsLikeSentencePart(_ words: [String]) -> Bool {
    guard let last = words.last, let end = last.last else { return false }
    if words.count == 1, isNumbering(last) { return false }
    return ".,;:".contains(end) && !(words.count > 1 && isNumbering(last))
  }

  static func isCapitals(_ words: [String]) -> Bool {
    let letters = words.joined().filter(\.isLetter)
    return letters.count >= 3 && letters.allSatisfy { $0.isUppercase }
  }

  /// Most words capitalised, short function words aside; at least two.
  static func isTitleCase(_ words: [String]) -> Bool {
    let minor: Set<String> = [
      "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "by", "with", "from",
      "der", "die", "das", "und", "von", "zu", "im", "de", "la", "le", "et", "du",
    ]
    let content = words.filter { w in
      w.contains(where: \.isLetter) && !minor.contains(w.lowercased())
    }
    guard content.count >= 2 else { return false }
    return content.allSatisfy { $0.first(where: \.isLetter)?.isUppercase ?? false }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let c = s.first, set.contains(c) { s = s.dropFirst() }
    while let c = s.last, set.contains(c) { s = s.dropLast() }
    return String(s)
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    String(self).trimmingCharacters(in: set)
  }
}
