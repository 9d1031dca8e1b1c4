import Foundation
import ScanCLI

#if canImport(Glibc)
  import Glibc

  // Blocks of 4 MiB and more (a page's images) always come from their own
  // mappings, returned to the system when freed. glibc's default raises
  // this threshold to the largest block freed so far, so that after the
  // first page image the next ones were carved from the heap, which kept
  // its high-water mark: 10 MB of the peak on a 300 dpi page
  // (docs/measurements/2026-12-06-parallel.md, "Memory cut"). `mallopt`
  // is looked up because Swift's Glibc module leaves out <malloc.h>;
  // -3 is its M_MMAP_THRESHOLD.
  if let symbol = dlsym(nil, "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    _ = mallopt(-3, 4 << 20)
  }
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
exit(ScanText.main(arguments))
