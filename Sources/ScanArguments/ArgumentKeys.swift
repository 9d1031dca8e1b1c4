/// The untyped description of one declared argument: everything the parser,
/// the usage line and the help screen need to know.
///
/// You do not create specs directly; declare typed keys (`Option`, `Flag`,
/// `Argument`) and list them in `CommandConfiguration.arguments`.
public struct ArgumentSpec: Sendable {
  public enum Kind: Sendable, Equatable {
    /// A value identified by its position: `<images>`.
    case positional
    /// A named option that takes a value: `--lang <lang>`.
    case option
    /// A named option without a value: `--verbose`.
    case flag
  }

  public let kind: Kind
  /// The long name without dashes (`"lang"` for `--lang`); `nil` for positionals.
  public let longName: String?
  /// The one-letter short name (`"o"` for `-o`), if any.
  public let shortName: Character?
  /// The name shown between angle brackets: `<lang>`, `<images>`.
  public let valueName: String
  /// One line of help text.
  public let abstract: String
  /// The default shown in help as `(default: ...)`, if any.
  public let defaultDescription: String?
  /// The accepted values shown in help as `(values: ...)`; empty when open.
  public let allValues: [String]
  /// Whether parsing fails when the argument is absent.
  public let isRequired: Bool
  /// A variadic positional (`<images> ...`).
  public let isRepeating: Bool
  /// Checks one raw value; throws `ValueConversionFailure`.
  let validate: @Sendable (String) throws -> Void

  /// The key under which the argument's values are stored: `--lang` or `<images>`.
  public var id: String {
    switch kind {
    case .positional: return "<\(valueName)>"
    case .option, .flag: return "--\(longName ?? valueName)"
    }
  }

  /// The label of a help row: `-o, --output <output>`, `--verbose`, `<images>`.
  var helpLabel: String {
    switch kind {
    case .positional:
      return "<\(valueName)>"
    case .option, .flag:
      var names: [String] = []
      if let shortName { names.append("-\(shortName)") }
      names.append(id)
      let joined = names.joined(separator: ", ")
      return kind == .option ? "\(joined) <\(valueName)>" : joined
    }
  }

  /// The synopsis without brackets: `--lang <lang>`, `<images> ...`.
  var bareSynopsis: String {
    var text: String
    switch kind {
    case .positional: text = "<\(valueName)>"
    case .option: text = "\(id) <\(valueName)>"
    case .flag: text = id
    }
    if isRepeating { text += " ..." }
    return text
  }

  /// The synopsis in a usage line: `[--lang <lang>]`, `<images> ...`.
  var usageSynopsis: String {
    isRequired ? bareSynopsis : "[\(bareSynopsis)]"
  }

  /// A named option as written with a given name: `-o <output>`, `--verbose`.
  func synopsis(named name: String) -> String {
    kind == .option ? "\(name) <\(valueName)>" : name
  }

  init(
    kind: Kind, longName: String?, shortName: Character?, valueName: String,
    abstract: String, defaultDescription: String? = nil, allValues: [String] = [],
    isRequired: Bool, isRepeating: Bool = false,
    validate: @escaping @Sendable (String) throws -> Void
  ) {
    self.kind = kind
    self.longName = longName
    self.shortName = shortName
    self.valueName = valueName
    self.abstract = abstract
    self.defaultDescription = defaultDescription
    self.allValues = allValues
    self.isRequired = isRequired
    self.isRepeating = isRepeating
    self.validate = validate
  }
}

/// Something a command lists in `CommandConfiguration.arguments`:
/// an `Option`, a `Flag` or an `Argument`.
public protocol ArgumentKey: Sendable {
  var spec: ArgumentSpec { get }
}

/// Thrown by a value conversion; `reason` is appended to the error message.
struct ValueConversionFailure: Error {
  var reason: String?
}

/// Shared conversion helpers for the typed keys.
enum ValueConversion {
  /// Converts with a failable initializer: `nil` means "invalid, no reason".
  static func failable<T>(_ make: @escaping @Sendable (String) -> T?)
    -> @Sendable (String) throws -> T
  {
    { raw in
      guard let value = make(raw) else { throw ValueConversionFailure(reason: nil) }
      return value
    }
  }

