import ScanFormats
import ScanModel

/// The `UITextInput` navigation ops of the query protocol: `position`,
/// `farthest`, `extend`, `compare` and `writingDirection`.
extension QueryService {
  // Directions of `position`, `farthest` and `extend` are screen
  // directions (`left`, `right`, `up`, `down`), as the user sees the
  // original image.

  /// `{"op":"position","from":p,"direction":"right","offset":1}` →
  /// `{"position":q or null}` (`position(from:in:offset:)`; `offset`
  /// defaults to 1 and may be negative).
  func positionAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let from = try position(request, page, key: "from")
    let direction = try layoutDirection(request)
    guard let offset = (request["offset"] ?? .number(1)).intValue else {
      throw RequestError(description: "\"offset\" must be an integer")
    }
    let p = page.position(from: from, in: direction, offset: offset)
    return .object(["position": p.map { .number(Double($0.offset)) } ?? .null])
  }

  /// `{"op":"farthest","range":[s,e],"direction":"left"}` →
  /// `{"position":q}` (`position(within:farthestIn:)`).
  func farthestAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let range = try range(request, page)
    let p = page.position(within: range, farthestIn: try layoutDirection(request))
    return .object(["position": p.map { .number(Double($0.offset)) } ?? .null])
  }

  /// `{"op":"extend","position":p,"direction":"right"}` →
  /// `{"range":[s,e]}` (`characterRange(byExtending:inDirection:)`).
  func extendAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let p = try position(request, page)
    let r = page.characterRange(byExtending: p, inDirection: try layoutDirection(request))
    return .object(["range": r.map(Answers.range) ?? .null])
  }

  /// `{"op":"compare","position":p,"other":q}` →
  /// `{"order":"orderedAscending","value":-1}` (`compare(_:to:)`).
  func compareAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let a = try position(request, page)
    let b = try position(request, page, key: "other")
    let order = page.compare(a, to: b)
    let name =
      switch order {
      case .orderedAscending: "orderedAscending"
      case .orderedSame: "orderedSame"
      case .orderedDescending: "orderedDescending"
      }
    return .object(["order": .string(name), "value": .number(Double(order.rawValue))])
  }

  /// `{"op":"writingDirection","position":p,"direction":"forward"}` →
  /// `{"writingDirection":"leftToRight" or "rightToLeft"}`
  /// (`baseWritingDirection(for:in:)`; `direction` defaults to forward).
  func writingDirectionAnswer(_ request: JSONValue, _ page: Page) throws -> JSONValue {
    let p = try position(request, page)
    let direction: TextStorageDirection
    switch request["direction"] {
    case nil: direction = .forward
    case let d?:
      guard let name = d.stringValue, let s = TextStorageDirection(rawValue: name) else {
        throw RequestError(description: "\"direction\" must be forward or backward")
      }
      direction = s
    }
    return .object([
      "writingDirection": .string(page.baseWritingDirection(for: p, in: direction).rawValue)
    ])
  }

  private func layoutDirection(_ r: JSONValue) throws -> TextLayoutDirection {
    guard let name = r["direction"]?.stringValue, let d = TextLayoutDirection(rawValue: name)
    else {
      throw RequestError(description: "\"direction\" must be one of left, right, up, down")
    }
    return d
  }
}

extension Answers {
  /// A transform as `[a, b, c, d, tx, ty]` (`CGAffineTransform`'s fields),
  /// rounded to six decimals.
  package static func transform(_ t: AffineTransform) -> JSONValue {
    func n(_ x: Double) -> JSONValue {
      let r = (x * 1e6).rounded() / 1e6
      return .number(r == 0 ? 0 : r)
    }
    return .array([n(t.a), n(t.b), n(t.c), n(t.d), n(t.tx), n(t.ty)])
  }

  /// The tokenizer's `.word` under a point (`Page.wordRange(at:)`), as
  /// `{"text","range"}`, or `null`.
  package static func tokenizerWord(_ page: Page, _ point: Point) -> JSONValue {
    guard let r = page.wordRange(at: point) else { return .null }
    return .object(["text": .string(page.text(in: r) ?? ""), "range": range(r)])
  }
}
