from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.trash_model import TrashModel
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    offset: int | Unset = 0,
    limit: int | Unset = 100,
    owner: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["offset"] = offset

    params["limit"] = limit

    params["owner"] = owner


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/trash",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TrashModel | None:
    if response.status_code == 200:
        response_200 = TrashModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TrashModel]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,
    owner: str | Unset = UNSET,

) -> Response[Problem | TrashModel]:
    """ List the documents and folders you deleted, newest first

     A DELETE of a document or folder moves it, with its versions, here. 100 at a time by default
    (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Admins list another
    user's with ?owner=name, everyone's with ?owner=*. 501 TRASH_NOT_KEPT when the service keeps no
    trash (PDFSERVICE_TRASH off).

    Args:
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TrashModel]
     """


    kwargs = _get_kwargs(
        offset=offset,
limit=limit,
owner=owner,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,
    owner: str | Unset = UNSET,

) -> Problem | TrashModel | None:
    """ List the documents and folders you deleted, newest first

     A DELETE of a document or folder moves it, with its versions, here. 100 at a time by default
    (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Admins list another
    user's with ?owner=name, everyone's with ?owner=*. 501 TRASH_NOT_KEPT when the service keeps no
    trash (PDFSERVICE_TRASH off).

    Args:
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TrashModel
     """


    return sync_detailed(
        client=client,
offset=offset,
limit=limit,
owner=owner,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,
    owner: str | Unset = UNSET,

) -> Response[Problem | TrashModel]:
    """ List the documents and folders you deleted, newest first

     A DELETE of a document or folder moves it, with its versions, here. 100 at a time by default
    (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Admins list another
    user's with ?owner=name, everyone's with ?owner=*. 501 TRASH_NOT_KEPT when the service keeps no
    trash (PDFSERVICE_TRASH off).

    Args:
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TrashModel]
     """


    kwargs = _get_kwargs(
        offset=offset,
limit=limit,
owner=owner,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,
    owner: str | Unset = UNSET,

) -> Problem | TrashModel | None:
    """ List the documents and folders you deleted, newest first

     A DELETE of a document or folder moves it, with its versions, here. 100 at a time by default
    (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Admins list another
    user's with ?owner=name, everyone's with ?owner=*. 501 TRASH_NOT_KEPT when the service keeps no
    trash (PDFSERVICE_TRASH off).

    Args:
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TrashModel
     """


    return (await asyncio_detailed(
        client=client,
offset=offset,
limit=limit,
owner=owner,

    )).parsed
