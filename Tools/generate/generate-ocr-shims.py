#!/usr/bin/env python3
"""Generates the run-time bindings of every C library ScanText uses
(Sources/CScanOCR/shims.c, include/CScanOCR.h, bindings.h): one table of
libraries (LIBRARIES below), one loader, one binding style.

Why: linking libtesseract pulls in some 70 shared libraries (curl, gnutls,
kerberos, ...) whose loading costs about 10 ms at every start, even for
commands that never recognise anything (queries on a JSON model, cache
hits); Poppler, qpdf and zlib are needed only for PDFs. Nothing links
against them: each is opened with dlopen on first use.

Each wrapper `scantext_NAME` has NAME's exact prototype and calls through a
pointer typed with `__typeof__(&NAME)`, so the compiler checks every call.
The prototypes come from the installed headers (Tesseract, Leptonica,
parsed here) or from this table (the others). Tables' prototypes are
checked by the compiler against the real headers: libtiff's at every build
(tiffio.h is included), the rest by Tools/check/check-pdf-declarations.sh
(SCANTEXT_CHECK_DECLARATIONS), so that building needs no -dev package of
Poppler, qpdf, libpng or libjpeg. Run after changing the table:

    python3 Tools/generate/generate-ocr-shims.py          # writes Sources/CScanOCR
    python3 Tools/generate/generate-ocr-shims.py --check  # fails if they are stale

The loader (in the generated shims.c):
- a library is either opened by one of its sonames (never the -dev
  packages' unversioned links: they may point at another ABI), or searched
  through another library's handle (`via`: dlsym searches a library's
  dependencies), so that libtiff is always Leptonica's own and libgomp
  libtesseract's;
- `required` libraries are what recognition needs and are loaded together
  by scantext_load_libraries(); optional ones (PDF input and output, the
  codecs' hooks, OpenMP) are loaded on first use by scantext_library_load()
  and their absence only disables what needs them;
- one guard (a mutex, and an atomic state per library) makes every load
  happen once, dependencies first;
- one error path, scantext_bind_library(): "cannot load SONAME (dlerror)"
  or "LIBRARY has no SYMBOL"; an `optional` symbol may be missing
  (scantext_has_NAME() says whether it was found);
- Tesseract's and Leptonica's versions are checked against the headers the
  wrappers were generated from.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "Sources" / "CScanOCR"

TESSERACT = """TessVersion TessDeleteText TessBaseAPICreate TessBaseAPIDelete TessBaseAPIEnd
TessBaseAPIInit2 TessBaseAPISetVariable TessBaseAPISetPageSegMode TessBaseAPISetImage2
TessBaseAPISetSourceResolution TessBaseAPIRecognize TessBaseAPIGetIterator TessBaseAPIClear
TessBaseAPIGetSourceYResolution TessBaseAPIDetectOrientationScript TessMonitorCreate
TessMonitorDelete TessMonitorSetDeadlineMSecs TessResultIteratorDelete
TessResultIteratorGetPageIterator TessResultIteratorGetUTF8Text TessResultIteratorConfidence
TessPageIteratorBegin TessPageIteratorNext TessPageIteratorIsAtBeginningOf
TessPageIteratorBoundingBox TessPageIteratorBaseline TessPageIteratorOrientation TessBaseAPIGetTsvText
TessBaseAPISetRectangle""".split()

LEPTONICA = """getLeptonicaVersion pixRemoveBorderConnComps pixSetInRectArbitrary pixSetAllArbitrary pixSeedfillBinary l_generateJpegDataMem lept_calloc lept_free pixSetZlibCompression findFileFormatBuffer pixReadHeaderMem pixReadMem pixReadMemTiff pixCreate pixDestroy
pixGetWidth pixGetHeight pixGetDepth pixGetYRes pixGetWpl pixGetData pixSetResolution
pixCopyResolution pixConvertTo8 pixConvertTo1 pixRotateOrth pixRotate pixScaleGrayLI
pixBackgroundNormSimple pixContrastNorm pixGetRankValue pixClipRectangle boxCreate boxDestroy
pixCountConnComp pixSelectBySize pixMedianFilter pixFindSkewSweepAndSearch pixWriteTiff
setMsgSeverity leptSetStderrHandler pixWrite pixOrientDetect makeOrientDecision pixGetXRes pixScale
pixGetRGBComponent pixConvertRGBToGrayMinMax pixCloseGray pixAddGray pixInvert pixErodeGray
pixThresholdToValue pixConnCompBB boxaGetCount boxaGetBoxGeometry boxaDestroy pixScaleByIntSampling
pixConvertTo32 pixRenderBoxArb pixRenderLineArb pixBlendInRect bmfCreate bmfDestroy
pixSetTextline pixWriteMem pixSetAll pixGetPixel pixOpenBrick pixSubtract pixOr pixDilateBrick pixSetMasked
pixCountPixels pixThresholdToBinary pixCombineMasked pixCombineMaskedGeneral pixEqual pixSetPixel pixReduceRankBinary2 selectComposableSizes pixConvertRGBToLuminance pixCopy pixAnd pixOpenCompBrick
pixGetColormap l_generateCIDataForPdf l_CIDataDestroy pixFlipLR pixFlipTB pixGetSpp pixAlphaBlendUniform
getProjectiveXformCoeffs pixProjective ptaCreate ptaAddPt ptaDestroy pixScaleAreaMap
dewarpaCreate dewarpaDestroy dewarpCreate dewarpDestroy dewarpaInsertDewarp dewarpaUseBothArrays
dewarpaSetCurvatures dewarpBuildPageModel dewarpaInsertRefModels dewarpaApplyDisparity
fpixGetDimensions fpixGetData fpixGetWpl numaGetCount numaGetFValue dewarpPopulateFullRes
pixSauvolaBinarize pixBlockconv""".split()

HEADERS = {
    "tesseract": Path("/usr/include/tesseract/capi.h"),
    "leptonica": Path("/usr/include/leptonica/allheaders.h"),
}

# libtiff 4.5's functions (Sources/CScanOCR/tiff.c); tiffio.h is included
# where they are used, so the compiler compares these with it at every
# build. A variadic function is bound through its va_list twin.
TIFF_FUNCTIONS = """
TIFF *TIFFClientOpen(const char *, const char *, thandle_t, TIFFReadWriteProc, TIFFReadWriteProc,
  TIFFSeekProc, TIFFCloseProc, TIFFSizeProc, TIFFMapFileProc, TIFFUnmapFileProc);
