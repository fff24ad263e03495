from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    attachment: bool | Unset = True,
    if_none_match: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match

    if not isinstance(range_, Unset):
        headers["range"] = range_

    if not isinstance(if_range, Unset):
        headers["if-range"] = if_range



    

    params: dict[str, Any] = {}

    params["attachment"] = attachment


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/jobs/{id}/result".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    attachment: bool | Unset = True,
    if_none_match: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Download a background job's result file

     A succeeded job that produced a file which is not a stored document (an export: its `result.file`
    says so) answers it here, with the media type and name its record gives (Content-Disposition:
    attachment, or inline with ?attachment=false), ETag, If-None-Match (304) and Range support, as long
    as the job is kept (PDFSERVICE_JOB_RETENTION_SECONDS). A job without one (running, failed, or one
    that wrote a document) is 404 JOB_RESULT_NOT_FOUND; another user's job is 404 JOB_NOT_FOUND.

    Args:
        id (str):
        attachment (bool | Unset):  Default: True.
        if_none_match (str | Unset):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
attachment=attachment,
if_none_match=if_none_match,
range_=range_,
if_range=if_range,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    attachment: bool | Unset = True,
    if_none_match: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,

) -> Any | Problem | None:
    """ Download a background job's result file

     A succeeded job that produced a file which is not a stored document (an export: its `result.file`
    says so) answers it here, with the media type and name its record gives (Content-Disposition:
    attachment, or inline with ?attachment=false), ETag, If-None-Match (304) and Range support, as long
    as the job is kept (PDFSERVICE_JOB_RETENTION_SECONDS). A job without one (running, failed, or one
    that wrote a document) is 404 JOB_RESULT_NOT_FOUND; another user's job is 404 JOB_NOT_FOUND.

    Args:
        id (str):
        attachment (bool | Unset):  Default: True.
        if_none_match (str | Unset):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        id=id,
client=client,
attachment=attachment,
if_none_match=if_none_match,
range_=range_,
if_range=if_range,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    attachment: bool | Unset = True,
    if_none_match: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Download a background job's result file

     A succeeded job that produced a file which is not a stored document (an export: its `result.file`
    says so) answers it here, with the media type and name its record gives (Content-Disposition:
    attachment, or inline with ?attachment=false), ETag, If-None-Match (304) and Range support, as long
    as the job is kept (PDFSERVICE_JOB_RETENTION_SECONDS). A job without one (running, failed, or one
    that wrote a document) is 404 JOB_RESULT_NOT_FOUND; another user's job is 404 JOB_NOT_FOUND.

    Args:
        id (str):
        attachment (bool | Unset):  Default: True.
        if_none_match (str | Unset):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
attachment=attachment,
if_none_match=if_none_match,
range_=range_,
if_range=if_range,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    attachment: bool | Unset = True,
    if_none_match: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_range: str | Unset = UNSET,

) -> Any | Problem | None:
    """ Download a background job's result file

     A succeeded job that produced a file which is not a stored document (an export: its `result.file`
    says so) answers it here, with the media type and name its record gives (Content-Disposition:
    attachment, or inline with ?attachment=false), ETag, If-None-Match (304) and Range support, as long
    as the job is kept (PDFSERVICE_JOB_RETENTION_SECONDS). A job without one (running, failed, or one
    that wrote a document) is 404 JOB_RESULT_NOT_FOUND; another user's job is 404 JOB_NOT_FOUND.

    Args:
        id (str):
        attachment (bool | Unset):  Default: True.
        if_none_match (str | Unset):
        range_ (str | Unset):
        if_range (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
attachment=attachment,
if_none_match=if_none_match,
range_=range_,
if_range=if_range,

    )).parsed
