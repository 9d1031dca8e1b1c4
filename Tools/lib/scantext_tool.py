"""Running the `scantext` binary from the Python tools in Tools/.

The tools never re-implement what ScanText defines: how a page's text is
joined from its words, how ranges are counted, and what the accuracy metrics
mean all come from `scantext eval --json` and `scantext verify --json`
(ScanModel's evaluation and verification). This module finds the binary and
runs it. Python 3 standard library only.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / ".build" / "release" / "scantext"
DEBUG = ROOT / ".build" / "debug" / "scantext"


class ScantextError(Exception):
    """`scantext` failed without a report: its `Error: ...` message."""


def find_scantext(path_arg=None, tool="scantext"):
    """The binary: `path_arg` if given, else the release build, else the
    debug build, else a release build made now. Exits with a message when
    there is none."""
    def fail(message):
        print(f"{tool}: error: {message}", file=sys.stderr)
        sys.exit(2)

    if path_arg:
        path = Path(path_arg)
        if not (path.is_file() and os.access(path, os.X_OK)):
            fail(f"scantext not found or not executable at '{path}'")
        return path
    for path in (RELEASE, DEBUG):
        if path.is_file():
            return path
    if shutil.which("swift") is None:
        fail(f"scantext is missing ({RELEASE}) and 'swift' is not installed to build it; "
             "pass --scantext PATH")
    print(f"Building scantext ({RELEASE}) ...", file=sys.stderr)
    result = subprocess.run(
        ["swift", "build", "-c", "release", "--product", "scantext", "--static-swift-stdlib",
         "--package-path", str(ROOT)],
        stdout=sys.stderr)
    if result.returncode != 0 or not RELEASE.is_file():
        fail("could not build scantext (swift build -c release --product scantext)")
    return RELEASE


def _run(scantext, arguments, env=None):
    result = subprocess.run([str(scantext)] + [str(a) for a in arguments], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    report = None
    if result.stdout.strip():
        try:
            report = json.loads(result.stdout)
        except ValueError:
            pass
    if report is None:
        message = result.stderr.strip() or f"exit code {result.returncode}, no report"
        raise ScantextError(message.removeprefix("Error: "))
    return result.returncode, report


def evaluate(scantext, model, truth, env=None):
    """`scantext eval MODEL --truth TRUTH --json`: the report, with `pages`
    (one entry per page) and `total`; each holds every metric (`cer`, `wer`,
    `wordRecall`, `meanIoU`, `lineCover`, `lineBleed`, `hitRate`) and the
    counts `truthWords`, `ocrWords`, `matchedWords`, `truthLines`. MODEL may
    be any document ScanText reads (JSON, hOCR, ALTO, PAGE XML, Tesseract
    TSV) or an image. Raises `ScantextError` when the evaluation fails."""
    code, report = _run(scantext, ["eval", model, "--truth", truth, "--json"], env)
    if code != 0:
        raise ScantextError(f"scantext eval {model} exited with {code}")
    return report


def verify(scantext, model, env=None):
    """`scantext verify MODEL --json`: the report (`passed`, `checks`,
    `pages`, `violations` with `kind`, `page`, `element`, `detail`).
    Reading the document checks that its text is its words joined as
    Tesseract joins them and that every range slices it; a document that
    fails that (or cannot be read) raises `ScantextError` with the reason."""
    return _run(scantext, ["verify", model, "--json"], env)[1]
