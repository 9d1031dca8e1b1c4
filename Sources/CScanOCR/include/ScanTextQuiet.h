// Hand-written (not generated): silences the image codecs Leptonica calls
// (libpng, libjpeg) at their source, never through standard error, and
// says how Leptonica compresses a PNG nobody asked a level for.
#ifndef SCANTEXT_QUIET_H
#define SCANTEXT_QUIET_H

#include <stddef.h>

/// Lets Leptonica's stderr messages and libpng's and libjpeg's messages
/// through (`on` = 1) or not (0). Returns 0 when the codecs' message
/// handlers are under control, -1 when they could not be reached (the
/// reason is scantext_library_error() of SCANTEXT_LIBRARY_PNG or
/// SCANTEXT_LIBRARY_JPEG): the codecs then keep their default handlers,
/// which print on a corrupt image.
int scantext_set_codec_messages(int on);

/// Whether a PNG Leptonica writes with no zlib level asked for (its
/// `pix->special` unset, as in Tesseract's in-memory line images:
/// `ImageData` writes each with pixWriteMem(..., IFF_PNG) and reads it
/// back) is stored (level 0, no row filter: 1) or compressed at zlib's
/// default level with adaptive filters, as libpng does (0, the default).
/// A PNG is lossless at any level: the pixels read back are the same.
/// Returns 0 when the setting takes effect, -1 when Leptonica's import of
/// png_set_compression_level could not be redirected (then PNGs are
/// compressed as libpng does; the reason as above).
int scantext_store_unleveled_pngs(int on);

/// Points `library`'s (a dlopen handle's) imports of the function `name`
/// (its PLT and GOT slots) at `replacement`. Returns how many slots were
/// changed (at least 1), or -1 with the reason in `error` (an architecture
/// whose relocations are not known here, a library that does not import
/// `name`, a slot that cannot be made writable).
int scantext_redirect_import(
  void *library, const char *name, void *replacement, char *error, size_t size);

#endif
