import ScanFormats
import ScanOCR

/// A failure of the service: reading an input, recognising it, writing an
/// output. Its message names the file and the reason, as the user sees it
/// (the commands print it as `Error: <message>`, exit 1).
package struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, naming the file.
  package var message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }

  /// `error` as a service error: itself when it is one, else its
  /// description.
  package static func wrap(_ error: any Error) -> ServiceError {
    if let e = error as? ServiceError { return e }
    return ServiceError(String(describing: error))
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

  /// What `generator` records in exports.
  package static var generator: Generator {
    Generator(
      name: "scantext", version: version,
      details: ["tesseract": OCREngine.tesseractVersion])
  }
}
