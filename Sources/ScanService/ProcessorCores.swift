import CScanSignals
import Foundation

/// The cores this process may run on: the one count that `--jobs`' default
/// and limit and a page's parts (``ScanOCR/RecognitionOptions/pageThreads``)
/// share.
package enum ProcessorCores {
  /// The cores the calling thread may run on (its affinity mask, which a
  /// process started under `taskset -c 0` gives every thread), at least 1;
  /// Foundation's count of the machine's active cores when the mask cannot
  /// be read.
  ///
  /// Foundation's `ProcessInfo.activeProcessorCount` counts the machine's
  /// cores and ignores the mask: under `taskset -c 0` on two cores it says
  /// 2, and a page was cut in two parts that then shared the one core.
  /// - Complexity: O(1): one system call over a fixed-size mask.
  package static var available: Int {
    let pinned = Int(scantext_affinity_core_count())
    return pinned > 0 ? pinned : max(1, ProcessInfo.processInfo.activeProcessorCount)
  }
}
