import Foundation

/// The package's documentation: `README.md` and the Markdown files under
/// `docs/` that the README links to (issue 49, point 5).
///
/// Tests that check what the documentation says read the file the content
/// lives in through ``read(_:)``; tests that run or check every file (the
/// commands of the `sh` blocks, the links) go through ``files``.
public enum Documentation {
  /// The README's most lines: it is a page with links, the rest is in `docs/`.
  public static let readmeLineLimit = 400

  /// Every documentation file, as a path from the package root: `README.md`
  /// first, then every `.md` file under `docs/` (subfolders included),
  /// sorted by path.
  ///
  /// The README comes first because the commands of later files use what
  /// its commands write (`clean.json`).
  /// - Complexity: O(*n* log *n*) in the number of files under `docs/`.
  public static var files: [String] {
    let docs = Fixtures.packageRoot.appendingPathComponent("docs")
    var found: [String] = []
    let walk = FileManager.default.enumerator(atPath: docs.path)
    while let path = walk?.nextObject() as? String {
      if path.hasSuffix(".md") { found.append("docs/" + path) }
    }
    return ["README.md"] + found.sorted()
  }

  /// The text of a documentation file, by its path from the package root
  /// (`docs/commands.md`).
  /// - Throws: when the file cannot be read.
  public static func read(_ path: String) throws -> String {
    try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }
}
