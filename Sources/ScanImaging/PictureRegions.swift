import ScanModel

/// Finds the pictures on a page (engravings, woodcuts, drawings, photos):
/// large regions of ink that are not text, from the page image and the
/// words recognised on it.
///
/// Tesseract's own image blocks were measured unusable for this (on the
/// real scans 3 of its 5 blocks were noise, and none a picture's extent),
/// so the regions come from the ink:
///
/// 1. The page is cut into cells of an eighth of the text's height (the
///    median height of the words read with confidence 60 or more and at
///    least two letters or digits; a page without five such words uses an
///    80th of its shorter side), each cell the mean of its pixels. A cell
///    is ink when it is at least 28 % darker than the paper of its block
///    (the 95th percentile of blocks four text heights wide), so shading
///    and coloured paper stay paper.
/// 2. Confidently read words (as above) are cleared, and so are rules:
///    runs of ink at least three text heights long that are at most 0.35 of
///    a text height thick (a table's grid, a frame, an underline).
/// 3. What is left is cut into 8-connected components. A *seed* is a
///    component at least 2.5 text heights long and 1.5 across that does not
///    touch the image's edge (a facing page's edge, the background around
///    a photographed page) and that words of any confidence cover less
///    than half of (Tesseract reads text it is unsure of as words; in a
///    picture it reads a few specks as symbols).
/// 4. Seeds within two text heights of each other are one region (the
///    pieces of an ornament). A region is a picture when it is at least 3
///    text heights across both ways and 20 square text heights in area,
///    0.5 text heights from the image's edge, within the text's extent
///    across the page (grown by two text heights), 8–85 % ink (not a solid
///    shadow), with masses of ink (a fifth of its ink cells or more inside
///    strokes three cells thick: a stamp's frame and letters are
///    pen-thin), confident words over at most 5 % of it (a stamp printed
///    over running text) and words of any confidence over at most half.
/// 5. A region whose ink is in colour is a rubber stamp, not a picture: a
///    fifth or more of its ink pixels have a chroma (the largest of red,
///    green and blue less the smallest) of 40 or more. Pictures in scans
///    are printed in black or brown ink (on paper that may have yellowed);
///    stamps are inked in red, blue, violet or green, alone or over each
///    other. A picture printed in colour is therefore not found either
///    (none is among the pages measured). On a gray page the rule cannot
///    tell: a gray stamp that passes the rules above is taken for a
///    picture (16 on 14 of the 46 stamped develop misc pages made gray).
///
/// Measured (2026-12-05) on every real scan in `../shared/scans`, every
/// sample in `Scans/` and develop seeds 1000–1004 of every family (misc:
/// 1000–1099, the stamps): figures on `indian-ferns-0004.tif` (its two
/// ferns, not the title between them), `c02-22-embedded-000.jpg` (its
/// engraving) and `bengel-abriss-1751-0007.jpg` (its woodcut and the
/// middle of its headpiece), none elsewhere. What
/// each rule keeps out, as measured there: the word cover was 0.83–0.93 on
/// `fleming-jaeger`'s bleed-through text and 0–0.18 on the pictures; the
/// confident cover 0.10–0.11 on the misc family's stamps over text and 0 on
/// the pictures; the ink in thick strokes 0.10 on `color-stamp.png`'s stamp
/// in a blank space, 0.28–0.80 on the pictures. Rules 1–4 still took 13
/// stamps on 12 of develop misc 1000–1099 for pictures (and 4 on check
/// seeds 9000–9009, whose stamps' words read with low confidence and whose
/// frames are thicker): their ink is 0.56–1.0 saturated, the five
/// pictures' 0–0.031. With rule 5 none of the 13 is found, nor any stamp
/// on check seeds 9100–9149 and 9150–9169 of the misc family, and the
/// pictures stay (see the README's "Tagged PDF" section for each set).
package enum PictureRegions {
  /// A word recognised on the page, as the detector weighs it.
  package struct Word: Sendable {
    /// The word's upright box, in the page's pixels.
    package var box: PixelRect
    /// Whether it was read as text one can trust: confidence 60 or more and
    /// at least two letters or digits.
    package var confident: Bool

    /// Creates a word.
    package init(box: PixelRect, confident: Bool) {
      self.box = box
      self.confident = confident
    }

    /// A word as the detector weighs it.
    /// - Parameters:
    ///   - box: The word's box in the page's pixels.
    ///   - text: Its text.
    ///   - confidence: Tesseract's confidence (0–100), when known.
    package init(box: PixelRect, text: String, confidence: Double?) {
      self.init(
        box: box, confident: ScanConventions.isConfidentText(text, confidence: confidence))
    }
  }

  /// The pictures on a page.
  /// - Parameters:
  ///   - width: The page's width in pixels.
  ///   - height: The page's height in pixels.
  ///   - gray: The gray value (0 black, 255 white) at a pixel.
  ///   - colour: The red, green and blue values at a pixel, `nil` on a
  ///     gray page (whose stamps cannot be told by their colour).
  ///   - words: The words recognised on the page, in its pixels.
  /// - Returns: Each picture's upright box, in the page's pixels, top to
  ///   bottom.
  /// - Complexity: O(*p* + *c* · *w*) in the pixels sampled (at most 16
  ///   a cell), the cells and the words.
  package static func find(
    width: Int, height: Int, gray: (Int, Int) -> Int,
    colour: (Int, Int) -> (red: Int, green: Int, blue: Int)? = { _, _ in nil }, words: [Word]
  ) -> [PixelRect] {
    guard width > 0, height > 0 else { return [] }
    let heights = words.filter(\.confident).map { $0.box.maxY - $0.box.minY }.sorted()
    let textHeight =
      heights.count >= 5 ? Double(heights[heights.count / 2]) : Double(min(width, height)) / 80
    let f = max(1, Int(textHeight / 8))
    let gw = width / f
    let gh = height / f
    let h = textHeight / Double(f)  // the text's height in cells
    guard gw > 4, gh > 4, h >= 1 else { return [] }

    // 1. Cells: the mean of up to 4 × 4 of their pixels.
    let step = max(1, f / 4)
    var cells = [UInt8](repeating: 255, count: gw * gh)
    for cy in 0..<gh {
      for cx in 0..<gw {
        var sum = 0
        var count = 0
        var y = cy * f
        while y < cy * f + f {
          var x = cx * f
          while x < cx * f + f {
            sum += gray(x, y)
            count += 1
            x += step
          }
          y += step
        }
        cells[cy * gw + cx] = UInt8(clamping: sum / max(1, count))
      }
    }
    // The paper: the 95th percentile of each block. (The brightest of a
    // block and its neighbours was tried: on `linguistics-thesis-a`'s
    // shadowed right edge the gradient across three blocks made a band of
    // "ink" 189 × 581 pixels.)
    let block = max(4, Int(4 * h))
    let bw = (gw + block - 1) / block
    let bh = (gh + block - 1) / block
    var blockPaper = [Int](repeating: 255, count: bw * bh)
    for by in 0..<bh {
      for bx in 0..<bw {
        var histogram = [Int](repeating: 0, count: 256)
        var total = 0
        for cy in (by * block)..<min(gh, by * block + block) {
          for cx in (bx * block)..<min(gw, bx * block + block) {
            histogram[Int(cells[cy * gw + cx])] += 1
            total += 1
          }
        }
        var below = 0
        var level = 0
        while level < 255, below + histogram[level] < total * 95 / 100 {
          below += histogram[level]
          level += 1
        }
        blockPaper[by * bw + bx] = level
      }
    }
    var ink = [Bool](repeating: false, count: gw * gh)
    for cy in 0..<gh {
      for cx in 0..<gw {
        let p = blockPaper[(cy / block) * bw + cx / block]
        ink[cy * gw + cx] = Int(cells[cy * gw + cx]) * 100 < p * 72
      }
    }

    // 2. Confident words and rules cleared.
    let grow = 0.1 * textHeight
    for word in words where word.confident {
      let x0 = max(0, Int((Double(word.box.minX) - grow) / Double(f)))
      let y0 = max(0, Int((Double(word.box.minY) - grow) / Double(f)))
      let x1 = min(gw, Int(((Double(word.box.maxX) + grow) / Double(f)).rounded(.up)))
      let y1 = min(gh, Int(((Double(word.box.maxY) + grow) / Double(f)).rounded(.up)))
      guard x0 < x1, y0 < y1 else { continue }
      for cy in y0..<y1 {
        for cx in x0..<x1 { ink[cy * gw + cx] = false }
      }
    }
    let ruleLength = Int(3 * h)
    let ruleThickness = max(1, Int(0.35 * h))
    let rules = Grid(width: gw, height: gh, cells: ink).rules(
      length: ruleLength, thickness: ruleThickness)
    for i in ink.indices where rules[i] { ink[i] = false }

    // 3. Seeds.
    let grid = Grid(width: gw, height: gh, cells: ink)
    func wordCover(_ r: PixelRect, confidentOnly: Bool) -> Double {
      let box = PixelRect(minX: r.minX * f, minY: r.minY * f, maxX: r.maxX * f, maxY: r.maxY * f)
      var covered = 0
      for word in words where !confidentOnly || word.confident {
        let w = min(word.box.maxX, box.maxX) - max(word.box.minX, box.minX)
        let v = min(word.box.maxY, box.maxY) - max(word.box.minY, box.minY)
        if w > 0, v > 0 { covered += w * v }
      }
      return Double(covered) / Double(max(1, (box.maxX - box.minX) * (box.maxY - box.minY)))
    }
    let seeds = grid.components().filter { c in
      Double(max(c.width, c.height)) >= 2.5 * h && Double(min(c.width, c.height)) >= 1.5 * h
        && c.minX > 0 && c.minY > 0 && c.maxX < gw && c.maxY < gh
        && wordCover(c, confidentOnly: false) < 0.5
    }

    // 4. Regions.
    let gap = Int((2 * h).rounded(.up))
    var regions: [PixelRect] = []
    for seed in seeds {
      var region = seed
      var merged = true
      while merged {
        merged = false
        for (i, other) in regions.enumerated().reversed() where near(region, other, within: gap) {
          region = region.union(other)
          regions.remove(at: i)
          merged = true
        }
      }
      regions.append(region)
    }
    // The text's extent across the page (confident words, grown by two text
    // heights): pictures are printed in the text's columns; beyond them
    // lie the surroundings of a photographed page (a binder clip on
    // `linguistics-thesis-a`, 3.1 × 6.9 text heights) or a facing page.
    // Unknown (no bound) on a page with fewer than 5 confident words.
    let confident = words.filter(\.confident)
    var textLeft = 0
    var textRight = gw
    if confident.count >= 5, let left = confident.map(\.box.minX).min(),
      let right = confident.map(\.box.maxX).max()
    {
      textLeft = Int((Double(left) - 2 * textHeight) / Double(f))
      textRight = Int(((Double(right) + 2 * textHeight) / Double(f)).rounded(.up))
    }
    // 5. Stamps: ink in colour. The share of the ink's pixels (sampled
    // four a cell, darker than their block's paper as in step 1) whose
    // chroma (the largest of red, green and blue less the smallest) is 40
    // or more.
    func saturatedInk(_ r: PixelRect) -> Double {
      let pixelStep = max(1, f / 2)
      var inkPixels = 0
      var saturated = 0
      var y = r.minY * f
      while y < min(height, r.maxY * f) {
        var x = r.minX * f
        while x < min(width, r.maxX * f) {
          let paper = blockPaper[(y / f / block) * bw + x / f / block]
          if gray(x, y) * 100 < paper * 72, let c = colour(x, y) {
            inkPixels += 1
            if max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) >= 40 { saturated += 1 }
          }
          x += pixelStep
        }
        y += pixelStep
      }
      return Double(saturated) / Double(max(1, inkPixels))
    }
    var found: [PixelRect] = []
    for r in regions {
      let cellsInside = r.width * r.height
      var inkInside = 0
      for cy in r.minY..<r.maxY {
        for cx in r.minX..<r.maxX where ink[cy * gw + cx] { inkInside += 1 }
      }
      let fill = Double(inkInside) / Double(max(1, cellsInside))
      // Masses of ink: the share of the ink cells whose four neighbours
      // (inside the region) are ink too, strokes at least 3 cells (0.375
      // text heights) thick.
      var solid = 0
      if r.width > 2, r.height > 2 {
        for cy in (r.minY + 1)..<(r.maxY - 1) {
          for cx in (r.minX + 1)..<(r.maxX - 1) {
            let i = cy * gw + cx
            if ink[i], ink[i - 1], ink[i + 1], ink[i - gw], ink[i + gw] { solid += 1 }
          }
        }
      }
      let solidity = Double(solid) / Double(max(1, inkInside))
      let margin = min(r.minX, r.minY, gw - r.maxX, gh - r.maxY)
      guard Double(min(r.width, r.height)) >= 3 * h, Double(cellsInside) >= 20 * h * h,
        Double(margin) >= 0.5 * h, r.minX >= textLeft, r.maxX <= textRight, fill >= 0.08,
        fill <= 0.85, solidity >= 0.2,
        wordCover(r, confidentOnly: true) <= 0.05, wordCover(r, confidentOnly: false) <= 0.5
      else { continue }
      // Measured (develop misc 1000–1099, the 13 stamps found by the rules
      // above on 12 pages: red, blue, violet, green, over text and in
      // blank space): 0.56–1.0 of their ink saturated; the real pictures
      // (engravings, woodcuts, ferns: black or brown ink on yellowed
      // paper) 0–0.031. A fifth keeps a factor of three from the one and
      // six from the other. (A first version also asked for one hue, 0.75
      // of the saturated ink within 45°, as on every develop stamp; check
      // seed 9116 showed stamps of two colours printed over each other,
      // one region, and the condition was dropped: a stamp may be red,
      // blue, violet or green, and stamps overlap.)
      guard saturatedInk(r) < 0.2 else { continue }
      found.append(
        PixelRect(
          minX: r.minX * f, minY: r.minY * f, maxX: min(width, r.maxX * f),
          maxY: min(height, r.maxY * f)))
    }
    return found.sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
  }

  /// A grid of ink cells.
  struct Grid {
    var width: Int
    var height: Int
    var cells: [Bool]

    /// The cells of horizontal and vertical runs at least `length` long
    /// whose ink across the run is at most `thickness` thick at every cell.
    func rules(length: Int, thickness: Int) -> [Bool] {
      var out = [Bool](repeating: false, count: cells.count)
      // Ink extent across (vertical for a horizontal run, and back).
      for horizontal in [true, false] {
        let along = horizontal ? width : height
        let across = horizontal ? height : width
        func index(_ a: Int, _ c: Int) -> Int { horizontal ? c * width + a : a * width + c }
        // Whether the ink through each cell, across the run, is at most
        // `thickness` thick: a byte a cell, where the extents themselves
        // (`Int`s) took 4.2 MB on a 300 dpi page's grid, the largest block
        // of memory at the end of its reading.
        var thin = [Bool](repeating: false, count: cells.count)
        for a in 0..<along {
          var c = 0
          while c < across {
            guard cells[index(a, c)] else {
              c += 1
              continue
            }
            let start = c
            while c < across, cells[index(a, c)] { c += 1 }
            for k in start..<c { thin[index(a, k)] = c - start <= thickness }
          }
        }
        for c in 0..<across {
          var a = 0
          while a < along {
            let i = index(a, c)
            guard cells[i], thin[i] else {
              a += 1
              continue
            }
            let start = a
            while a < along, cells[index(a, c)], thin[index(a, c)] { a += 1 }
            if a - start >= length {
              for k in start..<a { out[index(k, c)] = true }
            }
          }
        }
      }
      return out
    }

    /// The 8-connected components' boxes, in cells (half-open).
    func components() -> [PixelRect] {
      var seen = [Bool](repeating: false, count: cells.count)
      var out: [PixelRect] = []
      var stack: [Int] = []
      for start in cells.indices where cells[start] && !seen[start] {
        seen[start] = true
        stack.append(start)
        var r = PixelRect(
          minX: start % width, minY: start / width, maxX: start % width + 1,
          maxY: start / width + 1)
        while let i = stack.popLast() {
          let x = i % width
          let y = i / width
          r = r.union(PixelRect(minX: x, minY: y, maxX: x + 1, maxY: y + 1))
          for ny in max(0, y - 1)...min(height - 1, y + 1) {
            for nx in max(0, x - 1)...min(width - 1, x + 1) {
              let j = ny * width + nx
              if cells[j] && !seen[j] {
                seen[j] = true
                stack.append(j)
              }
            }
          }
        }
        out.append(r)
      }
      return out
    }
  }

  /// Whether two boxes (of cells, half-open) come within `gap` of each
  /// other.
  static func near(_ a: PixelRect, _ b: PixelRect, within gap: Int) -> Bool {
    b.minX < a.maxX + gap && b.maxX > a.minX - gap && b.minY < a.maxY + gap
      && b.maxY > a.minY - gap
  }
}
