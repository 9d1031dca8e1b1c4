import Foundation

/// Image files made in a test by Pillow (in `.build/tools-venv`, which
/// `Tools/install/install-dependencies.sh` fills): what a camera, an editor or a
/// scanner's software writes (EXIF orientation tags, palettes, 16 bits,
/// interlacing, alpha, WebP, JPEG 2000, JPEG-in-TIFF).
public enum GeneratedImages {
  /// The venv's Python, when it has Pillow and numpy.
  public static let python: String? = {
    let path = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: path),
      let (status, _) = try? ExternalCheckers.run(path, ["-c", "import PIL, numpy"]), status == 0
    else { return nil }
    return path
  }()

  /// Why tests that make images skip.
  public static let absentMessage =
    "Pillow not in .build/tools-venv (run Tools/install/install-dependencies.sh): generated-image tests skipped"

  /// Runs a Python `script` (Pillow and numpy importable) with `arguments`
  /// in `sys.argv[1:]`; throws with its output when it fails.
  public static func run(_ script: String, _ arguments: [String]) throws {
    guard let python else { throw FixtureError(absentMessage) }
    let (status, output) = try ExternalCheckers.run(python, ["-c", script] + arguments)
    guard status == 0 else { throw FixtureError("python failed (\(status)): \(output)") }
  }

  /// Pillow's `Image.transpose` method that makes the stored image of an
  /// upright picture for each EXIF orientation tag: the inverse of what
  /// `ImageOps.exif_transpose` does to show it (tags 2–5 and 7 are their
  /// own inverse; 6 is shown by ROTATE_270, so stored by ROTATE_90).
  public static let storedTranspose = """
    from PIL import Image
    STORED = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
              4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
              6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
              8: Image.Transpose.ROTATE_270}
    def stored(im, tag):
        return im.transpose(STORED[tag]) if tag in STORED else im.copy()

    """

  /// Makes image files with `script` once per test process; `nil` when
  /// Pillow is not installed (the tests skip), a failure when the script
  /// fails (they fail).
  public static func folder(
    _ script: String, _ arguments: (URL) -> [String], then finish: (URL) throws -> Void = { _ in }
  ) -> Result<URL, FixtureError>? {
    guard python != nil else { return nil }
    do {
      let folder = try Fixtures.temporaryFolder()
      try run(script, arguments(folder))
      try finish(folder)
      return .success(folder)
    } catch let error as FixtureError {
      return .failure(error)
    } catch {
      return .failure(FixtureError("\(error)"))
    }
  }
}
