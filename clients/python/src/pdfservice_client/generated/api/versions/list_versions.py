from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.versions_model import VersionsModel
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    offset: int | Unset = 0,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["offset"] = offset

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/versions".format(file_path=quote(str(file_path), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | VersionsModel | None:
    if response.status_code == 200:
        response_200 = VersionsModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | VersionsModel]:
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
    offset: int | Unset = 0,
    limit: int | Unset = 100,

) -> Response[Problem | VersionsModel]:
    """ List the kept versions of a document, newest first

     Every write of the document made one (uploads, actions, edits of annotations, fields and pages,
    imports, restores, jobs); the current content is the newest, marked current. 100 at a time by
    default (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Read a
    version with ?versionId= on the document and its read-only sub-resources. 501 VERSIONS_NOT_KEPT when
    the service keeps no versions (PDFSERVICE_VERSIONS off).

    Args:
        file_path (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VersionsModel]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
offset=offset,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,

) -> Problem | VersionsModel | None:
    """ List the kept versions of a document, newest first

     Every write of the document made one (uploads, actions, edits of annotations, fields and pages,
    imports, restores, jobs); the current content is the newest, marked current. 100 at a time by
    default (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Read a
    version with ?versionId= on the document and its read-only sub-resources. 501 VERSIONS_NOT_KEPT when
    the service keeps no versions (PDFSERVICE_VERSIONS off).

    Args:
        file_path (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VersionsModel
     """


    return sync_detailed(
        file_path=file_path,
client=client,
offset=offset,
limit=limit,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,

) -> Response[Problem | VersionsModel]:
    """ List the kept versions of a document, newest first

     Every write of the document made one (uploads, actions, edits of annotations, fields and pages,
    imports, restores, jobs); the current content is the newest, marked current. 100 at a time by
    default (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Read a
    version with ?versionId= on the document and its read-only sub-resources. 501 VERSIONS_NOT_KEPT when
    the service keeps no versions (PDFSERVICE_VERSIONS off).

    Args:
        file_path (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VersionsModel]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
offset=offset,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    offset: int | Unset = 0,
    limit: int | Unset = 100,

) -> Problem | VersionsModel | None:
    """ List the kept versions of a document, newest first

     Every write of the document made one (uploads, actions, edits of annotations, fields and pages,
    imports, restores, jobs); the current content is the newest, marked current. 100 at a time by
    default (?offset=, ?limit= up to 1000), with next/prev in the body and the Link header. Read a
    version with ?versionId= on the document and its read-only sub-resources. 501 VERSIONS_NOT_KEPT when
    the service keeps no versions (PDFSERVICE_VERSIONS off).

    Args:
        file_path (str):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VersionsModel
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
offset=offset,
limit=limit,

    )).parsed
