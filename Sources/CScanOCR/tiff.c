// Hand-written (not generated): see include/ScanTextTIFF.h.
#include "ScanTextTIFF.h"

#include "bindings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

static TIFFErrorHandler default_error_handler;
static TIFFErrorHandler default_warning_handler;

static void quiet_handler(const char *module, const char *format, va_list arguments) {
  (void)module;
  (void)format;
  (void)arguments;
}

// libtiff reports a damaged strip or tile (a read past the end, data its
// codec cannot decode) through the error handler and goes on: Leptonica's
// reader and TIFFReadRGBAImage may still return an image, half of it
// blank or garbage. Every error is counted, per thread (a page is decoded
// on one thread), so that a page whose decoding raised one is refused.
// Counted by the "Ext" handler, which libtiff calls besides the plain one:
// Leptonica sets the plain handlers to its own each time it opens a TIFF.
static _Thread_local unsigned long error_count;

static void counting_handler(
  thandle_t handle, const char *module, const char *format, va_list arguments) {
  (void)handle;
  (void)module;
  (void)format;
  (void)arguments;
  error_count++;
}

unsigned long scantext_tiff_error_count(void) { return error_count; }

// libtiff prints through process-wide handlers (also for Leptonica's TIFF
// reading): quiet from the start, the defaults kept to restore them on
// request. Run once by the loader, when libtiff is bound (the libtiff
// Leptonica is linked against, found through Leptonica's handle: never
// another libtiff than Leptonica's).
int scantext_tiff_setup(char *error, size_t size) {
  (void)error;
  (void)size;
  default_error_handler = scantext_TIFFSetErrorHandler(quiet_handler);
  scantext_TIFFSetErrorHandlerExt(counting_handler);
  default_warning_handler = scantext_TIFFSetWarningHandler(quiet_handler);
  return 0;
}

int scantext_tiff_load(void) { return scantext_library_load(SCANTEXT_LIBRARY_TIFF); }

void scantext_tiff_set_messages(int on) {
  if (scantext_tiff_load() != 0) return;
  scantext_TIFFSetErrorHandler(on ? default_error_handler : quiet_handler);
  scantext_TIFFSetWarningHandler(on ? default_warning_handler : quiet_handler);
}

struct scantext_tiff {
  TIFF *tif;
  const uint8_t *data;
  size_t size;
  uint64_t position;
};

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t count) {
  struct scantext_tiff *t = handle;
  if (count < 0 || t->position >= t->size) return 0;
  size_t left = t->size - (size_t)t->position;
  size_t n = (size_t)count < left ? (size_t)count : left;
  memcpy(buffer, t->data + t->position, n);
  t->position += n;
  return (tmsize_t)n;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t count) {
  (void)handle;
  (void)buffer;
  (void)count;
  return 0;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
  struct scantext_tiff *t = handle;
  uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? t->size : 0;
  // Offsets come from the file: refuse any that overflow.
  if (offset > UINT64_MAX - base) return (toff_t)-1;
  t->position = base + offset;
  return t->position;
}

static int close_proc(thandle_t handle) {
  (void)handle;
  return 0;
}

static toff_t size_proc(thandle_t handle) { return ((struct scantext_tiff *)handle)->size; }

// The bytes are already in memory: "map" them. (Not mapping is slower and,
// in libtiff 4.5, fails on uncompressed tiles: "Invalid tile byte count".)
// libtiff never writes through a read-only mapping.
static int map_proc(thandle_t handle, void **base, toff_t *size) {
  struct scantext_tiff *t = handle;
  *base = (void *)t->data;
  *size = t->size;
  return 1;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) {
  (void)handle;
  (void)base;
  (void)size;
}

scantext_tiff *scantext_tiff_open(const uint8_t *data, size_t size, size_t max_allocation) {
  if (scantext_tiff_load() != 0) return NULL;
  struct scantext_tiff *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->data = data;
  t->size = size;
  TIFFOpenOptions *options = NULL;
  if (scantext_has_TIFFOpenOptionsAlloc() && scantext_has_TIFFOpenOptionsFree() &&
      scantext_has_TIFFOpenOptionsSetMaxSingleMemAlloc() && scantext_has_TIFFClientOpenExt()) {
    options = scantext_TIFFOpenOptionsAlloc();
  }
  if (options) {
    scantext_TIFFOpenOptionsSetMaxSingleMemAlloc(
      options, max_allocation > (size_t)INT64_MAX ? INT64_MAX : (tmsize_t)max_allocation);
    t->tif = scantext_TIFFClientOpenExt(
      "image", "r", t, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc,
      unmap_proc, options);
    scantext_TIFFOpenOptionsFree(options);
  } else {
    t->tif = scantext_TIFFClientOpen(
      "image", "r", t, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc,
      unmap_proc);
  }
  if (!t->tif) {
    free(t);
    return NULL;
  }
  return t;
}

