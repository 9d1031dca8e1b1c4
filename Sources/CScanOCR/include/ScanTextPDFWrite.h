// Hand-written (not generated): editing a PDF with qpdf's C API (libqpdf,
// loaded at run time like Poppler in pdf.c), for the searchable PDF of a
// PDF input: the input document itself, its pages kept or given a text
// layer. Every function below is qpdf's function of the same name without
// the `scantext_` prefix (see qpdf/qpdf-c.h), called through a pointer
// bound by scantext_qpdf_edit_load(); call nothing else before it returns
// 0. One qpdf_data per thread at a time, as qpdf requires.
#ifndef SCANTEXT_PDFWRITE_H
#define SCANTEXT_PDFWRITE_H

#include <stddef.h>

#ifdef SCANTEXT_CHECK_DECLARATIONS
#include <qpdf/qpdf-c.h>
#else
// qpdf's own types (qpdf/qpdf-c.h, qpdf/Types.h), declared so the build
// needs no -dev package; Tools/check-pdf-declarations.sh compiles pdfwrite.c
// against the real header.
typedef struct _qpdf_data *qpdf_data;
typedef struct _qpdf_error *qpdf_error;
typedef unsigned int qpdf_oh;
typedef int QPDF_BOOL;
typedef int QPDF_ERROR_CODE;
#endif

/// qpdf's error bit in a QPDF_ERROR_CODE (QPDF_ERRORS).
#define SCANTEXT_QPDF_ERRORS 2

// Every qpdf function used that returns a value: return type, name,
// parameters, arguments; then those that return nothing.
#define SCANTEXT_QPDF_EDIT_FUNCTIONS(X)                                                     \
  X(qpdf_data, qpdf_init, (void), ())                                                      \
  X(QPDF_BOOL, qpdf_has_error, (qpdf_data q), (q))                                         \
  X(qpdf_error, qpdf_get_error, (qpdf_data q), (q))                                        \
  X(char const *, qpdf_get_error_full_text, (qpdf_data q, qpdf_error e), (q, e))           \
  X(char const *, qpdf_get_error_message_detail, (qpdf_data q, qpdf_error e), (q, e))      \
  X(QPDF_ERROR_CODE, qpdf_read_memory,                                                     \
    (qpdf_data q, char const *description, char const *buffer, unsigned long long size,    \
     char const *password),                                                                \
    (q, description, buffer, size, password))                                              \
  X(QPDF_BOOL, qpdf_is_encrypted, (qpdf_data q), (q))                                      \
  X(int, qpdf_get_num_pages, (qpdf_data q), (q))                                           \
  X(qpdf_oh, qpdf_get_page_n, (qpdf_data q, size_t index), (q, index))                     \
  X(QPDF_ERROR_CODE, qpdf_push_inherited_attributes_to_page, (qpdf_data q), (q))           \
  X(QPDF_ERROR_CODE, qpdf_add_page,                                                        \
    (qpdf_data q, qpdf_data newpage_qpdf, qpdf_oh newpage, QPDF_BOOL first),               \
    (q, newpage_qpdf, newpage, first))                                                     \
  X(QPDF_ERROR_CODE, qpdf_remove_page, (qpdf_data q, qpdf_oh page), (q, page))             \
  X(qpdf_oh, qpdf_get_root, (qpdf_data q), (q))                                            \
  X(qpdf_oh, qpdf_get_trailer, (qpdf_data q), (q))                                         \
  X(qpdf_oh, qpdf_make_indirect_object, (qpdf_data q, qpdf_oh oh), (q, oh))                \
  X(qpdf_oh, qpdf_oh_copy_foreign_object, (qpdf_data q, qpdf_data other, qpdf_oh oh),      \
    (q, other, oh))                                                                        \
  X(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data q, qpdf_oh oh), (q, oh))                  \
  X(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data q, qpdf_oh oh), (q, oh))                       \
  X(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data q, qpdf_oh oh), (q, oh))                      \
  X(QPDF_BOOL, qpdf_oh_is_name, (qpdf_data q, qpdf_oh oh), (q, oh))                        \
  X(QPDF_BOOL, qpdf_oh_is_number, (qpdf_data q, qpdf_oh oh), (q, oh))                      \
  X(QPDF_BOOL, qpdf_oh_is_string, (qpdf_data q, qpdf_oh oh), (q, oh))                      \
  X(QPDF_BOOL, qpdf_oh_is_indirect, (qpdf_data q, qpdf_oh oh), (q, oh))                    \
  X(QPDF_BOOL, qpdf_oh_is_name_and_equals, (qpdf_data q, qpdf_oh oh, char const *name),    \
    (q, oh, name))                                                                         \
  X(char const *, qpdf_oh_get_name, (qpdf_data q, qpdf_oh oh), (q, oh))                    \
  X(double, qpdf_oh_get_numeric_value, (qpdf_data q, qpdf_oh oh), (q, oh))                 \
  X(char const *, qpdf_oh_get_utf8_value, (qpdf_data q, qpdf_oh oh), (q, oh))              \
  X(int, qpdf_oh_get_object_id, (qpdf_data q, qpdf_oh oh), (q, oh))                        \
  X(int, qpdf_oh_get_generation, (qpdf_data q, qpdf_oh oh), (q, oh))                       \
  X(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data q, qpdf_oh oh, char const *key), (q, oh, key))  \
  X(qpdf_oh, qpdf_oh_get_key, (qpdf_data q, qpdf_oh oh, char const *key), (q, oh, key))    \
  X(QPDF_BOOL, qpdf_oh_dict_more_keys, (qpdf_data q), (q))                                 \
  X(char const *, qpdf_oh_dict_next_key, (qpdf_data q), (q))                               \
  X(int, qpdf_oh_get_array_n_items, (qpdf_data q, qpdf_oh oh), (q, oh))                    \
  X(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data q, qpdf_oh oh, int n), (q, oh, n))         \
  X(qpdf_oh, qpdf_oh_new_array, (qpdf_data q), (q))                                        \
  X(qpdf_oh, qpdf_oh_new_dictionary, (qpdf_data q), (q))                                   \
  X(qpdf_oh, qpdf_oh_new_stream, (qpdf_data q), (q))                                       \
  X(qpdf_oh, qpdf_oh_new_null, (qpdf_data q), (q))                                         \
  X(qpdf_oh, qpdf_oh_new_integer, (qpdf_data q, long long value), (q, value))              \
  X(qpdf_oh, qpdf_oh_new_unicode_string, (qpdf_data q, char const *utf8), (q, utf8))       \
  X(qpdf_oh, qpdf_oh_parse, (qpdf_data q, char const *object), (q, object))                \
  X(qpdf_oh, qpdf_oh_get_dict, (qpdf_data q, qpdf_oh oh), (q, oh))                         \
  X(QPDF_ERROR_CODE, qpdf_oh_get_page_content_data,                                        \
    (qpdf_data q, qpdf_oh page, unsigned char **bufp, size_t *len), (q, page, bufp, len))

