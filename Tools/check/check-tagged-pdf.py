#!/usr/bin/env python3
"""What a machine can check of a tagged searchable PDF beyond `pdfua check`.

    .build/tools-venv/bin/python Tools/check/check-tagged-pdf.py OUT.pdf [--json]

`pdfua` 0.1.3 (PyPI, on pikepdf) implements 16 of PDF/UA-1's 106
machine-checkable rules. This script adds, with pikepdf, the ones ScanText's
tagged output must also meet (Matterhorn Protocol checkpoints in brackets):

- the catalog: `/MarkInfo /Marked true` [06-001], a `/StructTreeRoot`
  [01-005], a well-formed `/Lang` [11-001..006 in part], `/ViewerPreferences
  /DisplayDocTitle true` [07-002], a title in the XMP (`dc:title`) [06-003]
  and the PDF/UA identification (`pdfuaid:part` 1) [06-002];
- every page's content: each text-showing operator and each painted XObject
  inside a marked-content sequence that is either an artifact or real
  content with an MCID [01-001..01-003]; MCIDs unique on a page;
- the parent tree: each page has `/StructParents`, its entry lists for each
  MCID the structure element whose `/K` holds that MCID on that page, and
  every MCID an element holds is in the page's content (both ways) [01-*];
- headings: levels in document order never skip one, the first is H1
  [14-002, 14-003];
- tables: every row as wide as the table once row and column spans are
  counted [15-*], header cells with `/Scope`;
- figures: `/Alt` on every `/Figure` [13-004];
- notes: an `/ID` on every `/Note`, unique [19-003, 19-004].

It also prints the tag tree's text in order (each MCID's text read from the
content: ScanText's layer shows UTF-16 code units with an identity map, so
the operands are the text; runs joined by a space, but a `Span`, a word's
breaking hyphen, joins the text before and after it), and with `--json`
each page's part of it, for the suite to compare with the model's reading
order page by page. Exit status: 0 when nothing is found, 1 with findings (each
printed on a line), 2 when the file cannot be read.
"""

import argparse
import json
import re
import sys

import pikepdf

TEXT_OPERATORS = {"Tj", "TJ", "'", '"'}


def decode(operand):
    """The text a glyphless-layer string shows (UTF-16BE code units)."""
    data = bytes(operand)
    return data.decode("utf-16-be", errors="replace")


def page_content(page):
    """MCID -> text, and the number of unmarked text and XObject paints."""
    texts = {}
    unmarked = 0
    duplicates = []
    stack = []  # each: ("artifact"|"content"|"other", mcid or None)
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op in ("BDC", "BMC"):
            tag = str(operands[0])
            mcid = None
            if op == "BDC" and isinstance(operands[1], pikepdf.Dictionary):
                if "/MCID" in operands[1]:
                    mcid = int(operands[1]["/MCID"])
            if tag == "/Artifact":
                stack.append(("artifact", None))
            elif mcid is not None:
                if mcid in texts:
                    duplicates.append(mcid)
                texts[mcid] = ""
                stack.append(("content", mcid))
            else:
                stack.append(("other", None))
        elif op == "EMC":
            if stack:
                stack.pop()
        elif op in TEXT_OPERATORS or op == "Do":
            inside = [kind for kind, _ in stack if kind in ("artifact", "content")]
            if not inside:
                unmarked += 1
            elif op != "Do":
                mcid = next((m for kind, m in reversed(stack) if kind == "content"), None)
                if mcid is not None and not any(k == "artifact" for k, _ in stack):
                    if op == "TJ":
                        for item in operands[0]:
                            if isinstance(item, pikepdf.String):
                                texts[mcid] += decode(item)
                    else:
                        texts[mcid] += decode(operands[-1])
    return texts, unmarked, duplicates


def kids(element):
    k = element.get("/K")
    if k is None:
        return []
    if isinstance(k, pikepdf.Array):
        return list(k)
    return [k]


