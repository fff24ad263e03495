"""The ground-truth corpus of issue 43's export bench (bench/export.ts): documents with known content, printed to PDF.

    .venv-bench/bin/python bench/export-corpus.py OUT_DIR [--only NAME,NAME]

Writes into OUT_DIR, for each document NAME: NAME.pdf and NAME.truth.json (its headings with their levels, paragraphs,
list items, tables as rows of cell texts, and `body`: headings, paragraphs and list items in reading order). Two kinds:

- `docx-*`: Word documents built with python-docx (headings as Heading 1-3, justified paragraphs whose long words carry
  soft hyphens, so that lines end in a hyphen the text does not have, bulleted and numbered lists, tables with and
  without ruling lines, two-column sections, a running header and a footer with the page number), printed to PDF by
  LibreOffice (`soffice --convert-to pdf`, one process for all of them);
- `html-*`: HTML pages (the same elements, CSS columns, tables with and without borders), printed by Chromium
  (`chromium --headless --print-to-pdf`), two of them with Chromium's own running header and footer (date, title,
  address, page number), which the truth leaves out as any running line.

Deterministic: the same script gives the same documents (a seeded generator; only the PDFs' dates differ).
"""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from html import escape

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt, Twips

WORDS = (
    "the a of and to in for on with by from as at that this report market region customer revenue quarter growth "
    "service product team project budget forecast analysis result increase decrease cost price supply demand "
    "contract partner network system process quality delivery schedule review meeting decision strategy risk "
    "investment operation management department employee training office policy standard measure target value"
).split()
LONG_WORDS = (
    "international infrastructure responsibility documentation administration implementation organisation "
    "manufacturing communication recommendation environmental transportation representative independently "
    "consolidated requirements procurement sustainability"
).split()
SHY = "\u00ad"


