// HarfBuzz (Debian's libharfbuzz-dev): its subsetter cuts a free font
// down to the glyphs a typed page of a PDF input shows, for the font that
// page left out (Sources/ScanOCR/PDF/TwinFont.swift).
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#include <harfbuzz/hb-subset.h>
// (Named from /usr/include, so that a build without pkg-config's flags,
// the documentation's symbol graphs, finds them too.)
