"""Every op of the protocol through the package, on Scans/headings.png."""

import re

import scantext


def readme_ops(root):
    readme = (root / "docs" / "query-protocol.md").read_text(encoding="utf-8")
    start = readme.index("# Query protocol")
    table = readme[start:readme.index("\n\n", readme.index("| --- |", start))]
    names = []
    for name in re.findall(r'\{"op":"(\w+)"', table):
        if name not in names:
            names.append(name)
    return names


def test_the_package_reaches_the_readme_ops_in_order(root):
    assert len(readme_ops(root)) >= 23
    assert list(scantext.OPS) == readme_ops(root)
    for methods in scantext.OPS.values():
        for method in methods.split(" / "):
            owner, name = method.split(".")
            assert callable(getattr(getattr(scantext, owner), name)), method


def test_text_lines_and_words_agree(page):
    lines = page.lines()
    assert [line.text for line in lines[:2]] == ["Notes from the Archive", "Scanning the Ledgers"]
    assert (lines[0].role, lines[0].level, lines[1].level) == ("heading", 1, 2)
    assert lines[2].role == "body" and lines[2].level is None
    for line in lines:
        assert page.text_in_range(*line.range) == line.text
        assert page.line(line.line) == line
    assert page.text_in_range(0, 5) == page.text[:5] == "Notes"
    words = page.words()
    assert " ".join(w.text for w in words[:4]) == "Notes from the Archive"
    for word in words:
        line = lines[word.line]
        assert line.range[0] <= word.range[0] < word.range[1] <= line.range[1]
        assert page.text_in_range(*word.range) == word.text
        assert 0 <= word.confidence <= 100
    # The words a rectangle covers: the first line's box gives its text.
    assert page.text_in(lines[0].bbox) == "Notes from the Archive"


def test_paragraphs_carry_roles_and_words(page):
    paragraphs = page.paragraphs()
    assert [(p.role, p.level) for p in paragraphs[:2]] == [("heading", 1), ("heading", 2)]
    assert paragraphs[0].text == "Notes from the Archive"
    assert sum(len(p.words) for p in paragraphs) == len(page.words())
    for p in paragraphs:
        x0, y0, x1, y1 = p.bbox
        for w in p.words:
            assert x0 <= w.bbox[0] and w.bbox[2] <= x1 and y0 <= w.bbox[1] and w.bbox[3] <= y1


def test_hit_line_and_geometry(page):
    words = page.words()
    archive = words[3]
    cx = (archive.bbox[0] + archive.bbox[2]) / 2
    cy = (archive.bbox[1] + archive.bbox[3]) / 2
    hit = page.hit(cx, cy)
    assert hit.word.text == "Archive" and hit.word.range == archive.range
    assert hit.tokenizer_word == ("Archive", archive.range)
    assert hit.line == 0 and archive.range[0] <= hit.position <= archive.range[1]
    assert page.line_at(cx, cy) == 0
    assert page.line_at(1, 1) is None

    rects = page.selection_rects(0, 30)  # "Notes from the Archive\n\nScann"
    assert [r.line for r in rects] == [0, 1]
    assert rects[0].contains_start and rects[1].contains_end
    assert rects[0].writing_direction == "leftToRight" and not rects[0].is_vertical
    line0 = page.line(0)
    assert rects[0].bbox[1] == line0.bbox[1] and rects[0].bbox[3] == line0.bbox[3]
    first = page.first_rect(0, 30)
    assert first[0] == rects[0].bbox[0] and first[3] == rects[0].bbox[3]

    caret = page.caret_rect(archive.range[0])
    assert caret.bbox[0] == caret.bbox[2] and caret.width > 0
    assert words[2].bbox[2] <= caret.bbox[0] <= archive.bbox[0]


