import ScanModel

/// Marks a page's own content for its structure tree (issue 46 point 3):
/// the content of a page whose words came from the PDF itself (born-digital
/// text, kept as it is) tagged in place.
///
/// Nothing the content draws changes: marked-content operators are added
/// between its operations, every other byte is kept. Each text-showing
/// operation (`Tj`, `TJ`, `'`, `"`) belongs to the word of the model nearest
/// to where it starts (its text origin on the baseline, through the text
/// and current transformation matrices); a run of operations of one text
/// object that belong to the same mark and line is one marked-content
/// sequence: a new MCID for real content (numbered from 0 in the order of
/// the content), or a pagination artifact. Everything else that paints (a path from its
/// first construction operator to its painting one, an XObject drawn with
/// `Do`, a shading `sh`, an inline image) is an `/Artifact`. Content that
/// is already inside an artifact of the page's own is left as it is.
package enum PDFContentMarking {
  /// The content marked.
  package struct Result: Sendable, Equatable {
    /// The content with the marked-content operators added.
    package var bytes: [UInt8]
    /// For each MCID written (its index), the mark's MCID in the page's
    /// plan (``PDFTags/PagePlan/marks``) whose element holds it.
    package var owners: [Int]
  }

  /// Marks `content`.
  /// - Parameters:
  ///   - content: The page's content (its streams decoded and joined).
  ///   - textForms: The names of the form XObjects (in the page's
  ///     resources) that show text: such content cannot be marked without
  ///     rewriting the form, so a page that draws one is not marked.
  ///   - mark: The mark of the text shown from a point of user space: the
  ///     nearest word's (``PDFTags/PagePlan/marks``).
  /// - Returns: The marked content, or `nil` when the page draws a form
  ///   that shows text.
  /// - Complexity: O(*n*) in the content's operations, plus the calls to
  ///   `mark`.
  package static func marked(
    _ content: PDFContentStream, textForms: Set<String>, mark: (Point) -> PDFTags.Mark
  ) -> Result? {
    var writer = Writer(bytes: content.bytes)
    // The current transformation matrix and its saved copies.
    var ctm = Matrix.identity
    var saved: [Matrix] = []
    // The text and text line matrices, and the leading.
    var tm = Matrix.identity
    var tlm = Matrix.identity
    var leading = 0.0
    // The page's own marked content open (true for an artifact).
    var own: [Bool] = []
    // The text mark open, and whether a path is being built in an artifact.
    var open: PDFTags.Mark?
    var pathOpen = false
    var owners: [Int] = []
    // The line (the text line matrix's vertical offset) of the last text
    // shown.
    var lastLine: Double?

    func closeText(_ writer: inout Writer) {
      if open != nil { writer.before("EMC") }
      open = nil
    }
    func numbers(_ operation: PDFContentStream.Operation) -> [Double] {
      operation.operands.compactMap {
        if case .number(let value) = $0, value.isFinite { return value }
        return nil
      }
    }
    func moveLine(_ x: Double, _ y: Double) {
      tlm = Matrix(a: 1, b: 0, c: 0, d: 1, e: x, f: y).then(tlm)
      tm = tlm
    }

    for operation in content.operations {
      writer.copy(upTo: operation.range.lowerBound)
      let insideArtifact = own.contains(true)
      switch operation.operator {
      case "q": saved.append(ctm)
      case "Q": ctm = saved.popLast() ?? ctm
      case "cm":
        let m = numbers(operation)
        if m.count == 6 {
          ctm = Matrix(a: m[0], b: m[1], c: m[2], d: m[3], e: m[4], f: m[5]).then(ctm)
        }
      case "BT":
        tm = .identity
        tlm = .identity
      case "ET":
        closeText(&writer)
      case "Td", "TD":
        let m = numbers(operation)
        if m.count == 2 {
          if operation.operator == "TD" { leading = -m[1] }
          moveLine(m[0], m[1])
        }
      case "Tm":
        let m = numbers(operation)
        if m.count == 6 {
          tlm = Matrix(a: m[0], b: m[1], c: m[2], d: m[3], e: m[4], f: m[5])
          tm = tlm
        }
      case "TL":
        if let value = numbers(operation).last { leading = value }
      case "T*":
        moveLine(0, -leading)
      case "Tj", "TJ", "'", "\"":
        if operation.operator != "Tj" && operation.operator != "TJ" { moveLine(0, -leading) }
        guard !insideArtifact else { break }
        let origin = tm.then(ctm)
        var wanted = mark(Point(x: origin.e, y: origin.f))
        if case .broken(let type, let mcid, _, _) = wanted {
          wanted = .content(type: type, mcid: mcid)
        }
        // A new line of text starts a new sequence, so that a reader of
        // the tags (`pdfinfo -struct-text`) keeps the lines apart: the
        // content shows no space between them.
        let line = tlm.f
        defer { lastLine = line }
        guard wanted != open || line != lastLine else { break }
        closeText(&writer)
        if case .content(let type, let mcid) = wanted {
          writer.before("/\(type) << /MCID \(owners.count) >> BDC")
          owners.append(mcid)
        } else {
          writer.before(wanted.opening)
        }
        open = wanted
      case "BMC", "BDC":
        closeText(&writer)
        var isArtifact = false
        if case .name(let tag)? = operation.operands.first { isArtifact = tag == "Artifact" }
        own.append(isArtifact)
      case "EMC":
        closeText(&writer)
        _ = own.popLast()
      case "m", "l", "c", "v", "y", "h", "re":
        if !pathOpen && !insideArtifact {
          closeText(&writer)
          writer.before("/Artifact BMC")
          pathOpen = true
        }
      case "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n":
        if pathOpen {
          writer.copy(upTo: operation.range.upperBound)
          writer.before("EMC")
          pathOpen = false
        }
      case "Do", "sh", "BI":
        if operation.operator == "Do", case .name(let name)? = operation.operands.last,
          textForms.contains(name)
        {
          return nil
        }
        if !insideArtifact {
          closeText(&writer)
          writer.before("/Artifact BMC")
          writer.copy(upTo: operation.range.upperBound)
          writer.before("EMC")
        }
      default: break
      }
      writer.copy(upTo: operation.range.upperBound)
    }
    writer.copy(upTo: content.bytes.count)
    // Content that ends inside a text object or a path still closes what
    // was opened.
    if open != nil { writer.before("EMC") }
    if pathOpen { writer.before("EMC") }
    return Result(bytes: writer.out, owners: owners)
  }

  /// A PDF matrix `[a b c d e f]`, applied to row vectors: a point is
  /// `(a·x + c·y + e, b·x + d·y + f)`.
  struct Matrix: Equatable {
    var a, b, c, d, e, f: Double
    static let identity = Matrix(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

    /// This matrix, then `other` (PDF's `self × other`).
    func then(_ other: Matrix) -> Matrix {
      Matrix(
        a: a * other.a + b * other.c, b: a * other.b + b * other.d,
        c: c * other.a + d * other.c, d: c * other.b + d * other.d,
        e: e * other.a + f * other.c + other.e, f: e * other.b + f * other.d + other.f)
    }
  }

  /// The content copied with operators inserted between operations.
  struct Writer {
    let bytes: [UInt8]
    var out: [UInt8] = []
    var copied = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
      out.reserveCapacity(bytes.count + bytes.count / 4)
    }

    /// Copies the content up to `end` (once).
    mutating func copy(upTo end: Int) {
      guard end > copied else { return }
      out += bytes[copied..<min(end, bytes.count)]
      copied = max(copied, min(end, bytes.count))
    }

    /// Writes an operator on a line of its own.
    mutating func before(_ text: String) {
      if let last = out.last, last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
      out += Array(text.utf8)
      if out.last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
    }
  }
}