#define SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(X)                                                \
  X(qpdf_cleanup, (qpdf_data * q), (q))                                                     \
  X(qpdf_silence_errors, (qpdf_data q), (q))                                                \
  X(qpdf_set_suppress_warnings, (qpdf_data q, QPDF_BOOL value), (q, value))                 \
  X(qpdf_oh_begin_dict_key_iter, (qpdf_data q, qpdf_oh oh), (q, oh))                        \
  X(qpdf_oh_append_item, (qpdf_data q, qpdf_oh oh, qpdf_oh item), (q, oh, item))            \
  X(qpdf_oh_replace_key, (qpdf_data q, qpdf_oh oh, char const *key, qpdf_oh item),          \
    (q, oh, key, item))                                                                     \
  X(qpdf_oh_remove_key, (qpdf_data q, qpdf_oh oh, char const *key), (q, oh, key))           \
  X(qpdf_oh_replace_stream_data,                                                            \
    (qpdf_data q, qpdf_oh oh, unsigned char const *buf, size_t len, qpdf_oh filter,         \
     qpdf_oh decode_parms),                                                                 \
    (q, oh, buf, len, filter, decode_parms))

/// Binds qpdf's C API (libqpdf.so.29) and zlib (libz.so.1); 0 on success,
/// else -1 (a library is not installed). Thread-safe.
int scantext_qpdf_edit_load(void);

#define SCANTEXT_DECLARE_QPDF(ret, name, params, args) ret scantext_##name params;
#define SCANTEXT_DECLARE_QPDF_VOID(name, params, args) void scantext_##name params;
SCANTEXT_QPDF_EDIT_FUNCTIONS(SCANTEXT_DECLARE_QPDF)
SCANTEXT_QPDF_EDIT_VOID_FUNCTIONS(SCANTEXT_DECLARE_QPDF_VOID)
#undef SCANTEXT_DECLARE_QPDF
#undef SCANTEXT_DECLARE_QPDF_VOID

/// A stream's bytes (qpdf_oh_get_stream_data): as stored when `decoded` is
/// 0, else with its general-purpose filters (Flate, LZW, ASCII85…) undone.
/// NULL when they cannot be had (then qpdf_has_error says why, or the
/// stream's filters are not general-purpose). The caller frees the bytes
/// with free().
unsigned char *scantext_qpdf_stream_bytes(qpdf_data q, qpdf_oh stream, int decoded, size_t *length);

/// Writes the document to memory with every stream's stored bytes kept as
/// they are (no decoding, no compression: streams added by the caller are
/// compressed already) and object streams preserved; unreferenced objects
/// are dropped. The bytes belong to `q` (valid until the next write or
/// qpdf_cleanup); NULL on failure.
unsigned char const *scantext_qpdf_write_memory(qpdf_data q, size_t *length);

/// `data` compressed with zlib (FlateDecode) at its default level; NULL when
/// memory runs out. The caller frees the bytes with free().
unsigned char *scantext_flate(unsigned char const *data, size_t size, size_t *length);

#endif
