#!/usr/bin/env python3
"""Measures how well check-html.py's ink check tells a text layer on its
picture from one across it.

Usage:
  measure-html-ink.py [--json] HTML [HTML ...]

For every page written by `scantext html`, runs the ink check (one
screenshot at 100 %) on the page as written and with its pictures drawn
wrongly under the same layer: turned 90° and 180° about their centre,
mirrored left to right and top to bottom, moved down by half a text
height and by one (CSS on the `img`). Prints each
page's figures (share of the ink near the layer inside its words, share
of the sure words on ink, share of blank gaps, seconds) and, per variant,
the lowest and highest of each figure, how many pages the check passes
(the written pages should all pass and the wrong ones all fail, each by a
margin) and the closest call. Pages the check does not judge (fewer than
10 words the model is sure of) are named on standard error.
"""
import argparse
import importlib.util
import json
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("check_html", HERE / "check-html.py")
check_html = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_html)

# The picture drawn wrongly under the layer: the CSS appended to its
# transform ("{h}": the page's text height in CSS px).
VARIANTS = [
    ("as written", ""),
    ("turned 90°", "rotate(90deg)"),
    ("turned 180°", "rotate(180deg)"),
    ("mirrored", "scaleX(-1)"),
    ("flipped", "scaleY(-1)"),
    ("½ line off", "translateY(calc({h}px / 2))"),
    ("1 line off", "translateY({h}px)"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("html", nargs="+")
    args = parser.parse_args()
    browser = check_html.Chromium(check_html.shutil.which("chromium") or "chromium")
    rows = []
    try:
        for html in args.html:
            height = None
            for name, turn in VARIANTS:
                browser.load(html)
                if "{h}" in turn:
                    if height is None:
                        continue
                    turn = turn.replace("{h}", "%.2f" % height)
                if turn:
                    # Appended to the picture's own transform (the frame it
                    # is drawn in), about its centre.
                    browser.evaluate(
                        "(() => { for (const i of document.querySelectorAll('img.scan')) { "
                        "i.style.transformOrigin = '50%% 50%%'; "
                        "i.style.transform = (i.style.transform || '') + ' ' + %s; } })()"
                        % json.dumps(turn))
                failures, report = [], {}
                started = time.time()
                check_html.check_ink(browser, failures, report)
                seconds = time.time() - started
                ink = report.get("ink")
                if not isinstance(ink, dict):
                    continue
                height = height or ink["text_height"]
                if ink.get("judged") is False:
                    print("%s %s: not judged (%d words the model is sure of)" % (
                        pathlib.Path(html).name, name, ink["sure_words"]), file=sys.stderr)
                    continue
                rows.append({"html": html, "variant": name, "passes": not failures,
                             "seconds": round(seconds, 2), **ink})
    finally:
        browser.close()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print("%-40s %-12s %s inside %.3f words %.3f gaps %.3f %.2f s" % (
            pathlib.Path(r["html"]).name[:40], r["variant"], "PASS" if r["passes"] else "fail",
            r["inside"], r["words_inked"], r["gaps_blank"], r["seconds"]))
    print()
    for name, _ in VARIANTS:
        some = [r for r in rows if r["variant"] == name]
        if not some:
            continue
        figures = " ".join("%s %.3f-%.3f" % (key, min(r[key] for r in some),
                                             max(r[key] for r in some))
                           for key in ("inside", "words_inked", "gaps_blank"))
        # The closest call: the page nearest to the other side of the
        # thresholds (a passing page's lowest margin above them; a failing
        # one's largest shortfall, the figure that fails it most).
        closest = min(some, key=lambda r: abs(margin(r)))
        print("%-12s %d of %d pass; %s; %.2f s a page; closest: %s (%s by %.3f)" % (
            name, sum(r["passes"] for r in some), len(some), figures,
            sum(r["seconds"] for r in some) / len(some), pathlib.Path(closest["html"]).name,
            "above" if margin(closest) >= 0 else "below", abs(margin(closest))))
    return 0


THRESHOLDS = {"inside": check_html.MIN_INSIDE, "words_inked": check_html.MIN_WORDS_INKED,
              "gaps_blank": check_html.MIN_GAPS_BLANK}


def margin(row):
    """How far a page's figures are above the thresholds (the smallest
    margin, positive) or below them (the largest shortfall, negative)."""
    margins = [row[key] - low for key, low in THRESHOLDS.items()]
    return min(margins) if all(m >= 0 for m in margins) else min(margins)


if __name__ == "__main__":
    sys.exit(main())
