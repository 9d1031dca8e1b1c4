/// A JSON value, with a strict parser and a deterministic writer (sorted
/// keys, two-space indent, arrays of scalars kept on one line).
///
/// Written by hand because Foundation's `JSONSerialization` is slow for the
/// one-request-per-line query protocol and its pretty printer puts every
/// number of a box on its own line.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  /// An integer a `Double` may not hold exactly (from ±2^53 on, such as a
  /// request's 64-bit `id`), kept exact: the parser makes one only for
  /// such integers; every other number is a ``number(_:)``.
  case integer(Int64)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The member named `key` of an object, else `nil`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let o) = self { return o[key] }
    return nil
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The number, if this is one.
  public var doubleValue: Double? {
    switch self {
    case .number(let n): n
    case .integer(let n): Double(n)
    default: nil
    }
  }

  /// The number as an `Int` when it is integral and in range.
  public var intValue: Int? {
    guard let n = doubleValue, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
    return Int(n)
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The Boolean, if this is one.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }
}

// MARK: - Writing

extension JSONValue {
  /// The value as JSON text: compact on one line, or pretty with sorted keys
  /// and two-space indentation (arrays of scalars stay on one line).
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    out.reserveCapacity(256)
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  /// The value as pretty JSON text nested `depth` levels deep: its first
  /// line not indented, the others by two spaces a level more. This is how
  /// ``serialized(pretty:)`` writes an element of an array of objects at
  /// that depth, so a writer can write such an array an element at a time
  /// (`"[\n  "`, the elements at depth 1 joined by `",\n  "`, `"\n]"`).
  /// - Parameter depth: The nesting level (0 for a value on its own).
  /// - Complexity: O(*n*) in the value's size.
  public func serialized(prettyAtDepth depth: Int) -> String {
    var out = ""
    write(to: &out, pretty: true, indent: max(0, depth))
    return out
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): Self.writeNumber(n, to: &out)
    case .integer(let n): out += String(n)
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      let inline =
        !pretty
        || items.allSatisfy {
          $0.isScalar || ($0.arrayValue?.allSatisfy(\.isScalar) ?? false)
        }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += inline && pretty ? ", " : "," }
        if !inline { Self.newline(&out, indent + 1) }
        item.write(to: &out, pretty: pretty && !inline, indent: indent + 1)
      }
      if !inline { Self.newline(&out, indent) }
      out += "]"
    case .object(let members):
      var marks: [String: Range<Int>] = [:]
      Self.writeObject(members, to: &out, pretty: pretty, indent: indent, marking: [], at: &marks)
    }
  }

  /// Writes an object's members, as ``write(to:pretty:indent:)`` does,
  /// and records where the values of the members named in `keys` are in
  /// `out` (UTF-8 offsets), so that they can be replaced without writing
  /// the object again (``DocumentJSON/PageText``).
  static func writeObject(
    _ members: [String: JSONValue], to out: inout String, pretty: Bool, indent: Int,
    marking keys: Set<String>, at marks: inout [String: Range<Int>]
  ) {
    if members.isEmpty {
      out += "{}"
      return
    }
    out += "{"
    for (i, key) in members.keys.sorted().enumerated() {
      if i > 0 { out += "," }
      if pretty { Self.newline(&out, indent + 1) }
      Self.writeString(key, to: &out)
      out += pretty ? ": " : ":"
      let start = out.utf8.count
      members[key, default: .null].write(to: &out, pretty: pretty, indent: indent + 1)
      if keys.contains(key) { marks[key] = start..<out.utf8.count }
    }
    if pretty { Self.newline(&out, indent) }
    out += "}"
  }

  private static func newline(_ out: inout String, _ indent: Int) {
    out += "\n"
    out += String(repeating: "  ", count: indent)
  }

  static func writeNumber(_ n: Double, to out: inout String) {
    if n.isNaN || n.isInfinite {
      out += "null"
    } else if n.rounded() == n && abs(n) < 1e15 {
      out += String(Int(n))
    } else {
      out += "\(n)"
    }
  }

  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    // Most strings need no escape: append them whole.
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

// MARK: - Parsing

