/// One heading of a page: a paragraph whose ``Paragraph/role`` is
/// ``ParagraphRole/heading``, with what a screen reader's headings rotor and
/// an outline need.
public struct Heading: Hashable, Sendable {
  /// The heading's text as it should be read: its lines joined by single
  /// spaces, words hyphenated at a line end joined (``Page/spokenText(in:)``).
  public var text: String
  /// The heading's level, from 1 (the page's title or top section) to 6
  /// (``Paragraph/headingLevel``).
  public var level: Int
  /// The heading paragraph's range in the page text (UTF-16 offsets, as
  /// every range of the page).
  public var range: TextRange
  /// The reading-order numbers of the heading's lines.
  public var lineNumbers: Range<Int>
  /// The outline of each of the heading's lines
  /// (``Page/quad(forLineNumber:)``): on a skewed page, rectangles along
  /// the lines, the path to draw around the heading.
  public var quads: [Quad]
  /// The axis-aligned bounds of ``quads`` in image pixels: the heading's
  /// `accessibilityFrame`.
  public var frame: Rect

  /// Creates a heading.
  public init(
    text: String, level: Int, range: TextRange, lineNumbers: Range<Int>, quads: [Quad],
    frame: Rect
  ) {
    self.text = text
    self.level = level
    self.range = range
    self.lineNumbers = lineNumbers
    self.quads = quads
    self.frame = frame
  }
}

/// One node of a page's outline: a heading and the headings under it.
public struct OutlineNode: Hashable, Sendable {
  /// The heading.
  public var heading: Heading
  /// The headings that follow this one, up to the next heading of its level
  /// or a higher one (a smaller number), nested the same way.
  public var children: [OutlineNode]

  /// Creates a node.
  public init(heading: Heading, children: [OutlineNode] = []) {
    self.heading = heading
    self.children = children
  }

  /// Nests headings in reading order by level: a heading becomes a child
  /// of the nearest heading before it whose level is higher (a smaller
  /// number). A skipped level (1 then 3) nests as one step; a heading with
  /// no higher heading before it is at the top.
  ///
  /// - Parameter headings: Headings in reading order.
  /// - Returns: The top-level nodes.
  /// - Complexity: O(*n*) in the number of headings.
  public static func tree(_ headings: [Heading]) -> [OutlineNode] {
    // The open path from the top: each entry a node still taking children.
    var stack: [OutlineNode] = []
    var roots: [OutlineNode] = []
    func closeTop() {
      guard let node = stack.popLast() else { return }
      if stack.isEmpty {
        roots.append(node)
      } else {
        stack[stack.count - 1].children.append(node)
      }
    }
    for heading in headings {
      while let top = stack.last, top.heading.level >= heading.level { closeTop() }
      stack.append(OutlineNode(heading: heading))
    }
    while !stack.isEmpty { closeTop() }
    return roots
  }
}

extension Page {
  /// The headings of the page in reading order: the content of a screen
  /// reader's headings rotor.
  ///
  /// ```swift
  /// page.headings.map { "\($0.level) \($0.text)" }
  /// // ["1 Notes from the Archive", "2 Scanning the Ledgers"]
  /// ```
  ///
  /// - Complexity: O(*p* + *h*·*k*) in the paragraphs of the page and the
  ///   headings with their length.
  public var headings: [Heading] {
    var out: [Heading] = []
    var lineNumber = 0
    for block in blocks {
      for paragraph in block.paragraphs {
        if paragraph.role == .heading {
          out.append(heading(paragraph, firstLine: lineNumber))
        }
        lineNumber += paragraph.lines.count
      }
    }
    return out
  }

  /// The page's headings nested by level (see ``OutlineNode/tree(_:)``):
  /// the page's table of contents.
  /// - Complexity: O(*p* + *h*·*k*), as ``headings``.
  public var outline: [OutlineNode] { OutlineNode.tree(headings) }

