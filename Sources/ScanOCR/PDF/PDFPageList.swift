import ScanFormats

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
/// tables of 20-byte entries and cross-reference streams (chained by
/// `/Prev`, the newest entry of an object winning), a catalog and a page
/// tree's root that are plain objects (`N G obj << … >> endobj`) or
/// objects of an object stream, whose numbers and generations match their
/// entries, a `/Kids` array of references only whose length is the root's
/// `/Count`. A stream is read only unfiltered or Flate-compressed (with no
/// predictor or a PNG one of 8-bit samples), of a direct `/Length` that
/// ends at `endstream`, and whole: its decoded bytes are passed through,
/// never held, and more than ``PDFEditor/maxDecodedContentBytes`` of them
/// give no list. Anything else (a hybrid file's `/XRefStm`, an encrypted
/// file, a nested tree, names spelled with `#` escapes, other filters,
/// damage of any kind) gives no list, and the scanner finds pages through
/// qpdf as before. Every read is bounded by the bytes and by fixed limits
/// (sections, nesting, decoded bytes), and nothing traps on damaged input.
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
      case let catalogWritten = reader.written,
      let rootEntries = reader.dictionary(at: sections, root),
      case .array(let items)? = rootEntries["/Kids"],
      case .integer(let count)? = rootEntries["/Count"], count == items.count, count > 0,
      // The root is the top of the tree: nothing above it is inherited.
      rootEntries["/Parent"] == nil
    else { return nil }
    func plain(_ value: [UInt8]) -> String? {
      let plain = value.allSatisfy { (32...126).contains($0) || $0 == 9 || $0 == 10 || $0 == 13 }
      guard plain, !value.contains(UInt8(ascii: "%")) else { return nil }
      return String(decoding: value, as: UTF8.self)
    }
    var inherited: [String: String]? = [:]
    for key in Self.inheritedKeys {
      guard let span = reader.written[key] else { continue }
      guard let value = plain(span) else {
        inherited = nil
        break
      }
      inherited?[key] = value
    }
    self.inherited = inherited
    var written: [String]? = []
    for (key, span) in catalogWritten.sorted(by: { $0.key < $1.key }) where key != "/Pages" {
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

  /// One cross-reference section: a classic table's subsections (first
  /// object number, entry count, offset of the first entry) or a
  /// cross-reference stream, and its trailer's `/Root`.
  struct Section {
    var subsections: [(first: Int, count: Int, entries: Int)]
    var stream: CrossReferenceStream?
    var root: Reference?
  }

  /// A stream's data in the file and how it is decoded.
  struct StreamData {
    /// Its bytes in the file.
    var range: Range<Int>
    /// Whether they are Flate-compressed (else unfiltered).
    var flate: Bool
    /// The row width of a PNG predictor (8-bit samples, one colour), `nil`
    /// without one.
    var columns: Int?
  }

  /// A cross-reference stream: its rows (`widths` bytes each, big-endian
  /// fields) list the objects of `index`'s ranges (first number, count),
  /// one after the other.
  struct CrossReferenceStream {
    var data: StreamData
    var widths: [Int]
    var index: [(first: Int, count: Int)]
  }

  /// Where an object is: at an offset of the file, or the `index`th object
  /// of object stream `stream`.
  enum Location: Equatable {
    case offset(Int)
    case compressed(stream: UInt32, index: Int)
  }

  /// A bounded reader of the file's bytes.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    /// How each value of the last dictionary read by
    /// ``dictionary(at:_:)`` is written (its bytes).
    var written: [String: [UInt8]] = [:]

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
        var section = Section(subsections: [], stream: nil, root: nil)
        let trailer: [String: Value]
        if !expect("xref") {
          guard let stream = crossReferenceStream() else { return nil }
          section.stream = stream.stream
          trailer = stream.trailer
        } else {
          guard let table = table(into: &section) else { return nil }
          trailer = table
        }
        guard trailer["/XRefStm"] == nil, trailer["/Encrypt"] == nil else { return nil }
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

    /// A classic table's subsections (after `xref`), added to `section`,
    /// and its trailer; `nil` when they are not well formed.
    mutating func table(into section: inout Section) -> [String: Value]? {
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
      guard case .dictionary(let trailer)? = value(depth: 0) else { return nil }
      return trailer
    }

    /// The cross-reference stream at the reader (`N G obj << /Type /XRef
    /// … >> stream … endstream`) and its dictionary (the section's
    /// trailer); `nil` when it is not one that can be read without doubt:
    /// `/W` of three widths of at most 8 bytes, `/Index` of pairs (or all
    /// of `/Size`), rows as many as it lists, a stream ``streamData(_:)``
    /// reads.
    mutating func crossReferenceStream() -> (
      stream: CrossReferenceStream, trailer: [String: Value]
    )? {
      guard unsigned() != nil, unsigned() != nil, expect("obj"),
        case .dictionary(let entries)? = value(depth: 0),
        entries["/Type"] == .name("/XRef"),
        case .array(let w)? = entries["/W"], w.count == 3,
        case .integer(let size)? = entries["/Size"],
        let data = streamData(entries)
      else { return nil }
      var widths: [Int] = []
      for item in w {
        guard case .integer(let width) = item, width <= 8 else { return nil }
        widths.append(width)
      }
      let width = widths.reduce(0, +)
      var index: [(first: Int, count: Int)] = []
      switch entries["/Index"] {
      case nil: index = [(0, size)]
      case .array(let items)? where items.count % 2 == 0:
        for pair in stride(from: 0, to: items.count, by: 2) {
          guard case .integer(let first) = items[pair], case .integer(let count) = items[pair + 1]
          else { return nil }
          index.append((first, count))
        }
      default: return nil
      }
      let rows = index.reduce(0) { $0 + $1.count }
      guard width > 0, data.columns == nil || data.columns == width,
        rows <= PDFEditor.maxDecodedContentBytes / width
      else { return nil }
      return (CrossReferenceStream(data: data, widths: widths, index: index), entries)
    }

    /// The data of the stream whose dictionary `entries` the reader has
    /// just read (`stream`, a line end, `/Length` bytes, `endstream`);
    /// `nil` when its length is not a direct number that ends at
    /// `endstream`, it names an external file, or its filter is other than
    /// Flate (with no predictor or a PNG one of 8-bit samples, one colour)
    /// or none.
    mutating func streamData(_ entries: [String: Value]) -> StreamData? {
      guard case .integer(let length)? = entries["/Length"], entries["/F"] == nil,
        expect("stream")
      else { return nil }
      if peek == 13 { at += 1 }
      guard peek == 10 else { return nil }
      at += 1
      let start = at
      guard length <= bytes.count - start else { return nil }
      at = start + length
      guard expect("endstream") else { return nil }
      var data = StreamData(range: start..<(start + length), flate: false, columns: nil)
      switch entries["/Filter"] {
      case nil: break
      case .name("/FlateDecode")?, .array([.name("/FlateDecode")])?: data.flate = true
      default: return nil
      }
      var given = entries["/DecodeParms"]
      if case .array(let items)? = given, items.count == 1 { given = items[0] }
      let parameters: [String: Value]
      switch given {
      case nil: return data
      case .dictionary(let entries)?: parameters = entries
      default: return nil
      }
      let known: Set = ["/Predictor", "/Columns", "/Colors", "/BitsPerComponent"]
      guard data.flate, parameters.keys.allSatisfy(known.contains) else { return nil }
      switch parameters["/Predictor"] {
      case nil, .integer(1)?: return data
      case .integer(let predictor)? where (10...15).contains(predictor):
        let colors = parameters["/Colors"] ?? .integer(1)
        let bits = parameters["/BitsPerComponent"] ?? .integer(8)
        guard colors == .integer(1), bits == .integer(8),
          case .integer(let columns) = parameters["/Columns"] ?? .integer(1), columns > 0
        else { return nil }
        data.columns = columns
        return data
      default: return nil
      }
    }

    /// Passes the decoded bytes of `data` to `body`, one at a time.
    /// - Returns: Their number; `nil` when they are more than `limit`, the
    ///   compressed data is not whole, or a PNG row's filter is unknown or
    ///   its last row short.
    /// - Complexity: O(*n*) in the decoded bytes; memory O(*c*) in the
    ///   predictor's row width.
    func decode(_ data: StreamData, limit: Int, _ body: (UInt8) -> Void) -> Int? {
      let raw = UnsafeRawBufferPointer(rebasing: bytes[data.range])
      guard let columns = data.columns else {
        guard data.flate else {
          guard raw.count <= limit else { return nil }
          raw.forEach(body)
          return raw.count
        }
        let result = Deflate.inflating(raw, limit: limit) { part in
          part.forEach(body)
          return true
        }
        guard let result, result.whole else { return nil }
        return result.count
      }
      // PNG predictors: each row is a filter byte and `columns` bytes,
      // each predicted from the byte before it (`a`), above it (`b`) and
      // above that (`c`).
      var previous = [UInt8](repeating: 0, count: columns)
      var row = [UInt8](repeating: 0, count: columns)
      var filter: UInt8 = 0
      var filled = -1
      var failed = false
      var count = 0
      let result = Deflate.inflating(raw, limit: limit + limit / columns + 1) { part in
        for byte in part {
          if filled < 0 {
            guard byte <= 4 else {
              failed = true
              return false
            }
            filter = byte
            filled = 0
            continue
          }
          let a = filled > 0 ? row[filled - 1] : 0
          let b = previous[filled]
          let c = filled > 0 ? previous[filled - 1] : 0
          let value: UInt8
          switch filter {
          case 0: value = byte
          case 1: value = byte &+ a
          case 2: value = byte &+ b
          case 3: value = byte &+ UInt8((Int(a) + Int(b)) / 2)
          default:
            let p = Int(a) + Int(b) - Int(c)
            let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
            value = byte &+ (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
          }
          row[filled] = value
          filled += 1
          if filled == columns {
            row.forEach(body)
            count += columns
            swap(&row, &previous)
            filled = -1
          }
        }
        return true
      }
      guard let result, result.whole, !failed, filled < 0, count <= limit else { return nil }
      return count
    }

    /// Where object `reference` is by the newest section that lists its
    /// number; `nil` when that entry is free, of another generation, not a
    /// well-formed 20-byte entry, or its stream cannot be read.
    func location(of reference: Reference, in sections: [Section]) -> Location? {
      let number = Int(reference.number)
      for section in sections {
        if let stream = section.stream {
          var row = 0
          for range in stream.index {
            if number >= range.first && number - range.first < range.count {
              return location(of: reference, row: row + number - range.first, in: stream)
            }
            row += range.count
          }
          continue
        }
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
          return .offset(offset)
        }
      }
      return nil
    }

    /// Where object `reference` is by row `row` of `stream` (the stream
    /// decoded whole, to the last row: it must be all there); `nil` when
    /// the entry is free, of another type, or of another generation.
    func location(of reference: Reference, row: Int, in stream: CrossReferenceStream) -> Location? {
      let width = stream.widths.reduce(0, +)
      let rows = stream.index.reduce(0) { $0 + $1.count }
      let start = row * width
      var fields: [UInt64] = [0, 0, 0]
      var at = 0
      let ends = [stream.widths[0], stream.widths[0] + stream.widths[1], width]
      let decoded = decode(stream.data, limit: rows * width) { byte in
        defer { at += 1 }
        guard at >= start, at < start + width else { return }
        let field = ends.firstIndex { at - start < $0 } ?? 2
        fields[field] = fields[field] << 8 | UInt64(byte)
      }
      guard decoded == rows * width else { return nil }
      // A type of no width is 1 (an object at an offset).
      let type = stream.widths[0] == 0 ? 1 : fields[0]
      switch type {
      case 1:
        guard fields[1] < UInt64(bytes.count), fields[2] == UInt64(reference.generation) else {
          return nil
        }
        return .offset(Int(fields[1]))
      case 2:
        guard reference.generation == 0, fields[1] <= UInt64(UInt32.max),
          fields[2] < UInt64(Int32.max)
        else { return nil }
        return .compressed(stream: UInt32(fields[1]), index: Int(fields[2]))
      default: return nil
      }
    }

    /// Object `reference`'s dictionary, when the object is `N G obj`
    /// (its own number and generation), a dictionary, and `endobj`, or a
    /// dictionary of an object stream (``compressedDictionary(_:stream:index:in:)``).
    mutating func dictionary(at sections: [Section], _ reference: Reference) -> [String: Value]? {
      written = [:]
      switch location(of: reference, in: sections) {
      case .offset(let offset)?:
        at = offset
        guard unsigned() == Int(reference.number), unsigned() == Int(reference.generation),
          expect("obj"), case .dictionary(let entries)? = value(depth: 0), expect("endobj")
        else { return nil }
        return entries
      case .compressed(let stream, let index)?:
        return compressedDictionary(reference, stream: stream, index: index, in: sections)
      case nil: return nil
      }
    }

    /// Object `reference`'s dictionary, the `index`th object of object
    /// stream `stream`: a plain object (`N 0 obj << /Type /ObjStm /N … /First
    /// … >> stream … endstream endobj`) whose header's pair `index` names
    /// `reference`, and whose bytes from that pair's offset to the next
    /// pair's (or the end) are a dictionary and white space. Only the
    /// header and that object's bytes are kept as the stream is decoded.
    mutating func compressedDictionary(
      _ reference: Reference, stream: UInt32, index: Int, in sections: [Section]
    ) -> [String: Value]? {
      let container = Reference(number: stream, generation: 0)
      guard case .offset(let offset)? = location(of: container, in: sections) else { return nil }
      at = offset
      guard unsigned() == Int(stream), unsigned() == 0, expect("obj"),
        case .dictionary(let entries)? = value(depth: 0),
        entries["/Type"] == .name("/ObjStm"),
        case .integer(let n)? = entries["/N"], case .integer(let first)? = entries["/First"],
        index < n, let data = streamData(entries), expect("endobj"),
        // Each pair of the header is two numbers of at most 15 digits
        // (``unsigned()``) and a space after each.
        n <= first, first <= n * 32
      else { return nil }
      var header: [UInt8] = []
      var object: [UInt8] = []
      var span: Range<Int>? = nil
      var failed = false
      var position = 0
      let decoded = decode(data, limit: PDFEditor.maxDecodedContentBytes) { byte in
        defer { position += 1 }
        if position < first {
          header.append(byte)
          guard position + 1 == first else { return }
          span = header.withUnsafeBytes { Self.span(ofObject: index, n: n, header: $0) }
          if span == nil { failed = true }
        } else if !failed, let span, span.contains(position - first) {
          object.append(byte)
        }
      }
      guard let decoded, decoded >= first, !failed, let span,
        header.withUnsafeBytes({ Self.number(ofObject: index, header: $0) })
          == Int(reference.number),
        span.upperBound == Int.max || object.count == span.count
      else { return nil }
      return object.withUnsafeBytes { body -> [String: Value]? in
        var inner = Reader(bytes: body)
        guard case .dictionary(let entries)? = inner.value(depth: 0) else { return nil }
        inner.skipSpace()
        guard inner.at == body.count else { return nil }
        written = inner.written
        return entries
      }
    }

    /// The bytes of object `index` of an object stream whose header (`n`
    /// pairs of an object number and an offset from the header's end) is
    /// `header`: from its offset to the next one's (`Int.max` for the
    /// last); `nil` when the header is not `n` such pairs or the offsets do
    /// not grow.
    static func span(ofObject index: Int, n: Int, header: UnsafeRawBufferPointer) -> Range<Int>? {
      var reader = Reader(bytes: header)
      var previous = -1
      var span: Range<Int>? = nil
      for pair in 0..<n {
        guard reader.unsigned() != nil, let offset = reader.unsigned(), offset > previous
        else { return nil }
        if pair == index + 1, let start = span?.lowerBound { span = start..<offset }
        if pair == index { span = offset..<Int.max }
        previous = offset
      }
      reader.skipSpace()
      return reader.at == header.count ? span : nil
    }

    /// The object number of pair `index` of an object stream's header.
    static func number(ofObject index: Int, header: UnsafeRawBufferPointer) -> Int? {
      var reader = Reader(bytes: header)
      for _ in 0..<index {
        guard reader.unsigned() != nil, reader.unsigned() != nil else { return nil }
      }
      return reader.unsigned()
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
            if depth == 0 { written[key] = Array(bytes[start..<at]) }
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
