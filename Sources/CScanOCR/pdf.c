// Hand-written (not generated): see include/ScanTextPDF.h.
//
// Poppler's GLib API, GLib and cairo are declared here, not included: the
// build needs no -dev package and no pkg-config paths, and the library is
// loaded only for a PDF. The declarations are the libraries' stable C ABI
// (libpoppler-glib.so.8, libglib-2.0.so.0, libcairo.so.2);
// `Tools/check-pdf-declarations.sh` compiles this file against the real
// headers (SCANTEXT_CHECK_DECLARATIONS) and fails on any difference.
#include "ScanTextPDF.h"

#include "CScanOCR.h"

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef SCANTEXT_CHECK_DECLARATIONS
#include <cairo.h>
#include <poppler.h>
#include <qpdf/qpdf-c.h>
#else
typedef struct _qpdf_data *qpdf_data;
typedef unsigned int qpdf_oh;
typedef int QPDF_BOOL;
typedef int QPDF_ERROR_CODE;
enum qpdf_stream_decode_level_e { qpdf_dl_none = 0 };
typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
typedef struct _GBytes GBytes;
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef int gboolean;
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef uint32_t GQuark;
typedef size_t gsize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef double gdouble;
typedef struct _GError {
  GQuark domain;
  gint code;
  gchar *message;
} GError;
typedef struct _GList {
  gpointer data;
  struct _GList *next;
  struct _GList *prev;
} GList;
typedef struct _PopplerRectangle {
  gdouble x1, y1, x2, y2;
} PopplerRectangle;
typedef struct _PopplerImageMapping {
  PopplerRectangle area;
  gint image_id;
} PopplerImageMapping;
typedef unsigned short guint16;
typedef struct _PopplerColor {
  guint16 red, green, blue;
} PopplerColor;
typedef struct _PopplerTextAttributes {
  gchar *font_name;
  gdouble font_size;
  gboolean is_underlined;
  PopplerColor color;
  gint start_index;
  gint end_index;
} PopplerTextAttributes;
typedef enum { CAIRO_FORMAT_ARGB32 = 0 } cairo_format_t;
typedef enum { CAIRO_STATUS_SUCCESS = 0 } cairo_status_t;
typedef enum {
  G_LOG_FLAG_RECURSION = 1 << 0,
  G_LOG_FLAG_FATAL = 1 << 1,
  G_LOG_LEVEL_ERROR = 1 << 2,
  G_LOG_LEVEL_CRITICAL = 1 << 3,
  G_LOG_LEVEL_WARNING = 1 << 4,
  G_LOG_LEVEL_MESSAGE = 1 << 5,
  G_LOG_LEVEL_INFO = 1 << 6,
  G_LOG_LEVEL_DEBUG = 1 << 7,
  G_LOG_LEVEL_MASK = ~(G_LOG_FLAG_RECURSION | G_LOG_FLAG_FATAL)
} GLogLevelFlags;
typedef void (*GLogFunc)(
  const gchar *log_domain, GLogLevelFlags log_level, const gchar *message, gpointer user_data);
enum { POPPLER_ERROR_ENCRYPTED = 1 };
#endif