/// The nearest of a page's boxes to a point (0 inside a box), found
/// through a grid of at most 64 × 64 cells over the boxes, searched in
/// rings around the point's cell until no farther cell can hold a nearer
/// box: for ``PDFContentMarking``, which asks once per text-showing
/// operation, so that a page of many operations and many words is not
/// searched word by word for each.
package struct NearestBox: Sendable {
  private let boxes: [PixelRect]
  private let minX: Double
  private let minY: Double
  private let cell: Double
  private let columns: Int
  private let rows: Int
  /// Each cell's boxes (their indices), row by row.
  private let cells: [[Int]]

  /// A search over `boxes`.
  /// - Complexity: O(*n* · *c*) in the boxes and the cells each covers.
  package init(_ boxes: [PixelRect]) {
    self.boxes = boxes
    let x0 = Double(boxes.map(\.minX).min() ?? 0)
    let y0 = Double(boxes.map(\.minY).min() ?? 0)
    let width = Double(boxes.map(\.maxX).max() ?? 1) - x0
    let height = Double(boxes.map(\.maxY).max() ?? 1) - y0
    let cell = max(16, max(width, height) / 64)
    let columns = max(1, min(64, Int((width / cell).rounded(.up))))
    let rows = max(1, min(64, Int((height / cell).rounded(.up))))
    var cells = Array(repeating: [Int](), count: columns * rows)
    func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - x0) / cell))) }
    func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - y0) / cell))) }
    for (index, box) in boxes.enumerated() {
      for r in row(Double(box.minY))...row(Double(box.maxY)) {
        for c in column(Double(box.minX))...column(Double(box.maxX)) {
          cells[r * columns + c].append(index)
        }
      }
    }
    (minX, minY, self.cell, self.columns, self.rows, self.cells) = (
      x0, y0, cell, columns, rows, cells
    )
  }

  /// The index of the box nearest to `point` (the first found of those
  /// equally near); `nil` when there are no boxes.
  /// - Complexity: O(1) for a point inside a box or near one, at most
  ///   O(*c* + *n*) in the cells and boxes.
  package func nearest(to point: Point) -> Int? {
    guard !boxes.isEmpty else { return nil }
    let c0 = min(columns - 1, max(0, Int(((point.x - minX) / cell).rounded(.down))))
    let r0 = min(rows - 1, max(0, Int(((point.y - minY) / cell).rounded(.down))))
    var best: (index: Int, distance: Double)?
    for ring in 0...max(columns, rows) {
      for r in (r0 - ring)...(r0 + ring) where r >= 0 && r < rows {
        for c in (c0 - ring)...(c0 + ring) where c >= 0 && c < columns {
          // Only the ring's own cells (its border).
          guard abs(r - r0) == ring || abs(c - c0) == ring else { continue }
          for index in cells[r * columns + c] {
            let box = boxes[index]
            let dx = max(Double(box.minX) - point.x, 0, point.x - Double(box.maxX))
            let dy = max(Double(box.minY) - point.y, 0, point.y - Double(box.maxY))
            let distance = dx * dx + dy * dy
            let nearer = best.map {
              distance < $0.distance || (distance == $0.distance && index < $0.index)
            }
            if nearer ?? true { best = (index, distance) }
          }
        }
      }
      // A box not seen yet lies in farther rings, at least `ring` cells
      // away.
      let reach = Double(ring) * cell
      if let best, best.distance <= reach * reach { return best.index }
    }
    return best?.index
  }
}
