import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanService

struct EvalCommand: ScanCommand {
  static let model = ModelOptions.model
  static let truth = Option<String>(
    "truth",
    help:
      "The ground truth with the same pages: ScanText JSON, hOCR, ALTO, PAGE XML or Tesseract TSV ('-': standard input). --pages selects the same pages of both."
  )
  static let json = Flag("json", help: "Print the report as JSON.")
  static let configuration = CommandConfiguration(
    commandName: "eval",
    abstract:
      "Measure recognition against ground truth: CER, WER, word recall, line cover, hit rate.",
    discussion: """
      Metrics per page and in total: cer and wer (edit distance over the truth's \
      length; lower is better), wordRecall and meanIoU (truth words matched by an \
      OCR word with IoU >= 0.5 and the same text), lineCover and lineBleed (how \
      the selection of each matched OCR line covers its truth line, and spills \
      onto others), hitRate (truth word centres that hit-test to the same word). \
      See the README for exact definitions.
      """,
    arguments: [model, truth, json] + OCROptions.arguments)

  let modelPath: String
  let truthPath: String
  let printsJSON: Bool
  let ocr: ReadingSettings

  init(_ a: ParsedArguments) throws {
    modelPath = try a[Self.model]
    truthPath = try a[Self.truth]
    try InputFiles.checkStandardInputOnce([modelPath, truthPath])
    printsJSON = a[Self.json]
    ocr = try ReadingSettings(a)
  }

  func run(_ io: CommandIO) throws -> Int32 {
    try EvaluationReport.write(
      model: modelPath, truth: truthPath, recognizer: ocr.recognizer(),
      languageGiven: ocr.languageGiven, json: printsJSON, io: io)
    return 0
  }
}
