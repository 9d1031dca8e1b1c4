import ScanModel

/// What a preprocessing step is, for everything outside its work: its
/// name (what the page records), its command-line flag, its summary (the
/// step tables' second column) and whether it runs by default.
///
/// Each step declares its descriptor beside its work (`ImageStep`), and
/// the pipeline's list of steps is the one list the option set
/// (``Preprocessing``, ``Preprocessing/default``), the `--no-…` flags,
/// `ocr --help`, the preprocessing benchmark's columns and the README's
/// and `docs/ARCHITECTURE.md`'s step tables follow (``pipeline``;
/// `ImageStepTableTests` checks the tables).
public struct StepDescriptor: Sendable {
  /// The step's name, as the page records it.
  public let name: ImageStepName
  /// The command-line flag that changes the step from its default: a
  /// default step's turns it off (`--no-deskew`), the others' on
  /// (`--upscale`); `nil` for a step with no flag of its own (square
  /// pixels, which only a fax's header asks for).
  public let flag: (name: String, help: String)?
  /// What the step does, in a few words.
  public let summary: String
  /// Whether the step is in ``Preprocessing/default``.
  public let onByDefault: Bool

  /// Creates a descriptor.
  /// - Parameters:
  ///   - name: The step's name.
  ///   - flag: Its flag's name (without `--`) and help, or `nil`.
  ///   - summary: What it does, in a few words.
  ///   - onByDefault: Whether it runs by default (its flag then turns it
  ///     off).
  init(
    _ name: ImageStepName, flag: (name: String, help: String)?, summary: String,
    onByDefault: Bool = true
  ) {
    self.name = name
    self.flag = flag
    self.summary = summary
    self.onByDefault = onByDefault
  }

  /// Whether the step's ``flag`` turns it on (it is not a default step).
  public var flagTurnsOn: Bool { !onByDefault }

  /// Every step's descriptor, in the order the steps run.
  public static let pipeline: [StepDescriptor] = Preprocessor.pipeline.flatMap(\.descriptors)
}
