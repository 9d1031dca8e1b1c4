import Foundation
import ScanArguments
import Synchronization

/// A one-line progress display on a terminal: pages done of total, pages per
/// second and time left.
package final class ProgressLine: Sendable {
  private let io: CommandIO
  private let started = Date()
  /// What is counted: images, or the pages of PDFs (with other inputs).
  private let unit: String

  /// A line on `io`'s standard error counting `unit`.
  package init(io: CommandIO, unit: String = "images") {
    self.io = io
    self.unit = unit
  }

  /// Whether the line is on the terminal; also serialises its updates,
  /// which come from the workers, with messages printed between them.
  private let shown = Mutex(false)

  /// Shows `done` of `total`, the rate and the time left.
  package func update(_ done: Int, _ total: Int) {
    let elapsed = Date().timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let rateText = String(format: "%.1f", rate)
    shown.withLock { shown in
      io.writeError(
        "\r\u{1B}[K\(done)/\(total) \(unit), \(rateText)/s, \(Int(left.rounded())) s left")
      shown = true
    }
  }

  /// Takes the line off the terminal (before a message; the next update
  /// shows it again).
  package func clear() {
    shown.withLock { shown in
      if shown { io.writeError("\r\u{1B}[K") }
      shown = false
    }
  }

  /// Takes the line off the terminal for good.
  package func finish() { clear() }

  /// The progress line of `ocr` on a terminal for several inputs or a PDF
  /// (whose pages are read one by one: its progress is shown even alone);
  /// `nil` when there is none to show.
  package static func forInputs(_ paths: [String], shown: Bool, io: CommandIO) -> ProgressLine? {
    let readsPDF = paths.contains { InputFiles.kind($0) == .pdf }
    guard shown, io.errorIsTerminal, paths.count > 1 || readsPDF else { return nil }
    return ProgressLine(
      io: io, unit: readsPDF || paths.contains(where: InputFiles.isTIFF) ? "pages" : "images")
  }

  /// The function that shows progress on this line.
  package var show: Recognizer.Progress { { done, total in self.update(done, total) } }
}

/// The notes a run prints beside its outputs.
package enum RunNotes {
  /// The note for a PDF whose pages with text were read from it (the
  /// default, ``ScanOCR/PDFTextPolicy/keep``): which pages (`numbers`,
  /// from 1), and the other choices; `nil` when there are none.
  package static func keptText(path: String, pageNumbers numbers: [Int]) -> String? {
    guard !numbers.isEmpty else { return nil }
    let one = numbers.count == 1
    return "Note: \(path): \(one ? "page" : "pages") \(ranges(numbers)) already "
      + (one
        ? "has text: its words come from the PDF and a searchable PDF keeps it as it is; "
        : "have text: their words come from the PDF and a searchable PDF keeps them as they are; ")
      + "--redo-ocr replaces an earlier OCR layer, --force-ocr recognises every page."
  }

  /// Numbers in ascending order as ranges: `1-3, 5`.
  package static func ranges(_ numbers: [Int]) -> String {
    var parts: [String] = []
    var start = 0
    let sorted = numbers.sorted()
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      parts.append(end == start ? "\(sorted[start])" : "\(sorted[start])-\(sorted[end])")
      start = end + 1
    }
    return parts.joined(separator: ", ")
  }
}

/// What `ocr` reports of each input as it is read: its failures as they
/// come, between updates of the progress line, and a PDF's pages read from
/// its text, named after its last.
package final class PartReporter {
  private let io: CommandIO
  private let progress: ProgressLine?
  private let notesKeptText: Bool
  private var keptText: [Int] = []

  /// A reporter to `io`'s standard error; `notesKeptText` for the note on
  /// pages whose text was kept.
  package init(io: CommandIO, progress: ProgressLine?, notesKeptText: Bool) {
    self.io = io
    self.progress = progress
    self.notesKeptText = notesKeptText
  }

  /// Reports `part`'s failures, and after a PDF's last part its kept text.
  package func report(_ part: Recognizer.InputPart) {
    var errors = part.result.pageErrors
    if case .failure(let error) = part.result.pages { errors = [error] }
    for error in errors {
      progress?.clear()
      io.printErrorMessage(error.message)
    }
    guard notesKeptText else { return }
    let pages = ((try? part.result.pages.get()) ?? []).map(\.page)
    keptText += pages.filter { $0.source == .pdfText }.compactMap { $0.pdf?.page }
    guard part.isLast else { return }
    if let note = RunNotes.keptText(path: part.result.path, pageNumbers: keptText) {
      progress?.clear()
      io.printError(note)
    }
    keptText = []
  }
}
