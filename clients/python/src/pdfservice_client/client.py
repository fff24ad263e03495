"""The pdfservice client: the API generated from the service's OpenAPI description by openapi-python-client
(``PdfService.api``, with a module per operation under ``pdfservice_client.generated.api``), and what generation does not give:
signing in and keeping the session, uploads of every kind, following a job to its end over Server-Sent Events, and
one exception for problem documents. README.md beside this package says how to use it."""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, BinaryIO, Union
from urllib.parse import quote, unquote

import httpx

from .generated.api.jobs import get_job
from .generated.api.sessions import get_current_session, login, logout
from .generated.client import Client
from .generated.models.login_json_credentials import LoginJsonCredentials
from .generated.models.session_model import SessionModel
from .errors import PdfServiceError
from .generated.types import Response
from .sse import parse_events

API_PREFIX = "/pdfservice/v1"

#: Bytes to send: bytes, a path to a file, or a binary file object.
FileData = Union[bytes, bytearray, str, PathLike, BinaryIO]

#: Media types by file extension, for uploads whose type is not given (the PUT media types of the description).
MEDIA_TYPES = {
    "pdf": "application/pdf",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "png": "image/png",
    "tif": "image/tiff",
    "tiff": "image/tiff",
    "gif": "image/gif",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "dotx": "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
    "docm": "application/vnd.ms-word.document.macroenabled.12",
    "odt": "application/vnd.oasis.opendocument.text",
    "fodt": "application/vnd.oasis.opendocument.text-flat-xml",
    "rtf": "application/rtf",
    "txt": "text/plain",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "xlsm": "application/vnd.ms-excel.sheet.macroenabled.12",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "fods": "application/vnd.oasis.opendocument.spreadsheet-flat-xml",
    "csv": "text/csv",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "pptm": "application/vnd.ms-powerpoint.presentation.macroenabled.12",
    "odp": "application/vnd.oasis.opendocument.presentation",
    "fodp": "application/vnd.oasis.opendocument.presentation-flat-xml",
}

_ENDED = {"succeeded", "failed", "cancelled", "interrupted"}


def media_type_of(file_name: str) -> str:
    """The media type for a file name; ``application/octet-stream`` (the service recognises the content) otherwise."""
    extension = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    return MEDIA_TYPES.get(extension) or mimetypes.guess_type(file_name)[0] or "application/octet-stream"


def _encode_path(server_path: str) -> str:
    """A server path (``reports/2026/q1.pdf``) as URL path segments, each percent-encoded once."""
    return "/".join(quote(segment, safe="") for segment in server_path.lstrip("/").split("/"))


def _read(data: FileData) -> bytes:
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    if isinstance(data, (str, PathLike)):
        return Path(data).read_bytes()
    return data.read()


def _job_id(job: Mapping[str, Any] | str) -> str:
    """A job's id from the job, its id, or its URL (the ``Location`` of a 202)."""
    if not isinstance(job, str):
        return str(job["id"])
    return job.rstrip("/").rsplit("/", 1)[-1]


def _raise_for(response: Response[Any]) -> None:
    """A generated operation's answer that is a problem raises it (the generated code returns it as a value)."""
    if response.status_code >= 400:
        raise PdfServiceError.from_response(httpx.Response(response.status_code, content=response.content, headers=response.headers))


@dataclass
class WriteResult:
    """What a write answered: the document (200/201), or the job it became (202). ``PdfService.done()`` gives the
    document in both cases."""

    status: int
    location: str | None
    document: dict[str, Any] | None = None
    job: dict[str, Any] | None = None


@dataclass
class ConvertResult:
    """What a one-shot conversion gave: the result's bytes, name (``minutes.pdf`` for ``minutes.docx``) and media
    type, and the job when it ran as one."""

    content: bytes
    name: str | None
    media_type: str
    job: dict[str, Any] | None = None


#: A file to send: ``(name, data)`` or ``(name, data, media type)``.
FilePart = Union[tuple[str, FileData], tuple[str, FileData, str]]


def _part(file: FilePart) -> tuple[str, bytes, str]:
    name, data = file[0], file[1]
    return (name, _read(data), file[2] if len(file) > 2 else media_type_of(name))  # type: ignore[misc]


