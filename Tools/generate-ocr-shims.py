#!/usr/bin/env python3
"""Generates Sources/CScanOCR: C wrappers for the Tesseract and Leptonica
functions ScanOCR calls, bound at run time with dlopen/dlsym.

Why: linking libtesseract pulls in some 70 shared libraries (curl, gnutls,
kerberos, ...) whose loading costs about 10 ms at every start, even for
commands that never recognise anything (queries on a JSON model, cache
hits). Loaded on first use, they cost nothing there.

Each wrapper `scantext_NAME` has NAME's exact prototype (taken from the
installed headers) and calls through a pointer typed with
`__typeof__(&NAME)`, so the compiler checks every call; nothing links
against the libraries. Run after changing the lists below:

    python3 Tools/generate-ocr-shims.py          # writes Sources/CScanOCR
    python3 Tools/generate-ocr-shims.py --check  # fails if they are stale

The loader (in the generated shims.c):
- opens only the versioned shared objects of LIBRARY_NAMES (never the
  unversioned development links), and that list is the only one: Swift
  reads it back through scantext_library_names();
- checks the loaded libraries against the headers the wrappers were
  generated from: libtesseract's major version (TessVersion()) must equal
  TESSERACT_MAJOR_VERSION, Leptonica's major version must equal the
  headers' and its minor version be at least theirs (getLeptonicaVersion());
- opens both RTLD_GLOBAL is not relied on: libtiff and OpenMP symbols are
  looked up through the handles (dlsym searches a library's dependencies).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Sources" / "CScanOCR"

TESSERACT = """TessVersion TessDeleteText TessBaseAPICreate TessBaseAPIDelete TessBaseAPIEnd
TessBaseAPIInit2 TessBaseAPISetVariable TessBaseAPISetPageSegMode TessBaseAPISetImage2
TessBaseAPISetSourceResolution TessBaseAPIRecognize TessBaseAPIGetIterator TessBaseAPIClear
TessBaseAPIGetSourceYResolution TessBaseAPIDetectOrientationScript TessMonitorCreate
TessMonitorDelete TessMonitorSetDeadlineMSecs TessResultIteratorDelete
TessResultIteratorGetPageIterator TessResultIteratorGetUTF8Text TessResultIteratorConfidence
TessPageIteratorBegin TessPageIteratorNext TessPageIteratorIsAtBeginningOf
TessPageIteratorBoundingBox TessPageIteratorBaseline TessPageIteratorOrientation TessBaseAPIGetTsvText""".split()

# The shared objects tried, in order (sonames only: the unversioned .so
# links belong to the -dev packages and may point at another ABI).
LIBRARY_NAMES = {
    "tesseract": ["libtesseract.so.5"],
    "leptonica": ["liblept.so.5", "libleptonica.so.6"],
}

LEPTONICA = """getLeptonicaVersion pixRemoveBorderConnComps pixSetInRectArbitrary pixSetAllArbitrary pixSeedfillBinary l_generateJpegDataMem lept_calloc lept_free pixSetZlibCompression findFileFormatBuffer pixReadHeaderMem pixReadMem pixReadMemTiff pixCreate pixDestroy
pixGetWidth pixGetHeight pixGetDepth pixGetYRes pixGetWpl pixGetData pixSetResolution
pixCopyResolution pixConvertTo8 pixConvertTo1 pixRotateOrth pixRotate pixScaleGrayLI
pixBackgroundNormSimple pixContrastNorm pixGetRankValue pixClipRectangle boxCreate boxDestroy
pixCountConnComp pixSelectBySize pixMedianFilter pixFindSkewSweepAndSearch pixWriteTiff
setMsgSeverity pixWrite pixOrientDetect makeOrientDecision pixGetXRes pixScale
pixGetRGBComponent pixConvertRGBToGrayMinMax pixCloseGray pixAddGray pixInvert pixErodeGray
pixThresholdToValue pixConnCompBB boxaGetCount boxaGetBoxGeometry boxaDestroy pixScaleByIntSampling
pixConvertTo32 pixRenderBoxArb pixRenderLineArb pixBlendInRect bmfCreate bmfDestroy
pixSetTextline pixWriteMem pixSetAll pixGetPixel pixOpenBrick pixSubtract pixOr pixDilateBrick pixSetMasked
pixCountPixels pixThresholdToBinary pixCombineMasked pixCombineMaskedGeneral pixEqual pixSetPixel pixReduceRankBinary2 selectComposableSizes pixConvertRGBToLuminance pixCopy pixAnd pixOpenCompBrick
pixGetColormap l_generateCIDataForPdf l_CIDataDestroy pixFlipLR pixFlipTB pixGetSpp pixAlphaBlendUniform
getProjectiveXformCoeffs pixProjective ptaCreate ptaAddPt ptaDestroy pixScaleAreaMap
dewarpaCreate dewarpaDestroy dewarpCreate dewarpDestroy dewarpaInsertDewarp dewarpaUseBothArrays
dewarpaSetCurvatures dewarpBuildPageModel dewarpaInsertRefModels dewarpaApplyDisparity
fpixGetDimensions fpixGetData fpixGetWpl numaGetCount numaGetFValue dewarpPopulateFullRes""".split()

HEADERS = {
    "tesseract": Path("/usr/include/tesseract/capi.h"),
    "leptonica": Path("/usr/include/leptonica/allheaders.h"),
}


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
    for p in params.split(","):
        m = re.search(r"(\w+)\s*(\[\s*\])?\s*$", p.strip())
        if not m:
            sys.exit(f"cannot name parameter '{p}'")
        names.append(m.group(1))
    return names


def c_names(library):
    return ", ".join(f'"{n}"' for n in LIBRARY_NAMES[library]) + ", NULL"


def header_version(path, pattern):
    m = re.search(pattern, path.read_text())
    if not m:
        sys.exit(f"no version in {path}")
    return ".".join(m.groups())


def main():
    tess_version = header_version(Path("/usr/include/tesseract/version.h"),
                                  r'#define TESSERACT_VERSION_STR "([^"]+)"')
    lept_version = header_version(HEADERS["leptonica"],
                                  r"LIBLEPT_MAJOR_VERSION\s+(\d+)\s+#define LIBLEPT_MINOR_VERSION\s+(\d+)")
    tess = prototypes(HEADERS["tesseract"], "TESS_API")
    lept = prototypes(HEADERS["leptonica"], "LEPT_DLL")
    decls, wrappers, fields, loads = [], [], [], []
    for library, names, table in (("tesseract", TESSERACT, tess), ("leptonica", LEPTONICA, lept)):
        for name in names:
            if name not in table:
                sys.exit(f"{name} not found in {HEADERS[library]}")
            ret, params = table[name]
            args = ", ".join(argument_names(params))
            plist = params if params else "void"
            decls.append(f"{ret} scantext_{name}({plist});")
            call = f"scantext_functions.{name}({args})"
            body = f"{call};" if ret == "void" else f"return {call};"
            wrappers.append(f"{ret} scantext_{name}({plist}) {{ {body} }}")
            fields.append(f"  __typeof__(&{name}) {name};")
            loads.append(f'  LOAD({library}, {name});')
    header = f"""// Generated by Tools/generate-ocr-shims.py; do not edit.
