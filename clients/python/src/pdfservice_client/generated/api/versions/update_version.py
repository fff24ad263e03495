from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.version_change import VersionChange
from ...models.version_model import VersionModel
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    version_id: str,
    *,
    body: VersionChange,
    if_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/versions/{version_id}".format(file_path=quote(str(file_path), safe=""),version_id=quote(str(version_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | VersionModel | None:
    if response.status_code == 200:
        response_200 = VersionModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | VersionModel]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    version_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: VersionChange,
    if_match: str | Unset = UNSET,

) -> Response[Problem | VersionModel]:
    """ Set a version's label or pin

     Needs the PUT right, as a change of the document does. A pinned version is kept whatever the
    retention policy says (thinning, count, age, per-user cap).

    Args:
        file_path (str):
        version_id (str):
        if_match (str | Unset):
        body (VersionChange): What PATCH changes of a version: its label (null removes it) and
            pin; what is absent stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VersionModel]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
version_id=version_id,
body=body,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    version_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: VersionChange,
    if_match: str | Unset = UNSET,

) -> Problem | VersionModel | None:
    """ Set a version's label or pin

     Needs the PUT right, as a change of the document does. A pinned version is kept whatever the
    retention policy says (thinning, count, age, per-user cap).

    Args:
        file_path (str):
        version_id (str):
        if_match (str | Unset):
        body (VersionChange): What PATCH changes of a version: its label (null removes it) and
            pin; what is absent stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VersionModel
     """


    return sync_detailed(
        file_path=file_path,
version_id=version_id,
client=client,
body=body,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    version_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: VersionChange,
    if_match: str | Unset = UNSET,

) -> Response[Problem | VersionModel]:
    """ Set a version's label or pin

     Needs the PUT right, as a change of the document does. A pinned version is kept whatever the
    retention policy says (thinning, count, age, per-user cap).

    Args:
        file_path (str):
        version_id (str):
        if_match (str | Unset):
        body (VersionChange): What PATCH changes of a version: its label (null removes it) and
            pin; what is absent stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VersionModel]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
version_id=version_id,
body=body,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    version_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: VersionChange,
    if_match: str | Unset = UNSET,

) -> Problem | VersionModel | None:
    """ Set a version's label or pin

     Needs the PUT right, as a change of the document does. A pinned version is kept whatever the
    retention policy says (thinning, count, age, per-user cap).

    Args:
        file_path (str):
        version_id (str):
        if_match (str | Unset):
        body (VersionChange): What PATCH changes of a version: its label (null removes it) and
            pin; what is absent stays

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VersionModel
     """


    return (await asyncio_detailed(
        file_path=file_path,
version_id=version_id,
client=client,
body=body,
if_match=if_match,

    )).parsed
