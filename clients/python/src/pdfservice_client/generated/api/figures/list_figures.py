from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.figures_model import FiguresModel
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    params: dict[str, Any] = {}

    params["versionId"] = version_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/figures".format(file_path=quote(str(file_path), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | FiguresModel | Problem | None:
    if response.status_code == 200:
        response_200 = FiguresModel.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | FiguresModel | Problem]:
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
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | FiguresModel | Problem]:
    """ List the figures and their alternate text

     Every Figure structure element (its type once the role map is applied), in the structure tree's
    depth-first order: index, pageIndex, bbox (PDF user space), alt, actualText, hasAlt and the URL of
    its page's image. An untagged document answers tagged: false and no figures. A broken structure tree
    (cycles, shared elements, missing parents, role maps that loop) is walked once per element. ETag and
    If-None-Match (304) by document version; ?versionId= reads a kept version.

    Args:
        file_path (str):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | FiguresModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
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
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | FiguresModel | Problem | None:
    """ List the figures and their alternate text

     Every Figure structure element (its type once the role map is applied), in the structure tree's
    depth-first order: index, pageIndex, bbox (PDF user space), alt, actualText, hasAlt and the URL of
    its page's image. An untagged document answers tagged: false and no figures. A broken structure tree
    (cycles, shared elements, missing parents, role maps that loop) is walked once per element. ETag and
    If-None-Match (304) by document version; ?versionId= reads a kept version.

    Args:
        file_path (str):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | FiguresModel | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | FiguresModel | Problem]:
    """ List the figures and their alternate text

     Every Figure structure element (its type once the role map is applied), in the structure tree's
    depth-first order: index, pageIndex, bbox (PDF user space), alt, actualText, hasAlt and the URL of
    its page's image. An untagged document answers tagged: false and no figures. A broken structure tree
    (cycles, shared elements, missing parents, role maps that loop) is walked once per element. ETag and
    If-None-Match (304) by document version; ?versionId= reads a kept version.

    Args:
        file_path (str):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | FiguresModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
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
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | FiguresModel | Problem | None:
    """ List the figures and their alternate text

     Every Figure structure element (its type once the role map is applied), in the structure tree's
    depth-first order: index, pageIndex, bbox (PDF user space), alt, actualText, hasAlt and the URL of
    its page's image. An untagged document answers tagged: false and no figures. A broken structure tree
    (cycles, shared elements, missing parents, role maps that loop) is walked once per element. ETag and
    If-None-Match (304) by document version; ?versionId= reads a kept version.

    Args:
        file_path (str):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | FiguresModel | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    )).parsed