void TIFFClose(TIFF *);
int TIFFReadDirectory(TIFF *);
int TIFFSetDirectory(TIFF *, tdir_t);
int TIFFGetField(TIFF *, uint32_t, ...);
int TIFFGetFieldDefaulted(TIFF *, uint32_t, ...);
int TIFFIsTiled(TIFF *);
uint32_t TIFFNumberOfStrips(TIFF *);
uint32_t TIFFNumberOfTiles(TIFF *);
uint64_t TIFFCurrentDirOffset(TIFF *);
int TIFFIsBigTIFF(TIFF *);
int TIFFReadRGBAImageOriented(TIFF *, uint32_t, uint32_t, uint32_t *, int, int);
TIFFErrorHandler TIFFSetErrorHandler(TIFFErrorHandler);
TIFFErrorHandlerExt TIFFSetErrorHandlerExt(TIFFErrorHandlerExt);
TIFFErrorHandler TIFFSetWarningHandler(TIFFErrorHandler);
optional TIFFOpenOptions *TIFFOpenOptionsAlloc(void);
optional void TIFFOpenOptionsFree(TIFFOpenOptions *);
optional void TIFFOpenOptionsSetMaxSingleMemAlloc(TIFFOpenOptions *, tmsize_t);
optional TIFF *TIFFClientOpenExt(const char *, const char *, thandle_t, TIFFReadWriteProc,
  TIFFReadWriteProc, TIFFSeekProc, TIFFCloseProc, TIFFSizeProc, TIFFMapFileProc, TIFFUnmapFileProc,
  TIFFOpenOptions *);
