"""The Python beside the shell examples of docs/getting-started.md, jobs.md, ocr.md, pdfa.md, pages.md, signing.md,
stamps.md, outline.md, metadata.md, compare.md, page-numbers.md, page-layout.md, merge-split.md, html.md, accessibility.md and export.md, and the principal calls of the pages that show none (annotations.md, forms.md, redaction.md,
permissions.md, optimize.md, pipelines.md, pages-edit.md and office.md, after the stamp). The pages quote this file verbatim;
test/clients/python.test.ts runs it against a started service with the built wheel, in a folder holding q1.pdf,
letter.png, minutes.docx, claim.pdf (a form) and jane.p12."""
import os
import time
from pathlib import Path

from pdfservice_client import PdfService

client = PdfService(os.environ.get("PDF_URL", "http://127.0.0.1:8080"))
client.login(os.environ.get("PDF_USER", "admin"), os.environ["PDF_PASSWORD"])
# What the pages' set-up blocks store: a report, a scanned page, a contract with an empty signature field
for folder in ("reports/2026", "scans", "archive", "contracts", "start"):
    client.create_folder(folder)
client.upload("reports/2026/q1.pdf", Path("q1.pdf"))
client.upload("scans/letter.pdf", Path("letter.png"))
client.upload("archive/contract.pdf", Path("q1.pdf"))
client.upload("contracts/c1.pdf", Path("q1.pdf"))
client.upload("reports/2026/annex.pdf", Path("q1.pdf"))
client.create_folder("forms")
client.upload("forms/claim.pdf", Path("claim.pdf"))
client.request("PUT", "/documents/contracts/c1.pdf/fields/signature-fields/approval",
               json={"widget": [{"pageIndex": 0, "rectangle": {"x": 100, "y": 100, "width": 200, "height": 50}}]})

# The scan converted to PDF and OCR'd in one request (nothing stored), stored, signed in a new field, downloaded
letter = client.convert(("letter.png", Path("letter.png")), [{"OCRAction": {"language": "eng"}}])
client.upload("start/letter.pdf", letter.content, content_type="application/pdf")
client.sign("start/letter.pdf", "approval", Path("jane.p12"), {"keystorePassword": "secret", "signReason": "Approved", "createField": True})
Path("letter.pdf").write_bytes(client.download("start/letter.pdf"))

# An action started as a job (202), its events followed over Server-Sent Events to the end
flatten = client.action("reports/2026/q1.pdf", {"FlattenAnnotationsAction": {"savePath": "archive/q1-flat.pdf"}}, prefer="respond-async")
for event in client.follow_job(flatten.job):
    print("job", event.event, event.job["state"])

# OCR: a job by default; prefer="wait=300" waits for its end (done() follows the job if it took longer)
ocr = client.page_action("scans/letter.pdf", {"OCRAction": {"language": "eng", "savePath": "scans/letter-ocr.pdf"}}, prefer="wait=300")
print("OCR:", client.done(ocr)["path"])
Path("letter-ocr.pdf").write_bytes(client.download("scans/letter-ocr.pdf"))

# Is it PDF/A-2b? veraPDF's verdict, with every failed rule; then a PDF/A-2b copy
verdict = client.request("GET", "/documents/archive/contract.pdf/preflight-results", params={"profile": "pdfa2b"}).json()
print("PDF/A-2b:", "true" if verdict["compliant"] else "false")
pdfa = client.action("archive/contract.pdf", {"PDFAConvertAction": {"profile": "pdfa2b", "savePath": "archive/contract-pdfa.pdf"}}, prefer="wait=120")
print("PDF/A copy:", client.done(pdfa)["path"])

# The pages, the document's text (as pdftotext gives it), a page drawn as a PNG
pages = client.request("GET", "/documents/reports/2026/q1.pdf/pages").json()
print("pages:", len(pages["pages"]))
Path("q1.txt").write_text(client.request("GET", "/documents/reports/2026/q1.pdf/text", headers={"Accept": "text/plain"}).text)
Path("page1.png").write_bytes(client.request("GET", "/documents/reports/2026/q1.pdf/pages/0/image", params={"dpi": 150}).content)