void scantext_tiff_close(scantext_tiff *t) {
  if (!t) return;
  scantext_TIFFClose(t->tif);
  free(t);
}

// An unsigned number of `size` bytes at `at` in the file's byte order;
// 0 past the end.
static uint64_t read_number(const scantext_tiff *t, uint64_t at, int size) {
  if (at > t->size || (uint64_t)size > t->size - at) return 0;
  int little = t->data[0] == 'I';
  uint64_t value = 0;
  for (int i = 0; i < size; i++) {
    uint64_t byte = t->data[at + (little ? (uint64_t)i : (uint64_t)(size - 1 - i))];
    value |= byte << (8 * i);
  }
  return value;
}

// Where the current directory's orientation value (one SHORT) lies in the
// file; 0 when the directory has none or it lies outside the file.
static uint64_t orientation_offset(const scantext_tiff *t) {
  if (t->size < 8 || (t->data[0] != 'I' && t->data[0] != 'M')) return 0;
  int big = scantext_TIFFIsBigTIFF(t->tif);
  uint64_t directory = scantext_TIFFCurrentDirOffset(t->tif);
  uint64_t count = read_number(t, directory, big ? 8 : 2);
  uint64_t first = directory + (big ? 8 : 2), size = big ? 20 : 12;
  for (uint64_t i = 0; i < count && i < 65536; i++) {
    uint64_t entry = first + i * size;
    if (entry > t->size || size > t->size - entry) return 0;
    if (read_number(t, entry, 2) != TIFFTAG_ORIENTATION) continue;
    if (read_number(t, entry + 2, 2) != TIFF_SHORT || read_number(t, entry + 4, big ? 8 : 4) != 1) {
      return 0;
    }
    return entry + (big ? 12 : 8);
  }
  return 0;
}

static void describe(const scantext_tiff *t, scantext_tiff_directory *d) {
  TIFF *tif = t->tif;
  uint32_t width = 0, height = 0, subfile = 0;
  scantext_TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
  scantext_TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &subfile);
  d->width = width;
  d->height = height;
  d->tiled = scantext_TIFFIsTiled(tif) ? 1 : 0;
  d->reduced = (subfile & FILETYPE_REDUCEDIMAGE) ? 1 : 0;
  uint16_t orientation = 0;
  d->orientation = scantext_TIFFGetField(tif, TIFFTAG_ORIENTATION, &orientation) ? orientation : 0;
  d->orientation_offset = d->orientation ? orientation_offset(t) : 0;
}

int scantext_tiff_directories(
  scantext_tiff *t, scantext_tiff_directory *directories, int capacity, int *more) {
  *more = 0;
  if (capacity <= 0) return 0;
  if (!scantext_TIFFSetDirectory(t->tif, 0)) return 0;
  int count = 0;
  for (;;) {
    describe(t, &directories[count]);
    count++;
    // TIFFReadDirectory returns 0 at the end, on an unreadable directory
    // and on a next-directory offset seen before (a loop).
    if (!scantext_TIFFReadDirectory(t->tif)) break;
    if (count == capacity) {
      *more = 1;
      break;
    }
  }
  return count;
}

