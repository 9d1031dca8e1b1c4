// zlib (Debian's zlib1g-dev), for the Flate streams of the PDFs ScanFormats
// writes.
#include <zlib.h>
