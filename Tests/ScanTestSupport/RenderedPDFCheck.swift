import Foundation

/// Checks a searchable PDF as a viewer shows it: each page rendered by
/// Poppler (`pdftoppm`, after `/Rotate`) against the text layer's word
/// boxes as a viewer finds them (`pdftotext -bbox`, in the same displayed
/// frame). A layer that lies on the ink passes; one that is sideways,
/// upside down or shifted by half a line does not, whatever the model says.
///
/// The rendering is made black and white (Otsu's threshold) and cut into
/// marks (8-connected dark pixels: a letter, or letters touching). Within
/// a word box, the ink should belong to marks that lie wholly inside the
/// box grown by a fifth of its smaller side (at least 1 px): a box on its
/// word holds whole letters; a box across the lines, or between them, cuts
/// the letters it covers. Two figures per page:
///
/// - ``PageReport/tightness``: of the dark pixels inside the word boxes,
///   the share that belongs to such marks (at least 0.8 to pass);
/// - ``PageReport/wordsOnInk``: the share of word boxes that hold ink of
///   which at least half belongs to such marks (at least 0.75 to pass;
///   a box without ink counts against it).
///
/// Measured in the suite (100 dpi, one run): right layers 0.941–1.000 and
/// 0.879–1.000 (the generated pages upright and turned, `linn.png`,
/// `cardinal-2/3/4` and `phototest-rotated-*` with and without `/Rotate`,
/// the cookbook photo: the lowest); `clean.png`'s layer turned sideways
/// onto the page 0.565 and 0.449, moved down half a line 0.109 and 0.074
/// (`SearchablePDFTests.aSidewaysLayerFailsTheRenderedCheck`).
public enum RenderedPDFCheck {
  /// What one page shows.
  public struct PageReport: CustomStringConvertible, Sendable {
    /// The page number, from 1.
    public var page: Int
    /// The words the layer has on this page.
    public var words: Int
    public var tightness: Double
    public var wordsOnInk: Double

    /// Whether the layer lies on the ink (an empty layer passes: there is
    /// nothing to misplace).
    public var passed: Bool { words == 0 || (tightness >= 0.8 && wordsOnInk >= 0.75) }

    public var description: String {
      "page \(page): \(words) words, tightness \(String(format: "%.3f", tightness)), words on ink \(String(format: "%.3f", wordsOnInk))"
    }
  }

  /// Whether `pdftoppm` and `pdftotext` are installed.
  public static var isAvailable: Bool {
    ExternalCheckers.pdftoppm != nil && ExternalCheckers.pdftotext != nil
  }

