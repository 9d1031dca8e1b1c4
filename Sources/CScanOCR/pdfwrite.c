// Hand-written (not generated): see include/ScanTextPDFWrite.h.
//
// qpdf's C API and zlib are declared in the generated headers, not
// included, and loaded at run time like Poppler in pdf.c: only a
// searchable PDF of a PDF input loads them.
// `Tools/check/check-pdf-declarations.sh` compiles this file against the real
// headers (SCANTEXT_CHECK_DECLARATIONS) and fails on any difference.
#include "ScanTextPDFWrite.h"

#include "bindings.h"

#include <stdlib.h>

#ifdef SCANTEXT_CHECK_DECLARATIONS
_Static_assert(SCANTEXT_QPDF_ERRORS == QPDF_ERRORS, "QPDF_ERRORS differs");
#endif

int scantext_qpdf_edit_load(void) {
  if (scantext_library_load(SCANTEXT_LIBRARY_QPDF) != 0) return -1;
  return scantext_library_load(SCANTEXT_LIBRARY_ZLIB);
}

unsigned char *scantext_qpdf_stream_bytes(qpdf_data q, qpdf_oh stream, int decoded, size_t *length) {
  *length = 0;
  unsigned char *bytes = NULL;
  QPDF_BOOL filtered = 0;
  QPDF_ERROR_CODE status = scantext_qpdf_oh_get_stream_data(
    q, stream, decoded ? qpdf_dl_generalized : qpdf_dl_none, decoded ? &filtered : NULL, &bytes,
    length);
  if ((status & SCANTEXT_QPDF_ERRORS) || (decoded && !filtered)) {
    free(bytes);
    *length = 0;
    return NULL;
  }
  return bytes;
}

unsigned char const *scantext_qpdf_write_memory(
    qpdf_data q, int deterministic, int objectStreams, int archival, size_t *length) {
  *length = 0;
  if (scantext_qpdf_init_write_memory(q) & SCANTEXT_QPDF_ERRORS) return NULL;
  // The stored bytes of every stream as they are: qpdf would otherwise
  // compress the streams that have no filter (compress_streams is on by
  // default) and could decode others (decode level).
  scantext_qpdf_set_compress_streams(q, 0);
  scantext_qpdf_set_decode_level(q, qpdf_dl_none);
  // Object streams kept as they are, or (a tagged file: its structure is
  // hundreds of small objects, 20 kB on four pages, 5 kB packed) made, or
  // none (PDF/A-1).
  scantext_qpdf_set_object_stream_mode(q, (enum qpdf_object_stream_e)objectStreams);
  // PDF/A: an end-of-line marker after every stream's data, outside its
  // /Length (qpdf otherwise writes `endstream` right after data that does
  // not end with one).
  if (archival) scantext_qpdf_set_newline_before_endstream(q, 1);
  scantext_qpdf_set_preserve_unreferenced_objects(q, 0);
  // The file's /ID from its bytes rather than the time (reproducible
  // output); qpdf refuses it for an encrypted file, which keeps its own.
  if (deterministic && !scantext_qpdf_is_encrypted(q)) scantext_qpdf_set_deterministic_ID(q, 1);
  if (scantext_qpdf_write(q) & SCANTEXT_QPDF_ERRORS) return NULL;
  *length = scantext_qpdf_get_buffer_length(q);
  return scantext_qpdf_get_buffer(q);
}

unsigned char *scantext_flate(unsigned char const *data, size_t size, size_t *length) {
  *length = 0;
  uLong bound = scantext_compressBound((uLong)size);
  unsigned char *out = malloc(bound ? bound : 1);
  if (!out) return NULL;
  uLongf produced = bound;
  if (scantext_compress2(out, &produced, data, (uLong)size, Z_DEFAULT_COMPRESSION) != Z_OK) {
    free(out);
    return NULL;
  }
  *length = produced;
  return out;
}
