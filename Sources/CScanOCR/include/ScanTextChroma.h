// Hand-written (not generated): the colour step's per-pixel passes over a
// whole page (see Sources/ScanImaging/ColourSeparation.swift), in C because
// a page has millions of pixels and Swift's debug build is slow at them.
#pragma once

struct Pix;

/// The chroma of each pixel of a 32-bit RGB image: its distance from the
/// line through `ink` and `paper` (red, green, blue), as an 8-bit image
/// (rounded, 255 at most); NULL for another depth.
struct Pix *scantext_chromaFromAxis(struct Pix *rgb, const double ink[3], const double paper[3]);

/// Where the 1-bit `mask` is set, the 8-bit `gray` (as large as `rgb`)
/// takes the neutral layer's value of the RGB pixel: its brightest channel
/// when that is below `neutral_below`, else `paper_gray`. Returns 0 on
/// success, 1 on bad arguments.
int scantext_neutralLayerInMask(struct Pix *gray, struct Pix *rgb, struct Pix *mask,
                                int neutral_below, int paper_gray);

/// Where coloured ink crosses neutral ink: a 1-bit image, set at each pixel
/// of `dark` (1-bit, neutral ink) that has a pixel of `saturated` (1-bit, as
/// large) within `reach` pixels on both its left and right, or both above
/// and below it: a stroke of neutral ink passing under a coloured stroke,
/// which it cuts in two. NULL on bad arguments or when memory runs out.
struct Pix *scantext_crossings(struct Pix *saturated, struct Pix *dark, int reach);

/// The share of the pixels set in the 1-bit `mask` whose hue lies within
/// 60 degrees of one another (the fullest such window): 1 for a mark of
/// one ink, less for marks of several colours; 0 on bad arguments or an
/// empty mask.
double scantext_hueConcentration(struct Pix *rgb, struct Pix *mask);
