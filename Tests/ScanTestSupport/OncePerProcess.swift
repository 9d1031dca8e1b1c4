import Synchronization

/// Values computed once per test process, one per key: the first caller
/// computes, later callers with the same key wait for it and share it, so
/// that tests over the same page share its OCR (suites run side by side).
public final class OncePerProcess<Value: Sendable>: Sendable {
  /// One value, computed by the first caller; later callers wait for it.
  private final class Slot: Sendable {
    let value = Mutex<Value?>(nil)
  }
  private let slots = Mutex<[String: Slot]>([:])

  public init() {}

  /// The value for `key`, computed by `make` if no caller has yet.
  public func value(for key: String, _ make: () -> Value) -> Value {
    let slot = slots.withLock { slots in
      if let slot = slots[key] { return slot }
      let slot = Slot()
      slots[key] = slot
      return slot
    }
    return slot.value.withLock { value in
      if let value { return value }
      let made = make()
      value = made
      return made
    }
  }
}
