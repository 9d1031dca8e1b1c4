#!/usr/bin/env python3
"""Checks pages written by `scantext html` in a real browser (headless
Chromium, driven over the Chrome DevTools Protocol with websocket-client).

Usage:
  check-html.py [--scantext BIN] [--json] [--screenshot PNG] HTML MODEL [HTML MODEL ...]

HTML is a file from `scantext html MODEL`; MODEL is what it was made from
(a document or an image: the expected headings and text come from
`scantext query MODEL`). Each page of the HTML (`div` or `section` of
class `page`) is MODEL's page `data-page` (from 1). For every HTML file,
in one Chromium:

- geometry, in the frame drawn: every image pixel of a page is mapped to
  the screen through its frame's computed transform (a page found turned
  is shown upright; `--keep-rotation` keeps it as scanned). For every
  line, the client rects of its text (a DOM Range over the line's text
  nodes) against the model's selection outline, which the writer puts on
  the line as `data-quad` (image pixels): the largest distance between
  their bounds must be at most 2 CSS px, at 100 % (a window 1000 CSS px
  wide), at 200 % (500 CSS px at device scale 2) and in a window 2000 CSS
  px wide (--zooms chooses among them); so must each word's against its
  selection rect (`scantext query` `rects` of its `data-range`);
- ink, in what the browser draws: one screenshot at 100 % (the text layer
  hidden), its ink (pixels darker than the brightest pixel within one
  text height by half as much as the strokes under the words, rules
  longer than three text heights left out) against the layer's word rects
  as the DOM places them, the figures resting on the words the model is
  sure of (not marked uncertain): of the ink within a text height of them
  at least 80 % lies in the word rects (grown by 15 % of a text height),
  at least 90 % of them hold ink, and at least 75 % of the gaps between
  two of them are blank in their middle; a page with fewer than 10 such
  words is not judged. A layer that runs sideways, upside down, mirrored
  or a line off across the picture fails (`HTMLBrowserTests` and
  `Tools/check/measure-html-ink.py` show it); every picture must load;
- accessibility (Accessibility.getFullAXTree): the headings, with their
  levels (a level never more than one below the heading before, across
  pages, as the writer nests them), are the model's (`{"op":"headings"}`)
  in reading order; the text read in tree order (static text, hidden parts
  left out) is the model's spoken text (`{"op":"text","spoken":true}`,
  hyphenated words joined), whitespace collapsed; one `main`; an `img`
  with a name per page; a title; a `lang`;
- find: `window.find(word)` finds every word hyphenated across lines;
- copy: the whole document selected copies the model's printed text (a
  line break after each line), whitespace aside;
- the text layer's font loaded (the browser's font sanitizer accepted it).

--screenshot PNG writes a picture of the first HTML at 1000 CSS px wide
(--screenshot-width; --screenshot-height crops it) with
Page.captureScreenshot: make the HTML with --show-text to see the layer.
Prints one line per HTML (PASS or FAIL and the figures); --json prints a
JSON report instead. Exit status 0 when every page passes, 1 otherwise,
2 when Chromium, websocket-client, numpy or Pillow is missing.
"""
import argparse
import base64
import io
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
    import numpy as np
    from PIL import Image
