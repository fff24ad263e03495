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
    watch_name: str,
    *,
    owner: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["owner"] = owner


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/pdfservice/v1/watched-folders/{watch_name}".format(watch_name=quote(str(watch_name), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Unbind a watched folder

     204: nothing arriving runs any more; its runs' records go with it (their jobs stay in GET /jobs). A
    watched folder belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are
    needed at bind and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-
    folders.md.

    Args:
        watch_name (str):
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        watch_name=watch_name,
owner=owner,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,

) -> Any | Problem | None:
    """ Unbind a watched folder

     204: nothing arriving runs any more; its runs' records go with it (their jobs stay in GET /jobs). A
    watched folder belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are
    needed at bind and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-
    folders.md.

    Args:
        watch_name (str):
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        watch_name=watch_name,
client=client,
owner=owner,

    ).parsed

async def asyncio_detailed(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Unbind a watched folder

     204: nothing arriving runs any more; its runs' records go with it (their jobs stay in GET /jobs). A
    watched folder belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are
    needed at bind and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-
    folders.md.

    Args:
        watch_name (str):
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        watch_name=watch_name,
owner=owner,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,

) -> Any | Problem | None:
    """ Unbind a watched folder

     204: nothing arriving runs any more; its runs' records go with it (their jobs stay in GET /jobs). A
    watched folder belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are
    needed at bind and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-
    folders.md.

    Args:
        watch_name (str):
        owner (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        watch_name=watch_name,
client=client,
owner=owner,

    )).parsed
