// Hand-written (not generated): see include/ScanTextMedian.h.
#include "ScanTextMedian.h"

#include "CScanOCR.h"
#include "pixel_bytes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t min8(uint8_t a, uint8_t b) { return a < b ? a : b; }
static inline uint8_t max8(uint8_t a, uint8_t b) { return a > b ? a : b; }
static inline uint8_t med3(uint8_t a, uint8_t b, uint8_t c) {
  return max8(min8(a, b), min8(max8(a, b), c));
}

static void unpack(const l_uint32 *line, size_t w, uint8_t *out) {
  const uint8_t *bytes = (const uint8_t *)line;
  for (size_t x = 0; x < w; x++) out[x + 1] = bytes[byte_index(x)];
  out[0] = out[1];
  out[w + 1] = out[w];
}

struct Pix *scantext_median3x3(struct Pix *pixs) {
  if (!pixs || scantext_pixGetDepth(pixs) != 8 || scantext_pixGetColormap(pixs)) return NULL;
  size_t w = (size_t)scantext_pixGetWidth(pixs);
  size_t h = (size_t)scantext_pixGetHeight(pixs);
  if (w == 0 || h == 0) return NULL;
  PIX *pixd = scantext_pixCreate((l_int32)w, (l_int32)h, 8);
  if (!pixd) return NULL;
  scantext_pixCopyResolution(pixd, pixs);
  size_t wpls = (size_t)scantext_pixGetWpl(pixs);
  size_t wpld = (size_t)scantext_pixGetWpl(pixd);
  const l_uint32 *src = scantext_pixGetData(pixs);
  l_uint32 *dst = scantext_pixGetData(pixd);
  // Three unpacked rows (with one repeated pixel at each end) and the
  // sorted columns of the current window.
  uint8_t *rows = malloc(3 * (w + 2));
  uint8_t *lo = malloc(w + 2), *mid = malloc(w + 2), *hi = malloc(w + 2);
  if (!rows || !lo || !mid || !hi) {
    free(rows);
    free(lo);
    free(mid);
    free(hi);
    scantext_pixDestroy(&pixd);
    return NULL;
  }
  uint8_t *r[3] = {rows, rows + (w + 2), rows + 2 * (w + 2)};
  unpack(src, w, r[0]);
  memcpy(r[1], r[0], w + 2);
  if (h > 1) unpack(src + wpls, w, r[2]);
  else memcpy(r[2], r[0], w + 2);
  for (size_t y = 0; y < h; y++) {
    const uint8_t *a = r[0], *b = r[1], *c = r[2];
    for (size_t x = 0; x < w + 2; x++) {
      uint8_t p = a[x], q = b[x], s = c[x];
      uint8_t t;
      if (p > q) { t = p; p = q; q = t; }
      if (q > s) { t = q; q = s; s = t; }
      if (p > q) { t = p; p = q; q = t; }
      lo[x] = p;
      mid[x] = q;
      hi[x] = s;
    }
    uint8_t *out = (uint8_t *)(dst + y * wpld);
    for (size_t x = 0; x < w; x++) {
      uint8_t l = max8(max8(lo[x], lo[x + 1]), lo[x + 2]);
      uint8_t m = med3(mid[x], mid[x + 1], mid[x + 2]);
      uint8_t u = min8(min8(hi[x], hi[x + 1]), hi[x + 2]);
      out[byte_index(x)] = med3(l, m, u);
    }
    // Slide the window down one row; the last row repeats at the bottom.
    uint8_t *first = r[0];
    r[0] = r[1];
    r[1] = r[2];
    r[2] = first;
    if (y + 2 < h) unpack(src + (y + 2) * wpls, w, r[2]);
    else memcpy(r[2], r[1], w + 2);
  }
  free(rows);
  free(lo);
  free(mid);
  free(hi);
  return pixd;
}
