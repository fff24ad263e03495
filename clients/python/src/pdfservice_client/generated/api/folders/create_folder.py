from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.folder_model import FolderModel
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    folder_path: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/documents/{folder_path}".format(folder_path=quote(str(folder_path), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FolderModel | Problem | None:
    if response.status_code == 200:
        response_200 = FolderModel.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = FolderModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FolderModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[FolderModel | Problem]:
    """ Create a folder and its parents

     201 when created, 200 when it existed. Folder names may not end in ".pdf".

    Args:
        folder_path (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FolderModel | Problem]
     """


    kwargs = _get_kwargs(
        folder_path=folder_path,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,

) -> FolderModel | Problem | None:
    """ Create a folder and its parents

     201 when created, 200 when it existed. Folder names may not end in ".pdf".

    Args:
        folder_path (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FolderModel | Problem
     """


    return sync_detailed(
        folder_path=folder_path,
client=client,

    ).parsed

async def asyncio_detailed(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[FolderModel | Problem]:
    """ Create a folder and its parents

     201 when created, 200 when it existed. Folder names may not end in ".pdf".

    Args:
        folder_path (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FolderModel | Problem]
     """


    kwargs = _get_kwargs(
        folder_path=folder_path,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,

) -> FolderModel | Problem | None:
    """ Create a folder and its parents

     201 when created, 200 when it existed. Folder names may not end in ".pdf".

    Args:
        folder_path (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FolderModel | Problem
     """


    return (await asyncio_detailed(
        folder_path=folder_path,
client=client,

    )).parsed