def check(path):
    findings = []
    pdf = pikepdf.open(path)
    root = pdf.Root
    mark_info = root.get("/MarkInfo")
    if mark_info is None or not bool(mark_info.get("/Marked", False)):
        findings.append("catalog: /MarkInfo /Marked is not true")
    lang = root.get("/Lang")
    if lang is None or not re.match(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$", str(lang)):
        findings.append(f"catalog: /Lang missing or malformed ({lang!r})")
    prefs = root.get("/ViewerPreferences")
    if prefs is None or not bool(prefs.get("/DisplayDocTitle", False)):
        findings.append("catalog: /ViewerPreferences /DisplayDocTitle is not true")
    metadata = root.get("/Metadata")
    xmp = bytes(metadata.read_bytes()).decode("utf-8", "replace") if metadata is not None else ""
    # (An element or, in a packet ScanText updated, an attribute.)
    if not re.search(r"<pdfuaid:part>1</pdfuaid:part>|pdfuaid:part=[\"']1[\"']", xmp):
        findings.append("metadata: no PDF/UA identification (pdfuaid:part 1)")
    if not re.search(r"<dc:title[\s>]", xmp):
        findings.append("metadata: no dc:title")
    tree = root.get("/StructTreeRoot")
    if tree is None:
        findings.append("catalog: no /StructTreeRoot")
        return findings, "", []

    pages = list(pdf.pages)
    page_index = {p.obj.objgen: i for i, p in enumerate(pages)}
    contents = []
    for i, page in enumerate(pages):
        texts, unmarked, duplicates = page_content(page)
        contents.append(texts)
        if unmarked:
            findings.append(f"page {i + 1}: {unmarked} text or image paints neither tagged nor artifact")
        if duplicates:
            findings.append(f"page {i + 1}: MCIDs used twice: {sorted(set(duplicates))}")
        if "/StructParents" not in page.obj:
            findings.append(f"page {i + 1}: no /StructParents")

    # The parent tree: page key -> array of elements.
    nums = []
    parent_tree = tree.get("/ParentTree")
    stack = [parent_tree] if parent_tree is not None else []
    while stack:
        node = stack.pop()
        if "/Nums" in node:
            arr = list(node["/Nums"])
            nums += [(int(arr[j]), arr[j + 1]) for j in range(0, len(arr) - 1, 2)]
        for kid in node.get("/Kids", []):
            stack.append(kid)
    parents = dict(nums)

    # Walk the tree in order: text, headings, tables, figures, notes.
    order_text = []
    held = set()  # (page index, mcid) held by an element
    headings = []
    note_ids = []

    def element_page(element, inherited):
        pg = element.get("/Pg")
        if pg is not None and pg.objgen in page_index:
            return page_index[pg.objgen]
        return inherited

    def walk(element, page, inline=False):
        # `inline`: a Span (a word's breaking hyphen): its text and the
        # text after it join the text before with no space.
        page = element_page(element, page)
        role = str(element.get("/S", ""))
        if re.fullmatch(r"/H[1-6]", role):
            headings.append(int(role[2]))
        if role == "/Figure" and "/Alt" not in element:
            findings.append(f"page {page + 1 if page is not None else '?'}: a /Figure without /Alt")
        if role == "/Note":
            note_ids.append(str(element.get("/ID", "")))
        if role == "/Table":
            check_table(element, page)
        joined = inline
        for kid in kids(element):
            if isinstance(kid, int) and not isinstance(kid, bool):
                mcid = int(kid)
                if page is None:
                    findings.append(f"MCID {mcid} of an element with no page")
                    continue
                held.add((page, mcid))
                order_text.append((page, contents[page].get(mcid), joined))
                joined = False
                if contents[page].get(mcid) is None:
                    findings.append(f"page {page + 1}: MCID {mcid} is held by {role} but not in the content")
                entry = parents.get(int(pages[page].obj.get("/StructParents", -1)))
                if entry is None or mcid >= len(entry) or entry[mcid].objgen != element.objgen:
                    findings.append(f"page {page + 1}: MCID {mcid} not mapped to its element {role} in the parent tree")
            elif isinstance(kid, pikepdf.Dictionary):
                if kid.get("/Type") == "/MCR":
                    findings.append("an /MCR kid (not written by ScanText)")
                else:
                    joined = str(kid.get("/S", "")) == "/Span"
                    walk(kid, page, inline=joined)

    def check_table(table, page):
        rows = [r for r in kids(table) if isinstance(r, pikepdf.Dictionary) and str(r.get("/S")) == "/TR"]
        widths = []
        carried = {}  # row index -> columns taken by cells spanning from above
        for r, row in enumerate(rows):
            width = carried.get(r, 0)
            for cell in kids(row):
                if not isinstance(cell, pikepdf.Dictionary):
                    continue
                attrs = cell.get("/A")
                colspan = int(attrs.get("/ColSpan", 1)) if isinstance(attrs, pikepdf.Dictionary) else 1
                rowspan = int(attrs.get("/RowSpan", 1)) if isinstance(attrs, pikepdf.Dictionary) else 1
                width += colspan
                for below in range(r + 1, r + rowspan):
                    carried[below] = carried.get(below, 0) + colspan
                if str(cell.get("/S")) == "/TH" and (
                    not isinstance(attrs, pikepdf.Dictionary) or "/Scope" not in attrs
                ):
                    findings.append(f"page {page + 1}: a /TH without /Scope")
            widths.append(width)
        if len(set(widths)) > 1:
            findings.append(f"page {page + 1}: table rows of unequal widths {widths}")

    for top in kids(tree):
        if isinstance(top, pikepdf.Dictionary):
            walk(top, None)

    for i, texts in enumerate(contents):
        for mcid in texts:
            if (i, mcid) not in held:
                findings.append(f"page {i + 1}: MCID {mcid} in the content is held by no element")
    previous = 0
    for level in headings:
        if level > previous + 1:
            findings.append(f"heading levels skip: H{level} after H{previous}")
        previous = level
    if len(note_ids) != len(set(note_ids)) or any(not n for n in note_ids):
        findings.append("notes without a unique /ID")
    # The tag tree's text in order, and each page's part of it (the text
    # of the elements on that page, in order).
    def joined_text(pieces):
        text = ""
        for piece, joined in pieces:
            if piece is not None:
                text += ("" if joined or not text else " ") + piece
        return text

    page_texts = [
        joined_text((piece, joined) for page, piece, joined in order_text if page == i)
        for i in range(len(pages))
    ]
    return findings, joined_text((piece, joined) for _, piece, joined in order_text), page_texts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf")
    parser.add_argument("--json", action="store_true", help="print {findings, text, pages} as JSON (pages: each page's tag text)")
    args = parser.parse_args()
    try:
        findings, text, page_texts = check(args.pdf)
    except (pikepdf.PdfError, OSError) as error:
        print(f"{args.pdf}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(
            {"findings": findings, "text": text, "pages": page_texts}, ensure_ascii=False))
    else:
        for finding in findings:
            print(f"{args.pdf}: {finding}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
