/// The frame of a page as a reader holds it: boxes of a page whose content
/// is turned by ``orientation`` degrees clockwise (``Page/orientation``),
/// turned back so that the text runs left to right and lines go down.
///
/// The layout rules (``RoleDetection``, ``ReadingOrder``) speak of the top
/// of the page, columns and margins; on a page turned by 90° those are the
/// right edge, rows and the top and bottom of the image, so the rules run
/// on copies of the blocks in this frame and their results are carried back
/// to the blocks in image pixels by index.
struct UprightFrame {
  /// Clockwise turn of the content: 0, 90, 180 or 270.
  let orientation: Int
  /// The image's width and height in pixels.
  let width: Int
  let height: Int

  init(orientation: Int, width: Int, height: Int) {
    self.orientation = ((orientation % 360) + 360) % 360 / 90 * 90
    self.width = width
    self.height = height
  }

  /// The upright page's width.
  var uprightWidth: Int { orientation % 180 == 0 ? width : height }
  /// The upright page's height.
  var uprightHeight: Int { orientation % 180 == 0 ? height : width }

  /// A point of the image in the upright frame.
  func point(_ p: Point) -> Point {
    switch orientation {
    case 90: Point(x: p.y, y: Double(width) - p.x)
    case 180: Point(x: Double(width) - p.x, y: Double(height) - p.y)
    case 270: Point(x: Double(height) - p.y, y: p.x)
    default: p
    }
  }

  /// A box of the image in the upright frame.
  func rect(_ r: PixelRect) -> PixelRect {
    switch orientation {
    case 90: PixelRect(minX: r.minY, minY: width - r.maxX, maxX: r.maxY, maxY: width - r.minX)
    case 180:
      PixelRect(
        minX: width - r.maxX, minY: height - r.maxY, maxX: width - r.minX, maxY: height - r.minY)
    case 270: PixelRect(minX: height - r.maxY, minY: r.minX, maxX: height - r.minY, maxY: r.maxX)
    default: r
    }
  }

  func quad(_ q: Quad) -> Quad {
    Quad(
      topLeft: point(q.topLeft), topRight: point(q.topRight), bottomRight: point(q.bottomRight),
      bottomLeft: point(q.bottomLeft))
  }

  /// Copies of the blocks with every box and quad in the upright frame
  /// (glyphs dropped: the layout rules do not look at them).
  func blocks(_ blocks: [Block]) -> [Block] {
    guard orientation != 0 else { return blocks }
    return blocks.map { block in
      var b = block
      b.bbox = rect(block.bbox)
      b.paragraphs = block.paragraphs.map { paragraph in
        var p = paragraph
        p.bbox = rect(paragraph.bbox)
        p.lines = paragraph.lines.map { line in
          var l = line
          l.bbox = rect(line.bbox)
          l.quad = line.quad.map(quad)
          l.baseline = nil
          l.words = line.words.map { word in
            var w = word
            w.bbox = rect(word.bbox)
            w.quad = word.quad.map(quad)
            w.glyphs = []
            return w
          }
          return l
        }
        return p
      }
      return b
    }
  }
}
