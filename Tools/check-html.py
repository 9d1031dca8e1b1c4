#!/usr/bin/env python3
"""Checks pages written by `scantext html` in a real browser (headless
Chromium, driven over the Chrome DevTools Protocol with websocket-client).

Usage:
  check-html.py [--scantext BIN] [--json] [--screenshot PNG] HTML MODEL [HTML MODEL ...]

HTML is a file from `scantext html MODEL`; MODEL is what it was made from
(a document or an image: the expected headings and text come from
`scantext query MODEL`). For every page, in one Chromium:

- geometry: for every line, the client rects of its text (a DOM Range over
  the line's text nodes) against the model's selection outline, which the
  writer puts on the line as `data-quad` (image pixels, mapped to CSS
  pixels through the page's size): the largest distance between the
  rects' bounds and the outline's bounds must be at most 2 CSS px, at
  100 % (a window 1000 CSS px wide), at 200 % (500 CSS px at device
  scale 2) and in a window 2000 CSS px wide; so must each word's against
  its selection rect (`scantext query` `rects` of its `data-range`);
- accessibility (Accessibility.getFullAXTree): the headings, with their
  levels (a level never more than one below the heading before, as the
  writer nests them), are the model's (`{"op":"headings"}`) in reading
  order; the page's text read in tree order (static text, hidden parts
  left out) is the model's spoken text (`{"op":"text","spoken":true}`,
  hyphenated words joined), whitespace collapsed; one `main`; an `img`
  with a name; a title; a `lang`;
- find: `window.find(word)` finds every word hyphenated across lines;
- copy: the whole page selected copies the model's printed text (a line
  break after each line), whitespace aside;
- the text layer's font loaded (the browser's font sanitizer accepted it).

--screenshot PNG writes a picture of the first page at 1000 CSS px wide
(--screenshot-width; --screenshot-height crops it) with
Page.captureScreenshot: make the HTML with --show-text to see the layer.
Prints one line per page (PASS or FAIL and the figures); --json prints a
JSON report instead. Exit status 0 when every page passes, 1 otherwise,
2 when Chromium or websocket-client is missing.
"""
import argparse
import base64
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

try:
    import websocket  # websocket-client
except ImportError:
    print("check-html: websocket-client is not installed (pip install websocket-client)",
          file=sys.stderr)
    sys.exit(2)

TOLERANCE = 2.0
# (name, window width in CSS px, device scale): browser zoom 100 % and 200 %
# of a window 1000 px wide, and the page shown twice as large.
ZOOMS = [("100%", 1000, 1), ("200%", 500, 2), ("2000px", 2000, 1)]


class Chromium:
    """One headless Chromium and one page target, spoken to over CDP."""

    def __init__(self, binary):
        self.tmp = tempfile.mkdtemp(prefix="scantext-chromium-")
        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--remote-debugging-port=0",
             "--user-data-dir=" + self.tmp, "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
             "--disable-extensions", "--mute-audio", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)
        url = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1)
                break
        if url is None:
            self.close()
            raise RuntimeError("Chromium did not print its DevTools URL")
        # Keep reading Chromium's messages so its pipe never fills.
        threading.Thread(target=self._drain, daemon=True).start()
        self.ws = websocket.create_connection(url, timeout=120, suppress_origin=True)
        self.counter = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.page("Page.enable")
        self.page("Accessibility.enable")

    def _drain(self):
        for _ in self.proc.stderr:
            pass

    def call(self, method, session=None, **params):
        self.counter += 1
        message = {"id": self.counter, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            answer = json.loads(self.ws.recv())
            if answer.get("id") == self.counter:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"].get("message")))
                return answer["result"]

    def page(self, method, **params):
        return self.call(method, session=self.session, **params)

    def evaluate(self, expression):
        r = self.page("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def load(self, path):
        self.page("Page.navigate", url=pathlib.Path(path).resolve().as_uri())
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.evaluate("document.readyState") == "complete":
                break
            time.sleep(0.05)
        return self.evaluate(
            "document.fonts.ready.then(() => [...document.fonts].map(f => f.status))")

    def zoom(self, width, scale):
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=800,
                  deviceScaleFactor=scale, mobile=False)

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)


