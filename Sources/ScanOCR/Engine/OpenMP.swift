import CScanOCR

/// Debian's libtesseract runs its LSTM with OpenMP, whose threads spin on a
/// 2-core machine and make a page 4–8× slower than with one thread. The
/// `OMP_THREAD_LIMIT` variable fixes it only when set before the process
/// starts; `omp_set_dynamic(1)` fixes it at run time but applies to the
/// calling thread only. OpenMP's runtime is an optional library of the
/// loader's table (`gomp`), found through libtesseract's handle, which
/// searches its dependencies: a Tesseract built without OpenMP works too,
/// and nothing depends on the libraries being opened `RTLD_GLOBAL`.
enum OpenMP {
  /// Runs every OpenMP parallel region started on the calling thread with
  /// one thread, as `OMP_THREAD_LIMIT=1` would: with at most zero active
  /// levels no region is ever active. (`omp_set_num_threads(1)` has no
  /// effect, since Tesseract asks for its thread counts explicitly, and
  /// `omp_set_dynamic(1)` works but queries the system load at every region.)
  static func limitThreadsOnCurrentThread() {
    guard isAvailable else { return }
    scantext_omp_set_max_active_levels(0)
  }

  /// Whether libtesseract uses an OpenMP runtime (loading libtesseract).
  static var isAvailable: Bool {
    scantext_library_load(Int32(SCANTEXT_LIBRARY_GOMP)) == 0
  }
}
