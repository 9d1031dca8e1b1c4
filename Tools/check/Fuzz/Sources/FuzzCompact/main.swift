import Foundation
import FuzzSupport
@_spi(Fuzzing) import ScanFormats

// Any bytes, read as a compact model and as ScanText JSON by the paged
// readers: a document or an error, never a crash, a hang or an allocation
// the input does not pay for. What is read writes back to the same bytes
// (compact) and to the same pages (JSON, against the whole-file reader).
let generator = Generator(name: "fuzz", version: "0")

runFuzzer { bytes in
  let data = Data(bytes)
  if let document = try? PagedFuzzing.compactPages(data) {
    let again = CompactModel.encode(document, generator: generator)
    precondition(
      (try? CompactModel.decode(again)) == document, "compact round trip changed the document")
  }
  let paged = try? PagedFuzzing.jsonPages(data)
  let whole = try? DocumentJSON.decode(data)
  precondition(paged == whole, "the paged JSON reader and the whole-file reader disagree")
}
