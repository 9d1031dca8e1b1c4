import Foundation
import FuzzSupport
import ScanArguments
import ScanFormats
import ScanModel
@_spi(Fuzzing) import ScanService

// One request per input, against a real page (a sample scan's ground
// truth): every request gets one JSON answer, never a crash or a hang.
let truth = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scans/clean.truth.json")
guard let text = try? String(contentsOf: truth, encoding: .utf8),
  let document = try? DocumentJSON.decode(text)
else {
  FileHandle.standardError.write(Data("cannot read \(truth.path)\n".utf8))
  exit(2)
}
let answer = QueryFuzzing.answerer(document)

runFuzzer { bytes in
  let line: InputLine
  if bytes.count > QueryFuzzing.maxRequestBytes {
    line = .tooLong
  } else if let text = String(validating: bytes, as: UTF8.self) {
    line = .text(text)
  } else {
    line = .invalidUTF8
  }
  let text = answer(line)
  precondition(!text.contains("\n"), "an answer is one line")
  precondition((try? JSONValue(parsing: text)) != nil, "an answer is JSON: \(text)")
}
