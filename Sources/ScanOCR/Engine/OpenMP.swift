import CScanOCR

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
  private typealias SetInt = @convention(c) (Int32) -> Void

  /// Runs every OpenMP parallel region started on the calling thread with
  /// one thread, as `OMP_THREAD_LIMIT=1` would: with at most zero active
  /// levels no region is ever active. (`omp_set_num_threads(1)` has no
  /// effect, since Tesseract asks for its thread counts explicitly, and
  /// `omp_set_dynamic(1)` works but queries the system load at every region.)
  static func limitThreadsOnCurrentThread() {
    setMaxActiveLevels?(0)
  }

  /// `omp_set_max_active_levels` of the OpenMP runtime libtesseract uses,
  /// or `nil` (Tesseract not loaded yet, or built without OpenMP). Looked
  /// up through libtesseract's handle, which searches its dependencies
  /// (libgomp), so it does not depend on the libraries being opened
  /// `RTLD_GLOBAL`.
  static var setMaxActiveLevels: (@convention(c) (Int32) -> Void)? {
    #if canImport(Glibc)
      guard let tesseract = scantext_tesseract_handle(),
        let symbol = dlsym(tesseract, "omp_set_max_active_levels")
      else { return nil }
      return unsafeBitCast(symbol, to: SetInt.self)
    #else
      return nil
    #endif
  }
}
