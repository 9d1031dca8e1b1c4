// Hand-written (not generated): see include/ScanTextChroma.h.
#include "ScanTextChroma.h"

#include "CScanOCR.h"
#include "pixel_bytes.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct Pix *scantext_chromaFromAxis(struct Pix *rgb, const double ink[3], const double paper[3]) {
  if (!rgb || !ink || !paper || scantext_pixGetDepth(rgb) != 32) return NULL;
  l_int32 w = scantext_pixGetWidth(rgb), h = scantext_pixGetHeight(rgb);
  PIX *out = scantext_pixCreate(w, h, 8);
  if (!out) return NULL;
  double axis[3] = {paper[0] - ink[0], paper[1] - ink[1], paper[2] - ink[2]};
  double length = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
  const l_uint32 *src = scantext_pixGetData(rgb);
  l_uint32 *dst = scantext_pixGetData(out);
  size_t swpl = (size_t)scantext_pixGetWpl(rgb), dwpl = (size_t)scantext_pixGetWpl(out);
  for (l_int32 y = 0; y < h; y++) {
    const l_uint32 *line = src + (size_t)y * swpl;
    uint8_t *bytes = (uint8_t *)(dst + (size_t)y * dwpl);
    for (l_int32 x = 0; x < w; x++) {
      l_uint32 p = line[x];
      double o0 = (double)((p >> 24) & 0xff) - ink[0];
      double o1 = (double)((p >> 16) & 0xff) - ink[1];
      double o2 = (double)((p >> 8) & 0xff) - ink[2];
      double d2 = o0 * o0 + o1 * o1 + o2 * o2;
      if (length > 0) {
        double along = o0 * axis[0] + o1 * axis[1] + o2 * axis[2];
        d2 -= along * along / length;
      }
      double d = d2 > 0 ? sqrt(d2) : 0;
      bytes[byte_index((size_t)x)] = d >= 255 ? 255 : (uint8_t)(d + 0.5);
    }
  }
  return out;
}

int scantext_neutralLayerInMask(struct Pix *gray, struct Pix *rgb, struct Pix *mask,
                                int neutral_below, int paper_gray) {
  if (!gray || !rgb || !mask || scantext_pixGetDepth(gray) != 8 ||
      scantext_pixGetDepth(rgb) != 32 || scantext_pixGetDepth(mask) != 1)
    return 1;
  l_int32 w = scantext_pixGetWidth(rgb), h = scantext_pixGetHeight(rgb);
  if (scantext_pixGetWidth(gray) != w || scantext_pixGetHeight(gray) != h ||
      scantext_pixGetWidth(mask) != w || scantext_pixGetHeight(mask) != h)
    return 1;
  const l_uint32 *src = scantext_pixGetData(rgb);
  const l_uint32 *bits = scantext_pixGetData(mask);
  l_uint32 *dst = scantext_pixGetData(gray);
  size_t swpl = (size_t)scantext_pixGetWpl(rgb), mwpl = (size_t)scantext_pixGetWpl(mask),
         gwpl = (size_t)scantext_pixGetWpl(gray);
  for (l_int32 y = 0; y < h; y++) {
    const l_uint32 *line = src + (size_t)y * swpl;
    const l_uint32 *mline = bits + (size_t)y * mwpl;
    uint8_t *bytes = (uint8_t *)(dst + (size_t)y * gwpl);
    for (l_int32 x = 0; x < w; x++) {
      l_uint32 word = mline[x >> 5];
      if (!word || !((word >> (31 - (x & 31))) & 1)) continue;
      l_uint32 p = line[x];
      int r = (int)((p >> 24) & 0xff), g = (int)((p >> 16) & 0xff), b = (int)((p >> 8) & 0xff);
      int brightest = r > g ? (r > b ? r : b) : (g > b ? g : b);
      bytes[byte_index((size_t)x)] = (uint8_t)(brightest < neutral_below ? brightest : paper_gray);
    }
  }
  return 0;
}

static inline int bit_at(const l_uint32 *line, l_int32 x) {
  return (int)((line[x >> 5] >> (31 - (x & 31))) & 1);
}

