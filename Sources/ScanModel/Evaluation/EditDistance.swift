/// Levenshtein distance (unit-cost insertions, deletions and substitutions)
/// between two sequences, for the evaluation's CER and WER.
///
/// The common prefix and suffix are skipped first (identical pages cost one
/// pass). The rest runs Myers' bit-parallel algorithm in Hyyrö's blocked
/// form over the shorter sequence (the "pattern", 64 rows per machine word)
/// while the longer one (the "text") streams past: O(⌈*m*/64⌉ · *n*) time and
/// O(*m*) memory, where *m* ≤ *n* are the lengths after trimming. The
/// pattern's match masks are stored sparsely — for each symbol, only the
/// blocks it occurs in — so they take at most *m* entries whatever the
/// alphabet (Unicode text can have thousands of distinct graphemes).
enum EvaluationEditDistance {
  /// The Levenshtein distance between `a` and `b`, comparing elements with `==`.
  ///
  /// For `String` the elements are grapheme clusters (`Character`), compared
  /// by canonical equivalence.
  /// - Complexity: O(*n* · ⌈*m*/64⌉) time and O(*m*) extra memory, where
  ///   *m* ≤ *n* are the lengths of the two sequences without their common
  ///   prefix and suffix.
  static func distance<C: BidirectionalCollection>(_ a: C, _ b: C) -> Int
  where C.Element: Hashable {
    var a0 = a.startIndex
    var b0 = b.startIndex
    while a0 != a.endIndex, b0 != b.endIndex, a[a0] == b[b0] {
      a.formIndex(after: &a0)
      b.formIndex(after: &b0)
    }
    var a1 = a.endIndex
    var b1 = b.endIndex
    while a1 != a0, b1 != b0 {
      let pa = a.index(before: a1)
      let pb = b.index(before: b1)
      guard a[pa] == b[pb] else { break }
      a1 = pa
      b1 = pb
    }
    let x = a[a0..<a1]
    let y = b[b0..<b1]
    let nx = x.count
    let ny = y.count
    if nx == 0 { return ny }
    if ny == 0 { return nx }
    return nx <= ny
      ? bitParallel(pattern: x, length: nx, text: y)
      : bitParallel(pattern: y, length: ny, text: x)
  }

  /// Myers/Hyyrö bit-vector Levenshtein distance between a non-empty
  /// `pattern` of `length` elements and `text`.
  ///
  /// Rows are pattern positions, columns text positions; each block of 64
  /// rows keeps its vertical deltas as two masks (`pv`: +1, `mv`: −1). The
  /// distance starts at `length` (column 0) and follows the horizontal
  /// delta of the last row.
  private static func bitParallel<P: Collection, T: Collection>(
    pattern: P, length m: Int, text: T
  ) -> Int where P.Element: Hashable, T.Element == P.Element {
    // Symbol numbers of the pattern.
    var symbols: [P.Element: Int] = [:]
    var patternSymbols: [Int] = []
    patternSymbols.reserveCapacity(m)
    for element in pattern {
      if let s = symbols[element] {
        patternSymbols.append(s)
      } else {
        let s = symbols.count
        symbols[element] = s
        patternSymbols.append(s)
      }
    }
    let sigma = symbols.count
    let blockCount = (m + 63) / 64

    // Sparse match masks: for symbol s, entries start[s]..<start[s + 1]
    // hold (block, mask) in increasing block order.
    var lastBlock = [Int](repeating: -1, count: sigma)
    var start = [Int](repeating: 0, count: sigma + 1)
    for (i, s) in patternSymbols.enumerated() where lastBlock[s] != i >> 6 {
      lastBlock[s] = i >> 6
      start[s + 1] += 1
    }
    for s in 0..<sigma { start[s + 1] += start[s] }
    let entryCount = start[sigma]
    var entryBlock = [Int](repeating: 0, count: entryCount)
    var entryMask = [UInt64](repeating: 0, count: entryCount)
    var next = start
    for s in 0..<sigma { lastBlock[s] = -1 }
    for (i, s) in patternSymbols.enumerated() {
      let block = i >> 6
      if lastBlock[s] != block {
        lastBlock[s] = block
        entryBlock[next[s]] = block
        next[s] += 1
      }
      entryMask[next[s] - 1] |= 1 << UInt64(i & 63)
    }
    patternSymbols = []

    var pv = [UInt64](repeating: ~0, count: blockCount)
    var mv = [UInt64](repeating: 0, count: blockCount)
    let lastBlockIndex = blockCount - 1
    let lastBit: UInt64 = 1 << UInt64((m - 1) & 63)
    var score = m

    pv.withUnsafeMutableBufferPointer { pv in
      mv.withUnsafeMutableBufferPointer { mv in
        entryBlock.withUnsafeBufferPointer { entryBlock in
          entryMask.withUnsafeBufferPointer { entryMask in
            for element in text {
              var k = 0
              var end = 0
              if let s = symbols[element] {
                k = start[s]
                end = start[s + 1]
              }
              // Horizontal delta entering the block's top row: row 0 is
              // D[0][j] = j, so +1 into the first block.
              var hin = 1
              for b in 0..<blockCount {
                var eq: UInt64 = 0
                if k < end, entryBlock[k] == b {
                  eq = entryMask[k]
                  k += 1
                }
                let p = pv[b]
                let n = mv[b]
                let xv = eq | n
                if hin < 0 { eq |= 1 }
                let xh = (((eq & p) &+ p) ^ p) | eq
                var ph = n | ~(xh | p)
                var mh = p & xh
                if b == lastBlockIndex {
                  if ph & lastBit != 0 {
                    score += 1
                  } else if mh & lastBit != 0 {
                    score -= 1
                  }
                }
                let hout = ph >> 63 != 0 ? 1 : (mh >> 63 != 0 ? -1 : 0)
                ph <<= 1
                mh <<= 1
                if hin < 0 {
                  mh |= 1
                } else if hin > 0 {
                  ph |= 1
                }
                pv[b] = mh | ~(xv | ph)
                mv[b] = ph & xv
                hin = hout
              }
            }
          }
        }
      }
    }
    return score
  }
}