# Sign the field "approval" with a PKCS#12 key store
field = client.sign("contracts/c1.pdf", "approval", Path("jane.p12"), {"keystorePassword": "secret", "signReason": "Approved"})
print("signed by", field["signature"]["signerCommonName"])

# A text stamp on every page (ImageStampAction takes its image in a multipart body: docs/stamps.md)
client.page_action("reports/2026/q1.pdf", {
    "TextStampAction": {"text": "CONFIDENTIAL", "x": 150, "y": 300, "fontSize": 60, "color": 16711680, "rotation": 45, "transparency": 0.6},
})
Path("q1-stamped.pdf").write_bytes(client.download("reports/2026/q1.pdf"))

# Annotations imported from XFDF (a note named note-1 on the first page), then listed by subtype
xfdf = """<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>
  <text name="note-1" page="0" rect="500,700,520,720" title="Jane Doe"><contents>Check the totals</contents></text>
</annots></xfdf>"""
client.request("POST", "/documents/reports/2026/q1.pdf/annotations/content", content=xfdf, headers={"Content-Type": "application/vnd.adobe.xfdf"})
notes = client.request("GET", "/documents/reports/2026/q1.pdf/annotations", params={"subtype": "text"}).json()
print("notes:", ", ".join(a["name"] for a in notes["annotations"]))

# Redaction: mark every match of a term, then apply: the text is removed, verified, and reported
marked = client.request("POST", "/documents/reports/2026/annex.pdf/annotations/redaction", json={"searchText": "page 2", "overlayText": "[redacted]"})
print("marked:", marked.json()["count"])
client.action("reports/2026/annex.pdf", {"ApplyRedactionsAction": {}})
Path("annex-redacted.pdf").write_bytes(client.download("reports/2026/annex.pdf"))

# Protect a document with an open password (AES-256), then read it with that password
client.request("PUT", "/documents/archive/contract.pdf/permissions/password-permissions",
               json={"openPassword": "open-me", "permissionsPassword": "owner-only", "extractTextAllowed": False})
print("encrypted:", "true" if client.document("archive/contract.pdf", password="open-me")["encrypted"] else "false")

# Bookmarks: replace the outline with a chapter and a section below it, then read it back
client.request("PUT", "/documents/reports/2026/q1.pdf/outline",
               json={"items": [{"title": "Summary", "open": True, "destination": {"pageIndex": 0},
                                "children": [{"title": "Figures", "destination": {"pageIndex": 1, "fit": "FitH", "top": 500}}]}]})
print("bookmarks:", client.request("GET", "/documents/reports/2026/q1.pdf/outline").json()["itemCount"])

# Metadata: title and author written into the Info dictionary and the XMP packet together, then read back
client.request("PATCH", "/documents/reports/2026/q1.pdf/metadata",
               json={"title": "Quarterly report", "author": "Zoë Brontë"}, headers={"Content-Type": "application/merge-patch+json"})
print("title:", client.request("GET", "/documents/reports/2026/q1.pdf/metadata").json()["title"])

# Attachments: a CSV embedded in the document (its media type and description in the query), then listed and read back
client.request("PUT", "/documents/reports/2026/q1.pdf/attachments/figures.csv", content=b"quarter;revenue\nQ1;1200\n",
               params={"mediaType": "text/csv", "description": "Quarterly figures"}, headers={"Content-Type": "application/octet-stream"})
attached = client.request("GET", "/documents/reports/2026/q1.pdf/attachments").json()["attachments"]
figures = client.request("GET", "/documents/reports/2026/q1.pdf/attachments/figures.csv").text
print("attachments:", ", ".join(a["name"] for a in attached), figures.split("\n")[1])

# Sanitize into a copy to hand out: scripts, embedded files, outside links and metadata removed, the result re-read and verified
sanitized = client.action("reports/2026/q1.pdf", {"SanitizeAction": {"metadata": True, "savePath": "public/q1.pdf"}})
print("sanitized:", client.done(sanitized)["path"])

