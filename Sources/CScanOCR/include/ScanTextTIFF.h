// Hand-written (not generated): TIFF reading through libtiff, for what
// Leptonica refuses (tiled images, some photometric layouts) and to walk a
// file's page list with libtiff's loop detection and a page cap.
#ifndef SCANTEXT_TIFF_H
#define SCANTEXT_TIFF_H

#include <stddef.h>
#include <stdint.h>

struct Pix;

/// One directory (image) of a TIFF file.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1 when the image is stored in tiles.
  int tiled;
  /// 1 for a reduced-resolution copy of another page (a thumbnail or a
  /// pyramid level), which is not a page of its own.
  int reduced;
  /// The orientation tag (274), 1–8 and whatever else the file says; 0
  /// when the directory has none.
  int orientation;
  /// Where the orientation's value (one SHORT, in the file's byte order)
  /// lies in the file; 0 when unknown.
  uint64_t orientation_offset;
} scantext_tiff_directory;

/// An open TIFF file over bytes in memory; the bytes must outlive it.
typedef struct scantext_tiff scantext_tiff;

/// Binds libtiff's functions from the libtiff Leptonica is linked against
/// (loading Leptonica first); 0 on success, else -1. Safe to call from
/// several threads.
int scantext_tiff_load(void);

/// Whether libtiff prints its warnings and errors on standard error
/// (default: off, set at load).
void scantext_tiff_set_messages(int on);

/// How many errors libtiff has reported on this thread so far (whether or
/// not they are printed): a decoding that raised one read damaged data,
/// even when it returned an image (Leptonica's TIFF reader does).
unsigned long scantext_tiff_error_count(void);

/// Opens a TIFF held in memory and reads its first directory; NULL when
/// libtiff cannot. No single allocation libtiff makes for this file may
/// exceed `max_allocation` bytes (libtiff 4.5 and later): a header may
/// claim a strip of any size (a thousand samples per pixel, say) and
/// libtiff would allocate it whole before decoding it.
scantext_tiff *scantext_tiff_open(const uint8_t *data, size_t size, size_t max_allocation);
void scantext_tiff_close(scantext_tiff *tiff);

/// Reads the headers of up to `capacity` directories, from the first, into
/// `directories`, and returns how many. Stops at the end of the list, at a
/// directory libtiff cannot read, and at a list that loops back (libtiff
/// detects it). Sets `*more` to 1 when the list goes on past `capacity`.
/// Decodes no pixels.
int scantext_tiff_directories(
  scantext_tiff *tiff, scantext_tiff_directory *directories, int capacity, int *more);

/// The ICC profile of directory `index` (tag 34675) and its length; NULL
/// when it has none. Owned by libtiff: valid until the next call on `tiff`.
const void *scantext_tiff_icc_profile(scantext_tiff *tiff, int index, uint32_t *length);

/// Decodes directory `index` as 32-bit RGB with libtiff's RGBA interface
/// (any layout libtiff supports, tiled included), with its resolution;
/// NULL when it cannot. The pixels are in the order they are stored: the
/// orientation tag is not applied. The caller checks the size first.
struct Pix *scantext_tiff_read_rgb(scantext_tiff *tiff, int index);

/// A page stored as one strip of CCITT Group 4 data, which a PDF image
/// holds as it is (`CCITTFaxDecode`).
typedef struct {
  /// Where the strip's bytes lie in the file.
  uint64_t offset;
  uint64_t length;
  uint32_t width;
  uint32_t height;
  /// The photometric interpretation (0 min-is-white, 1 min-is-black).
  int photometric;
} scantext_tiff_strip;

/// Describes directory `index` when it is one strip of CCITT Group 4 data
/// (1 bit, most significant bit first, min-is-white or min-is-black)
/// within the file: 0, else -1 (any other layout, or a strip outside the
/// file).
int scantext_tiff_stored_strip(scantext_tiff *tiff, int index, scantext_tiff_strip *strip);

/// A page stored as JPEG data (baseline or progressive) in tiles or
/// strips, each piece a JPEG of its own whose tables may be kept apart: a
/// PDF image can hold each piece as it is (`DCTDecode`).
typedef struct {
  /// The page's size in pixels.
  uint32_t width;
  uint32_t height;
  /// 1 for tiles, 0 for strips.
  int tiled;
  /// A piece's size: a tile's (tiles at the right and bottom edges reach
  /// past the page, padded to this size), or the page's width and the
  /// rows per strip (the last strip holds the rows left).
  uint32_t piece_width;
  uint32_t piece_height;
  /// Pieces per row and rows of pieces; `count` is their product.
  uint32_t across;
  uint32_t down;
  uint32_t count;
  /// Where each piece's bytes lie in the file, row by row, each inside the
  /// file and not empty. Owned by libtiff: valid until the file is closed
  /// or another directory is read.
  const uint64_t *offsets;
  const uint64_t *lengths;
  /// The tables kept apart from the pieces (the JPEGTables tag: SOI,
  /// tables, EOI); NULL when the pieces hold theirs. Owned by libtiff.
  const uint8_t *tables;
  uint32_t tables_length;
  /// 1 or 3.
  int samples;
  /// The photometric interpretation (1 min-is-black, 2 RGB, 6 YCbCr).
  int photometric;
} scantext_tiff_jpeg_pieces;

/// Describes directory `index` when its data is JPEG (8-bit gray, RGB or
/// YCbCr, contiguous samples) in any number of strips or tiles, every
/// piece within the file, read without a libtiff error: 0, else -1.
int scantext_tiff_stored_jpeg_pieces(
  scantext_tiff *tiff, int index, scantext_tiff_jpeg_pieces *pieces);

#endif
