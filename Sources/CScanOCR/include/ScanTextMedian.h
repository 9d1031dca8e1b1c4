// Hand-written (not generated): a 3×3 median filter for 8-bit gray images.
#ifndef SCANTEXT_MEDIAN_H
#define SCANTEXT_MEDIAN_H

struct Pix;

/// The 3×3 median of an 8-bit gray image without a colormap, pixel for
/// pixel what Leptonica's `pixMedianFilter(pixs, 3, 3)` makes (edges
/// extended by repeating the outermost row and column), with the source's
/// resolution; NULL on any other depth or when memory runs out.
///
/// Why not Leptonica's: its rank filter keeps a histogram per pixel and
/// took 1.2 s on a 16-megapixel phone photo (a third of the page's
/// reading); this sorts each column of three once and takes the median of
/// the nine from the sorted columns (the "median of medians" of three
/// sorted columns is exact for 3×3), linear in the pixels.
struct Pix *scantext_median3x3(struct Pix *pixs);

#endif
