/// A PDF content stream read as its operations (ISO 32000-1, 7.2 lexical
/// conventions and 7.8.2 content streams): what `--redo-ocr` needs to find
/// an earlier invisible text layer and take it out, byte for byte leaving
/// everything else.
///
/// The tokenizer knows numbers, names (with `#xx` escapes), literal strings
/// (escapes, octal codes, balanced parentheses), hex strings, arrays,
/// dictionaries, `true`/`false`/`null`, comments and operators; an inline
/// image (`BI … ID data EI`) is one operation whose operand is its
/// dictionary and whose data is skipped (its end
/// is the first `EI` with white space before it and white space, a
/// delimiter or the end after it). Malformed input never traps: an
/// unterminated string or array ends the stream, a stray closing delimiter
/// is dropped.
///
/// Text is invisible when it is shown in text render mode 3 (neither fill
/// nor stroke) or 7 (clip only), the modes OCR layers use. The render mode
/// (`Tr`) belongs to the graphics state: `q` saves it, `Q` restores it,
/// `BT`/`ET` leave it, and a form XObject starts with the mode in effect
/// where it is drawn (`Do`).
public struct PDFContentStream: Sendable, Equatable {
  /// An operand of an operation.
  public enum Operand: Sendable, Equatable {
    case number(Double)
    /// A name, without its slash, `#xx` escapes decoded.
    case name(String)
    /// A literal or hex string's bytes.
    case string([UInt8])
    case array([Operand])
    /// A dictionary's entries in their order (keys without the slash).
    case dictionary([(key: String, value: Operand)])
    case boolean(Bool)
    case null

    public static func == (a: Operand, b: Operand) -> Bool {
      switch (a, b) {
      case (.number(let x), .number(let y)): return x == y
      case (.name(let x), .name(let y)): return x == y
      case (.string(let x), .string(let y)): return x == y
      case (.array(let x), .array(let y)): return x == y
      case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count
          && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
      case (.boolean(let x), .boolean(let y)): return x == y
      case (.null, .null): return true
      default: return false
      }
    }
  }

  /// One operator with its operands.
  public struct Operation: Sendable, Equatable {
    /// The operator (`Tj`, `cm`, `BI` for an inline image).
    public var `operator`: String
    /// The operands in order (for `BI`: the image's dictionary, its keys as
    /// written, abbreviated or not; its data is skipped).
    public var operands: [Operand]
    /// The bytes from the first operand (or the operator) to the end of the
    /// operator (for an inline image: from `BI` to the end of `EI`).
    public var range: Range<Int>
  }

  /// What text a page or stream shows.
  public enum TextKind: Sendable, Equatable, CaseIterable {
    /// No text is shown (or only empty strings).
    case noText
    /// Only invisible text (render mode 3 or 7): an OCR layer.
    case invisibleOnly
    /// Only visible text (born-digital text).
    case visibleOnly
    /// Both: visible text and an invisible layer.
    case both

    /// Whether visible or invisible text is shown.
    public var hasVisible: Bool { self == .visibleOnly || self == .both }
    public var hasInvisible: Bool { self == .invisibleOnly || self == .both }

    /// The kind of text two streams show together.
    public func combined(with other: TextKind) -> TextKind {
      TextKind(
        visible: hasVisible || other.hasVisible, invisible: hasInvisible || other.hasInvisible)
    }

    /// The kind made of whether visible and invisible text is shown.
    public init(visible: Bool, invisible: Bool) {
      switch (visible, invisible) {
      case (false, false): self = .noText
      case (false, true): self = .invisibleOnly
      case (true, false): self = .visibleOnly
      case (true, true): self = .both
      }
    }
  }

  /// A text-showing operation (`Tj`, `TJ`, `'`, `"`) and the render mode
  /// it is shown in.
  public struct ShownText: Sendable, Equatable {
    /// The operation's index in ``operations``.
    public var operation: Int
    /// The text render mode in effect (0–7).
    public var renderMode: Int
    /// Whether its strings are all empty (nothing is shown).
    public var isEmpty: Bool
    /// Whether the mode is 3 or 7: the text is not painted.
    public var isInvisible: Bool { renderMode == 3 || renderMode == 7 }
  }

  /// An XObject drawn (`Do`) and the render mode in effect there, which a
  /// form XObject's content starts with.
  public struct DrawnObject: Sendable, Equatable {
    /// The operation's index in ``operations``.
    public var operation: Int
    /// The XObject's name in the resources, without the slash.
    public var name: String
    public var renderMode: Int
  }