def test_units_and_screen_directions(page):
    assert page.enclosing(7, "word") == (6, 10)  # "from"
    assert page.enclosing(7, "line") == (0, 22)
    b = page.boundary(7, "word", "forward")
    assert (b.position, b.at_boundary, b.within_unit, b.enclosing) == (10, False, True, (6, 10))
    assert page.position(3, "right") == 4
    assert page.position(3, "left", offset=2) == 1
    assert page.position(0, "left") is None
    assert page.farthest(0, 5, "left") == 0 and page.farthest(0, 5, "right") == 5
    # One step in a screen direction: to the line's end that way.
    assert page.extend(3, "left") == (0, 3) and page.extend(3, "right") == (3, 22)
    assert [page.compare(3, 5), page.compare(5, 5), page.compare(5, 3)] == [-1, 0, 1]
    assert page.writing_direction(3) == "leftToRight"


def test_headings_outline_and_rotor(page):
    headings = page.headings()
    assert [(h.text, h.level) for h in headings] == [
        ("Notes from the Archive", 1), ("Scanning the Ledgers", 2), ("Numbers and Units", 3)]
    outline = page.outline()
    assert len(outline) == 1 and outline[0].children[0].children[0].text == "Numbers and Units"
    assert page.next_heading(headings[0].range[1]).text == "Scanning the Ledgers"
    assert page.previous_heading(headings[2].range[0]).text == "Scanning the Ledgers"
    assert page.next_heading(headings[2].range[1]) is None
    assert headings[1].rects[0].bbox == page.selection_rects(*headings[1].range)[0].bbox


def test_find_uncertain_and_attributes(page, doc):
    insensitive = page.find("ledger", case_insensitive=True)
    sensitive = page.find("ledger")
    assert len(insensitive) > len(sensitive)
    for m in insensitive:
        assert page.text_in_range(*m.range).lower() == "ledger" == m.text.lower()
        assert m.rects and m.rects[0].range == m.range
    everything = page.uncertain(below=101)
    assert [w.range for w in everything] == [w.range for w in page.words()]
    low = page.uncertain(below=95)
    assert all(w.confidence < 95 for w in low)
    assert page.next_uncertain(0, below=101).range == everything[0].range
    assert page.next_uncertain(everything[-1].range[1], below=101) is None
    assert page.next_uncertain(page.text.__len__(), "backward", below=101).range == everything[-1].range
    content = page.attributed_content(line=0)
    assert content.text == "Notes from the Archive"
    assert [(r.role, r.level, r.language) for r in content.runs] == [("heading", 1, "en")]
    flagged = page.attributed_content(range=page.lines()[2].range, below=101)
    assert all(r.low_confidence for r in flagged.runs if r.text.strip())
    assert doc.page_count() == len(doc.pages) == 1


def test_draw_gives_the_page_picture(page, tmp_path):
    png = page.draw()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    height = int.from_bytes(png[20:24], "big")
    assert (width, height) == page.size
    assert page._repr_png_()[:24] == bytes(png[:24])  # Jupyter's picture of a page
    assert png._repr_png_() == bytes(png)
    written = page.draw(tmp_path / "page.png", layers="words")
    assert (tmp_path / "page.png").read_bytes() == bytes(written)
    assert bytes(written) != bytes(png)  # fewer layers, another picture


def test_boxes_as_a_numpy_array(page):
    numpy = __import__("pytest").importorskip("numpy")
    words = page.words()
    array = scantext.boxes(words)
    assert array.shape == (len(words), 4)
    assert array[3].tolist() == list(words[3].bbox)
    assert numpy.all(array[:, 2] > array[:, 0]) and numpy.all(array[:, 3] > array[:, 1])
    assert scantext.boxes([]).shape == (0, 4)


def test_threads_sharing_a_document_get_their_own_answers(model):
    # Without the server's lock, two threads read each other's answers and
    # one waits forever (measured: hung); the timeout bounds a regression.
    from concurrent.futures import ThreadPoolExecutor

    with scantext.Document.open(model, timeout=5) as doc:
        page = doc.pages[0]
        lines = page.lines()

        def read(i):
            line = lines[i % len(lines)]
            return page.text_in_range(*line.range) == line.text

        with ThreadPoolExecutor(4) as pool:
            assert all(pool.map(read, range(200)))