/// Why a JSON text could not be parsed: the reason and the byte offset.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var reason: String
  /// The byte offset where parsing stopped.
  public var offset: Int
  public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
  /// Parses JSON text (RFC 8259), strictly: nesting deeper than 512 levels,
  /// a key repeated in an object, a number too large for a `Double` (such
  /// as `1e999`) and invalid UTF-8 in a string are refused.
  public init(parsing text: String) throws(JSONParseError) {
    var copy = text
    let result: Result<JSONValue, JSONParseError> = copy.withUTF8 { bytes in
      var parser = JSONParser(bytes: bytes)
      do throws(JSONParseError) {
        return .success(try parser.parseDocument())
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  /// Parses JSON from UTF-8 bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
    var parser = JSONParser(bytes: bytes)
    self = try parser.parseDocument()
  }
}

struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  var depth = 0

  /// A parser of `bytes`; `depth` is the nesting of the value inside the
  /// document it is part of (a page of a document's `pages`: 2), counted
  /// against the limit as the whole document's parse would count it.
  init(bytes: UnsafeBufferPointer<UInt8>, depth: Int = 0) {
    self.bytes = bytes
    self.depth = depth
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipSpace()
    guard i == bytes.count else { throw fail("unexpected text after the value") }
    return value
  }

  private func fail(_ reason: String) -> JSONParseError {
    JSONParseError(reason: reason, offset: i)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    skipSpace()
    guard i < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return try parseNumber()
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError)
    -> JSONValue
  {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count else { throw fail("unexpected end of input") }
    for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
      throw fail("unexpected character")
    }
    i += n
    return value
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    if depth > 512 { throw fail("nesting too deep") }
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var members: [String: JSONValue] = [:]
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
      let keyOffset = i
      let key = try parseString()
      // Strict: a repeated key is refused (RFC 8259 leaves its meaning open).
      if members[key] != nil {
        throw JSONParseError(reason: "duplicate key \"\(key)\"", offset: keyOffset)
      }
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      i += 1
      members[key] = try parseValue()
      skipSpace()
      guard i < bytes.count else { throw fail("unexpected end of input") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "}") {
        i += 1
        return .object(members)
      } else {
        throw fail("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [JSONValue] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      return .array(items)
    }
    while true {
      items.append(try parseValue())
      skipSpace()
      guard i < bytes.count else { throw fail("unexpected end of input") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "]") {
        i += 1
        return .array(items)
      } else {
        throw fail("expected ',' or ']'")
      }
    }
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    i += 1
    let start = i
    // Fast path: no escapes.
    while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
      if bytes[i] < 0x20 { throw fail("control character in string") }
      i += 1
    }
    guard i < bytes.count else { throw fail("unterminated string") }
    var units = Array(bytes[start..<i])
    while bytes[i] != UInt8(ascii: "\"") {
      // An escape.
      i += 1
      guard i < bytes.count else { throw fail("unterminated string") }
      switch bytes[i] {
      case UInt8(ascii: "\""): units.append(0x22)
      case UInt8(ascii: "\\"): units.append(0x5C)
      case UInt8(ascii: "/"): units.append(0x2F)
      case UInt8(ascii: "b"): units.append(0x08)
      case UInt8(ascii: "f"): units.append(0x0C)
      case UInt8(ascii: "n"): units.append(0x0A)
      case UInt8(ascii: "r"): units.append(0x0D)
      case UInt8(ascii: "t"): units.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"),
            bytes[i + 2] == UInt8(ascii: "u")
          else { throw fail("unpaired surrogate") }
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw fail("unpaired surrogate")
        }
        guard let s = Unicode.Scalar(scalar) else { throw fail("invalid escape") }
        units.append(contentsOf: Array(String(Character(s)).utf8))
      default: throw fail("invalid escape")
      }
      i += 1
      while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
        if bytes[i] < 0x20 { throw fail("control character in string") }
        units.append(bytes[i])
        i += 1
      }
      guard i < bytes.count else { throw fail("unterminated string") }
    }
    i += 1
    guard let s = String(validating: units, as: UTF8.self) else {
      throw fail("invalid UTF-8 in string")
    }
    return s
  }

  private mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard i + 4 < bytes.count else { throw fail("truncated \\u escape") }
    var v: UInt32 = 0
    for k in 1...4 {
      let c = bytes[i + k]
      let d: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw fail("invalid \\u escape")
      }
      v = v << 4 | d
    }
    i += 4
    return v
  }

  /// A number: a ``JSONValue/number(_:)``, or an exact
  /// ``JSONValue/integer(_:)`` for an integer beyond ±2^53 that fits 64
  /// bits.
  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = i
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
    let digitsStart = i
    var integer: Int64 = 0
    var simple = true
    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
      if i - digitsStart < 15 {
        integer = integer * 10 + Int64(bytes[i] - 0x30)
      } else {
        simple = false
      }
      i += 1
    }
    guard i > digitsStart else { throw fail("unexpected character") }
    if bytes[digitsStart] == 0x30, i - digitsStart > 1 { throw fail("leading zero in number") }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      simple = false
      i += 1
      let fraction = i
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
      guard i > fraction else { throw fail("expected digits after '.'") }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      simple = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      let exponent = i
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
      guard i > exponent else { throw fail("expected digits in exponent") }
    }
    if simple {
      return .number(Double(bytes[start] == UInt8(ascii: "-") ? -integer : integer))
    }
    guard let text = String(validating: bytes[start..<i], as: UTF8.self), let value = Double(text)
    else { throw fail("invalid number") }
    // An integer a Double would round: kept exact when it fits.
    if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), abs(value) >= 0x1p53,
      let exact = Int64(text)
    {
      return .integer(exact)
    }
    // `1e999` would be infinity: JSON has no such number.
    guard value.isFinite else {
      throw JSONParseError(reason: "number out of range", offset: start)
    }
    return .number(value)
  }
}
