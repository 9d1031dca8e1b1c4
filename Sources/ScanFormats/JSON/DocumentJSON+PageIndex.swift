import Foundation
import ScanModel

extension DocumentJSON {
  /// Where one page's JSON lies in a document file.
  struct PageSpan: Sendable, Equatable {
    var offset: Int
    var length: Int
  }

  /// A ScanText JSON document's outline found in one pass over its bytes,
  /// a block at a time: its version (checked), its generator, and where
  /// each item of `pages` starts and ends. The members around the pages
  /// are checked as strictly as ``JSONValue`` parses (structure, a key
  /// given twice); a page's own text is only skipped here (strings and
  /// brackets followed) and is parsed when the page is decoded, so an
  /// error inside it names that page.
  struct PageIndex {
    var pages: [PageSpan] = []
    var generator: Generator?

    /// The largest member other than `pages` read (`generator` is a name,
    /// a version and a few options).
    static let memberLimit = 16 << 20

    /// - Throws: ``DocumentFormatError`` for a file that is not a ScanText
    ///   JSON document of this version.
    init(_ bytes: some RandomAccessBytes, blockSize: Int = 1 << 20) throws {
      var scanner = Scanner(bytes, blockSize: max(1, blockSize))
      func fail(_ reason: String) -> DocumentFormatError {
        DocumentFormatError(
          path: "", reason: "invalid JSON at byte \(scanner.position): \(reason)")
      }
      try scanner.skipSpace()
      guard try scanner.peek() == UInt8(ascii: "{") else {
        throw fail("a ScanText document is a JSON object")
      }
      _ = try scanner.next()
      var keys: Set<String> = []
      var version: JSONValue?
      var first = true
      while true {
        try scanner.skipSpace()
        if first, try scanner.peek() == UInt8(ascii: "}") {
          _ = try scanner.next()
          break
        }
        first = false
        let key = try scanner.string()
        guard keys.insert(key).inserted else { throw fail("the key \"\(key)\" is repeated") }
        try scanner.skipSpace()
        guard try scanner.peek() == UInt8(ascii: ":") else { throw fail("expected ':'") }
        _ = try scanner.next()
        try scanner.skipSpace()
        switch key {
        case "pages":
          guard try scanner.peek() == UInt8(ascii: "[") else {
            throw DocumentFormatError(path: "", reason: "'pages' must be an array")
          }
          _ = try scanner.next()
          try scanner.skipSpace()
          if try scanner.peek() == UInt8(ascii: "]") {
            _ = try scanner.next()
          } else {
            while true {
              try scanner.skipSpace()
              let start = scanner.position
              try scanner.skipValue(outerDepth: 2)
              pages.append(PageSpan(offset: start, length: scanner.position - start))
              try scanner.skipSpace()
              let c = try scanner.peek()
              guard c == UInt8(ascii: "]") || c == UInt8(ascii: ",") else {
                throw fail("expected ',' or ']' after a page")
              }
              _ = try scanner.next()
              if c == UInt8(ascii: "]") { break }
            }
          }
        default:
          // Every other member is parsed (as the whole-file reader would:
          // a bad number or string there is refused all the same).
          let start = scanner.position
          try scanner.skipValue(outerDepth: 1)
          let length = scanner.position - start
          guard length <= Self.memberLimit else {
            throw fail("'\(key)' is longer than \(Self.memberLimit) bytes")
          }
          let text = try bytes.read(offset: start, count: length)
          let value: JSONValue
          do {
            value = try text.withUnsafeBufferPointer { buffer throws(JSONParseError) in
              var parser = JSONParser(bytes: buffer, depth: 1)
              return try parser.parseDocument()
            }
          } catch {
            throw fail("in '\(key)': \(error.reason)")
          }
          if key == "version" { version = value }
          if key == "generator" {
            generator = DocumentJSON.generator(of: .object(["generator": value]))
          }
        }
        try scanner.skipSpace()
        let c = try scanner.peek()
        guard c == UInt8(ascii: "}") || c == UInt8(ascii: ",") else {
          throw fail("expected ',' or '}'")
        }
        _ = try scanner.next()
        if c == UInt8(ascii: "}") { break }
      }
      try scanner.skipSpace()
      guard scanner.atEnd else { throw fail("unexpected text after the value") }
      guard let version else {
        throw DocumentFormatError(path: "", reason: "missing key 'version'")
      }
      guard let n = version.intValue else {
        throw DocumentFormatError(path: "", reason: "'version' must be an integer")
      }
      guard n == DocumentJSON.version else {
        throw DocumentFormatError(
          path: "",
          reason: "unsupported version \(n) (this tool reads version \(DocumentJSON.version))")
      }
      guard keys.contains("pages") else {
        throw DocumentFormatError(path: "", reason: "missing key 'pages'")
      }
    }
  }

  /// Reads a ScanText JSON document from its bytes a page at a time: the
  /// pages found by one pass (`PageIndex`), each parsed and decoded on
  /// its own, so no tree of the whole document is ever built (what
  /// ``decode(_:)-(Data)`` builds). Standard input and cache entries are
  /// read this way.
  /// - Throws: ``DocumentFormatError`` naming the page (`pages[i]…`) or
  ///   the byte and the reason.
  /// - Complexity: O(*n*) in the bytes.
  public static func decodePageByPage(_ data: Data) throws -> Document {
    try PagedDocument(json: DataBytes(data), maxPagesInMemory: 1).document()
  }

  /// Page `index` of a JSON document, read from `span` and decoded.
  /// - Throws: ``DocumentFormatError`` whose path starts `pages[index]`.
  static func page(_ index: Int, of bytes: some RandomAccessBytes, span: PageSpan) throws -> Page {
    let text = try bytes.read(offset: span.offset, count: span.length)
    let value: JSONValue
    do {
      value = try text.withUnsafeBufferPointer { buffer throws(JSONParseError) in
        var parser = JSONParser(bytes: buffer, depth: 2)
        return try parser.parseDocument()
      }
    } catch {
      throw DocumentFormatError(
        path: "pages[\(index)]",
        reason: "invalid JSON at byte \(span.offset + error.offset): \(error.reason)")
    }
    return try decodePage(value, index: index)
  }
}

/// Reads a file's bytes in order, a block at a time, for ``DocumentJSON/PageIndex``.
private struct Scanner<Bytes: RandomAccessBytes> {
  let bytes: Bytes
  private var block: [UInt8] = []
  private var blockStart = 0
  private var i = 0
  /// The most nested a value may be (as ``JSONValue``'s parser allows).
  static var maxDepth: Int { 512 }
  /// How much is read at a time.
  let blockSize: Int

  init(_ bytes: Bytes, blockSize: Int) {
    self.bytes = bytes
    self.blockSize = blockSize
  }

  var position: Int { blockStart + i }
  var atEnd: Bool { position >= bytes.count }

  func fail(_ reason: String) -> DocumentFormatError {
    DocumentFormatError(path: "", reason: "invalid JSON at byte \(position): \(reason)")
  }

  /// Makes `i` index a byte of the block, reading the next block when the
  /// current one is used up; false at the end of the file.
  private mutating func fill() throws -> Bool {
    if i < block.count { return true }
    blockStart += block.count
    i = 0
    let n = min(blockSize, bytes.count - blockStart)
    guard n > 0 else {
      block = []
      return false
    }
    block = try bytes.read(offset: blockStart, count: n)
    return true
  }

  mutating func peek() throws -> UInt8 {
    guard try fill() else { throw fail("unexpected end of input") }
    return block[i]
  }

  mutating func next() throws -> UInt8 {
    let c = try peek()
    i += 1
    return c
  }

  mutating func skipSpace() throws {
    while try fill() {
      switch block[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  /// A key: a string without escapes needed by ScanText's keys (escapes
  /// are decoded through ``JSONValue`` when present).
  mutating func string() throws -> String {
    let start = position
    guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a key") }
    try skipString()
    let text = try bytes.read(offset: start, count: position - start)
    let value = try text.withUnsafeBufferPointer { try JSONValue(parsing: $0) }
    return value.stringValue ?? ""
  }

  /// Skips a string from its opening quote to past its closing quote.
  private mutating func skipString() throws {
    i += 1
    while try fill() {
      // The block's bytes up to the next quote or backslash.
      i = block.withUnsafeBufferPointer { b -> Int in
        var k = i
        while k < b.count, b[k] != UInt8(ascii: "\""), b[k] != UInt8(ascii: "\\") { k += 1 }
        return k
      }
      // The block ended first: go on in the next.
      guard i < block.count else { continue }
      if block[i] == UInt8(ascii: "\"") {
        i += 1
        return
      }
      // A backslash: skip it and the byte it escapes (which may begin the
      // next block).
      i += 1
      guard try fill() else { break }
      i += 1
    }
    throw fail("unexpected end of input in a string")
  }

  /// Skips one value: an object or array to its matching bracket (strings
  /// followed, so brackets inside them do not count), or a scalar to the
  /// next delimiter.
  mutating func skipValue(outerDepth: Int) throws {
    let first = try peek()
    switch first {
    case UInt8(ascii: "\""):
      try skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while try fill() {
        let c = block[i]
        switch c {
        case UInt8(ascii: "\""):
          try skipString()
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          guard outerDepth + depth <= Self.maxDepth else {
            throw fail("nesting is deeper than \(Self.maxDepth) levels")
          }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            i += 1
            return
          }
        default:
          break
        }
        i += 1
      }
      throw fail("unexpected end of input")
    case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
      throw fail("expected a value")
    default:
      let start = position
      while try fill() {
        switch block[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
          guard position > start else { throw fail("expected a value") }
          return
        default:
          i += 1
        }
      }
    }
  }
}
