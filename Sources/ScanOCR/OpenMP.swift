#if canImport(Glibc)
  import Glibc
#endif

/// Debian's libtesseract runs its LSTM with OpenMP, whose threads spin on a
/// 2-core machine and make a page 4–8× slower than with one thread. The
/// `OMP_THREAD_LIMIT` variable fixes it only when set before the process
/// starts; `omp_set_dynamic(1)` fixes it at run time but applies to the
/// calling thread only. It is looked up with `dlsym` so that a Tesseract
/// built without OpenMP works too.
enum OpenMP {
  private typealias SetDynamic = @convention(c) (Int32) -> Void

  /// Lets the OpenMP runtime shrink thread teams on the calling thread.
  static func limitThreadsOnCurrentThread() {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_dynamic") else {
        return
      }
      unsafeBitCast(symbol, to: SetDynamic.self)(1)
    #endif
  }
}
