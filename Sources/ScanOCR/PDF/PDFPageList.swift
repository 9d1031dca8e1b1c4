/// The pages of a PDF whose page tree is flat (the root's kids are the
/// pages, as most writers make it), read from the file's bytes: the
/// references of the root's `/Kids`, found through the file's
/// cross-reference tables, without qpdf.
///
/// Why: qpdf makes a placeholder object for every kid of the root's
/// `/Kids` array the first time the array is touched (about 320 bytes a
/// kid: 6.4 MB at 20,000 pages), and finding a page from the root touches
/// it. Knowing the page's reference, the scanner asks qpdf for that object
/// alone (``PDFEditor/pageObject(_:)``).
///
/// Only what can be read without doubt is read: classic cross-reference
/// tables of 20-byte entries (chained by `/Prev`, the newest entry of an
/// object winning), a catalog and a page tree's root that are plain
/// objects (`N G obj << … >> endobj`) whose numbers and generations match
/// their entries, a `/Kids` array of references only whose length is the
/// root's `/Count`. Anything else (cross-reference streams, a hybrid file's
/// `/XRefStm`, an encrypted file, a nested tree, names spelled with `#`
/// escapes, damage of any kind) gives no list, and the scanner finds pages
/// through qpdf as before. Every read is bounded by the bytes and by fixed
/// limits (sections, nesting), and nothing traps on damaged input.
struct PDFPageList: Sendable, Equatable {
  /// An indirect object's number and generation.
  struct Reference: Sendable, Hashable {
    var number: UInt32
    var generation: UInt16
  }

  /// The catalog (the newest trailer's `/Root`).
  let catalog: Reference
  /// The page tree's root (the catalog's `/Pages`).
  let root: Reference
  /// The pages, in order: the root's `/Kids`.
  let kids: [Reference]
  /// What the root gives its pages to inherit, as the file writes it:
  /// its `/Resources`, `/MediaBox`, `/CropBox` and `/Rotate` (those it
  /// has); `nil` when one of them is written with bytes other than
  /// printable ASCII and white space, or with a comment.
  let inherited: [String: String]?

  /// The catalog's entries but `/Pages`, as the file writes them (`/Key
  /// value`, one after the other); `nil` when one is written with bytes
  /// other than printable ASCII and white space, or with a comment.
  let catalogEntries: String?

  /// The entries a page inherits from its ancestors.
  static let inheritedKeys = ["/Resources", "/MediaBox", "/CropBox", "/Rotate"]

  /// The most cross-reference sections followed through `/Prev`.
  static let maxSections = 64
  /// The deepest nesting of arrays and dictionaries read.
  static let maxDepth = 32

  /// Reads the page list of a PDF held in memory, `nil` when its page tree
  /// is not a flat tree that can be read without doubt (above).
  /// - Complexity: O(*n*) in the bytes of the cross-reference tables'
  ///   section headers, the trailers, the catalog and the tree's root.
  init?(bytes: UnsafeRawBufferPointer) {
    guard let start = Self.lastCrossReference(in: bytes) else { return nil }
    var reader = Reader(bytes: bytes)
    guard let sections = reader.sections(from: start),
      let catalog = sections.first?.root,
      let catalogEntries = reader.dictionary(at: sections, catalog),
      case .reference(let root)? = catalogEntries["/Pages"],
      case let catalogSpans = reader.spans,
      let rootEntries = reader.dictionary(at: sections, root),
      case .array(let items)? = rootEntries["/Kids"],
      case .integer(let count)? = rootEntries["/Count"], count == items.count, count > 0,
      // The root is the top of the tree: nothing above it is inherited.
      rootEntries["/Parent"] == nil
    else { return nil }
    func plain(_ span: Range<Int>) -> String? {
      let value = bytes[span]
      let plain = value.allSatisfy { (32...126).contains($0) || $0 == 9 || $0 == 10 || $0 == 13 }
      guard plain, !value.contains(UInt8(ascii: "%")) else { return nil }
      return String(decoding: value, as: UTF8.self)
    }
    var inherited: [String: String]? = [:]
    for key in Self.inheritedKeys {
      guard let span = reader.spans[key] else { continue }
      guard let value = plain(span) else {
        inherited = nil
        break
      }
      inherited?[key] = value
    }
    self.inherited = inherited
    var written: [String]? = []
    for (key, span) in catalogSpans.sorted(by: { $0.key < $1.key }) where key != "/Pages" {
      guard let value = plain(span) else {
        written = nil
        break
      }
      written?.append(key + " " + value)
    }
    self.catalogEntries = written?.joined(separator: " ")
    var kids: [Reference] = []
    kids.reserveCapacity(items.count)
    for item in items {
      guard case .reference(let kid) = item else { return nil }
      kids.append(kid)
    }
    self.catalog = catalog
    self.root = root
    self.kids = kids
  }