// Every function used: return type, name, parameters.
#define SCANTEXT_PDF_FUNCTIONS(X)                                                             \
  X(PopplerDocument *, poppler_document_new_from_bytes, (GBytes *, const char *, GError **)) \
  X(int, poppler_document_get_n_pages, (PopplerDocument *))                                  \
  X(PopplerPage *, poppler_document_get_page, (PopplerDocument *, int))                      \
  X(void, poppler_page_get_size, (PopplerPage *, double *, double *))                        \
  X(GList *, poppler_page_get_image_mapping, (PopplerPage *))                                \
  X(void, poppler_page_free_image_mapping, (GList *))                                        \
  X(cairo_surface_t *, poppler_page_get_image, (PopplerPage *, gint))                        \
  X(char *, poppler_page_get_text, (PopplerPage *))                                          \
  X(gboolean, poppler_page_get_text_layout, (PopplerPage *, PopplerRectangle **, guint *))   \
  X(GList *, poppler_page_get_text_attributes, (PopplerPage *))                              \
  X(void, poppler_page_free_text_attributes, (GList *))                                      \
  X(void, poppler_page_render, (PopplerPage *, cairo_t *))                                   \
  X(GQuark, poppler_error_quark, (void))                                                     \
  X(GBytes *, g_bytes_new_static, (gconstpointer, gsize))                                    \
  X(void, g_bytes_unref, (GBytes *))                                                         \
  X(void, g_error_free, (GError *))                                                          \
  X(void, g_free, (gpointer))                                                                \
  X(void, g_object_unref, (gpointer))                                                        \
  X(guint, g_log_set_handler, (const gchar *, GLogLevelFlags, GLogFunc, gpointer))           \
  X(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t, int, int))               \
  X(cairo_status_t, cairo_surface_status, (cairo_surface_t *))                               \
  X(void, cairo_surface_flush, (cairo_surface_t *))                                          \
  X(void, cairo_surface_destroy, (cairo_surface_t *))                                        \
  X(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *))                      \
  X(int, cairo_image_surface_get_width, (cairo_surface_t *))                                 \
  X(int, cairo_image_surface_get_height, (cairo_surface_t *))                                \
  X(int, cairo_image_surface_get_stride, (cairo_surface_t *))                                \
  X(cairo_t *, cairo_create, (cairo_surface_t *))                                            \
  X(void, cairo_destroy, (cairo_t *))                                                        \
  X(void, cairo_scale, (cairo_t *, double, double))                                          \
  X(void, cairo_set_source_rgb, (cairo_t *, double, double, double))                         \
  X(void, cairo_paint, (cairo_t *))

// The text attributes are read in place: the same layout here as in the
// real header (checked with it by the declarations check).
_Static_assert(
  offsetof(PopplerTextAttributes, start_index) == 28 && sizeof(PopplerTextAttributes) == 40,
  "PopplerTextAttributes layout");

#define DECLARE_POINTER(ret, name, params) ret(*name) params;
static struct {
  SCANTEXT_PDF_FUNCTIONS(DECLARE_POINTER)
} lib;