except ImportError as e:
    print("check-html: %s (Tools/install/install-dependencies.sh installs websocket-client, numpy "
          "and Pillow into .build/tools-venv)" % e, file=sys.stderr)
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
        # Chromium sends valid UTF-8 (JSON): websocket-client's own check, in
        # Python, took 0.8 s per screenshot message.
        self.ws = websocket.create_connection(url, timeout=120, suppress_origin=True,
                                              skip_utf8_validation=True)
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
        # The pictures decoded (a failed one is reported by the ink check).
        self.evaluate("Promise.all([...document.images].map(i => i.decode().catch(() => null)))")
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
# and joined hyphenated words left out), or null; and the map between a
# page's image pixels and the screen, through its frame's computed
# transform (the frame drawn: turned upright or not). Defined in every
# script that needs them.
PAGE_FRAMES = r"""
function visibleRects(element) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('.joined, .eol')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const c of range.getClientRects()) {
      if (c.width === 0 && c.height === 0) continue;
      out.push([c.left, c.top, c.right, c.bottom]);
    }
  }
  return out;
}
function union(rects) {
  return rects.length ? [Math.min(...rects.map(r => r[0])), Math.min(...rects.map(r => r[1])),
    Math.max(...rects.map(r => r[2])), Math.max(...rects.map(r => r[3]))] : null;
}
function visibleRect(element) { return union(visibleRects(element)); }
function frameMap(page) {
  const frame = page.querySelector('.frame');
  const W = +page.dataset.width;
  const style = getComputedStyle(frame);
  const m = style.transform === 'none' ? new DOMMatrix() : new DOMMatrix(style.transform);
  const inverse = m.inverse();
  const box = page.getBoundingClientRect();
  const k = parseFloat(style.width) / W;
  const ox = box.left + parseFloat(style.left), oy = box.top + parseFloat(style.top);
  return {
    k,
    to(x, y) { const p = m.transformPoint(new DOMPoint(x * k, y * k)); return [ox + p.x, oy + p.y]; },
    from(x, y) {
      const p = inverse.transformPoint(new DOMPoint(x - ox, y - oy)); return [p.x / k, p.y / k];
    },
  };
}
function bounds(points) {
  const xs = points.map(p => p[0]), ys = points.map(p => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
"""

# Every line: the union of its visible text's client rects, in image pixels
# through its page's frame; the model's outline (the bounds of data-quad,
# image pixels); its words' ranges (a curved line is compared with them).
GEOMETRY = PAGE_FRAMES + r"""
(() => {
  const out = [];
  for (const page of document.querySelectorAll('.page')) {
    const map = frameMap(page);
    for (const line of page.querySelectorAll('.line')) {
      const q = line.dataset.quad.split(' ').map(Number);
      const r = visibleRect(line);
      out.push({page: +page.dataset.page, line: +line.dataset.line, text: line.textContent,
                model: [Math.min(q[0], q[2], q[4], q[6]), Math.min(q[1], q[3], q[5], q[7]),
                        Math.max(q[0], q[2], q[4], q[6]), Math.max(q[1], q[3], q[5], q[7])],
                curved: !!line.dataset.polygon,
                ranges: [...line.querySelectorAll('.w')].map(w => w.dataset.range),
                image: r && bounds([map.from(r[0], r[1]), map.from(r[2], r[1]),
                                    map.from(r[2], r[3]), map.from(r[0], r[3])]),
                scale: map.k});
    }
  }
  return out;
})()
"""

# Every word: the union of its visible text's client rects, in image pixels
# through its page's frame, and its range.
WORDS = PAGE_FRAMES + r"""
(() => {
  const out = [];
  for (const page of document.querySelectorAll('.page')) {
    const map = frameMap(page);
    for (const word of page.querySelectorAll('.line .w')) {
      const r = visibleRect(word);
      const image = r && bounds([map.from(r[0], r[1]), map.from(r[2], r[1]),
                                 map.from(r[2], r[3]), map.from(r[0], r[3])]);
      out.push({page: +page.dataset.page, range: word.dataset.range.split(' ').map(Number),
                text: word.textContent, image, scale: map.k});
    }
  }
  return out;
})()
"""

