"""Tables and Markdown through the package: ``Page.tables`` and
``Document.markdown`` (issue 44, point 6)."""

import json

import scantext


def test_a_page_without_tables_has_none_and_its_markdown_has_its_headings(doc, page):
    assert page.tables() == []
    text = doc.markdown()
    assert text.startswith("# Notes from the Archive\n\n## Scanning the Ledgers\n\n")
    assert text.endswith("\n") and "\n\n\n" not in text


def test_the_ruled_table_reads_cell_by_cell(root, tmp_path):
    model = tmp_path / "ruled-table.json"
    scantext._server.run(["ocr", "-q", "-o", model, root / "Scans" / "ruled-table.png"])
    with scantext.Document.open(model) as document:
        tables = document.pages[0].tables()
        assert len(tables) == 1
        table = tables[0]
        assert (table.index, table.row_count, table.column_count) == (1, 8, 3)
        assert table.rows[0] == ["Item", "Amount", "Note"]
        assert table.rows[1] == ["Flour", "500 grams", "sifted twice"]
        flour = table.cells[3]
        assert (flour.row, flour.column, flour.row_span, flour.column_span) == (1, 0, 1, 1)
        assert flour.text == "Flour" and not flour.header
        page_text = document.pages[0].text
        assert page_text[flour.range[0]:flour.range[1]] == "Flour"
        x0, y0, x1, y1 = flour.bbox
        assert x0 < x1 and y0 < y1
        markdown = document.markdown()
        assert markdown.startswith(
            "| Item | Amount | Note |\n| --- | --- | --- |\n| Flour | 500 grams | sifted twice |\n")


def test_a_spanning_cell_keeps_its_text_at_its_first_place(tmp_path):
    def cell(text, row, column, x, column_span=1):
        line = {"bbox": [x, 10 + 40 * row, x + 50, 30 + 40 * row], "text": text,
                "words": [{"text": text, "bbox": [x, 10 + 40 * row, x + 50, 30 + 40 * row]}]}
        return {"bbox": line["bbox"], "role": "tableCell", "row": row, "column": column,
                "rowSpan": 1, "columnSpan": column_span, "lines": [line]}

    paragraphs = [cell("Year", 0, 0, 10), cell("Total", 0, 1, 110), cell("Lost", 1, 0, 10, 2)]
    model = {"version": 1, "pages": [{"width": 300, "height": 200, "blocks": [
        {"bbox": [10, 10, 160, 70], "paragraphs": paragraphs}]}]}
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    with scantext.Document.open(path) as document:
        table = document.pages[0].tables()[0]
        assert table.rows == [["Year", "Total"], ["Lost", ""]]
        assert table.cells[2].column_span == 2
        assert document.markdown() == (
            "<table>\n<tr><th>Year</th><th>Total</th></tr>\n"
            "<tr><td colspan=\"2\">Lost</td></tr>\n</table>\n")