  /// Checks every page of `pdf`.
  /// - Parameter resolution: The rendering's resolution in dpi.
  /// - Returns: One report per page, in order.
  public static func check(_ pdf: URL, resolution: Int = 100) throws -> [PageReport] {
    guard let pdftoppm = ExternalCheckers.pdftoppm, let pdftotext = ExternalCheckers.pdftotext
    else { return [] }
    let (status, text) = try ExternalCheckers.run(pdftotext, ["-bbox", pdf.path, "-"])
    guard status == 0 else { throw CheckError("pdftotext failed on \(pdf.path): \(text)") }
    let pages = wordBoxes(text, scale: Double(resolution) / 72)
    let folder = try Fixtures.temporaryFolder()
    var reports: [PageReport] = []
    for (index, boxes) in pages.enumerated() {
      let prefix = folder.appendingPathComponent("page-\(index + 1)").path
      let (rendered, output) = try ExternalCheckers.run(
        pdftoppm,
        [
          "-gray", "-r", "\(resolution)", "-f", "\(index + 1)", "-l", "\(index + 1)",
          "-singlefile", pdf.path, prefix,
        ])
      guard rendered == 0 else { throw CheckError("pdftoppm failed on \(pdf.path): \(output)") }
      let image = try GrayImage(pgm: Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
      reports.append(measure(image, boxes: boxes, page: index + 1))
    }
    return reports
  }

  /// The figures of one rendered page and its word boxes (pixels of the
  /// rendering: `[x0, y0, x1, y1]`).
  public static func measure(_ image: GrayImage, boxes: [[Double]], page: Int = 1) -> PageReport {
    let dark = image.dark()
    let marks = Marks(dark, width: image.width, height: image.height)
    var inside = 0
    var total = 0
    var onInk = 0
    for box in boxes {
      let grow = max(1, 0.2 * min(box[2] - box[0], box[3] - box[1]))
      let x0 = max(0, Int(box[0].rounded(.down)))
      let y0 = max(0, Int(box[1].rounded(.down)))
      let x1 = min(image.width, Int(box[2].rounded(.up)))
      let y1 = min(image.height, Int(box[3].rounded(.up)))
      var boxInk = 0
      var boxHeld = 0
      if x0 < x1, y0 < y1 {
        for y in y0..<y1 {
          for x in x0..<x1 {
            let label = marks.labels[y * image.width + x]
            guard label > 0 else { continue }
            boxInk += 1
            let m = marks.boxes[Int(label)]
            if Double(m.x0) >= box[0] - grow, Double(m.y0) >= box[1] - grow,
              Double(m.x1) <= box[2] + grow, Double(m.y1) <= box[3] + grow
            {
              boxHeld += 1
            }
          }
        }
      }
      total += boxInk
      inside += boxHeld
      if boxInk > 0, boxHeld * 2 >= boxInk { onInk += 1 }
    }
    return PageReport(
      page: page, words: boxes.count,
      tightness: total > 0 ? Double(inside) / Double(total) : 0,
      wordsOnInk: boxes.isEmpty ? 0 : Double(onInk) / Double(boxes.count))
  }

  /// The word boxes of each page of `pdftotext -bbox` output, in points
  /// times `scale`.
  static func wordBoxes(_ html: String, scale: Double) -> [[[Double]]] {
    var pages: [[[Double]]] = []
    for line in html.split(separator: "\n") {
      if line.contains("<page ") {
        pages.append([])
        continue
      }
      guard line.contains("<word "), !pages.isEmpty else { continue }
      let values = ["xMin", "yMin", "xMax", "yMax"].compactMap { key -> Double? in
        guard let start = line.range(of: key + "=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<end]).map { $0 * scale }
      }
      if values.count == 4 { pages[pages.count - 1].append(values) }
    }
    return pages
  }

  /// A failure to run the checkers.
  public struct CheckError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}

/// An 8-bit gray image (a binary PGM, as `pdftoppm -gray` writes it).
public struct GrayImage: Sendable {
  public var width: Int
  public var height: Int
  /// Row by row, 0 black to 255 white.
  public var pixels: [UInt8]

  /// Reads a binary PGM (`P5`, maximum 255).
  public init(pgm data: Data) throws {
    let bytes = [UInt8](data)
    var fields: [Int] = []
    var i = 2
    guard bytes.count > 2, bytes[0] == 0x50, bytes[1] == 0x35 else {
      throw RenderedPDFCheck.CheckError("not a binary PGM")
    }
    while fields.count < 3, i < bytes.count {
      if bytes[i] == 0x23 {  // a comment, to the end of its line
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
      } else if (0x30...0x39).contains(bytes[i]) {
        var value = 0
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
          value = value * 10 + Int(bytes[i] - 0x30)
          i += 1
        }
        fields.append(value)
        continue
      }
      i += 1
    }
    // One whitespace byte ends the header.
    i += 1
    guard fields.count == 3, fields[2] == 255, bytes.count - i >= fields[0] * fields[1] else {
      throw RenderedPDFCheck.CheckError("unexpected PGM header \(fields)")
    }
    width = fields[0]
    height = fields[1]
    pixels = Array(bytes[i..<i + width * height])
  }

  /// Dark pixels under Otsu's threshold (the threshold that best splits
  /// the histogram in two).
  func dark() -> [Bool] {
    var histogram = [Double](repeating: 0, count: 256)
    for p in pixels { histogram[Int(p)] += 1 }
    let count = Double(pixels.count)
    let sum = histogram.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element }
    var weight = 0.0
    var partial = 0.0
    var best = (threshold: 127, score: -1.0)
    for t in 0..<256 {
      weight += histogram[t]
      partial += Double(t) * histogram[t]
      let w = weight / count
      guard w > 0, w < 1 else { continue }
      let mean = sum / count
      let score = pow(mean * w - partial / count, 2) / (w * (1 - w))
      if score > best.score { best = (t, score) }
    }
    return pixels.map { Int($0) <= best.threshold }
  }
}

/// The 8-connected marks of a black-and-white image: a label per pixel
/// (0 for paper) and each mark's box.
struct Marks {
  var labels: [Int32]
  /// Indexed by label (index 0 unused); exclusive maxima.
  var boxes: [(x0: Int, y0: Int, x1: Int, y1: Int)] = [(0, 0, 0, 0)]

  init(_ dark: [Bool], width: Int, height: Int) {
    labels = [Int32](repeating: 0, count: dark.count)
    var stack: [Int] = []
    for start in dark.indices where dark[start] && labels[start] == 0 {
      let label = Int32(boxes.count)
      var box = (x0: start % width, y0: start / width, x1: start % width + 1, y1: start / width + 1)
      labels[start] = label
      stack.append(start)
      while let p = stack.popLast() {
        let x = p % width
        let y = p / width
        box = (min(box.x0, x), min(box.y0, y), max(box.x1, x + 1), max(box.y1, y + 1))
        for dy in -1...1 {
          for dx in -1...1 {
            let nx = x + dx
            let ny = y + dy
            guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
            let q = ny * width + nx
            if dark[q], labels[q] == 0 {
              labels[q] = label
              stack.append(q)
            }
          }
        }
      }
      boxes.append(box)
    }
  }
}
