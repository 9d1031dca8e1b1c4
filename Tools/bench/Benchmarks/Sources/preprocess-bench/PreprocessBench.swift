import Foundation
import ScanModel
@_spi(Benchmarks) import ScanOCR

/// The cost of the measurements that decide the colour, rule and page
/// (crop, perspective) steps, and
/// of the whole default preparation before the first reading (`prepare`:
/// every step's measurement, the steps that apply and the orientation
/// measure), and of fitting tilted boxes to their ink after it (`ink`: on
/// pages read turned, deskewed or straightened; `-` elsewhere), as a share
/// of a reading of the same page (`--no-preprocess`), per page:
/// the generated pages in `Scans/` and the real ones in `../shared/scans`
/// (or `$SCANTEXT_REAL_SCANS`), or the images named on the command line.
/// A second table gives, per page, the time each step of the pipeline
/// (``StepDescriptor/pipeline``, one column per step) took where it applied
/// in the last run, as a share of the reading (`-` where it did not).
/// Timings are medians of `--repeat N` runs (default 3); set
/// `OMP_THREAD_LIMIT=1` before starting it, as for every Tesseract timing.
@main
struct PreprocessBench {
  static func main() {
    do {
      try run()
    } catch {
      // A bad argument or an unreadable image: say so, exit 1, no trap.
      FileHandle.standardError.write(Data("preprocess-bench: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var repeats = 3
    if let i = arguments.firstIndex(of: "--repeat"), i + 1 < arguments.count,
      let n = Int(arguments[i + 1])
    {
      repeats = max(1, n)
      arguments.removeSubrange(i...(i + 1))
    }
    let images = arguments.isEmpty ? defaultImages() : arguments
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: .none))
    let clock = ContinuousClock()
    print(
      "page                                   read s  colour  +conv  binary   rules  cross  +remove   page   gray  orient   skew   curl  prepare    ink  decided"
    )
    var shares: [Double] = []
    var stepRows: [String] = []
    for image in images {
      var reads: [Duration] = []
      var figures: [PreprocessingCost.Figures] = []
      for _ in 0..<repeats {
        reads.append(clock.measure { _ = try? engine.recognize(contentsOf: image) })
        figures.append(try PreprocessingCost.measure(contentsOf: image))
      }
      let read = median(reads)
      let ink = try PreprocessingCost.inkFitting(contentsOf: image)
      func share(_ d: (PreprocessingCost.Figures) -> Duration) -> Double {
        seconds(median(figures.map(d))) / max(1e-9, seconds(read))
      }
      let measurement =
        share(\.colourMeasurement) + share(\.binarization) + share(\.rulesMeasurement)
        + share(\.pageMeasurement)
      shares.append(measurement)
      let name = URL(fileURLWithPath: image).lastPathComponent
      print(
        name.padding(toLength: 38, withPad: " ", startingAt: 0),
        String(
          format: "%6.2f  %5.1f%%  %5.1f%%  %5.1f%%  %5.1f%% %5.1f%%  %5.1f%%  "
            + "%5.1f%% %5.1f%%  %5.1f%% %5.1f%% %5.1f%%  %5.1f%%",
          seconds(read), 100 * share(\.colourMeasurement), 100 * share(\.colourConversion),
          100 * share(\.binarization), 100 * share(\.rulesMeasurement),
          100 * share(\.ruleCrossings),
          100 * share(\.rulesRemoval),
          100 * share(\.pageMeasurement), 100 * share(\.grayConversion),
          100 * share(\.orientationMeasurement), 100 * share(\.skewMeasurement),
          100 * share(\.curlMeasurement),
          100 * share(\.preparation)),
        ink.map { String(format: "%5.1f%%", 100 * seconds($0) / max(1e-9, seconds(read))) }
          ?? "     -",
        " " + (figures.last?.prepared.joined(separator: ", ") ?? ""))
      let applied = figures.last?.steps ?? []
      stepRows.append(
        name.padding(toLength: 38, withPad: " ", startingAt: 0)
          + StepDescriptor.pipeline.map(\.name).map { step in
            let time = applied.filter { $0.step == step }.compactMap(\.seconds).reduce(0, +)
            let cell =
              applied.contains { $0.step == step }
              ? String(format: "%.1f%%", 100 * time / max(1e-9, seconds(read))) : "-"
            return " "
              + cell.padding(toLength: max(7, step.rawValue.count), withPad: " ", startingAt: 0)
          }.joined())
    }
    print(
      "\nsteps applied (time against a reading)".padding(toLength: 39, withPad: " ", startingAt: 0)
        + StepDescriptor.pipeline.map(\.name).map {
          " "
            + $0.rawValue.padding(toLength: max(7, $0.rawValue.count), withPad: " ", startingAt: 0)
        }.joined())
    stepRows.forEach { print($0) }
    if let worst = shares.max() {
      let mean = shares.reduce(0, +) / Double(shares.count)
      print(
        String(
          format:
            "\nmeasurements (colour + rules + page) against a reading: mean %.1f%%, worst %.1f%%",
          100 * mean, 100 * worst))
    }
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  static func median(_ values: [Duration]) -> Duration {
    let sorted = values.sorted()
    return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
  }

  /// The generated pages and the real ones, when the folder is there.
  static func defaultImages() -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let generated = root.appendingPathComponent("Scans")
    let environment = ProcessInfo.processInfo.environment
    let real = URL(
      fileURLWithPath: environment["SCANTEXT_REAL_SCANS"]
        ?? root.deletingLastPathComponent().appendingPathComponent("shared/scans").path)
    var images: [String] = []
    for folder in [generated, real] {
      let files = FileManager.default.enumerator(atPath: folder.path)
      while let file = files?.nextObject() as? String {
        let ext = URL(fileURLWithPath: file).pathExtension.lowercased()
        if ["png", "jpg", "jpeg", "tif", "tiff"].contains(ext) {
          images.append(folder.appendingPathComponent(file).path)
        }
      }
    }
    return images.sorted()
  }
}