  /// The offset the file's last `startxref` gives (within its last 2 kB),
  /// `nil` when there is none or it points beyond the file.
  /// - Complexity: O(1): 2 kB at most are read.
  static func lastCrossReference(in file: UnsafeRawBufferPointer) -> Int? {
    let keyword = Array("startxref".utf8)
    var at = file.count - keyword.count
    let stop = max(0, file.count - 2048)
    while at >= stop {
      if file[at..<(at + keyword.count)].elementsEqual(keyword) {
        var i = at + keyword.count
        while i < file.count, [9, 10, 12, 13, 32].contains(file[i]) { i += 1 }
        var value = 0
        var digits = 0
        while i < file.count, (48...57).contains(file[i]), digits < 15 {
          value = value * 10 + Int(file[i] - 48)
          digits += 1
          i += 1
        }
        return digits > 0 && value < file.count ? value : nil
      }
      at -= 1
    }
    return nil
  }

  /// A value of the PDF object syntax, as far as the page list needs it:
  /// what else an object holds is read over and kept as `.other`.
  enum Value: Equatable {
    case integer(Int)
    case name(String)
    case reference(Reference)
    case array([Value])
    case dictionary([String: Value])
    case other
  }

  /// One cross-reference section: its subsections (first object number,
  /// entry count, offset of the first entry) and its trailer's `/Root`.
  struct Section {
    var subsections: [(first: Int, count: Int, entries: Int)]
    var root: Reference?
  }

  /// A bounded reader of the file's bytes.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    /// Where each value of the last dictionary read by
    /// ``dictionary(at:_:)`` is written (its bytes).
    var spans: [String: Range<Int>] = [:]

    static func isWhitespace(_ byte: UInt8) -> Bool {
      byte == 0 || byte == 9 || byte == 10 || byte == 12 || byte == 13 || byte == 32
    }

