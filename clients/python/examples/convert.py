"""One-shot conversions (``POST /convert``, docs/api.md "One-shot conversions") with the Python client: nothing
stored. The docs quote this file verbatim; test/clients/python.test.ts runs it against a started service with the
built wheel, in a folder holding minutes.docx and scan.jpg."""
import os
from pathlib import Path

from pdfservice_client import PdfService, PdfServiceError

client = PdfService(os.environ.get("PDF_URL", "http://127.0.0.1:8080"))
client.login(os.environ.get("PDF_USER", "admin"), os.environ["PDF_PASSWORD"])

# DOCX -> PDF -> PDF/A-2b -> optimized, in one request; the result is the answer
minutes = client.convert(("minutes.docx", Path("minutes.docx")), [
    {"PDFAConvertAction": {"profile": "pdfa2b"}},
    {"OptimizeAction": {"profileName": "lossless"}},
])
Path("minutes.pdf").write_bytes(minutes.content)
print("converted", minutes.name, minutes.media_type)

# A scanned image -> PDF -> stamped, as a job: followed over SSE to its end, then its result downloaded
scan = client.convert(("scan.jpg", Path("scan.jpg")), [
    {"TextStampAction": {"text": "RECEIVED", "x": 72, "y": 72}},
], prefer="respond-async")
Path("scan.pdf").write_bytes(scan.content)
print("job", scan.job["state"], scan.name)

# A step the service refuses is a PdfServiceError, before any work
try:
    client.convert(("minutes.docx", Path("minutes.docx")), [{"OptimizeAction": {"profileName": "no-such-profile"}}])
except PdfServiceError as err:
    print("error", err.status, err.code)
