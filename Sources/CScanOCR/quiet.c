// Hand-written (not generated): see include/ScanTextQuiet.h.
//
// Leptonica creates its libpng and libjpeg decoders itself, with the
// libraries' default message handlers, which print to standard error
// ("libpng error: bad adaptive filter value", "Corrupt JPEG data: ...").
// Neither library has a process-wide switch, and Leptonica offers no hook.
// So Leptonica's own imports of `png_create_read_struct` and
// `jpeg_std_error` (its GOT entries) are pointed at wrappers that install
// quiet handlers; the failure itself still reaches Leptonica, which returns
// NULL and reports through its severity (also off) and its stderr handler
// (set to a no-op here). Nothing else in the process is affected, and
// standard error is never touched.
//
// The same way, Leptonica's import of `png_set_compression_level` is
// pointed at a wrapper that makes unasked-for compression fast (see
// `hook_png_set_compression_level`).
#define _GNU_SOURCE
#include "ScanTextQuiet.h"

#include "CScanOCR.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// libpng 1.6 and libjpeg 6.2 interfaces, declared here so that their
// development headers are not needed.
typedef struct png_struct_def png_struct;
typedef void (*png_error_ptr)(png_struct *, const char *);
typedef png_struct *(*png_create_read_struct_fn)(
  const char *, void *, png_error_ptr, png_error_ptr);
typedef void (*png_longjmp_fn)(png_struct *, int);
// The start of `struct jpeg_error_mgr` (jpeglib.h), unchanged since 6b.
struct jpeg_error_start {
  void (*error_exit)(void *);
  void (*emit_message)(void *, int);
  void (*output_message)(void *);
};
typedef struct jpeg_error_start *(*jpeg_std_error_fn)(struct jpeg_error_start *);

static png_create_read_struct_fn real_png_create_read_struct;
static png_longjmp_fn real_png_longjmp;
static jpeg_std_error_fn real_jpeg_std_error;
typedef void (*png_set_int_fn)(png_struct *, int);
typedef void (*png_set_filter_fn)(png_struct *, int, int);
static png_set_int_fn real_png_set_compression_level;
static png_set_filter_fn real_png_set_filter;
static volatile int show_messages;
static int hooked = -1;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

static void quiet_png_warning(png_struct *png, const char *message) {
  (void)png;
  (void)message;
}

// libpng requires an error handler not to return: it must long-jump back
// to the caller's setjmp, as the default handler does after printing.
static void quiet_png_error(png_struct *png, const char *message) {
  (void)message;
  real_png_longjmp(png, 1);
}

static png_struct *hook_png_create_read_struct(
  const char *version, void *error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
  if (!show_messages) {
    if (!error_fn) error_fn = quiet_png_error;
    if (!warn_fn) warn_fn = quiet_png_warning;
  }
  return real_png_create_read_struct(version, error_ptr, error_fn, warn_fn);
}

static void quiet_jpeg_output(void *cinfo) { (void)cinfo; }

// Leptonica writes a few messages outside its severity levels ("Bad file:
// amount too big" from its TIFF stream reader) through lept_stderr.
static void quiet_leptonica(const char *message) { (void)message; }

static struct jpeg_error_start *hook_jpeg_std_error(struct jpeg_error_start *err) {
  struct jpeg_error_start *result = real_jpeg_std_error(err);
  if (result && !show_messages) result->output_message = quiet_jpeg_output;
  return result;
}

// Tesseract keeps each line image it recognises as a PNG in memory
// (ImageData: pixWriteMem(..., IFF_PNG), read back with pixReadMem) at
// zlib's default level, with libpng's adaptive row filters: on the real
// pages zlib and libpng took 12–17 % of a reading (perf, `kant-0017`; the
// tesseract command the same). Those bytes never leave the process, and a
// PNG is lossless at any level, so what Tesseract reads back is the same
// image. When Leptonica is not asked for a level (its `pix->special`,
// which ScanText sets for every PNG it writes for a user), the PNG is
// stored (zlib level 0) with no row filter.
static void hook_png_set_compression_level(png_struct *png, int level) {
  if (level == -1 /* Z_DEFAULT_COMPRESSION */) {
    real_png_set_filter(png, 0, 0x08 /* PNG_FILTER_NONE */);
    level = 0 /* Z_NO_COMPRESSION */;
  }
  real_png_set_compression_level(png, level);
}

// Points `object`'s relocation slots for `name` (PLT and GOT entries) at
// `replacement`; returns how many were changed.
static int redirect_import(struct link_map *object, const char *name, void *replacement) {
  const ElfW(Sym) *symbols = NULL;
  const char *strings = NULL;
  const ElfW(Rela) *tables[2] = {NULL, NULL};
  size_t sizes[2] = {0, 0};
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
    case DT_RELA: tables[1] = (const ElfW(Rela) *)address; break;
    case DT_RELASZ: sizes[1] = d->d_un.d_val; break;
    default: break;
    }
  }
  if (!symbols || !strings) return 0;
  long page = sysconf(_SC_PAGESIZE);
  int changed = 0;
  for (int t = 0; t < 2; t++) {
    if (!tables[t]) continue;
    size_t count = sizes[t] / sizeof(ElfW(Rela));
    for (size_t i = 0; i < count; i++) {
      const ElfW(Rela) *r = &tables[t][i];
      unsigned long type = ELF64_R_TYPE(r->r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      const ElfW(Sym) *symbol = &symbols[ELF64_R_SYM(r->r_info)];
      if (strcmp(strings + symbol->st_name, name) != 0) continue;
      void **slot = (void **)(object->l_addr + r->r_offset);
      // The slot may be read-only after relocation (RELRO).
      uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);
      if (mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0) continue;
      *slot = replacement;
      changed++;
    }
  }
  return changed;
}

static void install(void) {
#if defined(__x86_64__)
  void *leptonica = scantext_leptonica_handle();
  struct link_map *object = NULL;
  if (!leptonica || dlinfo(leptonica, RTLD_DI_LINKMAP, &object) != 0 || !object) return;
  real_png_create_read_struct =
    (png_create_read_struct_fn)dlsym(leptonica, "png_create_read_struct");
  real_png_longjmp = (png_longjmp_fn)dlsym(leptonica, "png_longjmp");
  real_jpeg_std_error = (jpeg_std_error_fn)dlsym(leptonica, "jpeg_std_error");
  int ok = 0;
  if (real_png_create_read_struct && real_png_longjmp &&
      redirect_import(object, "png_create_read_struct", (void *)hook_png_create_read_struct) > 0) {
    ok++;
  }
  if (real_jpeg_std_error &&
      redirect_import(object, "jpeg_std_error", (void *)hook_jpeg_std_error) > 0) {
    ok++;
  }
  hooked = ok == 2 ? 0 : -1;
  real_png_set_compression_level =
    (png_set_int_fn)dlsym(leptonica, "png_set_compression_level");
  real_png_set_filter = (png_set_filter_fn)dlsym(leptonica, "png_set_filter");
  if (real_png_set_compression_level && real_png_set_filter) {
    redirect_import(
      object, "png_set_compression_level", (void *)hook_png_set_compression_level);
  }
#endif
}

int scantext_set_codec_messages(int on) {
  show_messages = on;
  pthread_once(&hook_once, install);
  void *leptonica = scantext_leptonica_handle();
  __typeof__(&leptSetStderrHandler) set_handler =
    leptonica ? (__typeof__(&leptSetStderrHandler))dlsym(leptonica, "leptSetStderrHandler") : NULL;
  if (set_handler) set_handler(on ? NULL : quiet_leptonica);
  return hooked;
}