"""
VARIADIC = {"TIFFGetField": "TIFFVGetField", "TIFFGetFieldDefaulted": "TIFFVGetFieldDefaulted"}

# libpng 1.6 and libjpeg 6.2, as Leptonica links them (Sources/CScanOCR/quiet.c).
PNG_TYPES = """typedef struct png_struct_def png_struct;
typedef void (*png_error_ptr)(png_struct *, const char *);"""
PNG_FUNCTIONS = """
png_struct *png_create_read_struct(const char *, void *, png_error_ptr, png_error_ptr);
void png_longjmp(const png_struct *, int);
void png_set_compression_level(png_struct *, int);
void png_set_filter(png_struct *, int, int);
"""
JPEG_TYPES = "struct jpeg_error_mgr;"
JPEG_FUNCTIONS = "struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *);"

# OpenMP's runtime, as libtesseract links it (Sources/ScanOCR/OpenMP.swift).
GOMP_FUNCTIONS = "void omp_set_max_active_levels(int);"

# Poppler's GLib API and the GLib, GObject and cairo functions it needs
# (Sources/CScanOCR/pdf.c): their stable C ABI (libpoppler-glib.so.8,
# libglib-2.0.so.0, libgobject-2.0.so.0, libcairo.so.2).
POPPLER_TYPES = """typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
typedef struct _PopplerRectangle {
  gdouble x1, y1, x2, y2;
} PopplerRectangle;
typedef struct _PopplerImageMapping {
  PopplerRectangle area;
  gint image_id;
} PopplerImageMapping;
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
enum { POPPLER_ERROR_ENCRYPTED = 1 };"""
POPPLER_FUNCTIONS = """
PopplerDocument *poppler_document_new_from_bytes(GBytes *, const char *, GError **);
PopplerDocument *poppler_document_new_from_stream(GInputStream *, goffset, const char *, GCancellable *, GError **);
int poppler_document_get_n_pages(PopplerDocument *);
PopplerPage *poppler_document_get_page(PopplerDocument *, int);
void poppler_page_get_size(PopplerPage *, double *, double *);
GList *poppler_page_get_image_mapping(PopplerPage *);
void poppler_page_free_image_mapping(GList *);
cairo_surface_t *poppler_page_get_image(PopplerPage *, gint);
char *poppler_page_get_text(PopplerPage *);
gboolean poppler_page_get_text_layout(PopplerPage *, PopplerRectangle **, guint *);
GList *poppler_page_get_text_attributes(PopplerPage *);
void poppler_page_free_text_attributes(GList *);
void poppler_page_render(PopplerPage *, cairo_t *);
GQuark poppler_error_quark(void);
"""
GLIB_TYPES = """typedef int gboolean;
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef unsigned short guint16;
typedef uint32_t GQuark;
typedef size_t gsize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef double gdouble;
typedef struct _GBytes GBytes;
typedef int64_t goffset;
typedef struct _GInputStream GInputStream;
typedef struct _GMemoryInputStream GMemoryInputStream;
typedef struct _GCancellable GCancellable;
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
  const gchar *log_domain, GLogLevelFlags log_level, const gchar *message, gpointer user_data);"""
GLIB_FUNCTIONS = """
GBytes *g_bytes_new_static(gconstpointer, gsize);
GBytes *g_bytes_new(gconstpointer, gsize);
GBytes *g_bytes_ref(GBytes *);
gsize g_bytes_get_size(GBytes *);
GInputStream *g_memory_input_stream_new_from_bytes(GBytes *);
void g_memory_input_stream_add_bytes(GMemoryInputStream *, GBytes *);
void g_bytes_unref(GBytes *);
void g_error_free(GError *);
void g_free(gpointer);
guint g_log_set_handler(const gchar *, GLogLevelFlags, GLogFunc, gpointer);
"""
GOBJECT_FUNCTIONS = "void g_object_unref(gpointer);"
CAIRO_TYPES = """typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef enum { CAIRO_FORMAT_ARGB32 = 0 } cairo_format_t;
typedef enum { CAIRO_STATUS_SUCCESS = 0 } cairo_status_t;"""
CAIRO_FUNCTIONS = """
cairo_surface_t *cairo_image_surface_create(cairo_format_t, int, int);
cairo_status_t cairo_surface_status(cairo_surface_t *);
void cairo_surface_flush(cairo_surface_t *);
void cairo_surface_destroy(cairo_surface_t *);
unsigned char *cairo_image_surface_get_data(cairo_surface_t *);
int cairo_image_surface_get_width(cairo_surface_t *);
int cairo_image_surface_get_height(cairo_surface_t *);
int cairo_image_surface_get_stride(cairo_surface_t *);
cairo_t *cairo_create(cairo_surface_t *);
void cairo_destroy(cairo_t *);
void cairo_scale(cairo_t *, double, double);
void cairo_set_source_rgb(cairo_t *, double, double, double);
void cairo_paint(cairo_t *);
"""

# qpdf's C API (libqpdf.so.29, qpdf 11): a PDF's stored image bytes
# (pdf.c) and the searchable PDF of a PDF input (PDFEditor, pdfwrite.c).
QPDF_TYPES = """typedef struct _qpdf_data *qpdf_data;
typedef struct _qpdf_error *qpdf_error;
typedef unsigned int qpdf_oh;
typedef int QPDF_BOOL;
typedef int QPDF_ERROR_CODE;
enum qpdf_stream_decode_level_e { qpdf_dl_none = 0, qpdf_dl_generalized = 1 };
enum qpdf_object_stream_e { qpdf_o_disable = 0, qpdf_o_preserve = 1, qpdf_o_generate = 2 };"""
QPDF_FUNCTIONS = """
qpdf_data qpdf_init(void);
void qpdf_cleanup(qpdf_data *);
QPDF_BOOL qpdf_has_error(qpdf_data);
qpdf_error qpdf_get_error(qpdf_data);
char const *qpdf_get_error_full_text(qpdf_data, qpdf_error);
char const *qpdf_get_error_message_detail(qpdf_data, qpdf_error);
void qpdf_silence_errors(qpdf_data);
void qpdf_set_suppress_warnings(qpdf_data, QPDF_BOOL);
QPDF_BOOL qpdf_more_warnings(qpdf_data);
QPDF_ERROR_CODE qpdf_read_memory(qpdf_data, char const *, char const *, unsigned long long, char const *);
QPDF_BOOL qpdf_is_encrypted(qpdf_data);
int qpdf_get_num_pages(qpdf_data);
qpdf_oh qpdf_get_page_n(qpdf_data, size_t);
QPDF_ERROR_CODE qpdf_push_inherited_attributes_to_page(qpdf_data);
QPDF_ERROR_CODE qpdf_add_page(qpdf_data, qpdf_data, qpdf_oh, QPDF_BOOL);
QPDF_ERROR_CODE qpdf_remove_page(qpdf_data, qpdf_oh);
qpdf_oh qpdf_get_root(qpdf_data);
qpdf_oh qpdf_get_trailer(qpdf_data);
qpdf_oh qpdf_get_object_by_id(qpdf_data, int, int);
qpdf_oh qpdf_make_indirect_object(qpdf_data, qpdf_oh);
qpdf_oh qpdf_oh_copy_foreign_object(qpdf_data, qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_dictionary(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_array(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_stream(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_name(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_number(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_string(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_indirect(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_is_name_and_equals(qpdf_data, qpdf_oh, char const *);
char const *qpdf_oh_get_name(qpdf_data, qpdf_oh);
double qpdf_oh_get_numeric_value(qpdf_data, qpdf_oh);
void qpdf_oh_release_all(qpdf_data);
char const *qpdf_oh_unparse(qpdf_data, qpdf_oh);
int qpdf_oh_get_int_value_as_int(qpdf_data, qpdf_oh);
char const *qpdf_oh_get_utf8_value(qpdf_data, qpdf_oh);
int qpdf_oh_get_object_id(qpdf_data, qpdf_oh);
int qpdf_oh_get_generation(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_has_key(qpdf_data, qpdf_oh, char const *);
qpdf_oh qpdf_oh_get_key(qpdf_data, qpdf_oh, char const *);
void qpdf_oh_begin_dict_key_iter(qpdf_data, qpdf_oh);
QPDF_BOOL qpdf_oh_dict_more_keys(qpdf_data);
char const *qpdf_oh_dict_next_key(qpdf_data);
int qpdf_oh_get_array_n_items(qpdf_data, qpdf_oh);
qpdf_oh qpdf_oh_get_array_item(qpdf_data, qpdf_oh, int);
qpdf_oh qpdf_oh_new_array(qpdf_data);
qpdf_oh qpdf_oh_new_dictionary(qpdf_data);
qpdf_oh qpdf_oh_new_stream(qpdf_data);
qpdf_oh qpdf_oh_new_null(qpdf_data);
qpdf_oh qpdf_oh_new_integer(qpdf_data, long long);
qpdf_oh qpdf_oh_new_unicode_string(qpdf_data, char const *);
qpdf_oh qpdf_oh_parse(qpdf_data, char const *);
qpdf_oh qpdf_oh_get_dict(qpdf_data, qpdf_oh);
void qpdf_oh_append_item(qpdf_data, qpdf_oh, qpdf_oh);
void qpdf_oh_replace_key(qpdf_data, qpdf_oh, char const *, qpdf_oh);
void qpdf_oh_remove_key(qpdf_data, qpdf_oh, char const *);
void qpdf_oh_replace_stream_data(qpdf_data, qpdf_oh, unsigned char const *, size_t, qpdf_oh, qpdf_oh);
QPDF_ERROR_CODE qpdf_oh_get_page_content_data(qpdf_data, qpdf_oh, unsigned char **, size_t *);
QPDF_ERROR_CODE qpdf_oh_get_stream_data(qpdf_data, qpdf_oh, enum qpdf_stream_decode_level_e,
  QPDF_BOOL *, unsigned char **, size_t *);
QPDF_ERROR_CODE qpdf_init_write_memory(qpdf_data);
void qpdf_set_compress_streams(qpdf_data, QPDF_BOOL);
void qpdf_set_decode_level(qpdf_data, enum qpdf_stream_decode_level_e);
void qpdf_set_object_stream_mode(qpdf_data, enum qpdf_object_stream_e);
void qpdf_set_preserve_unreferenced_objects(qpdf_data, QPDF_BOOL);
void qpdf_set_deterministic_ID(qpdf_data, QPDF_BOOL);
void qpdf_set_newline_before_endstream(qpdf_data, QPDF_BOOL);
QPDF_ERROR_CODE qpdf_write(qpdf_data);
size_t qpdf_get_buffer_length(qpdf_data);
unsigned char const *qpdf_get_buffer(qpdf_data);
"""
ZLIB_TYPES = """typedef unsigned char Bytef;
typedef unsigned long uLong;
typedef unsigned long uLongf;
#define Z_OK 0
#define Z_DEFAULT_COMPRESSION (-1)"""
ZLIB_FUNCTIONS = """
uLong compressBound(uLong);
int compress2(Bytef *, uLongf *, const Bytef *, uLong, int);
"""

# The table of libraries, in loading order. name: the loader's key (and
# SCANTEXT_LIBRARY_<NAME>); title: what errors call it; sonames: the shared
# objects tried in order, or via: the library whose handle is searched;
# after: libraries loaded first; open: dlopen flags ("deep": the recognition
# libraries' own scope, see SCANTEXT_DLOPEN_FLAGS; "local": RTLD_LOCAL);
# required: loaded by scantext_load_libraries(); public: its wrappers are
# declared in CScanOCR.h (Swift calls them), else in bindings.h (C only);
# header: (path, declaration prefix) to parse, or functions/types: the
# table's own declarations, with headers: the real headers compared with
# them under SCANTEXT_CHECK_DECLARATIONS (absent: included at every build,
# or not checked); setup: a function run once right after the library is
# bound, under the loader's guard (`int f(char *error, size_t size)`, 0 or
# -1 with a message: the library then counts as not loaded).
LIBRARIES = [
    dict(name="leptonica", title="Leptonica", sonames=["liblept.so.5", "libleptonica.so.6"],
         open="deep", required=True, public=True, header=(HEADERS["leptonica"], "LEPT_DLL"),
         symbols=LEPTONICA, setup="scantext_check_leptonica"),
    dict(name="tesseract", title="libtesseract", sonames=["libtesseract.so.5"],
         after=["leptonica"], open="deep", required=True, public=True,
         header=(HEADERS["tesseract"], "TESS_API"), symbols=TESSERACT,
         setup="scantext_check_tesseract"),
    dict(name="tiff", title="Leptonica's libtiff", via="leptonica", required=True,
         functions=TIFF_FUNCTIONS, includes=["<tiffio.h>"], setup="scantext_tiff_setup"),
    dict(name="png", title="Leptonica's libpng", via="leptonica", functions=PNG_FUNCTIONS,
         types=PNG_TYPES, headers=["<png.h>"], setup="scantext_png_setup"),
    dict(name="jpeg", title="Leptonica's libjpeg", via="leptonica", functions=JPEG_FUNCTIONS,
         types=JPEG_TYPES, headers=["<stdio.h>", "<jpeglib.h>"], setup="scantext_jpeg_setup"),
    dict(name="gomp", title="libtesseract's OpenMP runtime", via="tesseract", public=True,
         functions=GOMP_FUNCTIONS),
    dict(name="poppler", title="Poppler's GLib library", sonames=["libpoppler-glib.so.8"],
         after=["tesseract"], open="local", functions=POPPLER_FUNCTIONS,
         types=GLIB_TYPES + "\n" + CAIRO_TYPES + "\n" + POPPLER_TYPES,
         headers=["<cairo.h>", "<poppler.h>"]),
    dict(name="glib", title="Poppler's GLib", via="poppler", functions=GLIB_FUNCTIONS, headers=[],
         setup="scantext_glib_setup"),
    dict(name="gobject", title="Poppler's GObject", via="poppler", functions=GOBJECT_FUNCTIONS,
         headers=[]),
    dict(name="cairo", title="Poppler's cairo", via="poppler", functions=CAIRO_FUNCTIONS, headers=[]),
    dict(name="qpdf", title="libqpdf", sonames=["libqpdf.so.29"], open="local", public=True,
         functions=QPDF_FUNCTIONS, types=QPDF_TYPES, headers=["<qpdf/qpdf-c.h>"]),
    dict(name="zlib", title="zlib", sonames=["libz.so.1"], open="local", functions=ZLIB_FUNCTIONS,
         types=ZLIB_TYPES, headers=["<zlib.h>"]),
]


def prototypes(path, prefix):
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = " ".join(text.split())
    found = {}
    for m in re.finditer(prefix + r"\s+(?:extern\s+)?([^;{}()]*?)\b(\w+)\s*\(([^;{}]*?)\)\s*;", text):
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
        found[name] = (ret, params)
    return found


def argument_names(params):
    if params in ("", "void"):
        return []
    names = []
    for p in re.split(r",(?![^()]*\))", params):
        # A function pointer parameter: `void (*handler)(const char *)`.
        m = re.match(r"[^(]*\(\s*\*\s*(\w+)\s*\)", p.strip()) or \
            re.search(r"(\w+)\s*(\[\s*\])?\s*$", p.strip())
        if not m:
            sys.exit(f"cannot name parameter '{p}'")
        names.append(m.group(1))
    return names


def header_version(path, pattern):
    m = re.search(pattern, path.read_text())
    if not m:
        sys.exit(f"no version in {path}")
    return ".".join(m.groups())


def declared(text):
    """The table's prototypes: (optional, return type, name, [parameter types])."""
    found = []
    text = " ".join(text.split())
    for declaration in text.split(";"):
        declaration = declaration.strip()
        if not declaration:
            continue
        optional = declaration.startswith("optional ")
        if optional:
            declaration = declaration[len("optional "):]
        m = re.fullmatch(r"(.*?)\b(\w+)\s*\((.*)\)", declaration)
        if not m:
            sys.exit(f"cannot read the declaration '{declaration}'")
        params = [p.strip() for p in m.group(3).split(",")]
        found.append((optional, m.group(1).strip(), m.group(2), [] if params == ["void"] else params))
    return found


def named(params):
    """Parameter types given names a0, a1, ... (the variadic `...` kept)."""
    out = []
    for i, p in enumerate(params):
        out.append(p if p == "..." else f"{p}{'' if p.endswith('*') else ' '}a{i}")
    return out


class Function:
    def __init__(self, library, name, ret, plist, args, optional, bound):
        self.library, self.name, self.ret = library, name, ret
        self.plist, self.args, self.optional, self.bound = plist, args, optional, bound


def functions_of(library):
    if "header" in library:
        path, prefix = library["header"]
        table = prototypes(path, prefix)
        out = []
        for name in library["symbols"]:
            if name not in table:
                sys.exit(f"{name} not found in {path}")
            ret, params = table[name]
            out.append(Function(library, name, ret, params if params else "void",
                                ", ".join(argument_names(params)), False, name))
        return out
    out = []
    for optional, ret, name, params in declared(library["functions"]):
        params_named = named(params)
        plist = ", ".join(params_named) if params else "void"
        args = ", ".join(f"a{i}" for i, p in enumerate(params) if p != "...")
        bound = VARIADIC.get(name, name)
        if params and params[-1] == "...":
            if name not in VARIADIC:
                sys.exit(f"{name} is variadic: name its va_list twin in VARIADIC")
            args += ", list"
        out.append(Function(library, name, ret, plist, args, optional, bound))
    return out


def wrapper(f, slot):
    pointer = f"((__typeof__(&{f.bound}))scantext_slots[{slot}])"
    if f.bound != f.name:
        last = f"a{len(f.plist.split(',')) - 2}"
        value = "" if f.ret == "void" else f"{f.ret} result = "
        ret = "" if f.ret == "void" else "\n  return result;"
        return (f"{f.ret} scantext_{f.name}({f.plist}) {{\n  va_list list;\n  va_start(list, {last});\n"
                f"  {value}{pointer}({f.args});\n  va_end(list);{ret}\n}}")
    call = f"{pointer}({f.args})"
    body = f"{call};" if f.ret == "void" else f"return {call};"
    return f"{f.ret} scantext_{f.name}({f.plist}) {{ {body} }}"


def constant(library):
    return "SCANTEXT_LIBRARY_" + library["name"].upper()


def declarations_block(library):
    """A library's types and prototypes for the header its wrappers go in."""
    lines = []
    for include in library.get("includes", []):
        lines.append(f"#include {include}")
    if "functions" in library:
        check = library.get("headers")
        types = library.get("types")
        if check is not None:
            lines.append("#ifdef SCANTEXT_CHECK_DECLARATIONS")
            lines += [f"#include {h}" for h in check]
            if types:
                lines.append("#else")
                lines.append(types)
            lines.append("#endif")
        elif types:
            lines.append(types)
        for optional, ret, name, params in declared(library["functions"]):
            bound = VARIADIC.get(name, name)
            lines.append(f"{ret} {name}({', '.join(params) if params else 'void'});")
            if bound != name:
                lines.append(f"{ret} {bound}({', '.join(params[:-1] + ['va_list'])});")
    return lines


def main():
    tess_version = header_version(Path("/usr/include/tesseract/version.h"),
                                  r'#define TESSERACT_VERSION_STR "([^"]+)"')
    lept_version = header_version(HEADERS["leptonica"],
                                  r"LIBLEPT_MAJOR_VERSION\s+(\d+)\s+#define LIBLEPT_MINOR_VERSION\s+(\d+)")
    index = {library["name"]: i for i, library in enumerate(LIBRARIES)}
    for i, library in enumerate(LIBRARIES):
        # Dependencies come earlier in the table: loading never loops.
        for other in library.get("after", []) + ([library["via"]] if "via" in library else []):
            if index.get(other, len(LIBRARIES)) >= i:
                sys.exit(f"{library['name']} needs {other}, which must come before it")
        if ("sonames" in library) == ("via" in library):
            sys.exit(f"{library['name']}: give either sonames or via")
    functions = []
    ranges = []
    for library in LIBRARIES:
        first = len(functions)
        functions += functions_of(library)
        ranges.append((first, len(functions) - first))
    public_decls, private_decls, wrappers, checks_of_optional = [], [], [], []
    for library in LIBRARIES:
        block = declarations_block(library)
        (public_decls if library.get("public") else private_decls).extend(block + [""])
    for slot, f in enumerate(functions):
        decl = f"{f.ret} scantext_{f.name}({f.plist});"
        target = public_decls if f.library.get("public") else private_decls
        target.append(decl)
        wrappers.append(wrapper(f, slot))
        if f.optional:
            target.append(f"/// Whether {f.library['title']} has {f.name} (it may not).")
            target.append(f"int scantext_has_{f.name}(void);")
            wrappers.append(f"int scantext_has_{f.name}(void) {{ return scantext_slots[{slot}] != NULL; }}")
    setups = [f"int {l['setup']}(char *error, size_t size);" for l in LIBRARIES
              if l.get("setup") and not l["setup"].startswith("scantext_check_")]
    enum = "\n".join(f"  {constant(l)} = {i}," for i, l in enumerate(LIBRARIES))
    symbol_names = "\n".join(f'  "{f.bound}",' for f in functions)
    optional_flags = "\n".join(
        "  " + ", ".join("1" if f.optional else "0" for f in functions[i:i + 24]) + ","
        for i in range(0, len(functions), 24))
    sonames, entries = [], []
    for i, l in enumerate(LIBRARIES):
        if "sonames" in l:
            names = ", ".join(f'"{n}"' for n in l["sonames"])
            sonames.append(f"static const char *const scantext_sonames_{l['name']}[] = {{{names}, NULL}};")
        after = [index[a] for a in l.get("after", [])] + [-1, -1]
        flags = {"deep": "SCANTEXT_DLOPEN_FLAGS", "local": "(RTLD_NOW | RTLD_LOCAL)"}.get(l.get("open"), "0")
        first, count = ranges[i]
        entries.append(
            f'  {{"{l["name"]}", "{l["title"]}", '
            + (f"scantext_sonames_{l['name']}" if "sonames" in l else "NULL") + ", "
            + (f"{index[l['via']]}" if "via" in l else "-1") + f", {{{after[0]}, {after[1]}}}, "
            + f"{flags}, {1 if l.get('required') else 0}, {first}, {count}, "
            + l.get("setup", "NULL") + "},")
    header = f"""// Generated by Tools/generate/generate-ocr-shims.py; do not edit.
#ifndef CSCANOCR_H
#define CSCANOCR_H

#include <stddef.h>
#include <stdint.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include <tesseract/version.h>

#include "ScanTextLoaded.h"
#include "ScanTextMedian.h"
#include "ScanTextParallel.h"
#include "ScanTextQuiet.h"
#include "ScanTextTIFF.h"
#include "ScanTextPDF.h"
#include "ScanTextPDFWrite.h"
#include "ScanTextChroma.h"

/// The run-time libraries, in loading order (the generator's table).
enum {{
{enum}
  SCANTEXT_LIBRARY_COUNT = {len(LIBRARIES)}
}};

/// Loads `library` (its dependencies first) and binds its functions, once;
/// safe to call from several threads. 0 on success, else -1 with a message
/// in scantext_library_error().
int scantext_library_load(int library);
/// Why `library` could not be loaded ("cannot load SONAME (reason)",
/// "LIBRARY has no SYMBOL", a version mismatch); "" before or after success.
const char *scantext_library_error(int library);
/// The handle `library`'s symbols are found through once it is loaded (its
/// own, or that of the library it is found through), else NULL.
void *scantext_library_handle(int library);
/// 1 when `library` is required (recognition needs it), else 0.
int scantext_library_required(int library);
/// Loads every required library (Leptonica, libtesseract, libtiff): 0 on
/// success, else -1 with the first failure in scantext_load_error().
int scantext_load_libraries(void);
const char *scantext_load_error(void);
/// The shared objects the loader tries for the library named `library`
/// ("tesseract", "leptonica", ...), in order, NULL-terminated; NULL for a
/// library found through another one's handle, or an unknown name.
const char *const *scantext_library_names(const char *library);
/// The loader's one binding step, for every library: opens the first of
/// `sonames` that loads with `flags` (or, when `sonames` is NULL, searches
/// `through`, another library's handle) and binds `symbols[0..<count]` into
/// `slots`; a symbol whose `optional` flag is set may be missing (its slot
/// stays NULL). 0 on success with the handle in `*handle`, else -1 with
/// "cannot load SONAME (reason)" or "TITLE has no SYMBOL" in `error`.
int scantext_bind_library(
  const char *title, const char *const *sonames, void *through, int flags,
  const char *const *symbols, const unsigned char *optional, void **slots, size_t count,
  void **handle, char *error, size_t error_size);
/// The version of the headers the wrappers were generated from.
#define SCANTEXT_TESSERACT_HEADERS_VERSION "{tess_version}"
#define SCANTEXT_LEPTONICA_HEADERS_VERSION "{lept_version}"

{chr(10).join(public_decls)}

#endif
"""
    bindings = f"""// Generated by Tools/generate/generate-ocr-shims.py; do not edit.
// The libraries only the C files call (not Swift): their types and
// functions, and the wrappers of those functions.
#ifndef SCANTEXT_BINDINGS_H
#define SCANTEXT_BINDINGS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "CScanOCR.h"

{chr(10).join(private_decls)}

#endif
"""
    source = f"""// Generated by Tools/generate/generate-ocr-shims.py; do not edit.
#define _GNU_SOURCE
#include "CScanOCR.h"
#include "bindings.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Each recognition library binds its own symbols first (RTLD_DEEPBIND).
// libtesseract is linked BIND_NOW: loading it resolves about 19,000
// symbols, most of them its own, and each search otherwise walked every
// library of the Swift runtime ahead of it, 7 ms of every run (`perf`: the
// dynamic linker's do_lookup_x; a one-word page read in 87 ms, now 80 ms;
// the tesseract command takes 67). The libraries then bind malloc and free
// in their own scope: memory crosses between them and ScanText only
// through their own functions (lept_calloc, lept_free, TessDeleteText),
// never through a bare malloc or free, so an allocator preloaded ahead of
// them changes nothing. AddressSanitizer must interpose malloc everywhere
// and refuses RTLD_DEEPBIND, and so does ThreadSanitizer: sanitized
// builds load the libraries plainly.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SCANTEXT_DLOPEN_FLAGS (RTLD_NOW | RTLD_GLOBAL)
#endif
#endif
#ifndef SCANTEXT_DLOPEN_FLAGS
#define SCANTEXT_DLOPEN_FLAGS (RTLD_NOW | RTLD_GLOBAL | RTLD_DEEPBIND)
#endif

// Every function bound, library by library (the table's order); a
// variadic function's va_list twin stands for it.
static const char *const scantext_symbols[] = {{
{symbol_names}
}};
// 1 for a symbol the library may lack.
static const unsigned char scantext_optional[] = {{
{optional_flags}
}};
static void *scantext_slots[{len(functions)}];

// The loaded libraries must match the headers the wrappers were generated
// from: same major version (and for Leptonica, at least the minor version).
static int scantext_check_tesseract(char *error, size_t size) {{
  const char *tesseract = scantext_TessVersion();
  if (!tesseract || atoi(tesseract) != TESSERACT_MAJOR_VERSION) {{
    snprintf(error, size, "libtesseract %s does not match the headers ScanText was built with (%s)",
      tesseract ? tesseract : "?", TESSERACT_VERSION_STR);
    return -1;
  }}
  return 0;
}}

static int scantext_check_leptonica(char *error, size_t size) {{
  char *leptonica = scantext_getLeptonicaVersion();
  int major = 0, minor = 0;
  int parsed = leptonica && sscanf(leptonica, "leptonica-%d.%d", &major, &minor) == 2;
  if (!parsed || major != LIBLEPT_MAJOR_VERSION || minor < LIBLEPT_MINOR_VERSION) {{
    snprintf(error, size, "%s does not match the headers ScanText was built with (leptonica-%d.%d)",
      leptonica ? leptonica : "Leptonica of unknown version", LIBLEPT_MAJOR_VERSION,
      LIBLEPT_MINOR_VERSION);
    if (leptonica) scantext_lept_free(leptonica);
    return -1;
  }}
  scantext_lept_free(leptonica);
  return 0;
}}

{chr(10).join(sonames)}

// The hand-written setups (see the table in the generator).
{chr(10).join(setups)}

static const struct {{
  const char *name;
  const char *title;
  const char *const *sonames;
  int via;
  int after[2];
  int flags;
  int required;
  int first;
  int count;
  int (*setup)(char *error, size_t size);
}} scantext_libraries[SCANTEXT_LIBRARY_COUNT] = {{
{chr(10).join(entries)}
}};

int scantext_bind_library(
  const char *title, const char *const *sonames, void *through, int flags,
  const char *const *symbols, const unsigned char *optional, void **slots, size_t count,
  void **handle, char *error, size_t error_size) {{
  void *opened = through;
  const char *name = title;
  if (sonames) {{
    opened = NULL;
    for (const char *const *soname = sonames; *soname && !opened; soname++) {{
      opened = dlopen(*soname, flags);
      if (opened) name = *soname;
    }}
    if (!opened) {{
      const char *reason = dlerror();
      snprintf(error, error_size, "cannot load %s (%s)", sonames[0] ? sonames[0] : title,
        reason ? reason : "no name to try");
      return -1;
    }}
  }}
  if (!opened) {{
    snprintf(error, error_size, "cannot load %s (nothing to search)", title);
    return -1;
  }}
  for (size_t i = 0; i < count; i++) {{
    slots[i] = dlsym(opened, symbols[i]);
    if (!slots[i] && !optional[i]) {{
      snprintf(error, error_size, "%s has no %s", name, symbols[i]);
      return -1;
    }}
  }}
  *handle = opened;
  return 0;
}}

// The one guard: a library is loaded under the lock, once; its state
// (0 not tried, 1 loaded, -1 failed) is then read without it.
static pthread_mutex_t scantext_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int scantext_state[SCANTEXT_LIBRARY_COUNT];
static void *scantext_handles[SCANTEXT_LIBRARY_COUNT];
static char scantext_errors[SCANTEXT_LIBRARY_COUNT][512];

static int scantext_load_locked(int id) {{
  int state = atomic_load_explicit(&scantext_state[id], memory_order_relaxed);
  if (state != 0) return state > 0 ? 0 : -1;
  int status = 0;
  int needs[3] = {{scantext_libraries[id].after[0], scantext_libraries[id].after[1],
    scantext_libraries[id].via}};
  for (int i = 0; i < 3 && status == 0; i++) {{
    if (needs[i] >= 0 && scantext_load_locked(needs[i]) != 0) {{
      memcpy(scantext_errors[id], scantext_errors[needs[i]], sizeof scantext_errors[id]);
      status = -1;
    }}
  }}
  void *handle = NULL;
  if (status == 0) {{
    int first = scantext_libraries[id].first;
    status = scantext_bind_library(scantext_libraries[id].title, scantext_libraries[id].sonames,
      scantext_libraries[id].via >= 0 ? scantext_handles[scantext_libraries[id].via] : NULL,
      scantext_libraries[id].flags, scantext_symbols + first, scantext_optional + first,
      scantext_slots + first, (size_t)scantext_libraries[id].count, &handle,
      scantext_errors[id], sizeof scantext_errors[id]);
  }}
  if (status == 0 && scantext_libraries[id].setup) {{
    status = scantext_libraries[id].setup(scantext_errors[id], sizeof scantext_errors[id]);
  }}
  if (status == 0) scantext_handles[id] = handle;
  atomic_store_explicit(&scantext_state[id], status == 0 ? 1 : -1, memory_order_release);
  return status;
}}

int scantext_library_load(int library) {{
  if (library < 0 || library >= SCANTEXT_LIBRARY_COUNT) return -1;
  int state = atomic_load_explicit(&scantext_state[library], memory_order_acquire);
  if (state != 0) return state > 0 ? 0 : -1;
  pthread_mutex_lock(&scantext_lock);
  int status = scantext_load_locked(library);
  pthread_mutex_unlock(&scantext_lock);
  return status;
}}

const char *scantext_library_error(int library) {{
  if (library < 0 || library >= SCANTEXT_LIBRARY_COUNT) return "no such library";
  if (atomic_load_explicit(&scantext_state[library], memory_order_acquire) >= 0) return "";
  return scantext_errors[library];
}}

void *scantext_library_handle(int library) {{
  if (library < 0 || library >= SCANTEXT_LIBRARY_COUNT) return NULL;
  if (atomic_load_explicit(&scantext_state[library], memory_order_acquire) <= 0) return NULL;
  return scantext_handles[library];
}}

int scantext_library_required(int library) {{
  return library >= 0 && library < SCANTEXT_LIBRARY_COUNT && scantext_libraries[library].required;
}}

int scantext_load_libraries(void) {{
  for (int id = 0; id < SCANTEXT_LIBRARY_COUNT; id++) {{
    if (scantext_libraries[id].required && scantext_library_load(id) != 0) return -1;
  }}
  return 0;
}}

const char *scantext_load_error(void) {{
  for (int id = 0; id < SCANTEXT_LIBRARY_COUNT; id++) {{
    if (scantext_libraries[id].required && *scantext_library_error(id)) {{
      return scantext_library_error(id);
    }}
  }}
  return "";
}}

const char *const *scantext_library_names(const char *library) {{
  for (int id = 0; id < SCANTEXT_LIBRARY_COUNT; id++) {{
    if (strcmp(scantext_libraries[id].name, library) == 0) return scantext_libraries[id].sonames;
  }}
  return NULL;
}}

{chr(10).join(wrappers)}
"""
    files = {OUT / "include" / "CScanOCR.h": header, OUT / "bindings.h": bindings,
             OUT / "shims.c": source}
    if "--check" in sys.argv[1:]:
        stale = [str(p.relative_to(ROOT)) for p, text in files.items()
                 if not p.exists() or p.read_text() != text]
        if stale:
            sys.exit("stale, run python3 Tools/generate/generate-ocr-shims.py: " + ", ".join(stale))
        print(f"{len(functions)} wrappers of {len(LIBRARIES)} libraries up to date")
        return
    (OUT / "include").mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
    print(f"wrote {len(functions)} wrappers of {len(LIBRARIES)} libraries to {OUT}")


if __name__ == "__main__":
    main()
