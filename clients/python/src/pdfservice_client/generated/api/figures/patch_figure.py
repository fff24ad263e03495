from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.figure_model import FigureModel
from ...models.figure_patch import FigurePatch
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    index: str,
    *,
    body:    FigurePatch  |     FigurePatch  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/figures/{index}".format(file_path=quote(str(file_path), safe=""),index=quote(str(index), safe=""),),
    }

    if isinstance(body, FigurePatch):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/merge-patch+json"
    if isinstance(body, FigurePatch):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FigureModel | Problem | None:
    if response.status_code == 200:
        response_200 = FigureModel.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FigureModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    index: str,
    *,
    client: AuthenticatedClient | Client,
    body:    FigurePatch  |     FigurePatch  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[FigureModel | Problem]:
    """ Set or remove a figure's alternate text

     A JSON merge patch: alt (/Alt) and actualText (/ActualText), each a text that replaces it or null
    that removes it. 404 FIGURE_NOT_FOUND for an index that names no figure. Answers the figure. An
    ordinary write: If-Match (412), a new version, the document's lock; a signed document gets the
    change appended. Needs "change the document" with the user password. 409 DOCUMENT_NOT_TAGGED for a
    document without a structure tree (PDFUAConvertAction tags it). Nothing is written when nothing
    changes.

    Args:
        file_path (str):
        index (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FigureModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
index=index,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    index: str,
    *,
    client: AuthenticatedClient | Client,
    body:    FigurePatch  |     FigurePatch  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> FigureModel | Problem | None:
    """ Set or remove a figure's alternate text

     A JSON merge patch: alt (/Alt) and actualText (/ActualText), each a text that replaces it or null
    that removes it. 404 FIGURE_NOT_FOUND for an index that names no figure. Answers the figure. An
    ordinary write: If-Match (412), a new version, the document's lock; a signed document gets the
    change appended. Needs "change the document" with the user password. 409 DOCUMENT_NOT_TAGGED for a
    document without a structure tree (PDFUAConvertAction tags it). Nothing is written when nothing
    changes.

    Args:
        file_path (str):
        index (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FigureModel | Problem
     """


    return sync_detailed(
        file_path=file_path,
index=index,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    index: str,
    *,
    client: AuthenticatedClient | Client,
    body:    FigurePatch  |     FigurePatch  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[FigureModel | Problem]:
    """ Set or remove a figure's alternate text

     A JSON merge patch: alt (/Alt) and actualText (/ActualText), each a text that replaces it or null
    that removes it. 404 FIGURE_NOT_FOUND for an index that names no figure. Answers the figure. An
    ordinary write: If-Match (412), a new version, the document's lock; a signed document gets the
    change appended. Needs "change the document" with the user password. 409 DOCUMENT_NOT_TAGGED for a
    document without a structure tree (PDFUAConvertAction tags it). Nothing is written when nothing
    changes.

    Args:
        file_path (str):
        index (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FigureModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
index=index,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    index: str,
    *,
    client: AuthenticatedClient | Client,
    body:    FigurePatch  |     FigurePatch  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> FigureModel | Problem | None:
    """ Set or remove a figure's alternate text

     A JSON merge patch: alt (/Alt) and actualText (/ActualText), each a text that replaces it or null
    that removes it. 404 FIGURE_NOT_FOUND for an index that names no figure. Answers the figure. An
    ordinary write: If-Match (412), a new version, the document's lock; a signed document gets the
    change appended. Needs "change the document" with the user password. 409 DOCUMENT_NOT_TAGGED for a
    document without a structure tree (PDFUAConvertAction tags it). Nothing is written when nothing
    changes.

    Args:
        file_path (str):
        index (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays
        body (FigurePatch): A JSON merge patch (RFC 7396) of one figure: a text given replaces it,
            null removes it, an absent one stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FigureModel | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
index=index,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )).parsed