struct Pix *scantext_crossings(struct Pix *saturated, struct Pix *dark, int reach) {
  if (!saturated || !dark || reach < 1 || scantext_pixGetDepth(saturated) != 1 ||
      scantext_pixGetDepth(dark) != 1)
    return NULL;
  l_int32 w = scantext_pixGetWidth(saturated), h = scantext_pixGetHeight(saturated);
  if (scantext_pixGetWidth(dark) != w || scantext_pixGetHeight(dark) != h) return NULL;
  PIX *out = scantext_pixCreate(w, h, 1);
  if (!out) return NULL;
  // Rows above a pixel since the last saturated one in its column (top
  // down), then below it (bottom up); capped at reach + 1.
  uint8_t *above = calloc((size_t)w * (size_t)h, 1);
  int *run = malloc(sizeof(int) * (size_t)(w > 0 ? w : 1));
  if (!above || !run) {
    free(above);
    free(run);
    scantext_pixDestroy(&out);
    return NULL;
  }
  const l_uint32 *sbits = scantext_pixGetData(saturated);
  const l_uint32 *dbits = scantext_pixGetData(dark);
  l_uint32 *obits = scantext_pixGetData(out);
  size_t swpl = (size_t)scantext_pixGetWpl(saturated), dwpl = (size_t)scantext_pixGetWpl(dark),
         owpl = (size_t)scantext_pixGetWpl(out);
  int cap = reach + 1;
  for (l_int32 x = 0; x < w; x++) run[x] = cap;
  for (l_int32 y = 0; y < h; y++) {
    const l_uint32 *sline = sbits + (size_t)y * swpl;
    for (l_int32 x = 0; x < w; x++) {
      above[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)(run[x] <= reach);
      run[x] = bit_at(sline, x) ? 1 : (run[x] < cap ? run[x] + 1 : cap);
    }
  }
  for (l_int32 x = 0; x < w; x++) run[x] = cap;
  for (l_int32 y = h - 1; y >= 0; y--) {
    const l_uint32 *sline = sbits + (size_t)y * swpl;
    const l_uint32 *dline = dbits + (size_t)y * dwpl;
    l_uint32 *oline = obits + (size_t)y * owpl;
    // Across the row: columns since the last saturated pixel to the left,
    // then whether one lies within reach to the right.
    int left = cap;
    for (l_int32 x = 0; x < w; x++) {
      int s = bit_at(sline, x);
      int below = run[x] <= reach;
      run[x] = s ? 1 : (run[x] < cap ? run[x] + 1 : cap);
      int fromLeft = left <= reach;
      left = s ? 1 : (left < cap ? left + 1 : cap);
      if (s || !bit_at(dline, x)) continue;
      int vertical = below && above[(size_t)y * (size_t)w + (size_t)x];
      int horizontal = 0;
      if (fromLeft) {
        for (l_int32 k = 1; k <= reach && x + k < w; k++) {
          if (bit_at(sline, x + k)) {
            horizontal = 1;
            break;
          }
        }
      }
      if (vertical || horizontal) oline[x >> 5] |= (l_uint32)1 << (31 - (x & 31));
    }
  }
  free(above);
  free(run);
  return out;
}

double scantext_hueConcentration(struct Pix *rgb, struct Pix *mask) {
  if (!rgb || !mask || scantext_pixGetDepth(rgb) != 32 || scantext_pixGetDepth(mask) != 1) return 0;
  l_int32 w = scantext_pixGetWidth(rgb), h = scantext_pixGetHeight(rgb);
  if (scantext_pixGetWidth(mask) != w || scantext_pixGetHeight(mask) != h) return 0;
  // Hues in bins of 10 degrees.
  long bins[36] = {0};
  long total = 0;
  const l_uint32 *src = scantext_pixGetData(rgb);
  const l_uint32 *bits = scantext_pixGetData(mask);
  size_t swpl = (size_t)scantext_pixGetWpl(rgb), mwpl = (size_t)scantext_pixGetWpl(mask);
  for (l_int32 y = 0; y < h; y++) {
    const l_uint32 *line = src + (size_t)y * swpl;
    const l_uint32 *mline = bits + (size_t)y * mwpl;
    for (l_int32 x = 0; x < w; x++) {
      if (!bit_at(mline, x)) continue;
      l_uint32 p = line[x];
      double r = (double)((p >> 24) & 0xff), g = (double)((p >> 16) & 0xff),
             b = (double)((p >> 8) & 0xff);
      double angle = atan2(sqrt(3.0) * (g - b), 2 * r - g - b) * 180.0 / 3.14159265358979323846;
      if (angle < 0) angle += 360;
      int bin = (int)(angle / 10);
      bins[bin >= 36 ? 35 : bin]++;
      total++;
    }
  }
  if (total == 0) return 0;
  long best = 0;
  for (int start = 0; start < 36; start++) {
    long sum = 0;
    for (int k = 0; k < 6; k++) sum += bins[(start + k) % 36];
    if (sum > best) best = sum;
  }
  return (double)best / (double)total;
}
