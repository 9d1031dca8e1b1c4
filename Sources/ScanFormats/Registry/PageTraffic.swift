import Synchronization

/// Counts the pages a task reads from a paged document and the pages it
/// is done with (answered or written, and let go), so a test can check
/// that a command reads a page only when the pages before it are done
/// (issue 45: a long model is read page by page, not held whole): a bound
/// on the pages held that neither a clock nor the machine's memory
/// decides.
///
/// Set for a task with `PageTraffic.$current.withValue(traffic) { … }`;
/// no other task, and no run without it, counts anything.
package final class PageTraffic: Sendable {
  /// The traffic counted for the current task; `nil` (the default) for
  /// none.
  @TaskLocal package static var current: PageTraffic?

  private let counts = Mutex((read: 0, done: 0, mostAhead: 0))

  /// A count of nothing yet.
  package init() {}

  /// The pages decoded from a paged document's file.
  package var read: Int { counts.withLock { $0.read } }
  /// The pages done with.
  package var done: Int { counts.withLock { $0.done } }
  /// The most pages read but not yet done with at any time: what a
  /// reading held whole would make the document's page count.
  package var mostAhead: Int { counts.withLock { $0.mostAhead } }

  /// Counts a page decoded from a paged document's file.
  package static func pageRead() {
    current?.counts.withLock {
      $0.read += 1
      $0.mostAhead = max($0.mostAhead, $0.read - $0.done)
    }
  }

  /// Counts a page done with.
  package static func pageDone() {
    current?.counts.withLock { $0.done += 1 }
  }
}