#ifdef SCANTEXT_CHECK_DECLARATIONS
#define CHECK_TYPE(ret, name, params)                                                      \
  _Static_assert(                                                                         \
    __builtin_types_compatible_p(__typeof__(&name), ret(*) params), #name " differs");
SCANTEXT_PDF_FUNCTIONS(CHECK_TYPE)
_Static_assert(sizeof(PopplerImageMapping) == 4 * sizeof(double) + sizeof(double), "layout");
#endif

static int load_status = -1;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void quiet_log(
  const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
  (void)domain;
  (void)level;
  (void)message;
  (void)data;
}

static void load(void) {
  // Pages become Leptonica images.
  if (scantext_load_libraries() != 0) return;
  // Poppler's GLib API has one soname since 2011; GLib and cairo are its
  // dependencies, found through its handle.
  void *handle = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
  if (!handle) return;
#define LOAD(ret, name, params)                              \
  lib.name = (ret(*) params)dlsym(handle, #name);           \
  if (!lib.name) return;
  SCANTEXT_PDF_FUNCTIONS(LOAD)
  // Poppler reports through GLib's log (domain "Poppler"): never on our
  // standard error. Nothing is fatal there: every result is checked.
  lib.g_log_set_handler(
    "Poppler", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
    quiet_log, NULL);
  load_status = 0;
}

int scantext_pdf_load(void) {
  pthread_once(&load_once, load);
  return load_status;
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
  pdf->bytes = lib.g_bytes_new_static(data, size);
  GError *failure = NULL;
  pdf->document = lib.poppler_document_new_from_bytes(pdf->bytes, NULL, &failure);
  if (!pdf->document) {
    *error = failure && failure->domain == lib.poppler_error_quark() &&
                 failure->code == POPPLER_ERROR_ENCRYPTED
               ? SCANTEXT_PDF_ENCRYPTED
               : SCANTEXT_PDF_DAMAGED;
    if (failure) lib.g_error_free(failure);
    lib.g_bytes_unref(pdf->bytes);
    free(pdf);
    return NULL;
  }
  return pdf;
}

void scantext_pdf_close(scantext_pdf *pdf) {
  if (!pdf) return;
  lib.g_object_unref(pdf->document);
  lib.g_bytes_unref(pdf->bytes);
  free(pdf);
}

int scantext_pdf_page_count(scantext_pdf *pdf) {
  int n = lib.poppler_document_get_n_pages(pdf->document);
  return n < 0 ? 0 : n;
}

static PopplerPage *page_at(scantext_pdf *pdf, int index) {
  if (index < 0 || index >= scantext_pdf_page_count(pdf)) return NULL;
  return lib.poppler_document_get_page(pdf->document, index);
}

static int has_text(PopplerPage *page) {
  char *text = lib.poppler_page_get_text(page);
  int found = 0;
  for (const char *c = text; c && *c; c++) {
    if (*c != ' ' && *c != '\n' && *c != '\r' && *c != '\t' && *c != '\f') {
      found = 1;
      break;
    }
  }
  lib.g_free(text);
  return found;
}

int scantext_pdf_describe(scantext_pdf *pdf, int index, scantext_pdf_page *info) {
  memset(info, 0, sizeof *info);
  PopplerPage *page = page_at(pdf, index);
  if (!page) return -1;
  lib.poppler_page_get_size(page, &info->width, &info->height);
  info->has_text = has_text(page);
  GList *images = lib.poppler_page_get_image_mapping(page);
  int count = 0;
  for (GList *l = images; l; l = l->next) count++;
  info->images = count;
  if (count == 1) {
    // The image's box is in the unrotated page's space: compare it with
    // the page both ways round (a page turned by /Rotate 90 or 270).
    PopplerImageMapping *m = images->data;
    double aw = m->area.x2 - m->area.x1, ah = m->area.y2 - m->area.y1;
    double pw = info->width, ph = info->height;
    int upright = aw >= 0.95 * pw && ah >= 0.95 * ph && aw <= 1.05 * pw && ah <= 1.05 * ph;
    int turned = aw >= 0.95 * ph && ah >= 0.95 * pw && aw <= 1.05 * ph && ah <= 1.05 * pw;
    if (upright || turned) {
      cairo_surface_t *image = lib.poppler_page_get_image(page, m->image_id);
      if (image && lib.cairo_surface_status(image) == CAIRO_STATUS_SUCCESS) {
        double iw = lib.cairo_image_surface_get_width(image);
        double ih = lib.cairo_image_surface_get_height(image);
        int swap = !upright;
        info->image_width = swap ? ih : iw;
        info->image_height = swap ? iw : ih;
        info->box_width = swap ? ah : aw;
        info->box_height = swap ? aw : ah;
      }
      if (image) lib.cairo_surface_destroy(image);
    }
  }
  lib.poppler_page_free_image_mapping(images);
  lib.g_object_unref(page);
  return 0;
}

struct Pix *scantext_pdf_render(scantext_pdf *pdf, int index, int width, int height, int dpi) {
  if (width <= 0 || height <= 0) return NULL;
  PopplerPage *page = page_at(pdf, index);
  if (!page) return NULL;
  double pw = 0, ph = 0;
  lib.poppler_page_get_size(page, &pw, &ph);
  cairo_surface_t *surface = NULL;
  if (pw > 0 && ph > 0) surface = lib.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if (!surface || lib.cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    if (surface) lib.cairo_surface_destroy(surface);
    lib.g_object_unref(page);
    return NULL;
  }
  cairo_t *cr = lib.cairo_create(surface);
  lib.cairo_set_source_rgb(cr, 1, 1, 1);
  lib.cairo_paint(cr);
  lib.cairo_scale(cr, width / pw, height / ph);
  lib.poppler_page_render(page, cr);
  lib.cairo_destroy(cr);
  lib.cairo_surface_flush(surface);
  lib.g_object_unref(page);

  const unsigned char *data = lib.cairo_image_surface_get_data(surface);
  int stride = lib.cairo_image_surface_get_stride(surface);
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
    lib.cairo_surface_destroy(surface);
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
  lib.cairo_surface_destroy(surface);
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
  char *text = lib.poppler_page_get_text(page);
  PopplerRectangle *boxes = NULL;
  guint count = 0;
  if (text && !lib.poppler_page_get_text_layout(page, &boxes, &count)) count = 0;
  double *sizes = count ? calloc(count, sizeof *sizes) : NULL;
  if (count && !sizes) {
    lib.g_free(boxes);
    lib.g_free(text);
    lib.g_object_unref(page);
    return -1;
  }
  // Font sizes: each attribute run covers characters start...end
  // (inclusive) of the same text.
  GList *runs = count ? lib.poppler_page_get_text_attributes(page) : NULL;
  for (GList *l = runs; l; l = l->next) {
    PopplerTextAttributes *run = l->data;
    for (gint i = run->start_index; i <= run->end_index; i++) {
      if (i >= 0 && (guint)i < count) sizes[i] = run->font_size;
    }
  }
  if (runs) lib.poppler_page_free_text_attributes(runs);
  lib.g_object_unref(page);
  out->text = text;
  out->boxes = (double *)boxes;
  out->sizes = sizes;
  out->count = count;
  return 0;
}

void scantext_pdf_text_free(scantext_pdf_text *text) {
  if (!text) return;
  if (text->text) lib.g_free(text->text);
  if (text->boxes) lib.g_free(text->boxes);
  free(text->sizes);
  memset(text, 0, sizeof *text);
}

// qpdf's C API, for the one thing Poppler's GLib API cannot give: an
// image's stored bytes, so a JPEG page goes into a searchable PDF as it is.
#define SCANTEXT_QPDF_FUNCTIONS(X)                                                        \
  X(qpdf_data, qpdf_init, (void))                                                         \
  X(void, qpdf_cleanup, (qpdf_data *))                                                    \
  X(void, qpdf_silence_errors, (qpdf_data))                                               \
  X(void, qpdf_set_suppress_warnings, (qpdf_data, QPDF_BOOL))                             \
  X(QPDF_ERROR_CODE, qpdf_read_memory,                                                    \
    (qpdf_data, char const *, char const *, unsigned long long, char const *))            \
  X(int, qpdf_get_num_pages, (qpdf_data))                                                 \
  X(qpdf_oh, qpdf_get_page_n, (qpdf_data, size_t))                                        \
  X(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data, qpdf_oh, char const *))                       \
  X(qpdf_oh, qpdf_oh_get_key, (qpdf_data, qpdf_oh, char const *))                         \
  X(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data, qpdf_oh))                               \
  X(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data, qpdf_oh))                                   \
  X(qpdf_oh, qpdf_oh_get_dict, (qpdf_data, qpdf_oh))                                      \
  X(QPDF_BOOL, qpdf_oh_is_name_and_equals, (qpdf_data, qpdf_oh, char const *))            \
  X(int, qpdf_oh_get_int_value_as_int, (qpdf_data, qpdf_oh))                              \
  X(int, qpdf_oh_get_array_n_items, (qpdf_data, qpdf_oh))                                 \
  X(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data, qpdf_oh, int))                           \
  X(void, qpdf_oh_begin_dict_key_iter, (qpdf_data, qpdf_oh))                              \
  X(QPDF_BOOL, qpdf_oh_dict_more_keys, (qpdf_data))                                       \
  X(char const *, qpdf_oh_dict_next_key, (qpdf_data))                                     \
  X(QPDF_ERROR_CODE, qpdf_oh_get_stream_data,                                             \
    (qpdf_data, qpdf_oh, enum qpdf_stream_decode_level_e, QPDF_BOOL *, unsigned char **,  \
     size_t *))