#ifndef CSCANOCR_H
#define CSCANOCR_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include <tesseract/version.h>

#include "ScanTextLoaded.h"
#include "ScanTextMedian.h"
#include "ScanTextQuiet.h"
#include "ScanTextTIFF.h"
#include "ScanTextPDF.h"
#include "ScanTextPDFWrite.h"

/// Loads libtesseract and Leptonica and binds every function below; safe to
/// call from several threads. Returns 0 on success, else -1 with a message
/// in scantext_load_error().
int scantext_load_libraries(void);
const char *scantext_load_error(void);
/// The dlopen handles of Leptonica and libtesseract once loaded, else NULL.
void *scantext_leptonica_handle(void);
void *scantext_tesseract_handle(void);
/// The shared objects the loader tries for "tesseract" or "leptonica", in
/// order, NULL-terminated; NULL for another name.
const char *const *scantext_library_names(const char *library);
/// The version of the headers the wrappers were generated from.
#define SCANTEXT_TESSERACT_HEADERS_VERSION "{tess_version}"
#define SCANTEXT_LEPTONICA_HEADERS_VERSION "{lept_version}"

{chr(10).join(decls)}

#endif
"""
    source = f"""// Generated by Tools/generate-ocr-shims.py; do not edit.
#define _GNU_SOURCE
#include "CScanOCR.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {{
{chr(10).join(fields)}
}} scantext_functions;

static char scantext_error[512];
static void *scantext_leptonica;
static void *scantext_tesseract;
static int scantext_status = -1;
static pthread_once_t scantext_once = PTHREAD_ONCE_INIT;

