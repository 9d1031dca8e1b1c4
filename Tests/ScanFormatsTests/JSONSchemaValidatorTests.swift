import ScanFormats
import Testing

/// The test-only JSON Schema validator: a few accepting and rejecting cases per keyword.
@Suite struct JSONSchemaValidatorTests {
  func validator(_ schema: String) throws -> JSONSchemaValidator {
    try JSONSchemaValidator(schema: JSONValue(parsing: schema))
  }

  /// The reasons for rejecting `instance`, with their paths ("" when valid).
  func errors(_ schema: String, _ instance: String) throws -> [JSONSchemaValidator.ValidationError]
  {
    try validator(schema).validate(JSONValue(parsing: instance))
  }

  func accepts(_ schema: String, _ instances: [String]) throws {
    let v = try validator(schema)
    for instance in instances {
      let errors = v.validate(try JSONValue(parsing: instance))
      #expect(errors.isEmpty, "\(schema) should accept \(instance): \(errors)")
    }
  }

  func rejects(_ schema: String, _ instances: [String]) throws {
    let v = try validator(schema)
    for instance in instances {
      #expect(
        !v.validate(try JSONValue(parsing: instance)).isEmpty, "\(schema) should reject \(instance)"
      )
    }
  }

  @Test func booleanSchemas() throws {
    try accepts("true", ["null", "1", "{}", "[1]"])
    try rejects("false", ["null", "1", "{}", "[]"])
    try accepts("{}", ["null", "\"x\""])
  }

  @Test func type() throws {
    try accepts(#"{"type": "string"}"#, [#""""#, #""x""#])
    try rejects(#"{"type": "string"}"#, ["1", "null", "[]", "{}", "true"])
    try accepts(#"{"type": "integer"}"#, ["0", "-3", "1e3", "2.0"])
    try rejects(#"{"type": "integer"}"#, ["1.5", "\"1\"", "null"])
    try accepts(#"{"type": "number"}"#, ["1.5", "-0", "3"])
    try rejects(#"{"type": "number"}"#, ["\"1.5\"", "true"])
    try accepts(#"{"type": "boolean"}"#, ["true", "false"])
    try rejects(#"{"type": "boolean"}"#, ["0", "null"])
    try accepts(#"{"type": "null"}"#, ["null"])
    try rejects(#"{"type": "null"}"#, ["false", "0", "\"\""])
    try accepts(#"{"type": "object"}"#, ["{}", #"{"a": 1}"#])
    try rejects(#"{"type": "object"}"#, ["[]", "null"])
    try accepts(#"{"type": "array"}"#, ["[]", "[1, \"a\"]"])
    try rejects(#"{"type": "array"}"#, ["{}", "\"[]\""])
    try accepts(#"{"type": ["integer", "null"]}"#, ["3", "null"])
    try rejects(#"{"type": ["integer", "null"]}"#, ["3.5", "\"3\"", "[]"])
    let e = try errors(#"{"type": ["string", "null"]}"#, "2.5")
    #expect(e == [.init(path: "", reason: "expected string or null, found number")])
  }

  @Test func requiredAndProperties() throws {
    let schema = #"""
      {"type": "object", "required": ["a", "b"],
       "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "null"}}}
      """#
    try accepts(schema, [#"{"a": 1, "b": "x"}"#, #"{"a": 1, "b": "x", "c": null, "d": [1]}"#])
    try rejects(
      schema, ["{}", #"{"a": 1}"#, #"{"a": "1", "b": "x"}"#, #"{"a": 1, "b": "x", "c": 0}"#])
    #expect(
      try errors(schema, #"{"b": "x"}"#) == [
        .init(path: "", reason: "missing required property 'a'")
      ])
    #expect(
      try errors(schema, #"{"a": 1.5, "b": 2}"#) == [
        .init(path: "/a", reason: "expected integer, found number"),
        .init(path: "/b", reason: "expected string, found integer"),
      ])
    // `required` and `properties` only apply to objects.
    try accepts(schema.replacing(#""type": "object", "#, with: ""), ["1", "[]"])
  }

  @Test func additionalProperties() throws {
    let closed = #"{"properties": {"a": {}}, "additionalProperties": false}"#
    try accepts(closed, ["{}", #"{"a": 1}"#])
    try rejects(closed, [#"{"b": 1}"#, #"{"a": 1, "b": 2}"#])
    #expect(
      try errors(closed, #"{"a/b": 1}"#) == [
        .init(path: "/a~1b", reason: "unexpected property 'a/b'")
      ])
    let open = #"{"properties": {"a": {}}, "additionalProperties": true}"#
    try accepts(open, [#"{"b": 1}"#, #"{"a": 1, "b": {"c": []}}"#])
    let typed = #"{"properties": {"a": {}}, "additionalProperties": {"type": "string"}}"#
    try accepts(typed, [#"{"a": 1, "b": "x"}"#])
    try rejects(typed, [#"{"a": 1, "b": 2}"#])
  }

  @Test func itemsAndPrefixItems() throws {
    try accepts(#"{"items": {"type": "integer"}}"#, ["[]", "[1, 2, 3]"])
    try rejects(#"{"items": {"type": "integer"}}"#, ["[1, 2.5]", #"["1"]"#])
    #expect(
      try errors(#"{"items": {"type": "integer"}}"#, "[1, 2, 3.5]") == [
        .init(path: "/2", reason: "expected integer, found number")
      ])
    let tuple = #"{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}"#
    try accepts(tuple, ["[]", #"["a"]"#, #"["a", 1]"#])
    try rejects(tuple, [#"[1, "a"]"#, #"["a", 1, 2]"#])
    #expect(
      try errors(tuple, #"["a", 1, null]"#) == [
        .init(path: "/2", reason: "no item is allowed past the first 2")
      ])
    let tupleThenNumbers = #"{"prefixItems": [{"type": "string"}], "items": {"type": "number"}}"#
    try accepts(tupleThenNumbers, [#"["a", 1, 2.5]"#])
    try rejects(tupleThenNumbers, [#"["a", "b"]"#, "[1]"])
    try accepts(#"{"items": {"type": "integer"}}"#, [#""not an array""#])
  }

  @Test func minItemsAndMaxItems() throws {
    let schema = #"{"minItems": 2, "maxItems": 3}"#
    try accepts(schema, ["[1, 2]", "[1, 2, 3]", "\"a\""])
    try rejects(schema, ["[]", "[1]", "[1, 2, 3, 4]"])
    #expect(
      try errors(schema, "[1]") == [.init(path: "", reason: "expected at least 2 items, found 1")])
    #expect(
      try errors(schema, "[1, 2, 3, 4]") == [
        .init(path: "", reason: "expected at most 3 items, found 4")
      ])
  }

  @Test func enumAndConst() throws {
    try accepts(#"{"enum": [0, 90, "x", null, [1]]}"#, ["0", "90.0", "\"x\"", "null", "[1]"])
    try rejects(#"{"enum": [0, 90, "x", null, [1]]}"#, ["45", "\"X\"", "false", "[1, 1]"])
    #expect(
      try errors(#"{"enum": [0, 90]}"#, "45") == [
        .init(path: "", reason: "45 is not one of [0,90]")
      ])
    try accepts(#"{"const": 1}"#, ["1", "1.0"])
    try rejects(#"{"const": 1}"#, ["2", "\"1\"", "true", "[1]"])
    try accepts(#"{"const": {"a": [1, null]}}"#, [#"{"a": [1, null]}"#])
    try rejects(#"{"const": {"a": [1, null]}}"#, [#"{"a": [1]}"#, #"{"a": [1, null], "b": 0}"#])
    #expect(
      try errors(#"{"const": 1}"#, "2") == [.init(path: "", reason: "2 is not the constant 1")])
  }

  @Test func minimumAndMaximum() throws {
    let schema = #"{"minimum": 0, "maximum": 100}"#
    try accepts(schema, ["0", "100", "55.5", "-0", "\"1000\"", "null"])
    try rejects(schema, ["-0.01", "100.001", "1e3"])
    #expect(
      try errors(schema, "-1") == [.init(path: "", reason: "-1.0 is less than the minimum 0.0")])
  }

  @Test func refs() throws {
    let schema = #"""
      {"type": "object", "properties": {"box": {"$ref": "#/$defs/box"}, "self": {"$ref": "#"},
        "odd": {"$ref": "#/$defs/a~1b"}},
       "$defs": {"box": {"type": "array", "items": {"$ref": "#/$defs/int"}, "minItems": 4, "maxItems": 4},
                 "int": {"type": "integer"}, "a/b": {"const": "odd"}}}
      """#
    try accepts(
      schema,
      [
        #"{"box": [1, 2, 3, 4]}"#, #"{"self": {"self": {"box": [0, 0, 0, 0]}}}"#,
        #"{"odd": "odd"}"#,
      ])
    try rejects(
      schema,
      [
        #"{"box": [1, 2, 3]}"#, #"{"box": [1, 2, 3, 4.5]}"#, #"{"self": {"box": 1}}"#,
        #"{"odd": 1}"#,
      ])
    #expect(
      try errors(schema, #"{"self": {"box": [1, 2, 3, "4"]}}"#) == [
        .init(path: "/self/box/3", reason: "expected integer, found string")
      ])
    // `$ref` combines with its sibling keywords.
    let sibling = ##"{"$ref": "#/$defs/n", "maximum": 5, "$defs": {"n": {"type": "integer"}}}"##
    try accepts(sibling, ["5"])
    try rejects(sibling, ["6", "4.5"])
  }

  @Test func refLoopIsReportedNotRecursedForever() throws {
    let v = try validator(
      ##"{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}"##
    )
    let errors = v.validate(.null)
    #expect(errors.count == 1)
    #expect(errors.first?.reason.contains("loops") == true)
  }

  @Test func anyOfAndOneOf() throws {
    let any = #"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}"#
    try accepts(any, ["\"a\"", "0", "7"])
    try rejects(any, ["-1", "1.5", "null"])
    #expect(
      try errors(any, "null") == [
        .init(path: "", reason: "matches none of the 2 anyOf alternatives")
      ])
    let one = #"{"oneOf": [{"type": "integer"}, {"minimum": 10}]}"#
    try accepts(one, ["3", "10.5"])
    try rejects(one, ["12", "2.5"])
    #expect(
      try errors(one, "12") == [
        .init(path: "", reason: "matches 2 of the 2 oneOf alternatives, expected exactly one")
      ])
  }

  @Test func errorsAccumulateWithPaths() throws {
    let schema = #"""
      {"type": "object", "required": ["pages"],
       "properties": {"pages": {"type": "array", "items": {"type": "object", "required": ["w"],
         "properties": {"w": {"type": "integer"}}}}}}
      """#
    let e = try errors(schema, #"{"pages": [{"w": 1}, {}, {"w": "x"}, 3]}"#)
    #expect(
      e == [
        .init(path: "/pages/1", reason: "missing required property 'w'"),
        .init(path: "/pages/2/w", reason: "expected integer, found string"),
        .init(path: "/pages/3", reason: "expected object, found integer"),
      ])
    #expect(e[1].description == "/pages/2/w: expected integer, found string")
  }

  @Test(arguments: [
    (#"{"pattern": "^a"}"#, "unsupported keyword 'pattern'"),
    (#"{"properties": {"a": {"minLength": 1}}}"#, "unsupported keyword 'minLength'"),
    (#"{"$defs": {"x": {"allOf": []}}}"#, "unsupported keyword 'allOf'"),
    (#"{"items": {"uniqueItems": true}}"#, "unsupported keyword 'uniqueItems'"),
    (
      #"{"additionalProperties": {"exclusiveMinimum": 0}}"#,
      "unsupported keyword 'exclusiveMinimum'"
    ),
    (#"{"type": "float"}"#, "'type' must be a type name or an array of distinct type names"),
    (#"{"required": "a"}"#, "'required' must be an array of distinct strings"),
    (#"{"minItems": -1}"#, "'minItems' must be a non-negative integer"),
    (#"{"maximum": "5"}"#, "'maximum' must be a number"),
    (#"{"anyOf": []}"#, "'anyOf' must be a non-empty array"),
    (##"{"$ref": "#/$defs/missing"}"##, "'$ref' #/$defs/missing does not resolve"),
    (#"{"$ref": "other.json#/x"}"#, "'$ref' other.json#/x does not resolve"),
    (#"{"items": 3}"#, "a schema must be an object or a boolean"),
  ])
  func unsupportedOrMalformedSchemasFailLoudly(schema: String, reason: String) throws {
    let error = #expect(throws: JSONSchemaValidator.SchemaError.self) {
      try JSONSchemaValidator(schema: JSONValue(parsing: schema))
    }
    #expect(error?.reason == reason)
  }

  @Test func schemaErrorNamesTheSchemaPath() throws {
    let error = #expect(throws: JSONSchemaValidator.SchemaError.self) {
      try JSONSchemaValidator(
        schema: JSONValue(parsing: #"{"$defs": {"page": {"properties": {"w": {"format": "x"}}}}}"#))
    }
    #expect(error?.path == "/$defs/page/properties/w")
    #expect(
      error?.description
        == "schema error at '#/$defs/page/properties/w': unsupported keyword 'format'")
  }

  @Test func theDocumentSchemaUsesOnlySupportedKeywords() throws {
    let schema = try PackageFiles.schema()
    _ = try JSONSchemaValidator(schema: schema)
    #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
    #expect(schema["$id"]?.stringValue?.hasPrefix("https://scantext.invalid/") == true)
  }
}
