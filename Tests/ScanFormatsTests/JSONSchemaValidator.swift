import ScanFormats

/// A small JSON Schema (draft 2020-12) validator for the tests.
///
/// It supports exactly the keywords listed in ``supportedKeywords``. Any other
/// keyword in the schema (or a malformed value of a supported one, or a
/// `$ref` that does not resolve) makes ``init(schema:)`` throw, so a schema
/// cannot silently rely on a constraint that is not checked.
struct JSONSchemaValidator {
  /// The schema itself is unusable: the schema path and the reason.
  struct SchemaError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "schema error at '#\(path)': \(reason)" }
  }

  /// An instance violates the schema: the instance's JSON pointer and the reason.
  struct ValidationError: Equatable, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path.isEmpty ? "/" : path): \(reason)" }
  }

  static let annotationKeywords: Set<String> = [
    "$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default",
  ]
  static let assertionKeywords: Set<String> = [
    "type", "required", "properties", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "enum", "const", "minimum", "maximum", "$ref", "anyOf", "oneOf",
  ]
  static var supportedKeywords: Set<String> { annotationKeywords.union(assertionKeywords) }
  static let typeNames: Set<String> = [
    "null", "boolean", "object", "array", "number", "string", "integer",
  ]

  let root: JSONValue

  /// Checks the whole schema (every subschema, every `$ref`) up front.
  init(schema: JSONValue) throws(SchemaError) {
    root = schema
    try check(schema, at: "")
  }

  /// Validates an instance; an empty list means it is valid.
  func validate(_ instance: JSONValue) -> [ValidationError] {
    var errors: [ValidationError] = []
    validate(instance, against: root, at: "", refDepth: 0, into: &errors)
    return errors
  }

  // MARK: Checking the schema

  private func check(_ schema: JSONValue, at path: String) throws(SchemaError) {
    func fail(_ reason: String, _ sub: String = "") -> SchemaError {
      SchemaError(path: path + sub, reason: reason)
    }
    switch schema {
    case .bool: return
    case .object(let o):
      for (keyword, value) in o.sorted(by: { $0.key < $1.key }) {
        let here = path + "/" + Self.escape(keyword)
        switch keyword {
        case "$schema", "$id", "$comment", "title", "description":
          guard value.stringValue != nil else { throw fail("'\(keyword)' must be a string") }
        case "examples":
          guard value.arrayValue != nil else { throw fail("'examples' must be an array") }
        case "default":
          break
        case "$defs", "properties":
          guard case .object(let members) = value else {
            throw fail("'\(keyword)' must be an object")
          }
          for (name, sub) in members { try check(sub, at: here + "/" + Self.escape(name)) }
        case "additionalProperties", "items":
          try check(value, at: here)
        case "prefixItems", "anyOf", "oneOf":
          guard let subs = value.arrayValue, !subs.isEmpty else {
            throw fail("'\(keyword)' must be a non-empty array")
          }
          for (i, sub) in subs.enumerated() { try check(sub, at: here + "/\(i)") }
        case "type":
          let names = value.arrayValue ?? [value]
          guard !names.isEmpty,
            names.allSatisfy({ $0.stringValue.map(Self.typeNames.contains) ?? false }),
            Set(names).count == names.count
          else {
            throw fail("'type' must be a type name or an array of distinct type names")
          }
        case "required":
          guard let names = value.arrayValue, names.allSatisfy({ $0.stringValue != nil }),
            Set(names).count == names.count
          else { throw fail("'required' must be an array of distinct strings") }
        case "minItems", "maxItems":
          guard let n = value.intValue, n >= 0 else {
            throw fail("'\(keyword)' must be a non-negative integer")
          }
        case "minimum", "maximum":
          guard value.doubleValue != nil else { throw fail("'\(keyword)' must be a number") }
        case "enum":
          guard value.arrayValue != nil else { throw fail("'enum' must be an array") }
        case "const":
          break
        case "$ref":
          guard let ref = value.stringValue else { throw fail("'$ref' must be a string") }
          guard resolve(ref) != nil else { throw fail("'$ref' \(ref) does not resolve") }
        default:
          throw fail("unsupported keyword '\(keyword)'")
        }
      }
    default:
      throw fail("a schema must be an object or a boolean")
    }
  }

  /// Resolves a local reference: `#` or a JSON pointer such as `#/$defs/page`.
  func resolve(_ ref: String) -> JSONValue? {
    guard ref.hasPrefix("#") else { return nil }
    let pointer = ref.dropFirst()
    if pointer.isEmpty { return root }
    guard pointer.hasPrefix("/") else { return nil }
    var node = root
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
      switch node {
      case .object(let o):
        guard let next = o[key] else { return nil }
        node = next
      case .array(let a):
        guard let i = Int(key), a.indices.contains(i) else { return nil }
        node = a[i]
      default:
        return nil
      }
    }
    switch node {
    case .object, .bool: return node
    default: return nil
    }
  }

  static func escape(_ token: String) -> String {
    token.replacing("~", with: "~0").replacing("/", with: "~1")
  }

  // MARK: Validating

  static func typeName(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .object: "object"
    case .array: "array"
    case .number: value.isInteger ? "integer" : "number"
    case .integer: "integer"
    case .string: "string"
    }
  }

  static func matches(_ value: JSONValue, type name: String) -> Bool {
    switch (name, value) {
    case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array),
      ("number", .number), ("string", .string), ("number", .integer), ("integer", .integer):
      true
    case ("integer", .number): value.isInteger
    default: false
    }
  }

  private func validate(
    _ instance: JSONValue, against schema: JSONValue, at path: String, refDepth: Int,
    into errors: inout [ValidationError]
  ) {
    func fail(_ reason: String) { errors.append(ValidationError(path: path, reason: reason)) }
    let o: [String: JSONValue]
    switch schema {
    case .bool(true): return
    case .bool(false):
      fail("no value is allowed here")
      return
    case .object(let members): o = members
    default: return  // Ruled out by `check`.
    }

    if let ref = o["$ref"]?.stringValue, let target = resolve(ref) {
      if refDepth > 64 {
        fail("$ref \(ref) loops without consuming the instance")
      } else {
        validate(instance, against: target, at: path, refDepth: refDepth + 1, into: &errors)
      }
    }

    if let type = o["type"] {
      let names = (type.arrayValue ?? [type]).compactMap(\.stringValue)
      if !names.contains(where: { Self.matches(instance, type: $0) }) {
        fail("expected \(names.joined(separator: " or ")), found \(Self.typeName(of: instance))")
      }
    }
    if let allowed = o["enum"]?.arrayValue, !allowed.contains(instance) {
      fail("\(instance.serialized()) is not one of \(JSONValue.array(allowed).serialized())")
    }
    if let constant = o["const"], constant != instance {
      fail("\(instance.serialized()) is not the constant \(constant.serialized())")
    }
    if case .number(let n) = instance {
      if let min = o["minimum"]?.doubleValue, n < min {
        fail("\(n) is less than the minimum \(min)")
      }
      if let max = o["maximum"]?.doubleValue, n > max {
        fail("\(n) is more than the maximum \(max)")
      }
    }

    if case .object(let members) = instance {
      for case .string(let key) in o["required"]?.arrayValue ?? [] where members[key] == nil {
        fail("missing required property '\(key)'")
      }
      let properties: [String: JSONValue]
      if case .object(let p)? = o["properties"] { properties = p } else { properties = [:] }
      for (key, value) in members.sorted(by: { $0.key < $1.key }) {
        let here = path + "/" + Self.escape(key)
        if let sub = properties[key] {
          validate(value, against: sub, at: here, refDepth: 0, into: &errors)
        } else if let additional = o["additionalProperties"] {
          if additional == .bool(false) {
            errors.append(ValidationError(path: here, reason: "unexpected property '\(key)'"))
          } else {
            validate(value, against: additional, at: here, refDepth: 0, into: &errors)
          }
        }
      }
    }

    if case .array(let items) = instance {
      if let min = o["minItems"]?.intValue, items.count < min {
        fail("expected at least \(min) items, found \(items.count)")
      }
      if let max = o["maxItems"]?.intValue, items.count > max {
        fail("expected at most \(max) items, found \(items.count)")
      }
      let prefix = o["prefixItems"]?.arrayValue ?? []
      for (i, item) in items.enumerated() {
        if i < prefix.count {
          validate(item, against: prefix[i], at: path + "/\(i)", refDepth: 0, into: &errors)
        } else if let rest = o["items"] {
          if rest == .bool(false) {
            errors.append(
              ValidationError(
                path: path + "/\(i)",
                reason: "no item is allowed past the first \(prefix.count)"))
          } else {
            validate(item, against: rest, at: path + "/\(i)", refDepth: 0, into: &errors)
          }
        }
      }
    }

    if let alternatives = o["anyOf"]?.arrayValue {
      let matching = alternatives.filter { matches(instance, $0, path: path, refDepth: refDepth) }
      if matching.isEmpty { fail("matches none of the \(alternatives.count) anyOf alternatives") }
    }
    if let alternatives = o["oneOf"]?.arrayValue {
      let count = alternatives.count { matches(instance, $0, path: path, refDepth: refDepth) }
      if count != 1 {
        fail(
          "matches \(count) of the \(alternatives.count) oneOf alternatives, expected exactly one")
      }
    }
  }

  private func matches(_ instance: JSONValue, _ schema: JSONValue, path: String, refDepth: Int)
    -> Bool
  {
    var errors: [ValidationError] = []
    validate(instance, against: schema, at: path, refDepth: refDepth + 1, into: &errors)
    return errors.isEmpty
  }
}

extension JSONValue {
  /// Whether the value is a number with no fractional part (JSON Schema's "integer").
  var isInteger: Bool {
    guard case .number(let n) = self else { return false }
    return n.isFinite && n.rounded() == n
  }
}
