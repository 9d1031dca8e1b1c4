import ScanArguments

/// A runtime failure of a command, printed as `Error: <message>` (exit 1).
struct CLIError: CommandFailure, CustomStringConvertible {
  var message: String
  init(_ message: String) {
    self.message = message
  }
  var description: String { message }
}

/// A batch finished, but some inputs failed (each already reported).
struct BatchFailure: CommandFailure {
  var message: String { "" }
}
