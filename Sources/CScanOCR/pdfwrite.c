// Hand-written (not generated): see include/ScanTextPDFWrite.h.
//
// qpdf's C API and zlib are declared, not included (the header declares
// qpdf's types; zlib's two functions are declared below), and loaded at
// run time like Poppler in pdf.c: only a searchable PDF of a PDF input
// loads them. `Tools/check-pdf-declarations.sh` compiles this file against
// the real headers (SCANTEXT_CHECK_DECLARATIONS) and fails on any
// difference.
#include "ScanTextPDFWrite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#ifdef SCANTEXT_CHECK_DECLARATIONS
#include <zlib.h>
#else
enum qpdf_stream_decode_level_e { qpdf_dl_none = 0, qpdf_dl_generalized = 1 };
enum qpdf_object_stream_e { qpdf_o_disable = 0, qpdf_o_preserve = 1 };
typedef unsigned char Bytef;
typedef unsigned long uLong;
typedef unsigned long uLongf;
#define Z_OK 0
#define Z_DEFAULT_COMPRESSION (-1)
#endif

// The functions the helpers below use besides the header's.
#define SCANTEXT_QPDF_HELPER_FUNCTIONS(X)                                              \
  X(QPDF_ERROR_CODE, qpdf_oh_get_stream_data,                                          \
    (qpdf_data, qpdf_oh, enum qpdf_stream_decode_level_e, QPDF_BOOL *, unsigned char **, \
     size_t *))                                                                        \
  X(QPDF_ERROR_CODE, qpdf_init_write_memory, (qpdf_data))                              \
  X(void, qpdf_set_compress_streams, (qpdf_data, QPDF_BOOL))                           \
  X(void, qpdf_set_decode_level, (qpdf_data, enum qpdf_stream_decode_level_e))         \
  X(void, qpdf_set_object_stream_mode, (qpdf_data, enum qpdf_object_stream_e))         \
  X(void, qpdf_set_preserve_unreferenced_objects, (qpdf_data, QPDF_BOOL))              \
  X(QPDF_ERROR_CODE, qpdf_write, (qpdf_data))                                          \
  X(size_t, qpdf_get_buffer_length, (qpdf_data))                                       \
  X(unsigned char const *, qpdf_get_buffer, (qpdf_data))

#define SCANTEXT_ZLIB_FUNCTIONS(X)                                                     \
  X(uLong, compressBound, (uLong))                                                     \
  X(int, compress2, (Bytef *, uLongf *, const Bytef *, uLong, int))

#define POINTER(ret, name, params, args) ret(*name) params;
#define VOID_POINTER(name, params, args) void(*name) params;
#define HELPER_POINTER(ret, name, params) ret(*name) params;
static struct {
  SCANTEXT_QPDF_EDIT_FUNCTIONS(POINTER)
  SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(VOID_POINTER)
  SCANTEXT_QPDF_HELPER_FUNCTIONS(HELPER_POINTER)
} qpdf;
static struct {
  SCANTEXT_ZLIB_FUNCTIONS(HELPER_POINTER)
} zlib;

#ifdef SCANTEXT_CHECK_DECLARATIONS
#define CHECK(ret, name, params, args)                                                 \
  _Static_assert(                                                                      \
    __builtin_types_compatible_p(__typeof__(&name), ret(*) params), #name " differs");
#define CHECK_VOID(name, params, args) CHECK(void, name, params, args)
#define CHECK_HELPER(ret, name, params) CHECK(ret, name, params, ())
SCANTEXT_QPDF_EDIT_FUNCTIONS(CHECK)
SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(CHECK_VOID)
SCANTEXT_QPDF_HELPER_FUNCTIONS(CHECK_HELPER)
SCANTEXT_ZLIB_FUNCTIONS(CHECK_HELPER)
_Static_assert(SCANTEXT_QPDF_ERRORS == QPDF_ERRORS, "QPDF_ERRORS differs");
#endif

static int load_status = -1;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
  // The sonames of Debian 12's qpdf 11 and of zlib 1.x. The handles are
  // kept for the life of the process, as the other libraries'.
  void *q = dlopen("libqpdf.so.29", RTLD_NOW | RTLD_LOCAL);
  void *z = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!q || !z) return;
#define LOAD(ret, name, params, args)                            \
  qpdf.name = (ret(*) params)dlsym(q, #name);                    \
  if (!qpdf.name) return;
#define LOAD_VOID(name, params, args) LOAD(void, name, params, args)
#define LOAD_HELPER(ret, name, params) LOAD(ret, name, params, ())
  SCANTEXT_QPDF_EDIT_FUNCTIONS(LOAD)
  SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(LOAD_VOID)
  SCANTEXT_QPDF_HELPER_FUNCTIONS(LOAD_HELPER)
#define LOAD_ZLIB(ret, name, params)                             \
  zlib.name = (ret(*) params)dlsym(z, #name);                    \
  if (!zlib.name) return;
  SCANTEXT_ZLIB_FUNCTIONS(LOAD_ZLIB)
  load_status = 0;
}

int scantext_qpdf_edit_load(void) {
  pthread_once(&load_once, load);
  return load_status;
}

#define WRAPPER(ret, name, params, args) \
  ret scantext_##name params { return qpdf.name args; }
#define VOID_WRAPPER(name, params, args) \
  void scantext_##name params { qpdf.name args; }
SCANTEXT_QPDF_EDIT_FUNCTIONS(WRAPPER)
SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(VOID_WRAPPER)

unsigned char *scantext_qpdf_stream_bytes(qpdf_data q, qpdf_oh stream, int decoded, size_t *length) {
  *length = 0;
  unsigned char *bytes = NULL;
  QPDF_BOOL filtered = 0;
  QPDF_ERROR_CODE status = qpdf.qpdf_oh_get_stream_data(
    q, stream, decoded ? qpdf_dl_generalized : qpdf_dl_none, decoded ? &filtered : NULL, &bytes,
    length);
  if ((status & SCANTEXT_QPDF_ERRORS) || (decoded && !filtered)) {
    free(bytes);
    *length = 0;
    return NULL;
  }
  return bytes;
}

unsigned char const *scantext_qpdf_write_memory(qpdf_data q, size_t *length) {
  *length = 0;
  if (qpdf.qpdf_init_write_memory(q) & SCANTEXT_QPDF_ERRORS) return NULL;
  // The stored bytes of every stream as they are: qpdf would otherwise
  // compress the streams that have no filter (compress_streams is on by
  // default) and could decode others (decode level).
  qpdf.qpdf_set_compress_streams(q, 0);
  qpdf.qpdf_set_decode_level(q, qpdf_dl_none);
  qpdf.qpdf_set_object_stream_mode(q, qpdf_o_preserve);
  qpdf.qpdf_set_preserve_unreferenced_objects(q, 0);
  if (qpdf.qpdf_write(q) & SCANTEXT_QPDF_ERRORS) return NULL;
  *length = qpdf.qpdf_get_buffer_length(q);
  return qpdf.qpdf_get_buffer(q);
}

unsigned char *scantext_flate(unsigned char const *data, size_t size, size_t *length) {
  *length = 0;
  uLong bound = zlib.compressBound((uLong)size);
  unsigned char *out = malloc(bound ? bound : 1);
  if (!out) return NULL;
  uLongf produced = bound;
  if (zlib.compress2(out, &produced, data, (uLong)size, Z_DEFAULT_COMPRESSION) != Z_OK) {
    free(out);
    return NULL;
  }
  *length = produced;
  return out;
}