    static func isDelimiter(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
        UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
        UInt8(ascii: "/"), UInt8(ascii: "%"):
        return true
      default: return false
      }
    }

    static func isRegular(_ byte: UInt8) -> Bool { !isWhitespace(byte) && !isDelimiter(byte) }

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    /// Skips whitespace and comments.
    mutating func skipSpace() {
      while let byte = peek {
        if Self.isWhitespace(byte) {
          at += 1
        } else if byte == UInt8(ascii: "%") {
          while let c = peek, c != 10, c != 13 { at += 1 }
        } else {
          return
        }
      }
    }

    /// The run of regular characters at the reader (after space).
    mutating func word() -> ArraySlice<UInt8> {
      skipSpace()
      let start = at
      while let byte = peek, Self.isRegular(byte) { at += 1 }
      return ArraySlice(bytes[start..<at])
    }

    /// Reads `keyword` as a whole word, or leaves the reader where it was.
    mutating func expect(_ keyword: String) -> Bool {
      let saved = at
      if word().elementsEqual(keyword.utf8) { return true }
      at = saved
      return false
    }

    /// A non-negative whole number of at most 15 digits, or the reader
    /// left where it was.
    mutating func unsigned() -> Int? {
      let saved = at
      let digits = word()
      guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ (48...57).contains($0) })
      else {
        at = saved
        return nil
      }
      return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// The cross-reference sections from the one at `offset` back through
    /// `/Prev`, newest first; `nil` when one is not a classic table, a
    /// trailer names `/XRefStm` or `/Encrypt`, or the chain loops or is
    /// longer than ``PDFPageList/maxSections``.
    mutating func sections(from offset: Int) -> [Section]? {
      var sections: [Section] = []
      var next: Int? = offset
      var seen = Set<Int>()
      while let offset = next {
        guard sections.count < PDFPageList.maxSections, offset >= 0, offset < bytes.count,
          seen.insert(offset).inserted
        else { return nil }
        at = offset
        guard expect("xref") else { return nil }
        var section = Section(subsections: [], root: nil)
        while !expect("trailer") {
          guard let first = unsigned(), let count = unsigned(), count <= bytes.count / 20
          else { return nil }
          // The entries start on the next line: the line end after the
          // count (a space may come before it).
          while peek == 32 { at += 1 }
          if peek == 13 { at += 1 }
          if peek == 10 { at += 1 }
          guard at + count * 20 <= bytes.count else { return nil }
          section.subsections.append((first, count, at))
          at += count * 20
        }
        guard case .dictionary(let trailer)? = value(depth: 0),
          trailer["/XRefStm"] == nil, trailer["/Encrypt"] == nil
        else { return nil }
        if case .reference(let root)? = trailer["/Root"] { section.root = root }
        switch trailer["/Prev"] {
        case nil: next = nil
        case .integer(let previous)?: next = previous
        default: return nil
        }
        sections.append(section)
      }
      return sections
    }

    /// The offset of object `reference` by the newest section that lists
    /// its number; `nil` when that entry is free, of another generation,
    /// or not a well-formed 20-byte entry.
    func offset(of reference: Reference, in sections: [Section]) -> Int? {
      let number = Int(reference.number)
      for section in sections {
        for sub in section.subsections where number >= sub.first && number < sub.first + sub.count {
          let entry = sub.entries + (number - sub.first) * 20
          guard entry + 20 <= bytes.count else { return nil }
          let field = bytes[entry..<(entry + 20)]
          func digits(_ range: Range<Int>) -> Int? {
            let part = field[(entry + range.lowerBound)..<(entry + range.upperBound)]
            guard part.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return part.reduce(0) { $0 * 10 + Int($1 - 48) }
          }
          guard let offset = digits(0..<10), let generation = digits(11..<16),
            field[entry + 10] == 32, field[entry + 16] == 32,
            field[entry + 17] == UInt8(ascii: "n"),
            Self.isWhitespace(field[entry + 18]), Self.isWhitespace(field[entry + 19]),
            generation == Int(reference.generation), offset < bytes.count
          else { return nil }
          return offset
        }
      }
      return nil
    }

    /// Object `reference`'s dictionary, when the object is `N G obj`
    /// (its own number and generation), a dictionary, and `endobj`.
    mutating func dictionary(at sections: [Section], _ reference: Reference) -> [String: Value]? {
      guard let offset = offset(of: reference, in: sections) else { return nil }
      at = offset
      spans = [:]
      guard unsigned() == Int(reference.number), unsigned() == Int(reference.generation),
        expect("obj"), case .dictionary(let entries)? = value(depth: 0), expect("endobj")
      else { return nil }
      return entries
    }

    /// The value at the reader; `nil` on anything malformed or nested
    /// deeper than ``PDFPageList/maxDepth``.
    mutating func value(depth: Int) -> Value? {
      guard depth < PDFPageList.maxDepth else { return nil }
      skipSpace()
      guard let byte = peek else { return nil }
      switch byte {
      case UInt8(ascii: "/"):
        at += 1
        let start = at
        while let c = peek, Self.isRegular(c) { at += 1 }
        let name = bytes[start..<at]
        // A `#` escape spells a name other bytes spell too: not read.
        guard !name.contains(UInt8(ascii: "#")) else { return nil }
        return .name("/" + String(decoding: name, as: UTF8.self))
      case UInt8(ascii: "["):
        at += 1
        var items: [Value] = []
        while true {
          skipSpace()
          guard let c = peek else { return nil }
          if c == UInt8(ascii: "]") {
            at += 1
            return .array(items)
          }
          guard let item = value(depth: depth + 1) else { return nil }
          items.append(item)
        }
      case UInt8(ascii: "<"):
        if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") {
          at += 2
          var entries: [String: Value] = [:]
          while true {
            skipSpace()
            guard let c = peek else { return nil }
            if c == UInt8(ascii: ">") {
              guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { return nil }
              at += 2
              return .dictionary(entries)
            }
            guard case .name(let key)? = value(depth: depth + 1) else { return nil }
            skipSpace()
            let start = at
            guard let item = value(depth: depth + 1),
              entries.updateValue(item, forKey: key) == nil
            else { return nil }
            if depth == 0 { spans[key] = start..<at }
          }
        }
        at += 1
        while let c = peek, c != UInt8(ascii: ">") {
          guard
            Self.isWhitespace(c) || (48...57).contains(c) || (65...70).contains(c)
              || (97...102).contains(c)
          else { return nil }
          at += 1
        }
        guard peek != nil else { return nil }
        at += 1
        return .other
      case UInt8(ascii: "("):
        at += 1
        var open = 1
        while let c = peek {
          at += 1
          if c == UInt8(ascii: "\\") {
            at += 1
          } else if c == UInt8(ascii: "(") {
            open += 1
          } else if c == UInt8(ascii: ")") {
            open -= 1
            if open == 0 { return .other }
          }
        }
        return nil
      default:
        guard Self.isRegular(byte) else { return nil }
        if let number = unsigned() {
          // `N G R`, else the number alone.
          let saved = at
          if let generation = unsigned(), expect("R"), number <= Int(UInt32.max),
            generation <= Int(UInt16.max)
          {
            return .reference(Reference(number: UInt32(number), generation: UInt16(generation)))
          }
          at = saved
          return .integer(number)
        }
        let token = word()
        guard !token.isEmpty else { return nil }
        // Keywords a value may be (no `R`, `obj`, `endobj`, `stream`
        // standing alone).
        let known = ["true", "false", "null"]
        if known.contains(where: { token.elementsEqual($0.utf8) }) { return .other }
        guard token.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 })
        else { return nil }
        return .other
      }
    }
  }
}
