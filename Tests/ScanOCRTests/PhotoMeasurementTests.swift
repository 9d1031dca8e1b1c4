import Foundation
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The measurements behind the photo decisions (issue 29, point 5), over
/// a folder of generated photos: run only when `SCANTEXT_PHOTO_MEASURE`
/// names the folder (pages from `Tools/generate/make-family photo`), writing one
/// JSON object a line to `SCANTEXT_PHOTO_MEASURE_OUT` (standard output
/// when unset). `Tools/check/photo-decisions` compares them with the generator's
/// truth.
@Suite("Photo measurements (on request)")
struct PhotoMeasurementTests {
  static let folder = ProcessInfo.processInfo.environment["SCANTEXT_PHOTO_MEASURE"]

  @Test(
    "Each photo's page outline and decisions, measured",
    .enabled(if: folder != nil, "set SCANTEXT_PHOTO_MEASURE to a folder of photos"))
  func measure() throws {
    let folder = try #require(Self.folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
    let prepare = ProcessInfo.processInfo.environment["SCANTEXT_PHOTO_PREPARE"] != nil
    var lines: [String] = []
    for name in names {
      let path = folder + "/" + name
      let image = try PhotoPageTests.decode(path)
      var record: [String: Any] = ["name": name, "width": image.width, "height": image.height]
      if let pixels = PageDetection.measuringPixels(image) {
        let fx = Double(image.width) / Double(pixels.width)
        let fy = Double(image.height) / Double(pixels.height)
        func scaled(_ points: [Point]) -> [[Double]] { points.map { [$0.x * fx, $0.y * fy] } }
        if let region = PageDetection.find(in: pixels) {
          record["region"] = scaled(region.corners)
          record["regionDeviation"] = region.cornerAngleDeviation
          record["regionBows"] = SideStraightness.bows(region.corners, in: pixels).map { $0 ?? -1 }
        }
        if let edges = PageEdges.find(in: pixels) {
          record["edges"] = scaled(edges.corners)
          record["edgesDeviation"] = edges.cornerAngleDeviation
          record["edgesBows"] = SideStraightness.bows(edges.corners, in: pixels).map { $0 ?? -1 }
        }
        record["measures"] = PageEdges.diagnose(in: pixels)
      }
      if prepare {
        let prepared = Preprocessor(steps: .default).prepare(image, dpi: nil)
        record["steps"] = prepared.recorded
        if let q = prepared.perspective { record["perspective"] = q.corners.map { [$0.x, $0.y] } }
        if let c = prepared.crop {
          record["crop"] = [c.minX, c.minY, c.maxX, c.maxY]
        }
      }
      let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
      lines.append(String(decoding: data, as: UTF8.self))
    }
    let text = lines.joined(separator: "\n") + "\n"
    if let out = ProcessInfo.processInfo.environment["SCANTEXT_PHOTO_MEASURE_OUT"] {
      try text.write(toFile: out, atomically: true, encoding: .utf8)
    } else {
      print(text, terminator: "")
    }
  }
}

/// The text's perspective (``TextPerspective``) on a folder of generated
/// photos, measured on the reading without it (every step on but
/// perspective): run only when `SCANTEXT_TEXT_PERSPECTIVE` names the
/// folder, one JSON object a line to `SCANTEXT_TEXT_PERSPECTIVE_OUT`
/// (standard output when unset). The decision's lines were drawn from
/// these figures on develop seeds (docs/preprocessing.md).
@Suite("Text perspective measurements (on request)")
struct TextPerspectiveMeasurementTests {
  static let folder = ProcessInfo.processInfo.environment["SCANTEXT_TEXT_PERSPECTIVE"]

  @Test(
    "Each photo's text perspective, measured",
    .enabled(if: folder != nil, "set SCANTEXT_TEXT_PERSPECTIVE to a folder of photos"))
  func measure() throws {
    let folder = try #require(Self.folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
    let engine = try OCREngine(
      options: RecognitionOptions(preprocessing: Preprocessing.default.subtracting([.perspective])))
    var lines: [String] = []
    for name in names {
      let page = try #require(try engine.recognize(contentsOf: folder + "/" + name).first)
      var record: [String: Any] = ["name": name, "steps": page.preprocessing]
      let samples = OCREngine.lineSamples(page.blocks, map: .identity)
      if let m = TextPerspective.measure(samples) {
        record["lines"] = m.lines
        record["straightness"] = m.straightness
        record["slopeResidual"] = m.slopeResidual
        record["slopeChange"] = m.slopeChange
        record["leftShare"] = m.leftShare
        record["rightShare"] = m.rightShare
        record["deviation"] = m.cornerAngleDeviation
        record["clear"] = m.isClear
        record["corners"] = m.corners.map { [$0.x, $0.y] }
        if let quad = m.straighteningQuad(width: page.width, height: page.height) {
          record["quad"] = quad.map { [$0.x, $0.y] }
        }
      }
      let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
      lines.append(String(decoding: data, as: UTF8.self))
    }
    let text = lines.joined(separator: "\n") + "\n"
    if let out = ProcessInfo.processInfo.environment["SCANTEXT_TEXT_PERSPECTIVE_OUT"] {
      try text.write(toFile: out, atomically: true, encoding: .utf8)
    } else {
      print(text, terminator: "")
    }
  }
}