def _disposition_name(header: str | None) -> str | None:
    """The file name of a ``Content-Disposition`` (RFC 6266): ``filename*`` when there is one, else ``filename``."""
    if not header:
        return None
    extended = re.search(r"filename\*\s*=\s*UTF-8''([^;\s]+)", header, re.IGNORECASE)
    if extended:
        return unquote(extended.group(1))
    quoted = re.search(r'filename\s*=\s*"((?:[^"\\]|\\.)*)"', header, re.IGNORECASE)
    if quoted:
        return re.sub(r"\\(.)", r"\1", quoted.group(1))
    plain = re.search(r"filename\s*=\s*([^;\s]+)", header, re.IGNORECASE)
    return plain.group(1) if plain else None


@dataclass
class JobEvent:
    """One event of ``GET /jobs/{id}/events``: its number, its kind (``state``, ``progress``, ``end``) and the job."""

    id: str
    event: str
    job: dict[str, Any] = field(default_factory=dict)


class PdfService:
    """A client of one service. ``base_url`` is where it is (``http://localhost:8080``); sign in with ``login()``,
    an API ``token`` or ``basic=(user, password)``."""

    def __init__(self, base_url: str, *, token: str | None = None, basic: tuple[str, str] | None = None, timeout: float = 120.0) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        httpx_args: dict[str, Any] = {"auth": basic} if basic else {}
        #: The generated client: pass it as ``client=`` to any operation of ``pdfservice_client.api``.
        self.api = Client(base_url=base_url.rstrip("/"), headers=headers, timeout=httpx.Timeout(timeout), httpx_args=httpx_args)

    @property
    def http(self) -> httpx.Client:
        """The httpx client underneath (it keeps the session cookie)."""
        return self.api.get_httpx_client()

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "PdfService":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    @staticmethod
    def _check(response: httpx.Response) -> httpx.Response:
        if response.status_code >= 400:
            raise PdfServiceError.from_response(response)
        return response

    def request(self, method: str, api_path: str, **kwargs: Any) -> httpx.Response:
        """A request outside the generated client (uploads, downloads): the same credentials, the same errors."""
        return self._check(self.http.request(method, API_PREFIX + api_path, **kwargs))

    # --- Signing in ---------------------------------------------------------------------------------------------

    def login(self, username: str, password: str) -> SessionModel:
        """Logs in (``POST /sessions``); the session cookie is sent from then on."""
        response = login.sync_detailed(client=self.api, body=LoginJsonCredentials(username=username, password=password))
        _raise_for(response)
        assert isinstance(response.parsed, SessionModel)
        return response.parsed

    def whoami(self) -> SessionModel:
        """Who the credentials in use belong to (``GET /sessions/current``)."""
        response = get_current_session.sync_detailed(client=self.api)
        _raise_for(response)
        assert isinstance(response.parsed, SessionModel)
        return response.parsed

    def logout(self) -> None:
        """Logs out (``DELETE /sessions/current``) and forgets the credentials."""
        response = logout.sync_detailed(client=self.api)
        _raise_for(response)
        self.http.cookies.clear()
        self.http.headers.pop("Authorization", None)

    def use_token(self, token: str) -> None:
        """Sends an API token from now on (``Authorization: Bearer``)."""
        self.http.headers["Authorization"] = f"Bearer {token}"

    # --- Documents and folders ----------------------------------------------------------------------------------

    def create_folder(self, folder_path: str) -> None:
        """Creates a folder (and its parents), ``PUT /documents/{folderPath}``."""
        self.request("PUT", f"/documents/{_encode_path(folder_path)}")

    def upload(self, document_path: str, data: FileData, *, content_type: str | None = None, file_name: str | None = None,
               prefer: str | None = None, if_match: str | None = None, params: Mapping[str, Any] | None = None) -> WriteResult:
        """Stores a document at ``document_path`` (``reports/q1.pdf``), ``PUT /documents/{filePath}.pdf``: a PDF as it
        is, an image or an Office file converted (docs/api.md, "Documents"). The type is ``content_type``, else
        guessed from ``file_name`` (a path given as ``data`` names itself), else from the document path."""
        name = file_name or (str(data) if isinstance(data, (str, PathLike)) else document_path)
        headers = {"Content-Type": content_type or media_type_of(name), **self._write_headers(prefer, if_match)}
        response = self.request("PUT", f"/documents/{_encode_path(document_path)}", content=_read(data), headers=headers, params=params)
        return self._write_result(response)

    def upload_form(self, folder_path: str, file: FilePart, *, naming_mode: int | None = None,
                    assets: list[FilePart] | None = None, prefer: str | None = None, params: Mapping[str, Any] | None = None) -> WriteResult:
        """Stores a file into a folder by form (``POST /documents/{folderPath}``, multipart), named after the file
        (``memo.docx`` becomes ``memo.pdf``). ``file`` is ``(name, data)`` or ``(name, data, type)``; ``assets`` go as
        the parts of a bundle (docs/api.md#bundles); ``naming_mode`` 0 fails on an existing name (409), 1
        overwrites, 2 appends a random number."""
        parts = [("file", _part(file))] + [("asset", _part(asset)) for asset in assets or []]
        query = dict(params or {})
        if naming_mode is not None:
            query["namingMode"] = naming_mode
        response = self.request("POST", f"/documents/{_encode_path(folder_path)}", files=parts, headers=self._write_headers(prefer, None), params=query)
        return self._write_result(response)

    def action(self, document_path: str, action: Mapping[str, Any], *, prefer: str | None = None, if_match: str | None = None) -> WriteResult:
        """Runs a document action (``POST /documents/{filePath}.pdf`` with ``{"ActionName": {...}}``)."""
        response = self.request("POST", f"/documents/{_encode_path(document_path)}", json=dict(action), headers=self._write_headers(prefer, if_match))
        return self._write_result(response)

    def page_action(self, document_path: str, action: Mapping[str, Any], *, prefer: str | None = None, if_match: str | None = None) -> WriteResult:
        """Runs a page action (``POST /documents/{filePath}.pdf/pages``)."""
        response = self.request("POST", f"/documents/{_encode_path(document_path)}/pages", json=dict(action), headers=self._write_headers(prefer, if_match))
        return self._write_result(response)

    def convert(self, file: FilePart, steps: list[Mapping[str, Any]] | None = None, *, assets: list[FilePart] | None = None,
                attachments: list[FilePart] | None = None, prefer: str | None = None, password: str | None = None,
                params: Mapping[str, Any] | None = None) -> ConvertResult:
        """Converts without storing anything (``POST /convert``, docs/api.md "One-shot conversions"): ``file`` (a PDF,
        an image, an Office document; ``(name, data)`` or ``(name, data, type)``) converted to PDF, then ``steps`` run
        on it in order (``[{"PDFAConvertAction": {"profile": "pdfa2b"}}, {"OptimizeAction": {"profileName":
        "lossless"}}]``), the result answered. ``assets`` are a bundle's other files, ``attachments`` the steps' own
        files (an ``ImageStampAction``'s image); ``params`` the Office options. When it runs as a job (202:
        ``prefer="respond-async"``, or large files), the job is followed over SSE to its end and its result
        downloaded (``GET /jobs/{id}/result``); a step the service refuses, or a job that failed, raises
        PdfServiceError."""
        parts: list[tuple[str, Any]] = [("file", _part(file))]
        parts += [("asset", _part(asset)) for asset in assets or []]
        if steps:
            parts.append(("steps", (None, json.dumps(list(steps)), "application/json")))
        parts += [("attachment", _part(attachment)) for attachment in attachments or []]
        headers = {**self._write_headers(prefer, None), "Accept": "application/pdf, application/json"}
        if password is not None:
            headers["X-Service-DocumentPassword"] = password
        response = self.request("POST", "/convert", files=parts, headers=headers, params=params)
        if response.status_code != 202:
            return self._file_of(response)
        job = self.wait_for_job(response.json())
        result = self._file_of(self.request("GET", f"/jobs/{quote(str(job['id']), safe='')}/result"))
        result.job = job
        return result

    @staticmethod
    def _file_of(response: httpx.Response) -> ConvertResult:
        media_type = response.headers.get("content-type", "application/octet-stream").split(";")[0].strip()
        return ConvertResult(response.content, _disposition_name(response.headers.get("content-disposition")), media_type)

    def sign(self, document_path: str, field_name: str, keystore: FileData, signature: Mapping[str, Any], *,
             if_match: str | None = None, password: str | None = None) -> dict[str, Any]:
        """Signs the signature field ``field_name`` with a PKCS#12 key store (``POST
        /documents/{filePath}.pdf/fields/signature-fields/{fieldName}/signature``, docs/signing.md); ``signature`` holds
        its options (``keystorePassword``, ``signReason``, ``createField`` to make an invisible field, ...). Answers
        the field."""
        parts = [("signature", (None, json.dumps(dict(signature)), "application/json")),
                 ("file", ("keystore.p12", _read(keystore), "application/x-pkcs12"))]
        headers = self._write_headers(None, if_match)
        if password is not None:
            headers["X-Service-DocumentPassword"] = password
        field_path = f"{_encode_path(document_path)}/fields/signature-fields/{quote(field_name, safe='')}/signature"
        return self.request("POST", f"/documents/{field_path}", files=parts, headers=headers).json()

    def document(self, document_path: str, *, password: str | None = None) -> dict[str, Any]:
        """The document model (``GET /documents/{filePath}.pdf`` with ``Accept: application/json``)."""
        headers = {"Accept": "application/json"}
        if password is not None:
            headers["X-Service-DocumentPassword"] = password
        return self.request("GET", f"/documents/{_encode_path(document_path)}", headers=headers).json()

    def download(self, document_path: str) -> bytes:
        """The document's bytes (``GET /documents/{filePath}.pdf``)."""
        return self.request("GET", f"/documents/{_encode_path(document_path)}", headers={"Accept": "application/pdf"}).content

    def delete(self, document_path: str, *, if_match: str | None = None) -> None:
        """Deletes a document (``DELETE /documents/{filePath}.pdf``)."""
        self.request("DELETE", f"/documents/{_encode_path(document_path)}", headers={"If-Match": if_match} if if_match else {})

    @staticmethod
    def _write_headers(prefer: str | None, if_match: str | None) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if prefer:
            headers["Prefer"] = prefer
        if if_match:
            headers["If-Match"] = if_match
        return headers

    @staticmethod
    def _write_result(response: httpx.Response) -> WriteResult:
        body = response.json() if response.content else None
        location = response.headers.get("location")
        if response.status_code == 202:
            return WriteResult(202, location, job=body)
        return WriteResult(response.status_code, location, document=body)

    def done(self, result: WriteResult) -> dict[str, Any]:
        """The document a write made: at once when it ran inline, else after following its job to the end. A job
        that failed raises its problem as PdfServiceError."""
        if result.document is not None:
            return result.document
        if result.job is None:
            raise ValueError(f"the answer ({result.status}) holds neither a document nor a job")
        return dict(self.wait_for_job(result.job).get("result", {}).get("document") or {})

    # --- Jobs ---------------------------------------------------------------------------------------------------

    def job(self, job: Mapping[str, Any] | str) -> dict[str, Any]:
        """A job as it stands (``GET /jobs/{id}``)."""
        response = get_job.sync_detailed(_job_id(job), client=self.api)
        _raise_for(response)
        return json.loads(response.content)

    def follow_job(self, job: Mapping[str, Any] | str) -> Iterator[JobEvent]:
        """The job's events as they happen (``GET /jobs/{id}/events``, Server-Sent Events), until its ``end`` event. A
        stream cut before the end is opened again with ``Last-Event-ID``, so no event is lost or repeated."""
        job_id = _job_id(job)
        last_event_id: str | None = None
        failures = 0
        while failures < 5:
            headers = {"Accept": "text/event-stream"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            # The service sends a heartbeat every 15 s: a read waits longer than that, not for the whole job.
            with self.http.stream("GET", f"{API_PREFIX}/jobs/{quote(job_id, safe='')}/events", headers=headers,
                                  timeout=httpx.Timeout(60.0)) as response:
                if response.status_code >= 400:
                    response.read()
                    raise PdfServiceError.from_response(response)
                failures += 1
                for message in parse_events(response.iter_lines()):
                    if not message.data:
                        continue
                    failures = 0
                    last_event_id = message.id or last_event_id
                    event = JobEvent(message.id or "", message.event, json.loads(message.data))
                    yield event
                    if event.event == "end":
                        return
        raise RuntimeError(f"the events of job {job_id} ended before its end event")

    def wait_for_job(self, job: Mapping[str, Any] | str) -> dict[str, Any]:
        """Follows the job to its end and answers it; a job that failed, was cancelled or interrupted raises its
        problem as PdfServiceError."""
        last: dict[str, Any] | None = None
        for event in self.follow_job(job):
            last = event.job
        if last is None or last.get("state") not in _ENDED:
            last = self.job(job)
        if last["state"] != "succeeded":
            error = last.get("error") or {"status": 500, "code": f"JOB_{str(last['state']).upper()}", "title": f"The job {last['state']}", "detail": last.get("reason")}
            raise PdfServiceError(error)
        return last
