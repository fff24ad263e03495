from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.watched_folder_model import WatchedFolderModel
from ...models.watched_folder_request import WatchedFolderRequest
from typing import cast



def _get_kwargs(
    watch_name: str,
    *,
    body: WatchedFolderRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/watched-folders/{watch_name}".format(watch_name=quote(str(watch_name), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | WatchedFolderModel | None:
    if response.status_code == 200:
        response_200 = WatchedFolderModel.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = WatchedFolderModel.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | WatchedFolderModel]:
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
    body: WatchedFolderRequest,

) -> Response[Problem | WatchedFolderModel]:
    """ Bind a folder to a pipeline

     201 with Location when made, 200 when bound again (its runs kept). From then on every document
    arriving in the folder (any upload or conversion, a copy, a restore from the trash) runs the
    pipeline once as a job, as the caller. 404 PIPELINE_NOT_FOUND, 404 FOLDER_NOT_FOUND; 400 WATCH_CYCLE
    when outputs would arrive again for ever. Body as JSON or XML <WatchedFolder>. A watched folder
    belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are needed at bind
    and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-folders.md.

    Args:
        watch_name (str):
        body (WatchedFolderRequest): WatchedFolder (XML: <WatchedFolder>) to bind: every document
            arriving in `folder` runs `pipeline` as the binder, its output written to `target` under
            the same name (absent: in place, as a new version). See docs/watched-folders.md.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WatchedFolderModel]
     """


    kwargs = _get_kwargs(
        watch_name=watch_name,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: WatchedFolderRequest,

) -> Problem | WatchedFolderModel | None:
    """ Bind a folder to a pipeline

     201 with Location when made, 200 when bound again (its runs kept). From then on every document
    arriving in the folder (any upload or conversion, a copy, a restore from the trash) runs the
    pipeline once as a job, as the caller. 404 PIPELINE_NOT_FOUND, 404 FOLDER_NOT_FOUND; 400 WATCH_CYCLE
    when outputs would arrive again for ever. Body as JSON or XML <WatchedFolder>. A watched folder
    belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are needed at bind
    and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-folders.md.

    Args:
        watch_name (str):
        body (WatchedFolderRequest): WatchedFolder (XML: <WatchedFolder>) to bind: every document
            arriving in `folder` runs `pipeline` as the binder, its output written to `target` under
            the same name (absent: in place, as a new version). See docs/watched-folders.md.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WatchedFolderModel
     """


    return sync_detailed(
        watch_name=watch_name,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: WatchedFolderRequest,

) -> Response[Problem | WatchedFolderModel]:
    """ Bind a folder to a pipeline

     201 with Location when made, 200 when bound again (its runs kept). From then on every document
    arriving in the folder (any upload or conversion, a copy, a restore from the trash) runs the
    pipeline once as a job, as the caller. 404 PIPELINE_NOT_FOUND, 404 FOLDER_NOT_FOUND; 400 WATCH_CYCLE
    when outputs would arrive again for ever. Body as JSON or XML <WatchedFolder>. A watched folder
    belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are needed at bind
    and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-folders.md.

    Args:
        watch_name (str):
        body (WatchedFolderRequest): WatchedFolder (XML: <WatchedFolder>) to bind: every document
            arriving in `folder` runs `pipeline` as the binder, its output written to `target` under
            the same name (absent: in place, as a new version). See docs/watched-folders.md.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WatchedFolderModel]
     """


    kwargs = _get_kwargs(
        watch_name=watch_name,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    watch_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: WatchedFolderRequest,

) -> Problem | WatchedFolderModel | None:
    """ Bind a folder to a pipeline

     201 with Location when made, 200 when bound again (its runs kept). From then on every document
    arriving in the folder (any upload or conversion, a copy, a restore from the trash) runs the
    pipeline once as a job, as the caller. 404 PIPELINE_NOT_FOUND, 404 FOLDER_NOT_FOUND; 400 WATCH_CYCLE
    when outputs would arrive again for ever. Body as JSON or XML <WatchedFolder>. A watched folder
    belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are needed at bind
    and at each run); an admin reads and deletes others' with ?owner=. See docs/watched-folders.md.

    Args:
        watch_name (str):
        body (WatchedFolderRequest): WatchedFolder (XML: <WatchedFolder>) to bind: every document
            arriving in `folder` runs `pipeline` as the binder, its output written to `target` under
            the same name (absent: in place, as a new version). See docs/watched-folders.md.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WatchedFolderModel
     """


    return (await asyncio_detailed(
        watch_name=watch_name,
client=client,
body=body,

    )).parsed
