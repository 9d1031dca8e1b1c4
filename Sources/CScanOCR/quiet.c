// Hand-written (not generated): see include/ScanTextQuiet.h.
//
// Leptonica creates its libpng and libjpeg decoders itself, with the
// libraries' default message handlers, which print to standard error
// ("libpng error: bad adaptive filter value", "Corrupt JPEG data: ...").
// Neither library has a process-wide switch, and Leptonica 1.82 offers no
// hook for them (its own hooks, setMsgSeverity and leptSetStderrHandler,
// cover only its own messages; both are used). So Leptonica's own imports
// of `png_create_read_struct` and `jpeg_std_error` (its GOT entries) are
// pointed at wrappers that install quiet handlers; the failure itself still
// reaches Leptonica, which returns NULL and reports through its severity
// (also off) and its stderr handler (set to a no-op here). Nothing else in
// the process is affected, and standard error is never touched.
//
// The same way, Leptonica's import of `png_set_compression_level` goes
// through a wrapper, which does what scantext_store_unleveled_pngs() says.
//
// The redirects are made when libpng and libjpeg are bound (the loader's
// setups, once). Where they cannot be made (an architecture whose
// relocations are not known here, an import Leptonica does not have), the
// setup fails with the reason (scantext_library_error()), the codecs keep
// their default handlers and PNGs their asked-for level.
#define _GNU_SOURCE
#include "ScanTextQuiet.h"

#include "bindings.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// The start of `struct jpeg_error_mgr` (jpeglib.h), unchanged since 6b.
struct jpeg_error_start {
  void (*error_exit)(void *);
  void (*emit_message)(void *, int);
  void (*output_message)(void *);
};

static atomic_int show_messages;
static atomic_int store_unleveled;

static void quiet_png_warning(png_struct *png, const char *message) {
  (void)png;
  (void)message;
}

// libpng requires an error handler not to return: it must long-jump back
// to the caller's setjmp, as the default handler does after printing.
static void quiet_png_error(png_struct *png, const char *message) {
  (void)message;
  scantext_png_longjmp(png, 1);
}

static png_struct *hook_png_create_read_struct(
  const char *version, void *error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
  if (!atomic_load_explicit(&show_messages, memory_order_relaxed)) {
    if (!error_fn) error_fn = quiet_png_error;
    if (!warn_fn) warn_fn = quiet_png_warning;
  }
  return scantext_png_create_read_struct(version, error_ptr, error_fn, warn_fn);
}

static void quiet_jpeg_output(void *cinfo) { (void)cinfo; }

// Leptonica writes a few messages outside its severity levels ("Bad file:
// amount too big" from its TIFF stream reader) through lept_stderr.
static void quiet_leptonica(const char *message) { (void)message; }

static struct jpeg_error_mgr *hook_jpeg_std_error(struct jpeg_error_mgr *err) {
  struct jpeg_error_mgr *result = scantext_jpeg_std_error(err);
  if (result && !atomic_load_explicit(&show_messages, memory_order_relaxed)) {
    ((struct jpeg_error_start *)(void *)result)->output_message = quiet_jpeg_output;
  }
  return result;
}

// See scantext_store_unleveled_pngs(): Leptonica passes zlib's default
// level (-1) when its `pix->special` asks for none.
static void hook_png_set_compression_level(png_struct *png, int level) {
  if (level == -1 /* Z_DEFAULT_COMPRESSION */ &&
      atomic_load_explicit(&store_unleveled, memory_order_relaxed)) {
    scantext_png_set_filter(png, 0, 0x08 /* PNG_FILTER_NONE */);
    level = 0 /* Z_NO_COMPRESSION */;
  }
  scantext_png_set_compression_level(png, level);
}

// The relocation types of an imported function's slots (PLT and GOT
// entries) on the architectures whose ELF files use RELA relocations.
#if defined(__x86_64__)
#define SCANTEXT_IMPORT_SLOT R_X86_64_JUMP_SLOT
#define SCANTEXT_IMPORT_DATA R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define SCANTEXT_IMPORT_SLOT R_AARCH64_JUMP_SLOT
#define SCANTEXT_IMPORT_DATA R_AARCH64_GLOB_DAT
#endif