class Text:
    """Seeded words, sentences and cell texts."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def sentence(self, low=8, high=18):
        words = [self.rng.choice(LONG_WORDS if self.rng.random() < 0.18 else WORDS) for _ in range(self.rng.randint(low, high))]
        return words[0].capitalize() + " " + " ".join(words[1:]) + "."

    def paragraph(self, sentences=(3, 6)):
        return " ".join(self.sentence() for _ in range(self.rng.randint(*sentences)))

    def heading(self):
        words = [self.rng.choice(WORDS + LONG_WORDS) for _ in range(self.rng.randint(2, 5))]
        return words[0].capitalize() + " " + " ".join(words[1:])

    def item(self):
        return self.sentence(3, 8).rstrip(".")

    def table(self, rows, cols):
        header = [self.rng.choice(["Region", "Product", "Item", "Team", "Account", "Site"])] + [
            f"{self.rng.choice(['Q', 'Week ', 'Plan ', 'Year '])}{c}" for c in range(1, cols)
        ]
        body = []
        for r in range(rows - 1):
            label = f"{self.rng.choice(WORDS).capitalize()} {self.rng.choice(['north', 'south', 'east', 'west', 'central'])} {r + 1}"
            body.append([label] + [f"{self.rng.randint(10, 9999):,}" for _ in range(cols - 1)])
        return [header] + body


def soft_hyphens(text):
    """Long words with a soft hyphen in the middle: a line that breaks there ends in a hyphen the text does not have."""
    return re.sub(r"\b([a-z]{5})([a-z]{4,})\b", lambda m: m.group(1) + SHY + m.group(2), text)


# The documents: a list of blocks each, ("h", level, text) ("p", text) ("ul"|"ol", [items]) ("table", rows, ruled).
# ("line",) is a paragraph of a few words (narrower than a table's first column), set with no space above or below it.
# Options: columns (1 or 2), header (a running header and page-number footer), spaced (False: no space after a Word
# table's cells and no empty paragraph after the table, so that its rows and the text under it are as close as lines).
def plan(name, seed, parts, columns=1, header=False, spaced=True):
    t = Text(seed)
    blocks = []
    for part in parts:
        kind, *args = part
        if kind == "h":
            blocks.append(("h", args[0], t.heading()))
        elif kind == "p":
            for _ in range(args[0] if args else 1):
                blocks.append(("p", t.paragraph()))
        elif kind == "line":
            blocks.append(("p", t.sentence(2, 3), "tight"))
        elif kind in ("ul", "ol"):
            blocks.append((kind, [t.item() for _ in range(args[0])]))
        elif kind == "table":
            rows, cols, ruled = args
            blocks.append(("table", t.table(rows, cols), ruled))
    return {"name": name, "blocks": blocks, "columns": columns, "header": header, "spaced": spaced}


def section(level=2, paras=2):
    return [("h", level), ("p", paras)]


DOCX_PLANS = [
    plan("docx-report-ruled", 1, [("h", 1), ("p", 2), ("ul", 4), *section(), ("table", 5, 4, True), ("p", 1), ("ol", 3)], header=True),
    plan("docx-report-unruled", 2, [("h", 1), ("p", 2), ("table", 6, 4, False), *section(), ("ul", 3)]),
    plan("docx-two-column", 3, [("h", 1), ("p", 3), *section(2, 3), ("ul", 4), *section(2, 3)], columns=2),
    plan("docx-two-column-table", 4, [("h", 1), ("p", 2), ("table", 4, 2, True), *section(2, 3), ("ol", 3), ("p", 2)], columns=2, header=True),
    plan("docx-long", 5, [("h", 1), ("p", 3), *section(2, 4), ("table", 8, 4, True), *section(2, 4), ("ul", 5), *section(3, 3), ("table", 6, 3, False), *section(2, 4)], header=True),
    plan("docx-lists", 6, [("h", 1), ("p", 1), ("ul", 6), ("p", 1), ("ol", 6), *section(2, 1), ("ul", 4)]),
    plan("docx-wide-table", 7, [("h", 1), ("p", 1), ("table", 10, 6, True), ("p", 1)]),
    plan("docx-wide-unruled", 8, [("h", 1), ("p", 1), ("table", 10, 5, False), ("p", 1)]),
    plan("docx-headings", 9, [("h", 1), ("p", 1), *section(2, 1), *section(3, 1), *section(3, 1), *section(2, 1), *section(3, 1)]),
    plan("docx-two-column-long", 10, [("h", 1), *section(2, 4), ("ul", 5), *section(2, 4), *section(2, 4), ("ol", 4), *section(2, 3)], columns=2, header=True),
    plan("docx-mixed", 11, [("h", 1), ("p", 1), ("table", 4, 3, True), ("p", 1), ("table", 4, 3, False), ("ul", 3), ("ol", 3), ("p", 1)], header=True),
    plan("docx-letter", 12, [("p", 6)]),
    # A one-line paragraph between two tables without rules, with no space above or below it (issue 43).
    plan("docx-between-tables", 13, [("h", 1), ("p", 1), ("table", 5, 3, False), ("line",), ("table", 4, 3, False), ("p", 1)], spaced=False),
]
HTML_PLANS = [
    plan("html-article", 21, [("h", 1), ("p", 2), ("ul", 3), *section(), ("ol", 3), ("table", 5, 3, True)]),
    plan("html-unruled-table", 22, [("h", 1), ("p", 1), ("table", 7, 4, False), ("p", 1)]),
    plan("html-two-column", 23, [("h", 1), ("p", 3), *section(2, 3), ("ul", 4), *section(2, 2)], columns=2),
    plan("html-invoice", 24, [("h", 1), ("p", 1), ("table", 9, 5, True), ("p", 1)]),
    plan("html-long", 25, [("h", 1), ("p", 3), *section(2, 4), ("table", 10, 4, True), *section(2, 4), ("ul", 5), *section(2, 4), *section(2, 3)], header=True),
    plan("html-lists", 26, [("h", 1), ("ul", 6), ("p", 1), ("ol", 6), *section(2, 1), ("ul", 3)]),
    plan("html-wide-table", 27, [("h", 1), ("table", 12, 6, True), ("p", 1)]),
    plan("html-mixed", 28, [("h", 1), ("p", 2), ("table", 4, 3, False), *section(2, 2), ("table", 5, 3, True), ("ol", 3)], header=True),
]


def truth(doc):
    """The truth of a plan: what an export should give back (without soft hyphens, running lines and page numbers)."""
    out = {"name": doc["name"], "columns": doc["columns"], "headings": [], "paragraphs": [], "listItems": [], "tables": [], "body": []}
    for block in doc["blocks"]:
        if block[0] == "h":
            out["headings"].append({"level": block[1], "text": block[2]})
            out["body"].append(block[2])
        elif block[0] == "p":
            out["paragraphs"].append(block[1])
            out["body"].append(block[1])
        elif block[0] in ("ul", "ol"):
            out["listItems"].extend(block[1])
            out["body"].extend(block[1])
        else:
            out["tables"].append(block[1])
    return out


def add_field(paragraph, instruction):
    field = OxmlElement("w:fldSimple")
    field.set(qn("w:instr"), instruction)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    field.append(run)
    paragraph._p.append(field)


def no_borders(table):
    """An explicit "no borders" on the table: python-docx's default template's plain table has none, said outright."""
    props = table._tbl.tblPr
    borders = OxmlElement("w:tblBorders")
    for edge in ("top", "left", "bottom", "right", "insideH", "insideV"):
        element = OxmlElement(f"w:{edge}")
        element.set(qn("w:val"), "nil")
        borders.append(element)
    props.append(borders)


def write_docx(doc, path):
    document = Document()
    style = document.styles["Normal"]
    style.font.name = "Liberation Serif"
    style.font.size = Pt(11)
    sec = document.sections[0]
    if doc["columns"] == 2:
        cols = sec._sectPr.xpath("./w:cols")
        element = cols[0] if cols else OxmlElement("w:cols")
        element.set(qn("w:num"), "2")
        element.set(qn("w:space"), "567")
        if not cols:
            sec._sectPr.append(element)
    if doc["header"]:
        sec.header.paragraphs[0].text = "Example Ltd - internal review"
        footer = sec.footer.paragraphs[0]
        footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
        footer.add_run("Page ")
        add_field(footer, "PAGE")
    for block in doc["blocks"]:
        if block[0] == "h":
            document.add_heading(block[2], level=block[1])
        elif block[0] == "p" and len(block) > 2:
            paragraph = document.add_paragraph(block[1])
            paragraph.paragraph_format.space_before = Pt(0)
            paragraph.paragraph_format.space_after = Pt(0)
        elif block[0] == "p":
            paragraph = document.add_paragraph(soft_hyphens(block[1]))
            paragraph.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
        elif block[0] in ("ul", "ol"):
            for item in block[1]:
                document.add_paragraph(item, style="List Bullet" if block[0] == "ul" else "List Number")
        else:
            rows, ruled = block[1], block[2]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            if doc["columns"] == 2:
                # python-docx sizes a table to the page's text width; in a column of a two-column section LibreOffice
                # then squeezes its last column to a few points and leaves its text out of the PDF. Sized to the column.
                width = (sec.page_width - sec.left_margin - sec.right_margin - Twips(567)) // 2 // len(rows[0])
                table.autofit = False
                for column in table.columns:
                    column.width = width
                    for cell in column.cells:
                        cell.width = width
            if ruled:
                table.style = "Table Grid"
            else:
                no_borders(table)
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    cell = table.cell(r, c)
                    cell.text = value
                    if not doc["spaced"]:
                        cell.paragraphs[0].paragraph_format.space_after = Pt(0)
                    if r == 0:
                        cell.paragraphs[0].runs[0].bold = True
            if doc["spaced"]:
                document.add_paragraph()
    document.save(path)


def write_html(doc, path):
    style = (
        "body { font-family: 'DejaVu Serif', serif; font-size: 11pt; margin: 0 }"
        " p { text-align: justify } table { border-collapse: collapse; margin: 10px 0 }"
        " td, th { padding: 3px 8px; text-align: left } table.ruled td, table.ruled th { border: 1px solid #000 }"
        + (" main { column-count: 2; column-gap: 24px }" if doc["columns"] == 2 else "")
    )
    parts = []
    for block in doc["blocks"]:
        if block[0] == "h":
            parts.append(f"<h{block[1]}>{escape(block[2])}</h{block[1]}>")
        elif block[0] == "p":
            parts.append(f"<p>{escape(soft_hyphens(block[1])).replace(SHY, '&shy;')}</p>")
        elif block[0] in ("ul", "ol"):
            parts.append(f"<{block[0]}>" + "".join(f"<li>{escape(i)}</li>" for i in block[1]) + f"</{block[0]}>")
        else:
            rows, ruled = block[1], block[2]
            head = "<tr>" + "".join(f"<th>{escape(v)}</th>" for v in rows[0]) + "</tr>"
            body = "".join("<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>" for row in rows[1:])
            parts.append(f"<table class=\"{'ruled' if ruled else 'plain'}\"><thead>{head}</thead><tbody>{body}</tbody></table>")
    with open(path, "w", encoding="utf-8") as out:
        out.write(
            f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{doc['name']}</title><style>{style}</style></head>"
            f"<body><main>{''.join(parts)}</main></body></html>"
        )


def page_count(pdf):
    info = subprocess.run(["pdfinfo", pdf], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def main():
    out = os.path.abspath(sys.argv[1])
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    pick = lambda plans: [p for p in plans if only is None or p["name"] in only]
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="pdfservice-export-corpus-")
    try:
        sources = []
        for doc in pick(DOCX_PLANS):
            sources.append(os.path.join(work, doc["name"] + ".docx"))
            write_docx(doc, sources[-1])
        if sources:
            subprocess.run(
                ["soffice", "--headless", "--norestore", f"-env:UserInstallation=file://{work}/profile", "--convert-to", "pdf", "--outdir", out, *sources],
                check=True, capture_output=True,
            )
        for doc in pick(HTML_PLANS):
            source = os.path.join(work, doc["name"] + ".html")
            write_html(doc, source)
            args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--print-to-pdf={os.path.join(out, doc['name'] + '.pdf')}"]
            if not doc["header"]:
                args.append("--no-pdf-header-footer")
            subprocess.run(args + [f"file://{source}"], check=True, capture_output=True, env={**os.environ, "HOME": work}, timeout=300)
        for doc in pick(DOCX_PLANS) + pick(HTML_PLANS):
            pdf = os.path.join(out, doc["name"] + ".pdf")
            record = truth(doc)
            record["source"] = "docx" if doc["name"].startswith("docx-") else "html"
            record["pages"] = page_count(pdf)
            with open(os.path.join(out, doc["name"] + ".truth.json"), "w", encoding="utf-8") as file:
                json.dump(record, file, indent=1, ensure_ascii=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
