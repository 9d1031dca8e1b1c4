import Foundation
import ScanFormats
import ScanTestSupport
import Testing

/// docs/examples/ReadFolder, a package depending on ScanText by its path,
/// builds and reads a folder of scans to ALTO through the cache, as
/// ScanService's getting-started article says.
@Suite("ReadFolder example")
struct ReadFolderExampleTests {
  @Test(
    .enabled(
      if: ExternalCheckers.swift != nil,
      "swift is not on PATH: the example docs/examples/ReadFolder is not built"))
  func theExampleBuildsAndReadsAFolderToALTO() throws {
    let swift = try #require(ExternalCheckers.swift)
    let work = try Fixtures.temporaryFolder()
    // A checkout named as `git clone` names it, which the example's
    // manifest names its path dependency by (SwiftPM names it after its
    // folder, resolving links), whatever this checkout's folder is called:
    // a folder `ScanText` whose package files are links to this one's, and
    // the example copied to its place in it.
    let checkout = work.appendingPathComponent("ScanText")
    let examples = checkout.appendingPathComponent("docs/examples")
    try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
    for entry in ["Package.swift", "Sources", "Tests"] {
      try FileManager.default.createSymbolicLink(
        at: checkout.appendingPathComponent(entry),
        withDestinationURL: Fixtures.packageRoot.appendingPathComponent(entry))
    }
    let example = examples.appendingPathComponent("ReadFolder")
    try FileManager.default.copyItem(
      at: Fixtures.packageRoot.appendingPathComponent("docs/examples/ReadFolder"), to: example)
    let build = work.appendingPathComponent("build")
    let (built, log) = try ExternalCheckers.run(
      swift,
      [
        "build", "--package-path", example.path, "--scratch-path", build.path, "-Xswiftc",
        "-warnings-as-errors",
      ])
    #expect(built == 0, "\(log)")
    guard built == 0 else { return }
    let main = try String(
      contentsOf: example.appendingPathComponent("Sources/ReadFolder/main.swift"), encoding: .utf8)
    #expect(main.split(separator: "\n").count <= 20)

    let scans = work.appendingPathComponent("scans")
    try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Fixtures.scans.appendingPathComponent("dpi-150.png"),
      to: scans.appendingPathComponent("dpi-150.png"))
    let out = work.appendingPathComponent("alto")
    let cache = work.appendingPathComponent("cache")
    let (status, output) = try ExternalCheckers.run(
      build.appendingPathComponent("debug/ReadFolder").path, [scans.path, out.path],
      environment: ["XDG_CACHE_HOME": cache.path])
    #expect(status == 0, "\(output)")
    #expect(output.contains("1 pages of 1 inputs written to"))
    let alto = try Data(contentsOf: out.appendingPathComponent("dpi-150.alto.xml"))
    #expect(!(try DocumentFormat.alto.decode(alto).pages[0].words.isEmpty))
    // The page went into the cache scantext uses.
    let entries = try FileManager.default.contentsOfDirectory(
      atPath: cache.appendingPathComponent("scantext").path)
    #expect(entries.count == 1)
  }
}