# For the ink check, in document coordinates: every picture's box (and
# whether it loaded), every word's box and the middle of every gap between
# two words of a line (both as the DOM places them), and the document's
# height.
LAYER = PAGE_FRAMES + r"""
(() => {
  const doc = r => r && [r[0] + scrollX, r[1] + scrollY, r[2] + scrollX, r[3] + scrollY];
  const pictures = [...document.querySelectorAll('img.scan')].map(i => {
    const r = i.getBoundingClientRect();
    return {box: doc([r.left, r.top, r.right, r.bottom]), loaded: i.naturalWidth > 0,
            src: i.getAttribute('src').slice(0, 80)};
  });
  const words = [], gaps = [];
  for (const line of document.querySelectorAll('.line')) {
    const spans = [...line.querySelectorAll('.w')];
    const boxes = spans.map(w => visibleRect(w));
    spans.forEach((w, i) => {
      if (boxes[i]) words.push({box: doc(boxes[i]), sure: !w.classList.contains('uncertain')});
    });
    // The line's direction on the screen: from its first word to its last.
    const ends = boxes.filter(b => b);
    const along = ends.length < 2 ||
      Math.abs(ends[ends.length - 1][0] + ends[ends.length - 1][2] - ends[0][0] - ends[0][2]) >=
      Math.abs(ends[ends.length - 1][1] + ends[ends.length - 1][3] - ends[0][1] - ends[0][3]);
    for (let i = 1; i < spans.length; i++) {
      // Between two words the model is sure of (an uncertain word is often
      // a piece of a word it split, or noise).
      if (spans[i - 1].classList.contains('uncertain') || spans[i].classList.contains('uncertain'))
        continue;
      const range = document.createRange();
      range.setStartAfter(spans[i - 1]);
      range.setEndBefore(spans[i]);
      const g = union([...range.getClientRects()].filter(c => c.width > 0 && c.height > 0)
                        .map(c => [c.left, c.top, c.right, c.bottom]));
      if (!g) continue;
      // The middle third along the line, the middle half across it.
      const w = g[2] - g[0], h = g[3] - g[1];
      gaps.push(doc(along ? [g[0] + w / 3, g[1] + h / 4, g[2] - w / 3, g[3] - h / 4]
                          : [g[0] + w / 4, g[1] + h / 3, g[2] - w / 4, g[3] - h / 3]));
    }
  }
  return {pictures, words, gaps, height: Math.ceil(document.documentElement.scrollHeight)};
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


def expected(scantext, model, pages):
    """The spoken text, the headings (levels nested across the pages) and
    the printed text of MODEL's pages (numbered from 1), in order."""
    answers = query(scantext, model, [
        {"op": op, "page": n - 1} for n in pages for op in ("lines", "headings")])
    requests = []
    levels = []
    previous = 0
    for k in range(len(pages)):
        lines, headings = answers[2 * k], answers[2 * k + 1]
        end = max((l["range"][1] for l in lines.get("lines", [])), default=0)
        requests += [{"op": "text", "range": [0, end], "spoken": True, "page": pages[k] - 1},
                     {"op": "text", "range": [0, end], "page": pages[k] - 1}]
        for h in headings["headings"]:
            level = min(h["level"], previous + 1)
            previous = level
            levels.append((level, collapse(h["text"])))
    texts = query(scantext, model, requests)
    spoken = " ".join(t["text"] for t in texts[0::2])
    printed = "\n".join(t["text"] for t in texts[1::2])
    return collapse(spoken), levels, printed


# The ink check's figures (see the module's docstring). Contrast is how much
# darker a pixel is than the brightest one within one text height: a stroke
# is thinner than a letter, so that window reaches paper from it, while
# shading, a photo's background, a facing page or a table top, wider than a
# letter, has none. Ink has at least half the contrast of the strokes under
# the words the model is sure of (their pixels' 90th percentile) and at
# least 32 of 255: show-through from the other side of a leaf (51-94 on
# fleming-jaeger-1719-0117.jpg, its print 165-196) is not ink. Rules (runs
# of ink longer than three text heights) are not text.
STROKE_PERCENTILE = 90
STROKE_SHARE = 0.5
INK_MIN_CONTRAST = 32
RULE_LENGTH = 3
# A word box grows by this much of a text height; ink within one text height
# of a word counts; a box holds ink, a gap is blank, by this share of ink.
WORD_MARGIN = 0.15
HELD = 0.02
MIN_INSIDE = 0.8
MIN_WORDS_INKED = 0.9
MIN_GAPS_BLANK = 0.75
# A figure is judged when it rests on at least this many words or gaps.
MIN_COUNT = 10


