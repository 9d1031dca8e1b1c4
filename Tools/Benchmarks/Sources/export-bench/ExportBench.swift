import Foundation
import ScanFormats
import ScanModel

/// What a recognised page costs on its way out, per page, on real pages
/// (ScanText JSON files, such as `Tools/compare-outputs save`'s): the
/// cache's entry (the page's JSON value, serialised compact), the JSON
/// output's page (the same value, pretty), and reading an entry back
/// (`DocumentJSON.decode`, the one loader's JSON path). With the cache on
/// and JSON out, a page is encoded twice: the figures say what that costs
/// against recognising it.
///
///   swift run -c release --package-path Tools/Benchmarks \
///     --scratch-path /tmp/bench-build export-bench FILE.json ...
@main
struct ExportBench {
  static func main() throws {
    let paths = Array(CommandLine.arguments.dropFirst())
    guard !paths.isEmpty else {
      print("usage: export-bench FILE.json ...")
      exit(2)
    }
    var pages: [Page] = []
    for path in paths {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      pages += try DocumentJSON.decode(data).pages
    }
    let generator = Generator(name: "scantext", version: "bench", details: [:])
    let clock = ContinuousClock()
    let rounds = 5
    var value = Duration.zero
    var compact = Duration.zero
    var pretty = Duration.zero
    var decode = Duration.zero
    var bytes = 0
    var glyphs = 0
    for _ in 0..<rounds {
      for page in pages {
        // The cache's entry: the document of one page, compact.
        let t0 = clock.now
        let tree = DocumentJSON.value(of: Document(pages: [page]), generator: generator)
        let t1 = clock.now
        let text = tree.serialized()
        let t2 = clock.now
        // The JSON output's page: the same value, pretty.
        var writer = DocumentWriter(format: .json, generator: generator)
        let out = try writer.page(page)
        let t3 = clock.now
        _ = try DocumentJSON.decode(Data(text.utf8))
        let t4 = clock.now
        value += t1 - t0
        compact += t2 - t1
        pretty += t3 - t2
        decode += t4 - t3
        bytes += text.utf8.count + out.utf8.count
      }
    }
    for page in pages {
      glyphs += page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
        .map(\.glyphs.count).reduce(0, +)
    }
    let n = Double(pages.count * rounds)
    func ms(_ d: Duration) -> String {
      let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
      return String(format: "%.2f ms", seconds * 1000 / n)
    }
    print("export-bench: \(pages.count) pages (\(glyphs) glyphs), \(rounds) rounds; per page:")
    print("  JSON value of the page           \(ms(value))")
    print("  compact text (the cache entry)   \(ms(compact))")
    print("  pretty page (the JSON output)    \(ms(pretty))  (its value and text)")
    print("  reading an entry back            \(ms(decode))")
    print("  bytes written per page           \(Int(Double(bytes) / n))")
  }
}
