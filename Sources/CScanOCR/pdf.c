// Hand-written (not generated): see include/ScanTextPDF.h.
//
// Poppler's GLib API, GLib and cairo are declared in the generated
// bindings.h (Tools/generate/generate-ocr-shims.py), not included: the build needs
// no -dev package and no pkg-config paths, and the library is loaded only
// for a PDF. `Tools/check/check-pdf-declarations.sh` compiles this file against
// the real headers (SCANTEXT_CHECK_DECLARATIONS) and fails on any
// difference.
#include "ScanTextPDF.h"

#include "bindings.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// The text attributes are read in place: the same layout here as in the
// real header (checked with it by the declarations check).
_Static_assert(
  offsetof(PopplerTextAttributes, start_index) == 28 && sizeof(PopplerTextAttributes) == 40,
  "PopplerTextAttributes layout");
#ifdef SCANTEXT_CHECK_DECLARATIONS
_Static_assert(sizeof(PopplerImageMapping) == 4 * sizeof(double) + sizeof(double), "layout");
#endif

static void quiet_log(
  const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
  (void)domain;
  (void)level;
  (void)message;
  (void)data;
}

// Poppler reports through GLib's log (domain "Poppler"): never on our
// standard error. Nothing is fatal there: every result is checked. Run once
// by the loader, when GLib is bound.
int scantext_glib_setup(char *error, size_t size) {
  (void)error;
  (void)size;
  scantext_g_log_set_handler(
    "Poppler", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
    quiet_log, NULL);
  return 0;
}

int scantext_pdf_load(void) {
  // Pages become Leptonica images (Poppler is loaded after libtesseract
  // and Leptonica); GLib, GObject and cairo are Poppler's dependencies,
  // found through its handle.
  int libraries[] = {
    SCANTEXT_LIBRARY_POPPLER, SCANTEXT_LIBRARY_GLIB, SCANTEXT_LIBRARY_GOBJECT,
    SCANTEXT_LIBRARY_CAIRO};
  for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
    if (scantext_library_load(libraries[i]) != 0) return -1;
  }
  return 0;
}

struct scantext_pdf {
  PopplerDocument *document;
  GBytes *bytes;
};

scantext_pdf *scantext_pdf_open(const uint8_t *data, size_t size, int *error) {
  *error = SCANTEXT_PDF_OK;
  if (scantext_pdf_load() != 0) {
    *error = SCANTEXT_PDF_NO_LIBRARY;
    return NULL;
  }
  struct scantext_pdf *pdf = calloc(1, sizeof *pdf);
  if (!pdf) {
    *error = SCANTEXT_PDF_DAMAGED;
    return NULL;
  }
  pdf->bytes = scantext_g_bytes_new_static(data, size);
  GError *failure = NULL;
  pdf->document = scantext_poppler_document_new_from_bytes(pdf->bytes, NULL, &failure);
  if (!pdf->document) {
    *error = failure && failure->domain == scantext_poppler_error_quark() &&
                 failure->code == POPPLER_ERROR_ENCRYPTED
               ? SCANTEXT_PDF_ENCRYPTED
               : SCANTEXT_PDF_DAMAGED;
    if (failure) scantext_g_error_free(failure);
    scantext_g_bytes_unref(pdf->bytes);
    free(pdf);
    return NULL;
  }
  return pdf;
}

scantext_pdf *scantext_pdf_open_view(
  const uint8_t *data, size_t size, const uint8_t *tail, size_t tail_size, int *error) {
  *error = SCANTEXT_PDF_DAMAGED;
  if (scantext_pdf_load() != 0) {
    *error = SCANTEXT_PDF_NO_LIBRARY;
    return NULL;
  }
  struct scantext_pdf *pdf = calloc(1, sizeof *pdf);
  if (!pdf) return NULL;
  // The file's bytes are read in place (the caller keeps them); the
  // memory stream keeps its own references to both pieces, Poppler one to
  // the stream.
  pdf->bytes = scantext_g_bytes_new_static(data, size);
  GInputStream *stream = scantext_g_memory_input_stream_new_from_bytes(pdf->bytes);
  GBytes *update = scantext_g_bytes_new(tail, tail_size);
  scantext_g_memory_input_stream_add_bytes((GMemoryInputStream *)stream, update);
  scantext_g_bytes_unref(update);
  goffset length = (goffset)size + (goffset)tail_size;
  GError *failure = NULL;
  pdf->document =
    scantext_poppler_document_new_from_stream(stream, length, NULL, NULL, &failure);
  scantext_g_object_unref(stream);
  if (failure) scantext_g_error_free(failure);
  if (!pdf->document) {
    scantext_g_bytes_unref(pdf->bytes);
    free(pdf);
    return NULL;
  }
  *error = SCANTEXT_PDF_OK;
  return pdf;
}

