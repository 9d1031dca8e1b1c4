import Foundation
import ScanArguments
import ScanService

/// `-j/--jobs N` of `ocr` and `batch`: pages recognised at once.
enum JobsOption {
  static let option = Option<Int?>(
    "jobs", short: "j",
    help: "Images to recognise at once (default and most: the number of cores).")

  /// The number of workers: the option, else the cores, and never more
  /// than the cores: one engine per worker, one worker per core at most
  /// (more would only oversubscribe the cores, and cost about 80 MB each).
  /// - Throws: ``ScanArguments/ValidationError`` for a number below 1.
  static func count(_ a: ParsedArguments) throws -> Int {
    let requested = try a[option]
    if let requested, requested < 1 { throw ValidationError("'--jobs' must be 1 or more") }
    let cores = ProcessorCores.available
    return min(requested ?? cores, cores)
  }
}
