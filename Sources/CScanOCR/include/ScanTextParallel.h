// Hand-written (not generated): one page's parts recognised side by side.
#ifndef SCANTEXT_PARALLEL_H
#define SCANTEXT_PARALLEL_H

struct TessBaseAPI;
struct ETEXT_DESC;

/// Runs `TessBaseAPIRecognize(apis[i], monitors[i])` for every i in
/// 0..<count at once: apis[0] on the calling thread, each other one on a
/// thread of its own, joined before it returns; `statuses[i]` receives each
/// result. An engine whose thread cannot be started (or all of them, when
/// memory runs out) is run on the calling thread afterwards: the results
/// are the same, only later. `monitors` may be NULL, or hold NULLs.
///
/// Every engine must be distinct and have its image and rectangle set on
/// the calling thread before: nothing is shared between the threads but
/// what Tesseract shares between instances itself (its read-only
/// dictionaries). When `limit_openmp` is non-zero each thread limits its
/// OpenMP regions to one thread (`omp_set_max_active_levels(0)`), as
/// ScanText's own threads do: OpenMP's spinning threads make a page 4-8
/// times slower on a 2-core machine.
///
/// Why in C: a Tesseract handle is not `Sendable` in Swift, and the
/// engines are confined to this call for its duration.
void scantext_recognize_side_by_side(struct TessBaseAPI *const *apis,
                                     struct ETEXT_DESC *const *monitors, int count,
                                     int limit_openmp, int *statuses);

#endif
