"""The Python client against a started service (test/clients/python.test.ts starts it and runs these with the built
wheel): an API token, an image upload, the generated API, and problems as PdfServiceError.
PDF_URL, PDF_USER and PDF_PASSWORD name the service and its admin."""
import base64
import os

import pytest

from pdfservice_client import PdfService, PdfServiceError
from pdfservice_client.generated.api.tokens import create_token
from pdfservice_client.generated.models import CreateTokenJsonBody, CreateTokenJsonBodyRightsItem

URL = os.environ["PDF_URL"]
PNG_16 = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAA1BMVEXMMzN0dFbYAAAADUlEQVQY02NgGAXIAAABEAAB7JfjegAAAABJRU5ErkJggg==")


@pytest.fixture(scope="module")
def admin():
    with PdfService(URL) as client:
        client.login(os.environ["PDF_USER"], os.environ["PDF_PASSWORD"])
        yield client


@pytest.fixture(scope="module")
def scripted(admin):
    rights = [CreateTokenJsonBodyRightsItem(r) for r in ("GET", "PUT", "POST")]
    created = create_token.sync(client=admin.api, body=CreateTokenJsonBody(name="python client test", rights=rights))
    with PdfService(URL, token=created.token) as client:
        yield client


def test_a_token_signs_in(scripted):
    me = scripted.whoami()
    assert me.username == os.environ["PDF_USER"]
    assert me.via == "token"


def test_an_image_uploads_as_a_pdf(scripted):
    scripted.create_folder("py/images")
    result = scripted.upload("py/images/logo.pdf", PNG_16, file_name="logo.png")
    assert result.status == 201
    assert result.location == "/pdfservice/v1/documents/py/images/logo.pdf"
    assert result.document["pageCount"] == 1


def test_a_4xx_is_a_typed_error(scripted):
    with pytest.raises(PdfServiceError) as caught:
        scripted.upload("py/images/bad.pdf", b"not a pdf", content_type="application/pdf")
    err = caught.value
    assert (err.status, err.code) == (422, "MALFORMED_PDF")
    assert err.detail and err.request_id
    assert err.problem["instance"] == "/pdfservice/v1/documents/py/images/bad.pdf"


def test_a_right_the_token_lacks_is_a_typed_error(scripted):
    with pytest.raises(PdfServiceError) as caught:
        scripted.delete("py/images/logo.pdf")
    assert (caught.value.status, caught.value.code) == (403, "FORBIDDEN")
    assert caught.value.problem["requiredRight"] == "DELETE"


def test_a_bundle_of_a_page_and_its_image_is_printed(scripted):
    # An HTML page with its image as an asset part is printed by the service's Chromium (docs/html.md).
    page = scripted.upload_form("py/images", ("page.html", b'<!DOCTYPE html><title>Logo</title><img src="logo.png" alt="Logo">'), assets=[("logo.png", PNG_16)])
    assert page.status == 201
    assert page.document["pageCount"] == 1


def test_a_bundle_no_converter_takes_is_refused_with_the_reason(scripted):
    # A bundle whose main file is an image: no converter takes that as a bundle (docs/api.md#bundles): 415.
    with pytest.raises(PdfServiceError) as caught:
        scripted.upload_form("py/images", ("scan.png", PNG_16), assets=[("logo.png", PNG_16)])
    assert caught.value.code == "UNSUPPORTED_MEDIA_TYPE"


def test_logging_out_ends_the_session():
    with PdfService(URL) as client:
        client.login(os.environ["PDF_USER"], os.environ["PDF_PASSWORD"])
        client.logout()
        with pytest.raises(PdfServiceError) as caught:
            client.whoami()
        assert (caught.value.status, caught.value.code) == (401, "AUTHENTICATION_REQUIRED")
