from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.compare_report import CompareReport
from ...models.compare_request import CompareRequest
from ...models.job import Job
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    body: CompareRequest,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
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

    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match

    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/compare".format(file_path=quote(str(file_path), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | CompareReport | Job | Problem | None:
    if response.status_code == 200:
        response_200 = CompareReport.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | CompareReport | Job | Problem]:
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
    body: CompareRequest,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CompareReport | Job | Problem]:
    """ Compare the document with another document or a kept version

     The document (or versionId, one of its kept versions) against `with` (the base): pages paired by
    content, so a moved page is reported as moved and inserted and deleted pages as such; a word-level
    text diff and a pixel diff (regions as boxes) of each pair that differs. Accept application/json (or
    XML) answers the CompareReport; Accept application/pdf the document with inserted words highlighted,
    changed regions framed and summary pages in front. Neither document is changed. The ETag names both
    versions and the options: If-None-Match answers 304. Prefer: respond-async (or either document
    larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a background job whose result file is the answer
    as negotiated (202 and the Job).

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        body (CompareRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CompareReport | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,
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
    body: CompareRequest,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | CompareReport | Job | Problem | None:
    """ Compare the document with another document or a kept version

     The document (or versionId, one of its kept versions) against `with` (the base): pages paired by
    content, so a moved page is reported as moved and inserted and deleted pages as such; a word-level
    text diff and a pixel diff (regions as boxes) of each pair that differs. Accept application/json (or
    XML) answers the CompareReport; Accept application/pdf the document with inserted words highlighted,
    changed regions framed and summary pages in front. Neither document is changed. The ETag names both
    versions and the options: If-None-Match answers 304. Prefer: respond-async (or either document
    larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a background job whose result file is the answer
    as negotiated (202 and the Job).

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        body (CompareRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CompareReport | Job | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    body: CompareRequest,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CompareReport | Job | Problem]:
    """ Compare the document with another document or a kept version

     The document (or versionId, one of its kept versions) against `with` (the base): pages paired by
    content, so a moved page is reported as moved and inserted and deleted pages as such; a word-level
    text diff and a pixel diff (regions as boxes) of each pair that differs. Accept application/json (or
    XML) answers the CompareReport; Accept application/pdf the document with inserted words highlighted,
    changed regions framed and summary pages in front. Neither document is changed. The ETag names both
    versions and the options: If-None-Match answers 304. Prefer: respond-async (or either document
    larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a background job whose result file is the answer
    as negotiated (202 and the Job).

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        body (CompareRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CompareReport | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,
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
    body: CompareRequest,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | CompareReport | Job | Problem | None:
    """ Compare the document with another document or a kept version

     The document (or versionId, one of its kept versions) against `with` (the base): pages paired by
    content, so a moved page is reported as moved and inserted and deleted pages as such; a word-level
    text diff and a pixel diff (regions as boxes) of each pair that differs. Accept application/json (or
    XML) answers the CompareReport; Accept application/pdf the document with inserted words highlighted,
    changed regions framed and summary pages in front. Neither document is changed. The ETag names both
    versions and the options: If-None-Match answers 304. Prefer: respond-async (or either document
    larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a background job whose result file is the answer
    as negotiated (202 and the Job).

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        body (CompareRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CompareReport | Job | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,
if_none_match=if_none_match,

    )).parsed