// Each library binds its own symbols first (RTLD_DEEPBIND). libtesseract
// is linked BIND_NOW: loading it resolves about 19,000 symbols, most of
// them its own, and each search otherwise walked every library of the
// Swift runtime ahead of it, 7 ms of every run (`perf`: the dynamic
// linker's do_lookup_x; a one-word page read in 87 ms, now 80 ms; the
// tesseract command takes 67). The libraries then bind malloc and free in
// their own scope: memory crosses between them and ScanText only through
// their own functions (lept_calloc, lept_free, TessDeleteText), never
// through a bare malloc or free, so an allocator preloaded ahead of them
// changes nothing. AddressSanitizer must interpose malloc everywhere and
// refuses RTLD_DEEPBIND: sanitized builds load the libraries plainly.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCANTEXT_DLOPEN_FLAGS (RTLD_NOW | RTLD_GLOBAL)
#endif
#endif
#ifndef SCANTEXT_DLOPEN_FLAGS
#define SCANTEXT_DLOPEN_FLAGS (RTLD_NOW | RTLD_GLOBAL | RTLD_DEEPBIND)
#endif

static void *scantext_open(const char *const *names) {{
  for (const char *const *name = names; *name; name++) {{
    void *handle = dlopen(*name, SCANTEXT_DLOPEN_FLAGS);
    if (handle) return handle;
  }}
  snprintf(scantext_error, sizeof scantext_error, "cannot load %s (%s)", names[0], dlerror());
  return NULL;
}}

#define LOAD(library, name)                                                           \\
  do {{                                                                                \\
    scantext_functions.name = (__typeof__(&name))dlsym(library, #name);               \\
    if (!scantext_functions.name) {{                                                   \\
      snprintf(scantext_error, sizeof scantext_error, "%s has no %s", #library, #name); \\
      return;                                                                         \\
    }}                                                                                 \\
  }} while (0)

static const char *const leptonica_names[] = {{{c_names("leptonica")}}};
static const char *const tesseract_names[] = {{{c_names("tesseract")}}};

const char *const *scantext_library_names(const char *library) {{
  if (strcmp(library, "tesseract") == 0) return tesseract_names;
  if (strcmp(library, "leptonica") == 0) return leptonica_names;
  return NULL;
}}

// The loaded libraries must match the headers the wrappers were generated
// from: same major version (and for Leptonica, at least the minor version).
static int scantext_check_versions(void) {{
  const char *tesseract = scantext_functions.TessVersion();
  if (!tesseract || atoi(tesseract) != TESSERACT_MAJOR_VERSION) {{
    snprintf(scantext_error, sizeof scantext_error,
      "libtesseract %s does not match the headers ScanText was built with (%s)",
      tesseract ? tesseract : "?", TESSERACT_VERSION_STR);
    return -1;
  }}
  char *leptonica = scantext_functions.getLeptonicaVersion();
  int major = 0, minor = 0;
  int parsed = leptonica && sscanf(leptonica, "leptonica-%d.%d", &major, &minor) == 2;
  if (!parsed || major != LIBLEPT_MAJOR_VERSION || minor < LIBLEPT_MINOR_VERSION) {{
    snprintf(scantext_error, sizeof scantext_error,
      "%s does not match the headers ScanText was built with (leptonica-%d.%d)",
      leptonica ? leptonica : "Leptonica of unknown version", LIBLEPT_MAJOR_VERSION,
      LIBLEPT_MINOR_VERSION);
    if (leptonica) scantext_functions.lept_free(leptonica);
    return -1;
  }}
  scantext_functions.lept_free(leptonica);
  return 0;
}}

static void scantext_load(void) {{
  void *leptonica = scantext_open(leptonica_names);
  if (!leptonica) return;
  void *tesseract = scantext_open(tesseract_names);
  if (!tesseract) return;
{chr(10).join(loads)}
  if (scantext_check_versions() != 0) return;
  scantext_leptonica = leptonica;
  scantext_tesseract = tesseract;
  scantext_status = 0;
}}

int scantext_load_libraries(void) {{
  pthread_once(&scantext_once, scantext_load);
  return scantext_status;
}}

const char *scantext_load_error(void) {{ return scantext_error; }}
void *scantext_leptonica_handle(void) {{ return scantext_leptonica; }}
void *scantext_tesseract_handle(void) {{ return scantext_tesseract; }}

{chr(10).join(wrappers)}
"""
    files = {OUT / "include" / "CScanOCR.h": header, OUT / "shims.c": source}
    if "--check" in sys.argv[1:]:
        stale = [str(p.relative_to(ROOT)) for p, text in files.items()
                 if not p.exists() or p.read_text() != text]
        if stale:
            sys.exit("stale, run python3 Tools/generate-ocr-shims.py: " + ", ".join(stale))
        print(f"{len(decls)} wrappers up to date")
        return
    (OUT / "include").mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
    print(f"wrote {len(decls)} wrappers to {OUT}")


if __name__ == "__main__":
    main()
