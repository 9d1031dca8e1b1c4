extension String {
  /// The string with control characters written as escapes: `\n`, `\r`,
  /// `\t`, and `\u{1B}` for the others (C0, DEL and C1). Messages name
  /// files, and a file name may hold a newline or an escape sequence: an
  /// error line stays one line, and never moves the cursor or recolours
  /// the terminal.
  ///
  /// - Complexity: O(*n*) in the string's length.
  public var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: Self.isControl) else { return self }
    var result = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where Self.isControl(scalar):
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}

extension CommandIO {
  /// Writes `Error: ` and `message`, its control characters escaped, as
  /// one line on standard error.
  public func printErrorMessage(_ message: String) {
    printError("Error: " + message.escapingControlCharacters)
  }
}
