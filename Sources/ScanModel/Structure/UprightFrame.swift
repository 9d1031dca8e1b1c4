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
  /// The page's width and height in pixels (the image's, or its page's).
  let width: Int
  let height: Int
  /// From image points to the page's own frame, for a photographed page
  /// (``PageFrame``); `nil` for the whole image.
  let pageMap: ((Point) -> Point)?

  /// - Parameter page: Where a photographed page lies in its photo; `nil`
  ///   for the whole image.
  init(orientation: Int, width: Int, height: Int, page: PageFrame? = nil) {
    self.orientation = ((orientation % 360) + 360) % 360 / 90 * 90
    if let page, let map = page.pointMap() {
      (self.width, self.height) = page.size
      pageMap = map
    } else {
      self.width = width
      self.height = height
      pageMap = nil
    }
  }

  /// Whether boxes are the same in the frame as in the image.
  var isIdentity: Bool { orientation == 0 && pageMap == nil }

  /// The upright page's width.
  var uprightWidth: Int { orientation % 180 == 0 ? width : height }
  /// The upright page's height.
  var uprightHeight: Int { orientation % 180 == 0 ? height : width }

  /// A point of the image in the upright frame.
  func point(_ q: Point) -> Point {
    let p = pageMap?(q) ?? q
    return switch orientation {
    case 90: Point(x: p.y, y: Double(width) - p.x)
    case 180: Point(x: Double(width) - p.x, y: Double(height) - p.y)
    case 270: Point(x: Double(height) - p.y, y: p.x)
    default: p
    }
  }

  /// A box of the image in the upright frame.
  func rect(_ box: PixelRect) -> PixelRect {
    let r = pageMap.map { map in pageRect(box, map) } ?? box
    return switch orientation {
    case 90: PixelRect(minX: r.minY, minY: width - r.maxX, maxX: r.maxY, maxY: width - r.minX)
    case 180:
      PixelRect(
        minX: width - r.maxX, minY: height - r.maxY, maxX: width - r.minX, maxY: height - r.minY)
    case 270: PixelRect(minX: height - r.maxY, minY: r.minX, maxX: height - r.minY, maxY: r.maxX)
    default: r
    }
  }

  /// An element's box in the frame. On a photographed page an element in
  /// perspective has a quad, its outline, whose box in the page's frame is
  /// its true size there; its box in the photo is the (taller) box round
  /// the tilted quad.
  private func outlineRect(_ box: PixelRect, _ outline: Quad?) -> PixelRect {
    guard pageMap != nil, let outline else { return rect(box) }
    return Self.box(round: outline.corners.map(point))
  }

  /// A paragraph's or block's box in the frame: round its children's boxes
  /// there on a photographed page, else its own box turned.
  private func pageRound(_ box: PixelRect, _ children: [PixelRect]) -> PixelRect {
    guard pageMap != nil, let round = PixelRect.union(children) else { return rect(box) }
    return round
  }

  /// A box's corners carried into the page's frame, and the box round them.
  private func pageRect(_ box: PixelRect, _ map: (Point) -> Point) -> PixelRect {
    let corners = [
      Point(x: Double(box.minX), y: Double(box.minY)),
      Point(x: Double(box.maxX), y: Double(box.minY)),
      Point(x: Double(box.maxX), y: Double(box.maxY)),
      Point(x: Double(box.minX), y: Double(box.maxY)),
    ]
    return Self.box(round: corners.map(map))
  }

  /// The whole-pixel box round points (each edge rounded to the nearest).
  private static func box(round points: [Point]) -> PixelRect {
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    let minX = Int((xs.min() ?? 0).rounded())
    let minY = Int((ys.min() ?? 0).rounded())
    return PixelRect(
      minX: minX, minY: minY, maxX: max(minX, Int((xs.max() ?? 0).rounded())),
      maxY: max(minY, Int((ys.max() ?? 0).rounded())))
  }

  func quad(_ q: Quad) -> Quad {
    Quad(
      topLeft: point(q.topLeft), topRight: point(q.topRight), bottomRight: point(q.bottomRight),
      bottomLeft: point(q.bottomLeft))
  }

  /// Copies of the blocks with every box and quad in the upright frame
  /// (glyphs dropped: the layout rules do not look at them).
  func blocks(_ blocks: [Block]) -> [Block] {
    guard !isIdentity else { return blocks }
    return blocks.map { block in
      var b = block
      b.paragraphs = block.paragraphs.map { paragraph in
        var p = paragraph
        p.lines = paragraph.lines.map { line in
          var l = line
          l.bbox = outlineRect(line.bbox, line.quad)
          l.quad = line.quad.map(quad)
          l.baseline = nil
          l.words = line.words.map { word in
            var w = word
            w.bbox = outlineRect(word.bbox, word.quad)
            w.quad = word.quad.map(quad)
            w.glyphs = []
            return w
          }
          return l
        }
        // In a photo's page frame, a paragraph is the box round its lines'
        // outlines (its box in the photo is the taller box round tilted
        // lines), as a block is round its paragraphs.
        p.bbox = pageRound(paragraph.bbox, p.lines.map(\.bbox))
        return p
      }
      b.bbox = pageRound(block.bbox, b.paragraphs.map(\.bbox))
      return b
    }
  }
}
