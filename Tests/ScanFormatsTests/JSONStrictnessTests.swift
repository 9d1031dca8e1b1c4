import Testing

@testable import ScanFormats

/// The JSON reader is strict (issue 9 point 6).
@Suite("JSON strictness")
struct JSONStrictnessTests {
  func error(_ text: String) -> JSONParseError? {
    do {
      _ = try JSONValue(parsing: text)
      return nil
    } catch {
      return error
    }
  }

  @Test func duplicateKeysAreRefused() {
    #expect(error(#"{"a":1,"a":2}"#) == JSONParseError(reason: "duplicate key \"a\"", offset: 7))
    #expect(error(#"{"x":{"b":true,"c":1,"b":false}}"#)?.reason == "duplicate key \"b\"")
    // The same key in different objects is fine.
    #expect(error(#"[{"a":1},{"a":2}]"#) == nil)
    // Keys equal after unescaping are the same key.
    #expect(error(#"{"a":1,"\u0061":2}"#)?.reason == "duplicate key \"a\"")
  }

  @Test func numbersOutOfRangeAreRefused() {
    for text in ["1e999", "-1e999", "[1,2e400]", #"{"p":[1E+999,0]}"#] {
      #expect(error(text)?.reason == "number out of range", "\(text)")
    }
    #expect(error("1e999") == JSONParseError(reason: "number out of range", offset: 0))
    // Underflow is a number (zero); the largest doubles are numbers.
    #expect((try? JSONValue(parsing: "1e-999")) == .number(0))
    #expect(
      (try? JSONValue(parsing: "1.7976931348623157e308")) == .number(.greatestFiniteMagnitude))
  }
}
