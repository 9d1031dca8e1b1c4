// Hand-written (not generated): the byte order of Leptonica's 8-bit
// pixels, shared by the hand-written C passes (median.c, chroma.c).
#ifndef SCANTEXT_PIXEL_BYTES_H
#define SCANTEXT_PIXEL_BYTES_H

#include <stddef.h>

// Leptonica keeps 8-bit pixels in 32-bit words, the first pixel in the
// most significant byte: on a little-endian machine pixel x of a row is
// byte x ^ 3.
static inline size_t byte_index(size_t x) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return x ^ 3;
#else
  return x;
#endif
}

#endif