# The union of an element's visible text's client rects (hidden line breaks
# and joined hyphenated words left out), or null; defined in every script
# that needs it.
VISIBLE_RECT = r"""
function visibleRect(element) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let r = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('.joined, .eol')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const c of range.getClientRects()) {
      if (c.width === 0 && c.height === 0) continue;
      r = r ? [Math.min(r[0], c.left), Math.min(r[1], c.top), Math.max(r[2], c.right),
               Math.max(r[3], c.bottom)] : [c.left, c.top, c.right, c.bottom];
    }
  }
  return r;
}
"""

# Every line: the union of its visible text's client rects and the model's
# outline (data-quad) in CSS pixels, through the page's size.
GEOMETRY = VISIBLE_RECT + r"""
(() => {
  const page = document.querySelector('.page');
  const W = +page.dataset.width, box = page.getBoundingClientRect();
  const k = box.width / W;
  const out = [];
  for (const line of document.querySelectorAll('.line')) {
    // A curved line's outline is its polygon.
    const q = (line.dataset.polygon || line.dataset.quad).split(' ').map(Number);
    const xs = q.filter((_, i) => i % 2 === 0).map(x => box.left + x * k);
    const ys = q.filter((_, i) => i % 2 === 1).map(y => box.top + y * k);
    const model = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    const r = visibleRect(line);
    out.push({line: +line.dataset.line, text: line.textContent, model, browser: r});
  }
  return out;
})()
"""

# Every word: the union of its visible text's client rects, and its range.
WORDS = VISIBLE_RECT + r"""
(() => {
  const page = document.querySelector('.page');
  const box = page.getBoundingClientRect();
  const k = box.width / +page.dataset.width;
  const out = [];
  for (const word of document.querySelectorAll('.line .w')) {
    const r = visibleRect(word);
    // In image pixels, to compare with scantext's answer.
    const image = r && [(r[0] - box.left) / k, (r[1] - box.top) / k,
                        (r[2] - box.left) / k, (r[3] - box.top) / k];
    out.push({range: word.dataset.range.split(' ').map(Number), text: word.textContent,
              image, scale: k});
  }
  return out;
})()
"""

STRUCTURE = r"""
(() => ({
  mains: document.querySelectorAll('main').length,
  title: document.title,
  lang: document.documentElement.lang,
  joined: [...document.querySelectorAll('.joined')].map(e => e.textContent),
}))()
"""


def find_word(browser, word):
    return browser.evaluate(
        "(() => { getSelection().removeAllRanges(); "
        "const found = window.find(%s, false, false, true); "
        "getSelection().removeAllRanges(); return found; })()" % json.dumps(word))


def ax_reading(browser):
    """Headings (level, name) and static texts in tree order."""
    nodes = browser.page("Accessibility.getFullAXTree")["nodes"]
    by_id = {n["nodeId"]: n for n in nodes}
    children = {n["nodeId"]: n.get("childIds", []) for n in nodes}
    root = next(n for n in nodes if not n.get("parentId"))
    headings, texts, images = [], [], []

    def value(n, key):
        return (n.get(key) or {}).get("value")

    def walk(node_id):
        n = by_id.get(node_id)
        if n is None:
            return
        role = value(n, "role")
        if not n.get("ignored"):
            if role == "heading":
                level = next((p["value"]["value"] for p in n.get("properties", [])
                              if p["name"] == "level"), None)
                headings.append((level, value(n, "name") or ""))
            elif role == "StaticText":
                texts.append(value(n, "name") or "")
            elif role == "image":
                images.append(value(n, "name") or "")
        for c in children.get(node_id, []):
            walk(c)

    walk(root["nodeId"])
    return headings, texts, images


