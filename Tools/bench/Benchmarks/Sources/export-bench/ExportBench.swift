import CZlibBench
import Foundation
import ScanFormats
import ScanModel

/// What a recognised page costs on its way out, per page, on real pages
/// (ScanText JSON files, such as `Tools/check/compare-outputs save`'s), with the
/// cache on and JSON out, in the two designs:
///
/// - before (cache entries `scantext-cache-2`): the worker serialised the
///   page's JSON value compact for the cache entry, then the writer encoded
///   the pretty page for the output; a hit decoded the compact text.
/// - now (`scantext-cache-3`): the worker encodes the page once
///   (`DocumentJSON.PageText`, the pretty text the output writes), the
///   entry is the document of that text compressed with zlib at level 1,
///   and the output copies the text with its `image` and `index` written
///   afresh; a hit uncompresses and decodes the pretty document.
///
/// CPU time per page of each piece, and the entry's size in each design
/// (zlib levels 1 and 6 both measured).
///
///   swift run -c release --package-path Tools/bench/Benchmarks \
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
    let rounds = 5
    var old = Times()
    var new = Times()
    var oldBytes = 0
    var newBytes = 0
    var level6Bytes = 0
    var textBytes = 0
    for _ in 0..<rounds {
      for page in pages {
        // Before: compact for the cache, pretty for the output.
        var t = cpu()
        let compact = DocumentJSON.value(of: Document(pages: [page]), generator: generator)
          .serialized()
        old.entry += cpu() - t
        t = cpu()
        var writer = DocumentWriter(format: .json, generator: generator)
        let out = try writer.page(page)
        old.output += cpu() - t
        t = cpu()
        _ = try DocumentJSON.decode(Data(compact.utf8))
        old.hit += cpu() - t
        oldBytes += compact.utf8.count

        // Now: one encoding, shared.
        t = cpu()
        let text = DocumentJSON.PageText(page)
        new.encode += cpu() - t
        t = cpu()
        var entryWriter = DocumentWriter(format: .json, generator: generator)
        let body = Data(
          (entryWriter.head() + (try entryWriter.page(page, encoded: text)) + entryWriter.tail())
            .utf8)
        let entry = compress(body, level: 1)
        new.entry += cpu() - t
        t = cpu()
        var outWriter = DocumentWriter(format: .json, generator: generator)
        let copied = try outWriter.page(page.withIndex(page.index + 1), encoded: text)
        new.output += cpu() - t
        t = cpu()
        let inflated = uncompress(entry, size: body.count)
        let read = try DocumentJSON.decode(inflated)
        new.hit += cpu() - t
        precondition(read.pages.count == 1 && copied.utf8.count >= out.utf8.count)
        newBytes += entry.count
        level6Bytes += compress(body, level: 6).count
        textBytes += body.count
      }
    }
    let glyphs = pages.flatMap(\.blocks).flatMap(\.paragraphs).flatMap(\.lines)
      .flatMap(\.words).map(\.glyphs.count).reduce(0, +)
    let n = Double(pages.count * rounds)
    func ms(_ seconds: Double) -> String { String(format: "%6.2f ms", seconds * 1000 / n) }
    func kb(_ bytes: Int) -> String { String(format: "%6.1f kB", Double(bytes) / n / 1000) }
    print("export-bench: \(pages.count) pages (\(glyphs) glyphs), \(rounds) rounds;")
    print("CPU per page, cache on and JSON out:")
    print("  before: compact entry text      \(ms(old.entry))")
    print("          pretty output page      \(ms(old.output))")
    print("          on its way out          \(ms(old.entry + old.output))")
    print("          a hit read back         \(ms(old.hit))")
    print("  now:    the one encoding        \(ms(new.encode))")
    print("          entry (zlib level 1)    \(ms(new.entry))")
    print("          output (a copy)         \(ms(new.output))")
    print("          on its way out          \(ms(new.encode + new.entry + new.output))")
    print("          a hit read back         \(ms(new.hit))")
    print("cache entry per page:")
    print("  before: compact JSON            \(kb(oldBytes))")
    print("  now:    pretty JSON, zlib 1     \(kb(newBytes))  (of \(kb(textBytes)))")
    print("          (zlib 6 would give      \(kb(level6Bytes)))")
  }

  struct Times {
    var encode = 0.0
    var entry = 0.0
    var output = 0.0
    var hit = 0.0
  }

  /// The CPU time of this thread, in seconds.
  static func cpu() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  static func compress(_ data: Data, level: Int32) -> Data {
    var size = compressBound(uLong(data.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let status = data.withUnsafeBytes { raw in
      out.withUnsafeMutableBufferPointer { target in
        compress2(
          target.baseAddress, &size, raw.bindMemory(to: UInt8.self).baseAddress,
          uLong(data.count), level)
      }
    }
    precondition(status == Z_OK)
    return Data(out.prefix(Int(size)))
  }

  static func uncompress(_ data: Data, size: Int) -> Data {
    var out = [UInt8](repeating: 0, count: size)
    var length = uLong(size)
    let status = data.withUnsafeBytes { raw in
      out.withUnsafeMutableBufferPointer { target in
        CZlibBench.uncompress(
          target.baseAddress, &length, raw.bindMemory(to: UInt8.self).baseAddress,
          uLong(data.count))
      }
    }
    precondition(status == Z_OK && Int(length) == size)
    return Data(out)
  }
}
