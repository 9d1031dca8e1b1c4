#!/usr/bin/env python3
"""Validates a PDF for the PDF/A level and the PDF/UA part it claims.

    .build/tools-venv/bin/python Tools/check/check-pdfa.py OUT.pdf [--expect 2a] [--ua] [--json]

The validator is `page` (PyPI `page-validation`, installed into the tools
venv by Tools/install/install-dependencies.sh), which implements veraPDF's rules:
`page.validate_pdf(path, profile=...)` with "1a", "1b", "2a", "2b", "2u",
"3a", "3b", "3u" and "ua1".

The claim is read from the file's XMP packet (`pdfaid:part` and
`pdfaid:conformance`, `pdfuaid:part`) with pikepdf; the file is validated
against each profile it claims. `--expect LEVEL` fails when the PDF/A claim
is not LEVEL ("none" for a file that must claim no PDF/A level); `--ua`
fails when the file does not claim PDF/UA-1; `--only-pdfa` validates the
PDF/A claim alone. Each failed rule is printed as
`PROFILE RULE: message (object)`; `--json` prints
`{"claims": {...}, "profiles": {"2a": {"rules": N, "failed_rules": 0, "failed": [...]}}}`.

Exit status: 0 when every claimed profile passes with no failed rule and the
expectations hold, 1 otherwise, 2 when the file cannot be read or the
validator is missing.
"""

import argparse
import json
import sys

try:
    import page
    import pikepdf
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"check-pdfa: {error} (run Tools/install/install-dependencies.sh)", file=sys.stderr)
    sys.exit(2)


def claims(path):
    """The PDF/A level ("2a", or None) and PDF/UA part the XMP claims."""
    with pikepdf.open(path) as pdf:
        meta = pdf.open_metadata()
        part = meta.get("pdfaid:part")
        conformance = meta.get("pdfaid:conformance")
        ua = meta.get("pdfuaid:part")
    level = f"{part}{conformance.lower()}" if part and conformance else (part or None)
    return level, ua


def validate(path, profile):
    report = page.validate_pdf(path, profile=profile)
    failed = [
        {"rule": f.rule_id, "message": f.message, "object": str(f.object_id)}
        for f in report.failures
    ]
    return {"compliant": bool(report.is_compliant), "rules": report.rules.total,
            "failed_rules": report.rules.failed, "failed": failed}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf")
    parser.add_argument("--expect", help="the PDF/A level the file must claim (2a, 2u, none)")
    parser.add_argument("--ua", action="store_true", help="the file must claim PDF/UA-1")
    parser.add_argument("--only-pdfa", action="store_true",
                        help="validate the PDF/A claim only, not the PDF/UA one")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        level, ua = claims(args.pdf)
    except Exception as error:  # pikepdf's errors for unreadable files
        print(f"check-pdfa: {args.pdf}: {error}", file=sys.stderr)
        return 2
    findings = []
    if args.expect is not None and (level or "none") != args.expect.lower():
        findings.append(f"claims PDF/A {level or 'none'}, expected {args.expect}")
    if args.ua and str(ua) != "1":
        findings.append(f"claims PDF/UA {ua or 'none'}, expected 1")
    profiles = {}
    checks_ua = str(ua) == "1" and not args.only_pdfa
    for profile in ([level] if level else []) + (["ua1"] if checks_ua else []):
        result = validate(args.pdf, profile)
        profiles[profile] = result
        for failure in result["failed"]:
            findings.append(
                f"{profile} {failure['rule']}: {failure['message']} ({failure['object']})")
        if not result["compliant"] and not result["failed"]:
            findings.append(f"{profile}: not compliant")
    if args.json:
        print(json.dumps({"claims": {"pdfa": level, "pdfua": ua}, "profiles": profiles,
                          "findings": findings}))
    else:
        for finding in findings:
            print(finding)
        if not findings:
            names = ", ".join(profiles) or "nothing"
            print(f"{args.pdf}: claims {names}; no failed rule")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
