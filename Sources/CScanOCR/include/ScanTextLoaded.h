// Hand-written (not generated): which files the loader opened.
#ifndef SCANTEXT_LOADED_H
#define SCANTEXT_LOADED_H

/// The path of the shared object that defines `symbol` in the library
/// opened as `handle` (from dladdr), or NULL. The string is owned by the
/// dynamic loader.
const char *scantext_library_file(void *handle, const char *symbol);

#endif