void scantext_pdf_close(scantext_pdf *pdf) {
  if (!pdf) return;
  scantext_g_object_unref(pdf->document);
  scantext_g_bytes_unref(pdf->bytes);
  free(pdf);
}

void scantext_release_free_memory(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

int scantext_pdf_page_count(scantext_pdf *pdf) {
  int n = scantext_poppler_document_get_n_pages(pdf->document);
  return n < 0 ? 0 : n;
}

static PopplerPage *page_at(scantext_pdf *pdf, int index) {
  if (index < 0 || index >= scantext_pdf_page_count(pdf)) return NULL;
  return scantext_poppler_document_get_page(pdf->document, index);
}

static int has_text(PopplerPage *page) {
  char *text = scantext_poppler_page_get_text(page);
  int found = 0;
  for (const char *c = text; c && *c; c++) {
    if (*c != ' ' && *c != '\n' && *c != '\r' && *c != '\t' && *c != '\f') {
      found = 1;
      break;
    }
  }
  scantext_g_free(text);
  return found;
}

int scantext_pdf_describe(scantext_pdf *pdf, int index, int decode_image, scantext_pdf_page *info) {
  memset(info, 0, sizeof *info);
  PopplerPage *page = page_at(pdf, index);
  if (!page) return -1;
  scantext_poppler_page_get_size(page, &info->width, &info->height);
  info->has_text = has_text(page);
  GList *images = scantext_poppler_page_get_image_mapping(page);
  int count = 0;
  for (GList *l = images; l; l = l->next) count++;
  info->images = count;
  if (count == 1 && decode_image) {
    // The image's box is in the unrotated page's space: compare it with
    // the page both ways round (a page turned by /Rotate 90 or 270).
    PopplerImageMapping *m = images->data;
    double aw = m->area.x2 - m->area.x1, ah = m->area.y2 - m->area.y1;
    double pw = info->width, ph = info->height;
    int upright = aw >= 0.95 * pw && ah >= 0.95 * ph && aw <= 1.05 * pw && ah <= 1.05 * ph;
    int turned = aw >= 0.95 * ph && ah >= 0.95 * pw && aw <= 1.05 * ph && ah <= 1.05 * pw;
    if (upright || turned) {
      cairo_surface_t *image = scantext_poppler_page_get_image(page, m->image_id);
      if (image && scantext_cairo_surface_status(image) == CAIRO_STATUS_SUCCESS) {
        double iw = scantext_cairo_image_surface_get_width(image);
        double ih = scantext_cairo_image_surface_get_height(image);
        int swap = !upright;
        info->image_width = swap ? ih : iw;
        info->image_height = swap ? iw : ih;
        info->box_width = swap ? ah : aw;
        info->box_height = swap ? aw : ah;
      }
      if (image) scantext_cairo_surface_destroy(image);
    }
  }
  scantext_poppler_page_free_image_mapping(images);
  scantext_g_object_unref(page);
  return 0;
}

struct Pix *scantext_pdf_render(scantext_pdf *pdf, int index, int width, int height, int dpi) {
  if (width <= 0 || height <= 0) return NULL;
  PopplerPage *page = page_at(pdf, index);
  if (!page) return NULL;
  double pw = 0, ph = 0;
  scantext_poppler_page_get_size(page, &pw, &ph);
  cairo_surface_t *surface = NULL;
  if (pw > 0 && ph > 0) surface = scantext_cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if (!surface || scantext_cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    if (surface) scantext_cairo_surface_destroy(surface);
    scantext_g_object_unref(page);
    return NULL;
  }
  cairo_t *cr = scantext_cairo_create(surface);
  scantext_cairo_set_source_rgb(cr, 1, 1, 1);
  scantext_cairo_paint(cr);
  scantext_cairo_scale(cr, width / pw, height / ph);
  scantext_poppler_page_render(page, cr);
  scantext_cairo_destroy(cr);
  scantext_cairo_surface_flush(surface);
  scantext_g_object_unref(page);

  const unsigned char *data = scantext_cairo_image_surface_get_data(surface);
  int stride = scantext_cairo_image_surface_get_stride(surface);
  // What the page holds decides the depth: scanned pages are mostly
  // bilevel or gray, and Tesseract reads those as the `tesseract` command
  // reads a 1-bit or gray file.
  int gray = 1, bilevel = 1;
  for (int y = 0; y < height && gray; y++) {
    const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
    for (int x = 0; x < width; x++) {
      uint32_t p = row[x];
      uint32_t r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
      if (r != g || g != b) {
        gray = 0;
        bilevel = 0;
        break;
      }
      if (r != 0 && r != 255) bilevel = 0;
    }
  }
  int depth = bilevel ? 1 : gray ? 8 : 32;
  PIX *pix = scantext_pixCreate(width, height, depth);
  if (!pix) {
    scantext_cairo_surface_destroy(surface);
    return NULL;
  }
  uint32_t *out = scantext_pixGetData(pix);
  int wpl = scantext_pixGetWpl(pix);
  for (int y = 0; y < height; y++) {
    const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
    uint32_t *line = out + (size_t)y * wpl;
    if (depth == 32) {
      // cairo: 0xAARRGGBB (white background, so opaque); Leptonica:
      // 0xRRGGBBAA.
      for (int x = 0; x < width; x++) line[x] = (row[x] << 8) | 0xff;
    } else if (depth == 8) {
      for (int x = 0; x < width; x++) {
        uint32_t shift = 24 - 8 * (x & 3);
        line[x >> 2] |= (row[x] & 0xff) << shift;
      }
    } else {
      // 1 bit: 1 is black, the first pixel in the word's top bit.
      for (int x = 0; x < width; x++) {
        if ((row[x] & 0xff) == 0) line[x >> 5] |= 0x80000000u >> (x & 31);
      }
    }
  }
  scantext_cairo_surface_destroy(surface);
  scantext_pixSetResolution(pix, dpi, dpi);
  return pix;
}

int scantext_pdf_page_text(scantext_pdf *pdf, int index, scantext_pdf_text *out) {
  memset(out, 0, sizeof *out);
  PopplerPage *page = page_at(pdf, index);
  if (!page) return -1;
  // Both read the page's one text page (Poppler builds it once per page
  // object and keeps it): the text and one rectangle per character of it,
  // the newline that ends each line but the last included.
  char *text = scantext_poppler_page_get_text(page);
  PopplerRectangle *boxes = NULL;
  guint count = 0;
  if (text && !scantext_poppler_page_get_text_layout(page, &boxes, &count)) count = 0;
  double *sizes = count ? calloc(count, sizeof *sizes) : NULL;
  if (count && !sizes) {
    scantext_g_free(boxes);
    scantext_g_free(text);
    scantext_g_object_unref(page);
    return -1;
  }
  // Font sizes: each attribute run covers characters start...end
  // (inclusive) of the same text.
  GList *runs = count ? scantext_poppler_page_get_text_attributes(page) : NULL;
  for (GList *l = runs; l; l = l->next) {
    PopplerTextAttributes *run = l->data;
    for (gint i = run->start_index; i <= run->end_index; i++) {
      if (i >= 0 && (guint)i < count) sizes[i] = run->font_size;
    }
  }
  if (runs) scantext_poppler_page_free_text_attributes(runs);
  scantext_g_object_unref(page);
  out->text = text;
  out->boxes = (double *)boxes;
  out->sizes = sizes;
  out->count = count;
  return 0;
}

void scantext_pdf_text_free(scantext_pdf_text *text) {
  if (!text) return;
  if (text->text) scantext_g_free(text->text);
  if (text->boxes) scantext_g_free(text->boxes);
  free(text->sizes);
  memset(text, 0, sizeof *text);
}

// qpdf's C API serves the one thing Poppler's GLib API cannot give: an
// image's stored bytes, so a JPEG page goes into a searchable PDF as it is.

// The image XObject a page draws, when it has exactly one (looked for in
// the page's resources, else inherited from its parents); 0 otherwise.
static qpdf_oh only_image(qpdf_data q, qpdf_oh page) {
  qpdf_oh node = page;
  for (int depth = 0; depth < 32; depth++) {
    if (scantext_qpdf_oh_has_key(q, node, "/Resources")) break;
    if (!scantext_qpdf_oh_has_key(q, node, "/Parent")) return 0;
    node = scantext_qpdf_oh_get_key(q, node, "/Parent");
  }
  qpdf_oh resources = scantext_qpdf_oh_get_key(q, node, "/Resources");
  if (!scantext_qpdf_oh_is_dictionary(q, resources)) return 0;
  qpdf_oh objects = scantext_qpdf_oh_get_key(q, resources, "/XObject");
  if (!scantext_qpdf_oh_is_dictionary(q, objects)) return 0;
  // The keys first: the iterator is the qpdf object's one iterator.
  char keys[8][128];
  int count = 0;
  scantext_qpdf_oh_begin_dict_key_iter(q, objects);
  while (scantext_qpdf_oh_dict_more_keys(q)) {
    const char *key = scantext_qpdf_oh_dict_next_key(q);
    if (count == 8 || !key || strlen(key) >= sizeof keys[0]) return 0;
    strcpy(keys[count++], key);
  }
  qpdf_oh image = 0;
  for (int i = 0; i < count; i++) {
    qpdf_oh object = scantext_qpdf_oh_get_key(q, objects, keys[i]);
    if (!scantext_qpdf_oh_is_stream(q, object)) continue;
    qpdf_oh dict = scantext_qpdf_oh_get_dict(q, object);
    if (!scantext_qpdf_oh_is_name_and_equals(q, scantext_qpdf_oh_get_key(q, dict, "/Subtype"), "/Image")) {
      continue;
    }
    if (image) return 0;
    image = object;
  }
  return image;
}

uint8_t *scantext_pdf_page_jpeg(
  const uint8_t *data, size_t size, int index, int width, int height, size_t *length) {
  *length = 0;
  if (scantext_library_load(SCANTEXT_LIBRARY_QPDF) != 0) return NULL;
  qpdf_data q = scantext_qpdf_init();
  if (!q) return NULL;
  scantext_qpdf_silence_errors(q);
  scantext_qpdf_set_suppress_warnings(q, 1);
  uint8_t *bytes = NULL;
  if ((scantext_qpdf_read_memory(q, "pdf", (const char *)data, size, NULL) & 2) == 0 &&
      index >= 0 && index < scantext_qpdf_get_num_pages(q)) {
    qpdf_oh image = only_image(q, scantext_qpdf_get_page_n(q, (size_t)index));
    if (image) {
      qpdf_oh dict = scantext_qpdf_oh_get_dict(q, image);
      qpdf_oh filter = scantext_qpdf_oh_get_key(q, dict, "/Filter");
      if (scantext_qpdf_oh_get_array_n_items(q, filter) == 1) {
        filter = scantext_qpdf_oh_get_array_item(q, filter, 0);
      }
      int jpeg = scantext_qpdf_oh_is_name_and_equals(q, filter, "/DCTDecode") &&
                 !scantext_qpdf_oh_has_key(q, dict, "/Decode") &&
                 !scantext_qpdf_oh_has_key(q, dict, "/SMask") &&
                 scantext_qpdf_oh_get_int_value_as_int(q, scantext_qpdf_oh_get_key(q, dict, "/Width")) ==
                   width &&
                 scantext_qpdf_oh_get_int_value_as_int(q, scantext_qpdf_oh_get_key(q, dict, "/Height")) ==
                   height;
      unsigned char *buffer = NULL;
      size_t n = 0;
      if (jpeg &&
          (scantext_qpdf_oh_get_stream_data(q, image, qpdf_dl_none, NULL, &buffer, &n) & 2) == 0 &&
          buffer && n > 2 && buffer[0] == 0xFF && buffer[1] == 0xD8) {
        bytes = buffer;
        *length = n;
      } else {
        free(buffer);
      }
    }
  }
  scantext_qpdf_cleanup(&q);
  return bytes;
}
