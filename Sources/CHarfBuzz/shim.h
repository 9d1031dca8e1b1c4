// HarfBuzz (Debian's libharfbuzz-dev): its subsetter cuts a free font
// down to the glyphs a typed page of a PDF input shows, for the font that
// page left out (Sources/ScanOCR/PDF/TwinFont.swift).
#include <hb.h>
#include <hb-ot.h>
#include <hb-subset.h>