  /// The stream's bytes.
  public let bytes: [UInt8]
  /// The operations in order.
  public let operations: [Operation]

  /// Reads a content stream (its bytes decoded: no filter left).
  /// - Complexity: O(*n*) in the bytes.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var reader = Reader(bytes: bytes)
    operations = reader.operations()
  }

  /// The text-showing operations and the XObjects drawn, with the render
  /// mode in effect at each.
  /// - Parameter renderMode: The mode in effect where the stream starts (0
  ///   for a page; the drawing operation's for a form XObject).
  /// - Complexity: O(*n*) in the operations.
  public func text(startingIn renderMode: Int = 0) -> (shown: [ShownText], drawn: [DrawnObject]) {
    var mode = renderMode
    var saved: [Int] = []
    var shown: [ShownText] = []
    var drawn: [DrawnObject] = []
    for (i, operation) in operations.enumerated() {
      switch operation.operator {
      case "q": saved.append(mode)
      case "Q": if let restored = saved.popLast() { mode = restored }
      case "Tr":
        if case .number(let value)? = operation.operands.last, value.isFinite,
          (0...7).contains(value)
        {
          mode = Int(value)
        }
      case "Tj", "TJ", "'", "\"":
        shown.append(
          ShownText(
            operation: i, renderMode: mode, isEmpty: Self.showsNothing(operation.operands.last)))
      case "Do":
        if case .name(let name)? = operation.operands.last {
          drawn.append(DrawnObject(operation: i, name: name, renderMode: mode))
        }
      default: break
      }
    }
    return (shown, drawn)
  }

  /// The size each inline image of the stream claims (`/W` and `/H`, or
  /// `/Width` and `/Height`), in pixels, in order; a size missing or not a
  /// number is 0. Nothing is decoded: an image claiming more pixels than
  /// its data holds is found by what it claims (issue 45: 100,000 ×
  /// 100,000 pixels in 1 kB kept Poppler busy for minutes).
  /// - Complexity: O(*n*) in the operations.
  public var inlineImageSizes: [(width: Double, height: Double)] {
    operations.compactMap { operation in
      guard operation.operator == "BI", case .dictionary(let entries)? = operation.operands.first
      else { return nil }
      func value(_ keys: String...) -> Double {
        for entry in entries where keys.contains(entry.key) {
          if case .number(let number) = entry.value, number.isFinite { return max(0, number) }
        }
        return 0
      }
      return (value("W", "Width"), value("H", "Height"))
    }
  }

  /// What text the stream itself shows (not counting the XObjects it draws).
  /// - Complexity: O(*n*) in the operations.
  public func textKind(startingIn renderMode: Int = 0) -> TextKind {
    let shown = text(startingIn: renderMode).shown.filter { !$0.isEmpty }
    return TextKind(
      visible: shown.contains { !$0.isInvisible }, invisible: shown.contains(where: \.isInvisible))
  }

  /// The stream without its invisible text: every text-showing operation in
  /// render mode 3 or 7 is taken out (`'` becomes `T*`, and `aw ac string "`
  /// becomes `aw Tw ac Tc T*`, so the lines after it stay where they were);
  /// every other byte is kept. `nil` when there is no invisible text.
  /// - Parameter renderMode: The mode in effect where the stream starts.
  /// - Complexity: O(*n*) in the bytes.
  public func removingInvisibleText(startingIn renderMode: Int = 0) -> [UInt8]? {
    let invisible = text(startingIn: renderMode).shown.filter(\.isInvisible)
    guard !invisible.isEmpty else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var cursor = 0
    for shown in invisible {
      let operation = operations[shown.operation]
      out += bytes[cursor..<operation.range.lowerBound]
      var replacement = " "
      switch operation.operator {
      case "'": replacement = " T* "
      case "\"":
        let numbers = operation.operands.prefix(2).compactMap { operand -> String? in
          if case .number(let value) = operand { return Self.number(value) }
          return nil
        }
        if numbers.count == 2 { replacement = " \(numbers[0]) Tw \(numbers[1]) Tc T* " }
      default: break
      }
      out += Array(replacement.utf8)
      cursor = operation.range.upperBound
    }
    out += bytes[cursor...]
    return out
  }

  /// The nesting of `q`/`Q` the stream leaves open: how many `Q` would
  /// close the states it saved and did not restore (0 when balanced).
  public var unclosedSaves: Int {
    var depth = 0
    for operation in operations {
      if operation.operator == "q" {
        depth += 1
      } else if operation.operator == "Q" {
        depth = max(0, depth - 1)
      }
    }
    return depth
  }

  static func showsNothing(_ operand: Operand?) -> Bool {
    switch operand {
    case .string(let bytes)?: return bytes.isEmpty
    case .array(let items)?:
      return !items.contains {
        if case .string(let bytes) = $0 { return !bytes.isEmpty }
        return false
      }
    default: return true
    }
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// The tokenizer.
private struct Reader {
  let bytes: [UInt8]
  var at = 0

  static func isWhite(_ b: UInt8) -> Bool {
    b == 0 || b == 9 || b == 10 || b == 12 || b == 13 || b == 32
  }

  static func isDelimiter(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
      UInt8(ascii: "/"), UInt8(ascii: "%"):
      return true
    default: return false
    }
  }

  static func isRegular(_ b: UInt8) -> Bool { !isWhite(b) && !isDelimiter(b) }

  enum Token {
    case operand(PDFContentStream.Operand)
    case arrayStart, arrayEnd, dictionaryStart, dictionaryEnd
    case keyword(String)
  }

  /// Skips white space and comments.
  mutating func skipSpace() {
    while at < bytes.count {
      let b = bytes[at]
      if Self.isWhite(b) {
        at += 1
      } else if b == UInt8(ascii: "%") {
        while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 }
      } else {
        return
      }
    }
  }

  /// The next token, or `nil` at the end.
  mutating func token() -> Token? {
    skipSpace()
    guard at < bytes.count else { return nil }
    let b = bytes[at]
    switch b {
    case UInt8(ascii: "("): return .operand(.string(literalString()))
    case UInt8(ascii: "<"):
      if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") {
        at += 2
        return .dictionaryStart
      }
      return .operand(.string(hexString()))
    case UInt8(ascii: ">"):
      at += at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: ">") ? 2 : 1
      return .dictionaryEnd
    case UInt8(ascii: "["):
      at += 1
      return .arrayStart
    case UInt8(ascii: "]"):
      at += 1
      return .arrayEnd
    case UInt8(ascii: "/"):
      at += 1
      return .operand(.name(name()))
    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ")"):
      // Not content-stream syntax: taken as a keyword of its own.
      at += 1
      return .keyword(String(UnicodeScalar(b)))
    default:
      let start = at
      while at < bytes.count, Self.isRegular(bytes[at]) { at += 1 }
      let word = bytes[start..<at]
      if let value = Self.number(word) { return .operand(.number(value)) }
      let text = String(decoding: word, as: UTF8.self)
      switch text {
      case "true": return .operand(.boolean(true))
      case "false": return .operand(.boolean(false))
      case "null": return .operand(.null)
      default: return .keyword(text)
      }
    }
  }

  static func number(_ word: ArraySlice<UInt8>) -> Double? {
    var sawDigit = false
    var sawPoint = false
    for (i, b) in word.enumerated() {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: "."):
        if sawPoint { return nil }
        sawPoint = true
      case UInt8(ascii: "+"), UInt8(ascii: "-"): if i != 0 { return nil }
      default: return nil
      }
    }
    guard sawDigit else { return nil }
    return Double(String(decoding: word, as: UTF8.self))
      ?? Double("0" + String(decoding: word, as: UTF8.self))
  }

  mutating func name() -> String {
    var out: [UInt8] = []
    while at < bytes.count, Self.isRegular(bytes[at]) {
      if bytes[at] == UInt8(ascii: "#"), at + 2 < bytes.count,
        let high = Self.hexValue(bytes[at + 1]), let low = Self.hexValue(bytes[at + 2])
      {
        out.append(high << 4 | low)
        at += 3
      } else {
        out.append(bytes[at])
        at += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// A literal string from its `(` to its matching `)`.
  mutating func literalString() -> [UInt8] {
    at += 1
    var out: [UInt8] = []
    var depth = 1
    while at < bytes.count {
      let b = bytes[at]
      at += 1
      switch b {
      case UInt8(ascii: "("):
        depth += 1
        out.append(b)
      case UInt8(ascii: ")"):
        depth -= 1
        if depth == 0 { return out }
        out.append(b)
      case UInt8(ascii: "\\"):
        guard at < bytes.count else { return out }
        let e = bytes[at]
        at += 1
        switch e {
        case UInt8(ascii: "n"): out.append(10)
        case UInt8(ascii: "r"): out.append(13)
        case UInt8(ascii: "t"): out.append(9)
        case UInt8(ascii: "b"): out.append(8)
        case UInt8(ascii: "f"): out.append(12)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
          var value = Int(e - UInt8(ascii: "0"))
          for _ in 0..<2 {
            guard at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[at])
            else { break }
            value = value * 8 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
          }
          out.append(UInt8(truncatingIfNeeded: value))
        case 13:
          // A line continuation: the backslash and the end of line vanish.
          if at < bytes.count, bytes[at] == 10 { at += 1 }
        case 10: break
        default: out.append(e)
        }
      default: out.append(b)
      }
    }
    return out
  }

  /// A hex string from its `<` to its `>`; an odd last digit is followed
  /// by 0, white space is ignored.
  mutating func hexString() -> [UInt8] {
    at += 1
    var out: [UInt8] = []
    var high: UInt8?
    while at < bytes.count {
      let b = bytes[at]
      at += 1
      if b == UInt8(ascii: ">") { break }
      guard let value = Self.hexValue(b) else { continue }
      if let h = high {
        out.append(h << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    if let h = high { out.append(h << 4) }
    return out
  }

  /// Reads an inline image's dictionary after `BI` and skips its data, up
  /// to the end of its `EI`; returns the dictionary.
  mutating func skipInlineImage() -> [(key: String, value: PDFContentStream.Operand)] {
    // The dictionary: tokens up to the keyword ID.
    var items: [PDFContentStream.Operand] = []
    reading: while let t = token() {
      switch t {
      case .operand(let o): items.append(o)
      case .arrayStart: items.append(.array(self.items(ofDictionary: false)))
      case .dictionaryStart: items.append(.dictionary(Self.pairs(self.items(ofDictionary: true))))
      case .arrayEnd, .dictionaryEnd: continue
      case .keyword(let word): if word == "ID" { break reading }
      }
    }
    let dictionary = Self.pairs(items)
    // One white-space byte separates ID from the data.
    at += 1
    var i = at
    while i + 1 < bytes.count {
      if bytes[i] == UInt8(ascii: "E"), bytes[i + 1] == UInt8(ascii: "I"), i > at,
        Self.isWhite(bytes[i - 1]),
        i + 2 == bytes.count || Self.isWhite(bytes[i + 2]) || Self.isDelimiter(bytes[i + 2])
      {
        at = i + 2
        return dictionary
      }
      i += 1
    }
    at = bytes.count
    return dictionary
  }

  /// Reads the items of an array after its `[`, or of a dictionary after
  /// its `<<`, up to the delimiter that closes it.
  mutating func items(ofDictionary dictionary: Bool) -> [PDFContentStream.Operand] {
    var items: [PDFContentStream.Operand] = []
    while let t = token() {
      switch t {
      case .operand(let o): items.append(o)
      case .arrayStart: items.append(.array(self.items(ofDictionary: false)))
      case .dictionaryStart:
        items.append(.dictionary(Self.pairs(self.items(ofDictionary: true))))
      case .arrayEnd: if !dictionary { return items }
      case .dictionaryEnd: if dictionary { return items }
      case .keyword: continue
      }
    }
    return items
  }

  static func pairs(_ items: [PDFContentStream.Operand]) -> [(
    key: String, value: PDFContentStream.Operand
  )] {
    stride(from: 0, to: items.count - 1, by: 2).compactMap { i in
      guard case .name(let key) = items[i] else { return nil }
      return (key, items[i + 1])
    }
  }

  mutating func operations() -> [PDFContentStream.Operation] {
    var out: [PDFContentStream.Operation] = []
    var operands: [PDFContentStream.Operand] = []
    var start: Int?
    while true {
      skipSpace()
      let tokenStart = at
      guard let t = token() else { break }
      if start == nil { start = tokenStart }
      switch t {
      case .operand(let o): operands.append(o)
      case .arrayStart: operands.append(.array(items(ofDictionary: false)))
      case .dictionaryStart: operands.append(.dictionary(Self.pairs(items(ofDictionary: true))))
      case .arrayEnd, .dictionaryEnd:
        // A stray closing delimiter.
        continue
      case .keyword(let word):
        if word == "BI" { operands = [.dictionary(skipInlineImage())] }
        out.append(
          PDFContentStream.Operation(
            operator: word, operands: operands, range: (start ?? tokenStart)..<at))
        operands = []
        start = nil
      }
    }
    return out
  }
}