def sliding(a, window, axis, pick, outside=None):
    """`pick` (np.maximum or np.minimum) over `window` (odd) pixels
    centred on each, along `axis`, by doubling spans (log(window) passes);
    past the edges the value `outside`, or the edge repeated."""
    r = window // 2
    pad = [(0, 0), (0, 0)]
    pad[axis] = (r, r)
    cur = (np.pad(a, pad, mode="edge") if outside is None
           else np.pad(a, pad, constant_values=outside))
    span = 1
    while span < window:
        step = min(span, window - span)
        shifted = np.take(cur, range(step, cur.shape[axis]), axis=axis)
        tail = [(0, 0), (0, 0)]
        tail[axis] = (0, step)
        cur = pick(cur, np.pad(shifted, tail, mode="edge"))
        span += step
    return np.take(cur, range(a.shape[axis]), axis=axis)


def long_runs(mask, length, axis):
    """The pixels of `mask` in runs of at least `length` along `axis`: its
    opening by a line that long (a run that long holds the line)."""
    window = max(1, int(length)) | 1
    held = sliding(mask, window, axis, np.minimum, outside=False)
    return sliding(held, window, axis, np.maximum, outside=False) & mask


def pixels(box, shape, grow=0.0):
    """The array slices of a box (document CSS px) grown by `grow`."""
    h, w = shape
    y0 = min(h, max(0, int(np.floor(box[1] - grow))))
    y1 = min(h, max(0, int(np.ceil(box[3] + grow))))
    x0 = min(w, max(0, int(np.floor(box[0] - grow))))
    x1 = min(w, max(0, int(np.ceil(box[2] + grow))))
    return slice(y0, y1), slice(x0, x1)


