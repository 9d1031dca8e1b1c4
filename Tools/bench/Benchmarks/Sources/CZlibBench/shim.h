// zlib, for export-bench's measure of the cache entry's compression (the
// benchmark package cannot see ScanFormats' package-level Deflate).
#include <zlib.h>
