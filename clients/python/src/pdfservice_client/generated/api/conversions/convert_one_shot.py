from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.convert_one_shot_body import ConvertOneShotBody
from ...models.convert_one_shot_pdfa import ConvertOneShotPdfa
from ...models.job import Job
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: ConvertOneShotBody,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: ConvertOneShotPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

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



    

    params: dict[str, Any] = {}

    params["pageRange"] = page_range

    params["landscape"] = landscape

    params["sheet"] = sheet

    params["notesPages"] = notes_pages

    json_pdfa: str | Unset = UNSET
    if not isinstance(pdfa, Unset):
        json_pdfa = pdfa.value

    params["pdfa"] = json_pdfa

    params["tagged"] = tagged


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/convert",
        "params": params,
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Job | Problem | None:
    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Job | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConvertOneShotBody,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: ConvertOneShotPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Response[Job | Problem]:
    """ Convert files in one request, nothing stored

     multipart/form-data: the file to convert in the part "file" (its media type, or its name for
    application/octet-stream, picks the converter: a PDF as it is, images, Office documents), a bundle's
    other files in parts named "asset", and in the part "steps" a JSON array of actions run in order on
    the result (each as POST /documents/{filePath}.pdf takes it, without savePath or namingMode; at most
    20); other file parts are the actions' files (an image to stamp). The answer is the result
    (application/pdf). Nothing is written to the document store; the staged files are removed
    afterwards. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a
    background job whose result is a file (202 and the Job). Needs the POST right.

    Args:
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (ConvertOneShotPdfa | Unset):
        tagged (bool | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (ConvertOneShotBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ConvertOneShotBody,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: ConvertOneShotPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Job | Problem | None:
    """ Convert files in one request, nothing stored

     multipart/form-data: the file to convert in the part "file" (its media type, or its name for
    application/octet-stream, picks the converter: a PDF as it is, images, Office documents), a bundle's
    other files in parts named "asset", and in the part "steps" a JSON array of actions run in order on
    the result (each as POST /documents/{filePath}.pdf takes it, without savePath or namingMode; at most
    20); other file parts are the actions' files (an image to stamp). The answer is the result
    (application/pdf). Nothing is written to the document store; the staged files are removed
    afterwards. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a
    background job whose result is a file (202 and the Job). Needs the POST right.

    Args:
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (ConvertOneShotPdfa | Unset):
        tagged (bool | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (ConvertOneShotBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | Problem
     """


    return sync_detailed(
        client=client,
body=body,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConvertOneShotBody,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: ConvertOneShotPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Response[Job | Problem]:
    """ Convert files in one request, nothing stored

     multipart/form-data: the file to convert in the part "file" (its media type, or its name for
    application/octet-stream, picks the converter: a PDF as it is, images, Office documents), a bundle's
    other files in parts named "asset", and in the part "steps" a JSON array of actions run in order on
    the result (each as POST /documents/{filePath}.pdf takes it, without savePath or namingMode; at most
    20); other file parts are the actions' files (an image to stamp). The answer is the result
    (application/pdf). Nothing is written to the document store; the staged files are removed
    afterwards. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a
    background job whose result is a file (202 and the Job). Needs the POST right.

    Args:
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (ConvertOneShotPdfa | Unset):
        tagged (bool | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (ConvertOneShotBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ConvertOneShotBody,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: ConvertOneShotPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Job | Problem | None:
    """ Convert files in one request, nothing stored

     multipart/form-data: the file to convert in the part "file" (its media type, or its name for
    application/octet-stream, picks the converter: a PDF as it is, images, Office documents), a bundle's
    other files in parts named "asset", and in the part "steps" a JSON array of actions run in order on
    the result (each as POST /documents/{filePath}.pdf takes it, without savePath or namingMode; at most
    20); other file parts are the actions' files (an image to stamp). The answer is the result
    (application/pdf). Nothing is written to the document store; the staged files are removed
    afterwards. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a
    background job whose result is a file (202 and the Job). Needs the POST right.

    Args:
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (ConvertOneShotPdfa | Unset):
        tagged (bool | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (ConvertOneShotBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )).parsed