# Compare: the report against the sanitized copy (pages paired by content; words and pixels diffed)
compared = client.request("POST", "/documents/reports/2026/q1.pdf/compare", json={"with": {"filePath": "public/q1.pdf"}}).json()
print("compared: changed", compared["summary"]["changedPages"], "inserted", compared["summary"]["insertedPages"], "deleted", compared["summary"]["deletedPages"])

# Optimize by a profile into a copy; the answer's report gives the sizes (never larger: nothing written then)
optimized = client.action("reports/2026/q1.pdf", {"OptimizeAction": {"profileName": "ebook", "savePath": "small/q1.pdf"}})
print("optimized:", client.done(optimized)["path"])

# A pipeline saved (every PUT a new version), then run on the report into a copy: all its steps, one write
client.request("PUT", "/pipelines/house-style", json={"steps": [
    {"TextStampAction": {"text": "CONFIDENTIAL", "x": 72, "y": 40}}, {"PageNumbersAction": {"format": "Page {n} of {total}"}},
]})
piped = client.action("reports/2026/q1.pdf", {"PipelineAction": {"name": "house-style", "savePath": "archive/q1-house.pdf"}})
print("pipeline:", client.done(piped)["path"])

# A watched folder bound to that pipeline: a document arriving in it runs once, as a job, its output in another folder
client.create_folder("watched-in")
client.request("PUT", "/watched-folders/inbox", json={"folder": "watched-in", "pipeline": {"name": "house-style"}, "target": "watched-out"})
client.upload("watched-in/q1.pdf", Path("q1.pdf"))
runs = []
for _ in range(120):
    runs = client.request("GET", "/watched-folders/inbox").json()["runs"]
    if runs and runs[0]["state"] in ("succeeded", "failed"):
        break
    time.sleep(1)
print("watched folder run:", runs[0]["state"])

# Page structure: pages of another stored document inserted after the first, one page turned, two extracted
client.page_action("reports/2026/q1.pdf", {"InsertUploadedPagesAction": {"appendFilePath": "reports/2026/annex.pdf", "pageRange": "1-2", "pageIndex": 1}})
client.page_action("reports/2026/q1.pdf", {"RotatePagesAction": {"pageRange": "2", "rotation": 90}})
summary = client.page_action("reports/2026/q1.pdf", {"ExtractPagesAction": {"pageRange": "1-2", "savePath": "reports/2026/summary.pdf"}})
print("summary:", summary.document["pageCount"], "pages")

# Split: the two-page summary into single pages in a folder of their own, one answer listing them
parts = client.request("POST", "/documents/reports/2026/summary.pdf/pages",
                       json={"SplitDocumentAction": {"everyPages": 1, "folder": "reports/2026/summary-pages"}}).json()
print("split:", " ".join(d["path"] for d in parts["documents"]))

# Page numbers at the bottom centre, then the blank pages listed (dryRun: nothing removed)
client.page_action("reports/2026/q1.pdf", {"PageNumbersAction": {"format": "Page {n} of {total}", "fontSize": 9}})
blank = client.page_action("reports/2026/q1.pdf", {"RemoveBlankPagesAction": {"dryRun": True}})
print("blank pages:", blank.document["report"]["removed"])
# Bates numbers across a set: the summary, then its two single pages, one sequence (each written in place, all or nothing)
bates = client.page_action("reports/2026/summary.pdf", {"PageNumbersAction": {"prefix": "ACME-", "digits": 6, "position": "bottom-right",
    "documents": [{"filePath": "reports/2026/summary-pages/summary-1.pdf"}, {"filePath": "reports/2026/summary-pages/summary-2.pdf"}]}}).document["report"]
print("bates:", bates["first"], "to", bates["last"], "next set from", bates["lastNumber"] + 1)
Path("summary-2-bates.pdf").write_bytes(client.download("reports/2026/summary-pages/summary-2.pdf"))

