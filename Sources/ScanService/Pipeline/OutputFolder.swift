import Foundation
import ScanArguments
import ScanFormats

/// `ocr --output-dir DIR`: one output per input, named after it
/// (`scans/page-7.tif` → `DIR/page-7.json`), in any format.
package struct OutputFolder {
  /// The folder.
  package let path: String
  /// Each input's output, by the input's place in the paths.
  package let outputs: [String]

  /// The outputs of `inputs` in `folder` for `format`.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error) for
  ///   standard input (it has no name to give its output) and for two
  ///   inputs whose outputs would have the same name (`a/p.png` and
  ///   `b/p.png`, or `p.png` and `p.tif`), naming both.
  package init(_ folder: String, inputs: [String], format: FileFormat) throws {
    guard !OutputFile.isStandardOutput(folder) else {
      throw ValidationError("'--output-dir' takes a folder, not standard output")
    }
    let ending = format.outputEnding
    var taken: [String: String] = [:]
    outputs = try inputs.map { input in
      guard input != "-" else {
        throw ValidationError(
          "'-' (standard input) cannot be used with '--output-dir': its output would have no name")
      }
      let output = Self.outputPath(in: folder, forInput: input, ending: ending)
      if let other = taken[output] {
        throw ValidationError(
          "'\(other.escapingControlCharacters)' and '\(input.escapingControlCharacters)' would both be written to '\(output.escapingControlCharacters)': give them different names, or run them apart"
        )
      }
      taken[output] = input
      return output
    }
    path = folder
  }

  /// The output of `input` in `folder`: the input's name without its
  /// ending, then `ending` (`scans/p7.tif` → `DIR/p7.json`).
  /// - Complexity: O(*n*) in the paths' lengths.
  package static func outputPath(in folder: String, forInput input: String, ending: String)
    -> String
  {
    let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
    // The folder as given (messages name it so), then the name.
    return (folder.hasSuffix("/") ? folder : folder + "/") + stem + ending
  }

  /// Makes the folder (and the folders above it) when it is missing.
  /// - Throws: ``ServiceError`` naming the folder and the reason when it is
  ///   not a folder or cannot be made.
  package func create() throws { try Self.create(path) }

  /// Makes `path` (and the folders above it) when it is missing.
  /// - Throws: ``ServiceError`` naming the folder and the reason when it is
  ///   not a folder or cannot be made.
  package static func create(_ path: String) throws {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw ServiceError.outputNotWritable(path: path, reason: "it is not a folder")
      }
      return
    }
    // A link planted where the folder goes is not followed to make a
    // folder elsewhere (as an output file's link to nothing is refused).
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      throw ServiceError.outputNotWritable(
        path: path, reason: "it is a symbolic link to a missing folder")
    }
    // Made folder by folder, as `mkdir -p`: the first that cannot be made
    // gives the reason in the system's words ("read-only file system";
    // Foundation's was "The operation could not be completed").
    var made = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + part
      if mkdir(made, 0o777) != 0, errno != EEXIST {
        throw ServiceError.outputNotWritable(
          path: path,
          reason: "cannot make the folder (\(String(cString: strerror(errno)).lowercased()))")
      }
    }
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw ServiceError.outputNotWritable(path: path, reason: "it is not a folder")
    }
  }
}

extension FileFormat {
  /// The ending of an output file named after its input (`--output-dir`,
  /// `batch`): the format's usual one; `.html` for the accessible HTML,
  /// which has none of its own (`.html` chooses hOCR when reading a name).
  package var outputEnding: String { fileNameSuffixes.first ?? ".html" }
}
