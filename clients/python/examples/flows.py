"""The common flows of docs/api.md ("Clients") and the README, with the Python client. The docs quote this file
verbatim; test/clients/python.test.ts runs it against a started service with the built wheel, in a folder holding
q1.pdf and minutes.docx."""
import os
from pathlib import Path

from pdfservice_client import PdfService, PdfServiceError

# Sign in: a session (login), or an API token (PdfService(base_url, token=...))
client = PdfService(os.environ.get("PDF_URL", "http://127.0.0.1:8080"))
session = client.login(os.environ.get("PDF_USER", "admin"), os.environ["PDF_PASSWORD"])
print("signed in as", session.username)

# Upload a PDF, and a Word file that the service converts (done() follows the conversion's job, if it became one)
client.create_folder("reports/2026")
q1 = client.upload("reports/2026/q1.pdf", Path("q1.pdf"))
print("q1.pdf:", q1.document["pageCount"], "pages")
minutes = client.upload_form("reports/2026", ("minutes.docx", Path("minutes.docx")), naming_mode=1)
print("minutes.pdf:", client.done(minutes)["pageCount"], "pages")

# Run an action as a background job and follow its events (Server-Sent Events) to the end
stamp = client.page_action("reports/2026/q1.pdf", {"TextStampAction": {"text": "APPROVED", "x": 72, "y": 72}}, prefer="respond-async")
for event in client.follow_job(stamp.job):
    print("job", event.event, event.job["state"], f"{event.job['progress']['percent']}%")

# Download a document
Path("q1-approved.pdf").write_bytes(client.download("reports/2026/q1.pdf"))

# Errors are PdfServiceError: the problem document's code, status and detail (docs/errors.md)
try:
    client.document("reports/2026/missing.pdf")
except PdfServiceError as err:
    print("error", err.status, err.code, err.detail)