def check_ink(browser, failures, report):
    """The screenshot's ink against the layer's word boxes (at 100 %)."""
    width, scale = ZOOMS[0][1:]
    browser.zoom(width, scale)
    layer = browser.evaluate(LAYER)
    broken = [p["src"] for p in layer["pictures"] if not p["loaded"]]
    if broken:
        failures.append("ink: the picture did not load: %s" % ", ".join(broken))
        return
    words = [w for w in layer["words"]
             if w["box"][2] - w["box"][0] >= 1 and w["box"][3] - w["box"][1] >= 1]
    if not layer["pictures"] or not words:
        report["ink"] = "no picture" if not layer["pictures"] else "no words"
        return
    # Hide the layer (shown with --show-text) for the picture.
    browser.evaluate(
        "(() => { const s = document.createElement('style'); s.id = 'check-ink'; "
        "s.textContent = '.line, .line * { color: transparent !important; "
        "background: none !important; }'; document.head.append(s); })()")
    try:
        shot = browser.page("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                            optimizeForSpeed=True,
                            clip={"x": 0, "y": 0, "width": width, "height": layer["height"],
                                  "scale": 1})
    finally:
        browser.evaluate("document.getElementById('check-ink').remove()")
    gray = np.asarray(Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("L"),
                      dtype=np.int16)
    # The text height: the median of the words' shorter sides.
    sides = sorted(min(w["box"][2] - w["box"][0], w["box"][3] - w["box"][1]) for w in words)
    text = sides[len(sides) // 2]
    window = max(3, int(round(text)) | 1)
    paper = sliding(sliding(gray, window, 0, np.maximum), window, 1, np.maximum)
    contrast = paper - gray
    # The figures rest on the words the model is sure of: those below the
    # HTML's confidence threshold are often read in noise (a book's page
    # edges, a drawing) or split out of a word (Fraktur read as English).
    sure = [w for w in words if w["sure"]]
    under = np.concatenate([contrast[pixels(w["box"], contrast.shape)].ravel()
                            for w in sure] + [np.zeros(0, dtype=contrast.dtype)])
    strokes = float(np.percentile(under, STROKE_PERCENTILE)) if under.size else 0.0
    ink = contrast > max(INK_MIN_CONTRAST, STROKE_SHARE * strokes)
    drawn = np.zeros_like(ink)
    for p in layer["pictures"]:
        drawn[pixels(p["box"], ink.shape)] = True
    ink &= drawn
    ink &= ~(long_runs(ink, RULE_LENGTH * text, 1) | long_runs(ink, RULE_LENGTH * text, 0))
    inside = np.zeros_like(ink)
    near = np.zeros_like(ink)
    for w in words:
        inside[pixels(w["box"], ink.shape, WORD_MARGIN * text)] = True
    for w in sure:
        near[pixels(w["box"], ink.shape, text)] = True
    inked = 0
    for w in sure:
        held = ink[pixels(w["box"], ink.shape)]
        if held.size and held.mean() > HELD:
            inked += 1
    blank = total_gaps = 0
    for g in layer["gaps"]:
        middle = ink[pixels(g, ink.shape)]
        if middle.size:
            total_gaps += 1
            blank += middle.mean() <= HELD
    nearby = int((ink & near).sum())
    share_inside = float((ink & near & inside).sum()) / nearby if nearby else 0.0
    share_inked = inked / len(sure) if sure else 0.0
    share_blank = blank / total_gaps if total_gaps else 1.0
    report["ink"] = {"inside": round(share_inside, 3), "words_inked": round(share_inked, 3),
                     "gaps_blank": round(share_blank, 3), "text_height": round(text, 1),
                     "sure_words": len(sure), "gaps": total_gaps,
                     "stroke_contrast": round(strokes, 1)}
    if len(sure) < MIN_COUNT:
        # Too little to go on (a page of a few words, or one the model
        # misread throughout).
        report["ink"]["judged"] = False
        return
    if share_inside < MIN_INSIDE:
        failures.append("ink: %.0f %% of the ink near the layer lies in its words (at least "
                        "%.0f %% expected): the layer is not on the picture's text" % (
                            100 * share_inside, 100 * MIN_INSIDE))
    if share_inked < MIN_WORDS_INKED:
        failures.append("ink: %.0f %% of the words (not uncertain) lie on ink (at least %.0f %% "
                        "expected)" % (100 * share_inked, 100 * MIN_WORDS_INKED))
    if total_gaps >= MIN_COUNT and share_blank < MIN_GAPS_BLANK:
        failures.append("ink: %.0f %% of the gaps between words are blank (at least %.0f %% "
                        "expected): the words are not on the picture's words" % (
                            100 * share_blank, 100 * MIN_GAPS_BLANK))


def check_page(browser, html, model, scantext, zooms=ZOOMS):
    failures = []
    report = {"html": html, "model": model}
    statuses = browser.load(html)
    if statuses != ["loaded"]:
        failures.append("the text layer's font did not load: %s" % statuses)
    pages = browser.evaluate("[...document.querySelectorAll('.page')].map(p => +p.dataset.page)")
    report["pages"] = len(pages)
    text, headings, printed = expected(scantext, model, pages)
    # Geometry at each zoom.
    report["lines"] = 0
    answers = None  # the words' selection rects, the same at every zoom
    for name, width, scale in zooms:
        browser.zoom(width, scale)
        # Every word against its selection rect, as `scantext query` gives it.
        words = browser.evaluate(WORDS)
        if answers is None:
            answers = query(scantext, model, [
                {"op": "rects", "range": w["range"], "page": w["page"] - 1} for w in words])
        band = {}  # (page, "start end") -> the word's selection rect, image px
        worst_word, worst_w = 0.0, None
        for w, a in zip(words, answers):
            if not a["rects"]:
                continue
            bbox = a["rects"][0]["bbox"]
            band[(w["page"], "%d %d" % tuple(w["range"]))] = bbox
            if w["image"] is None:
                continue
            d = max(abs(x - y) for x, y in zip(w["image"], bbox)) * w["scale"]
            if d > worst_word:
                worst_word, worst_w = d, (w, bbox)
        report["words"] = len(words)
        report["worst_word_" + name] = round(worst_word, 3)
        if worst_word > TOLERANCE and worst_w is not None:
            w, bbox = worst_w
            failures.append(
                "%s: word %r is %.2f CSS px off its selection rect (browser %s, model %s, "
                "image px)" % (name, w["text"], worst_word, [round(v, 1) for v in w["image"]],
                               bbox))
        # Every line against its outline. A curved line's text is straight
        # within each word and each gap (a word is sheared onto its stretch
        # of the curve, a gap follows its chord): it is compared with its
        # words' bands, not with its polygon, which bends inside a long
        # gap (3.2 image px on the cookbook photo, before a stray word 800
        # px further along).
        lines = browser.evaluate(GEOMETRY)
        report["lines"] = len(lines)
        worst, worst_line = 0.0, None
        for line in lines:
            if line["image"] is None:
                failures.append("%s: page %d line %d has no client rects" % (
                    name, line["page"], line["line"]))
                continue
            outline = line["model"]
            bands = [band.get((line["page"], r)) for r in line["ranges"]]
            if line["curved"] and all(bands):
                outline = [min(b[0] for b in bands), min(b[1] for b in bands),
                           max(b[2] for b in bands), max(b[3] for b in bands)]
            line["outline"] = outline
            d = max(abs(a - b) for a, b in zip(line["image"], outline)) * line["scale"]
            if d > worst:
                worst, worst_line = d, line
        report["worst_" + name] = round(worst, 3)
        if worst > TOLERANCE and worst_line is not None:
            failures.append(
                "%s: page %d line %d (%r) is %.2f CSS px off its outline (browser %s, model %s, "
                "image px)" % (
                    name, worst_line["page"], worst_line["line"], worst_line["text"][:40], worst,
                    [round(v, 1) for v in worst_line["image"]],
                    [round(v, 1) for v in worst_line["outline"]]))
    # What the browser draws: the picture's ink under the layer's words.
    check_ink(browser, failures, report)
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
    if len(images) < len(pages) or not all(images):
        failures.append("%d of %d pages have an image with a name (alt)" % (
            len([i for i in images if i]), len(pages)))
    s = browser.evaluate(STRUCTURE)
    if s["mains"] != 1:
        failures.append("%d main elements (one expected)" % s["mains"])
    if not s["title"].strip():
        failures.append("no title")
    if not s["lang"]:
        failures.append("no lang on the document")
    # A copy of the whole document: the printed text, a line break after
    # each line.
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
    parser.add_argument("--zooms", default=",".join(z[0] for z in ZOOMS),
                        help="the zooms to check the geometry at (default: all of %s)" %
                        ", ".join(z[0] for z in ZOOMS).replace("%", "%%"))
    parser.add_argument("pages", nargs="+", help="HTML MODEL pairs")
    args = parser.parse_args()
    names = args.zooms.split(",")
    zooms = [z for z in ZOOMS if z[0] in names]
    if len(zooms) != len(names):
        parser.error("--zooms takes some of %s" % ", ".join(z[0] for z in ZOOMS))
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
                reports.append(check_page(browser, html, model, args.scantext, zooms))
            except RuntimeError as e:
                reports.append({"html": html, "model": model, "failures": [str(e)]})
    finally:
        browser.close()
    if args.json:
        print(json.dumps({"pages": reports}, indent=1))
    else:
        for r in reports:
            status = "FAIL" if r["failures"] else "PASS"
            names = " / ".join(z[0] for z in zooms)
            ink = r.get("ink")
            if isinstance(ink, dict):
                ink = "%.0f %% inside, %.0f %% of words inked, %.0f %% of gaps blank" % (
                    100 * ink["inside"], 100 * ink["words_inked"], 100 * ink["gaps_blank"])
            print("%s %s: %s pages, %s lines, worst %s CSS px at %s; %s words, worst %s; "
                  "ink %s; %s headings, %s/%s hyphenated words found" % (
                      status, r["html"], r.get("pages"), r.get("lines"),
                      " / ".join(str(r.get("worst_" + z[0])) for z in zooms), names,
                      r.get("words"),
                      " / ".join(str(r.get("worst_word_" + z[0])) for z in zooms),
                      ink, r.get("headings"), r.get("found"), r.get("hyphenated")))
            for f in r["failures"]:
                print("  " + f)
    return 1 if any(r["failures"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