  /// Wraps a custom parse closure: its error becomes the reason.
  static func throwing<T>(_ parse: @escaping @Sendable (String) throws -> T)
    -> @Sendable (String) throws -> T
  {
    { raw in
      do {
        return try parse(raw)
      } catch let failure as ValueConversionFailure {
        throw failure
      } catch {
        throw ValueConversionFailure(reason: CommandLineTool.message(for: error))
      }
    }
  }

  /// The last value given, converted; `fallback` (or a missing-argument
  /// error when there is none) when the argument was not given.
  static func single<T: Sendable>(
    _ spec: ArgumentSpec, fallback: T?, convert: @escaping @Sendable (String) throws -> T
  ) -> @Sendable ([String]) throws -> T {
    { raws in
      guard let raw = raws.last else {
        if let fallback { return fallback }
        throw UsageError.missingArgument(spec)
      }
      return try convertForLookup(raw, spec: spec, convert: convert)
    }
  }

  /// The last value given, converted, or `nil`.
  static func optional<T: Sendable>(
    _ spec: ArgumentSpec, convert: @escaping @Sendable (String) throws -> T
  ) -> @Sendable ([String]) throws -> T? {
    { raws in
      guard let raw = raws.last else { return nil }
      return try convertForLookup(raw, spec: spec, convert: convert)
    }
  }

  /// Every value given, converted (at least one: the parser checks that).
  static func array<T: Sendable>(
    _ spec: ArgumentSpec, convert: @escaping @Sendable (String) throws -> T
  ) -> @Sendable ([String]) throws -> [T] {
    { raws in
      guard !raws.isEmpty else { throw UsageError.missingArgument(spec) }
      return try raws.map { try convertForLookup($0, spec: spec, convert: convert) }
    }
  }

  private static func convertForLookup<T>(
    _ raw: String, spec: ArgumentSpec, convert: (String) throws -> T
  ) throws -> T {
    do {
      return try convert(raw)
    } catch let failure as ValueConversionFailure {
      throw UsageError.invalidValue(raw, spec: spec, name: nil, reason: failure.reason)
    }
  }

  static func validator<T>(_ convert: @escaping @Sendable (String) throws -> T)
    -> @Sendable (String) throws -> Void
  {
    { raw in _ = try convert(raw) }
  }
}

// MARK: - Option

/// A named option that takes a value, declared once and used both for help and
/// for reading its value:
///
/// ```swift
/// static let lang = Option<String>("lang", help: "Recognition language.", default: "eng")
/// static let output = Option<String?>("output", short: "o", help: "Write to this file.")
/// static let psm = Option<Int>("psm", help: "Page segmentation mode.")  // required
/// static let point = Option<Point>("point", help: "A point x,y.", parse: Point.parse)
/// ```
///
/// The value type decides the arity, as in swift-argument-parser: `T` with a
/// `default:` is optional in usage, `T` without one is required, `T?` is
/// optional. Giving an option twice is a usage error. Read it with
/// `try arguments[Self.lang]`.
public struct Option<Value: Sendable>: ArgumentKey {
  public let spec: ArgumentSpec
  let resolve: @Sendable ([String]) throws -> Value

  private init(
    name: String, short: Character?, valueName: String?, help: String,
    defaultDescription: String?, allValues: [String], isRequired: Bool,
    convert: @escaping @Sendable (String) throws -> Value,
    resolve: (ArgumentSpec) -> @Sendable ([String]) throws -> Value
  ) {
    spec = ArgumentSpec(
      kind: .option, longName: name, shortName: short, valueName: valueName ?? name,
      abstract: help, defaultDescription: defaultDescription, allValues: allValues,
      isRequired: isRequired, validate: ValueConversion.validator(convert))
    self.resolve = resolve(spec)
  }
}

extension Option where Value: ArgumentValue {
  /// A single-valued option; required unless a default is given.
  public init(
    _ name: String, short: Character? = nil, valueName: String? = nil,
    help: String, default defaultValue: Value? = nil
  ) {
    let convert = ValueConversion.failable { Value(argument: $0) }
    self.init(
      name: name, short: short, valueName: valueName, help: help,
      defaultDescription: defaultValue?.defaultValueDescription,
      allValues: Value.allValueStrings, isRequired: defaultValue == nil, convert: convert
    ) { ValueConversion.single($0, fallback: defaultValue, convert: convert) }
  }
}