int scantext_redirect_import(
  void *library, const char *name, void *replacement, char *error, size_t size) {
#ifndef SCANTEXT_IMPORT_SLOT
  (void)library;
  (void)replacement;
  snprintf(error, size, "cannot redirect the import of %s on this architecture", name);
  return -1;
#else
  struct link_map *object = NULL;
  if (!library || dlinfo(library, RTLD_DI_LINKMAP, &object) != 0 || !object) {
    snprintf(error, size, "cannot redirect the import of %s: no link map", name);
    return -1;
  }
  const ElfW(Sym) *symbols = NULL;
  const char *strings = NULL;
  const ElfW(Rela) *tables[2] = {NULL, NULL};
  size_t sizes[2] = {0, 0};
  long plt_kind = DT_RELA;
  for (const ElfW(Dyn) *d = object->l_ld; d->d_tag != DT_NULL; d++) {
    // glibc relocates these addresses in place on most targets; where it
    // does not, they are offsets from the load address.
    uintptr_t p = d->d_un.d_ptr;
    uintptr_t address = p < object->l_addr ? p + object->l_addr : p;
    switch (d->d_tag) {
    case DT_SYMTAB: symbols = (const ElfW(Sym) *)address; break;
    case DT_STRTAB: strings = (const char *)address; break;
    case DT_JMPREL: tables[0] = (const ElfW(Rela) *)address; break;
    case DT_PLTRELSZ: sizes[0] = d->d_un.d_val; break;
    case DT_PLTREL: plt_kind = (long)d->d_un.d_val; break;
    case DT_RELA: tables[1] = (const ElfW(Rela) *)address; break;
    case DT_RELASZ: sizes[1] = d->d_un.d_val; break;
    default: break;
    }
  }
  if (!symbols || !strings || plt_kind != DT_RELA) {
    snprintf(error, size, "cannot redirect the import of %s: unexpected dynamic section", name);
    return -1;
  }
  long page = sysconf(_SC_PAGESIZE);
  int changed = 0;
  for (int t = 0; t < 2; t++) {
    if (!tables[t]) continue;
    size_t count = sizes[t] / sizeof(ElfW(Rela));
    for (size_t i = 0; i < count; i++) {
      const ElfW(Rela) *r = &tables[t][i];
      unsigned long type = ELF64_R_TYPE(r->r_info);
      if (type != SCANTEXT_IMPORT_SLOT && type != SCANTEXT_IMPORT_DATA) continue;
      const ElfW(Sym) *symbol = &symbols[ELF64_R_SYM(r->r_info)];
      if (strcmp(strings + symbol->st_name, name) != 0) continue;
      void **slot = (void **)(object->l_addr + r->r_offset);
      // The slot may be read-only after relocation (RELRO).
      uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);
      if (mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0) {
        snprintf(error, size, "cannot redirect the import of %s: %s", name, strerror(errno));
        return -1;
      }
      *slot = replacement;
      changed++;
    }
  }
  if (changed == 0) {
    snprintf(error, size, "cannot redirect the import of %s: %s does not import it", name,
      object->l_name && object->l_name[0] ? object->l_name : "the library");
    return -1;
  }
  return changed;
#endif
}

int scantext_png_setup(char *error, size_t size) {
  void *leptonica = scantext_library_handle(SCANTEXT_LIBRARY_LEPTONICA);
  if (scantext_redirect_import(leptonica, "png_create_read_struct",
        (void *)hook_png_create_read_struct, error, size) < 0 ||
      scantext_redirect_import(leptonica, "png_set_compression_level",
        (void *)hook_png_set_compression_level, error, size) < 0) {
    return -1;
  }
  return 0;
}

int scantext_jpeg_setup(char *error, size_t size) {
  void *leptonica = scantext_library_handle(SCANTEXT_LIBRARY_LEPTONICA);
  return scantext_redirect_import(
           leptonica, "jpeg_std_error", (void *)hook_jpeg_std_error, error, size) < 0
           ? -1
           : 0;
}

int scantext_set_codec_messages(int on) {
  atomic_store_explicit(&show_messages, on, memory_order_relaxed);
  if (scantext_library_load(SCANTEXT_LIBRARY_LEPTONICA) == 0) {
    scantext_leptSetStderrHandler(on ? NULL : quiet_leptonica);
  }
  int png = scantext_library_load(SCANTEXT_LIBRARY_PNG);
  int jpeg = scantext_library_load(SCANTEXT_LIBRARY_JPEG);
  return png == 0 && jpeg == 0 ? 0 : -1;
}

int scantext_store_unleveled_pngs(int on) {
  atomic_store_explicit(&store_unleveled, on, memory_order_relaxed);
  return scantext_library_load(SCANTEXT_LIBRARY_PNG);
}
