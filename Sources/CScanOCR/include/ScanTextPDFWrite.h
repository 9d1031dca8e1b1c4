// Hand-written (not generated): editing a PDF with qpdf's C API (libqpdf,
// loaded at run time like Poppler in pdf.c), for the searchable PDF of a
// PDF input: the input document itself, its pages kept or given a text
// layer. qpdf's functions are called through the generated wrappers
// (`scantext_qpdf_...`, CScanOCR.h), bound by scantext_qpdf_edit_load();
// call none before it returns 0. One qpdf_data per thread at a time, as
// qpdf requires.
#ifndef SCANTEXT_PDFWRITE_H
#define SCANTEXT_PDFWRITE_H

#include <stddef.h>

// qpdf's types and functions are declared in the generated CScanOCR.h.
typedef struct _qpdf_data *qpdf_data;
typedef unsigned int qpdf_oh;

/// qpdf's error bit in a QPDF_ERROR_CODE (QPDF_ERRORS).
#define SCANTEXT_QPDF_ERRORS 2

/// Binds qpdf's C API (libqpdf.so.29) and zlib (libz.so.1); 0 on success,
/// else -1 (a library is not installed). Thread-safe.
int scantext_qpdf_edit_load(void);

/// A stream's bytes (qpdf_oh_get_stream_data): as stored when `decoded` is
/// 0, else with its general-purpose filters (Flate, LZW, ASCII85…) undone.
/// NULL when they cannot be had (then qpdf_has_error says why, or the
/// stream's filters are not general-purpose). The caller frees the bytes
/// with free().
unsigned char *scantext_qpdf_stream_bytes(qpdf_data q, qpdf_oh stream, int decoded, size_t *length);

/// Writes the document to memory with every stream's stored bytes kept as
/// they are (no decoding, no compression: streams added by the caller are
/// compressed already) and object streams as `objectStreams` says
/// (qpdf_o_disable: none, PDF/A-1 has none; qpdf_o_preserve: as they are;
/// qpdf_o_generate: made); unreferenced objects are dropped. With
/// `archival`, every stream's data ends with an end-of-line marker before
/// `endstream` (PDF/A's rule, ISO 19005-2 §6.1.7.1). The bytes belong to
/// `q` (valid until the next write or qpdf_cleanup); NULL on failure. With
/// `deterministic`, the file's /ID is made from its bytes (an unencrypted
/// file), so the same document gives the same bytes.
unsigned char const *scantext_qpdf_write_memory(
    qpdf_data q, int deterministic, int objectStreams, int archival, size_t *length);

/// `data` compressed with zlib (FlateDecode) at its default level; NULL when
/// memory runs out. The caller frees the bytes with free().
unsigned char *scantext_flate(unsigned char const *data, size_t size, size_t *length);

#endif
