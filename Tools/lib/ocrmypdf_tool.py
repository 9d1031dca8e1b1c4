"""Running OCRmyPDF from the size benchmarks in Tools/ (`pdf-size-bench`,
`image-pdf-sizes.py`): one way of installing it and one way of running it,
so both tables compare ScanText with the same OCRmyPDF run the same way.

OCRmyPDF is Debian's `ocrmypdf` (14.0.1 on Debian 12), installed with
apt-get when missing (as root, else with sudo). It runs with its defaults
(PDF/A output, `--optimize 1`), Tesseract on one thread per page
(`OMP_THREAD_LIMIT=1`) and `--jobs` pages at once. Python 3 standard
library only.
"""

import os
import shutil
import subprocess
import sys

# OCRmyPDF's exit code for an input it refuses (ExitCode.input_file): an
# image without a credible resolution is one of them, and the message then
# asks for --image-dpi.
INPUT_FILE_ERROR = 2


def ensure_ocrmypdf(tool):
    """Whether `ocrmypdf` is on PATH, installing Debian's package when it
    is not; `tool` names the caller in the messages."""
    if shutil.which("ocrmypdf"):
        return True
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print(f"{tool}: installing ocrmypdf (Debian)", file=sys.stderr)
    result = subprocess.run(
        sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "ocrmypdf"],
        capture_output=True, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if result.returncode != 0:
        print(f"{tool}: ocrmypdf not installed: {result.stderr.decode()[-300:]}", file=sys.stderr)
        return False
    return shutil.which("ocrmypdf") is not None


def version():
    """OCRmyPDF's version, as `ocrmypdf --version` prints it."""
    return subprocess.run(["ocrmypdf", "--version"], capture_output=True,
                          text=True).stdout.strip()


def ocrmypdf(source, output, options=(), image_dpi=None, jobs=1, env=None):
    """Runs `ocrmypdf -q --jobs JOBS OPTIONS SOURCE OUTPUT` with OCRmyPDF's
    defaults otherwise.

    When OCRmyPDF refuses an image for want of a credible resolution (no
    tag, or one of 96 dpi or less), `image_dpi()` is called for the
    resolution to give it and the run is repeated with `--image-dpi`; the
    tag, when OCRmyPDF finds it credible, is always what it uses. When
    `image_dpi()` returns None, OCRmyPDF's refusal is the result.

    Returns (size of OUTPUT in bytes or None, note): the note is "" on a
    plain run, "--image-dpi N" when that was given, and on a failure
    "failed (exit N: OCRmyPDF's last two lines, its message and the
    exception's name)"."""
    environment = dict(env if env is not None else os.environ, OMP_THREAD_LIMIT="1")
    command = ["ocrmypdf", "-q", "--jobs", str(jobs)] + list(options)
    result = subprocess.run(command + [str(source), str(output)], capture_output=True,
                            text=True, env=environment)
    note = ""
    if (result.returncode == INPUT_FILE_ERROR and "--image-dpi" in result.stderr
            and image_dpi is not None):
        dpi = image_dpi()
        if dpi is not None:
            note = f"--image-dpi {dpi}"
            result = subprocess.run(command + ["--image-dpi", str(dpi), str(source), str(output)],
                                    capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        reason = "; ".join(lines[-2:])[-200:] if lines else "no message"
        return None, f"failed (exit {result.returncode}: {reason})"
    return os.path.getsize(output), note
