extension UprightFrame {
  /// A point of the upright frame in the image: the inverse of
  /// ``point(_:)`` for the whole image (no photographed page's map).
  func imagePoint(_ p: Point) -> Point {
    switch orientation {
    case 90: Point(x: Double(width) - p.y, y: p.x)
    case 180: Point(x: Double(width) - p.x, y: Double(height) - p.y)
    case 270: Point(x: p.y, y: Double(height) - p.x)
    default: p
    }
  }

  /// A box of the upright frame in the image: the inverse of ``rect(_:)``
  /// for the whole image. Exact: a quarter turn maps whole pixels to whole
  /// pixels.
  func imageRect(_ r: PixelRect) -> PixelRect {
    let a = imagePoint(Point(x: Double(r.minX), y: Double(r.minY)))
    let b = imagePoint(Point(x: Double(r.maxX), y: Double(r.maxY)))
    return PixelRect(
      minX: Int(min(a.x, b.x).rounded()), minY: Int(min(a.y, b.y).rounded()),
      maxX: Int(max(a.x, b.x).rounded()), maxY: Int(max(a.y, b.y).rounded()))
  }

  /// A box of the upright frame as its corners in the image, named as a
  /// reader reads it there (the upright top-left corner first): the
  /// outline of a word or line of a page turned as a whole.
  func imageQuad(_ r: PixelRect) -> Quad {
    ScanConventions.rounded(
      Quad(
        topLeft: imagePoint(Point(x: Double(r.minX), y: Double(r.minY))),
        topRight: imagePoint(Point(x: Double(r.maxX), y: Double(r.minY))),
        bottomRight: imagePoint(Point(x: Double(r.maxX), y: Double(r.maxY))),
        bottomLeft: imagePoint(Point(x: Double(r.minX), y: Double(r.maxY)))))
  }

  /// The elements of blocks turned into the frame (``turned(_:)``), to be
  /// carried back unchanged when a rule leaves them as they were.
  struct Carried {
    var lines: [TextLine: TextLine] = [:]
    var words: [Word: Word] = [:]
  }

  /// Copies of the blocks with every box, baseline and glyph in the
  /// upright frame of the whole image, their quads dropped (on a page
  /// turned as a whole the text stands upright in it); with the image's
  /// lines and words each came from.
  func turned(_ blocks: [Block]) -> (blocks: [Block], carried: Carried) {
    var carried = Carried()
    func word(_ w: Word) -> Word {
      var t = w
      t.bbox = rect(w.bbox)
      t.quad = nil
      t.glyphs = w.glyphs.map { g in
        var u = g
        u.bbox = rect(g.bbox)
        u.quad = nil
        return u
      }
      carried.words[t] = w
      return t
    }
    let out = blocks.map { block in
      var b = block
      b.bbox = rect(block.bbox)
      b.paragraphs = block.paragraphs.map { paragraph in
        var p = paragraph
        p.bbox = rect(paragraph.bbox)
        p.lines = paragraph.lines.map { line in
          var l = line
          l.bbox = rect(line.bbox)
          l.quad = nil
          l.polygon = nil
          l.baseline = line.baseline.map {
            Baseline(start: point($0.start), end: point($0.end))
          }
          l.words = line.words.map(word)
          carried.lines[l] = line
          return l
        }
        return p
      }
      return b
    }
    return (out, carried)
  }

  /// Blocks of the upright frame (``turned(_:)``, then changed by a rule)
  /// back in the image: a line or word the rule left as it was is the
  /// image's own again; one it made has its box turned back and its
  /// outline named in reading order.
  func image(_ blocks: [Block], carried: Carried) -> [Block] {
    func word(_ w: Word) -> Word {
      if let original = carried.words[w] { return original }
      var t = w
      t.bbox = imageRect(w.bbox)
      t.quad = imageQuad(w.bbox)
      t.glyphs = w.glyphs.map { g in
        var u = g
        u.bbox = imageRect(g.bbox)
        u.quad = imageQuad(g.bbox)
        return u
      }
      return t
    }
    return blocks.map { block in
      var b = block
      b.bbox = imageRect(block.bbox)
      b.paragraphs = block.paragraphs.map { paragraph in
        var p = paragraph
        p.bbox = imageRect(paragraph.bbox)
        p.lines = paragraph.lines.map { line in
          if let original = carried.lines[line] { return original }
          var l = line
          l.bbox = imageRect(line.bbox)
          l.quad = imageQuad(line.bbox)
          l.baseline = line.baseline.map {
            Baseline(
              start: ScanConventions.rounded(imagePoint($0.start)),
              end: ScanConventions.rounded(imagePoint($0.end)))
          }
          l.words = line.words.map(word)
          return l
        }
        return p
      }
      return b
    }
  }

  /// A table grid's rules in the upright frame: on a page turned by a
  /// quarter, the image's horizontal rules run down the frame.
  func grid(_ g: TableGrid) -> TableGrid {
    let h = g.horizontalRules.map(rect)
    let v = g.verticalRules.map(rect)
    return orientation % 180 == 0
      ? TableGrid(horizontalRules: h, verticalRules: v)
      : TableGrid(horizontalRules: v, verticalRules: h)
  }
}

extension TableCells {
  /// Finds the tables of a page whose content is turned as a whole (a
  /// landscape table set sideways on a portrait page, a page scanned on
  /// its side) where a reader finds them: in the page's upright frame,
  /// where its rows run across and its columns down. `find` runs on the
  /// blocks and grids turned upright; the cells it makes, with their rows
  /// and columns as a reader counts them, come back in image pixels, each
  /// line's and word's outline named in reading order, and what it left
  /// alone comes back as it was.
  /// - Parameters:
  ///   - blocks: A page's blocks, in original-image pixels.
  ///   - grids: The page's table grids, in original-image pixels.
  ///   - orientation: How far the content is turned clockwise: 0, 90, 180
  ///     or 270 (``Page/orientation``).
  ///   - width: The image's width in pixels.
  ///   - height: The image's height in pixels.
  ///   - find: The table rules, on upright blocks and grids.
  /// - Complexity: O(*e*) in the page's elements, besides `find`.
  public static func inUprightFrame(
    _ blocks: [Block], grids: [TableGrid], orientation: Int, width: Int, height: Int,
    _ find: ([Block], [TableGrid]) -> [Block]
  ) -> [Block] {
    let frame = UprightFrame(orientation: orientation, width: width, height: height)
    guard !frame.isIdentity else { return find(blocks, grids) }
    let (upright, carried) = frame.turned(blocks)
    return frame.image(find(upright, grids.map(frame.grid)), carried: carried)
  }
}
