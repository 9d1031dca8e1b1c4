// Hand-written (not generated): stopping a Tesseract reading from another
// thread.
#ifndef SCANTEXT_CANCEL_H
#define SCANTEXT_CANCEL_H

#include <tesseract/capi.h>

/// Makes `monitor` stop the reading it watches once `*flag` is set by
/// scantext_cancel_flag_set (Tesseract polls it before each word). The
/// flag must outlive the reading.
void scantext_monitor_cancel_on(ETEXT_DESC *monitor, int *flag);

/// Sets `*flag` (atomically: the reading polls it from its own thread).
void scantext_cancel_flag_set(int *flag);

#endif
