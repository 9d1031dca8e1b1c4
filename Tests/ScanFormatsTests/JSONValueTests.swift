import ScanFormats
import Testing

/// The hand-written JSON parser and writer.
@Suite struct JSONValueTests {
  func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

  func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation)
    -> JSONParseError?
  {
    #expect(throws: JSONParseError.self, sourceLocation: sourceLocation) {
      try JSONValue(parsing: text)
    }
  }

  // MARK: Strings

  /// An array of objects written an element at a time, as `lines` and
  /// the other answering commands write several pages' answers, is the
  /// array written whole.
  @Test func arrayWrittenByElementsIsTheArrayWrittenWhole() throws {
    let items: [JSONValue] = [
      .object(["a": .array([.object(["b": .number(1)])]), "page": .number(1)]),
      .object(["c": .array([.number(1), .number(2)]), "page": .number(2)]),
    ]
    let streamed =
      "[\n  " + items.map { $0.serialized(prettyAtDepth: 1) }.joined(separator: ",\n  ") + "\n]"
    #expect(streamed == JSONValue.array(items).serialized(pretty: true))
    #expect(items[0].serialized(prettyAtDepth: 0) == items[0].serialized(pretty: true))
  }

  @Test func stringEscapes() throws {
    #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
    #expect(try parse(#""\u00e9\u00C9\u0041""#) == .string("éÉA"))
    #expect(try parse(#""\u0000x""#) == .string("\u{0}x"))
    #expect(try parse(#""plain ascii""#) == .string("plain ascii"))
    #expect(try parse(#""""#) == .string(""))
    #expect(try parse(#""raw é 😀 e\#u{301}""#) == .string("raw é 😀 e\u{301}"))
    #expect(try parse(#""mixed \n raw é then \t""#) == .string("mixed \n raw é then \t"))
  }

  @Test func surrogatePairs() throws {
    #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
    #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try parse(#""x\ud83c\udde9\ud83c\uddeay""#) == .string("x🇩🇪y"))
    #expect(try parse(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
    let parsed = try parse(#""\ud83d\ude00""#).stringValue
    #expect(parsed.map { Array($0.unicodeScalars) } == ["\u{1F600}"])
  }

  @Test(arguments: [
    (#""\x""#, "invalid escape"),
    (#""\'""#, "invalid escape"),
    (#""\U0041""#, "invalid escape"),
    (#""\u12G4""#, "invalid \\u escape"),
    (#""\u12""#, "truncated \\u escape"),
    (#""\u12"#, "truncated \\u escape"),
    (#""\"#, "unterminated string"),
    (#""abc"#, "unterminated string"),
    (#""a\nb"#, "unterminated string"),
    ("\"a\nb\"", "control character in string"),
    ("\"tab\there\"", "control character in string"),
    ("\"\\n then \u{1}\"", "control character in string"),
  ])
  func invalidStrings(text: String, reason: String) throws {
    #expect(parseError(text)?.reason == reason)
  }

  @Test(arguments: [
    #""\ud83d""#,
    #""\ude00""#,
    #""\ud83d\u0041""#,
    #""\ud83dx""#,
    #""\ud83d\n""#,
    #""\ud83d\ud83d""#,
    #""\ude00\ud83d""#,
  ])
  func unpairedSurrogates(text: String) throws {
    #expect(parseError(text)?.reason == "unpaired surrogate")
  }

  @Test func invalidUTF8IsRejected() throws {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
    ] {
      let error = #expect(throws: JSONParseError.self) {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
          try JSONValue(parsing: buffer)
        }
      }
      #expect(error?.reason == "invalid UTF-8 in string")
    }
    let valid: [UInt8] = [0x5B, 0x22, 0xC3, 0xA9, 0x22, 0x5D]  // ["é"]
    let value = try valid.withUnsafeBufferPointer { buffer throws(JSONParseError) in
      try JSONValue(parsing: buffer)
    }
    #expect(value == .array([.string("é")]))
  }

  // MARK: Numbers

  @Test(arguments: [
    ("0", 0.0), ("-0", 0.0), ("-0.0", 0.0), ("7", 7), ("-12", -12), ("1.5", 1.5), ("-1.5e3", -1500),
    ("1e5", 100_000), ("1E5", 100_000), ("1e+5", 100_000), ("25e-2", 0.25), ("0.1", 0.1),
    ("0e0", 0), ("123456789012345", 123_456_789_012_345),
    ("9007199254740991", 9_007_199_254_740_991), ("9.007199254740993e15", 9_007_199_254_740_992),
    ("18446744073709551616", 1.8446744073709552e19),
    ("1.7976931348623157e308", .greatestFiniteMagnitude),
    ("5e-324", .leastNonzeroMagnitude),
  ])
  func numbers(text: String, value: Double) throws {
    #expect(try parse(text) == .number(value))
    #expect(try parse("[\(text)]") == .array([.number(value)]))
  }

  /// Integers from 2^53 on that fit 64 bits are kept exact (a query's
  /// `id`), and written back as they were.
  @Test(arguments: [
    ("1234567890123456789", 1_234_567_890_123_456_789), ("9007199254740993", 9_007_199_254_740_993),
    ("-9223372036854775808", Int64.min),
  ])
  func exactIntegers(text: String, value: Int64) throws {
    #expect(try parse(text) == .integer(value))
    #expect(try parse(text).serialized() == text)
    #expect(try parse(text).doubleValue == Double(value))
  }

  @Test func negativeZeroKeepsItsValue() throws {
    // -0 equals 0; a document never depends on the sign of zero.
    #expect(try parse("-0").doubleValue == 0)
    #expect(try parse("-0.0").doubleValue?.sign == .minus)
    #expect(JSONValue.number(-0.0).serialized() == "0")
  }

  @Test(arguments: [
    ("01", "leading zero in number"), ("-01", "leading zero in number"),
    ("00", "leading zero in number"),
    ("1.", "expected digits after '.'"), ("1.e3", "expected digits after '.'"),
    ("1e", "expected digits in exponent"), ("1e+", "expected digits in exponent"),
    (".5", "unexpected character"), ("+1", "unexpected character"), ("-", "unexpected character"),
    ("--1", "unexpected character"), ("NaN", "unexpected character"),
    ("Infinity", "unexpected character"),
    ("-Infinity", "unexpected character"), ("0x10", "unexpected text after the value"),
    ("1.5.2", "unexpected text after the value"), ("1 2", "unexpected text after the value"),
  ])
  func invalidNumbers(text: String, reason: String) throws {
    #expect(parseError(text)?.reason == reason)
  }

  @Test func integerAccessor() throws {
    #expect(try parse("42").intValue == 42)
    #expect(try parse("-3").intValue == -3)
    #expect(try parse("4.0").intValue == 4)
    #expect(try parse("4.5").intValue == nil)
    #expect(try parse("1e16").intValue == nil)
    #expect(try parse("\"4\"").intValue == nil)
  }

  // MARK: Structure

  @Test func literalsArraysAndObjects() throws {
    #expect(try parse(" \t\r\n true \n") == .bool(true))
    #expect(try parse("false") == .bool(false))
    #expect(try parse("null") == .null)
    #expect(try parse("[]") == .array([]))
    #expect(try parse("[ ]") == .array([]))
    #expect(try parse("{ }") == .object([:]))
    #expect(
      try parse(#"{"a": [1, {"b": null}], "c" : "d"}"#)
        == .object(["a": .array([.number(1), .object(["b": .null])]), "c": .string("d")]))
    // Duplicate keys are refused (JSONStrictnessTests).
    #expect(throws: JSONParseError.self) { try parse(#"{"a": 1, "a": 2}"#) }
  }

  @Test(arguments: [
    ("[1] 2", 4, "unexpected text after the value"),
    ("{} }", 3, "unexpected text after the value"),
    ("nulls", 4, "unexpected text after the value"),
    ("truex", 4, "unexpected text after the value"),
    ("[1]]", 3, "unexpected text after the value"),
    ("\"a\"\"b\"", 3, "unexpected text after the value"),
    ("tru", 0, "unexpected end of input"),
    ("nul ", 0, "unexpected character"),
    ("[1,]", 3, "unexpected character"),
    ("[1 2]", 3, "expected ',' or ']'"),
    ("[1", 2, "unexpected end of input"),
    ("{\"a\" 1}", 5, "expected ':'"),
    ("{\"a\": 1", 7, "unexpected end of input"),
    ("{1: 2}", 1, "expected a key"),
    ("   ", 3, "unexpected end of input"),
  ])
  func malformedStructure(text: String, offset: Int, reason: String) throws {
    #expect(parseError(text)?.description == "invalid JSON at byte \(offset): \(reason)")
  }

  @Test func nestingLimit() throws {
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    var value = try parse(ok)
    var depth = 0
    while case .array(let items) = value, let first = items.first {
      value = first
      depth += 1
    }
    #expect(depth == 511)

    let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(parseError(tooDeep)?.description == "invalid JSON at byte 512: nesting too deep")

    let objects =
      String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
    #expect(parseError(objects)?.description == "invalid JSON at byte 2560: nesting too deep")

    // The limit counts open containers, not all containers seen.
    let wide = "[" + Array(repeating: "[[]]", count: 2000).joined(separator: ",") + "]"
    #expect(try parse(wide).arrayValue?.count == 2000)

    // Far deeper input fails cleanly instead of overflowing the stack.
    let hostile = String(repeating: "[", count: 100_000)
    #expect(parseError(hostile)?.reason == "nesting too deep")
  }

  // MARK: Writing

  @Test func compactAndPrettyOutput() throws {
    let value = try parse(
      #"{"b": [1, [2, 3], {"c": []}], "a": {"z": "é\n", "y": {}}, "s": [[1, 2], [3]], "e": [], "n": -2.5}"#
    )
    #expect(
      value.serialized()
        == #"{"a":{"y":{},"z":"é\n"},"b":[1,[2,3],{"c":[]}],"e":[],"n":-2.5,"s":[[1,2],[3]]}"#)
    #expect(
      value.serialized(pretty: true) == #"""
        {
          "a": {
            "y": {},
            "z": "é\n"
          },
          "b": [
            1,
            [2, 3],
            {
              "c": []
            }
          ],
          "e": [],
          "n": -2.5,
          "s": [[1,2], [3]]
        }
        """#)
  }

  @Test func stringsAreEscapedMinimally() throws {
    let s = "q\"b\\s/n\nr\rt\tb\u{8}f\u{C}\u{0}\u{1F}\u{7F}é😀\u{2028}"
    #expect(
      JSONValue.string(s).serialized()
        == #""q\"b\\s/n\nr\rt\tb\bf\f\u0000\u001f"# + "\u{7F}é😀\u{2028}\"")
  }

  @Test(arguments: [
    (0.0, "0"), (-0.0, "0"), (123.0, "123"), (-7.0, "-7"), (2.5, "2.5"), (0.1, "0.1"),
    (91.23, "91.23"),
    (999_999_999_999_999.0, "999999999999999"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
    (1e-7, "1e-07"),
    (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (.nan, "null"), (.infinity, "null"),
  ])
  func numberOutput(value: Double, text: String) throws {
    #expect(JSONValue.number(value).serialized() == text)
  }

  // MARK: Writer output re-parses (property check)

  /// A random JSON value: nested containers, every kind of number and string
  /// the writer has to handle.
  static func randomValue(depth: Int, using rng: inout SeededGenerator) -> JSONValue {
    switch Int.random(in: 0..<(depth > 0 ? 9 : 5), using: &rng) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .number(randomNumber(using: &rng))
    case 3, 4: return .string(randomString(using: &rng))
    case 5, 6:
      return .array(
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in
          randomValue(depth: depth - 1, using: &rng)
        })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        members[randomString(using: &rng)] = randomValue(depth: depth - 1, using: &rng)
      }
      return .object(members)
    }
  }

  static func randomNumber(using rng: inout SeededGenerator) -> Double {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
    case 1: return (Double.random(in: -10_000...10_000, using: &rng) * 100).rounded() / 100
    case 2: return Double.random(in: -1...1, using: &rng)
    case 3:
      // Any finite double, including subnormals and huge values.
      while true {
        let d = Double(bitPattern: rng.next())
        if d.isFinite { return d }
      }
    case 4: return Double(Int64.random(in: -(1 << 62)...(1 << 62), using: &rng))
    case 5:
      return [
        0, -0.0, 1e15, -1e15, 1e15 - 1, 9e15, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .ulpOfOne, 1e-7, 0.1, 1.0 / 3,
      ].randomElement(using: &rng) ?? 0
    case 6: return Double(Int.random(in: 0...100, using: &rng)) / 100
    default: return pow10(Int.random(in: -300...300, using: &rng))
    }
  }

  static func pow10(_ e: Int) -> Double {
    var x = 1.0
    for _ in 0..<abs(e) { x = e < 0 ? x / 10 : x * 10 }
    return x
  }

  static let scalarPools: [ClosedRange<UInt32>] = [
    0x20...0x7E,  // printable ASCII
    0x00...0x1F,  // control characters
    0x22...0x22, 0x5C...0x5C, 0x2F...0x2F,  // quote, backslash, slash
    0x7F...0xFF,  // DEL and Latin-1
    0x300...0x36F,  // combining marks
    0x4E00...0x9FFF,  // CJK
    0x1F300...0x1FAFF,  // emoji
    0x1F1E6...0x1F1FF,  // regional indicators
    0x2028...0x2029, 0xFFF0...0xFFFF, 0x10000...0x10FFFF,
  ]

  static func randomString(using rng: inout SeededGenerator) -> String {
    var s = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
      let pool = scalarPools[Int.random(in: 0..<scalarPools.count, using: &rng)]
      if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &rng)) { s.append(scalar) }
    }
    return String(s)
  }

  /// Equality that also tells canonically equivalent strings apart.
  static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return Array(x.unicodeScalars) == Array(y.unicodeScalars)
    case (.number(let x), .number(let y)): return x == y
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.object(let x), .object(let y)):
      let xs = x.keys.sorted()
      let ys = y.keys.sorted()
      return xs.map { Array($0.unicodeScalars) } == ys.map { Array($0.unicodeScalars) }
        && xs.allSatisfy { k in y[k].map { identical(x[k] ?? .null, $0) } ?? false }
    default: return a == b
    }
  }

  @Test(arguments: [1, 2, 3, 42, 2024])
  func writerOutputReparsesToAnEqualValue(seed: UInt64) throws {
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<200 {
      let value = Self.randomValue(depth: 4, using: &rng)
      for pretty in [false, true] {
        let text = value.serialized(pretty: pretty)
        let reparsed = try JSONValue(parsing: text)
        #expect(reparsed == value, "\(text)")
        #expect(Self.identical(reparsed, value), "\(text)")
        #expect(reparsed.serialized(pretty: pretty) == text)
      }
    }
  }

  @Test func randomValuesCoverTheInterestingCases() {
    // Guard against a generator that silently stops producing the hard cases.
    var rng = SeededGenerator(seed: 1)
    var sawSurrogateNeeding = false
    var sawControl = false
    var sawExponent = false
    var sawNested = false
    for _ in 0..<200 {
      let text = Self.randomValue(depth: 4, using: &rng).serialized()
      sawSurrogateNeeding =
        sawSurrogateNeeding || text.unicodeScalars.contains { $0.value > 0xFFFF }
      sawControl = sawControl || text.contains("\\u00")
      sawExponent = sawExponent || text.contains("e-") || text.contains("e+")
      sawNested = sawNested || text.contains("[[") || text.contains("{\"") && text.contains("[{")
    }
    #expect(sawSurrogateNeeding && sawControl && sawExponent && sawNested)
  }
}
