"""Errors, a killed or hung server, memory over many requests, lifetime."""

import gc
import os
import signal
import tempfile
import time

import pytest

import scantext


def rss_kb(pid="self"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def alive(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            return "zombie" not in status.read()
    except FileNotFoundError:
        return False


def test_server_errors_are_query_errors_and_the_session_goes_on(doc, page):
    with pytest.raises(scantext.QueryError, match=r'"range" \[0, 99999\] is outside the page text'):
        page.text_in_range(0, 99999)
    with pytest.raises(scantext.QueryError, match=r"there is no page 5 \(the document has 1\)") as e:
        doc.request("text", page=5, range=[0, 1])
    assert e.value.request == {"op": "text", "page": 5, "range": [0, 1]}
    assert not isinstance(e.value, scantext.ServerError)
    with pytest.raises(scantext.QueryError, match="unknown op 'bogus' \\(expected text, rects"):
        doc.request("bogus")
    with pytest.raises(scantext.QueryError, match="granularity"):
        page.enclosing(0, "chapter")
    assert page.text_in_range(0, 5) == "Notes"


def test_a_request_json_cannot_carry_is_a_query_error_and_the_session_goes_on(doc, page):
    # NaN was sent as the bare token NaN (the server answered "invalid
    # JSON at byte 31"); a lone surrogate raised UnicodeEncodeError, not a
    # QueryError (hostile sweep, 2026-12-07).
    with pytest.raises(scantext.QueryError, match="cannot be sent as JSON") as e:
        doc.request("text", range=[float("nan"), 1])
    assert not isinstance(e.value, scantext.ServerError)
    with pytest.raises(scantext.QueryError, match="cannot be sent as JSON"):
        page.find("\ud800")
    assert page.text_in_range(0, 5) == "Notes"


def test_bad_files_name_the_file_and_the_reason(tmp_path, monkeypatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    with pytest.raises(scantext.ServerError, match="missing.json: no such file"):
        scantext.Document.open(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1, "pages": [')
    with pytest.raises(scantext.ServerError, match="broken.json") as e:
        with scantext.Document.open(broken) as doc:
            doc.page_count()
    assert "exit 1" in str(e.value)
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    with pytest.raises(scantext.ServerError, match="notes.png"):
        scantext.ocr(text)
    assert not list(temporary.iterdir())  # no temporary model left behind


def test_other_formats_and_images_open_through_one_json_model(model, tmp_path, root):
    hocr = tmp_path / "headings.hocr"
    scantext._server.run(["convert", model, hocr])
    with scantext.Document.open(model) as original, scantext.Document.open(hocr) as converted:
        a, b = original.pages[0], converted.pages[0]
        assert b.text == a.text
        assert [w.bbox for w in b.words()] == [w.bbox for w in a.words()]
        assert [h.text for h in b.headings()] == [h.text for h in a.headings()]
        temporary = converted.path.parent
    assert not temporary.exists()  # closed: the temporary model is gone


def test_a_thousand_requests_keep_memory_flat(doc, page):
    lines = page.lines()

    def mixed(i):
        line = lines[i % len(lines)]
        page.text_in_range(*line.range)
        page.hit(line.bbox[0] + 5, line.bbox[1] + 5)
        page.selection_rects(*line.range)
        page.find("the")
        page.boundary(line.range[0], "word")

    for i in range(40):  # warm up: caches, first allocations
        mixed(i)
    gc.collect()
    client, server = rss_kb(), rss_kb(doc.server_pid)
    start = time.monotonic()
    for i in range(200):  # 1,000 requests
        mixed(i)
    elapsed = time.monotonic() - start
    gc.collect()
    client_growth, server_growth = rss_kb() - client, rss_kb(doc.server_pid) - server
    print(f"1000 requests in {elapsed:.2f} s; RSS growth client {client_growth} KB, "
          f"server {server_growth} KB")
    assert client_growth < 1024
    assert server_growth < 4096


def test_a_killed_server_raises_a_clear_error_and_never_hangs(model):
    doc = scantext.Document.open(model, timeout=10)
    page = doc.pages[0]
    assert page.text_in_range(0, 5) == "Notes"
    os.kill(doc.server_pid, signal.SIGKILL)
    start = time.monotonic()
    with pytest.raises(scantext.ServerError, match=r"headings.json .*\(killed by signal 9\)"):
        page.text_in_range(0, 5)
    with pytest.raises(scantext.ServerError, match="killed by signal 9"):
        page.lines()  # and every later request, at once
    assert time.monotonic() - start < 5
    doc.close()


def test_a_hung_server_is_killed_after_the_timeout(model):
    doc = scantext.Document.open(model, timeout=1)
    pid = doc.server_pid
    doc.pages  # started and answering
    os.kill(pid, signal.SIGSTOP)
    start = time.monotonic()
    with pytest.raises(scantext.ServerError, match=r"did not answer 'text' within 1 s \(killed\)"):
        doc.pages[0].text_in_range(0, 5)
    assert time.monotonic() - start < 5
    assert not alive(pid)
    doc.close()


def test_the_server_ends_with_the_document(model):
    with scantext.Document.open(model) as doc:
        pid = doc.server_pid
        assert alive(pid)
    assert not alive(pid)
    with pytest.raises(scantext.ServerError, match="closed"):
        doc.page_count()
    doc = scantext.Document.open(model)
    pid = doc.server_pid
    doc.page_count()
    del doc
    gc.collect()
    assert not alive(pid)


def test_the_binary_comes_from_scantext(monkeypatch, tmp_path):
    monkeypatch.setenv("SCANTEXT", str(tmp_path / "nothing"))
    with pytest.raises(scantext.ServerError, match="SCANTEXT=.*nothing is not an executable file"):
        scantext.find_binary()


def test_ocr_takes_options_and_reads_the_page(root):
    with scantext.ocr(root / "Scans" / "clean.png", no_preprocess=True, lang="eng") as doc:
        page = doc.pages[0]
        assert page.text.startswith("The town library")
        assert page.find("library")[0].text == "library"
        assert page.draw()[:4] == b"\x89PNG"
        folder = doc.path.parent
    assert not folder.exists()


def test_one_bad_input_loses_no_other_page(root, tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    good = root / "Scans" / "clean.png"
    with pytest.raises(scantext.ServerError, match=r"\(exit 1\): Error: .*bad.png: not a supported image"):
        scantext.ocr([good, bad])
    with scantext.ocr([good, bad], partial=True) as doc:
        assert len(doc.errors) == 1 and "bad.png: not a supported image" in doc.errors[0]
        assert doc.page_count() == 1
        assert doc.pages[0].text.startswith("The town library")
    with scantext.ocr(good) as doc:
        assert doc.errors == []


def test_a_compact_model_opens_page_by_page(model, tmp_path):
    stm = tmp_path / "headings.stm"
    scantext._server.run(["convert", model, stm])
    with scantext.Document.open(model) as json_doc, scantext.Document.open(stm) as compact:
        assert compact.path == stm  # served as it is, not converted
        a, b = json_doc.pages[0], compact.pages[0]
        assert b.model() == a.model()
        assert b.text == a.text and b.words() == a.words()
        assert b.selection_rects(0, 12) == a.selection_rects(0, 12)
    # A damaged page is the server's error, naming it; the session goes on.
    data = bytearray(stm.read_bytes())
    data[len(data) - 60] ^= 0x01  # inside the page (the table and trailer are 56 bytes)
    damaged = tmp_path / "damaged.stm"
    damaged.write_bytes(bytes(data))
    with scantext.Document.open(damaged) as doc:
        assert doc.page_count() == 1
        with pytest.raises(scantext.QueryError, match="page 1: damaged"):
            doc.pages[0].text_in_range(0, 5)
        assert doc.page_count() == 1


def test_a_truncated_compact_model_fails_to_open(model, tmp_path):
    stm = tmp_path / "headings.stm"
    scantext._server.run(["convert", model, stm])
    truncated = tmp_path / "truncated.stm"
    truncated.write_bytes(stm.read_bytes()[:2000])
    with pytest.raises(scantext.ServerError, match=r"truncated\.stm: .*truncated"):
        scantext.Document.open(truncated)


def test_paths_starting_with_a_dash_are_files_not_options(root, model, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-page.png").write_bytes((root / "Scans" / "clean.png").read_bytes())
    (tmp_path / "-model.json").write_bytes(model.read_bytes())
    with scantext.ocr("-page.png") as doc:
        assert doc.pages[0].text.startswith("The town library")
    with scantext.Document.open("-model.json") as doc:
        assert doc.page_count() == 1
        doc.pages[0].draw(path="-drawn.png")
    assert (tmp_path / "-drawn.png").read_bytes()[:4] == b"\x89PNG"