static struct {
  SCANTEXT_QPDF_FUNCTIONS(DECLARE_POINTER)
} qpdf;

#ifdef SCANTEXT_CHECK_DECLARATIONS
SCANTEXT_QPDF_FUNCTIONS(CHECK_TYPE)
#endif

static int qpdf_status = -1;
static pthread_once_t qpdf_once = PTHREAD_ONCE_INIT;

static void load_qpdf(void) {
  void *handle = dlopen("libqpdf.so.29", RTLD_NOW | RTLD_LOCAL);
  if (!handle) return;
#define LOAD_QPDF(ret, name, params)                        \
  qpdf.name = (ret(*) params)dlsym(handle, #name);         \
  if (!qpdf.name) return;
  SCANTEXT_QPDF_FUNCTIONS(LOAD_QPDF)
  qpdf_status = 0;
}

// The image XObject a page draws, when it has exactly one (looked for in
// the page's resources, else inherited from its parents); 0 otherwise.
static qpdf_oh only_image(qpdf_data q, qpdf_oh page) {
  qpdf_oh node = page;
  for (int depth = 0; depth < 32; depth++) {
    if (qpdf.qpdf_oh_has_key(q, node, "/Resources")) break;
    if (!qpdf.qpdf_oh_has_key(q, node, "/Parent")) return 0;
    node = qpdf.qpdf_oh_get_key(q, node, "/Parent");
  }
  qpdf_oh resources = qpdf.qpdf_oh_get_key(q, node, "/Resources");
  if (!qpdf.qpdf_oh_is_dictionary(q, resources)) return 0;
  qpdf_oh objects = qpdf.qpdf_oh_get_key(q, resources, "/XObject");
  if (!qpdf.qpdf_oh_is_dictionary(q, objects)) return 0;
  // The keys first: the iterator is the qpdf object's one iterator.
  char keys[8][128];
  int count = 0;
  qpdf.qpdf_oh_begin_dict_key_iter(q, objects);
  while (qpdf.qpdf_oh_dict_more_keys(q)) {
    const char *key = qpdf.qpdf_oh_dict_next_key(q);
    if (count == 8 || !key || strlen(key) >= sizeof keys[0]) return 0;
    strcpy(keys[count++], key);
  }
  qpdf_oh image = 0;
  for (int i = 0; i < count; i++) {
    qpdf_oh object = qpdf.qpdf_oh_get_key(q, objects, keys[i]);
    if (!qpdf.qpdf_oh_is_stream(q, object)) continue;
    qpdf_oh dict = qpdf.qpdf_oh_get_dict(q, object);
    if (!qpdf.qpdf_oh_is_name_and_equals(q, qpdf.qpdf_oh_get_key(q, dict, "/Subtype"), "/Image")) {
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
  pthread_once(&qpdf_once, load_qpdf);
  if (qpdf_status != 0) return NULL;
  qpdf_data q = qpdf.qpdf_init();
  if (!q) return NULL;
  qpdf.qpdf_silence_errors(q);
  qpdf.qpdf_set_suppress_warnings(q, 1);
  uint8_t *bytes = NULL;
  if ((qpdf.qpdf_read_memory(q, "pdf", (const char *)data, size, NULL) & 2) == 0 &&
      index >= 0 && index < qpdf.qpdf_get_num_pages(q)) {
    qpdf_oh image = only_image(q, qpdf.qpdf_get_page_n(q, (size_t)index));
    if (image) {
      qpdf_oh dict = qpdf.qpdf_oh_get_dict(q, image);
      qpdf_oh filter = qpdf.qpdf_oh_get_key(q, dict, "/Filter");
      if (qpdf.qpdf_oh_get_array_n_items(q, filter) == 1) {
        filter = qpdf.qpdf_oh_get_array_item(q, filter, 0);
      }
      int jpeg = qpdf.qpdf_oh_is_name_and_equals(q, filter, "/DCTDecode") &&
                 !qpdf.qpdf_oh_has_key(q, dict, "/Decode") &&
                 !qpdf.qpdf_oh_has_key(q, dict, "/SMask") &&
                 qpdf.qpdf_oh_get_int_value_as_int(q, qpdf.qpdf_oh_get_key(q, dict, "/Width")) ==
                   width &&
                 qpdf.qpdf_oh_get_int_value_as_int(q, qpdf.qpdf_oh_get_key(q, dict, "/Height")) ==
                   height;
      unsigned char *buffer = NULL;
      size_t n = 0;
      if (jpeg &&
          (qpdf.qpdf_oh_get_stream_data(q, image, qpdf_dl_none, NULL, &buffer, &n) & 2) == 0 &&
          buffer && n > 2 && buffer[0] == 0xFF && buffer[1] == 0xD8) {
        bytes = buffer;
        *length = n;
      } else {
        free(buffer);
      }
    }
  }
  qpdf.qpdf_cleanup(&q);
  return bytes;
}
