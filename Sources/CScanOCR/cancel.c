// Hand-written (not generated): see include/ScanTextCancel.h.
#include "CScanOCR.h"

#include <stdbool.h>

static bool scantext_cancel_requested(void *flag, int words) {
  (void)words;
  return __atomic_load_n((int *)flag, __ATOMIC_ACQUIRE) != 0;
}

void scantext_monitor_cancel_on(ETEXT_DESC *monitor, int *flag) {
  scantext_TessMonitorSetCancelFunc(monitor, scantext_cancel_requested);
  scantext_TessMonitorSetCancelThis(monitor, flag);
}

void scantext_cancel_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }
