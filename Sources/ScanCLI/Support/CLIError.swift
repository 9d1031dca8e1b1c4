/// A runtime failure of a command, printed as `Error: <message>` (exit 1).
struct CLIError: CommandFailure, CustomStringConvertible {
  var message: String
  var exitCode: Int32 = 1
  init(_ message: String, exitCode: Int32 = 1) {
    self.message = message
    self.exitCode = exitCode
  }
  var description: String { message }
}

/// A batch finished, but some inputs failed (each already reported).
struct BatchFailure: CommandFailure {
  var message: String { "" }
}
