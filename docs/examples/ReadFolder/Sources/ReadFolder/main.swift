// Reads every scan in a folder (images and PDFs) to ALTO, one file per
// scan, through scantext's cache: `ReadFolder SCANS OUT`.
import Foundation
import ScanFormats
import ScanService

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  print("usage: ReadFolder SCANS OUT")
  exit(64)
}
let inputs = try Input.files(inFolder: arguments[1])
let sink = DocumentSink(format: FileFormat(.alto), destination: .folder(arguments[2]))
let summary = try Pipeline(cache: .standard).run(inputs, into: sink)
for failure in summary.failures { print("Error: \(failure.message)") }
print("\(summary.pageCount) pages of \(inputs.count) inputs written to \(arguments[2])")
