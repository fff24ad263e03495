from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.follow_job_events_response_200 import FollowJobEventsResponse200
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    last_event_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["last-event-id"] = last_event_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/jobs/{id}/events".format(id=quote(str(id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FollowJobEventsResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = FollowJobEventsResponse200.from_dict(response.text)



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FollowJobEventsResponse200 | Problem]:
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
    last_event_id: str | Unset = UNSET,

) -> Response[FollowJobEventsResponse200 | Problem]:
    """ Follow a background job's events

     Server-Sent Events: `id: <seq>`, `event: state|progress|end`, `data: <job JSON>`; Last-Event-ID
    resumes; `: heartbeat` every 15 s; the stream ends after the end event.

    Args:
        id (str):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FollowJobEventsResponse200 | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,

) -> FollowJobEventsResponse200 | Problem | None:
    """ Follow a background job's events

     Server-Sent Events: `id: <seq>`, `event: state|progress|end`, `data: <job JSON>`; Last-Event-ID
    resumes; `: heartbeat` every 15 s; the stream ends after the end event.

    Args:
        id (str):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FollowJobEventsResponse200 | Problem
     """


    return sync_detailed(
        id=id,
client=client,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,

) -> Response[FollowJobEventsResponse200 | Problem]:
    """ Follow a background job's events

     Server-Sent Events: `id: <seq>`, `event: state|progress|end`, `data: <job JSON>`; Last-Event-ID
    resumes; `: heartbeat` every 15 s; the stream ends after the end event.

    Args:
        id (str):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FollowJobEventsResponse200 | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,

) -> FollowJobEventsResponse200 | Problem | None:
    """ Follow a background job's events

     Server-Sent Events: `id: <seq>`, `event: state|progress|end`, `data: <job JSON>`; Last-Event-ID
    resumes; `: heartbeat` every 15 s; the stream ends after the end event.

    Args:
        id (str):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FollowJobEventsResponse200 | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
last_event_id=last_event_id,

    )).parsed