# Page layout: four pages to an A4 sheet into a new document, and a booklet of the report
handout = client.page_action("reports/2026/q1.pdf", {"NUpAction": {"perSheet": 4, "paperSize": "A4", "border": True, "savePath": "reports/2026/q1-4up.pdf"}})
print("handout:", handout.document["pageCount"], "sheets")
client.page_action("reports/2026/q1.pdf", {"BookletAction": {"savePath": "reports/2026/q1-booklet.pdf"}})

# Merge: this report, then the annex's first two pages, into a new document with a table of contents in front
merged = client.action("reports/2026/q1.pdf", {"MergeDocumentsAction": {"sources": [{"filePath": "reports/2026/annex.pdf", "pageRange": "1-2"}], "tableOfContents": True, "savePath": "reports/2026/q1-with-annex.pdf"}})
print("merged:", merged.document["pageCount"], "pages")

# A Word file converted on upload with an option: PDF/A-2b written by LibreOffice, checked by veraPDF; wait for its job
minutes = client.upload("reports/2026/minutes.pdf", Path("minutes.docx"), prefer="wait=120", params={"pdfa": "pdfa2b"})
Path("minutes-pdfa.pdf").write_bytes(client.download(client.done(minutes)["path"]))

# Form fields: list them, set one, export the field data as XFDF, flatten into a copy
form = client.request("GET", "/documents/forms/claim.pdf/fields").json()
print("fields:", len(form["fields"]))
client.request("PUT", "/documents/forms/claim.pdf/fields/person.name", json={"value": "Jane Doe"})
Path("claim.xfdf").write_text(client.request("GET", "/documents/forms/claim.pdf/fields/content", params={"exportEmptyFields": "true"}).text)
client.action("forms/claim.pdf", {"FlattenFieldsAction": {"savePath": "forms/claim-flat.pdf"}})

# Versions: every write kept one; list the form's, read the first (the upload) and restore it as a new version
history = client.request("GET", "/documents/forms/claim.pdf/versions").json()
first = history["versions"][-1]
Path("claim-first.pdf").write_bytes(client.request("GET", "/documents/forms/claim.pdf", params={"versionId": first["id"]}).content)
client.request("POST", f"/documents/forms/claim.pdf/versions/{first['id']}/restore")
print("versions:", history["total"], "restored:", first["operation"])

# HTML and Markdown printed by the service's offline Chromium: a tagged A4 PDF titled by its first heading
markdown = "# Quarterly report\n\n| Region | Revenue |\n|---|---:|\n| North | 1,200 |\n"
printed = client.upload("reports/2026/report.pdf", markdown.encode(), content_type="text/markdown", params={"language": "en"})
page = '<!DOCTYPE html><html lang="en"><head><title>Invoice 42</title></head><body><h1>Invoice 42</h1><p>Total due: 120 EUR</p></body></html>'
client.upload("reports/2026/invoice.pdf", page.encode(), content_type="text/html", params={"paperSize": "A5", "pdfa": "pdfa2b"})
print("printed", client.done(printed)["path"])

# Accessibility: the printed report checked against PDF/UA-1 by veraPDF (docs/accessibility.md)
ua = client.request("GET", "/documents/reports/2026/report.pdf/preflight-results", params={"profile": "pdfua1"}).json()
print("PDF/UA-1:", "true" if ua["compliant"] else "false")

# Export: the report read back as Markdown (docs/export.md); format=json and format=html work alike
exported = client.request("GET", "/documents/reports/2026/report.pdf/export", params={"format": "markdown"}).text
print("exported:", exported.split("\n")[0])

# The secret this user's webhooks are signed with (docs/webhooks.md), then a new one in its place
me = os.environ.get("PDF_USER", "admin")
webhook_secret = client.request("GET", f"/users/{me}/webhook-secret").json()["secret"]
rotated_secret = client.request("POST", f"/users/{me}/webhook-secret").json()["secret"]
print("webhook secret rotated:", "yes" if webhook_secret != rotated_secret else "no")
