import ScanModel

/// Builds indented XML text, escaping every attribute value and text.
struct XMLWriter {
  private(set) var text = ""
  private var open: [String] = []
  private let indentUnit: String

  /// - Parameters:
  ///   - declaration: Whether the text starts with the XML declaration.
  ///   - indent: One level of indentation.
  ///   - openElements: Elements taken as open already (written by another
  ///     writer), outermost first: what is written goes inside them, and
  ///     ``end()`` closes them.
  init(declaration: Bool = true, indent: String = "  ", openElements: [String] = []) {
    indentUnit = indent
    open = openElements
    if declaration { text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" }
  }

  /// The text written since the last call (or since the start), which the
  /// writer then forgets: a document written in pieces.
  mutating func take() -> String {
    defer { text = "" }
    return text
  }

  private var indent: String { String(repeating: indentUnit, count: open.count) }

  /// Appends raw text (a doctype, say); the caller escapes it.
  mutating func raw(_ s: String) { text += s }

  /// Opens an element; `attributes` keep their order, `nil` values are left out.
  mutating func start(_ name: String, _ attributes: [(String, String?)] = []) {
    text += indent + "<" + name + Self.attributes(attributes) + ">\n"
    open.append(name)
  }

  /// Closes the innermost open element.
  mutating func end() {
    guard let name = open.popLast() else { return }
    text += indent + "</" + name + ">\n"
  }

  /// An element without children.
  mutating func empty(_ name: String, _ attributes: [(String, String?)] = []) {
    text += indent + "<" + name + Self.attributes(attributes) + "/>\n"
  }

  /// An element holding only text.
  mutating func leaf(_ name: String, _ attributes: [(String, String?)] = [], text content: String) {
    text +=
      indent + "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</"
      + name + ">\n"
  }

  static func attributes(_ attributes: [(String, String?)]) -> String {
    var out = ""
    for (name, value) in attributes {
      guard let value else { continue }
      out += " " + name + "=\"" + escape(value) + "\""
    }
    return out
  }

  /// Escapes text for element content and double- or single-quoted
  /// attributes. Characters XML 1.0 cannot carry at all (C0 controls other
  /// than tab, newline and carriage return, lone surrogates, U+FFFE/U+FFFF)
  /// become U+FFFD; tab, newline and carriage return become character
  /// references so attribute values keep them (unless
  /// `whitespaceReferences` is false: HTML text keeps them as they are).
  static func escape(_ s: String, whitespaceReferences: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n", "\r":
        if whitespaceReferences {
          out += "&#\(scalar.value);"
        } else {
          out.unicodeScalars.append(scalar)
        }
      default:
        let v = scalar.value
        if v < 0x20 || v == 0xFFFE || v == 0xFFFF || (0x7F...0x84).contains(v)
          || (0x86...0x9F).contains(v)
        {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}

/// Geometry helpers shared by the readers.
enum ImportGeometry {
  /// Parses `x,y x,y …` (or `x y x y …`, ALTO's older form) into points;
  /// `nil` when a number is missing, is not one, or lies beyond
  /// ``coordinateLimit``.
  static func points(_ raw: String) -> [Point]? {
    let separators: Set<Character> = [" ", ",", "\t", "\n", "\r"]
    let numbers = raw.split(whereSeparator: { separators.contains($0) }).map { Double($0) }
    guard numbers.count >= 2, numbers.count % 2 == 0 else { return nil }
    var out: [Point] = []
    var i = 0
    while i < numbers.count {
      guard let x = numbers[i], let y = numbers[i + 1], abs(x) <= coordinateLimit,
        abs(y) <= coordinateLimit
      else { return nil }
      out.append(Point(x: x, y: y))
      i += 2
    }
    return out
  }

  /// The box of a polygon: its points' extent (corners at pixel cracks).
  static func box(of points: [Point]) -> PixelRect {
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    return PixelRect(
      minX: Int((xs.min() ?? 0).rounded(.down)), minY: Int((ys.min() ?? 0).rounded(.down)),
      maxX: Int((xs.max() ?? 0).rounded(.up)), maxY: Int((ys.max() ?? 0).rounded(.up)))
  }

  /// A 4-point polygon as a quad when it is not the box itself (a tilted
  /// element), or on any page whose content is `turned` or skewed (where
  /// the corners' order says which way the text runs). Points run
  /// clockwise on screen from the first one; a counter-clockwise polygon is
  /// reversed.
  static func quad(of points: [Point], turned: Bool) -> Quad? {
    guard points.count == 4 else { return nil }
    let b = box(of: points).rect
    let onBox = points.allSatisfy { p in
      (p.x == b.minX || p.x == b.maxX) && (p.y == b.minY || p.y == b.maxY)
    }
    if onBox && !turned { return nil }
    var area = 0.0
    for i in 0..<4 {
      let a = points[i]
      let c = points[(i + 1) % 4]
      area += a.x * c.y - c.x * a.y
    }
    // y grows downwards: a positive shoelace sum runs clockwise on screen.
    let p = area >= 0 ? points : [points[0], points[3], points[2], points[1]]
    return Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3])
  }

  /// Splits a clockwise turn of the content in degrees into the model's
  /// orientation (0, 90, 180 or 270) and skew (within ±45°).
  static func orientationAndSkew(_ degrees: Double) -> (orientation: Int, skew: Double) {
    guard degrees.isFinite else { return (0, 0) }
    var total = degrees.truncatingRemainder(dividingBy: 360)
    if total < 0 { total += 360 }
    let quarter = Int((total / 90).rounded()) % 4
    var skew = total - Double(quarter * 90)
    if skew > 180 { skew -= 360 }
    return (quarter * 90, ScanConventions.rounded(skew))
  }

  /// Coordinates beyond ``ScanConventions/coordinateLimit`` are refused,
  /// as in the JSON reader.
  static let coordinateLimit = Double(ScanConventions.coordinateLimit)

  static func checked(_ r: PixelRect, _ element: XMLTree.Element) throws(DocumentFormatError)
    -> PixelRect
  {
    let limit = ScanConventions.coordinateLimit
    guard [r.minX, r.minY, r.maxX, r.maxY].allSatisfy({ -limit <= $0 && $0 <= limit }) else {
      throw element.error("a coordinate lies beyond ±\(limit)")
    }
    guard r.minX <= r.maxX, r.minY <= r.maxY else {
      throw element.error("the box \(r) has x1 < x0 or y1 < y0")
    }
    return r
  }
}

extension PixelRect {
  /// The boxes' union, or this box when there are none.
  func union(all boxes: [PixelRect]) -> PixelRect {
    PixelRect.union([self] + boxes) ?? self
  }
}
