"""The Python side of issue 43's export bench (bench/export.ts), run in .venv-bench (bench/export-requirements.txt).

    python bench/export-tools.py serve          the peers that are Python libraries, kept loaded: one JSON request a
                                                line on stdin ({"tool": "pdf2docx"|"pymupdf4llm", "pdf", "out"}), one
                                                answer a line on stdout ({"ms"} or {"error"}); the time is the call's
                                                alone (the interpreter and its imports are started once, untimed)
    python bench/export-tools.py selfcheck DIR  scores the corpus' own Word sources (export-corpus.py's, written again)
                                                against the truth in DIR: every figure must be perfect, or the DOCX
                                                reading below is wrong (exits 1 naming the document)
    python bench/export-tools.py score FILE     scores outputs against the corpus' truth: FILE is a JSON list of
                                                {"doc", "tool", "kind": "json"|"markdown"|"text"|"docx", "file",
                                                "truth"}; prints a JSON list of the same with their figures

The figures of one output (docs: bench/README.md, "Export"):
- table cells: a cell counts when its text (whitespace collapsed) is in the same row and column of a table matched to
  the truth's (rows and columns that are empty throughout left out of both first; each truth table matched to the
  output table sharing most such cells, each output table used once). Precision over every non-empty cell of every
  output table, recall over the truth's cells; F1 of the two.
- text similarity: the words (lower case, letters and digits) of the headings, paragraphs and list items in the
  output's order, outside its tables, against the truth's: 1 - normalized Levenshtein distance over words (order
  counts: columns read across, or a running header in the flow, cost), and the word F1 (order ignored).
- paragraphs whole: the share of the truth's paragraphs that come back as one unit of the output (a DOCX paragraph or
  text box, a JSON block, a Markdown block) with a character similarity of 90% or more: a paragraph split into a text
  box per line, or merged with the next, does not.
- headings: the share of the truth's headings the output marks as headings (a Heading style, `#`, a heading block).
- text boxes (DOCX): DrawingML text boxes (`wps:txbx`, the VML fallback of the same box not counted again) and framed
  paragraphs (`w:framePr`).
"""

import json
import re
import sys
import time
import zipfile
from collections import Counter

from lxml import etree
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
NS = {"w": W, "mc": MC, "wps": WPS}


def clean(text):
    return re.sub(r"\s+", " ", text.replace("\u00ad", "").replace("\u00a0", " ")).strip()


def words(text):
    # A soft hyphen is invisible: Chromium's PDFs keep every one in their text (`inter\u00adnational`), not only at a
    # line's end, where a visible hyphen follows it.
    return re.findall(r"[^\W_]+", text.replace("\u00ad", "").lower())


# Each reader answers {"units": [(kind, text)] in reading order (kind "h" for a heading), "tables": [rows of cells],
# "textBoxes": n or None}.


def read_json(path):
    with open(path, encoding="utf-8") as file:
        model = json.load(file)
    units, tables = [], []
    for page in model["pages"]:
        for block in page["blocks"]:
            if block["type"] == "table":
                tables.append([[cell["text"] for cell in row] for row in block["rows"]])
            elif block["type"] in ("heading", "paragraph", "listItem"):
                units.append(("h" if block["type"] == "heading" else "p", block["text"]))
    return {"units": units, "tables": tables, "textBoxes": None}


