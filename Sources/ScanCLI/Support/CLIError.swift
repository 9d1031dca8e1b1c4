import ScanArguments
import ScanService

/// A runtime failure of a command, printed as `Error: <message>` (exit 1).
struct CLIError: CommandFailure, CustomStringConvertible {
  var message: String
  init(_ message: String) {
    self.message = message
  }
  var description: String { message }
}

// The service's failures, printed as the commands' own: `Error: <message>`
// (exit 1); a batch whose failures were each reported ends with exit 1 and
// nothing more.
extension ServiceError: CommandFailure {}

extension BatchFailure: CommandFailure {
  public var message: String { "" }
}
