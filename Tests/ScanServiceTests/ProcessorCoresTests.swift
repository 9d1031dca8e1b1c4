import Foundation
import ScanService
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The cores a process may run on follow its affinity (`taskset -c 0`),
/// not the machine's count: `--jobs`' default and a page's parts share it.
@Suite("Processor cores")
struct ProcessorCoresTests {
  #if os(Linux)
    /// `sched_setaffinity` of the calling thread (Swift's Glibc module
    /// hides it behind _GNU_SOURCE): what `taskset -c 0` does to every
    /// thread of a process.
    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer?) -> Int32
    private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32

    /// A thread pinned to one core counts one core, whatever the machine
    /// has; unpinned again, it counts the cores its mask allows (at most
    /// the machine's).
    @Test func aThreadPinnedToOneCoreCountsOne() throws {
      let setter = try #require(dlsym(nil, "sched_setaffinity"))
      let getter = try #require(dlsym(nil, "sched_getaffinity"))
      let setAffinity = unsafeBitCast(setter, to: SetAffinity.self)
      let getAffinity = unsafeBitCast(getter, to: GetAffinity.self)
      // A 1024-core mask, as glibc's `cpu_set_t`.
      var original = [UInt8](repeating: 0, count: 128)
      try #require(original.withUnsafeMutableBytes { getAffinity(0, 128, $0.baseAddress) } == 0)
      let allowed = original.reduce(0) { $0 + $1.nonzeroBitCount }
      #expect(ProcessorCores.available == allowed)
      #expect(allowed <= ProcessInfo.processInfo.activeProcessorCount)
      let byte = try #require(original.firstIndex { $0 != 0 })
      var one = [UInt8](repeating: 0, count: 128)
      one[byte] = UInt8(1) << UInt8(original[byte].trailingZeroBitCount)
      try #require(one.withUnsafeBytes { setAffinity(0, 128, $0.baseAddress) } == 0)
      defer { _ = original.withUnsafeBytes { setAffinity(0, 128, $0.baseAddress) } }
      #expect(ProcessorCores.available == 1)
    }
  #endif
}
