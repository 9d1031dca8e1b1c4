// Hand-written (not generated): silences the image codecs Leptonica calls
// (libpng, libjpeg) at their source, never through standard error.
#ifndef SCANTEXT_QUIET_H
#define SCANTEXT_QUIET_H

/// Lets libpng's and libjpeg's messages through (`on` = 1) or not (0, the
/// default once Leptonica is loaded). Returns 0 when the codecs' message
/// handlers are under control, -1 when they could not be reached.
/// Its first call also redirects Leptonica's `png_set_compression_level`
/// (see quiet.c: a PNG nobody asked a level for is stored uncompressed,
/// which is what Tesseract's in-memory line images are).
int scantext_set_codec_messages(int on);

#endif
