// Hand-written (not generated): see include/ScanTextParallel.h.
#include "ScanTextParallel.h"

#include "CScanOCR.h"

#include <pthread.h>
#include <stdlib.h>

struct scantext_part {
  TessBaseAPI *api;
  ETEXT_DESC *monitor;
  int limit_openmp;
  int status;
};

static void *scantext_recognize_part(void *argument) {
  struct scantext_part *part = argument;
  if (part->limit_openmp) scantext_omp_set_max_active_levels(0);
  part->status = scantext_TessBaseAPIRecognize(part->api, part->monitor);
  return NULL;
}

void scantext_recognize_side_by_side(struct TessBaseAPI *const *apis,
                                     struct ETEXT_DESC *const *monitors, int count,
                                     int limit_openmp, int *statuses) {
  if (count <= 0) return;
  struct scantext_part *parts = calloc((size_t)count, sizeof *parts);
  pthread_t *threads = calloc((size_t)count, sizeof *threads);
  int *started = calloc((size_t)count, sizeof *started);
  if (!parts || !threads || !started) {
    // No memory for the bookkeeping: one after the other on this thread.
    for (int i = 0; i < count; i++) {
      statuses[i] = scantext_TessBaseAPIRecognize(apis[i], monitors ? monitors[i] : NULL);
    }
    free(parts);
    free(threads);
    free(started);
    return;
  }
  for (int i = 0; i < count; i++) {
    parts[i].api = apis[i];
    parts[i].monitor = monitors ? monitors[i] : NULL;
    parts[i].limit_openmp = limit_openmp;
    parts[i].status = -1;
  }
  for (int i = 1; i < count; i++) {
    started[i] = pthread_create(&threads[i], NULL, scantext_recognize_part, &parts[i]) == 0;
  }
  scantext_recognize_part(&parts[0]);
  for (int i = 1; i < count; i++) {
    if (started[i]) {
      pthread_join(threads[i], NULL);
    } else {
      scantext_recognize_part(&parts[i]);
    }
  }
  for (int i = 0; i < count; i++) statuses[i] = parts[i].status;
  free(parts);
  free(threads);
  free(started);
}
