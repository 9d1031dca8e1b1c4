// Placeholder until the segmentation work lands.
enum WordSegmentation {
  static func wordRanges(in token: Substring) -> [Range<Int>] {
    var first: Int?
    var last = 0
    var offset = 0
    for c in token {
      let n = c.utf16.count
      if c.isLetter || c.isNumber {
        if first == nil { first = offset }
        last = offset + n
      }
      offset += n
    }
    guard let first else { return [] }
    return [first..<last]
  }
}
