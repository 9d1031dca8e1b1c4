import Foundation
import ScanTestSupport
import Testing

/// `docs/ARCHITECTURE.md` stays true (issue 28, point 6): its graph is
/// `Package.swift`'s targets and dependencies, and the types and steps it
/// names exist.
@Suite("Architecture map")
struct ArchitectureTests {
  static let root = Fixtures.packageRoot
  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The edges `A --> B` of the map's Mermaid graph.
  static func mapEdges(_ text: String) -> Set<String> {
    guard let start = text.range(of: "```mermaid\n"),
      let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
    else { return [] }
    var edges = Set<String>()
    for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
      let parts = line.split(separator: " ").filter { !$0.isEmpty }
      if parts.count == 3, parts[1] == "-->" { edges.insert("\(parts[0]) -> \(parts[2])") }
    }
    return edges
  }

  /// The edges of `Package.swift`: each target's `dependencies` (test
  /// targets aside).
  static func packageEdges(_ text: String) throws -> Set<String> {
    var edges = Set<String>()
    let target = try Regex(
      #"\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
    for match in text.matches(of: target) {
      guard let name = match.output[1].substring else { continue }
      let dependencies = match.output[2].substring ?? ""
      for dependency in dependencies.split(separator: ",") {
        let trimmed = dependency.trimmingCharacters(in: CharacterSet(charactersIn: " \n\""))
        if !trimmed.isEmpty { edges.insert("\(name) -> \(trimmed)") }
      }
    }
    return edges
  }

  @Test func graphIsThePackage() throws {
    let map = Self.mapEdges(try Self.read("docs/ARCHITECTURE.md"))
    let package = try Self.packageEdges(try Self.read("Package.swift"))
    #expect(!package.isEmpty)
    #expect(map.subtracting(package).sorted() == [], "in the map, not in Package.swift")
    #expect(package.subtracting(map).sorted() == [], "in Package.swift, not in the map")
  }

  @Test func namedTypesAndStepsExist() throws {
    let text = try Self.read("docs/ARCHITECTURE.md")
    // The sources and the tests (the map names test suites too).
    var sources = ""
    let folder = Self.root.appendingPathComponent("Sources")
    for top in [folder, Self.root.appendingPathComponent("Tests")] {
      let files = FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        sources += try String(contentsOf: file, encoding: .utf8)
      }
    }
    // `Type` or `Type.member` in backquotes.
    let named = try Regex(#"`([A-Z][A-Za-z0-9]+)(?:\.([a-z][A-Za-z0-9]+))?`"#)
    // Every declared type and function, in one pass.
    let declaration = try Regex(#"(?:struct|class|enum|protocol|typealias|actor|func) (\w+)"#)
    let declared = Set(sources.matches(of: declaration).compactMap { $0.output[1].substring })
    var checked = 0
    var missing: [String] = []
    for match in text.matches(of: named) {
      guard let type = match.output[1].substring else { continue }
      let member = match.output[2].substring
      // A file name (`Package.swift`) names no type.
      if member == "swift" { continue }
      let isTarget = FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(String(type)).path)
      if !isTarget && !declared.contains(type) { missing.append(String(type)) }
      if let member, !declared.contains(member) { missing.append("\(type).\(member)") }
      checked += 1
    }
    #expect(missing == [], "named in the map, declared nowhere")
    #expect(checked > 20)
    // The steps' table is checked against the steps' list by
    // `ImageStepTableTests`.
  }

  /// The map shows the real diff of the last op, step or format added:
  /// every line it shows as added is a line of the sources now.
  @Test func theLastAdditionsDiffIsInTheSources() throws {
    let text = try Self.read("docs/ARCHITECTURE.md")
    let start = try #require(text.range(of: "```diff\n"))
    let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
    let added = text[start.upperBound..<end.lowerBound].split(separator: "\n")
      .filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
    #expect(added.count >= 3)
    var lines = Set<String>()
    let files = FileManager.default.enumerator(
      at: Self.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        lines.insert(String(line))
      }
    }
    #expect(added.filter { !lines.contains($0) } == [], "shown as added, not in the sources")
  }

  /// ScanCLI is thin (the map's rule, issue 49): a command's `run` calls
  /// the service and returns its exit code; the work lies in ScanService.
  /// Every `run` is at most 60 lines, its signature and braces included.
  @Test func everyCommandsRunIsShort() throws {
    var long: [String] = []
    var runs = 0
    let files = FileManager.default.enumerator(
      at: Self.root.appendingPathComponent("Sources/ScanCLI"), includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      let lines = try String(contentsOf: file, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
      for (start, line) in lines.enumerated() where line.contains("func run(_ io: CommandIO)") {
        let indent = line.prefix { $0 == " " }
        let end = lines[start...].firstIndex { $0 == indent + "}" } ?? lines.count
        runs += 1
        if end - start + 1 > 60 {
          long.append("\(file.lastPathComponent):\(start + 1): \(end - start + 1) lines")
        }
      }
    }
    #expect(runs >= 15)
    #expect(long == [], "a command's run longer than 60 lines")
  }
}
