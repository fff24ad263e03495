from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.export_document_format import ExportDocumentFormat
from ...models.export_document_response_200 import ExportDocumentResponse200
from ...models.job import Job
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    format_: ExportDocumentFormat | Unset = UNSET,
    page_range: str | Unset = UNSET,
    table: int | Unset = UNSET,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(prefer, Unset):
        headers["prefer"] = prefer

    if not isinstance(x_service_webhook_url, Unset):
        headers["x-service-webhook-url"] = x_service_webhook_url

    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params["pageRange"] = page_range

    params["table"] = table

    params["versionId"] = version_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/export".format(file_path=quote(str(file_path), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ExportDocumentResponse200 | Job | Problem | None:
    if response.status_code == 200:
        response_200 = ExportDocumentResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())



        return response_202

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if 400 <= response.status_code <= 499:
        response_4xx = Problem.from_dict(response.json())



        return response_4xx

    if 500 <= response.status_code <= 599:
        response_5xx = Problem.from_dict(response.json())



        return response_5xx

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ExportDocumentResponse200 | Job | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportDocumentFormat | Unset = UNSET,
    page_range: str | Unset = UNSET,
    table: int | Unset = UNSET,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ExportDocumentResponse200 | Job | Problem]:
    """ Export the document (or some pages) as JSON, Markdown, HTML, DOCX, XLSX or CSV

     The text of the document in reading order as blocks: headings (by font size and weight), paragraphs
    (lines joined, hyphenation at line ends undone), list items, tables (rows and cells) and image
    placeholders; running headers, footers and page numbers left out. ?format= (json, markdown, html,
    docx) or, without it, Accept (application/json, text/markdown, text/html,
    application/vnd.openxmlformats-officedocument.wordprocessingml.document) chooses the format. DOCX is
    a flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header
    row, images in place, a page break per PDF page, links; its warnings (images left out, pages without
    text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") exports some pages. Pages
    without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document
    was opened with its user password. format=xlsx: every table a sheet (numbers as numbers, header row
    bold and frozen); format=csv: one table (?table=N, 1-based, default the first; RFC 4180, UTF-8); no
    table is 422 NO_TABLES. ETag and If-None-Match (304) by document version and options; a repeated
    export is answered from a cache. Prefer: respond-async (or more than 100 pages exported) runs it as
    a job whose result file is the export. See docs/export.md for the JSON schema and what is lost.

    Args:
        file_path (str):
        format_ (ExportDocumentFormat | Unset):
        page_range (str | Unset):
        table (int | Unset):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ExportDocumentResponse200 | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
format_=format_,
page_range=page_range,
table=table,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportDocumentFormat | Unset = UNSET,
    page_range: str | Unset = UNSET,
    table: int | Unset = UNSET,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ExportDocumentResponse200 | Job | Problem | None:
    """ Export the document (or some pages) as JSON, Markdown, HTML, DOCX, XLSX or CSV

     The text of the document in reading order as blocks: headings (by font size and weight), paragraphs
    (lines joined, hyphenation at line ends undone), list items, tables (rows and cells) and image
    placeholders; running headers, footers and page numbers left out. ?format= (json, markdown, html,
    docx) or, without it, Accept (application/json, text/markdown, text/html,
    application/vnd.openxmlformats-officedocument.wordprocessingml.document) chooses the format. DOCX is
    a flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header
    row, images in place, a page break per PDF page, links; its warnings (images left out, pages without
    text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") exports some pages. Pages
    without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document
    was opened with its user password. format=xlsx: every table a sheet (numbers as numbers, header row
    bold and frozen); format=csv: one table (?table=N, 1-based, default the first; RFC 4180, UTF-8); no
    table is 422 NO_TABLES. ETag and If-None-Match (304) by document version and options; a repeated
    export is answered from a cache. Prefer: respond-async (or more than 100 pages exported) runs it as
    a job whose result file is the export. See docs/export.md for the JSON schema and what is lost.

    Args:
        file_path (str):
        format_ (ExportDocumentFormat | Unset):
        page_range (str | Unset):
        table (int | Unset):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ExportDocumentResponse200 | Job | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
format_=format_,
page_range=page_range,
table=table,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportDocumentFormat | Unset = UNSET,
    page_range: str | Unset = UNSET,
    table: int | Unset = UNSET,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ExportDocumentResponse200 | Job | Problem]:
    """ Export the document (or some pages) as JSON, Markdown, HTML, DOCX, XLSX or CSV

     The text of the document in reading order as blocks: headings (by font size and weight), paragraphs
    (lines joined, hyphenation at line ends undone), list items, tables (rows and cells) and image
    placeholders; running headers, footers and page numbers left out. ?format= (json, markdown, html,
    docx) or, without it, Accept (application/json, text/markdown, text/html,
    application/vnd.openxmlformats-officedocument.wordprocessingml.document) chooses the format. DOCX is
    a flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header
    row, images in place, a page break per PDF page, links; its warnings (images left out, pages without
    text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") exports some pages. Pages
    without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document
    was opened with its user password. format=xlsx: every table a sheet (numbers as numbers, header row
    bold and frozen); format=csv: one table (?table=N, 1-based, default the first; RFC 4180, UTF-8); no
    table is 422 NO_TABLES. ETag and If-None-Match (304) by document version and options; a repeated
    export is answered from a cache. Prefer: respond-async (or more than 100 pages exported) runs it as
    a job whose result file is the export. See docs/export.md for the JSON schema and what is lost.

    Args:
        file_path (str):
        format_ (ExportDocumentFormat | Unset):
        page_range (str | Unset):
        table (int | Unset):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ExportDocumentResponse200 | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
format_=format_,
page_range=page_range,
table=table,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportDocumentFormat | Unset = UNSET,
    page_range: str | Unset = UNSET,
    table: int | Unset = UNSET,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ExportDocumentResponse200 | Job | Problem | None:
    """ Export the document (or some pages) as JSON, Markdown, HTML, DOCX, XLSX or CSV

     The text of the document in reading order as blocks: headings (by font size and weight), paragraphs
    (lines joined, hyphenation at line ends undone), list items, tables (rows and cells) and image
    placeholders; running headers, footers and page numbers left out. ?format= (json, markdown, html,
    docx) or, without it, Accept (application/json, text/markdown, text/html,
    application/vnd.openxmlformats-officedocument.wordprocessingml.document) chooses the format. DOCX is
    a flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header
    row, images in place, a page break per PDF page, links; its warnings (images left out, pages without
    text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") exports some pages. Pages
    without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document
    was opened with its user password. format=xlsx: every table a sheet (numbers as numbers, header row
    bold and frozen); format=csv: one table (?table=N, 1-based, default the first; RFC 4180, UTF-8); no
    table is 422 NO_TABLES. ETag and If-None-Match (304) by document version and options; a repeated
    export is answered from a cache. Prefer: respond-async (or more than 100 pages exported) runs it as
    a job whose result file is the export. See docs/export.md for the JSON schema and what is lost.

    Args:
        file_path (str):
        format_ (ExportDocumentFormat | Unset):
        page_range (str | Unset):
        table (int | Unset):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ExportDocumentResponse200 | Job | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
format_=format_,
page_range=page_range,
table=table,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_none_match=if_none_match,

    )).parsed