def collapse(text):
    return " ".join(text.split())


def query(scantext, model, requests):
    lines = "\n".join(json.dumps(r) for r in requests) + "\n"
    p = subprocess.run([scantext, "query", model], input=lines, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("scantext query %s: %s" % (model, p.stderr.strip()))
    answers = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    for a in answers:
        if "error" in a:
            raise RuntimeError("scantext query %s: %s" % (model, a["error"]))
    return answers


def expected(scantext, model):
    lines, headings = query(scantext, model, [{"op": "lines"}, {"op": "headings"}])
    end = max((l["range"][1] for l in lines.get("lines", [])), default=0)
    spoken, printed = query(scantext, model, [
        {"op": "text", "range": [0, end], "spoken": True}, {"op": "text", "range": [0, end]}])
    levels = []
    previous = 0
    for h in headings["headings"]:
        level = min(h["level"], previous + 1)
        previous = level
        levels.append((level, collapse(h["text"])))
    return collapse(spoken["text"]), levels, printed["text"]


def check_page(browser, html, model, scantext):
    failures = []
    report = {"html": html, "model": model}
    statuses = browser.load(html)
    if statuses != ["loaded"]:
        failures.append("the text layer's font did not load: %s" % statuses)
    text, headings, printed = expected(scantext, model)
    # Geometry at two zooms.
    report["lines"] = 0
    answers = None  # the words' selection rects, the same at every zoom
    for name, width, scale in ZOOMS:
        browser.zoom(width, scale)
        lines = browser.evaluate(GEOMETRY)
        report["lines"] = len(lines)
        worst, worst_line = 0.0, None
        for line in lines:
            if line["browser"] is None:
                failures.append("%s: line %d has no client rects" % (name, line["line"]))
                continue
            d = max(abs(a - b) for a, b in zip(line["browser"], line["model"]))
            if d > worst:
                worst, worst_line = d, line
        report["worst_" + name] = round(worst, 3)
        if worst > TOLERANCE and worst_line is not None:
            failures.append(
                "%s: line %d (%r) is %.2f CSS px off its outline (browser %s, model %s)" % (
                    name, worst_line["line"], worst_line["text"][:40], worst,
                    [round(v, 1) for v in worst_line["browser"]],
                    [round(v, 1) for v in worst_line["model"]]))
        # Every word against its selection rect, as `scantext query` gives it.
        words = browser.evaluate(WORDS)
        if answers is None:
            answers = query(scantext, model,
                            [{"op": "rects", "range": w["range"]} for w in words])
        worst_word, worst_w = 0.0, None
        for w, a in zip(words, answers):
            if w["image"] is None or not a["rects"]:
                continue
            d = max(abs(x - y) for x, y in zip(w["image"], a["rects"][0]["bbox"])) * w["scale"]
            if d > worst_word:
                worst_word, worst_w = d, (w, a["rects"][0]["bbox"])
        report["words"] = len(words)
        report["worst_word_" + name] = round(worst_word, 3)
        if worst_word > TOLERANCE and worst_w is not None:
            w, bbox = worst_w
            failures.append(
                "%s: word %r is %.2f CSS px off its selection rect (browser %s, model %s, "
                "image px)" % (name, w["text"], worst_word, [round(v, 1) for v in w["image"]],
                               bbox))
    browser.zoom(*ZOOMS[0][1:])
    # Accessibility tree.
    ax_headings, texts, images = ax_reading(browser)
    got = [(level, collapse(name)) for level, name in ax_headings]
    report["headings"] = len(got)
    if got != headings:
        failures.append("headings: the browser has %s, the model %s" % (got, headings))
    read = collapse(" ".join(texts))
    if read != text:
        at = next((i for i, (a, b) in enumerate(zip(read, text)) if a != b),
                  min(len(read), len(text)))
        failures.append("text: the browser reads %r, the model %r (at character %d)" % (
            read[max(0, at - 30):at + 30], text[max(0, at - 30):at + 30], at))
    if not images or not all(images):
        failures.append("the scan has no image with a name (alt)")
    s = browser.evaluate(STRUCTURE)
    if s["mains"] != 1:
        failures.append("%d main elements (one expected)" % s["mains"])
    if not s["title"].strip():
        failures.append("no title")
    if not s["lang"]:
        failures.append("no lang on the document")
    # A copy of the whole page: the printed text, a line break after each line.
    copied = browser.evaluate(
        "(() => { const s = getSelection(); s.removeAllRanges(); "
        "const r = document.createRange(); r.selectNodeContents(document.body); "
        "s.addRange(r); const t = s.toString(); s.removeAllRanges(); return t; })()")
    if copied.split() != printed.split():
        failures.append("copy: the selection copies %r, the page text is %r" % (
            copied[:80], printed[:80]))
    # Find-in-page: every word hyphenated across lines.
    found = 0
    for word in s["joined"]:
        if find_word(browser, word):
            found += 1
        else:
            failures.append("window.find(%r) found nothing" % word)
    report["hyphenated"] = len(s["joined"])
    report["found"] = found
    report["failures"] = failures
    return report


def screenshot(browser, html, out, width, height=None):
    browser.load(html)
    browser.zoom(width, 1)
    full = browser.evaluate("Math.ceil(document.documentElement.scrollHeight)")
    height = min(height or full, full)
    shot = browser.page("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                        clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
    pathlib.Path(out).write_bytes(base64.b64decode(shot["data"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scantext", default="scantext", help="the scantext executable")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    parser.add_argument("--screenshot", help="write a PNG of the first page")
    parser.add_argument("--screenshot-width", type=int, default=1000,
                        help="the window's width for the screenshot, in CSS px")
    parser.add_argument("--screenshot-height", type=int,
                        help="crop the screenshot to this height (CSS px)")
    parser.add_argument("pages", nargs="+", help="HTML MODEL pairs")
    args = parser.parse_args()
    if len(args.pages) % 2:
        parser.error("give the pages as HTML MODEL pairs")
    pairs = list(zip(args.pages[0::2], args.pages[1::2]))
    for html, model in pairs:
        for path in (html, model):
            if not os.path.exists(path):
                print("check-html: %s: no such file" % path, file=sys.stderr)
                return 1
    if not shutil.which(args.chromium):
        print("check-html: Chromium is not installed (%s)" % args.chromium, file=sys.stderr)
        return 2
    browser = Chromium(args.chromium)
    reports = []
    try:
        if args.screenshot:
            screenshot(browser, pairs[0][0], args.screenshot, args.screenshot_width,
                       args.screenshot_height)
        for html, model in pairs:
            try:
                reports.append(check_page(browser, html, model, args.scantext))
            except RuntimeError as e:
                reports.append({"html": html, "model": model, "failures": [str(e)]})
    finally:
        browser.close()
    if args.json:
        print(json.dumps({"pages": reports}, indent=1))
    else:
        for r in reports:
            status = "FAIL" if r["failures"] else "PASS"
            zooms = " / ".join(z[0] for z in ZOOMS)
            print("%s %s: %s lines, worst %s CSS px at %s; %s words, worst %s; "
                  "%s headings, %s/%s hyphenated words found" % (
                      status, r["html"], r.get("lines"),
                      " / ".join(str(r.get("worst_" + z[0])) for z in ZOOMS), zooms,
                      r.get("words"),
                      " / ".join(str(r.get("worst_word_" + z[0])) for z in ZOOMS),
                      r.get("headings"), r.get("found"), r.get("hyphenated")))
            for f in r["failures"]:
                print("  " + f)
    return 1 if any(r["failures"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
