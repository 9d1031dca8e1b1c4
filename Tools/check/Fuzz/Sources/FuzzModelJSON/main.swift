import Foundation
import FuzzSupport
import ModelMutations
@_spi(Fuzzing) import ScanFormats
import ScanModel

// A valid JSON model whose structured fields the input changes: numbers
// (coordinates, counts, spans, angles), table cells' places, array lengths
// (elements repeated or dropped). The readers must refuse what breaks a
// limit with an error and accept the rest; what they accept passes
// `checkAccepted` (limits, verify, writers, JSON and .stm read back).
let seed = DocumentJSON.value(
  of: Document(pages: [ModelSeed.page()]), generator: Generator(name: "fuzz", version: "0"))

/// Applies `change` to the `target`-th node (preorder) for which `pick`
/// holds; returns how many such nodes there are.
@discardableResult
func visit(
  _ v: inout JSONValue, target: Int, counter: inout Int, pick: (JSONValue) -> Bool,
  change: (inout JSONValue) -> Void
) -> Bool {
  if pick(v) {
    if counter == target {
      change(&v)
      return true
    }
    counter += 1
  }
  switch v {
  case .array(var items):
    for i in items.indices {
      if visit(&items[i], target: target, counter: &counter, pick: pick, change: change) {
        v = .array(items)
        return true
      }
    }
  case .object(var members):
    for key in members.keys.sorted() {
      guard var member = members[key] else { continue }
      if visit(&member, target: target, counter: &counter, pick: pick, change: change) {
        members[key] = member
        v = .object(members)
        return true
      }
    }
  default: break
  }
  return false
}

func count(_ v: JSONValue, _ pick: (JSONValue) -> Bool) -> Int {
  var n = pick(v) ? 1 : 0
  switch v {
  case .array(let items): for item in items { n += count(item, pick) }
  case .object(let members): for member in members.values { n += count(member, pick) }
  default: break
  }
  return n
}

func isNumber(_ v: JSONValue) -> Bool { if case .number = v { true } else { false } }
func isArray(_ v: JSONValue) -> Bool { if case .array = v { true } else { false } }
func isObject(_ v: JSONValue) -> Bool { if case .object = v { true } else { false } }

let keys = [
  "row", "column", "rowSpan", "columnSpan", "dpi", "skew", "orientation", "exifOrientation",
  "width", "height", "confidence", "level", "index",
]

runFuzzer { bytes in
  var choices = Choices(bytes)
  var value = seed
  var steps = 0
  while !choices.isEmpty, steps < 16 {
    steps += 1
    var counter = 0
    switch choices.byte() % 5 {
    case 0:
      let target = choices.below(count(value, isNumber))
      let n = Double(choices.int())
      visit(&value, target: target, counter: &counter, pick: isNumber) { $0 = .number(n) }
    case 1:
      let target = choices.below(count(value, isNumber))
      let d = choices.double(finite: true)
      visit(&value, target: target, counter: &counter, pick: isNumber) { $0 = .number(d) }
    case 2:
      // An array's count: an element repeated (up to 64 times) or dropped.
      let target = choices.below(count(value, isArray))
      let times = choices.byte() % 65
      let at = choices.byte()
      visit(&value, target: target, counter: &counter, pick: isArray) { v in
        guard case .array(var items) = v, !items.isEmpty else { return }
        let i = at % items.count
        if times == 0 {
          items.remove(at: i)
        } else {
          items.insert(contentsOf: repeatElement(items[i], count: times), at: i)
        }
        v = .array(items)
      }
    case 3:
      // A key set on an object (a table cell's place on any paragraph).
      let target = choices.below(count(value, isObject))
      let key = keys[choices.below(keys.count)]
      let n = Double(choices.int())
      let cell = choices.byte() % 2 == 0
      visit(&value, target: target, counter: &counter, pick: isObject) { v in
        guard case .object(var members) = v else { return }
        members[key] = .number(n)
        if cell { members["role"] = .string("tableCell") }
        v = .object(members)
      }
    default:
      // Text and ranges dropped, so the tree is read as it now is.
      visit(
        &value, target: choices.below(count(value, isObject)), counter: &counter, pick: isObject
      ) { v in
        guard case .object(var members) = v else { return }
        members["text"] = nil
        members["range"] = nil
        v = .object(members)
      }
    }
  }
  let text = value.serialized()
  let whole = try? DocumentJSON.decode(text)
  let paged = try? PagedFuzzing.jsonPages(Data(text.utf8))
  precondition(whole == paged, "the paged JSON reader and the whole-file reader disagree")
  if let whole { checkAccepted(whole) }
}
