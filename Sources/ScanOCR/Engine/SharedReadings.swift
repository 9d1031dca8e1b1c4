import CScanOCR
import Foundation

/// Many small readings of one page, each of a part given by its number
/// (a ruled table's cells), shared between two engines on two threads:
/// each engine takes the next part not yet taken, so that a few slow parts
/// do not hold the other engine idle.
///
/// A part's reading depends only on the engine's settings and the part,
/// never on which engine read it or what it read before, so the readings
/// are the same, in the same order, whichever engine takes which part
/// (`SharedReadingsTests` reads a table on one engine and on two).
final class SharedReadings<Reading>: @unchecked Sendable {
  // Unchecked: every stored value that changes is read and written under
  // `lock`; `read` is called on both threads, and is given an engine that
  // only the calling thread uses.
  private let lock = NSLock()
  private var next = 0
  private var readings: [Reading?]
  private var pastDeadline = false
  private let deadline: Date?
  private let read: (OpaquePointer, Int) -> Reading?

  /// Readings of the parts `0..<count`, each by `read` on an engine set up
  /// for them; none is started at or past `deadline`.
  init(count: Int, deadline: Date?, read: @escaping (OpaquePointer, Int) -> Reading?) {
    readings = Array(repeating: nil, count: count)
    self.deadline = deadline
    self.read = read
  }

  /// Reads parts on `engine` until every part is taken or the deadline
  /// has passed.
  func run(on engine: OpaquePointer) {
    while let part = take() {
      let reading = read(engine, part)
      lock.withLock { readings[part] = reading }
    }
  }

  /// Each part's reading, `nil` where `read` gave none or the part was
  /// not read; and whether a part was left unread because the deadline
  /// had passed. Only once every `run` has returned.
  var results: (readings: [Reading?], timedOut: Bool) {
    lock.withLock { (readings, pastDeadline) }
  }

  private func take() -> Int? {
    lock.withLock {
      guard next < readings.count, !pastDeadline else { return nil }
      if let deadline, Date() >= deadline {
        pastDeadline = true
        return nil
      }
      defer { next += 1 }
      return next
    }
  }
}

/// The second engine's side of ``SharedReadings``: starts the engine when
/// it is new, gives it the page, reads its share, and clears it.
final class PartnerReading<Reading>: @unchecked Sendable {
  // Unchecked: `started` is written on the partner's thread before the
  // semaphore it signals and read on the caller's after waiting for it;
  // the engine and the image are used by that thread alone meanwhile
  // (the image is only read: Tesseract copies it).
  private let partner: TesseractHandle
  private let needsStart: Bool
  private let folder: String
  private let options: RecognitionOptions
  private let setUp: (OpaquePointer) -> Void
  private let shared: SharedReadings<Reading>
  private let done = DispatchSemaphore(value: 0)
  private var started = false

  init(
    partner: TesseractHandle, needsStart: Bool, folder: String, options: RecognitionOptions,
    setUp: @escaping (OpaquePointer) -> Void, shared: SharedReadings<Reading>
  ) {
    self.partner = partner
    self.needsStart = needsStart
    self.folder = folder
    self.options = options
    self.setUp = setUp
    self.shared = shared
  }

  /// Starts the partner's thread.
  func start() {
    let thread = Thread { [self] in
      defer { done.signal() }
      OpenMP.limitThreadsOnCurrentThread()
      // A partner that cannot start leaves every part to the first engine.
      guard !needsStart || OCREngine.start(partner, folder: folder, options: options) else {
        return
      }
      started = true
      setUp(partner.raw)
      shared.run(on: partner.raw)
      scantext_TessBaseAPIClear(partner.raw)
    }
    thread.start()
  }

  /// Waits for the partner's thread to end; whether the partner started.
  func wait() -> Bool {
    done.wait()
    return started
  }
}

extension OCREngine {
  /// Reads the parts `0..<count` with `read`, on this engine and, when the
  /// options give a page two cores or more and there are two parts or
  /// more, on the first partner too (started on its own thread on first
  /// need, while this engine reads, and kept).
  ///
  /// `setUp` gives an engine the page and the settings every part is read
  /// with; this engine is cleared afterwards only by the caller.
  /// - Returns: Each part's reading in the parts' order, `nil` where `read`
  ///   gave none.
  /// - Throws: ``OCRError/timedOut(path:page:seconds:)`` when the page's
  ///   timeout passed before every part was read.
  func sharedReadings<Reading>(
    count: Int, index: Int, path: String, started: Date,
    setUp: @escaping (OpaquePointer) -> Void,
    read: @escaping (OpaquePointer, Int) -> Reading?
  ) throws(OCRError) -> [Reading?] {
    let deadline = options.timeout.map { started.addingTimeInterval($0) }
    let shared = SharedReadings(count: count, deadline: deadline, read: read)
    setUp(api)
    var partner: (handle: TesseractHandle, reading: PartnerReading<Reading>)?
    if options.cores > 1, count > 1 {
      let handle = partners.first ?? TesseractHandle()
      let reading = PartnerReading(
        partner: handle, needsStart: partners.isEmpty, folder: dataFolder, options: options,
        setUp: setUp, shared: shared)
      reading.start()
      partner = (handle, reading)
    }
    shared.run(on: api)
    if let partner, partner.reading.wait(), partners.isEmpty {
      partners.append(partner.handle)
    }
    let (readings, timedOut) = shared.results
    if timedOut, let timeout = options.timeout {
      throw .timedOut(path: path, page: index, seconds: timeout)
    }
    return readings
  }
}
