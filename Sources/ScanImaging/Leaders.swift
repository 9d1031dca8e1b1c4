import ScanModel

/// Leaders: the rows of dots or dashes that lead the eye from an entry to
/// its number (a contents page, an index, a price list, a form's fill-in
/// line), found among a page's ink components.
///
/// A leader is set as one mark repeated at a fixed pitch along a baseline
/// (the typesetter's `\dotfill`, a word processor's tab leader), so its
/// marks are alike in size, level with one another and evenly spaced, and
/// it stands alone in its band of the line: nothing is printed above or
/// below it within a few marks' heights. Text is none of these at once: an
/// ellipsis has three dots, the dots of a dot-matrix letter have the
/// letter's other dots above or below them, a halftone's dots have rows
/// above and below. OCR reads leaders as junk ("cece eeeee", "-------",
/// "2.0.0.0..") and misreads the words beside them ("2.1.2" as "2A2"),
/// so the leaders step lays the paper over them before recognition.
package enum Leaders {
  /// The fewest marks a leader has: more than an ellipsis's three or a
  /// spaced-out "...." of four.
  package static let minimumMarks = 5

  /// The largest mark: a dot or dash of type up to about 24 pt, in
  /// pixels at `resolution` (300 when unknown): a twentieth of an inch
  /// high, a tenth wide.
  static func largestMark(resolution: Int?) -> (width: Int, height: Int) {
    let dpi = max(50, resolution ?? 300)
    return (max(3, dpi / 10), max(2, dpi / 20))
  }

  /// The widest pitch from one mark to the next: a fifth of an inch.
  static func widestPitch(resolution: Int?) -> Int { max(8, max(50, resolution ?? 300) / 5) }

  /// The leaders among a page's ink components: each a run of the indices
  /// of its marks in `components`, left to right.
  /// - Parameters:
  ///   - components: The boxes of a binarised page's connected components.
  ///   - resolution: The page's resolution, when known.
  /// - Returns: The runs, each of at least ``minimumMarks`` marks.
  /// - Complexity: O(*n* log *n* + *n* · *k*) in the components and the
  ///   marks near each one.
  package static func runs(in components: [PixelRect], resolution: Int?) -> [[Int]] {
    let largest = largestMark(resolution: resolution)
    let pitchLimit = widestPitch(resolution: resolution)
    // Candidate marks, by row band of the largest mark's height.
    let marks = components.indices.filter {
      let b = components[$0]
      return b.width >= 1 && b.height >= 1 && b.width <= largest.width
        && b.height <= largest.height && b.width * 2 >= b.height
    }
    guard marks.count >= minimumMarks else { return [] }
    let band = max(1, largest.height)
    var byBand: [Int: [Int]] = [:]
    for i in marks { byBand[centreY(components[i]) / band, default: []].append(i) }
    for key in byBand.keys { byBand[key]?.sort { components[$0].minX < components[$1].minX } }

    /// The next mark right of `i` on its level, alike in size, within
    /// `maxGap`: the nearest.
    func next(after i: Int, maxGap: Int) -> Int? {
      let a = components[i]
      let cy = centreY(a)
      var best: Int?
      for key in (cy / band - 1)...(cy / band + 1) {
        for j in byBand[key] ?? [] where j != i {
          let b = components[j]
          // Marks stand apart: the space between two is at least half a
          // mark (letters of a word nearly touch).
          let gap = b.minX - a.maxX
          guard gap >= max(1, a.width / 2), gap <= maxGap, alike(a, b),
            abs(centreY(b) - cy) <= max(1, a.height / 2)
          else { continue }
          if best.map({ components[$0].minX > b.minX }) ?? true { best = j }
        }
      }
      return best
    }

    var used = Set<Int>()
    var runs: [[Int]] = []
    let ordered = marks.sorted {
      (components[$0].minX, components[$0].minY) < (components[$1].minX, components[$1].minY)
    }
    for start in ordered where !used.contains(start) {
      guard let second = next(after: start, maxGap: pitchLimit) else { continue }
      let pitch = components[second].minX - components[start].minX
      guard pitch <= pitchLimit else { continue }
      var run = [start, second]
      // Each further mark one pitch on (within a quarter pitch or 2 px).
      let slack = max(2, pitch / 4)
      while let last = run.last,
        let j = next(after: last, maxGap: pitch + slack),
        abs(components[j].minX - components[last].minX - pitch) <= slack,
        !used.contains(j)
      {
        run.append(j)
      }
      guard run.count >= minimumMarks, standsAlone(run, components),
        isSmallBesideItsText(run, components, pitch: pitch)
      else { continue }
      used.formUnion(run)
      runs.append(run)
    }
    return runs
  }

  /// Whether the run leads from or to text: ink beside one of its ends on
  /// its level (within three pitches), at least twice as tall as its
  /// marks. A leader connects an entry to its number (or a label to its
  /// blank), and a dot or a dash is a fraction of its text's letters (a
  /// period a fifth of the x-height), where small type's letters can be
  /// as small as a big dot (the letters of "cense" in a footnote, 15 px at
  /// 300 dpi, alike and evenly spaced), and the steps of a slanting edge
  /// in a photo (`Scans/photo-flat.jpg`: 13 × 1 px pieces) have nothing
  /// beside them.
  static func isSmallBesideItsText(_ run: [Int], _ components: [PixelRect], pitch: Int) -> Bool {
    guard let box = PixelRect.union(run.map { components[$0] }) else { return false }
    let reach = 3 * max(pitch, 1)
    let members = Set(run)
    var beside: [Int] = []
    for (k, c) in components.enumerated() where !members.contains(k) {
      guard c.minY < box.maxY, box.minY < c.maxY else { continue }
      let left = box.minX - c.maxX
      let right = c.minX - box.maxX
      if (0...reach).contains(left) || (0...reach).contains(right) { beside.append(c.height) }
    }
    let mark = run.map { components[$0].height }.max() ?? 1
    return beside.max().map { $0 >= 2 * mark } ?? false
  }

  static func centreY(_ b: PixelRect) -> Int { (b.minY + b.maxY) / 2 }

  /// Two marks of one leader: the same size within a third or 2 px.
  static func alike(_ a: PixelRect, _ b: PixelRect) -> Bool {
    func near(_ x: Int, _ y: Int) -> Bool { abs(x - y) <= max(2, max(x, y) / 3) }
    return near(a.width, b.width) && near(a.height, b.height)
  }

  /// Whether no other ink lies within three of the marks' heights above or
  /// below the run, over its length.
  static func standsAlone(_ run: [Int], _ components: [PixelRect]) -> Bool {
    guard let box = PixelRect.union(run.map { components[$0] }) else { return false }
    let height = run.map { components[$0].height }.max() ?? 1
    let area = PixelRect(
      minX: box.minX, minY: box.minY - 3 * height, maxX: box.maxX, maxY: box.maxY + 3 * height)
    let members = Set(run)
    for (k, c) in components.enumerated() where !members.contains(k) {
      if c.minX < area.maxX, area.minX < c.maxX, c.minY < area.maxY, area.minY < c.maxY {
        return false
      }
    }
    return true
  }
}