struct Pix *scantext_tiff_read_rgb(scantext_tiff *t, int index) {
  if (index < 0 || index > 65535 || !scantext_TIFFSetDirectory(t->tif, (tdir_t)index)) return NULL;
  uint32_t width = 0, height = 0;
  scantext_TIFFGetField(t->tif, TIFFTAG_IMAGEWIDTH, &width);
  scantext_TIFFGetField(t->tif, TIFFTAG_IMAGELENGTH, &height);
  if (width == 0 || height == 0 || width > INT32_MAX || height > INT32_MAX) return NULL;
  PIX *pix = scantext_pixCreate((l_int32)width, (l_int32)height, 32);
  if (!pix) return NULL;
  // A 32-bit Pix has one word per pixel and no padding: libtiff decodes
  // straight into it, then each pixel is moved from libtiff's ABGR order
  // to Leptonica's RGBA order in place. The pixels are asked for in the
  // order they are stored (the file's own orientation: libtiff would
  // mirror some orientations and not turn the others); the caller applies
  // the orientation tag.
  uint16_t orientation = ORIENTATION_TOPLEFT;
  scantext_TIFFGetField(t->tif, TIFFTAG_ORIENTATION, &orientation);
  if (orientation < ORIENTATION_TOPLEFT || orientation > ORIENTATION_LEFTBOT) {
    orientation = ORIENTATION_TOPLEFT;
  }
  uint32_t *raster = scantext_pixGetData(pix);
  // Stop on the first error (the last argument): a damaged strip or tile
  // is a damaged page, not a page with a blank or garbled band.
  if (!scantext_TIFFReadRGBAImageOriented(t->tif, width, height, raster, orientation, 1)) {
    scantext_pixDestroy(&pix);
    return NULL;
  }
  size_t count = (size_t)width * height;
  for (size_t i = 0; i < count; i++) {
    uint32_t p = raster[i];
    raster[i] = (TIFFGetR(p) << 24) | (TIFFGetG(p) << 16) | (TIFFGetB(p) << 8) | TIFFGetA(p);
  }
  float x = 0, y = 0;
  uint16_t unit = RESUNIT_INCH;
  scantext_TIFFGetFieldDefaulted(t->tif, TIFFTAG_RESOLUTIONUNIT, &unit);
  if (scantext_TIFFGetField(t->tif, TIFFTAG_XRESOLUTION, &x) &&
      scantext_TIFFGetField(t->tif, TIFFTAG_YRESOLUTION, &y)) {
    float factor = unit == RESUNIT_CENTIMETER ? 2.54f : 1.0f;
    float xr = x * factor + 0.5f, yr = y * factor + 0.5f;
    if (xr >= 1 && xr < 100000 && yr >= 1 && yr < 100000) {
      scantext_pixSetResolution(pix, (l_int32)xr, (l_int32)yr);
    }
  }
  return pix;
}

const void *scantext_tiff_icc_profile(scantext_tiff *t, int index, uint32_t *length) {
  *length = 0;
  if (index < 0 || index > 65535 || !scantext_TIFFSetDirectory(t->tif, (tdir_t)index)) return NULL;
  uint32_t count = 0;
  void *profile = NULL;
  if (!scantext_TIFFGetField(t->tif, TIFFTAG_ICCPROFILE, &count, &profile) || !profile) return NULL;
  *length = count;
  return profile;
}

// Whether the current directory's samples are JPEG data a PDF's DCTDecode
// reads as they are (8-bit gray, RGB or YCbCr, contiguous samples, bits
// most significant first), and its tables kept apart (the JPEGTables tag:
// SOI, tables, EOI), when it has them.
static int is_pdf_jpeg(TIFF *tif, int *samples_out, int *photometric_out, const uint8_t **tables,
                       uint32_t *tables_length) {
  uint16_t compression = 0, bits = 0, samples = 0, photometric = 0, fill = FILLORDER_MSB2LSB;
  uint16_t planar = PLANARCONFIG_CONTIG;
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &fill);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
  if (!scantext_TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
  if (compression != COMPRESSION_JPEG || bits != 8 || planar != PLANARCONFIG_CONTIG ||
      fill != FILLORDER_MSB2LSB ||
      !((samples == 1 && photometric == PHOTOMETRIC_MINISBLACK) ||
        (samples == 3 && (photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_YCBCR)))) {
    return 0;
  }
  *samples_out = samples;
  *photometric_out = photometric;
  *tables = NULL;
  *tables_length = 0;
  uint32_t length = 0;
  void *stored = NULL;
  if (scantext_TIFFGetField(tif, TIFFTAG_JPEGTABLES, &length, &stored) && stored && length > 0) {
    *tables = stored;
    *tables_length = length;
  }
  return 1;
}