  /// The first heading that starts at or after `position`: the next item of
  /// a headings rotor. To step through the headings, pass the end of the
  /// current one (`heading.range.upperBound`).
  ///
  /// - Parameter position: Where to start looking, in the page text.
  /// - Returns: The heading, or `nil` when there is none after `position`
  ///   or the position is outside the page text.
  /// - Complexity: O(log *n* + *k*) in the lines of the page and the
  ///   paragraphs skipped.
  public func nextHeading(after position: TextPosition) -> Heading? {
    guard contains(position) else { return nil }
    // The first line starting at or after the position; its paragraph
    // starts there too unless the position is inside that paragraph.
    let i = (PageLayout.lastIndex(in: layout.lineStarts, atOrBefore: position.offset - 1) ?? -1) + 1
    guard i < layout.lines.count else { return nil }
    var lineNumber = i
    var b = layout.lines[i].block
    var p = layout.lines[i].paragraph
    if layout.lines[i].line > 0 {
      // Inside a paragraph that started before the position: skip it.
      lineNumber += blocks[b].paragraphs[p].lines.count - layout.lines[i].line
      p += 1
    }
    while b < blocks.count {
      let paragraphs = blocks[b].paragraphs
      while p < paragraphs.count {
        if paragraphs[p].role == .heading {
          return heading(paragraphs[p], firstLine: lineNumber)
        }
        lineNumber += paragraphs[p].lines.count
        p += 1
      }
      b += 1
      p = 0
    }
    return nil
  }

  /// The last heading that ends at or before `position`: the previous item
  /// of a headings rotor. To step back through the headings, pass the
  /// start of the current one (`heading.range.lowerBound`).
  ///
  /// - Parameter position: Where to start looking back, in the page text.
  /// - Returns: The heading, or `nil` when there is none before `position`
  ///   or the position is outside the page text.
  /// - Complexity: O(log *n* + *k*) in the lines of the page and the
  ///   paragraphs skipped.
  public func previousHeading(before position: TextPosition) -> Heading? {
    guard contains(position),
      let i = PageLayout.lastIndex(in: layout.lineStarts, atOrBefore: position.offset)
    else { return nil }
    var b = layout.lines[i].block
    var p = layout.lines[i].paragraph
    // The line number of the first line of paragraph (b, p).
    var lineNumber = i - layout.lines[i].line
    while b >= 0 {
      let paragraphs = blocks[b].paragraphs
      while p >= 0 {
        let paragraph = paragraphs[p]
        if paragraph.role == .heading, paragraph.range.upperBound <= position {
          return heading(paragraph, firstLine: lineNumber)
        }
        p -= 1
        if p >= 0 { lineNumber -= paragraphs[p].lines.count }
      }
      b -= 1
      if b >= 0 {
        p = blocks[b].paragraphs.count - 1
        lineNumber -= blocks[b].paragraphs.last?.lines.count ?? 0
      }
    }
    return nil
  }

  /// The role of the paragraph a line belongs to, or `nil` for a line
  /// number out of range.
  /// - Complexity: O(1).
  public func role(forLineNumber number: Int) -> ParagraphRole? {
    paragraph(forLineNumber: number)?.role
  }

  /// The heading level of a line of a heading paragraph (1 to 6), or `nil`
  /// for a line of any other paragraph or a line number out of range.
  /// - Complexity: O(1).
  public func headingLevel(forLineNumber number: Int) -> Int? {
    paragraph(forLineNumber: number)?.headingLevel
  }

  /// The paragraph that holds a line, or `nil` for a line number out of
  /// range.
  /// - Complexity: O(1).
  public func paragraph(forLineNumber number: Int) -> Paragraph? {
    guard layout.lines.indices.contains(number) else { return nil }
    let entry = layout.lines[number]
    return blocks[entry.block].paragraphs[entry.paragraph]
  }

  /// The heading made of `paragraph`, whose first line has `firstLine` as
  /// its reading-order number.
  private func heading(_ paragraph: Paragraph, firstLine: Int) -> Heading {
    let numbers = firstLine..<(firstLine + paragraph.lines.count)
    let quads = numbers.compactMap { quad(forLineNumber: $0) }
    let bounds = quads.map(\.boundingRect)
    let frame =
      bounds.dropFirst().reduce(bounds.first) { r, b in
        r.map {
          Rect(
            minX: min($0.minX, b.minX), minY: min($0.minY, b.minY), maxX: max($0.maxX, b.maxX),
            maxY: max($0.maxY, b.maxY))
        }
      } ?? paragraph.bbox.rect
    let spoken = spokenText(in: paragraph.range) ?? ""
    let text = String(spoken.map { $0 == "\n" ? " " : $0 })
    return Heading(
      text: text, level: paragraph.headingLevel ?? 1, range: paragraph.range,
      lineNumbers: numbers, quads: quads, frame: frame)
  }
}