def unescape_markdown(text):
    text = re.sub(r"<br\s*/?>", " ", text)
    text = re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`", "", text)
    return re.sub(r"\\(.)", r"\1", text)


def read_markdown(path):
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    units, tables, block, table = [], [], [], None

    def flush():
        if block:
            units.append(("p", unescape_markdown(" ".join(block))))
            block.clear()

    for raw in lines:
        line = raw.strip()
        if line.startswith("|"):
            flush()
            if re.fullmatch(r"\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?", line):
                continue
            cells = [unescape_markdown(c) for c in re.split(r"(?<!\\)\|", line.strip("|"))]
            if table is None:
                table = []
                tables.append(table)
            table.append(cells)
            continue
        table = None
        if not line or re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", line) or line.startswith("!["):
            flush()
            continue
        heading = re.match(r"#{1,6}\s+(.*)", line)
        item = re.match(r"([-*+]|\d+[.)])\s+(.*)", line)
        if heading:
            flush()
            units.append(("h", unescape_markdown(heading.group(1))))
        elif item:
            flush()
            block.append(item.group(2))
        else:
            block.append(line)
    flush()
    return {"units": units, "tables": tables, "textBoxes": None}


def read_text(path):
    """`pdftotext -layout`: blocks between blank lines, no headings, no tables (the form feed between pages a break)."""
    with open(path, encoding="utf-8") as file:
        text = file.read().replace("\f", "\n\n")
    units = [("p", " ".join(line.strip() for line in part.split("\n"))) for part in re.split(r"\n\s*\n", text) if part.strip()]
    return {"units": units, "tables": [], "textBoxes": None}


def inside(element, tag):
    parent = element.getparent()
    while parent is not None:
        if parent.tag == tag:
            return True
        parent = parent.getparent()
    return False


def own_text(paragraph):
    """A paragraph's text without that of the text boxes anchored in it (their paragraphs are units of their own)."""
    out = []
    for node in paragraph.iter(f"{{{W}}}t", f"{{{W}}}tab", f"{{{W}}}br"):
        holder = node.getparent()
        while holder is not None and holder.tag != f"{{{W}}}p":
            holder = holder.getparent()
        if holder is paragraph:
            out.append((node.text or "") if node.tag == f"{{{W}}}t" else " ")
    return "".join(out)


def read_docx(path):
    with zipfile.ZipFile(path) as archive:
        root = etree.fromstring(archive.read("word/document.xml"))
    body = root.find(f"{{{W}}}body")
    units, tables = [], []
    heading = re.compile(r"^(heading\s*\d|title)$", re.I)
    for element in body.iter(f"{{{W}}}p", f"{{{W}}}tbl"):
        if inside(element, f"{{{MC}}}Fallback"):
            continue
        if element.tag == f"{{{W}}}tbl":
            if inside(element, f"{{{W}}}tbl"):
                continue
            grid = []
            for row in element.findall(f"{{{W}}}tr"):
                cells = []
                for cell in row.findall(f"{{{W}}}tc"):
                    text = " ".join(own_text(p) for p in cell.findall(f"{{{W}}}p"))
                    span = cell.find(f"{{{W}}}tcPr/{{{W}}}gridSpan")
                    cells.append(text)
                    cells.extend([""] * (int(span.get(f"{{{W}}}val")) - 1 if span is not None else 0))
                grid.append(cells)
            tables.append(grid)
            continue
        if inside(element, f"{{{W}}}tbl"):
            continue
        text = own_text(element)
        if not text.strip():
            continue
        style = element.find(f"{{{W}}}pPr/{{{W}}}pStyle")
        outline = element.find(f"{{{W}}}pPr/{{{W}}}outlineLvl")
        is_heading = (style is not None and heading.match(style.get(f"{{{W}}}val", ""))) or outline is not None
        units.append(("h" if is_heading else "p", text))
    boxes = len(body.xpath(".//wps:txbx[not(ancestor::mc:Fallback)]", namespaces=NS))
    # VML text boxes written without a DrawingML choice (older writers) count too.
    boxes += len(body.xpath(".//w:pict//w:txbxContent[not(ancestor::mc:Fallback)]", namespaces=NS))
    boxes += len(body.xpath(".//w:pPr/w:framePr", namespaces=NS))
    return {"units": units, "tables": tables, "textBoxes": boxes}


READERS = {"json": read_json, "markdown": read_markdown, "text": read_text, "docx": read_docx}


def trimmed(grid):
    """A grid's cells as {(row, column): text}, rows and columns empty throughout left out."""
    grid = [[clean(cell) for cell in row] for row in grid]
    grid = [row for row in grid if any(row)]
    width = max((len(row) for row in grid), default=0)
    columns = [c for c in range(width) if any(c < len(row) and row[c] for row in grid)]
    return {(r, i): row[c] for r, row in enumerate(grid) for i, c in enumerate(columns) if c < len(row) and row[c]}


def table_counts(truth_tables, output_tables):
    truths = [trimmed(t) for t in truth_tables]
    outputs = [trimmed(t) for t in output_tables]
    shared = sorted(
        ((sum(1 for key, text in t.items() if o.get(key) == text), i, j) for i, t in enumerate(truths) for j, o in enumerate(outputs)),
        reverse=True,
    )
    used_truth, used_output, hits = set(), set(), 0
    for count, i, j in shared:
        if count and i not in used_truth and j not in used_output:
            used_truth.add(i)
            used_output.add(j)
            hits += count
    return {"hits": hits, "truthCells": sum(len(t) for t in truths), "outputCells": sum(len(o) for o in outputs)}


def f1(precision, recall):
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def score(entry):
    with open(entry["truth"], encoding="utf-8") as file:
        truth = json.load(file)
    out = READERS[entry["kind"]](entry["file"])
    cells = table_counts(truth["tables"], out["tables"])
    truth_words = [w for text in truth["body"] for w in words(text)]
    output_words = [w for _, text in out["units"] for w in words(text)]
    common = sum((Counter(truth_words) & Counter(output_words)).values())
    token_p = common / len(output_words) if output_words else 0.0
    token_r = common / len(truth_words) if truth_words else 0.0
    unit_texts = [clean(text) for _, text in out["units"]]
    whole = sum(1 for p in truth["paragraphs"] if process.extractOne(clean(p), unit_texts, scorer=fuzz.ratio, score_cutoff=90))
    output_headings = [clean(text) for kind, text in out["units"] if kind == "h"]
    found = sum(1 for h in truth["headings"] if process.extractOne(clean(h["text"]), output_headings, scorer=fuzz.ratio, score_cutoff=90))
    return {
        **entry,
        "pages": truth["pages"],
        "columns": truth["columns"],
        "cells": cells,
        "textSimilarity": Levenshtein.normalized_similarity(truth_words, output_words),
        "wordF1": f1(token_p, token_r),
        "paragraphs": len(truth["paragraphs"]),
        "paragraphsWhole": whole,
        "headings": len(truth["headings"]),
        "headingsFound": found,
        "outputHeadings": len(output_headings),
        "textBoxes": out["textBoxes"],
    }


def serve():
    import warnings

    warnings.filterwarnings("ignore")
    import logging

    logging.disable(logging.WARNING)
    import pymupdf4llm
    from pdf2docx import Converter

    for line in sys.stdin:
        request = json.loads(line)
        try:
            started = time.perf_counter()
            if request["tool"] == "pdf2docx":
                converter = Converter(request["pdf"])
                converter.convert(request["out"])
                converter.close()
            elif request["tool"] == "pymupdf4llm":
                markdown = pymupdf4llm.to_markdown(request["pdf"])
                with open(request["out"], "w", encoding="utf-8") as file:
                    file.write(markdown)
            else:
                raise ValueError(f"unknown tool {request['tool']}")
            answer = {"ms": (time.perf_counter() - started) * 1000}
        except Exception as error:  # noqa: BLE001 - a failure is the peer's answer, reported and not fatal
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.__stdout__.write(json.dumps(answer) + "\n")
        sys.__stdout__.flush()


def selfcheck(corpus):
    import importlib.util
    import os
    import tempfile

    spec = importlib.util.spec_from_file_location("export_corpus", os.path.join(os.path.dirname(__file__), "export-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bad = []
    with tempfile.TemporaryDirectory() as work:
        for plan in module.DOCX_PLANS:
            source = os.path.join(work, plan["name"] + ".docx")
            module.write_docx(plan, source)
            r = score({"doc": plan["name"], "tool": "source", "kind": "docx", "file": source, "truth": os.path.join(corpus, plan["name"] + ".truth.json")})
            cells = r["cells"]
            perfect = (
                cells["hits"] == cells["truthCells"] == cells["outputCells"]
                and r["textSimilarity"] == 1.0
                and r["paragraphsWhole"] == r["paragraphs"]
                and r["headingsFound"] == r["headings"]
                and r["textBoxes"] == 0
            )
            print(f"{plan['name']}: {'ok' if perfect else 'NOT PERFECT ' + json.dumps(r)}")
            if not perfect:
                bad.append(plan["name"])
    if bad:
        raise SystemExit(f"selfcheck: the sources of {', '.join(bad)} do not score perfectly")


def main():
    if sys.argv[1] == "selfcheck":
        selfcheck(sys.argv[2])
    elif sys.argv[1] == "serve":
        # The libraries print progress on stdout: only the answers go there.
        sys.stdout = sys.stderr
        serve()
    elif sys.argv[1] == "score":
        with open(sys.argv[2], encoding="utf-8") as file:
            entries = json.load(file)
        print(json.dumps([score(entry) for entry in entries]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
