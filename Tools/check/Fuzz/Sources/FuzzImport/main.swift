import Foundation
import FuzzSupport
import ScanFormats

// Any bytes as an hOCR, ALTO, PAGE XML or Tesseract TSV document: each
// importer answers a document or an error, never a crash or a hang; a
// document read is written back in its format without failing.
let generator = Generator(name: "fuzz", version: "0")

runFuzzer { bytes in
  let data = Data(bytes)
  if let document = try? HOCR.decode(data) {
    _ = HOCR.encode(document, generator: generator)
  }
  if let document = try? ALTO.decode(data) {
    _ = ALTO.encode(document, generator: generator)
  }
  if let document = try? PAGEXML.decode(data), let page = document.pages.first {
    _ = PAGEXML.encode(page, generator: generator, created: "2026-01-01T00:00:00Z")
  }
  if let text = String(validating: bytes, as: UTF8.self), let document = try? TSV.decode(text) {
    _ = TSV.encode(document)
  }
}
