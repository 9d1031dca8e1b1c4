// Hand-written (not generated): PDF pages through Poppler's GLib API
// (libpoppler-glib8), bound at run time like Tesseract and Leptonica, so
// that only a PDF input loads Poppler, GLib and cairo.
#ifndef SCANTEXT_PDF_H
#define SCANTEXT_PDF_H

#include <stddef.h>
#include <stdint.h>

struct Pix;

/// An open PDF document over bytes in memory; the bytes must outlive it.
/// One thread at a time.
typedef struct scantext_pdf scantext_pdf;

/// Binds Poppler's GLib API and the cairo and GLib functions it needs;
/// 0 on success, else -1 (the library is not installed). Thread-safe.
int scantext_pdf_load(void);

/// Why a document could not be opened.
enum {
  SCANTEXT_PDF_OK = 0,
  SCANTEXT_PDF_NO_LIBRARY = 1,
  SCANTEXT_PDF_ENCRYPTED = 2,
  SCANTEXT_PDF_DAMAGED = 3,
};

/// Opens a PDF held in memory; NULL with `*error` set when it cannot.
scantext_pdf *scantext_pdf_open(const uint8_t *data, size_t size, int *error);
/// Opens a view of a PDF held in memory: its bytes followed by `tail` (an
/// incremental update ScanText wrote: a catalog whose page tree holds some
/// of the file's pages), read through one GLib memory stream, so the
/// file's bytes are not copied (`tail` is). NULL with `*error` set when it
/// cannot be opened. The file's bytes must outlive the view.
scantext_pdf *scantext_pdf_open_view(
  const uint8_t *data, size_t size, const uint8_t *tail, size_t tail_size, int *error);
void scantext_pdf_close(scantext_pdf *pdf);
/// Returns to the system the whole pages of memory the allocator holds
/// free, in every thread's arena (glibc's `malloc_trim(0)`): called when
/// a PDF's big transient objects (Poppler's and qpdf's tables of the
/// file's objects) have been freed, so the freed pages do not stay in the
/// process's resident set. Thread-safe; nothing happens on other C
/// libraries.
void scantext_release_free_memory(void);
int scantext_pdf_page_count(scantext_pdf *pdf);

/// What a page holds, without rendering it.
typedef struct {
  /// The page's size as displayed (after its /Rotate), in points.
  double width;
  double height;
  /// 1 when the page has text of its own (an existing text layer).
  int has_text;
  /// The number of images drawn on the page.
  int images;
  /// When the page holds exactly one image and it covers the page (its
  /// box within 5 % of the page's size): the image's size in pixels and
  /// the size of its box on the page in points, both across and down the
  /// displayed page; else 0.
  double image_width;
  double image_height;
  double box_width;
  double box_height;
} scantext_pdf_page;

/// Describes page `index` (from 0); 0 on success, -1 when the page cannot
/// be read. Decodes the page's image when it has exactly one and
/// `decode_image` is not 0 (with 0, images are counted, never decoded: an
/// image whose size no one could check is not decoded to learn it).
int scantext_pdf_describe(scantext_pdf *pdf, int index, int decode_image, scantext_pdf_page *info);

/// Renders page `index` onto white at `width`×`height` pixels (the
/// page's displayed size scaled to them), as a Leptonica image: 1 bit when
/// every pixel is black or white, 8-bit gray when every pixel is gray, else
/// 32-bit RGB; tagged with `dpi`. NULL when it cannot. The caller checks
/// the size first.
struct Pix *scantext_pdf_render(scantext_pdf *pdf, int index, int width, int height, int dpi);

/// A page's own text as Poppler reads it (born-digital text, or an
/// earlier text layer, visible or not).
typedef struct {
  /// UTF-8, NUL-terminated: `poppler_page_get_text`: the page's lines in
  /// Poppler's order, each ended by a newline, words joined by one space.
  char *text;
  /// One box per character (Unicode scalar) of `text`, newlines included,
  /// but for a newline that ends the text: x0, y0, x1, y1 (4 doubles), in
  /// points on the page as displayed (after its /Rotate), origin top-left.
  /// A space's box is the gap between its words; a newline's is empty.
  double *boxes;
  /// One font size per box, in points (0 when unknown).
  double *sizes;
  /// The number of boxes.
  size_t count;
} scantext_pdf_text;

/// Reads page `index`'s text and the box of each of its characters; 0 on
/// success (`count` 0 when the page has no text), -1 when the page cannot
/// be read. Free with scantext_pdf_text_free().
int scantext_pdf_page_text(scantext_pdf *pdf, int index, scantext_pdf_text *out);
void scantext_pdf_text_free(scantext_pdf_text *text);

/// The stored bytes of page `index`'s one image when they are a JPEG
/// (`DCTDecode` its only filter, no `Decode` array) of `width`×`height`
/// pixels, read with qpdf (libqpdf, loaded at run time); NULL otherwise or
/// when qpdf is not installed. The caller frees the bytes with free().
uint8_t *scantext_pdf_page_jpeg(
  const uint8_t *data, size_t size, int index, int width, int height, size_t *length);

#endif
