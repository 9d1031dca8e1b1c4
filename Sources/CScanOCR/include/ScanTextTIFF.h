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

/// Decodes directory `index` as 32-bit RGB with libtiff's RGBA interface
/// (any layout libtiff supports, tiled included), with its resolution;
/// NULL when it cannot. The caller checks the size first.
struct Pix *scantext_tiff_read_rgb(scantext_tiff *tiff, int index);

#endif
