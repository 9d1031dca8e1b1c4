import ScanArguments
import ScanService

// The service's failures, printed as the commands' own: `Error: <message>`
// (exit 1); a batch whose failures were each reported ends with exit 1 and
// nothing more.
extension ServiceError: CommandFailure {}

extension BatchFailure: CommandFailure {
  public var message: String { "" }
}
