// See scantext_affinity_core_count in include/ScanTextSignals.h.
#define _GNU_SOURCE
#include "ScanTextSignals.h"

#ifdef __linux__
#include <sched.h>

int scantext_affinity_core_count(void) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 0;
  return CPU_COUNT(&mask);
}
#else
int scantext_affinity_core_count(void) { return 0; }
#endif