int scantext_tiff_stored_strip(scantext_tiff *t, int index, scantext_tiff_strip *strip) {
  memset(strip, 0, sizeof *strip);
  if (index < 0 || index > 65535 || !scantext_TIFFSetDirectory(t->tif, (tdir_t)index)) return -1;
  TIFF *tif = t->tif;
  if (scantext_TIFFIsTiled(tif) || scantext_TIFFNumberOfStrips(tif) != 1) return -1;
  uint16_t compression = 0, bits = 0, samples = 0, photometric = 0, fill = FILLORDER_MSB2LSB;
  uint32_t width = 0, height = 0;
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &fill);
  if (!scantext_TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return -1;
  scantext_TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
  scantext_TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
  if (width == 0 || height == 0 || fill != FILLORDER_MSB2LSB) return -1;
  uint64_t *offsets = NULL, *counts = NULL;
  if (!scantext_TIFFGetField(tif, TIFFTAG_STRIPOFFSETS, &offsets) ||
      !scantext_TIFFGetField(tif, TIFFTAG_STRIPBYTECOUNTS, &counts) || !offsets || !counts) {
    return -1;
  }
  if (counts[0] == 0 || offsets[0] > t->size || counts[0] > t->size - offsets[0]) return -1;
  if (compression != COMPRESSION_CCITTFAX4 || bits != 1 || samples != 1 ||
      (photometric != PHOTOMETRIC_MINISWHITE && photometric != PHOTOMETRIC_MINISBLACK)) {
    return -1;
  }
  uint32_t options = 0;
  scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_GROUP4OPTIONS, &options);
  // Uncompressed mode is an extension PDF's decoders need not know.
  if (options & GROUP4OPT_UNCOMPRESSED) return -1;
  strip->offset = offsets[0];
  strip->length = counts[0];
  strip->width = width;
  strip->height = height;
  strip->photometric = photometric;
  return 0;
}

int scantext_tiff_stored_jpeg_pieces(
  scantext_tiff *t, int index, scantext_tiff_jpeg_pieces *pieces) {
  memset(pieces, 0, sizeof *pieces);
  unsigned long errors = scantext_tiff_error_count();
  if (index < 0 || index > 65535 || !scantext_TIFFSetDirectory(t->tif, (tdir_t)index)) return -1;
  TIFF *tif = t->tif;
  uint32_t width = 0, height = 0;
  scantext_TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
  scantext_TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
  if (width == 0 || height == 0) return -1;
  if (!is_pdf_jpeg(tif, &pieces->samples, &pieces->photometric, &pieces->tables,
                   &pieces->tables_length)) {
    return -1;
  }
  uint64_t *offsets = NULL, *counts = NULL;
  uint64_t across, down;
  if (scantext_TIFFIsTiled(tif)) {
    uint32_t tile_width = 0, tile_height = 0;
    if (!scantext_TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width) ||
        !scantext_TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_height) || tile_width == 0 ||
        tile_height == 0 ||
        !scantext_TIFFGetField(tif, TIFFTAG_TILEOFFSETS, &offsets) ||
        !scantext_TIFFGetField(tif, TIFFTAG_TILEBYTECOUNTS, &counts)) {
      return -1;
    }
    pieces->piece_width = tile_width;
    pieces->piece_height = tile_height;
    pieces->tiled = 1;
  } else {
    uint32_t rows = 0;
    scantext_TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
    if (rows == 0 || !scantext_TIFFGetField(tif, TIFFTAG_STRIPOFFSETS, &offsets) ||
        !scantext_TIFFGetField(tif, TIFFTAG_STRIPBYTECOUNTS, &counts)) {
      return -1;
    }
    pieces->piece_width = width;
    pieces->piece_height = rows < height ? rows : height;
  }
  across = ((uint64_t)width + pieces->piece_width - 1) / pieces->piece_width;
  down = ((uint64_t)height + pieces->piece_height - 1) / pieces->piece_height;
  // libtiff's arrays hold one entry per tile or strip of a contiguous
  // image; anything else is a damaged directory.
  uint64_t count = pieces->tiled ? scantext_TIFFNumberOfTiles(tif) : scantext_TIFFNumberOfStrips(tif);
  if (!offsets || !counts || count != across * down || count > UINT32_MAX) return -1;
  for (uint64_t i = 0; i < count; i++) {
    if (counts[i] == 0 || offsets[i] > t->size || counts[i] > t->size - offsets[i]) return -1;
  }
  // Reading the directory and its arrays raised no error (a truncated
  // array is read short, with an error).
  if (scantext_tiff_error_count() != errors) return -1;
  pieces->width = width;
  pieces->height = height;
  pieces->across = (uint32_t)across;
  pieces->down = (uint32_t)down;
  pieces->count = (uint32_t)count;
  pieces->offsets = offsets;
  pieces->lengths = counts;
  return 0;
}
