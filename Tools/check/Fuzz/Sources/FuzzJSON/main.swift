import FuzzSupport
import ScanFormats

// Any bytes: the JSON reader must answer a value or an error, and the
// importer must answer a document or an error; never crash or hang.
runFuzzer { bytes in
  let value: JSONValue
  do {
    value = try JSONValue(parsing: bytes.bindMemory(to: UInt8.self))
  } catch {
    return
  }
  // What is read serialises and reads back the same.
  let again = try? JSONValue(parsing: value.serialized())
  precondition(again == value, "JSON round trip changed the value")
  if let document = try? DocumentJSON.decode(value) {
    _ = DocumentJSON.encode(document, generator: Generator(name: "fuzz", version: "0"))
  }
}
