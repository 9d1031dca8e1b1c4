// Hand-written (not generated): see include/ScanTextLoaded.h.
#define _GNU_SOURCE
#include "ScanTextLoaded.h"

#include <dlfcn.h>
#include <stddef.h>

const char *scantext_library_file(void *handle, const char *symbol) {
  if (!handle) return NULL;
  void *address = dlsym(handle, symbol);
  Dl_info info;
  if (!address || dladdr(address, &info) == 0) return NULL;
  return info.dli_fname;
}
