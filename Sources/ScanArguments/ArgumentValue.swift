/// A type that can be read from a single command-line string.
///
/// The counterpart of swift-argument-parser's `ExpressibleByArgument`.
/// `String`, `Int` and `Double` conform; so does any
/// `CaseIterable` enum whose raw value is a `String`, once it declares the
/// conformance:
///
/// ```swift
/// enum OutputFormat: String, CaseIterable, ArgumentValue { case json, text }
/// ```
///
/// Such an enum's cases are listed in help as `(values: json, text)` and a
/// wrong value is rejected with "Please provide one of 'json' and 'text'."
public protocol ArgumentValue: Sendable {
  /// Creates a value from one command-line string, or returns `nil` when the
  /// string is not a valid value.
  init?(argument: String)

  /// Every accepted value, when the set is closed (enums); empty otherwise.
  static var allValueStrings: [String] { get }

  /// How this value is shown as a default in help: `(default: ...)`.
  var defaultValueDescription: String { get }
}

extension ArgumentValue {
  public static var allValueStrings: [String] { [] }

  public var defaultValueDescription: String { String(describing: self) }
}

extension ArgumentValue where Self: CaseIterable, Self: RawRepresentable, RawValue == String {
  public init?(argument: String) {
    self.init(rawValue: argument)
  }

  public static var allValueStrings: [String] { allCases.map(\.rawValue) }

  public var defaultValueDescription: String { rawValue }
}

extension String: ArgumentValue {
  public init?(argument: String) {
    self = argument
  }
}

extension Int: ArgumentValue {
  public init?(argument: String) {
    self.init(argument)
  }
}

extension Double: ArgumentValue {
  public init?(argument: String) {
    self.init(argument)
  }
}