extension Option {
  /// An optional single-valued option: `Option<String?>`.
  public init<Wrapped: ArgumentValue>(
    _ name: String, short: Character? = nil, valueName: String? = nil, help: String
  ) where Value == Wrapped? {
    let convert: @Sendable (String) throws -> Wrapped = ValueConversion.failable {
      Wrapped(argument: $0)
    }
    self.init(
      name: name, short: short, valueName: valueName, help: help, defaultDescription: nil,
      allValues: Wrapped.allValueStrings, isRequired: false, convert: { try convert($0) }
    ) { ValueConversion.optional($0, convert: convert) }
  }

  /// A required option with a custom parser. An error thrown by `parse` is
  /// reported as "The value 'x' is invalid for '--name <name>': <reason>".
  public init(
    _ name: String, valueName: String? = nil, help: String,
    parse: @escaping @Sendable (String) throws -> Value
  ) {
    let convert = ValueConversion.throwing(parse)
    self.init(
      name: name, short: nil, valueName: valueName, help: help, defaultDescription: nil,
      allValues: [], isRequired: true, convert: convert
    ) { ValueConversion.single($0, fallback: nil, convert: convert) }
  }

  /// An optional option with a custom parser: `Option<Point?>`.
  public init<Wrapped: Sendable>(
    _ name: String, valueName: String? = nil, help: String,
    parse: @escaping @Sendable (String) throws -> Wrapped
  ) where Value == Wrapped? {
    let convert = ValueConversion.throwing(parse)
    self.init(
      name: name, short: nil, valueName: valueName, help: help, defaultDescription: nil,
      allValues: [], isRequired: false, convert: { try convert($0) }
    ) { ValueConversion.optional($0, convert: convert) }
  }
}

// MARK: - Flag

/// A named option without a value: `--verbose`, `--no-cache`.
/// Read it with `arguments[Self.verbose]` (a `Bool`). Giving it twice is allowed.
public struct Flag: ArgumentKey {
  public let spec: ArgumentSpec

  public init(_ name: String, short: Character? = nil, help: String) {
    spec = ArgumentSpec(
      kind: .flag, longName: name, shortName: short, valueName: name,
      abstract: help, isRequired: false, validate: { _ in })
  }
}

// MARK: - Argument (positional)

/// A required positional argument:
///
/// ```swift
/// static let image = Argument<String>("image", help: "The image file.")        // <image>
/// static let images = Argument<[String]>("images", help: "The image files.")    // <images> ...
/// ```
///
/// Positionals are filled in declaration order; an array (variadic) takes all
/// remaining values, at least one, so declare it last. Read with
/// `try arguments[Self.images]`.
public struct Argument<Value: Sendable>: ArgumentKey {
  public let spec: ArgumentSpec
  let resolve: @Sendable ([String]) throws -> Value
}

extension Argument where Value: ArgumentValue {
  /// A single required positional.
  public init(_ name: String, help: String) {
    let convert = ValueConversion.failable { Value(argument: $0) }
    spec = ArgumentSpec(
      kind: .positional, longName: nil, shortName: nil, valueName: name, abstract: help,
      allValues: Value.allValueStrings, isRequired: true,
      validate: ValueConversion.validator(convert))
    resolve = ValueConversion.single(spec, fallback: nil, convert: convert)
  }
}

extension Argument {
  /// A variadic positional taking one value or more: `Argument<[String]>`.
  public init<Element: ArgumentValue>(_ name: String, help: String) where Value == [Element] {
    let convert = ValueConversion.failable { Element(argument: $0) }
    spec = ArgumentSpec(
      kind: .positional, longName: nil, shortName: nil, valueName: name, abstract: help,
      allValues: Element.allValueStrings, isRequired: true, isRepeating: true,
      validate: ValueConversion.validator(convert))
    resolve = ValueConversion.array(spec, convert: convert)
  }

  /// A variadic positional taking any number of values, none included
  /// (the inputs of a command that can also take them from a file).
  public init<Element: ArgumentValue>(_ name: String, help: String, allowsNone: Bool)
  where Value == [Element] {
    let convert = ValueConversion.failable { Element(argument: $0) }
    let spec = ArgumentSpec(
      kind: .positional, longName: nil, shortName: nil, valueName: name, abstract: help,
      allValues: Element.allValueStrings, isRequired: !allowsNone, isRepeating: true,
      validate: ValueConversion.validator(convert))
    self.spec = spec
    let some = ValueConversion.array(spec, convert: convert)
    resolve = { raws in allowsNone && raws.isEmpty ? [] : try some(raws) }
  }
}
