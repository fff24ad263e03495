from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_jobs_response_200 import ListJobsResponse200
from ...models.list_jobs_state import ListJobsState
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    owner: str | Unset = UNSET,
    state: ListJobsState | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["owner"] = owner

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/jobs",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ListJobsResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = ListJobsResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ListJobsResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    state: ListJobsState | Unset = UNSET,

) -> Response[ListJobsResponse200 | Problem]:
    """ List background jobs

     The caller's jobs, newest first (admins: everyone's, or one user's with ?owner=), optionally in one
    state.

    Args:
        owner (str | Unset):
        state (ListJobsState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListJobsResponse200 | Problem]
     """


    kwargs = _get_kwargs(
        owner=owner,
state=state,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    state: ListJobsState | Unset = UNSET,

) -> ListJobsResponse200 | Problem | None:
    """ List background jobs

     The caller's jobs, newest first (admins: everyone's, or one user's with ?owner=), optionally in one
    state.

    Args:
        owner (str | Unset):
        state (ListJobsState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListJobsResponse200 | Problem
     """


    return sync_detailed(
        client=client,
owner=owner,
state=state,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    state: ListJobsState | Unset = UNSET,

) -> Response[ListJobsResponse200 | Problem]:
    """ List background jobs

     The caller's jobs, newest first (admins: everyone's, or one user's with ?owner=), optionally in one
    state.

    Args:
        owner (str | Unset):
        state (ListJobsState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListJobsResponse200 | Problem]
     """


    kwargs = _get_kwargs(
        owner=owner,
state=state,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    state: ListJobsState | Unset = UNSET,

) -> ListJobsResponse200 | Problem | None:
    """ List background jobs

     The caller's jobs, newest first (admins: everyone's, or one user's with ?owner=), optionally in one
    state.

    Args:
        owner (str | Unset):
        state (ListJobsState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListJobsResponse200 | Problem
     """


    return (await asyncio_detailed(
        client=client,
owner=owner,
state=state,

    )).parsed
