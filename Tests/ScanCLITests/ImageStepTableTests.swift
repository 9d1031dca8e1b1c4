import Foundation
import ScanModel
import ScanService
import ScanTestSupport
import Testing

@testable import ScanArguments
@testable import ScanCLI
@testable import ScanOCR

/// The preprocessing steps live in one list (``Preprocessor/pipeline``, each
/// step with its ``StepDescriptor``): the option set, the flags, `ocr
/// --help`, the step table of `docs/preprocessing.md`, the options row of
/// `docs/commands.md`, and
/// `docs/ARCHITECTURE.md`'s step table follow it.
@Suite("Preprocessing step list")
struct ImageStepTableTests {
  static func read(_ path: String) throws -> String {
    try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The rows of the first Markdown table after `header` in `text`.
  static func rows(after header: String, in text: String) throws -> [String] {
    let start = try #require(text.range(of: header), "no table headed \(header)")
    return text[start.upperBound...].split(separator: "\n").dropFirst().prefix {
      $0.hasPrefix("|")
    }.map(String.init)
  }

  static var names: [ImageStepName] { StepDescriptor.pipeline.map(\.name) }

  @Test func thePipelineRunsEveryStepOnceUnderAValidName() {
    #expect(Set(Self.names).count == Self.names.count)
    for name in Self.names {
      #expect(ImageStepName(rawValue: name.rawValue) == name, "\(name.rawValue)")
      #expect(StepRecord(recorded: name.rawValue) == StepRecord(name), "\(name.rawValue)")
    }
    #expect(
      Preprocessing.default
        == Preprocessing(StepDescriptor.pipeline.filter(\.onByDefault).map(\.name)))
    #expect(Preprocessing(Self.names) == Preprocessing.default.union([.upscale]))
  }

  @Test func readmeStepTableIsTheList() throws {
    let rows = try Self.rows(
      after: "| step | flag | what it does |", in: try Documentation.read("docs/preprocessing.md"))
    #expect(
      rows
        == StepDescriptor.pipeline.map { step in
          "| `\(step.name.rawValue)` | \(step.flag.map { "`--\($0.name)`" } ?? "—") | \(step.summary) |"
        })
  }

  @Test func architectureStepTableIsTheList() throws {
    let rows = try Self.rows(
      after: "| step | what it does |", in: try Self.read("docs/ARCHITECTURE.md"))
    #expect(
      rows == StepDescriptor.pipeline.map { "| `\($0.name.rawValue)` | \($0.summary) |" })
  }

  @Test func readmeOptionsRowListsEveryStepFlag() throws {
    let off = StepDescriptor.pipeline.filter { !$0.flagTurnsOn }.compactMap(\.flag)
    let row =
      "| " + off.map { "`--\($0.name)`" }.joined(separator: ", ")
      + " | turn one preprocessing step off |"
    #expect(try Documentation.read("docs/commands.md").contains(row))
  }

  @Test func ocrHelpListsEveryStepFlag() {
    let result = scantext(["ocr", "--help"])
    #expect(result.code == 0)
    // The help is wrapped and indented: compare with single spaces.
    let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for step in StepDescriptor.pipeline {
      guard let flag = step.flag else { continue }
      #expect(help.contains("--\(flag.name)"), "\(step.name.rawValue)")
      let words = flag.help.split(separator: " ").prefix(4).joined(separator: " ")
      #expect(help.contains(words), "\(step.name.rawValue): \(words)")
    }
  }

  @Test func eachFlagTurnsItsStepOffOrOn() throws {
    for step in StepDescriptor.pipeline {
      guard let flag = step.flag else { continue }
      let parsed = try ParsedArguments.parse(["page.png", "--\(flag.name)"], for: OCRCommand.self)
      let steps = try ReadingSettings(parsed).recognition.preprocessing
      #expect(steps.contains(step.name) == step.flagTurnsOn, "--\(flag.name)")
      #expect(
        steps.symmetricDifference(.default) == [step.name], "--\(flag.name) changes one step")
    }
  }

  @Test func recordsEncodeToThePagesStrings() {
    #expect(StepRecord(.squarePixels).recorded == "square pixels")
    #expect(StepRecord(.illumination, decision: .contrastStretched).recorded == "contrast")
    #expect(StepRecord(.colour, decision: .channel(0)).recorded == "colour: red channel")
    #expect(
      StepRecord(.colour, decision: .saturatedColourSuppressed).recorded
        == "colour: saturated colour suppressed")
    #expect(
      StepRecord(.perspective, decision: .twoPages).recorded == "perspective: two pages")
    #expect(StepRecord(.deskew, measurement: 1.5, seconds: 0.2).recorded == "deskew")
  }
}
