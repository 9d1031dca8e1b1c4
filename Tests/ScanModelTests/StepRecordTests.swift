import Testing

@testable import ScanModel

/// A page's typed provenance and the strings every export writes for it.
@Suite("Step records")
struct StepRecordTests {
  /// Every record a step makes, and the string the page records for it.
  static let forms: [(StepRecord, String)] =
    [
      ImageStepName.crop, .perspective, .colour, .illumination, .despeckle, .rules, .squarePixels,
      .orientation, .deskew, .dewarp, .upscale,
    ].map { (StepRecord($0), $0.rawValue) } + [
      (StepRecord(.illumination, decision: .contrastStretched), "contrast"),
      (StepRecord(.colour, decision: .channel(0)), "colour: red channel"),
      (StepRecord(.colour, decision: .channel(1)), "colour: green channel"),
      (StepRecord(.colour, decision: .channel(2)), "colour: blue channel"),
      (
        StepRecord(.colour, decision: .saturatedColourSuppressed),
        "colour: saturated colour suppressed"
      ),
      (
        StepRecord(.colour, decision: .stampsSeparated),
        "colour: stamps over the text separated"
      ),
      (StepRecord(.perspective, decision: .twoPages), "perspective: two pages"),
    ]

  @Test func eachRecordReadsBackFromItsString() {
    for (record, string) in Self.forms {
      #expect(record.recorded == string)
      #expect(StepRecord(recorded: string) == record, "\(string)")
    }
    #expect(Set(Self.forms.map(\.1)).count == Self.forms.count)
  }

  /// What a document does not keep: the measurement, the time, and the
  /// evidence of a turn (the string is the step's name).
  @Test func measurementTimeAndEvidenceStayOutOfTheString() {
    for evidence in TurnEvidence.allCases {
      let turned = StepRecord(
        .orientation, measurement: 3, decision: .turned(evidence), seconds: 0.25)
      #expect(turned.recorded == "orientation")
      #expect(StepRecord(recorded: turned.recorded) == StepRecord(.orientation))
    }
    #expect(StepRecord(.deskew, measurement: -1.5, seconds: 0.01).recorded == "deskew")
  }

  @Test func stringsNoStepRecordsAreRefused() {
    for string in [
      "", "Deskew", "colour: purple channel", "contrast ", " crop", "square  pixels", "colour:",
      "dé-skew", "perspective: three pages",
    ] {
      #expect(StepRecord(recorded: string) == nil, "\(string)")
      #expect(ImageStepName(rawValue: string) == nil, "\(string)")
    }
  }

  /// A step this build does not have (a document from a later ScanText)
  /// keeps its name: read back and written again unchanged.
  @Test func aStepOfALaterVersionKeepsItsName() throws {
    let record = try #require(StepRecord(recorded: "margins 2"))
    #expect(record.step == ImageStepName("margins 2"))
    #expect(record.decision == .applied)
    #expect(record.recorded == "margins 2")
  }

  @Test func pageListsItsStepsAsRecorded() {
    let page = Page(
      width: 10, height: 10, blocks: [],
      steps: [StepRecord(.crop, measurement: 1.5), StepRecord(.colour, decision: .channel(2))])
    #expect(page.preprocessing == ["crop", "colour: blue channel"])
    #expect(Page(width: 10, height: 10, blocks: []).preprocessing.isEmpty)
  }
}
