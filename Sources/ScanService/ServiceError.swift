import Foundation
import ScanFormats
import ScanOCR

/// A failure of the service: reading an input, recognising it, writing an
/// output. Each case says what went wrong and holds what the message
/// needs; ``message`` names the file and the reason as the user reads it
/// (the commands print it as `Error: <message>`, exit 1).
public enum ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An input (a file, a stream, standard input `-`) could not be read:
  /// missing, a directory, unreadable, empty, too long to hold, a FIFO
  /// nobody writes to. `reason` follows the path: `no such file`.
  case inputUnreadable(path: String, reason: String)
  /// A file that is not a document ScanText reads, or one whose content is
  /// refused: `reason` names the format, the element path and why.
  case notADocument(path: String, reason: String)
  /// Recognition failed: an image that does not decode, a damaged page,
  /// the timeout, a size limit, a language not installed (the engine's
  /// error, which names the file and the page).
  case recognitionFailed(OCRError)
  /// `--pages` names a page past the document's end.
  case pageOutOfRange(path: String, page: Int, count: Int)
  /// The output cannot be written: refused (a directory, one of the
  /// inputs) or the system's reason (`permission denied`, `no space left
  /// on device`).
  case outputNotWritable(path: String, reason: String)
  /// The output's format cannot hold the document (a second page of PAGE
  /// XML); `format` is its name as the user reads it.
  case formatCannotHold(format: String, reason: String)
  /// Writing a page of the output failed for a reason of its format (the
  /// searchable PDF's).
  case pageNotWritten(path: String, reason: String)
  /// A temporary file (in `folder`, when one was being made) could not be
  /// made or used.
  case temporaryFileUnusable(folder: String?, reason: String)
  /// A query's argument lies outside the page (a position or range past
  /// its text).
  case outsidePage(String)
  /// Any other failure, with its whole message.
  case other(String)

  /// A failure known only by its message.
  package init(_ message: String) {
    self = .other(message)
  }

  /// What went wrong, naming the file, as the user reads it.
  public var message: String {
    switch self {
    case .inputUnreadable(let path, let reason), .notADocument(let path, let reason),
      .pageNotWritten(let path, let reason):
      return "\(path): \(reason)"
    case .recognitionFailed(let error):
      switch error {
      // What to do about a limit, said where it is met.
      case .imageTooLarge, .pageTooLarge, .upscaledImageTooLarge:
        return error.description + " (raise the limit with --max-pixels)"
      default:
        return error.description
      }
    case .pageOutOfRange(let path, let page, let count):
      return
        "\(path): --pages asks for page \(page), but the document has \(count) page\(count == 1 ? "" : "s")"
    case .outputNotWritable(let path, let reason):
      return "\(path): cannot write the output: \(reason)"
    case .formatCannotHold(let format, let reason):
      return "cannot write \(format): \(reason)"
    case .temporaryFileUnusable(let folder?, let reason):
      return "cannot make a temporary file in \(folder): \(reason)"
    case .temporaryFileUnusable(nil, let reason):
      return "cannot use a temporary file: \(reason)"
    case .outsidePage(let message), .other(let message):
      return message
    }
  }

  /// The message (``message``).
  public var description: String { message }

  /// `error` as a service error: itself when it is one, the engine's error
  /// as ``recognitionFailed(_:)``, else its description.
  package static func wrap(_ error: any Error) -> ServiceError {
    switch error {
    case let error as ServiceError: return error
    case let error as OCRError: return .recognitionFailed(error)
    default: return .other(String(describing: error))
    }
  }
}

/// A batch finished, but some inputs failed (each already reported): the
/// run ends with exit 1 and nothing more to say.
package struct BatchFailure: Error, Sendable {
  package init() {}
}

/// The tool's name and version as outputs record them.
package enum ToolIdentity {
  /// The tool's version (`scantext --version`, the cache's keys, the
  /// generator and producer recorded in outputs).
  package static let version = "0.1.0"

  /// The date outputs record (a PDF's dates, ALTO's processing date): the
  /// time of the run, or ``fixedDate``.
  package static var date: Date { fixedDate ?? Date() }

  /// `SOURCE_DATE_EPOCH` (seconds since 1970, the reproducible-builds
  /// convention) when it is set to a whole number: outputs then record it
  /// instead of the time, and the searchable PDF of a PDF gets an `/ID`
  /// made from its bytes, so two runs on the same input write the same
  /// bytes. `nil` when unset or not a number.
  package static var fixedDate: Date? {
    guard let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"],
      let seconds = Int64(text), seconds >= 0
    else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// What `generator` records in exports.
  package static var generator: Generator {
    Generator(
      name: "scantext", version: version,
      details: ["tesseract": OCREngine.tesseractVersion])
  }
}
